#pragma once
// Test support: a random float network, its quantisation into a format.h file image, and a
// float forward pass (double precision) to compare the engine's integer inference with.
// Used by nnue_test.cpp and the engine tests; not part of the engine.

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "core/position.h"
#include "nnue/format.h"

namespace janus::nnue::testing {

/// Float weights of (768 K -> n) x 2 -> buckets -> 1 (format.h order, unquantised).
struct FloatNet {
  int hidden = 0, buckets = 1, kingBuckets = 1;
  Activation activation = Activation::kSCReLU;
  std::vector<float> ftWeights;   ///< [768 kingBuckets][hidden]
  std::vector<float> ftBias;      ///< [hidden]
  std::vector<float> outWeights;  ///< [buckets][2 * hidden]
  std::vector<float> outBias;     ///< [buckets]
};

/// Weights uniform in +-scale (clipped to kWeightClip), deterministic in `seed`; `kingBuckets`
/// K in {1, 2, 4, 8, 16}.
inline FloatNet randomFloatNet(int hidden, int buckets, Activation act, unsigned seed, float ftScale = 0.15f,
                               float outScale = 0.5f, int kingBuckets = 1) {
  std::mt19937 rng(seed);
  auto u = [&](float s) { return std::uniform_real_distribution<float>(-s, s)(rng); };
  FloatNet n;
  n.hidden = hidden;
  n.buckets = buckets;
  n.kingBuckets = kingBuckets;
  n.activation = act;
  n.ftWeights.resize(size_t(kInputs) * kingBuckets * hidden);
  for (float& w : n.ftWeights) w = u(ftScale);
  n.ftBias.resize(size_t(hidden));
  for (float& w : n.ftBias) w = 0.1f + u(0.1f);
  n.outWeights.resize(size_t(buckets) * 2 * hidden);
  for (float& w : n.outWeights) w = u(outScale);
  n.outBias.resize(size_t(buckets));
  for (float& w : n.outBias) w = u(0.2f);
  return n;
}

/// The file image (header + quantised payload) of `net`, exactly as format.h specifies.
inline std::vector<unsigned char> quantise(const FloatNet& net, const char* description = "test") {
  std::vector<unsigned char> payload;
  auto put = [&](const void* p, size_t n) {
    auto* b = static_cast<const unsigned char*>(p);
    payload.insert(payload.end(), b, b + n);
  };
  auto q16 = [&](float w, float scale) {
    std::int16_t v = std::int16_t(std::lround(double(w) * scale));
    put(&v, 2);
  };
  for (float w : net.ftWeights) q16(w, kQA);
  for (float w : net.ftBias) q16(w, kQA);
  for (float w : net.outWeights) q16(w, kQB);
  for (float b : net.outBias) {
    std::int32_t v = std::int32_t(std::lround(double(b) * kQA * kQB));
    put(&v, 4);
  }
  NetHeader h{};
  h.activation = std::uint8_t(net.activation);
  h.kingBuckets = std::uint8_t(net.kingBuckets > 1 ? net.kingBuckets : 0);
  h.inputs = std::uint16_t(kInputs * net.kingBuckets);
  h.hidden = std::uint16_t(net.hidden);
  h.outputBuckets = std::uint16_t(net.buckets);
  h.qa = kQA;
  h.qb = kQB;
  h.evalScale = kEvalScale;
  return netfile::build(kNetFormat, h, payload, architectureId(net.activation, net.hidden, net.buckets, net.kingBuckets),
                        description);
}

/// Float forward pass in double precision: centipawns, side to move's view.
inline double floatEval(const FloatNet& net, const Position& pos) {
  std::vector<double> acc[2];
  const Color us = pos.sideToMove();
  for (int side = 0; side < 2; ++side) {
    const Color persp = side == 0 ? us : ~us;
    const Square king = pos.kingSquare(persp);
    acc[side].assign(net.ftBias.begin(), net.ftBias.end());
    for (Bitboard b = pos.pieces(); b; b &= b - 1) {
      Square s = lsb(b);
      Piece p = pos.pieceOn(s);
      const float* row =
          &net.ftWeights[size_t(featureIndex(persp, colorOf(p), typeOf(p), s, king, net.kingBuckets)) * net.hidden];
      for (int i = 0; i < net.hidden; ++i) acc[side][size_t(i)] += row[i];
    }
  }
  const int bucket = outputBucket(popCount(pos.pieces()), net.buckets);
  double out = net.outBias[size_t(bucket)];
  for (int side = 0; side < 2; ++side)
    for (int i = 0; i < net.hidden; ++i) {
      double a = std::clamp(acc[side][size_t(i)], 0.0, 1.0);
      if (net.activation == Activation::kSCReLU) a *= a;
      out += a * net.outWeights[size_t(bucket) * 2 * net.hidden + size_t(side) * net.hidden + size_t(i)];
    }
  return out * kEvalScale;
}

}  // namespace janus::nnue::testing
