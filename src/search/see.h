#pragma once
// Static exchange evaluation (chessprogramming wiki "Static Exchange Evaluation", the swap
// algorithm with a threshold): does the capture sequence on the destination square, each side
// recapturing with its least valuable attacker and free to stop, gain at least `threshold`?
// Piece values are tunables::SeeValue* (centipawns). X-ray attackers behind moved sliders are
// added as they are uncovered. Castling and promotions count as an exchange of 0, en passant
// as winning a pawn.

#include "core/position.h"

namespace janus {

/// Type of the piece `m` captures, or kNoPieceType for a non-capture.
inline PieceType capturedType(const Position& pos, Move m) {
  if (m.isEnPassant()) return kPawn;
  if (m.isCastling() || pos.empty(m.to())) return kNoPieceType;
  return typeOf(pos.pieceOn(m.to()));
}

/// True if the static exchange value of `m` is >= `threshold` (centipawns).
[[nodiscard]] bool seeGe(const Position& pos, Move m, int threshold);

}  // namespace janus
