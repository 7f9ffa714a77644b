#include "core/bitboard.h"

#include <mutex>

namespace janus {
namespace detail {

SliderTable gBishopTable[64];
SliderTable gRookTable[64];
// Fancy magic table sizes: 102400 rook entries + 5248 bishop entries.
Bitboard gSliderAttacks[102400 + 5248];
Bitboard gPawnAttacks[2][64];
Bitboard gKnightAttacks[64];
Bitboard gKingAttacks[64];
Bitboard gBetween[64][64];
Bitboard gLine[64][64];

}  // namespace detail

namespace {

constexpr int kRookDirs[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
constexpr int kBishopDirs[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

bool onBoard(int f, int r) { return f >= 0 && f < 8 && r >= 0 && r < 8; }

/// Slow ray-walking attack generator, used only to fill the tables.
Bitboard slidingAttacks(const int (&dirs)[4][2], Square s, Bitboard occ) {
  Bitboard result = 0;
  for (const auto& d : dirs) {
    int f = fileOf(s) + d[0], r = rankOf(s) + d[1];
    while (onBoard(f, r)) {
      Square t = makeSquare(f, r);
      result |= squareBB(t);
      if (occ & squareBB(t)) break;
      f += d[0];
      r += d[1];
    }
  }
  return result;
}

/// xorshift64* (Vigna 2014), a tiny deterministic PRNG for the magic search.
struct Prng {
  u64 s;
  u64 next() {
    s ^= s >> 12;
    s ^= s << 25;
    s ^= s >> 27;
    return s * 2685821657736338717ULL;
  }
  /// Numbers with few bits set make good magic candidates.
  u64 sparse() { return next() & next() & next(); }
};

void initSliders(detail::SliderTable* table, const int (&dirs)[4][2], u32& offset) {
  Bitboard occupancies[4096], reference[4096];
  int epoch[4096] = {};
  int attempt = 0;
  Prng prng{0x9E3779B97F4A7C15ULL};
  for (int sq = 0; sq < 64; ++sq) {
    Square s = Square(sq);
    // Edges are irrelevant for occupancy unless the piece stands on them.
    Bitboard edges = ((kRank1 | kRank8) & ~rankBB(rankOf(s))) | ((kFileA | kFileH) & ~fileBB(fileOf(s)));
    auto& t = table[sq];
    t.mask = slidingAttacks(dirs, s, 0) & ~edges;
    int bits = popCount(t.mask);
    t.shift = u8(64 - bits);
    t.offset = offset;
    int size = 0;
    // Carry-Rippler enumeration of every subset of the mask.
    Bitboard b = 0;
    do {
      occupancies[size] = b;
      reference[size] = slidingAttacks(dirs, s, b);
#if JANUS_USE_PEXT
      detail::gSliderAttacks[offset + _pext_u64(b, t.mask)] = reference[size];
#endif
      ++size;
      b = (b - t.mask) & t.mask;
    } while (b);
    offset += u32(size);
#if !JANUS_USE_PEXT
    // Search a magic that maps every occupancy to a slot without destructive collisions.
    for (int i = 0; i < size;) {
      t.magic = 0;
      while (popCount((t.magic * t.mask) >> 56) < 6) t.magic = prng.sparse();
      ++attempt;
      for (i = 0; i < size; ++i) {
        unsigned idx = detail::sliderIndex(t, occupancies[i]);
        Bitboard& slot = detail::gSliderAttacks[t.offset + idx];
        if (epoch[idx] < attempt) {
          epoch[idx] = attempt;
          slot = reference[i];
        } else if (slot != reference[i]) {
          break;
        }
      }
    }
#else
    (void)occupancies;
    (void)epoch;
    (void)attempt;
    (void)prng;
#endif
  }
}

void initAll() {
  for (int sq = 0; sq < 64; ++sq) {
    Square s = Square(sq);
    Bitboard b = squareBB(s);
    detail::gPawnAttacks[kWhite][sq] = pawnAttacksBB<kWhite>(b);
    detail::gPawnAttacks[kBlack][sq] = pawnAttacksBB<kBlack>(b);
    Bitboard k = 0, n = 0;
    for (int df = -2; df <= 2; ++df)
      for (int dr = -2; dr <= 2; ++dr) {
        int f = fileOf(s) + df, r = rankOf(s) + dr;
        if (!onBoard(f, r) || (df == 0 && dr == 0)) continue;
        int adf = df < 0 ? -df : df, adr = dr < 0 ? -dr : dr;
        if (adf <= 1 && adr <= 1) k |= squareBB(makeSquare(f, r));
        if (adf + adr == 3) n |= squareBB(makeSquare(f, r));
      }
    detail::gKingAttacks[sq] = k;
    detail::gKnightAttacks[sq] = n;
  }
  u32 offset = 0;
  initSliders(detail::gRookTable, kRookDirs, offset);
  initSliders(detail::gBishopTable, kBishopDirs, offset);

  for (int a = 0; a < 64; ++a)
    for (int b = 0; b < 64; ++b) {
      Square sa = Square(a), sb = Square(b);
      detail::gBetween[a][b] = detail::gLine[a][b] = 0;
      if (a == b) continue;
      if (slidingAttacks(kRookDirs, sa, 0) & squareBB(sb)) {
        detail::gLine[a][b] = (slidingAttacks(kRookDirs, sa, 0) & slidingAttacks(kRookDirs, sb, 0)) |
                              squareBB(sa) | squareBB(sb);
        detail::gBetween[a][b] = rookAttacks(sa, squareBB(sb)) & rookAttacks(sb, squareBB(sa));
      } else if (slidingAttacks(kBishopDirs, sa, 0) & squareBB(sb)) {
        detail::gLine[a][b] = (slidingAttacks(kBishopDirs, sa, 0) & slidingAttacks(kBishopDirs, sb, 0)) |
                              squareBB(sa) | squareBB(sb);
        detail::gBetween[a][b] = bishopAttacks(sa, squareBB(sb)) & bishopAttacks(sb, squareBB(sa));
      }
    }
}

[[maybe_unused]] const bool kInitialised = (initBitboards(), true);

}  // namespace

void initBitboards() {
  static std::once_flag once;
  std::call_once(once, initAll);
}

}  // namespace janus
