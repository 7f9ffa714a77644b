#include "tune/tuner.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <limits>
#include <mutex>
#include <numbers>
#include <random>
#include <thread>

#include <fmt/format.h>

#include "datagen/pgn_source.h"
#include "eval/hce.h"
#include "records/janusdat.h"
#include "tune/qsearch.h"
#include "util/error.h"

namespace janus::tune {

namespace {

/// Runs f(thread, begin, end) on `threads` contiguous slices of [0, n) and waits. Exceptions of
/// the workers are rethrown (the first one).
template <typename F>
void parallelFor(int threads, size_t n, F&& f) {
  threads = int(std::clamp<size_t>(size_t(std::max(threads, 1)), 1, std::max<size_t>(n, 1)));
  if (threads == 1) {
    f(0, size_t(0), n);
    return;
  }
  std::vector<std::thread> pool;
  std::exception_ptr error;
  std::mutex mutex;
  for (int t = 0; t < threads; ++t) {
    size_t begin = n * size_t(t) / size_t(threads), end = n * size_t(t + 1) / size_t(threads);
    pool.emplace_back([&, t, begin, end] {
      try {
        f(t, begin, end);
      } catch (...) {
        std::lock_guard lock(mutex);
        if (!error) error = std::current_exception();
      }
    });
  }
  for (auto& th : pool) th.join();
  if (error) std::rethrow_exception(error);
}

double resultValue(records::Wdl w) { return w == records::kWhiteWin ? 1.0 : w == records::kDraw ? 0.5 : 0.0; }

}  // namespace

// ---- Loading ----------------------------------------------------------------------------------------

void traceRecords(const std::vector<records::PackedRecord>& records, size_t begin, size_t end,
                  const std::string& source, bool qsearch, const EvalWeights& weights, TraceSet& out,
                  u64& skippedNotQuiet) {
  HceEvaluator evaluator(weights);
  for (size_t i = begin; i < end; ++i) {
    // Static-evaluation tuning wants quiet positions: with qsearch the leaf resolves captures,
    // without it a position whose move played was a capture or promotion (JANUSDAT v2 flag) is skipped.
    if (!qsearch && records::recordNoisyMove(records[i])) {
      ++skippedNotQuiet;
      continue;
    }
    records::TrainingPosition t = records::decodeRecord(records[i], source, i);
    if (t.pos.inCheck()) {
      ++skippedNotQuiet;
      continue;
    }
    const double score = t.score == records::kNoScore ? std::numeric_limits<double>::quiet_NaN() : double(t.score);
    if (qsearch) out.add(evaluator.trace(quiescenceLeaf(t.pos, evaluator)), resultValue(t.result), score);
    else out.add(evaluator.trace(t.pos), resultValue(t.result), score);
  }
}

LoadedData loadTrainingData(const std::vector<std::string>& dataFiles, const std::vector<std::string>& pgnFiles,
                            const LoadOptions& options, const EvalWeights& weights) {
  if (options.validationFraction < 0 || options.validationFraction >= 1)
    throw Error("tune: the validation fraction must be in [0, 1)");
  LoadedData data;
  auto addSource = [&](const std::string& name, const std::vector<records::PackedRecord>& records) {
    const size_t n = records.size();
    const size_t split = n - size_t(std::llround(double(n) * options.validationFraction));
    for (const auto& r : records)
      if (r.wdl <= 2) ++data.results[r.wdl];
    // Trace in parallel: contiguous slices, appended in order (deterministic).
    struct Part {
      size_t begin, end;
      TraceSet* set;
    };
    for (const Part part : {Part{0, split, &data.train}, Part{split, n, &data.validation}}) {
      const size_t begin = part.begin, end = part.end;
      TraceSet* set = part.set;
      const int threads = std::max(1, options.threads);
      std::vector<TraceSet> parts(static_cast<size_t>(threads));
      std::vector<u64> skipped(static_cast<size_t>(threads), 0);
      parallelFor(threads, end - begin, [&](int t, size_t b, size_t e) {
        traceRecords(records, begin + b, begin + e, name, options.qsearch, weights, parts[size_t(t)], skipped[size_t(t)]);
      });
      for (int t = 0; t < threads; ++t) {
        set->append(parts[size_t(t)]);
        data.skippedNotQuiet += skipped[size_t(t)];
      }
    }
    data.notes.push_back(fmt::format("{}: {} positions ({} train, {} validation)", name, n, split, n - split));
  };
  for (const auto& path : dataFiles) addSource(path, records::readRecords(path, options.limit));
  for (const auto& path : pgnFiles) {
    std::vector<records::PackedRecord> records;
    datagen::PgnExtractStats s = datagen::extractPgnPositions(path, {}, [&](const records::PackedRecord& r) {
      if (options.limit == 0 || records.size() < options.limit) records.push_back(r);
    });
    data.notes.push_back(fmt::format("{}: {} finished games, {} unfinished and {} malformed games skipped", path,
                                     s.games, s.unfinished, s.malformed));
    for (size_t i = 0; i < s.errors.size() && i < 5; ++i) data.notes.push_back("  " + s.errors[i]);
    addSource(path, records);
  }
  return data;
}

// ---- Optimisation -----------------------------------------------------------------------------------

Tuner::Tuner(const TraceSet& train, const TraceSet& validation, int threads)
    : m_train(train), m_validation(validation), m_threads(std::max(1, threads)) {}

double Tuner::loss(const TraceSet& set, const Params& p, double k) const {
  if (set.size() == 0) return std::numeric_limits<double>::quiet_NaN();
  std::vector<double> sums(size_t(m_threads), 0.0);
  parallelFor(m_threads, set.size(), [&](int t, size_t b, size_t e) {
    double s = 0;
    for (size_t i = b; i < e; ++i) {
      const double d = set.target(i) - sigmoid(set.evaluate(i, p).eval, k);
      s += d * d;
    }
    sums[size_t(t)] = s;
  });
  double total = 0;
  for (double s : sums) total += s;
  return total / double(set.size());
}

double Tuner::exactLoss(const TraceSet& set, const EvalWeights& w, double k) const {
  if (set.size() == 0) return std::numeric_limits<double>::quiet_NaN();
  std::vector<double> sums(size_t(m_threads), 0.0);
  parallelFor(m_threads, set.size(), [&](int t, size_t b, size_t e) {
    double s = 0;
    for (size_t i = b; i < e; ++i) {
      const double d = set.target(i) - sigmoid(set.evaluateExact(i, w), k);
      s += d * d;
    }
    sums[size_t(t)] = s;
  });
  double total = 0;
  for (double s : sums) total += s;
  return total / double(set.size());
}

double Tuner::fitK(const Params& p) const {
  if (m_train.size() == 0) throw Error("tune: no training positions to fit K on");
  // The evaluations do not depend on K: compute them once.
  std::vector<double> evals(m_train.size());
  parallelFor(m_threads, m_train.size(), [&](int, size_t b, size_t e) {
    for (size_t i = b; i < e; ++i) evals[i] = m_train.evaluate(i, p).eval;
  });
  auto lossAt = [&](double k) {
    std::vector<double> sums(size_t(m_threads), 0.0);
    parallelFor(m_threads, evals.size(), [&](int t, size_t b, size_t e) {
      double s = 0;
      for (size_t i = b; i < e; ++i) {
        const double d = m_train.target(i) - sigmoid(evals[i], k);
        s += d * d;
      }
      sums[size_t(t)] = s;
    });
    double total = 0;
    for (double s : sums) total += s;
    return total;
  };
  // Golden-section search (the loss is unimodal in K for any sensible data).
  const double phi = (std::sqrt(5.0) - 1) / 2;
  double a = 0.05, b = 10.0;
  double c = b - phi * (b - a), d = a + phi * (b - a);
  double fc = lossAt(c), fd = lossAt(d);
  while (b - a > 1e-6) {
    if (fc < fd) {
      b = d, d = c, fd = fc;
      c = b - phi * (b - a);
      fc = lossAt(c);
    } else {
      a = c, c = d, fc = fd;
      d = a + phi * (b - a);
      fd = lossAt(d);
    }
  }
  return (a + b) / 2;
}

double Tuner::gradient(const Params& p, double k, const std::vector<u32>& order, size_t begin, size_t end,
                       std::vector<double>& grad) const {
  const size_t n = end - begin;
  grad.assign(kParamCount, 0.0);
  if (n == 0) return 0;
  std::vector<std::vector<double>> partial(size_t(m_threads), std::vector<double>(kParamCount, 0.0));
  std::vector<double> losses(size_t(m_threads), 0.0);
  const double dSigma = k * std::numbers::ln10 / 400.0;  // d sigmoid(kE)/dE = dSigma * s * (1 - s)
  parallelFor(m_threads, n, [&](int t, size_t b, size_t e) {
    std::vector<double>& g = partial[size_t(t)];
    double l = 0;
    for (size_t j = begin + b; j < begin + e; ++j) {
      const size_t i = order[j];
      const EvalParts parts = m_train.evaluate(i, p);
      const double s = sigmoid(parts.eval, k);
      const double diff = m_train.target(i) - s;
      l += diff * diff;
      // d/dE (target - s)^2 = -2 (target - s) ds/dE
      m_train.addGradient(i, parts, -2.0 * diff * dSigma * s * (1 - s), g);
    }
    losses[size_t(t)] = l;
  });
  double l = 0;
  for (int t = 0; t < m_threads; ++t) {
    l += losses[size_t(t)];
    for (int i = 0; i < kParamCount; ++i) grad[size_t(i)] += partial[size_t(t)][size_t(i)];
  }
  for (double& g : grad) g /= double(n);
  return l / double(n);
}

Params Tuner::run(const Params& initial, double k, const TuneConfig& config,
                  const std::function<void(const EpochReport&, const Params&)>& onEpoch) const {
  if (m_train.size() == 0) throw Error("tune: no training positions");
  if (!config.frozen.empty() && config.frozen.size() != size_t(kParamCount))
    throw Error("tune: the frozen mask has the wrong size");
  Params p = initial;
  std::vector<double> m(kParamCount, 0.0), v(kParamCount, 0.0), grad;
  std::vector<u32> order(m_train.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = u32(i);
  std::mt19937_64 rng(config.seed);
  const size_t batch = config.batch == 0 ? order.size() : std::min(config.batch, order.size());
  const auto t0 = std::chrono::steady_clock::now();
  double lr = config.lr;
  u64 step = 0;
  for (int epoch = 1; epoch <= config.epochs; ++epoch) {
    if (batch < order.size()) std::shuffle(order.begin(), order.end(), rng);
    for (size_t begin = 0; begin < order.size(); begin += batch) {
      const size_t end = std::min(order.size(), begin + batch);
      (void)gradient(p, k, order, begin, end, grad);
      ++step;
      const double c1 = 1 - std::pow(config.beta1, double(step)), c2 = 1 - std::pow(config.beta2, double(step));
      for (int i = 0; i < kParamCount; ++i) {
        if (!config.frozen.empty() && config.frozen[size_t(i)]) continue;
        const double g = grad[size_t(i)];
        m[size_t(i)] = config.beta1 * m[size_t(i)] + (1 - config.beta1) * g;
        v[size_t(i)] = config.beta2 * v[size_t(i)] + (1 - config.beta2) * g * g;
        p[size_t(i)] -= lr * (m[size_t(i)] / c1) / (std::sqrt(v[size_t(i)] / c2) + config.epsilon);
      }
    }
    EpochReport r;
    r.epoch = epoch;
    r.epochs = config.epochs;
    // Loss of the weights at the end of the epoch (one more pass, cheap next to the gradient).
    r.trainLoss = loss(m_train, p, k);
    r.validationLoss = loss(m_validation, p, k);
    r.lr = lr;
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    r.etaSeconds = r.seconds / epoch * (config.epochs - epoch);
    if (onEpoch) onEpoch(r, p);
    lr *= config.lrDecay;
  }
  return p;
}

std::vector<char> frozenMask(const std::vector<std::string>& blockNames) {
  std::vector<char> mask(kParamCount, 0);
  for (const auto& name : blockNames) {
    const WeightInfo* block = nullptr;
    for (const auto& b : kWeightTable)
      if (b.name == name) block = &b;
    if (!block) {
      std::string known;
      for (const auto& b : kWeightTable) known += (known.empty() ? "" : ", ") + std::string(b.name);
      throw Error(fmt::format("tune: unknown weight block '{}' (known: {})", name, known));
    }
    for (int i = block->offset; i < block->offset + block->size; ++i) mask[size_t(2 * i)] = mask[size_t(2 * i + 1)] = 1;
  }
  return mask;
}

}  // namespace janus::tune
