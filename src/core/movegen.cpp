#include "core/movegen.h"

namespace janus {
namespace {

/// Writes moves into a MoveList.
struct ListSink {
  MoveList& list;
  void add(Move m) { list.add(m); }
  void piece(Square from, Bitboard targets) {
    while (targets) list.add(Move(from, popLsb(targets)));
  }
  void pawns(Bitboard targets, int delta) {
    while (targets) {
      Square to = popLsb(targets);
      list.add(Move(Square(to - delta), to));
    }
  }
  void promotions(Bitboard targets, int delta) {
    while (targets) {
      Square to = popLsb(targets);
      Square from = Square(to - delta);
      for (PieceType pt : {kQueen, kKnight, kRook, kBishop}) list.add(Move(from, to, Move::kPromotion, pt));
    }
  }
};

/// Only counts moves (perft bulk counting).
struct CountSink {
  int n = 0;
  void add(Move) { ++n; }
  void piece(Square, Bitboard targets) { n += popCount(targets); }
  void pawns(Bitboard targets, int) { n += popCount(targets); }
  void promotions(Bitboard targets, int) { n += 4 * popCount(targets); }
};

template <Color Us, GenType T, class Sink>
void generate(const Position& pos, Sink& sink) {
  constexpr Color Them = Us == kWhite ? kBlack : kWhite;
  constexpr int Up = Us == kWhite ? 8 : -8;
  const Bitboard us = pos.pieces(Us), them = pos.pieces(Them), occ = us | them;
  const Square ksq = pos.kingSquare(Us);
  const Bitboard checkers = pos.checkers();
  const Bitboard typeMask = T == GenType::kAll ? ~us : T == GenType::kNoisy ? them : ~occ;

  // King moves: each target tested with the king removed, so it cannot hide behind itself.
  {
    Bitboard targets = kingAttacks(ksq) & typeMask, ok = 0;
    const Bitboard occNoKing = occ ^ squareBB(ksq);
    while (targets) {
      Square to = popLsb(targets);
      if (!pos.attacked(to, Them, occNoKing)) ok |= squareBB(to);
    }
    sink.piece(ksq, ok);
  }
  if (moreThanOne(checkers)) return;  // double check: only the king may move

  const Bitboard checkMask = checkers ? (between(ksq, lsb(checkers)) | checkers) : ~Bitboard(0);

  // Pin rays (including the pinning piece): x-ray from the king through our own pieces.
  Bitboard pinHV = 0, pinD = 0;
  {
    Bitboard snipers = rookAttacks(ksq, them) & pos.pieces(Them, kRook, kQueen);
    while (snipers) {
      Square s = popLsb(snipers);
      Bitboard ray = between(ksq, s), blockers = ray & us;
      if (blockers && !moreThanOne(blockers)) pinHV |= ray | squareBB(s);
    }
    snipers = bishopAttacks(ksq, them) & pos.pieces(Them, kBishop, kQueen);
    while (snipers) {
      Square s = popLsb(snipers);
      Bitboard ray = between(ksq, s), blockers = ray & us;
      if (blockers && !moreThanOne(blockers)) pinD |= ray | squareBB(s);
    }
  }
  const Bitboard targets = typeMask & checkMask;

  // Pawns.
  {
    constexpr Bitboard kRank3 = Us == kWhite ? rankBB(2) : rankBB(5);
    constexpr Bitboard kLast = Us == kWhite ? kRank8 : kRank1;
    const Bitboard pawns = pos.pieces(Us, kPawn);
    const Bitboard empty = ~occ;

    const Bitboard pushers = pawns & ~pinD;
    const Bitboard freePush = pushers & ~pinHV, pinnedPush = pushers & pinHV;
    Bitboard single = (shiftForward<Us>(freePush) | (shiftForward<Us>(pinnedPush) & pinHV)) & empty;
    Bitboard dbl = shiftForward<Us>(single & kRank3) & empty & checkMask;
    single &= checkMask;

    const Bitboard capturers = pawns & ~pinHV;
    const Bitboard freeCap = capturers & ~pinD, pinnedCap = capturers & pinD;
    auto fwdWest = [](Bitboard b) { return Us == kWhite ? (b & ~kFileA) << 7 : (b & ~kFileA) >> 9; };
    auto fwdEast = [](Bitboard b) { return Us == kWhite ? (b & ~kFileH) << 9 : (b & ~kFileH) >> 7; };
    Bitboard capW = (fwdWest(freeCap) | (fwdWest(pinnedCap) & pinD)) & them & checkMask;
    Bitboard capE = (fwdEast(freeCap) | (fwdEast(pinnedCap) & pinD)) & them & checkMask;

    if constexpr (T != GenType::kNoisy) {
      sink.pawns(single & ~kLast, Up);
      sink.pawns(dbl, 2 * Up);
    }
    if constexpr (T != GenType::kQuiet) {
      sink.promotions(single & kLast, Up);
      sink.promotions(capW & kLast, Up - 1);
      sink.promotions(capE & kLast, Up + 1);
      sink.pawns(capW & ~kLast, Up - 1);
      sink.pawns(capE & ~kLast, Up + 1);

      Square ep = pos.epSquare();
      if (ep != kNoSquare) {
        Square capSq = Square(ep - Up);
        Bitboard epPawns = pawnAttacks(Them, ep) & pawns;
        while (epPawns) {
          Square from = popLsb(epPawns);
          Bitboard occAfter = (occ ^ squareBB(from) ^ squareBB(capSq)) | squareBB(ep);
          if (!((pos.attackersTo(ksq, occAfter) & them) & ~squareBB(capSq)))
            sink.add(Move(from, ep, Move::kEnPassant));
        }
      }
    }
  }

  // Knights: a pinned knight can never move.
  {
    Bitboard b = pos.pieces(Us, kKnight) & ~(pinHV | pinD);
    while (b) {
      Square from = popLsb(b);
      sink.piece(from, knightAttacks(from) & targets);
    }
  }
  // Diagonal sliders (bishops and the diagonal moves of queens).
  {
    Bitboard b = pos.pieces(Us, kBishop, kQueen) & ~pinHV;
    while (b) {
      Square from = popLsb(b);
      Bitboard t = bishopAttacks(from, occ) & targets;
      if (pinD & squareBB(from)) t &= pinD;
      sink.piece(from, t);
    }
  }
  // Orthogonal sliders (rooks and the orthogonal moves of queens).
  {
    Bitboard b = pos.pieces(Us, kRook, kQueen) & ~pinD;
    while (b) {
      Square from = popLsb(b);
      Bitboard t = rookAttacks(from, occ) & targets;
      if (pinHV & squareBB(from)) t &= pinHV;
      sink.piece(from, t);
    }
  }
  // Castling (king takes own rook).
  if constexpr (T != GenType::kNoisy) {
    if (!checkers && (pos.castlingRights() & (Us == kWhite ? (kWhiteKingSide | kWhiteQueenSide)
                                                             : (kBlackKingSide | kBlackQueenSide)))) {
      const CastlingGeometry& cg = pos.castling();
      for (bool kingSide : {true, false}) {
        if (!pos.canCastle(castlingRight(Us, kingSide))) continue;
        int idx = castlingIndex(Us, kingSide);
        if (cg.emptyPath[idx] & occ) continue;
        Square rook = cg.rookFrom[idx];
        // Attacks on the king's path are tested with king and rook lifted (Chess960: the rook
        // may shield the destination square before castling).
        Bitboard occWithout = occ ^ squareBB(ksq) ^ squareBB(rook);
        Bitboard path = cg.kingPath[idx];
        bool safe = true;
        while (path && safe) safe = !pos.attacked(popLsb(path), Them, occWithout);
        if (safe) sink.add(Move(ksq, rook, Move::kCastling));
      }
    }
  }
}

template <GenType T, class Sink>
void generateFor(const Position& pos, Sink& sink) {
  if (pos.sideToMove() == kWhite)
    generate<kWhite, T>(pos, sink);
  else
    generate<kBlack, T>(pos, sink);
}

}  // namespace

void generateMoves(const Position& pos, MoveList& list, GenType type) {
  ListSink sink{list};
  switch (type) {
    case GenType::kAll: generateFor<GenType::kAll>(pos, sink); break;
    case GenType::kNoisy: generateFor<GenType::kNoisy>(pos, sink); break;
    case GenType::kQuiet: generateFor<GenType::kQuiet>(pos, sink); break;
  }
}

int countLegalMoves(const Position& pos) {
  CountSink sink;
  generateFor<GenType::kAll>(pos, sink);
  return sink.n;
}

bool hasLegalMove(const Position& pos) { return countLegalMoves(pos) > 0; }

}  // namespace janus
