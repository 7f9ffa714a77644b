#pragma once
// Legal move generation.
//
// Moves are generated strictly legal, without a make/test/unmake filter: a check mask (the
// squares that capture or block a single checker), horizontal/vertical and diagonal pin rays
// and the enemy attack map (computed with our king removed) restrict every piece's targets
// (chessprogramming wiki "Move Generation", "Pin", "Checks and Pinned Pieces (Bitboards)").
// En passant, the one move whose legality depends on two vacated squares, is verified by
// recomputing slider attacks on the king.
//
// The generator is a template over a sink, so the same code fills a MoveList or only counts
// moves (perft bulk counting at the last ply adds popcounts instead of writing moves).

#include <algorithm>

#include "core/position.h"

namespace janus {

/// Which moves to generate. Noisy = captures (including en passant) and all promotions;
/// Quiet = everything else (including castling). kAll = Noisy + Quiet. When the side to move is
/// in check every kind yields only evasions of that kind.
enum class GenType { kAll, kNoisy, kQuiet };

/// A fixed-capacity list of moves (no heap allocation). Capacity kMaxMoves = 256.
class MoveList {
 public:
  // The array lives in an anonymous union so that it is not zero-initialised on construction
  // (a MoveList is made at every search node; only the first size() entries are ever read).
  MoveList() {}
  void add(Move m) { m_moves[m_size++] = m; }
  [[nodiscard]] int size() const { return m_size; }
  [[nodiscard]] bool empty() const { return m_size == 0; }
  [[nodiscard]] Move operator[](int i) const { return m_moves[i]; }
  [[nodiscard]] Move* begin() { return m_moves; }
  [[nodiscard]] Move* end() { return m_moves + m_size; }
  [[nodiscard]] const Move* begin() const { return m_moves; }
  [[nodiscard]] const Move* end() const { return m_moves + m_size; }
  [[nodiscard]] bool contains(Move m) const { return std::find(begin(), end(), m) != end(); }
  void clear() { m_size = 0; }

 private:
  union {
    Move m_moves[kMaxMoves];
  };
  int m_size = 0;
};

/// Appends the legal moves of the given type to `list`.
void generateMoves(const Position& pos, MoveList& list, GenType type = GenType::kAll);

/// Legal moves of the side to move (convenience wrapper for kAll).
inline MoveList legalMoves(const Position& pos) {
  MoveList list;
  generateMoves(pos, list, GenType::kAll);
  return list;
}

/// Number of legal moves, computed by popcounts without writing a list (perft leaves).
[[nodiscard]] int countLegalMoves(const Position& pos);

/// True if the side to move has at least one legal move.
[[nodiscard]] bool hasLegalMove(const Position& pos);

/// Checkmate: in check with no legal move. Stalemate: not in check with no legal move.
[[nodiscard]] inline bool isCheckmate(const Position& pos) { return pos.inCheck() && !hasLegalMove(pos); }
[[nodiscard]] inline bool isStalemate(const Position& pos) { return !pos.inCheck() && !hasLegalMove(pos); }

}  // namespace janus
