// Quantisation and network files (nnue_export.h).

#include "training/nnue_export.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <limits>

#include <fmt/format.h>

#include "netfile/netfile.h"
#include "util/error.h"

namespace janus::training {

namespace {

template <typename T>
T quantiseValue(double x) {
  const double r = std::round(x);
  constexpr double lo = double(std::numeric_limits<T>::min()), hi = double(std::numeric_limits<T>::max());
  return T(std::isnan(r) ? 0.0 : std::clamp(r, lo, hi));
}

template <typename T>
void append(std::vector<unsigned char>& out, const std::vector<T>& values) {
  const size_t at = out.size();
  out.resize(at + values.size() * sizeof(T));
  std::memcpy(out.data() + at, values.data(), values.size() * sizeof(T));  // little-endian host (format.h)
}

template <typename T>
void take(std::span<const unsigned char>& in, std::vector<T>& values, size_t count) {
  values.resize(count);
  std::memcpy(values.data(), in.data(), count * sizeof(T));
  in = in.subspan(count * sizeof(T));
}

}  // namespace

int outputScaleFor(std::span<const float> outWeights) {
  double largest = 0;
  for (float w : outWeights) largest = std::max(largest, std::abs(double(w)));
  int qb = nnue::kQB;
  while (nnue::validQB(2 * qb) && std::round(largest * 2 * qb) <= nnue::kMaxOutWeight) qb *= 2;
  return qb;
}

QuantisedNetwork quantise(const FloatNetwork& net, std::string_view description) {
  if (net.shape.factoriser) return quantise(withFactoriser(net, false), description);
  const NetworkShape& s = net.shape;
  validateShape(s);
  QuantisedNetwork q;
  q.hidden = s.hidden;
  q.buckets = s.buckets;
  q.activation = s.activation;
  q.kingBuckets = s.kingBuckets;
  for (size_t i = 0; i < std::min<size_t>(description.size(), sizeof q.description); ++i) {
    const char c = description[i];
    q.description[i] = (c >= 32 && c < 127) ? c : '?';
  }
  const float* p = net.params.data();
  q.ftWeights.resize(s.ftBiasOffset());
  for (size_t i = 0; i < q.ftWeights.size(); ++i) q.ftWeights[i] = quantiseValue<std::int16_t>(double(p[i]) * nnue::kQA);
  q.ftBias.resize(size_t(s.hidden));
  for (int i = 0; i < s.hidden; ++i) q.ftBias[i] = quantiseValue<std::int16_t>(double(net.ftBias()[i]) * nnue::kQA);
  q.outWeights.resize(size_t(s.buckets) * 2 * s.hidden);
  const std::span<const float> outWeights(p + s.outWeightsOffset(), q.outWeights.size());
  q.qb = outputScaleFor(outWeights);
  // The weight clip keeps |w| * 64 <= 127 (the engine's SCReLU kernel relies on it and rejects
  // larger output weights); clamp for networks that did not come from the trainer.
  for (size_t i = 0; i < q.outWeights.size(); ++i)
    q.outWeights[i] = std::clamp<std::int16_t>(quantiseValue<std::int16_t>(double(outWeights[i]) * q.qb),
                                               -nnue::kMaxOutWeight, nnue::kMaxOutWeight);
  q.outBias.resize(size_t(s.buckets));
  for (int k = 0; k < s.buckets; ++k)
    q.outBias[k] = quantiseValue<std::int32_t>(double(net.outBias()[k]) * nnue::kQA * q.qb);
  return q;
}

FloatNetwork dequantise(const QuantisedNetwork& q) {
  FloatNetwork net(NetworkShape{q.hidden, q.buckets, q.activation, q.kingBuckets});
  const NetworkShape& s = net.shape;
  for (size_t i = 0; i < q.ftWeights.size(); ++i) net.params[i] = float(q.ftWeights[i]) / nnue::kQA;
  for (int i = 0; i < s.hidden; ++i) net.ftBias()[i] = float(q.ftBias[i]) / nnue::kQA;
  for (size_t i = 0; i < q.outWeights.size(); ++i) net.params[s.outWeightsOffset() + i] = float(q.outWeights[i]) / q.qb;
  for (int k = 0; k < s.buckets; ++k) net.outBias()[k] = float(double(q.outBias[k]) / (double(nnue::kQA) * q.qb));
  return net;
}

std::vector<unsigned char> netPayload(const QuantisedNetwork& q) {
  std::vector<unsigned char> out;
  out.reserve(size_t(nnue::payloadBytes(q.hidden, q.buckets, q.kingBuckets)));
  append(out, q.ftWeights);
  append(out, q.ftBias);
  append(out, q.outWeights);
  append(out, q.outBias);
  return out;
}

std::vector<unsigned char> netFileBytes(const QuantisedNetwork& q) {
  validateShape(NetworkShape{q.hidden, q.buckets, q.activation, q.kingBuckets});
  const std::vector<unsigned char> payload = netPayload(q);
  const std::uint64_t want = nnue::payloadBytes(q.hidden, q.buckets, q.kingBuckets);
  if (payload.size() != want)
    throw Error(fmt::format("network arrays hold {} bytes, the {}x{}x{} architecture needs {}", payload.size(),
                            q.kingBuckets, q.hidden, q.buckets, want));
  if (!nnue::validQB(q.qb)) throw Error(fmt::format("output scale QB {} is not 64, 128, 256 or 512", q.qb));
  nnue::NetHeader h{};
  h.activation = std::uint8_t(q.activation);
  h.kingBuckets = std::uint8_t(q.kingBuckets > 1 ? q.kingBuckets : 0);
  h.inputs = std::uint16_t(nnue::kInputs * q.kingBuckets);
  h.hidden = std::uint16_t(q.hidden);
  h.outputBuckets = std::uint16_t(q.buckets);
  h.qa = nnue::kQA;
  h.qb = std::uint16_t(q.qb);
  h.evalScale = nnue::kEvalScale;
  return netfile::build(nnue::kNetFormat, h, payload,
                        nnue::architectureId(q.activation, q.hidden, q.buckets, q.kingBuckets, q.qb),
                        std::string_view(q.description, strnlen(q.description, sizeof q.description)));
}

QuantisedNetwork parseNetFile(std::span<const unsigned char> bytes, const std::string& source) {
  const netfile::File<nnue::NetHeader> file = nnue::checkNetFile(bytes, source);
  const nnue::NetHeader& h = file.header;
  std::span<const unsigned char> payload = file.payload;
  QuantisedNetwork q;
  q.hidden = h.hidden;
  q.buckets = h.outputBuckets;
  q.activation = nnue::Activation(h.activation);
  q.kingBuckets = nnue::kingBucketsOf(h);
  q.qb = h.qb;
  std::memcpy(q.description, h.description, sizeof q.description);
  take(payload, q.ftWeights, size_t(nnue::kInputs) * q.kingBuckets * q.hidden);
  take(payload, q.ftBias, size_t(q.hidden));
  take(payload, q.outWeights, size_t(q.buckets) * 2 * q.hidden);
  take(payload, q.outBias, size_t(q.buckets));
  return q;
}

QuantisedNetwork readNetFile(const std::string& path) {
  return parseNetFile(netfile::readFile(nnue::kNetFormat, path), path);
}

std::string writeNetFile(const QuantisedNetwork& q, const std::string& path) {
  return netfile::writeFile(nnue::kNetFormat, netFileBytes(q), path);
}

}  // namespace janus::training
