// The sparse CPU backend, AdamW and the superbatch loop (nnue_trainer.h).

#include "training/nnue_trainer.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string_view>
#include <limits>
#include <numbers>
#include <random>

#include <fmt/format.h>

#include "training/nnue_export.h"
#include "util/error.h"
#include "util/hash.h"

namespace janus::training {

// ---- Sparse backend ---------------------------------------------------------------------------------

struct SparseBackend::ThreadState {
  FloatVector grad;          ///< paramCount: this thread's share of the batch gradient
  std::vector<u8> touched;   ///< shape.inputs() flags: feature-transformer rows with a non-zero gradient
  FloatVector scratch;       ///< 4N: the two accumulators, then their gradients
  double loss = 0;
};

namespace {

using nnue::Activation;

template <Activation A>
inline float activate(float x) {
  const float c = std::min(std::max(x, 0.0f), 1.0f);
  return A == Activation::kSCReLU ? c * c : c;
}

/// d activate / dx (0 outside (0, 1)).
template <Activation A>
inline float activateDerivative(float x) {
  const bool inside = x > 0.0f && x < 1.0f;
  return inside ? (A == Activation::kSCReLU ? 2.0f * x : 1.0f) : 0.0f;
}

/// Forward pass of one sample (and, if kGrad, its backward pass into ts.grad with weight
/// invBatch). Returns the squared error of the sample.
template <Activation A, bool kGrad>
double processSample(const FloatNetwork& net, const Sample& s, const LossConfig& lc, float invBatch,
                     std::vector<u8>& touched, float* __restrict grad, float* __restrict scratch) {
  const NetworkShape& shape = net.shape;
  const int n = shape.hidden;
  u16 featStm[kMaxActiveInputs], featOther[kMaxActiveInputs];
  const int count = activeInputs(shape, s, s.stm, featStm);
  activeInputs(shape, s, s.stm ^ 1, featOther);

  // Accumulators: bias + the rows of the active inputs, both perspectives in one pass.
  float* __restrict accStm = scratch;
  float* __restrict accOther = scratch + n;
  const float* __restrict bias = net.ftBias();
  for (int i = 0; i < n; ++i) accStm[i] = accOther[i] = bias[i];
  for (int j = 0; j < count; ++j) {
    const float* __restrict rowStm = net.ftRow(featStm[j]);
    const float* __restrict rowOther = net.ftRow(featOther[j]);
    for (int i = 0; i < n; ++i) {
      accStm[i] += rowStm[i];
      accOther[i] += rowOther[i];
    }
  }

  // Output: 16 partial sums so the loop vectorises without reassociating a single sum.
  const int bucket = nnue::outputBucket(s.pieceCount, shape.buckets);
  const float* __restrict w = net.outWeights(bucket);
  float lanes[16] = {};
  for (int i = 0; i < n; i += 16)
    for (int j = 0; j < 16; ++j)
      lanes[j] += activate<A>(accStm[i + j]) * w[i + j] + activate<A>(accOther[i + j]) * w[n + i + j];
  float out = net.outBias()[bucket];
  for (float l : lanes) out += l;

  const double scale = double(nnue::kEvalScale) / lc.sigmoidScale;
  const double p = sigmoid(double(out) * scale);
  const double diff = p - sampleTarget(s, lc);
  if constexpr (!kGrad) {
    return diff * diff;
  } else {
    // dL/do for this sample's share of the mean loss.
    const float g = float(2.0 * diff * p * (1.0 - p) * scale) * invBatch;
    grad[shape.outBiasOffset() + bucket] += g;
    float* __restrict gw = grad + shape.outWeightsOffset() + std::size_t(bucket) * 2 * n;
    float* __restrict gb = grad + shape.ftBiasOffset();
    float* __restrict dStm = scratch + 2 * n;
    float* __restrict dOther = scratch + 3 * n;
    for (int i = 0; i < n; ++i) {
      const float xs = accStm[i], xo = accOther[i];
      gw[i] += g * activate<A>(xs);
      gw[n + i] += g * activate<A>(xo);
      const float ds = g * w[i] * activateDerivative<A>(xs);
      const float dOth = g * w[n + i] * activateDerivative<A>(xo);
      dStm[i] = ds;
      dOther[i] = dOth;
      gb[i] += ds + dOth;
    }
    // The same input can be active in both perspectives (a mirrored pawn, say), so the two
    // row updates are separate loops.
    for (int j = 0; j < count; ++j) {
      float* __restrict row = grad + std::size_t(featStm[j]) * n;
      for (int i = 0; i < n; ++i) row[i] += dStm[i];
      touched[featStm[j]] = 1;
    }
    for (int j = 0; j < count; ++j) {
      float* __restrict row = grad + std::size_t(featOther[j]) * n;
      for (int i = 0; i < n; ++i) row[i] += dOther[i];
      touched[featOther[j]] = 1;
    }
    return diff * diff;
  }
}

template <bool kGrad>
double processRange(const FloatNetwork& net, std::span<const Sample> samples, const LossConfig& lc, float invBatch,
                    std::vector<u8>& touched, float* grad, float* scratch) {
  double sum = 0;
  if (net.shape.activation == Activation::kSCReLU) {
    for (const Sample& s : samples)
      sum += processSample<Activation::kSCReLU, kGrad>(net, s, lc, invBatch, touched, grad, scratch);
  } else {
    for (const Sample& s : samples)
      sum += processSample<Activation::kCReLU, kGrad>(net, s, lc, invBatch, touched, grad, scratch);
  }
  return sum;
}

}  // namespace

SparseBackend::SparseBackend(const NetworkShape& shape, WorkerPool& pool) : m_shape(shape), m_pool(pool) {
  validateShape(shape);
  for (int t = 0; t < pool.size(); ++t) {
    auto ts = std::make_unique<ThreadState>();
    ts->grad.assign(shape.paramCount(), 0.0f);
    ts->touched.assign(std::size_t(shape.inputs()), 0);
    ts->scratch.assign(std::size_t(4) * shape.hidden, 0.0f);
    m_threads.push_back(std::move(ts));
  }
}

SparseBackend::~SparseBackend() = default;

double SparseBackend::gradient(const FloatNetwork& net, std::span<const Sample> batch, const LossConfig& lc,
                               std::span<float> grad) {
  if (net.shape != m_shape) throw Error("sparse backend: the network's shape differs from the backend's");
  if (grad.size() != m_shape.paramCount()) throw Error("sparse backend: gradient buffer of the wrong size");
  if (batch.empty()) {
    std::fill(grad.begin(), grad.end(), 0.0f);
    return 0.0;
  }
  const int threads = m_pool.size();
  const float invBatch = 1.0f / float(batch.size());
  m_pool.run([&](int t) {
    ThreadState& ts = *m_threads[t];
    std::size_t begin, end;
    WorkerPool::split(batch.size(), threads, t, begin, end);
    ts.loss = processRange<true>(net, batch.subspan(begin, end - begin), lc, invBatch, ts.touched, ts.grad.data(),
                                 ts.scratch.data());
  });
  // Reduction: rows of the feature transformer (only the threads that touched a row), then the
  // small dense tail (ftBias, outWeights, outBias). Each thread buffer is left zeroed.
  const int n = m_shape.hidden;
  const std::size_t tail = m_shape.ftBiasOffset(), total = m_shape.paramCount();
  m_pool.run([&](int t) {
    std::size_t rowBegin, rowEnd;
    WorkerPool::split(std::size_t(m_shape.inputs()), threads, t, rowBegin, rowEnd);
    for (std::size_t r = rowBegin; r < rowEnd; ++r) {
      float* __restrict out = grad.data() + r * n;
      bool any = false;
      for (auto& ts : m_threads) {
        if (!ts->touched[r]) continue;
        float* __restrict src = ts->grad.data() + r * n;
        if (any) {
          for (int i = 0; i < n; ++i) out[i] += src[i];
        } else {
          for (int i = 0; i < n; ++i) out[i] = src[i];
        }
        std::fill(src, src + n, 0.0f);
        ts->touched[r] = 0;
        any = true;
      }
      if (!any) std::fill(out, out + n, 0.0f);
    }
    std::size_t begin, end;
    WorkerPool::split(total - tail, threads, t, begin, end, 16);
    for (std::size_t i = tail + begin; i < tail + end; ++i) {
      float sum = 0;
      for (auto& ts : m_threads) {
        sum += ts->grad[i];
        ts->grad[i] = 0.0f;
      }
      grad[i] = sum;
    }
  });
  double loss = 0;
  for (auto& ts : m_threads) loss += ts->loss;
  return loss / double(batch.size());
}

double SparseBackend::loss(const FloatNetwork& net, std::span<const Sample> samples, const LossConfig& lc) {
  if (net.shape != m_shape) throw Error("sparse backend: the network's shape differs from the backend's");
  if (samples.empty()) return std::numeric_limits<double>::quiet_NaN();
  const int threads = m_pool.size();
  m_pool.run([&](int t) {
    ThreadState& ts = *m_threads[t];
    std::size_t begin, end;
    WorkerPool::split(samples.size(), threads, t, begin, end);
    ts.loss = processRange<false>(net, samples.subspan(begin, end - begin), lc, 0.0f, ts.touched, nullptr,
                                  ts.scratch.data());
  });
  double loss = 0;
  for (auto& ts : m_threads) loss += ts->loss;
  return loss / double(samples.size());
}

// ---- Backend registry -------------------------------------------------------------------------------

namespace {

std::map<std::string, BackendFactory>& registry() {
  static std::map<std::string, BackendFactory> r = {
      {"sparse", [](const GradientBackendOptions& o, WorkerPool& pool) -> std::unique_ptr<GradientBackend> {
         return std::make_unique<SparseBackend>(o.shape, pool);
       }}};
  return r;
}

}  // namespace

void registerBackend(const std::string& name, BackendFactory factory) { registry()[name] = std::move(factory); }

bool backendAvailable(const std::string& name) { return registry().contains(name); }

std::unique_ptr<GradientBackend> makeBackend(const std::string& name, const GradientBackendOptions& options,
                                             WorkerPool& pool) {
  auto it = registry().find(name);
  if (it == registry().end()) {
    std::string names;
    for (const auto& [n, f] : registry()) names += (names.empty() ? "" : ", ") + n;
    throw Error(fmt::format("train-nnue: backend '{}' is not available in this executable (available: {}){}", name,
                            names, name == "torch" ? "; the libtorch backend is the janus-train-torch executable, "
                                                     "built when CMake finds libtorch"
                                                   : ""));
  }
  return it->second(options, pool);
}

// ---- AdamW ------------------------------------------------------------------------------------------

void adamwStep(TrainState& state, std::span<const float> grad, double lr, WorkerPool& pool) {
  const TrainConfig& c = state.config;
  const std::size_t total = state.net.params.size();
  if (grad.size() != total || state.adamM.size() != total || state.adamV.size() != total)
    throw Error("adamw: parameter, gradient and moment arrays differ in size");
  ++state.adamStep;
  const double t = double(state.adamStep);
  const float stepSize = float(lr / (1.0 - std::pow(c.beta1, t)));
  const float sqrtBc2 = float(std::sqrt(1.0 - std::pow(c.beta2, t)));
  const float decay = float(1.0 - lr * c.wd);
  const float b1 = float(c.beta1), b2 = float(c.beta2), eps = float(c.eps), clip = nnue::kWeightClip;
  float* __restrict p = state.net.params.data();
  float* __restrict m = state.adamM.data();
  float* __restrict v = state.adamV.data();
  const float* __restrict g = grad.data();
  pool.run([&](int thread) {
    std::size_t begin, end;
    WorkerPool::split(total, pool.size(), thread, begin, end, 16);
    for (std::size_t i = begin; i < end; ++i) {
      const float gi = g[i];
      const float mi = b1 * m[i] + (1.0f - b1) * gi;
      const float vi = b2 * v[i] + (1.0f - b2) * gi * gi;
      m[i] = mi;
      v[i] = vi;
      const float pi = p[i] * decay - stepSize * mi / (std::sqrt(vi) / sqrtBc2 + eps);
      p[i] = std::min(std::max(pi, -clip), clip);
    }
  });
}

// ---- Trainer ----------------------------------------------------------------------------------------

Trainer::Trainer(TrainState& state, std::span<const Sample> train, std::span<const Sample> validation,
                 GradientBackend& backend, WorkerPool& pool)
    : m_state(state), m_train(train), m_validation(validation), m_backend(backend), m_pool(pool) {
  if (train.empty()) throw Error("train-nnue: no training positions");
  if (train.size() > std::numeric_limits<u32>::max()) throw Error("train-nnue: more than 2^32 training positions");
  const TrainConfig& c = state.config;
  m_batch = int(std::min<u64>(u64(c.batch), train.size()));
  const u64 perSuperbatch = c.superbatchSize == 0 ? train.size() : std::min<u64>(c.superbatchSize, train.size());
  m_batchesPerSuperbatch = int((perSuperbatch + u64(m_batch) - 1) / u64(m_batch));
  m_batchSamples.resize(std::size_t(m_batch));
  m_grad.assign(state.net.params.size(), 0.0f);
}

double Trainer::learningRate(u64 b) const {
  const TrainConfig& c = m_state.config;
  const u64 perSuperbatch = u64(m_batchesPerSuperbatch);
  const u64 superbatch = b / perSuperbatch;
  double base = c.lr;
  if (c.lrDropEvery > 0) base *= std::pow(c.lrGamma, double(superbatch / u64(c.lrDropEvery)));
  if (c.lrSchedule != "cosine") return base;
  const u64 total = u64(c.superbatches) * perSuperbatch;
  const double progress = total > 1 ? std::min(1.0, double(b) / double(total - 1)) : 0.0;
  return c.lrFinal + (base - c.lrFinal) * 0.5 * (1.0 + std::cos(std::numbers::pi * progress));
}

const std::vector<u32>& Trainer::permutation(u64 epoch) {
  if (epoch == m_permEpoch) return m_perm;
  const std::size_t n = m_train.size();
  m_perm.resize(n);
  for (std::size_t i = 0; i < n; ++i) m_perm[i] = u32(i);
  std::mt19937_64 rng(splitmix64(m_state.config.seed ^ 0x73687566666c65ULL) ^ splitmix64(epoch));
  for (std::size_t i = n - 1; i > 0; --i) std::swap(m_perm[i], m_perm[std::size_t(rng() % (i + 1))]);
  m_permEpoch = epoch;
  return m_perm;
}

void Trainer::fillBatch(std::vector<Sample>& out) {
  const u64 n = m_train.size();
  for (std::size_t k = 0; k < out.size(); ++k) {
    const u64 c = m_state.streamPos + k;
    out[k] = m_train[permutation(c / n)[std::size_t(c % n)]];
  }
  m_state.streamPos += out.size();
}

MetricsRow Trainer::runSuperbatch(const std::function<void(const BatchProgress&)>& onBatch) {
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  MetricsRow row;
  row.superbatch = m_state.superbatch + 1;
  double lossSum = 0;
  for (int b = 0; b < m_batchesPerSuperbatch; ++b) {
    const u64 global = u64(m_state.superbatch) * u64(m_batchesPerSuperbatch) + u64(b);
    const double lr = learningRate(global);
    if (b == 0) row.lr = lr;
    fillBatch(m_batchSamples);
    lossSum += m_backend.gradient(forwardNetwork(), m_batchSamples, m_state.config.loss, m_grad);
    adamwStep(m_state, m_grad, lr, m_pool);
    if (onBatch) {
      const double s = std::chrono::duration<double>(Clock::now() - t0).count();
      onBatch({b + 1, m_batchesPerSuperbatch, lossSum / (b + 1), s > 0 ? double(b + 1) * m_batch / s : 0.0});
    }
  }
  const double trainSeconds = std::chrono::duration<double>(Clock::now() - t0).count();
  m_lastTrainSeconds = trainSeconds;
  m_lastSpeed = trainSeconds > 0 ? double(m_batchesPerSuperbatch) * m_batch / trainSeconds : 0.0;
  ++m_state.superbatch;
  row.trainLoss = lossSum / m_batchesPerSuperbatch;
  row.valLoss = validationLoss();
  m_state.seconds += std::chrono::duration<double>(Clock::now() - t0).count();
  row.positions = m_state.streamPos;
  row.seconds = m_state.seconds;
  m_state.metrics.push_back(row);
  return row;
}

const FloatNetwork& Trainer::forwardNetwork() {
  if (!m_state.config.qat) return m_state.net;
  // With the factoriser the rounded net keeps the layout (zero shared rows, the rounded sums in
  // the bucket rows), so the straight-through gradient reaches the shared rows too.
  m_rounded = withFactoriser(dequantise(quantise(m_state.net, "")), m_state.net.shape.factoriser);
  return m_rounded;
}

double meanLoss(GradientBackend& backend, const FloatNetwork& net, std::span<const Sample> samples,
                const LossConfig& loss, std::size_t part) {
  if (samples.empty()) return std::numeric_limits<double>::quiet_NaN();
  double sum = 0;
  for (std::size_t begin = 0; begin < samples.size(); begin += part) {
    const auto slice = samples.subspan(begin, std::min(part, samples.size() - begin));
    sum += backend.loss(net, slice, loss) * double(slice.size());
  }
  return sum / double(samples.size());
}

double Trainer::validationLoss() {
  if (m_validation.empty()) return std::numeric_limits<double>::quiet_NaN();
  return meanLoss(m_backend, forwardNetwork(), m_validation, m_state.config.loss,
                  std::max<std::size_t>(std::size_t(m_batch), 16384));
}

}  // namespace janus::training
