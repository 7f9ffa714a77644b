#include "search/see.h"

#include "search/tunables.h"

namespace janus {

bool seeGe(const Position& pos, Move m, int threshold) {
  if (m.isCastling() || m.isPromotion()) return 0 >= threshold;
  Square from = m.from(), to = m.to();
  int captured = m.isEnPassant() ? tunables::seeValue(kPawn)
                                 : (pos.empty(to) ? 0 : tunables::seeValue(typeOf(pos.pieceOn(to))));
  // swap: what the side that just captured is ahead if the opponent stops now, minus threshold.
  int swap = captured - threshold;
  if (swap < 0) return false;
  swap = tunables::seeValue(typeOf(pos.pieceOn(from))) - swap;
  if (swap <= 0) return true;  // even losing the capturing piece keeps us above the threshold

  Bitboard occ = pos.pieces() ^ squareBB(from) ^ squareBB(to);
  if (m.isEnPassant()) occ ^= squareBB(Square(to - pawnPush(pos.sideToMove())));
  Color stm = pos.sideToMove();
  Bitboard attackers = pos.attackersTo(to, occ);
  const Bitboard diagonal = pos.pieces(kBishop, kQueen), orthogonal = pos.pieces(kRook, kQueen);
  bool result = true;  // true: the side that made the last capture is winning the exchange

  while (true) {
    stm = ~stm;
    attackers &= occ;
    Bitboard mine = attackers & pos.pieces(stm);
    if (!mine) break;
    result = !result;
    // Least valuable attacker.
    PieceType pt = kPawn;
    Bitboard b = 0;
    for (; pt <= kKing; pt = PieceType(pt + 1))
      if ((b = mine & pos.pieces(pt))) break;
    if (pt == kKing) {
      // The king may only capture if the opponent has no attacker left.
      return (attackers & pos.pieces(~stm)) ? !result : result;
    }
    swap = tunables::seeValue(pt) - swap;
    if (swap < int(result)) break;
    occ ^= squareBB(lsb(b));
    if (pt == kPawn || pt == kBishop || pt == kQueen) attackers |= bishopAttacks(to, occ) & diagonal;
    if (pt == kRook || pt == kQueen) attackers |= rookAttacks(to, occ) & orthogonal;
  }
  return result;
}

}  // namespace janus
