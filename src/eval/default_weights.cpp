// Values of every HCE weight: the one file a tuner's output replaces.
//
// Units: centipawns, as (middlegame, endgame) pairs S(mg, eg). Blocks are listed in the order of
// JANUS_HCE_WEIGHTS (weights.h); the builder checks order and sizes at compile time, so a missing,
// extra or misplaced block is a compile error.
//
// Written by `janus tune` (Texel's tuning method; see docs/tuning.md). The starting values and
// their sources (PeSTO material and piece-square tables, Kaufman, Fruit 2.1, Grant 2020, the
// chessprogramming wiki) are described in the previous version of this file.
//
// Data: build-tune/tune-data/selfplay-a.jdat.zst, build-tune/tune-data/selfplay-c.jdat.zst (873382 training, 97043 validation positions).
// K = 1.2142; 40 epochs of Adam, lr 1 (x0.9 per epoch), beta2 0.999, batch 16384.
// Frozen (kept at their previous values): material, pst_pawn, pst_knight, pst_bishop, pst_rook, pst_queen, pst_king.
// Loss (integer eval): train 0.076321 -> 0.072695, validation 0.074879 -> 0.073863.

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

  // material: piece value
  b.add(kMaterial, {S(82, 94), S(337, 281), S(365, 297), S(477, 512), S(1025, 936)});

  // pst_pawn: pawn square bonus
  b.addBoard(kPstPawn,
             {   0,   0,   0,   0,   0,   0,   0,   0,
                98, 134,  61,  95,  68, 126,  34, -11,
                -6,   7,  26,  31,  65,  56,  25, -20,
               -14,  13,   6,  21,  23,  12,  17, -23,
               -27,  -2,  -5,  12,  17,   6,  10, -25,
               -26,  -4,  -4, -10,   3,   3,  33, -12,
               -35,  -1, -20, -23, -15,  24,  38, -22,
                 0,   0,   0,   0,   0,   0,   0,   0},
             {   0,   0,   0,   0,   0,   0,   0,   0,
               178, 173, 158, 134, 147, 132, 165, 187,
                94, 100,  85,  67,  56,  53,  82,  84,
                32,  24,  13,   5,  -2,   4,  17,  17,
                13,   9,  -3,  -7,  -7,  -8,   3,  -1,
                 4,   7,  -6,   1,   0,  -5,  -1,  -8,
                13,   8,   8,  10,  13,   0,   2,  -7,
                 0,   0,   0,   0,   0,   0,   0,   0});

  // pst_knight: knight square bonus
  b.addBoard(kPstKnight,
             {-167, -89, -34, -49,  61, -97, -15,-107,
               -73, -41,  72,  36,  23,  62,   7, -17,
               -47,  60,  37,  65,  84, 129,  73,  44,
                -9,  17,  19,  53,  37,  69,  18,  22,
               -13,   4,  16,  13,  28,  19,  21,  -8,
               -23,  -9,  12,  10,  19,  17,  25, -16,
               -29, -53, -12,  -3,  -1,  18, -14, -19,
              -105, -21, -58, -33, -17, -28, -19, -23},
             { -58, -38, -13, -28, -31, -27, -63, -99,
               -25,  -8, -25,  -2,  -9, -25, -24, -52,
               -24, -20,  10,   9,  -1,  -9, -19, -41,
               -17,   3,  22,  22,  22,  11,   8, -18,
               -18,  -6,  16,  25,  16,  17,   4, -18,
               -23,  -3,  -1,  15,  10,  -3, -20, -22,
               -42, -20, -10,  -5,  -2, -20, -23, -44,
               -29, -51, -23, -15, -22, -18, -50, -64});

  // pst_bishop: bishop square bonus
  b.addBoard(kPstBishop,
             { -29,   4, -82, -37, -25, -42,   7,  -8,
               -26,  16, -18, -13,  30,  59,  18, -47,
               -16,  37,  43,  40,  35,  50,  37,  -2,
                -4,   5,  19,  50,  37,  37,   7,  -2,
                -6,  13,  13,  26,  34,  12,  10,   4,
                 0,  15,  15,  15,  14,  27,  18,  10,
                 4,  15,  16,   0,   7,  21,  33,   1,
               -33,  -3, -14, -21, -13, -12, -39, -21},
             { -14, -21, -11,  -8,  -7,  -9, -17, -24,
                -8,  -4,   7, -12,  -3, -13,  -4, -14,
                 2,  -8,   0,  -1,  -2,   6,   0,   4,
                -3,   9,  12,   9,  14,  10,   3,   2,
                -6,   3,  13,  19,   7,  10,  -3,  -9,
               -12,  -3,   8,  10,  13,   3,  -7, -15,
               -14, -18,  -7,  -1,   4,  -9, -15, -27,
               -23,  -9, -23,  -5,  -9, -16,  -5, -17});

  // pst_rook: rook square bonus
  b.addBoard(kPstRook,
             {  32,  42,  32,  51,  63,   9,  31,  43,
                27,  32,  58,  62,  80,  67,  26,  44,
                -5,  19,  26,  36,  17,  45,  61,  16,
               -24, -11,   7,  26,  24,  35,  -8, -20,
               -36, -26, -12,  -1,   9,  -7,   6, -23,
               -45, -25, -16, -17,   3,   0,  -5, -33,
               -44, -16, -20,  -9,  -1,  11,  -6, -71,
               -19, -13,   1,  17,  16,   7, -37, -26},
             {  13,  10,  18,  15,  12,  12,   8,   5,
                11,  13,  13,  11,  -3,   3,   8,   3,
                 7,   7,   7,   5,   4,  -3,  -5,  -3,
                 4,   3,  13,   1,   2,   1,  -1,   2,
                 3,   5,   8,   4,  -5,  -6,  -8, -11,
                -4,   0,  -5,  -1,  -7, -12,  -8, -16,
                -6,  -6,   0,   2,  -9,  -9, -11,  -3,
                -9,   2,   3,  -1,  -5, -13,   4, -20});

  // pst_queen: queen square bonus
  b.addBoard(kPstQueen,
             { -28,   0,  29,  12,  59,  44,  43,  45,
               -24, -39,  -5,   1, -16,  57,  28,  54,
               -13, -17,   7,   8,  29,  56,  47,  57,
               -27, -27, -16, -16,  -1,  17,  -2,   1,
                -9, -26,  -9, -10,  -2,  -4,   3,  -3,
               -14,   2, -11,  -2,  -5,   2,  14,   5,
               -35,  -8,  11,   2,   8,  15,  -3,   1,
                -1, -18,  -9,  10, -15, -25, -31, -50},
             {  -9,  22,  22,  27,  27,  19,  10,  20,
               -17,  20,  32,  41,  58,  25,  30,   0,
               -20,   6,   9,  49,  47,  35,  19,   9,
                 3,  22,  24,  45,  57,  40,  57,  36,
               -18,  28,  19,  47,  31,  34,  39,  23,
               -16, -27,  15,   6,   9,  17,  10,   5,
               -22, -23, -30, -16, -16, -23, -36, -32,
               -33, -28, -22, -43,  -5, -32, -20, -41});

  // pst_king: king square bonus
  b.addBoard(kPstKing,
             { -65,  23,  16, -15, -56, -34,   2,  13,
                29,  -1, -20,  -7,  -8,  -4, -38, -29,
                -9,  24,   2, -16, -20,   6,  22, -22,
               -17, -20, -12, -27, -30, -25, -14, -36,
               -49,  -1, -27, -39, -46, -44, -33, -51,
               -14, -14, -22, -46, -44, -30, -15, -27,
                 1,   7,  -8, -64, -43, -16,   9,   8,
               -15,  36,  12, -54,   8, -28,  24,  14},
             { -74, -35, -18, -18, -11,  15,   4, -17,
               -12,  17,  14,  17,  17,  38,  23,  11,
                10,  17,  23,  15,  20,  45,  44,  13,
                -8,  22,  24,  27,  26,  33,  26,   3,
               -18,  -4,  21,  24,  27,  23,   9, -11,
               -19,  -3,  11,  21,  23,  16,   7,  -9,
               -27, -11,   4,  13,  14,   4,  -5, -17,
               -53, -34, -21, -11, -28, -14, -24, -43});

  // bishop_pair: bishops on both square colours
  b.add(kBishopPair, {S(33, 68)});

  // pawn_doubled: pawn with an own pawn ahead on its file
  b.add(kPawnDoubled, {S(-20, -20)});

  // pawn_isolated: no own pawn on the adjacent files
  b.add(kPawnIsolated, {S(-2, -12)});

  // pawn_backward: no own pawn beside or behind on adjacent files, stop square controlled by an enemy pawn
  b.add(kPawnBackward, {S(-8, -15)});

  // pawn_connected: pawn supported by or side by side with an own pawn, by rank
  b.add(kPawnConnected, {S(0, 0), S(4, -11), S(7, 9), S(9, 10), S(19, 15), S(55, 20), S(124, 77), S(0, 0)});

  // passed_rank: passed pawn, by rank
  b.add(kPassedRank, {S(0, 0), S(15, 33), S(-2, 49), S(-20, 43), S(-1, 61), S(21, 23), S(69, 15), S(0, 0)});

  // passed_blocked: passed pawn whose stop square is occupied
  b.add(kPassedBlocked, {S(0, 0), S(14, -12), S(-10, -13), S(-31, 0), S(-10, -2), S(-16, -25), S(-18, -42), S(0, 0)});

  // passed_free_path: passed pawn with no piece on its path to promotion
  b.add(kPassedFreePath, {S(0, 0), S(61, -19), S(25, -12), S(6, 3), S(19, 11), S(73, -3), S(96, -24), S(0, 0)});

  // passed_safe_path: free path that no enemy piece or pawn attacks either
  b.add(kPassedSafePath, {S(0, 0), S(-88, 29), S(-92, 21), S(-123, 34), S(-30, 26), S(-47, 46), S(-86, 121), S(0, 0)});

  // passed_own_king: times the own king's distance to the stop square
  b.add(kPassedOwnKing, {S(0, 0), S(5, -3), S(1, -13), S(4, -14), S(4, -14), S(-7, -12), S(0, -8), S(0, 0)});

  // passed_enemy_king: times the enemy king's distance to the stop square
  b.add(kPassedEnemyKing, {S(0, 0), S(-11, 1), S(-2, 8), S(3, 16), S(-4, 16), S(18, 17), S(8, 2), S(0, 0)});

  // passed_unstoppable: enemy has only king and pawns and its king is outside the pawn's square
  b.add(kPassedUnstoppable, {S(-269, 56)});

  // rook_open_file: rook on a file without pawns
  b.add(kRookOpenFile, {S(25, 0)});

  // rook_semi_open_file: rook on a file with enemy pawns only
  b.add(kRookSemiOpenFile, {S(9, 20)});

  // rook_seventh: rook on the 7th rank with enemy pawns there or the enemy king on the 8th
  b.add(kRookSeventh, {S(1, 1)});

  // mobility_knight: by number of safe squares attacked
  b.add(kMobilityKnight, {S(13, -1), S(25, 14), S(22, 56), S(17, 64), S(18, 60), S(20, 56), S(23, 55), S(25, 54),
                          S(2, 47)});

  // mobility_bishop: by number of safe squares attacked
  b.add(kMobilityBishop, {S(-16, 14), S(-5, 48), S(3, 34), S(2, 53), S(9, 59), S(12, 56), S(13, 62), S(8, 64), S(8, 68),
                          S(0, 74), S(13, 61), S(-22, 85), S(-14, 62), S(-275, 122)});

  // mobility_rook: by number of safe squares attacked
  b.add(kMobilityRook, {S(19, -8), S(25, 18), S(11, 46), S(26, 29), S(23, 51), S(26, 46), S(26, 56), S(27, 58),
                        S(25, 64), S(21, 71), S(17, 74), S(30, 74), S(27, 73), S(51, 75), S(7, 87)});

  // mobility_queen: by number of safe squares attacked
  b.add(kMobilityQueen, {S(96, -71), S(6, -12), S(20, -3), S(11, -71), S(6, -12), S(8, -17), S(3, -4), S(5, 13),
                         S(-4, 27), S(-5, 48), S(3, 29), S(-3, 58), S(0, 61), S(3, 60), S(13, 33), S(7, 35), S(-1, 56),
                         S(9, 27), S(-2, 29), S(18, -10), S(51, -46), S(123, -167), S(64, -121), S(9, -185),
                         S(-59, -184), S(-196, -364), S(-119, -192), S(-258, -402)});

  // king_shield: per file around the king: rank of the nearest own pawn in front
  b.add(kKingShield, {S(-24, -4), S(7, -3), S(9, -6), S(-16, -1), S(-15, 7), S(-15, 24), S(14, 27), S(0, 0)});

  // king_storm: per file around the king: rank of the nearest enemy pawn in front, unblocked
  b.add(kKingStorm, {S(-8, -13), S(-24, 123), S(-57, 48), S(-14, 16), S(-11, 4), S(6, -4), S(5, -17), S(0, 0)});

  // king_storm_blocked: as king_storm, the enemy pawn blocked by an own pawn
  b.add(kKingStormBlocked, {S(0, 0), S(0, 0), S(-60, 26), S(16, -13), S(22, -18), S(20, -34), S(-22, -59), S(0, 0)});

  // threat_by_pawn: enemy piece (not pawn or king) attacked by an own pawn
  b.add(kThreatByPawn, {S(50, 22)});

  // threat_by_minor: enemy rook or queen attacked by an own knight or bishop
  b.add(kThreatByMinor, {S(45, 11)});

  // mopup_corner: lone enemy king: times its Manhattan distance from the centre
  b.add(kMopUpCorner, {S(-48, -131)});

  // mopup_kings: lone enemy king: times (7 - king distance)
  b.add(kMopUpKings, {S(108, 10)});

  // tempo: side to move
  b.add(kTempo, {S(12, 2)});

  // ks_attacker: units per piece attacking the enemy king zone
  b.add(kKsAttacker, {S(20, -61), S(32, 51), S(87, 64), S(29, -4)});

  // ks_zone_attacks: units per attacked king-zone square (summed over attackers)
  b.add(kKsZoneAttacks, {S(14, -5)});

  // ks_weak_squares: units per attacked king-zone square defended at most once, by king or queen
  b.add(kKsWeakSquares, {S(19, 4)});

  // ks_safe_check: units per safe checking square
  b.add(kKsSafeCheck, {S(79, 30), S(66, 110), S(87, 293), S(71, 2)});

  // ks_no_queen: units when the attacker has no queen
  b.add(kKsNoQueen, {S(-320, -18)});

  // ks_bias: units added whenever the attack counts
  b.add(kKsBias, {S(-33, -2)});

  return b.done();
}

constexpr EvalWeights kDefaultWeights = buildDefaults();

}  // namespace

const EvalWeights& EvalWeights::defaults() { return kDefaultWeights; }

}  // namespace janus
