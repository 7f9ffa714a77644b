#pragma once
// Bitboard helpers and precomputed attack tables.
//
// Sliding attacks use "fancy" magic bitboards (chessprogramming wiki "Magic Bitboards"):
// one shared table indexed by offset[sq] + index(occupancy & mask[sq]). Where the CPU has
// BMI2 (compiled with -mbmi2 / -march=native), the index is _pext_u64(occupancy, mask)
// ("BMI2 - PEXT Bitboards"); otherwise it is ((occupancy & mask) * magic) >> shift with magic
// numbers found at start-up by a seeded random search (Tord Romstad's method).

#include <bit>
#include <cassert>

#include "core/types.h"

#if defined(__BMI2__)
#include <immintrin.h>
#define JANUS_USE_PEXT 1
#else
#define JANUS_USE_PEXT 0
#endif

namespace janus {

constexpr Bitboard kFileA = 0x0101010101010101ULL;
constexpr Bitboard kFileH = kFileA << 7;
constexpr Bitboard kRank1 = 0xFFULL;
constexpr Bitboard kRank8 = kRank1 << 56;
constexpr Bitboard kDarkSquares = 0xAA55AA55AA55AA55ULL;

constexpr Bitboard squareBB(Square s) { return Bitboard(1) << s; }
constexpr Bitboard fileBB(int file) { return kFileA << file; }
constexpr Bitboard rankBB(int rank) { return kRank1 << (8 * rank); }
constexpr Bitboard relativeRankBB(Color c, int rank) { return rankBB(c == kWhite ? rank : 7 - rank); }

inline int popCount(Bitboard b) { return std::popcount(b); }
inline Square lsb(Bitboard b) {
  assert(b);
  return Square(std::countr_zero(b));
}
inline Square msb(Bitboard b) {
  assert(b);
  return Square(63 - std::countl_zero(b));
}
/// Returns the least significant square and clears it from `b`.
inline Square popLsb(Bitboard& b) {
  Square s = lsb(b);
  b &= b - 1;
  return s;
}
constexpr bool moreThanOne(Bitboard b) { return b & (b - 1); }

/// Shift every square one step in a direction; bits that leave the board are dropped.
constexpr Bitboard shiftNorth(Bitboard b) { return b << 8; }
constexpr Bitboard shiftSouth(Bitboard b) { return b >> 8; }
constexpr Bitboard shiftEast(Bitboard b) { return (b & ~kFileH) << 1; }
constexpr Bitboard shiftWest(Bitboard b) { return (b & ~kFileA) >> 1; }
template <Color C>
constexpr Bitboard shiftForward(Bitboard b) {
  return C == kWhite ? b << 8 : b >> 8;
}
/// Squares attacked by a set of pawns of colour C.
template <Color C>
constexpr Bitboard pawnAttacksBB(Bitboard pawns) {
  return C == kWhite ? shiftNorth(shiftEast(pawns) | shiftWest(pawns))
                     : shiftSouth(shiftEast(pawns) | shiftWest(pawns));
}
inline Bitboard pawnAttacksBB(Color c, Bitboard pawns) {
  return c == kWhite ? pawnAttacksBB<kWhite>(pawns) : pawnAttacksBB<kBlack>(pawns);
}

namespace detail {
struct SliderTable {
  Bitboard mask;
  u64 magic;
  u32 offset;
  u8 shift;
};
extern SliderTable gBishopTable[64];
extern SliderTable gRookTable[64];
extern Bitboard gSliderAttacks[];
extern Bitboard gPawnAttacks[2][64];
extern Bitboard gKnightAttacks[64];
extern Bitboard gKingAttacks[64];
extern Bitboard gBetween[64][64];
extern Bitboard gLine[64][64];

inline unsigned sliderIndex(const SliderTable& t, Bitboard occ) {
#if JANUS_USE_PEXT
  return unsigned(_pext_u64(occ, t.mask));
#else
  return unsigned(((occ & t.mask) * t.magic) >> t.shift);
#endif
}
}  // namespace detail

/// Initialises every attack table. Idempotent and thread-safe (guarded by a static);
/// called automatically before main() by a static initialiser in bitboard.cpp.
void initBitboards();

inline Bitboard pawnAttacks(Color c, Square s) { return detail::gPawnAttacks[c][s]; }
inline Bitboard knightAttacks(Square s) { return detail::gKnightAttacks[s]; }
inline Bitboard kingAttacks(Square s) { return detail::gKingAttacks[s]; }
inline Bitboard bishopAttacks(Square s, Bitboard occ) {
  const auto& t = detail::gBishopTable[s];
  return detail::gSliderAttacks[t.offset + detail::sliderIndex(t, occ)];
}
inline Bitboard rookAttacks(Square s, Bitboard occ) {
  const auto& t = detail::gRookTable[s];
  return detail::gSliderAttacks[t.offset + detail::sliderIndex(t, occ)];
}
inline Bitboard queenAttacks(Square s, Bitboard occ) { return bishopAttacks(s, occ) | rookAttacks(s, occ); }
/// Attacks of a non-pawn piece type from `s` with the given occupancy.
inline Bitboard attacks(PieceType pt, Square s, Bitboard occ) {
  switch (pt) {
    case kKnight: return knightAttacks(s);
    case kBishop: return bishopAttacks(s, occ);
    case kRook: return rookAttacks(s, occ);
    case kQueen: return queenAttacks(s, occ);
    case kKing: return kingAttacks(s);
    default: return 0;
  }
}

/// Squares strictly between a and b if they share a rank, file or diagonal, else 0.
inline Bitboard between(Square a, Square b) { return detail::gBetween[a][b]; }
/// The whole line (edge to edge) through a and b if they are aligned, else 0.
inline Bitboard line(Square a, Square b) { return detail::gLine[a][b]; }
inline bool aligned(Square a, Square b, Square c) { return line(a, b) & squareBB(c); }

/// Chebyshev (king-move) distance between two squares.
inline int distance(Square a, Square b) {
  int df = fileOf(a) - fileOf(b), dr = rankOf(a) - rankOf(b);
  df = df < 0 ? -df : df;
  dr = dr < 0 ? -dr : dr;
  return df > dr ? df : dr;
}

}  // namespace janus
