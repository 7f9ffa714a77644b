// Initial values of every HCE weight: the one file a tuner's output replaces.
//
// Units: centipawns, as (middlegame, endgame) pairs S(mg, eg). Blocks are listed in the order of
// JANUS_HCE_WEIGHTS (weights.h); the builder checks order and sizes at compile time, so a missing,
// extra or misplaced block is a compile error.
//
// Sources:
// * Material and piece-square tables: Ronald Friederich's PeSTO, as published on the
//   chessprogramming wiki, "PeSTO's Evaluation Function" (values from rofChade, Texel-tuned).
//   The tables are copied in the wiki's layout (rank 8 first, a-file left, White's view).
// * Every other term is an addition to PeSTO, which has no such terms, so these values are kept
//   moderate and centred where PeSTO already holds the average (e.g. mobility is zero at a
//   typical square count; passed-pawn bonuses are small on the 6th/7th rank, where PeSTO's pawn
//   table already pays +80..+180 cp in the endgame). Magnitudes follow the classical literature:
//   L. Kaufman, "The Evaluation of Material Imbalances" (1999) for the bishop pair; Fruit 2.1's
//   published pawn and rook terms (F. Letouzey) and the chessprogramming wiki pages "Pawn
//   Structure", "Passed Pawn", "Rook on Open File", "Mobility", "King Safety" for the others;
//   Stockfish's idea of rank-weighted king proximity to the passed pawn's stop square; and
//   A. Grant, "Evaluation & Tuning in Chess Engines" (2020) / Ethereal for king-attack units
//   through a quadratic. The numbers themselves are ours, to be replaced by `janus tune`.

#include "eval/weights.h"

#include <initializer_list>

namespace janus {

namespace {

constexpr TaperedScore S(int mg, int eg) { return TaperedScore(mg, eg); }

/// Fills the parameter vector block by block, in table order. Any misuse throws, which in the
/// constant evaluation below is a compile-time error.
class Builder {
 public:
  constexpr void add(int id, std::initializer_list<TaperedScore> values) {
    const WeightInfo& b = next(id);
    if (int(values.size()) != b.size) throw "wrong number of values for this weight block";
    int i = b.offset;
    for (TaperedScore v : values) m_w[i++] = v;
  }
  /// A piece-square table given as two boards in the usual diagram layout (rank 8 first).
  constexpr void addBoard(int id, std::initializer_list<int> mg, std::initializer_list<int> eg) {
    const WeightInfo& b = next(id);
    if (b.size != 64 || mg.size() != 64 || eg.size() != 64) throw "a board needs 64 mg and 64 eg values";
    for (int i = 0; i < 64; ++i) {
      int sq = (7 - i / 8) * 8 + i % 8;  // diagram index -> square (a1 = 0)
      m_w[b.offset + sq] = S(mg.begin()[i], eg.begin()[i]);
    }
  }
  constexpr EvalWeights done() const {
    if (m_block != kWeightBlockCount) throw "not every weight block was given a value";
    return m_w;
  }

 private:
  constexpr const WeightInfo& next(int id) {
    if (m_block >= kWeightBlockCount || kWeightTable[m_block].offset != id) throw "weight blocks out of order";
    return kWeightTable[m_block++];
  }
  EvalWeights m_w;
  int m_block = 0;
};

constexpr EvalWeights buildDefaults() {
  Builder b;
  using namespace weight;

  // ---- Material and piece-square tables: PeSTO ------------------------------------------------
  //             pawn       knight       bishop       rook         queen
  b.add(kMaterial, {S(82, 94), S(337, 281), S(365, 297), S(477, 512), S(1025, 936)});

  b.addBoard(kPstPawn,
             {  0,   0,   0,   0,   0,   0,  0,   0,
               98, 134,  61,  95,  68, 126, 34, -11,
               -6,   7,  26,  31,  65,  56, 25, -20,
              -14,  13,   6,  21,  23,  12, 17, -23,
              -27,  -2,  -5,  12,  17,   6, 10, -25,
              -26,  -4,  -4, -10,   3,   3, 33, -12,
              -35,  -1, -20, -23, -15,  24, 38, -22,
                0,   0,   0,   0,   0,   0,  0,   0},
             {  0,   0,   0,   0,   0,   0,   0,   0,
              178, 173, 158, 134, 147, 132, 165, 187,
               94, 100,  85,  67,  56,  53,  82,  84,
               32,  24,  13,   5,  -2,   4,  17,  17,
               13,   9,  -3,  -7,  -7,  -8,   3,  -1,
                4,   7,  -6,   1,   0,  -5,  -1,  -8,
               13,   8,   8,  10,  13,   0,   2,  -7,
                0,   0,   0,   0,   0,   0,   0,   0});

  b.addBoard(kPstKnight,
             {-167, -89, -34, -49,  61, -97, -15, -107,
               -73, -41,  72,  36,  23,  62,   7,  -17,
               -47,  60,  37,  65,  84, 129,  73,   44,
                -9,  17,  19,  53,  37,  69,  18,   22,
               -13,   4,  16,  13,  28,  19,  21,   -8,
               -23,  -9,  12,  10,  19,  17,  25,  -16,
               -29, -53, -12,  -3,  -1,  18, -14,  -19,
              -105, -21, -58, -33, -17, -28, -19,  -23},
             { -58, -38, -13, -28, -31, -27, -63, -99,
               -25,  -8, -25,  -2,  -9, -25, -24, -52,
               -24, -20,  10,   9,  -1,  -9, -19, -41,
               -17,   3,  22,  22,  22,  11,   8, -18,
               -18,  -6,  16,  25,  16,  17,   4, -18,
               -23,  -3,  -1,  15,  10,  -3, -20, -22,
               -42, -20, -10,  -5,  -2, -20, -23, -44,
               -29, -51, -23, -15, -22, -18, -50, -64});

  b.addBoard(kPstBishop,
             {-29,   4, -82, -37, -25, -42,   7,  -8,
              -26,  16, -18, -13,  30,  59,  18, -47,
              -16,  37,  43,  40,  35,  50,  37,  -2,
               -4,   5,  19,  50,  37,  37,   7,  -2,
               -6,  13,  13,  26,  34,  12,  10,   4,
                0,  15,  15,  15,  14,  27,  18,  10,
                4,  15,  16,   0,   7,  21,  33,   1,
              -33,  -3, -14, -21, -13, -12, -39, -21},
             {-14, -21, -11,  -8,  -7,  -9, -17, -24,
               -8,  -4,   7, -12,  -3, -13,  -4, -14,
                2,  -8,   0,  -1,  -2,   6,   0,   4,
               -3,   9,  12,   9,  14,  10,   3,   2,
               -6,   3,  13,  19,   7,  10,  -3,  -9,
              -12,  -3,   8,  10,  13,   3,  -7, -15,
              -14, -18,  -7,  -1,   4,  -9, -15, -27,
              -23,  -9, -23,  -5,  -9, -16,  -5, -17});

  b.addBoard(kPstRook,
             { 32,  42,  32,  51,  63,   9,  31,  43,
               27,  32,  58,  62,  80,  67,  26,  44,
               -5,  19,  26,  36,  17,  45,  61,  16,
              -24, -11,   7,  26,  24,  35,  -8, -20,
              -36, -26, -12,  -1,   9,  -7,   6, -23,
              -45, -25, -16, -17,   3,   0,  -5, -33,
              -44, -16, -20,  -9,  -1,  11,  -6, -71,
              -19, -13,   1,  17,  16,   7, -37, -26},
             { 13,  10,  18,  15,  12,  12,   8,   5,
               11,  13,  13,  11,  -3,   3,   8,   3,
                7,   7,   7,   5,   4,  -3,  -5,  -3,
                4,   3,  13,   1,   2,   1,  -1,   2,
                3,   5,   8,   4,  -5,  -6,  -8, -11,
               -4,   0,  -5,  -1,  -7, -12,  -8, -16,
               -6,  -6,   0,   2,  -9,  -9, -11,  -3,
               -9,   2,   3,  -1,  -5, -13,   4, -20});

  b.addBoard(kPstQueen,
             {-28,   0,  29,  12,  59,  44,  43,  45,
              -24, -39,  -5,   1, -16,  57,  28,  54,
              -13, -17,   7,   8,  29,  56,  47,  57,
              -27, -27, -16, -16,  -1,  17,  -2,   1,
               -9, -26,  -9, -10,  -2,  -4,   3,  -3,
              -14,   2, -11,  -2,  -5,   2,  14,   5,
              -35,  -8,  11,   2,   8,  15,  -3,   1,
               -1, -18,  -9,  10, -15, -25, -31, -50},
             { -9,  22,  22,  27,  27,  19,  10,  20,
              -17,  20,  32,  41,  58,  25,  30,   0,
              -20,   6,   9,  49,  47,  35,  19,   9,
                3,  22,  24,  45,  57,  40,  57,  36,
              -18,  28,  19,  47,  31,  34,  39,  23,
              -16, -27,  15,   6,   9,  17,  10,   5,
              -22, -23, -30, -16, -16, -23, -36, -32,
              -33, -28, -22, -43,  -5, -32, -20, -41});

  b.addBoard(kPstKing,
             {-65,  23,  16, -15, -56, -34,   2,  13,
               29,  -1, -20,  -7,  -8,  -4, -38, -29,
               -9,  24,   2, -16, -20,   6,  22, -22,
              -17, -20, -12, -27, -30, -25, -14, -36,
              -49,  -1, -27, -39, -46, -44, -33, -51,
              -14, -14, -22, -46, -44, -30, -15, -27,
                1,   7,  -8, -64, -43, -16,   9,   8,
              -15,  36,  12, -54,   8, -28,  24,  14},
             {-74, -35, -18, -18, -11,  15,   4, -17,
              -12,  17,  14,  17,  17,  38,  23,  11,
               10,  17,  23,  15,  20,  45,  44,  13,
               -8,  22,  24,  27,  26,  33,  26,   3,
              -18,  -4,  21,  24,  27,  23,   9, -11,
              -19,  -3,  11,  21,  23,  16,   7,  -9,
              -27, -11,   4,  13,  14,   4,  -5, -17,
              -53, -34, -21, -11, -28, -14, -24, -43});

  // ---- Bishop pair: Kaufman (1999) measured about half a pawn, more in the endgame. -----------
  b.add(kBishopPair, {S(30, 50)});

  // ---- Pawn structure: Fruit 2.1-sized penalties (doubled 10/20, isolated 10/20, backward
  // 8/10); connected pawns by rank, growing with advancement (idea: Stockfish's "Connected"
  // bonus), about half of Stockfish 11's seeds because PeSTO's pawn table already rewards
  // central and advanced pawns.
  b.add(kPawnDoubled, {S(-10, -20)});
  b.add(kPawnIsolated, {S(-10, -20)});
  b.add(kPawnBackward, {S(-8, -10)});
  //                   rank1     rank2     rank3     rank4      rank5      rank6      rank7      rank8
  b.add(kPawnConnected, {S(0, 0), S(4, 2), S(6, 4), S(8, 6), S(14, 10), S(24, 18), S(40, 30), S(0, 0)});

  // ---- Passed pawns: small base bonus on top of PeSTO's advanced-pawn values; what PeSTO cannot
  // see is the dynamic part: blockage, a free / uncontested path, and (endgame) king distances to
  // the stop square weighted by rank (idea from Stockfish's passed-pawn evaluation, scaled to
  // our values), plus the rule of the square against a lone king with pawns.
  b.add(kPassedRank, {S(0, 0), S(2, 6), S(4, 10), S(8, 20), S(16, 35), S(24, 45), S(24, 45), S(0, 0)});
  b.add(kPassedBlocked, {S(0, 0), S(0, 0), S(0, -4), S(-3, -8), S(-6, -14), S(-10, -22), S(-15, -30), S(0, 0)});
  b.add(kPassedFreePath, {S(0, 0), S(0, 0), S(0, 2), S(2, 5), S(4, 10), S(6, 18), S(8, 25), S(0, 0)});
  b.add(kPassedSafePath, {S(0, 0), S(0, 0), S(0, 4), S(2, 8), S(6, 16), S(10, 30), S(15, 45), S(0, 0)});
  b.add(kPassedOwnKing, {S(0, 0), S(0, 0), S(0, 0), S(0, -1), S(0, -3), S(0, -6), S(0, -8), S(0, 0)});
  b.add(kPassedEnemyKing, {S(0, 0), S(0, 0), S(0, 0), S(0, 2), S(0, 8), S(0, 14), S(0, 20), S(0, 0)});
  b.add(kPassedUnstoppable, {S(0, 200)});

  // ---- Rooks: open / semi-open file and the 7th rank (chessprogramming wiki "Rook on Open
  // File", "Rook on Seventh"; Fruit 2.1 magnitudes). PeSTO's rook table already pays for the 7th
  // rank in the middlegame, hence the small middlegame part there.
  b.add(kRookOpenFile, {S(25, 10)});
  b.add(kRookSemiOpenFile, {S(12, 6)});
  b.add(kRookSeventh, {S(10, 20)});

  // ---- Mobility by number of safe squares n (attacked, not occupied by own pieces, not attacked
  // by enemy pawns). Concave in n as in tuned engines (first squares matter most):
  //   v(n) = round(k * (sqrt(n) - sqrt(n0))), zero at a typical middlegame count n0.
  //   knight n0 = 4, k = 12/14; bishop n0 = 6, k = 12/14; rook n0 = 6, k = 6/16; queen n0 = 11, k = 4/10.
  // The k are kept small because PeSTO's tables already reward the squares where pieces are
  // mobile (development) and its material values include average mobility.
  b.add(kMobilityKnight, {S(-24, -28), S(-12, -14), S(-7, -8), S(-3, -4), S(0, 0), S(3, 3), S(5, 6), S(8, 9),
                          S(10, 12)});
  b.add(kMobilityBishop, {S(-29, -34), S(-17, -20), S(-12, -14), S(-9, -10), S(-5, -6), S(-3, -3), S(0, 0),
                          S(2, 3), S(5, 5), S(7, 8), S(9, 10), S(10, 12), S(12, 14), S(14, 16)});
  b.add(kMobilityRook, {S(-15, -39), S(-9, -23), S(-6, -17), S(-4, -11), S(-3, -7), S(-1, -3), S(0, 0), S(1, 3),
                        S(2, 6), S(3, 9), S(4, 11), S(5, 14), S(6, 16), S(7, 18), S(8, 21)});
  b.add(kMobilityQueen, {S(-13, -33), S(-9, -23), S(-8, -19), S(-6, -16), S(-5, -13), S(-4, -11), S(-3, -9),
                         S(-3, -7),   S(-2, -5),  S(-1, -3),  S(-1, -2),  S(0, 0),    S(1, 1),    S(1, 3),
                         S(2, 4),     S(2, 6),    S(3, 7),    S(3, 8),    S(4, 9),    S(4, 10),   S(5, 12),
                         S(5, 13),    S(5, 14),   S(6, 15),   S(6, 16),   S(7, 17),   S(7, 18),   S(8, 19)});

  // ---- King shelter (middlegame only), per file of the three around the king (chessprogramming
  // wiki "King Safety": pawn shield, pawn storm). Index = relative rank of the pawn, 0 = none.
  // PeSTO's king table already prefers castled kings, so an unmoved shield is a small plus and a
  // missing one a clear minus.
  //                none        rank2      rank3     rank4      rank5       rank6       rank7       rank8
  b.add(kKingShield, {S(-30, 0), S(10, 0), S(6, 0), S(-6, 0), S(-12, 0), S(-15, 0), S(-18, 0), S(0, 0)});
  b.add(kKingStorm, {S(0, 0), S(-30, 0), S(-25, 0), S(-12, 0), S(-4, 0), S(0, 0), S(0, 0), S(0, 0)});
  b.add(kKingStormBlocked, {S(0, 0), S(0, 0), S(-8, 0), S(-4, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0)});

  // ---- Threats (chessprogramming wiki "Hanging Piece"/"Attack"): a piece attacked by a pawn, a
  // major piece attacked by a minor. Modest, since quiescence search resolves captures.
  b.add(kThreatByPawn, {S(30, 20)});
  b.add(kThreatByMinor, {S(25, 15)});

  // ---- Mop-up against a lone king (chessprogramming wiki "Mop-up Evaluation"): drive it to the
  // edge and approach it with the own king, so the search finds mates without tablebases.
  b.add(kMopUpCorner, {S(0, 10)});
  b.add(kMopUpKings, {S(0, 6)});

  // ---- Tempo: the side to move is worth a little (PeSTO has a tempo bonus too).
  b.add(kTempo, {S(15, 10)});

  // ---- King attack units (non-linear, see kingAttackScore in trace.h): mg units u give
  // u^2 / 720 cp, eg units u / 20 cp (Grant 2020 / Ethereal use this shape). A typical attack of
  // queen + rook + knight hitting 8 zone squares, 3 of them weak, with one safe queen check is
  // 40 + 30 + 30 + 8 * 10 + 3 * 15 + 70 - 30 = 265 units = 97 cp; twice that is 390 cp. Attack
  // weights per piece ordered as in the wiki's "King Safety" attack table (queen > rook ~ knight >
  // bishop); without a queen an attack is mostly switched off (ks_no_queen).
  //                      knight      bishop      rook        queen
  b.add(kKsAttacker, {S(30, 0), S(25, 0), S(30, 0), S(40, 0)});
  b.add(kKsZoneAttacks, {S(10, 4)});
  b.add(kKsWeakSquares, {S(15, 10)});
  b.add(kKsSafeCheck, {S(60, 20), S(40, 15), S(60, 20), S(70, 25)});
  b.add(kKsNoQueen, {S(-150, -40)});
  b.add(kKsBias, {S(-30, 0)});

  return b.done();
}

constexpr EvalWeights kDefaultWeights = buildDefaults();

}  // namespace

const EvalWeights& EvalWeights::defaults() { return kDefaultWeights; }

}  // namespace janus
