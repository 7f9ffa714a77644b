#pragma once
// Scalar reference of the quantised NNUE inference of nnue/format.h: the integer formula in
// plain C++, with no SIMD and no incremental updates, so that the engine's SIMD inference can be
// tested against it. Header-only; depends only on nnue/format.h and the standard library.
//
// For a position with side to move `stm`, pieces (colour, type, square) and output bucket
// k = outputBucket(pieceCount, B) (F_p: the 6-argument featureIndex of each piece for p, with
// p's king square and the net's K king buckets):
//   acc_p[i] = ftBias[i] + sum_{f in F_p} ftWeights[f][i]                    (p = stm, other)
//   c_p[i]   = clamp(acc_p[i], 0, QA)
//   SCReLU:  s = (sum_i c_stm[i]^2 * outW[k][i] + c_other[i]^2 * outW[k][N + i]) / QA
//   CReLU:   s =  sum_i c_stm[i]   * outW[k][i] + c_other[i]   * outW[k][N + i]
//   eval     = (s + outBias[k]) * kEvalScale / (QA * QB)                     centipawns
// (QB: the network's output scale, QuantisedNetwork::qb).
// Every division is C++ integer division (truncation toward zero); the sums are 64-bit, so no
// intermediate overflows for any N <= 2048. The accumulators are exact here; the engine keeps
// them in int16, which gives the same numbers because the trainer's weight clip (+-1.98, i.e.
// |ftWeight| <= 505) keeps 33 rows far below 32767.

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "nnue/format.h"

namespace janus::training {

/// A piece on a square: colour 0 White / 1 Black, type 0 pawn .. 5 king, square 0 (a1) .. 63 (h8).
struct PieceSquare {
  std::uint8_t color;
  std::uint8_t type;
  std::uint8_t square;
};

/// The integers of a network file (format.h payload), unpacked.
struct QuantisedNetwork {
  int hidden = 0;                                            ///< N
  int buckets = 0;                                           ///< B
  int kingBuckets = 1;                                       ///< K (format.h kingBucket(); 1 = none)
  nnue::Activation activation = nnue::Activation::kSCReLU;
  int qb = nnue::kQB;                                        ///< QB, the output layer's scale (format.h validQB)
  char description[16] = {};                                 ///< NetHeader::description
  std::vector<std::int16_t> ftWeights;   ///< [768 K][N], scale QA
  std::vector<std::int16_t> ftBias;      ///< [N], scale QA
  std::vector<std::int16_t> outWeights;  ///< [B][2N], scale qb, within -127..127
  std::vector<std::int32_t> outBias;     ///< [B], scale QA * qb
};

/// Square (0..63) of the king of `color` (0 White, 1 Black) among `pieces`; 0 when there is none
/// (a position without that king has no defined king-bucket inputs).
inline int kingSquareOf(std::span<const PieceSquare> pieces, int color) {
  for (const PieceSquare& p : pieces)
    if (p.type == 5 && p.color == color) return p.square;
  return 0;
}

/// The two accumulators (side to move first, N values each) of `pieces` seen by `stm`.
inline void quantisedAccumulators(const QuantisedNetwork& net, std::span<const PieceSquare> pieces, int stm,
                                  std::vector<std::int32_t>& accStm, std::vector<std::int32_t>& accOther) {
  const int n = net.hidden, kb = net.kingBuckets;
  const int kingStm = kingSquareOf(pieces, stm), kingOther = kingSquareOf(pieces, stm ^ 1);
  accStm.assign(net.ftBias.begin(), net.ftBias.end());
  accOther.assign(net.ftBias.begin(), net.ftBias.end());
  for (const PieceSquare& p : pieces) {
    const std::int16_t* rowStm =
        &net.ftWeights[std::size_t(nnue::featureIndex(stm, p.color, p.type, p.square, kingStm, kb)) * n];
    const std::int16_t* rowOther =
        &net.ftWeights[std::size_t(nnue::featureIndex(stm ^ 1, p.color, p.type, p.square, kingOther, kb)) * n];
    for (int i = 0; i < n; ++i) {
      accStm[i] += rowStm[i];
      accOther[i] += rowOther[i];
    }
  }
}

/// The output layer on two accumulators (N values each, side to move first): centipawns.
inline int quantisedOutput(const QuantisedNetwork& net, const std::int32_t* accStm, const std::int32_t* accOther,
                           int bucket) {
  const int n = net.hidden;
  const std::int16_t* w = &net.outWeights[std::size_t(bucket) * 2 * n];
  const bool screlu = net.activation == nnue::Activation::kSCReLU;
  std::int64_t sum = 0;
  for (int side = 0; side < 2; ++side) {
    const std::int32_t* acc = side == 0 ? accStm : accOther;
    for (int i = 0; i < n; ++i) {
      const std::int64_t c = std::clamp<std::int32_t>(acc[i], 0, nnue::kQA);
      sum += (screlu ? c * c : c) * w[side * n + i];
    }
  }
  if (screlu) sum /= nnue::kQA;
  return int((sum + net.outBias[bucket]) * nnue::kEvalScale / (std::int64_t(nnue::kQA) * net.qb));
}

/// Evaluation in centipawns (side to move's view) of `pieces` (at most 32, kings included) with
/// side to move `stm` (0 White, 1 Black), by the integer formula above.
inline int evaluateQuantised(const QuantisedNetwork& net, std::span<const PieceSquare> pieces, int stm) {
  std::vector<std::int32_t> accStm, accOther;
  quantisedAccumulators(net, pieces, stm, accStm, accOther);
  return quantisedOutput(net, accStm.data(), accOther.data(), nnue::outputBucket(int(pieces.size()), net.buckets));
}

}  // namespace janus::training
