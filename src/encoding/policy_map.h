#pragma once
// The policy vector of the MCTS face: a fixed index for every move a queen, a knight or an
// under-promoting pawn can make, in the layout of Leela Chess Zero (1858 entries; lc0
// src/chess/bitboard.cc, a published format, regenerated here from its rule):
//   * indices 0..1791: for each from-square a1, b1, ..., h8 (0..63), every to-square reachable
//     on an empty board by a queen move or a knight move, in increasing to-square order;
//   * indices 1792..1857: pawn promotions from the 7th rank other than to a knight: for each
//     from-file a..h, each to-square (capture left, straight, capture right, those on the
//     board) in increasing order, then the piece in the order queen, rook, bishop.
//     A promotion to a knight uses the plain from-to index of the first part.
//   * castling (king takes rook in Janus) uses the index of e1h1 (king side) or e1a1 (queen
//     side), whatever the squares in Chess960.
// Moves are oriented to the side to move: Black's moves are mirrored vertically (a1 <-> a8)
// before lookup, so the policy head always sees its own pawns moving up.

#include <array>
#include <span>
#include <string>

#include "core/position.h"

namespace janus::encoding {

inline constexpr int kPolicySize = 1858;

/// One entry of the policy vector in side-to-move coordinates (White's view).
struct PolicyMove {
  Square from = kA1;
  Square to = kA1;
  PieceType promotion = kNoPieceType;  ///< kQueen, kRook or kBishop for the last 66 entries
};

/// The entry at `index` (0..kPolicySize-1).
[[nodiscard]] PolicyMove policyMove(int index);
/// UCI text of an entry in White's view, e.g. "a1b1", "a7a8q" (lc0's spelling).
[[nodiscard]] std::string policyMoveName(int index);

/// Index of legal move `m` of `pos` (0..kPolicySize-1). Every legal move of every position
/// has one (tested on the perft suites).
[[nodiscard]] int policyIndex(const Position& pos, Move m);

/// Masked softmax over the legal moves: probabilities[i] for legal move moves[i], from the
/// network's logits (kPolicySize values). Illegal entries are ignored; the result sums to 1.
/// `temperature` > 0 divides the logits.
void legalPolicy(const Position& pos, std::span<const float> logits, std::span<const Move> moves,
                 std::span<float> probabilities, float temperature = 1.0f);

}  // namespace janus::encoding
