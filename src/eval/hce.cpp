// Hand-crafted evaluation. One template, instantiated twice: kTrace = false is the fast path used
// by search (pawn hash, no bookkeeping); kTrace = true records the coefficient of every weight in
// an EvalTrace (no pawn hash). Both paths add exactly the same weights, so the trace reproduces
// the evaluation (trace.h).
//
// Step map of evaluateImpl():
//   1. Set-up: king squares, king zones, pawn attacks, mobility areas.
//   2. Pawns (pawn hash): material, piece-square, structure, passed-pawn bitboards.
//   3. Pieces: material, piece-square, mobility, attack maps, king-zone attackers, rook files.
//   4. Kings (square tables, shelter via pawn hash) and the bishop pair.
//   5. Passed pawns, dynamic part (needs the attack maps of step 3).
//   6. Threats, mop-up, tempo.
//   7. King attack units (non-linear), phase, endgame scaling, tapering.

#include "eval/hce.h"

#include <algorithm>

#include "util/error.h"

namespace janus {

namespace {

using namespace weight;

// ---- Precomputed masks ----------------------------------------------------------------------------

struct Masks {
  Bitboard adjacentFiles[8] = {};
  Bitboard forwardRanks[2][8] = {};  ///< ranks strictly in front of a rank, seen from a colour
  Bitboard forwardFile[2][64] = {};  ///< squares in front of a square on its file
  Bitboard passedSpan[2][64] = {};   ///< in front on the same and the adjacent files
  Bitboard attackSpan[2][64] = {};   ///< in front on the adjacent files only
};

constexpr Masks makeMasks() {
  Masks m;
  for (int f = 0; f < 8; ++f)
    m.adjacentFiles[f] = (f > 0 ? fileBB(f - 1) : 0) | (f < 7 ? fileBB(f + 1) : 0);
  for (int r = 0; r < 8; ++r)
    for (int q = 0; q < 8; ++q) {
      if (q > r) m.forwardRanks[kWhite][r] |= rankBB(q);
      if (q < r) m.forwardRanks[kBlack][r] |= rankBB(q);
    }
  for (int c = 0; c < 2; ++c)
    for (int s = 0; s < 64; ++s) {
      Bitboard ahead = m.forwardRanks[c][s >> 3];
      m.forwardFile[c][s] = ahead & fileBB(s & 7);
      m.attackSpan[c][s] = ahead & m.adjacentFiles[s & 7];
      m.passedSpan[c][s] = m.forwardFile[c][s] | m.attackSpan[c][s];
    }
  return m;
}

constexpr Masks kMasks = makeMasks();

constexpr int kPstOf[6] = {kPstPawn, kPstKnight, kPstBishop, kPstRook, kPstQueen, kPstKing};
constexpr int kMobilityOf[6] = {-1, kMobilityKnight, kMobilityBishop, kMobilityRook, kMobilityQueen, -1};

/// Piece material in "minor = 3" units for the endgame rules (not the tunable weights, so that
/// scale factors depend on the position only).
int nonPawnUnits(const Position& pos, Color c) {
  return 3 * popCount(pos.pieces(c, kKnight, kBishop)) + 5 * pos.count(c, kRook) + 9 * pos.count(c, kQueen);
}

/// Endgame scale factor (of kScaleNormal = 128) if `strong` is the side ahead. Rules (ideas from
/// the chessprogramming wiki "Draw Evaluation" / "Insufficient Material" and Ethereal's scale
/// factors; values ours):
///   * strong side without pawns and with at most a minor piece: cannot win -> 0 (KvK, KNvK,
///     KBvK, KNvKP..), as are all insufficient-material positions;
///   * strong side without pawns and only (one or two) knights: KNNvK -> 0, with enemy pawns 16;
///   * strong side without pawns and at most a minor ahead (KRvKB, KRvKN, KQvKQ, KRBvKR) -> 16;
///   * opposite-coloured bishops: with bishops and pawns only 64, with other, equal material 96.
int scaleFactor(const Position& pos, Color strong) {
  Color weak = ~strong;
  if (!pos.pieces(strong, kPawn)) {
    int s = nonPawnUnits(pos, strong), w = nonPawnUnits(pos, weak);
    if (s <= 3 || pos.isInsufficientMaterial()) return 0;
    if (!pos.pieces(strong, kBishop, kRook) && !pos.pieces(strong, kQueen) && pos.count(strong, kKnight) <= 2)
      return pos.pieces(weak, kPawn) ? 16 : 0;
    if (s - w <= 3) return 16;
  }
  Bitboard bishops = pos.pieces(kBishop);
  if (pos.count(kWhite, kBishop) == 1 && pos.count(kBlack, kBishop) == 1 && (bishops & kDarkSquares) &&
      (bishops & ~kDarkSquares)) {
    if (!pos.pieces(kKnight, kRook) && !pos.pieces(kQueen)) return 64;
    if (nonPawnUnits(pos, strong) == nonPawnUnits(pos, weak)) return 96;
  }
  return kScaleNormal;
}

int gamePhase(const Position& pos) {
  int p = popCount(pos.pieces(kKnight, kBishop)) + 2 * popCount(pos.pieces(kRook)) + 4 * popCount(pos.pieces(kQueen));
  return std::min(p, kPhaseMax);
}

// ---- Accumulation ---------------------------------------------------------------------------------

/// Sums weights per colour; in trace mode also counts every feature.
template <bool kTrace>
struct Acc {
  const EvalWeights& w;
  EvalTrace* trace;
  TaperedScore score[2];  ///< linear terms
  TaperedScore units[2];  ///< king attack units, by attacking colour

  void add(Color c, int id, int n = 1) {
    score[c] += w[id] * n;
    if constexpr (kTrace) trace->coeff[id][c] = i16(trace->coeff[id][c] + n);
  }
  void addUnits(Color c, int id, int n = 1) {
    units[c] += w[id] * n;
    if constexpr (kTrace) trace->coeff[id][c] = i16(trace->coeff[id][c] + n);
  }
};

/// Attack information gathered while evaluating pieces.
struct Context {
  Bitboard occ = 0;
  Square kingSq[2] = {};
  Bitboard kingZone[2] = {};
  Bitboard mobilityArea[2] = {};
  Bitboard attacked[2] = {};      ///< attacked by the colour (pawns, pieces with x-rays, king)
  Bitboard attacked2[2] = {};     ///< attacked at least twice
  Bitboard attackedBy[2][6] = {};
  int zoneAttackers[2][4] = {};   ///< pieces (knight..queen) attacking the enemy king zone
  int zoneAttacks[2] = {};        ///< sum over those pieces of attacked zone squares
};

// ---- 2. Pawns -------------------------------------------------------------------------------------

template <Color C, bool kTrace>
Bitboard evaluatePawns(const Position& pos, Acc<kTrace>& acc) {
  constexpr Color Them = ~C;
  const Bitboard own = pos.pieces(C, kPawn), opp = pos.pieces(Them, kPawn);
  const Bitboard oppControl = pawnAttacksBB<Them>(opp) | opp;
  Bitboard passed = 0;
  for (Bitboard b = own; b;) {
    Square sq = popLsb(b);
    int r = relativeRank(C, sq);
    Square stop = Square(sq + pawnPush(C));
    acc.add(C, kMaterial + kPawn);
    acc.add(C, kPstPawn + relativeSquare(C, sq));

    Bitboard neighbours = own & kMasks.adjacentFiles[fileOf(sq)];
    bool doubled = own & kMasks.forwardFile[C][sq];
    bool isolated = !neighbours;
    // Backward: no own pawn beside or behind on the adjacent files (nothing can come up to
    // support it) and the stop square is controlled or blocked by an enemy pawn.
    bool backward = !isolated && !(neighbours & kMasks.attackSpan[Them][stop]) && (oppControl & squareBB(stop));
    bool connected = (neighbours & rankBB(rankOf(sq))) || (own & pawnAttacks(Them, sq));

    if (doubled) acc.add(C, kPawnDoubled);
    if (isolated) acc.add(C, kPawnIsolated);
    else if (backward) acc.add(C, kPawnBackward);
    if (connected) acc.add(C, kPawnConnected + r);
    if (!doubled && !(opp & kMasks.passedSpan[C][sq])) {
      passed |= squareBB(sq);
      acc.add(C, kPassedRank + r);
    }
  }
  return passed;
}

// ---- 4. King shelter ------------------------------------------------------------------------------

/// Shield and storm features of the three files around king square `ksq`.
template <Color C, bool kTrace>
void evaluateShelterAt(const Position& pos, Square ksq, Acc<kTrace>& acc) {
  constexpr Color Them = ~C;
  const Bitboard inFront = kMasks.forwardRanks[C][rankOf(ksq)] | rankBB(rankOf(ksq));
  const Bitboard own = pos.pieces(C, kPawn) & inFront, opp = pos.pieces(Them, kPawn) & inFront;
  const int centre = std::clamp(fileOf(ksq), 1, 6);
  for (int f = centre - 1; f <= centre + 1; ++f) {
    Bitboard ours = own & fileBB(f), theirs = opp & fileBB(f);
    // The pawn of interest is the one nearest to our back rank.
    acc.add(C, kKingShield + (ours ? relativeRank(C, C == kWhite ? lsb(ours) : msb(ours)) : 0));
    if (!theirs) {
      acc.add(C, kKingStorm + 0);
      continue;
    }
    Square s = C == kWhite ? lsb(theirs) : msb(theirs);
    bool blocked = ours & squareBB(Square(s - pawnPush(C)));
    acc.add(C, (blocked ? kKingStormBlocked : kKingStorm) + relativeRank(C, s));
  }
}

/// Number of the three files around `ksq` with an own pawn on the 2nd or 3rd rank.
template <Color C>
int shieldFiles(const Position& pos, Square ksq) {
  const Bitboard shield = pos.pieces(C, kPawn) & (relativeRankBB(C, 1) | relativeRankBB(C, 2));
  const int centre = std::clamp(fileOf(ksq), 1, 6);
  int n = 0;
  for (int f = centre - 1; f <= centre + 1; ++f) n += (shield & fileBB(f)) != 0;
  return n;
}

/// King shelter of colour C. While the king may still castle, it is judged on the square (its
/// own or a castling destination) with the most shield files, so that central pawn moves before
/// castling are not punished (the idea of Stockfish's shelter over castling squares). The choice
/// depends on the position only, never on the weights, which keeps the evaluation linear.
template <Color C, bool kTrace>
void evaluateShelter(const Position& pos, Square ksq, Acc<kTrace>& acc) {
  Square best = ksq;
  int bestFiles = shieldFiles<C>(pos, ksq);
  for (bool kingSide : {true, false}) {
    if (!pos.canCastle(castlingRight(C, kingSide))) continue;
    Square to = castlingKingTo(C, kingSide);
    if (int n = shieldFiles<C>(pos, to); n > bestFiles) {
      best = to;
      bestFiles = n;
    }
  }
  evaluateShelterAt<C>(pos, best, acc);
}

/// Cache tag of the shelter: king square and the colour's two castling rights (0xFF = none; no
/// legal position produces it: a king with castling rights is never in the corner).
u8 shelterTag(const Position& pos, Color c, Square ksq) {
  return u8(ksq | (((pos.castlingRights() >> (2 * c)) & 3) << 6));
}

// ---- 3. Pieces ------------------------------------------------------------------------------------

template <Color C, PieceType Pt, bool kTrace>
void evaluatePieces(const Position& pos, Context& ctx, Acc<kTrace>& acc) {
  constexpr Color Them = ~C;
  for (Bitboard b = pos.pieces(C, Pt); b;) {
    Square sq = popLsb(b);
    acc.add(C, kMaterial + Pt);
    acc.add(C, kPstOf[Pt] + relativeSquare(C, sq));

    // Sliders see through own queens (and rooks through own rooks): batteries count.
    Bitboard att;
    if constexpr (Pt == kKnight) att = knightAttacks(sq);
    else if constexpr (Pt == kBishop) att = bishopAttacks(sq, ctx.occ ^ pos.pieces(C, kQueen));
    else if constexpr (Pt == kRook) att = rookAttacks(sq, ctx.occ ^ pos.pieces(C, kQueen, kRook));
    else att = queenAttacks(sq, ctx.occ);

    ctx.attacked2[C] |= ctx.attacked[C] & att;
    ctx.attacked[C] |= att;
    ctx.attackedBy[C][Pt] |= att;
    acc.add(C, kMobilityOf[Pt] + popCount(att & ctx.mobilityArea[C]));

    if (Bitboard zone = att & ctx.kingZone[Them]) {
      ++ctx.zoneAttackers[C][Pt - kKnight];
      ctx.zoneAttacks[C] += popCount(zone);
    }

    if constexpr (Pt == kRook) {
      Bitboard file = fileBB(fileOf(sq));
      if (!(pos.pieces(kPawn) & file)) acc.add(C, kRookOpenFile);
      else if (!(pos.pieces(C, kPawn) & file)) acc.add(C, kRookSemiOpenFile);
      if (relativeRank(C, sq) == 6 &&
          ((pos.pieces(Them, kPawn) & relativeRankBB(C, 6)) || relativeRank(C, ctx.kingSq[Them]) == 7))
        acc.add(C, kRookSeventh);
    }
  }
}

// ---- 5. Passed pawns, dynamic part ----------------------------------------------------------------

template <Color C, bool kTrace>
void evaluatePassed(const Position& pos, const Context& ctx, Bitboard passed, Acc<kTrace>& acc) {
  constexpr Color Them = ~C;
  const bool loneEnemy = !pos.hasNonPawnMaterial(Them);
  for (Bitboard b = passed; b;) {
    Square sq = popLsb(b);
    int r = relativeRank(C, sq);
    Square stop = Square(sq + pawnPush(C));
    Bitboard path = kMasks.forwardFile[C][sq];
    if (ctx.occ & squareBB(stop)) acc.add(C, kPassedBlocked + r);
    if (!(ctx.occ & path)) {
      acc.add(C, kPassedFreePath + r);
      if (!(ctx.attacked[Them] & path)) acc.add(C, kPassedSafePath + r);
    }
    acc.add(C, kPassedOwnKing + r, distance(ctx.kingSq[C], stop));
    acc.add(C, kPassedEnemyKing + r, distance(ctx.kingSq[Them], stop));
    // Rule of the square (chessprogramming wiki "Rule of the Square"): against king and pawns
    // only, the pawn queens if the enemy king is outside its square. A pawn on its start rank
    // counts from the 3rd (double step); the side to move gains a tempo.
    if (loneEnemy && !(pos.pieces(C) & path)) {
      Square promo = makeSquare(fileOf(sq), C == kWhite ? 7 : 0);
      int pawnDist = std::min(5, 7 - r);
      if (distance(ctx.kingSq[Them], promo) > pawnDist - (pos.sideToMove() == C ? 1 : 0))
        acc.add(C, kPassedUnstoppable);
    }
  }
}

// ---- 6. Threats and mop-up ------------------------------------------------------------------------

template <Color C, bool kTrace>
void evaluateThreats(const Position& pos, const Context& ctx, Acc<kTrace>& acc) {
  constexpr Color Them = ~C;
  Bitboard pieces = pos.pieces(Them) & ~pos.pieces(kPawn, kKing);
  acc.add(C, kThreatByPawn, popCount(pieces & ctx.attackedBy[C][kPawn]));
  Bitboard majors = pos.pieces(Them, kRook, kQueen);
  acc.add(C, kThreatByMinor, popCount(majors & (ctx.attackedBy[C][kKnight] | ctx.attackedBy[C][kBishop])));
}

template <Color C, bool kTrace>
void evaluateMopUp(const Position& pos, const Context& ctx, Acc<kTrace>& acc) {
  constexpr Color Them = ~C;
  if (pos.pieces(Them) != pos.pieces(Them, kKing) || !pos.hasNonPawnMaterial(C)) return;
  Square lone = ctx.kingSq[Them];
  int f = fileOf(lone), r = rankOf(lone);
  int centreDistance = std::max(3 - f, f - 4) + std::max(3 - r, r - 4);  // Manhattan, 0..6
  acc.add(C, kMopUpCorner, centreDistance);
  acc.add(C, kMopUpKings, 7 - distance(ctx.kingSq[C], lone));
}

// ---- 7. King attack units -------------------------------------------------------------------------

/// Units of C's attack on the enemy king. Counted only with at least two attackers, or one
/// together with a queen (a lone piece rarely mates).
template <Color C, bool kTrace>
void evaluateKingAttack(const Position& pos, const Context& ctx, Acc<kTrace>& acc) {
  constexpr Color Them = ~C;
  const int attackers = ctx.zoneAttackers[C][0] + ctx.zoneAttackers[C][1] + ctx.zoneAttackers[C][2] +
                        ctx.zoneAttackers[C][3];
  const bool hasQueen = pos.pieces(C, kQueen);
  if (attackers < 2 && !(attackers == 1 && hasQueen)) return;

  const Square ksq = ctx.kingSq[Them];
  for (int i = 0; i < 4; ++i)
    if (ctx.zoneAttackers[C][i]) acc.addUnits(C, kKsAttacker + i, ctx.zoneAttackers[C][i]);
  acc.addUnits(C, kKsZoneAttacks, ctx.zoneAttacks[C]);

  // Weak: attacked by us, defended at most once, and then only by the king or queen.
  Bitboard weak = ctx.attacked[C] & ~ctx.attacked2[Them] &
                  (~ctx.attacked[Them] | ctx.attackedBy[Them][kKing] | ctx.attackedBy[Them][kQueen]);
  acc.addUnits(C, kKsWeakSquares, popCount(weak & ctx.kingZone[Them]));

  // Safe checks: squares from which a piece would give check, not occupied by our pieces, and
  // either undefended or weak and attacked twice by us.
  Bitboard safe = ~pos.pieces(C) & (~ctx.attacked[Them] | (weak & ctx.attacked2[C]));
  Bitboard bishopRays = bishopAttacks(ksq, ctx.occ), rookRays = rookAttacks(ksq, ctx.occ);
  acc.addUnits(C, kKsSafeCheck + 0, popCount(knightAttacks(ksq) & ctx.attackedBy[C][kKnight] & safe));
  acc.addUnits(C, kKsSafeCheck + 1, popCount(bishopRays & ctx.attackedBy[C][kBishop] & safe));
  acc.addUnits(C, kKsSafeCheck + 2, popCount(rookRays & ctx.attackedBy[C][kRook] & safe));
  acc.addUnits(C, kKsSafeCheck + 3, popCount((bishopRays | rookRays) & ctx.attackedBy[C][kQueen] & safe));

  if (!hasQueen) acc.addUnits(C, kKsNoQueen);
  acc.addUnits(C, kKsBias);
}

// ---- The evaluation -------------------------------------------------------------------------------

using PawnEntry = HceEvaluator::PawnEntry;
static_assert(sizeof(PawnEntry) == 40, "the pawn hash size documented in hce.h assumes 40-byte entries");

template <Color C>
void initContext(const Position& pos, Context& ctx) {
  const Square ksq = pos.kingSquare(C);
  const Bitboard pawns = pos.pieces(C, kPawn);
  const Bitboard pawnAtt = pawnAttacksBB<C>(pawns);
  const Bitboard pawnAtt2 = C == kWhite ? shiftNorth(shiftEast(pawns)) & shiftNorth(shiftWest(pawns))
                                        : shiftSouth(shiftEast(pawns)) & shiftSouth(shiftWest(pawns));
  const Bitboard kingAtt = kingAttacks(ksq);
  ctx.kingSq[C] = ksq;
  // King zone: the king's square and neighbours, extended one rank towards the enemy.
  Bitboard zone = kingAtt | squareBB(ksq);
  ctx.kingZone[C] = zone | shiftForward<C>(zone);
  ctx.attackedBy[C][kPawn] = pawnAtt;
  ctx.attackedBy[C][kKing] = kingAtt;
  ctx.attacked[C] = pawnAtt | kingAtt;
  ctx.attacked2[C] = pawnAtt2 | (pawnAtt & kingAtt);
}

template <bool kTrace>
int evaluateImpl(const Position& pos, const EvalWeights& weights, std::vector<PawnEntry>* pawnHash,
                 EvalTrace* trace) {
  Acc<kTrace> acc{weights, trace, {}, {}};

  // 1. Set-up.
  Context ctx;
  ctx.occ = pos.pieces();
  initContext<kWhite>(pos, ctx);
  initContext<kBlack>(pos, ctx);
  ctx.mobilityArea[kWhite] = ~(pos.pieces(kWhite) | ctx.attackedBy[kBlack][kPawn]);
  ctx.mobilityArea[kBlack] = ~(pos.pieces(kBlack) | ctx.attackedBy[kWhite][kPawn]);

  // 2. Pawns.
  Bitboard passed[2];
  PawnEntry* entry = nullptr;
  if constexpr (!kTrace) {
    if (pawnHash && !pawnHash->empty()) entry = &(*pawnHash)[pos.pawnKey() & (pawnHash->size() - 1)];
  }
  if (entry && entry->valid && entry->key == pos.pawnKey()) {
    acc.score[kWhite] += entry->score;
    passed[kWhite] = entry->passed[kWhite];
    passed[kBlack] = entry->passed[kBlack];
  } else {
    TaperedScore before = acc.score[kWhite] - acc.score[kBlack];
    passed[kWhite] = evaluatePawns<kWhite>(pos, acc);
    passed[kBlack] = evaluatePawns<kBlack>(pos, acc);
    if (entry) {
      *entry = PawnEntry{};
      entry->key = pos.pawnKey();
      entry->valid = true;
      entry->score = acc.score[kWhite] - acc.score[kBlack] - before;
      entry->passed[kWhite] = passed[kWhite];
      entry->passed[kBlack] = passed[kBlack];
    }
  }

  // 3. Pieces.
  evaluatePieces<kWhite, kKnight>(pos, ctx, acc);
  evaluatePieces<kBlack, kKnight>(pos, ctx, acc);
  evaluatePieces<kWhite, kBishop>(pos, ctx, acc);
  evaluatePieces<kBlack, kBishop>(pos, ctx, acc);
  evaluatePieces<kWhite, kRook>(pos, ctx, acc);
  evaluatePieces<kBlack, kRook>(pos, ctx, acc);
  evaluatePieces<kWhite, kQueen>(pos, ctx, acc);
  evaluatePieces<kBlack, kQueen>(pos, ctx, acc);

  // 4. Kings and bishop pair.
  for (Color c : {kWhite, kBlack}) {
    acc.add(c, kPstKing + relativeSquare(c, ctx.kingSq[c]));
    Bitboard bishops = pos.pieces(c, kBishop);
    if ((bishops & kDarkSquares) && (bishops & ~kDarkSquares)) acc.add(c, kBishopPair);
    const u8 tag = shelterTag(pos, c, ctx.kingSq[c]);
    if (entry && entry->shelterTag[c] == tag) {
      acc.score[c] += entry->shelter[c];
      continue;
    }
    TaperedScore before = acc.score[c];
    if (c == kWhite) evaluateShelter<kWhite>(pos, ctx.kingSq[c], acc);
    else evaluateShelter<kBlack>(pos, ctx.kingSq[c], acc);
    if (entry) {
      entry->shelter[c] = acc.score[c] - before;
      entry->shelterTag[c] = tag;
    }
  }

  // 5. Passed pawns.
  if (passed[kWhite]) evaluatePassed<kWhite>(pos, ctx, passed[kWhite], acc);
  if (passed[kBlack]) evaluatePassed<kBlack>(pos, ctx, passed[kBlack], acc);

  // 6. Threats, mop-up, tempo.
  evaluateThreats<kWhite>(pos, ctx, acc);
  evaluateThreats<kBlack>(pos, ctx, acc);
  evaluateMopUp<kWhite>(pos, ctx, acc);
  evaluateMopUp<kBlack>(pos, ctx, acc);
  acc.add(pos.sideToMove(), kTempo);

  // 7. Non-linear part: king attack, phase, scaling.
  evaluateKingAttack<kWhite>(pos, ctx, acc);
  evaluateKingAttack<kBlack>(pos, ctx, acc);
  TaperedScore total =
      acc.score[kWhite] - acc.score[kBlack] + kingAttackScore(acc.units[kWhite]) - kingAttackScore(acc.units[kBlack]);
  int phase = gamePhase(pos);
  if constexpr (kTrace) {
    trace->phase = phase;
    trace->scale[kWhite] = scaleFactor(pos, kWhite);
    trace->scale[kBlack] = scaleFactor(pos, kBlack);
    trace->sideToMove = pos.sideToMove();
  }
  return finalEvaluation(total, phase, scaleFactor(pos, strongerSide(total)));
}

}  // namespace

// ---- HceEvaluator ---------------------------------------------------------------------------------

HceEvaluator::HceEvaluator(const EvalWeights& weights, std::size_t pawnHashEntries) : m_weights(weights) {
  if (pawnHashEntries & (pawnHashEntries - 1))
    throw Error("pawn hash size " + std::to_string(pawnHashEntries) + " is not 0 or a power of two");
  m_pawnHash.resize(pawnHashEntries);
}

int HceEvaluator::evaluateWhite(const Position& pos) {
  return evaluateImpl<false>(pos, m_weights, &m_pawnHash, nullptr);
}

int HceEvaluator::evaluate(const Position& pos) {
  int v = evaluateWhite(pos);
  return pos.sideToMove() == kWhite ? v : -v;
}

EvalTrace HceEvaluator::trace(const Position& pos) const {
  EvalTrace t;
  evaluateImpl<true>(pos, m_weights, nullptr, &t);
  return t;
}

void HceEvaluator::setWeights(const EvalWeights& weights) {
  m_weights = weights;
  clearPawnHash();
}

void HceEvaluator::clearPawnHash() { std::fill(m_pawnHash.begin(), m_pawnHash.end(), PawnEntry{}); }

std::unique_ptr<Evaluator> HceEvaluator::clone() const {
  return std::make_unique<HceEvaluator>(m_weights, m_pawnHash.size());
}

std::unique_ptr<Evaluator> makeHceEvaluator() { return std::make_unique<HceEvaluator>(); }

// ---- Evaluation from a trace ----------------------------------------------------------------------

EvalBreakdown evaluateTrace(const EvalTrace& trace, const EvalWeights& w) {
  EvalBreakdown b;
  for (const WeightInfo& block : kWeightTable) {
    const int g = int(block.group);
    for (int i = block.offset; i < block.offset + block.size; ++i) {
      for (int c = 0; c < 2; ++c) {
        int n = trace.coeff[i][c];
        if (!n) continue;
        if (block.kind == WeightKind::kLinear) b.term[g][c] += w[i] * n;
        else b.units[c] += w[i] * n;
      }
    }
  }
  for (int c = 0; c < 2; ++c) b.term[int(TermGroup::kKingAttack)][c] += kingAttackScore(b.units[c]);
  for (int g = 0; g < kTermGroupCount; ++g) b.total += b.term[g][kWhite] - b.term[g][kBlack];
  b.phase = trace.phase;
  b.scale = trace.scale[strongerSide(b.total)];
  b.white = finalEvaluation(b.total, b.phase, b.scale);
  b.sideToMove = trace.sideToMove == kWhite ? b.white : -b.white;
  return b;
}

}  // namespace janus
