#include "mcts/pvnet.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include <fmt/format.h>

#include "core/bitboard.h"
#include "encoding/policy_map.h"
#include "util/error.h"

namespace janus::mcts::pvnet {

namespace {

/// The payload's vectors in file order, with their names for error messages.
template <typename W, typename F>
void forEachVector(W& w, F&& f) {
  f("trunkW", w.trunkW, std::size_t(kInputs) * std::size_t(w.hidden));
  f("trunkB", w.trunkB, std::size_t(w.hidden));
  f("valueW1", w.valueW1, std::size_t(w.valueHidden) * std::size_t(w.hidden));
  f("valueB1", w.valueB1, std::size_t(w.valueHidden));
  f("valueW2", w.valueW2, std::size_t(3) * std::size_t(w.valueHidden));
  f("valueB2", w.valueB2, std::size_t(3));
  f("policyW", w.policyW, std::size_t(kPolicySize) * std::size_t(w.hidden));
  f("policyB", w.policyB, std::size_t(kPolicySize));
}

/// Dot product of n floats. Sixteen independent partial sums, so the compiler vectorises it
/// (AVX-512: one register, AVX2: two) without reassociating a single sum; fixed summation
/// order, so the result does not depend on the SIMD width.
inline float dot(const float* a, const float* b, int n) {
  float acc[16] = {};
  int i = 0;
  for (; i + 16 <= n; i += 16)
    for (int j = 0; j < 16; ++j) acc[j] += a[i + j] * b[i + j];
  for (int j = 0; i < n; ++i, ++j) acc[j] += a[i] * b[i];
  float s = 0.0f;
  for (float x : acc) s += x;
  return s;
}

void softmax(float* x, std::size_t n) {
  const float m = *std::max_element(x, x + n);
  float sum = 0.0f;
  for (std::size_t i = 0; i < n; ++i) sum += (x[i] = std::exp(x[i] - m));
  for (std::size_t i = 0; i < n; ++i) x[i] /= sum;
}

}  // namespace

int sideToMoveFeatures(const Position& pos, std::array<int, kMaxActive>& out) {
  const Color stm = pos.sideToMove();
  int n = 0;
  for (Bitboard b = pos.pieces(); b;) {
    const Square s = popLsb(b);
    const Piece p = pos.pieceOn(s);
    out[std::size_t(n++)] = pieceInput(stm, colorOf(p), typeOf(p), s);
  }
  for (const bool own : {true, false})
    for (const bool kingSide : {true, false})
      if (pos.canCastle(castlingRight(own ? stm : ~stm, kingSide))) out[std::size_t(n++)] = castlingInput(own, kingSide);
  return n;
}

PvWeights PvWeights::zeros(int hidden, int valueHidden) {
  if (!validSizes(hidden, valueHidden))
    throw Error(fmt::format("policy/value network sizes H={} V={} are invalid (H {}..{} and a multiple of 16, V {}..{} "
                            "and a multiple of 8)",
                            hidden, valueHidden, kMinHidden, kMaxHidden, kMinValueHidden, kMaxValueHidden));
  PvWeights w;
  w.hidden = hidden;
  w.valueHidden = valueHidden;
  forEachVector(w, [](const char*, std::vector<float>& v, std::size_t n) { v.assign(n, 0.0f); });
  return w;
}

void PvWeights::checkSizes() const {
  if (!validSizes(hidden, valueHidden))
    throw Error(fmt::format("policy/value network sizes H={} V={} are invalid", hidden, valueHidden));
  forEachVector(*this, [](const char* name, const std::vector<float>& v, std::size_t n) {
    if (v.size() != n) throw Error(fmt::format("policy/value weights: {} has {} values, expected {}", name, v.size(), n));
  });
}

std::vector<unsigned char> pvFileBytes(const PvWeights& w, std::string_view description) {
  w.checkSizes();
  std::vector<unsigned char> payload(payloadBytes(w.hidden, w.valueHidden));
  unsigned char* p = payload.data();
  forEachVector(w, [&](const char* name, const std::vector<float>& v, std::size_t) {
    for (float x : v)
      if (!std::isfinite(x)) throw Error(fmt::format("policy/value weights: {} holds a NaN or an infinity", name));
    std::memcpy(p, v.data(), v.size() * sizeof(float));
    p += v.size() * sizeof(float);
  });
  PvHeader h{};
  h.inputs = kInputs;
  h.hidden = std::uint16_t(w.hidden);
  h.valueHidden = std::uint16_t(w.valueHidden);
  h.policySize = kPolicySize;
  return netfile::build(kPvFormat, h, payload, architectureId(w.hidden, w.valueHidden), description);
}

std::string writePvFile(const PvWeights& w, const std::string& path, std::string_view description) {
  return netfile::writeFile(kPvFormat, pvFileBytes(w, description), path);
}

std::shared_ptr<const PvNetwork> PvNetwork::fromBytes(std::span<const unsigned char> bytes, const std::string& source) {
  const netfile::File<PvHeader> file = netfile::read<PvHeader>(kPvFormat, bytes, source, [](const PvHeader& h) {
    if (h.inputs != kInputs) throw Error(fmt::format("{} inputs, expected {}", h.inputs, kInputs));
    if (h.policySize != kPolicySize) throw Error(fmt::format("policy size {}, expected {}", h.policySize, kPolicySize));
    if (!validSizes(h.hidden, h.valueHidden))
      throw Error(fmt::format("invalid sizes H={} V={} (H {}..{}, a multiple of 16; V {}..{}, a multiple of 8)", h.hidden,
                              h.valueHidden, kMinHidden, kMaxHidden, kMinValueHidden, kMaxValueHidden));
    return netfile::Architecture{architectureId(h.hidden, h.valueHidden), payloadBytes(h.hidden, h.valueHidden)};
  });
  PvWeights w = PvWeights::zeros(file.header.hidden, file.header.valueHidden);
  const unsigned char* p = file.payload.data();
  forEachVector(w, [&](const char* name, std::vector<float>& v, std::size_t n) {
    std::memcpy(v.data(), p, n * sizeof(float));
    p += n * sizeof(float);
    for (float x : v)
      if (!std::isfinite(x))
        throw Error(fmt::format("{} '{}': {} holds a NaN or an infinity", kPvFormat.kind, source, name));
  });
  return std::shared_ptr<const PvNetwork>(new PvNetwork(std::move(w), file.contentHash, file.description));
}

std::shared_ptr<const PvNetwork> PvNetwork::fromFile(const std::string& path) {
  return fromBytes(netfile::readFile(kPvFormat, path), path);
}

std::shared_ptr<const PvNetwork> PvNetwork::fromWeights(PvWeights w, std::uint64_t contentHash, std::string description) {
  w.checkSizes();
  return std::shared_ptr<const PvNetwork>(new PvNetwork(std::move(w), contentHash, std::move(description)));
}

PvNetwork::PvNetwork(PvWeights w, std::uint64_t hash, std::string description)
    : m_w(std::move(w)), m_hash(hash), m_description(std::move(description)) {}

std::string PvNetwork::name() const { return netfile::name(kPvFormat, m_hash); }

std::string PvNetwork::describe() const {
  return fmt::format("{} ({}->{}, value {}->3, policy {}){}{}", name(), kInputs, m_w.hidden, m_w.valueHidden, kPolicySize,
                     m_description.empty() ? "" : ", ", m_description);
}

void PvNetwork::trunk(const Position& pos, float* h) const {
  const int H = m_w.hidden;
  std::array<int, kMaxActive> features;
  const int n = sideToMoveFeatures(pos, features);
  std::memcpy(h, m_w.trunkB.data(), std::size_t(H) * sizeof(float));
  for (int k = 0; k < n; ++k) {
    const float* row = m_w.trunkW.data() + std::size_t(features[std::size_t(k)]) * std::size_t(H);
    for (int i = 0; i < H; ++i) h[i] += row[i];
  }
  for (int i = 0; i < H; ++i) h[i] = std::max(h[i], 0.0f);
}

void PvNetwork::logits(const Position& pos, std::span<const Move> moves, std::array<float, 3>& valueLogits,
                       std::span<float> policyLogits) const {
  if (policyLogits.size() != moves.size()) throw Error("PvNetwork::logits: one logit per move expected");
  const int H = m_w.hidden, V = m_w.valueHidden;
  alignas(64) float h[kMaxHidden];
  alignas(64) float v[kMaxValueHidden];
  trunk(pos, h);
  for (int j = 0; j < V; ++j)
    v[j] = std::max(dot(m_w.valueW1.data() + std::size_t(j) * std::size_t(H), h, H) + m_w.valueB1[std::size_t(j)], 0.0f);
  for (int k = 0; k < 3; ++k)
    valueLogits[std::size_t(k)] = dot(m_w.valueW2.data() + std::size_t(k) * std::size_t(V), v, V) + m_w.valueB2[std::size_t(k)];
  for (std::size_t i = 0; i < moves.size(); ++i) {
    const auto idx = std::size_t(encoding::policyIndex(pos, moves[i]));
    policyLogits[i] = dot(m_w.policyW.data() + idx * std::size_t(H), h, H) + m_w.policyB[idx];
  }
}

Wdl PvNetwork::evaluate(const Position& pos, std::span<const Move> moves, std::span<float> priors, float temperature) const {
  std::array<float, 3> value;
  logits(pos, moves, value, priors);
  if (!moves.empty()) {
    if (temperature != 1.0f)
      for (float& x : priors) x /= temperature;
    softmax(priors.data(), priors.size());
  }
  softmax(value.data(), 3);
  return Wdl{value[0], value[1], value[2]};
}

}  // namespace janus::mcts::pvnet
