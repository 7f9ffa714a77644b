#pragma once
// Move-ordering statistics (chessprogramming wiki "History Heuristic", "Killer Heuristic",
// "Countermove Heuristic"; continuation history as described for Stockfish in the wiki page
// "History Heuristic", section "Continuation History").
//
// Every table holds i16 scores updated with the "history gravity" formula
//   h += bonus - h * |bonus| / kHistoryMax
// which keeps |h| <= kHistoryMax and lets recent results outweigh old ones.

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "core/position.h"
#include "core/types.h"

namespace janus {

constexpr int kHistoryMax = 16384;

/// The gravity update of `entry` by `bonus` for a table whose entries stay within ±`limit`.
inline void applyGravity(i16& entry, int bonus, int limit = kHistoryMax) {
  bonus = std::clamp(bonus, -limit, limit);
  entry = i16(entry + bonus - entry * std::abs(bonus) / limit);
}

/// Scores indexed by [piece][to]: one continuation-history slot (for a previous move).
struct PieceToHistory {
  i16 table[12][64];
  [[nodiscard]] int get(Piece p, Square to) const { return table[p][to]; }
  void update(Piece p, Square to, int bonus) { applyGravity(table[p][to], bonus); }
};

/// Static evaluation correction history (chessprogramming wiki "Static Evaluation Correction
/// History"; the pawn table as in Stockfish 16, the non-pawn tables as in Stockfish 17): how far
/// the searches of positions with the same pawn structure, and with the same non-pawn pieces of
/// each colour, came out above or below their static evaluation, learnt per side to move with
/// the history gravity formula. Entries in [-kLimit, kLimit]; correction() is in centipawns,
/// at most (2 + 1 + 1) * kLimit / 64 = 64 cp either way. About 192 KiB per thread.
struct CorrectionHistory {
  static constexpr int kSize = 16384;  ///< entries per table (a power of two; index = key mod kSize)
  static constexpr int kLimit = 1024;
  /// [side to move][pawn key]
  i16 pawn[2][kSize];
  /// [side to move][colour of the pieces][that colour's non-pawn key]
  i16 nonPawn[2][2][kSize];

  /// Centipawns to add to the static evaluation of `pos` (side to move's view).
  [[nodiscard]] int correction(const Position& pos) const {
    const Slots i = slots(pos);
    return (2 * pawn[i.us][i.pawn] + nonPawn[i.us][kWhite][i.white] + nonPawn[i.us][kBlack][i.black]) / 64;
  }
  /// Moves the entries of `pos` towards a search result `diff` centipawns above the corrected
  /// static evaluation, found at `depth`: bonus diff * depth / 8, at most kLimit / 4.
  void update(const Position& pos, int diff, int depth) {
    const int bonus = std::clamp(diff * depth / 8, -kLimit / 4, kLimit / 4);
    const Slots i = slots(pos);
    for (i16* e : {&pawn[i.us][i.pawn], &nonPawn[i.us][kWhite][i.white], &nonPawn[i.us][kBlack][i.black]})
      applyGravity(*e, bonus, kLimit);
  }

 private:
  /// Where `pos` is kept: its side to move and its pawn, White non-pawn and Black non-pawn slots.
  struct Slots {
    Color us;
    u64 pawn, white, black;
  };
  [[nodiscard]] static Slots slots(const Position& pos) {
    return {pos.sideToMove(), pos.pawnKey() % kSize, pos.nonPawnKey(kWhite) % kSize, pos.nonPawnKey(kBlack) % kSize};
  }
};

/// Per-thread history tables (about 1.4 MiB, mostly continuation history).
struct Histories {
  /// Butterfly history: [side to move][from * 64 + to].
  i16 main[2][64 * 64];
  /// Capture history: [moving piece][to][captured piece type].
  i16 capture[12][64][6];
  /// Continuation history: [previous move's piece][previous to] -> PieceToHistory of replies.
  /// Index [12][0] is a zeroed sentinel used when there is no previous move (root, null move).
  PieceToHistory continuation[13][64];
  /// Countermove: [previous move's piece][previous to] -> the reply that refuted it.
  Move counter[12][64];
  CorrectionHistory correction;

  void clear() { std::memset(static_cast<void*>(this), 0, sizeof(*this)); }  // all-zero is the empty state
  [[nodiscard]] PieceToHistory* sentinel() { return &continuation[12][0]; }
};

}  // namespace janus
