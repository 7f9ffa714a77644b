// The float NNUE model (nnue_model.h): shape checks, initialisation and the scalar reference
// forward pass.

#include "training/nnue_model.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <random>

#include <fmt/format.h>

#include "util/error.h"

namespace janus::training {

void validateShape(const NetworkShape& s) {
  if (s.hidden < nnue::kMinHidden || s.hidden > nnue::kMaxHidden || s.hidden % 16 != 0)
    throw Error(fmt::format("hidden size {} is not a multiple of 16 in {}..{}", s.hidden, nnue::kMinHidden,
                            nnue::kMaxHidden));
  if (s.buckets < 1 || s.buckets > nnue::kMaxOutputBuckets)
    throw Error(fmt::format("output buckets {} not in 1..{}", s.buckets, nnue::kMaxOutputBuckets));
  if (s.activation != nnue::Activation::kSCReLU && s.activation != nnue::Activation::kCReLU)
    throw Error(fmt::format("unknown activation {}", int(s.activation)));
  if (!nnue::validKingBuckets(s.kingBuckets))
    throw Error(fmt::format("king buckets {} not 1, 2, 4, 8 or 16", s.kingBuckets));
  if (s.factoriser && s.kingBuckets == 1)
    throw Error("the factoriser needs king buckets (K > 1): with K = 1 its rows would repeat the inputs' own");
}

const char* activationName(nnue::Activation a) {
  return a == nnue::Activation::kSCReLU ? "SCReLU" : a == nnue::Activation::kCReLU ? "CReLU" : "?";
}

nnue::Activation parseActivation(const std::string& name) {
  std::string lower = name;
  for (char& c : lower) c = char(std::tolower(static_cast<unsigned char>(c)));
  if (lower == "screlu") return nnue::Activation::kSCReLU;
  if (lower == "crelu") return nnue::Activation::kCReLU;
  throw Error(fmt::format("unknown activation '{}' (screlu or crelu)", name));
}

std::string describeShape(const NetworkShape& s) {
  return fmt::format("{}768x2->{}->{} {}",
                     s.kingBuckets > 1 ? fmt::format("{}kb{} x ", s.kingBuckets, s.factoriser ? "+f" : "") : "",
                     s.hidden, s.buckets, activationName(s.activation));
}

FloatNetwork::FloatNetwork(const NetworkShape& s) : shape(s) {
  validateShape(s);
  params.assign(s.paramCount(), 0.0f);
}

namespace {

/// Uniform float in [-bound, bound] from 24 random bits (same numbers on every platform).
float uniform(std::mt19937_64& rng, double bound) {
  const double u = double(rng() >> 40) * 0x1p-24;  // [0, 1)
  return float((2.0 * u - 1.0) * bound);
}

template <typename T>
T activate(T x, nnue::Activation a) {
  const T c = std::clamp(x, T(0), T(1));
  return a == nnue::Activation::kSCReLU ? c * c : c;
}

template <typename T>
T forward(const FloatNetwork& net, std::span<const PieceSquare> pieces, int stm) {
  const int n = net.shape.hidden, kb = net.shape.kingBuckets;
  const int kings[2] = {kingSquareOf(pieces, stm), kingSquareOf(pieces, stm ^ 1)};
  std::vector<T> acc[2] = {std::vector<T>(net.ftBias(), net.ftBias() + n), std::vector<T>(net.ftBias(), net.ftBias() + n)};
  for (const PieceSquare& p : pieces)
    for (int side = 0; side < 2; ++side) {
      const int perspective = side == 0 ? stm : stm ^ 1;
      const int f = nnue::featureIndex(perspective, p.color, p.type, p.square, kings[side], kb);
      const float* row = net.ftRow(f);
      for (int i = 0; i < n; ++i) acc[side][i] += T(row[i]);
      if (net.shape.factoriser) {
        const float* shared = net.ftRow(nnue::kInputs * kb + f % nnue::kInputs);
        for (int i = 0; i < n; ++i) acc[side][i] += T(shared[i]);
      }
    }
  const int bucket = nnue::outputBucket(int(pieces.size()), net.shape.buckets);
  const float* w = net.outWeights(bucket);
  T out = T(net.outBias()[bucket]);
  for (int side = 0; side < 2; ++side)
    for (int i = 0; i < n; ++i) out += activate(acc[side][i], net.shape.activation) * T(w[side * n + i]);
  return out;
}

}  // namespace

FloatNetwork randomNetwork(const NetworkShape& shape, u64 seed) {
  FloatNetwork net(shape);
  std::mt19937_64 rng(seed ^ 0x4e4e55455f696e69ULL);
  const double ftBound = 1.0 / std::sqrt(double(nnue::kInputs));
  const double outBound = 1.0 / std::sqrt(2.0 * shape.hidden);
  const std::size_t bucketRows = std::size_t(nnue::kInputs) * shape.kingBuckets * shape.hidden;
  for (std::size_t i = 0; i < bucketRows; ++i) net.params[i] = uniform(rng, ftBound);  // factoriser rows stay 0
  for (std::size_t i = shape.outWeightsOffset(); i < shape.outBiasOffset(); ++i) net.params[i] = uniform(rng, outBound);
  return net;
}

int activeInputs(const NetworkShape& shape, const Sample& s, int perspective, u16 out[kMaxActiveInputs]) {
  const int n = sampleFeatures(s, perspective, shape.kingBuckets, out);
  if (!shape.factoriser) return n;
  const int shared = nnue::kInputs * shape.kingBuckets;
  for (int j = 0; j < n; ++j) out[n + j] = u16(shared + out[j] % nnue::kInputs);
  return 2 * n;
}

namespace {
// Copies the blocks after the feature-transformer rows (ftBias, outWeights, outBias) of `from`
// into `to`, whose shape differs only in its rows (K or the factoriser).
void copyTail(const FloatNetwork& from, FloatNetwork& to) {
  std::copy(from.params.begin() + std::ptrdiff_t(from.shape.ftBiasOffset()), from.params.end(),
            to.params.begin() + std::ptrdiff_t(to.shape.ftBiasOffset()));
}
}  // namespace

FloatNetwork withFactoriser(const FloatNetwork& net, bool factoriser) {
  if (net.shape.factoriser == factoriser) return net;
  NetworkShape shape = net.shape;
  shape.factoriser = factoriser;
  FloatNetwork out(shape);  // validates: the factoriser needs K > 1
  const std::size_t n = std::size_t(shape.hidden), kb = std::size_t(shape.kingBuckets);
  const std::size_t inputs = nnue::kInputs;
  // The bucket rows, then the tail at its new offset.
  std::copy_n(net.params.data(), inputs * kb * n, out.params.data());
  copyTail(net, out);
  if (!factoriser) {
    const float* shared = net.params.data() + inputs * kb * n;
    for (std::size_t b = 0; b < kb; ++b)
      for (std::size_t i = 0; i < inputs * n; ++i) out.params[b * inputs * n + i] += shared[i];
  }
  return out;
}

FloatNetwork withKingBuckets(const FloatNetwork& net, int kingBuckets, bool factoriser) {
  if (net.shape.kingBuckets != 1 || net.shape.factoriser)
    throw Error(fmt::format("net expansion: the network is {}, not one without king buckets", describeShape(net.shape)));
  NetworkShape shape = net.shape;
  shape.kingBuckets = kingBuckets;
  FloatNetwork out(shape);  // validates K
  const std::size_t rows = std::size_t(nnue::kInputs) * std::size_t(shape.hidden);
  for (int b = 0; b < kingBuckets; ++b)
    std::copy_n(net.params.data(), rows, out.params.data() + std::size_t(b) * rows);
  copyTail(net, out);
  return withFactoriser(out, factoriser);
}

FloatNetwork withHidden(const FloatNetwork& net, int hidden, u64 seed) {
  if (hidden <= net.shape.hidden)
    throw Error(fmt::format("widening: --hidden {} is not wider than the network's {} ({})", hidden, net.shape.hidden,
                            describeShape(net.shape)));
  NetworkShape shape = net.shape;
  shape.hidden = hidden;
  FloatNetwork out(shape);  // validates the hidden size
  const std::size_t n = std::size_t(net.shape.hidden), m = std::size_t(hidden);
  std::mt19937_64 rng(seed ^ 0x776964656e696e67ULL);
  const double ftBound = 1.0 / std::sqrt(double(nnue::kInputs));
  const int bucketRows = nnue::kInputs * shape.kingBuckets;
  for (int f = 0; f < shape.inputs(); ++f) {
    std::copy_n(net.ftRow(f), n, out.ftRow(f));
    if (f < bucketRows)  // factoriser rows of the new neurons stay 0, as in randomNetwork
      for (std::size_t j = n; j < m; ++j) out.ftRow(f)[j] = uniform(rng, ftBound);
  }
  std::copy_n(net.ftBias(), n, out.ftBias());
  for (int b = 0; b < shape.buckets; ++b) {
    std::copy_n(net.outWeights(b), n, out.outWeights(b));          // the side to move's half
    std::copy_n(net.outWeights(b) + n, n, out.outWeights(b) + m);  // the other side's half
  }
  std::copy_n(net.outBias(), shape.buckets, out.outBias());
  return out;
}

float networkOutput(const FloatNetwork& net, std::span<const PieceSquare> pieces, int stm) {
  return forward<float>(net, pieces, stm);
}

float networkOutput(const FloatNetwork& net, const Sample& s) {
  PieceSquare pieces[32];
  const int n = samplePieces(s, pieces);
  return networkOutput(net, std::span(pieces, size_t(n)), s.stm);
}

float evaluateFloat(const FloatNetwork& net, std::span<const PieceSquare> pieces, int stm) {
  return networkOutput(net, pieces, stm) * float(nnue::kEvalScale);
}

float evaluateFloat(const FloatNetwork& net, const Sample& s) { return networkOutput(net, s) * float(nnue::kEvalScale); }

double networkOutputDouble(const FloatNetwork& net, const Sample& s) {
  PieceSquare pieces[32];
  const int n = samplePieces(s, pieces);
  return forward<double>(net, std::span(pieces, size_t(n)), s.stm);
}

double sampleTarget(const Sample& s, const LossConfig& loss) {
  return loss.lambda * 0.5 * s.wdl + (1.0 - loss.lambda) * sigmoid(double(s.score) / loss.sigmoidScale);
}

double referenceLoss(const FloatNetwork& net, std::span<const Sample> samples, const LossConfig& loss) {
  double sum = 0;
  for (const Sample& s : samples) {
    const double p = sigmoid(networkOutputDouble(net, s) * nnue::kEvalScale / loss.sigmoidScale);
    const double d = p - sampleTarget(s, loss);
    sum += d * d;
  }
  return samples.empty() ? 0.0 : sum / double(samples.size());
}

}  // namespace janus::training
