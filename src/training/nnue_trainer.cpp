// The sparse CPU backend, AdamW, the configuration and the superbatch loop (nnue_trainer.h).

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

#include "training/checkpoint.h"
#include "training/nnue_export.h"
#include "util/error.h"

namespace janus::training {

// ---- Sparse backend ---------------------------------------------------------------------------------

struct SparseBackend::ThreadState {
  FloatVector grad;          ///< paramCount: this thread's share of the batch gradient
  std::vector<u8> touched;   ///< 768 K flags: feature-transformer rows with a non-zero gradient
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
  u16 featStm[32], featOther[32];
  const int count = sampleFeatures(s, s.stm, shape.kingBuckets, featStm);
  sampleFeatures(s, s.stm ^ 1, shape.kingBuckets, featOther);

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
  const int bucket = nnue::outputBucket(count, shape.buckets);
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
      {"sparse", [](const BackendOptions& o, WorkerPool& pool) -> std::unique_ptr<GradientBackend> {
         return std::make_unique<SparseBackend>(o.shape, pool);
       }}};
  return r;
}

}  // namespace

void registerBackend(const std::string& name, BackendFactory factory) { registry()[name] = std::move(factory); }

bool backendAvailable(const std::string& name) { return registry().contains(name); }

std::unique_ptr<GradientBackend> makeBackend(const std::string& name, const BackendOptions& options, WorkerPool& pool) {
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

// ---- Configuration ----------------------------------------------------------------------------------

void validateConfig(const TrainConfig& c) {
  auto bad = [](const std::string& what) { return Error("train-nnue: " + what); };
  try {
    validateShape(c.shape);
  } catch (const Error& e) {
    throw bad(fmt::format("--hidden/--buckets/--king-buckets: {}", e.what()));
  }
  if (c.data.empty()) throw bad("no training data (give --data)");
  if (c.mirror && c.shape.kingBuckets > 1)
    throw bad("--mirror with --king-buckets > 1: a king-bucket net already reads a position and its a<->h mirror "
              "image as the same inputs, so the mirror would only duplicate positions");
  if (!(c.loss.lambda >= 0 && c.loss.lambda <= 1)) throw bad(fmt::format("--lambda {} is not in [0, 1]", c.loss.lambda));
  if (!(c.loss.sigmoidScale > 0)) throw bad(fmt::format("--sigmoid-scale {} must be positive", c.loss.sigmoidScale));
  if (!(c.valFraction >= 0 && c.valFraction < 1)) throw bad(fmt::format("--val-fraction {} is not in [0, 1)", c.valFraction));
  if (c.maxScore < 1 || c.maxScore >= kMateScoreFloor)
    throw bad(fmt::format("--max-score {} is not in 1..{}", c.maxScore, kMateScoreFloor - 1));
  if (c.batch < 1) throw bad(fmt::format("--batch {} must be at least 1", c.batch));
  if (c.superbatches < 1) throw bad(fmt::format("--superbatches {} must be at least 1", c.superbatches));
  if (!(c.lr > 0)) throw bad(fmt::format("--lr {} must be positive", c.lr));
  if (!(c.lrFinal >= 0)) throw bad(fmt::format("--lr-final {} must not be negative", c.lrFinal));
  if (c.lrSchedule != "cosine" && c.lrSchedule != "constant")
    throw bad(fmt::format("--lr-schedule '{}' is not cosine or constant", c.lrSchedule));
  if (c.lrDropEvery < 0) throw bad(fmt::format("--lr-drop-every {} must not be negative", c.lrDropEvery));
  if (!(c.lrGamma > 0 && c.lrGamma <= 1)) throw bad(fmt::format("--lr-gamma {} is not in (0, 1]", c.lrGamma));
  if (!(c.wd >= 0 && c.wd * c.lr < 1)) throw bad(fmt::format("--wd {} must be in [0, 1/lr)", c.wd));
  if (!(c.beta1 >= 0 && c.beta1 < 1 && c.beta2 >= 0 && c.beta2 < 1 && c.eps > 0))
    throw bad("Adam betas must be in [0, 1) and eps positive");
  if (c.threads < 1) throw bad(fmt::format("--threads {} must be at least 1", c.threads));
  if (c.torchInput != "sparse" && c.torchInput != "dense")
    throw bad(fmt::format("--torch-input '{}' is not sparse or dense", c.torchInput));
}

namespace {

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ",") + x;
  return s;
}

std::vector<std::string> splitList(const std::string& s) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start < s.size()) {
    std::size_t comma = s.find(',', start);
    if (comma == std::string::npos) comma = s.size();
    if (comma > start) out.push_back(s.substr(start, comma - start));
    start = comma + 1;
  }
  return out;
}

}  // namespace

std::map<std::string, std::string> configToMap(const TrainConfig& c) {
  std::map<std::string, std::string> m;
  m["hidden"] = std::to_string(c.shape.hidden);
  m["buckets"] = std::to_string(c.shape.buckets);
  m["activation"] = c.shape.activation == nnue::Activation::kSCReLU ? "screlu" : "crelu";
  m["king-buckets"] = std::to_string(c.shape.kingBuckets);
  m["lambda"] = fmt::format("{}", c.loss.lambda);
  m["sigmoid-scale"] = fmt::format("{}", c.loss.sigmoidScale);
  m["data"] = join(c.data);
  m["validation"] = join(c.validation);
  m["val-fraction"] = fmt::format("{}", c.valFraction);
  m["max-score"] = std::to_string(c.maxScore);
  m["limit"] = std::to_string(c.limit);
  m["keep-noisy"] = c.keepNoisy ? "true" : "false";
  m["mirror"] = c.mirror ? "true" : "false";
  m["batch"] = std::to_string(c.batch);
  m["superbatch-size"] = std::to_string(c.superbatchSize);
  m["superbatches"] = std::to_string(c.superbatches);
  m["lr"] = fmt::format("{}", c.lr);
  m["lr-schedule"] = c.lrSchedule;
  m["lr-final"] = fmt::format("{}", c.lrFinal);
  m["lr-drop-every"] = std::to_string(c.lrDropEvery);
  m["lr-gamma"] = fmt::format("{}", c.lrGamma);
  m["wd"] = fmt::format("{}", c.wd);
  m["beta1"] = fmt::format("{}", c.beta1);
  m["beta2"] = fmt::format("{}", c.beta2);
  m["eps"] = fmt::format("{}", c.eps);
  m["seed"] = std::to_string(c.seed);
  m["init"] = c.init;
  m["threads"] = std::to_string(c.threads);
  m["backend"] = c.backend;
  m["torch-input"] = c.torchInput;
  m["qat"] = c.qat ? "true" : "false";
  return m;
}

TrainConfig configFromMap(const std::map<std::string, std::string>& m) {
  auto get = [&](const char* key) -> const std::string& {
    auto it = m.find(key);
    if (it == m.end()) throw Error(fmt::format("configuration: missing key '{}'", key));
    return it->second;
  };
  auto number = [&](const char* key) {
    const std::string& s = get(key);
    char* end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    if (s.empty() || *end != '\0') throw Error(fmt::format("configuration: '{}' = '{}' is not a number", key, s));
    return v;
  };
  auto integer = [&](const char* key) {
    const std::string& s = get(key);
    char* end = nullptr;
    const unsigned long long v = std::strtoull(s.c_str(), &end, 10);
    if (s.empty() || *end != '\0' || s[0] == '-')
      throw Error(fmt::format("configuration: '{}' = '{}' is not a non-negative integer", key, s));
    return u64(v);
  };
  auto smallInt = [&](const char* key) {
    const u64 v = integer(key);
    if (v > u64(std::numeric_limits<int>::max())) throw Error(fmt::format("configuration: '{}' = {} is too large", key, v));
    return int(v);
  };
  TrainConfig c;
  c.shape.hidden = smallInt("hidden");
  c.shape.buckets = smallInt("buckets");
  c.shape.activation = parseActivation(get("activation"));
  if (m.contains("king-buckets")) c.shape.kingBuckets = smallInt("king-buckets");  // absent before king buckets
  c.loss.lambda = number("lambda");
  c.loss.sigmoidScale = number("sigmoid-scale");
  c.data = splitList(get("data"));
  c.validation = splitList(get("validation"));
  c.valFraction = number("val-fraction");
  c.maxScore = smallInt("max-score");
  c.limit = integer("limit");
  {
    const std::string& v = get("keep-noisy");
    if (v != "true" && v != "false") throw Error(fmt::format("configuration: 'keep-noisy' = '{}' is not true or false", v));
    c.keepNoisy = v == "true";
  }
  if (auto it = m.find("mirror"); it != m.end()) {  // absent in checkpoints written before the option
    if (it->second != "true" && it->second != "false")
      throw Error(fmt::format("configuration: 'mirror' = '{}' is not true or false", it->second));
    c.mirror = it->second == "true";
  }
  c.batch = smallInt("batch");
  c.superbatchSize = integer("superbatch-size");
  c.superbatches = smallInt("superbatches");
  c.lr = number("lr");
  c.lrSchedule = get("lr-schedule");
  c.lrFinal = number("lr-final");
  c.lrDropEvery = smallInt("lr-drop-every");
  c.lrGamma = number("lr-gamma");
  c.wd = number("wd");
  c.beta1 = number("beta1");
  c.beta2 = number("beta2");
  c.eps = number("eps");
  c.seed = integer("seed");
  if (auto it = m.find("init"); it != m.end()) c.init = it->second;  // absent in checkpoints written before the option
  c.threads = smallInt("threads");
  c.backend = get("backend");
  c.torchInput = get("torch-input");
  if (auto it = m.find("qat"); it != m.end()) {  // absent in checkpoints written before the option
    if (it->second != "true" && it->second != "false")
      throw Error(fmt::format("configuration: 'qat' = '{}' is not true or false", it->second));
    c.qat = it->second == "true";
  }
  return c;
}

const std::set<std::string>& resumableKeys() {
  // Data paths may change (the data themselves are checked by hash); the thread count and the
  // backend change only the rounding; more superbatches extend the run; quantisation-aware
  // training is typically switched on for the last superbatches.
  static const std::set<std::string> keys = {"superbatches", "threads", "backend", "torch-input",
                                             "data",         "validation", "qat"};
  return keys;
}

FloatNetwork readInitNetwork(const std::string& path) {
  char magic[8] = {};
  {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error(fmt::format("train-nnue: --init '{}': cannot open: {}", path, std::strerror(errno)));
    in.read(magic, sizeof magic);
  }
  FloatNetwork net;
  if (std::string_view(magic, sizeof magic) == std::string_view("JANUSCKP", 8))
    net = readCheckpoint(path).net;
  else
    net = dequantise(readNetFile(path));
  return net;
}

FloatNetwork initialNetwork(const std::string& path, const NetworkShape& shape) {
  FloatNetwork net = readInitNetwork(path);
  if (!(net.shape == shape))
    throw Error(fmt::format("train-nnue: --init '{}' is a {} network, but this run trains {} (set --hidden, --buckets, "
                            "--activation and --king-buckets to the file's)",
                            path, describeShape(net.shape), describeShape(shape)));
  return net;
}

NetworkShape shapeFromInit(const NetworkShape& shape, const NetworkShape& file, const std::set<std::string>& given) {
  NetworkShape s = shape;
  if (!given.contains("hidden")) s.hidden = file.hidden;
  if (!given.contains("buckets")) s.buckets = file.buckets;
  if (!given.contains("activation")) s.activation = file.activation;
  if (!given.contains("king-buckets")) s.kingBuckets = file.kingBuckets;
  return s;
}

TrainState initialState(const TrainConfig& config, std::span<const Sample> train) {
  validateConfig(config);
  TrainState s;
  s.config = config;
  s.net = config.init.empty() ? randomNetwork(config.shape, config.seed) : initialNetwork(config.init, config.shape);
  s.adamM.assign(s.net.params.size(), 0.0f);
  s.adamV.assign(s.net.params.size(), 0.0f);
  s.dataHash = hashSamples(train);
  s.trainCount = train.size();
  return s;
}

// ---- Trainer ----------------------------------------------------------------------------------------

namespace {

u64 mix64(u64 x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

}  // namespace

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
  std::mt19937_64 rng(mix64(m_state.config.seed ^ 0x73687566666c65ULL) ^ mix64(epoch));
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
  m_rounded = dequantise(quantise(m_state.net, ""));
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
