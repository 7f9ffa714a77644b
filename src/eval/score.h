#pragma once
// TaperedScore: a (middlegame, endgame) pair of centipawn values packed into one 32-bit integer,
// so that the evaluation adds both phases with one instruction (chessprogramming wiki "Tapered
// Eval"; the packing trick is described there and used by Stockfish and Ethereal).
//
// Layout: value = eg * 2^16 + mg, both halves signed 16-bit. All arithmetic is done in unsigned
// 32-bit (wrap-around is defined), which is exact as long as each half stays in [-32768, 32767];
// evaluation sums stay far below that (a full board of material is about 8000 cp).

#include "core/types.h"

namespace janus {

class TaperedScore {
 public:
  constexpr TaperedScore() = default;
  constexpr TaperedScore(int mg, int eg) : m_packed(i32((u32(eg) << 16) + u32(mg))) {}

  /// Middlegame half in centipawns.
  [[nodiscard]] constexpr int mg() const { return i16(u16(u32(m_packed))); }
  /// Endgame half in centipawns.
  [[nodiscard]] constexpr int eg() const { return i16(u16((u32(m_packed) + 0x8000u) >> 16)); }

  constexpr TaperedScore operator+(TaperedScore o) const { return fromRaw(u32(m_packed) + u32(o.m_packed)); }
  constexpr TaperedScore operator-(TaperedScore o) const { return fromRaw(u32(m_packed) - u32(o.m_packed)); }
  constexpr TaperedScore operator-() const { return fromRaw(0u - u32(m_packed)); }
  constexpr TaperedScore operator*(int k) const { return fromRaw(u32(m_packed) * u32(k)); }
  constexpr TaperedScore& operator+=(TaperedScore o) { return *this = *this + o; }
  constexpr TaperedScore& operator-=(TaperedScore o) { return *this = *this - o; }
  constexpr bool operator==(const TaperedScore&) const = default;

 private:
  static constexpr TaperedScore fromRaw(u32 raw) {
    TaperedScore s;
    s.m_packed = i32(raw);
    return s;
  }
  i32 m_packed = 0;
};

/// Phase weights (PeSTO, chessprogramming wiki "PeSTO's Evaluation Function"): knight 1, bishop 1,
/// rook 2, queen 4; the start position has phase kPhaseMax = 24 (pure middlegame), bare kings 0.
constexpr int kPhaseMax = 24;

/// Interpolates a score between its middlegame and endgame halves: (mg * phase + eg * (24 - phase))
/// / 24, truncated toward zero (so that the result is antisymmetric under a colour flip).
constexpr int taper(TaperedScore s, int phase) { return (s.mg() * phase + s.eg() * (kPhaseMax - phase)) / kPhaseMax; }

}  // namespace janus
