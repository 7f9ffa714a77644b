#pragma once
// Texel tuning of the hand-crafted evaluation (`janus tune`).
//
// Method (P. Österlund, "Texel's Tuning Method", chessprogramming wiki; A. Grant, "Evaluation &
// Tuning in Chess Engines", 2020): minimise the mean squared error between the game result R
// (White's view: 1, 0.5, 0) and the win probability predicted from the static evaluation E,
//   L(w) = 1/N sum_i (R_i - sigmoid(K E_i(w)))^2,   sigmoid(x) = 1 / (1 + 10^(-x / 400)),
// over positions whose traces are computed once (TraceSet). K is fitted first with the starting
// weights (golden-section search) and then kept fixed. The weights are optimised with Adam
// (D. Kingma, J. Ba, "Adam: A Method for Stochastic Optimization", 2015) on shuffled
// mini-batches (or full batches), the gradient accumulated by several threads.

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "records/janusdat_format.h"
#include "tune/trace_set.h"

namespace janus::tune {

// ---- Loading ----------------------------------------------------------------------------------------

struct LoadOptions {
  double validationFraction = 0.1;  ///< the last fraction of each source goes to validation (whole
                                    ///< games apart from one, because games are stored in order)
  bool qsearch = false;             ///< trace the quiescence leaf instead of the position (qsearch.h)
  u64 limit = 0;                    ///< at most this many records per source (0: all)
  int threads = 1;
};

struct LoadedData {
  TraceSet train;
  TraceSet validation;
  u64 results[3] = {0, 0, 0};  ///< positions by result (Wdl), both sets
  u64 skippedNotQuiet = 0;     ///< skipped: side to move in check, or (without qsearch) the move played was noisy
  std::vector<std::string> notes;  ///< per-source summaries and PGN problems, for printing
};

/// Loads JANUSDAT files (`dataFiles`) and PGN files (`pgnFiles`, through
/// datagen::extractPgnPositions with default options), traces every position with `weights`
/// (the trace does not depend on the weights; they only steer --qsearch) and splits them.
/// Throws janus::Error naming the file (and record) for unreadable or malformed input.
[[nodiscard]] LoadedData loadTrainingData(const std::vector<std::string>& dataFiles,
                                          const std::vector<std::string>& pgnFiles, const LoadOptions& options,
                                          const EvalWeights& weights);

/// Traces records (already read) into `out`; exposed for tests. `source` names them in errors.
void traceRecords(const std::vector<records::PackedRecord>& records, size_t begin, size_t end,
                  const std::string& source, bool qsearch, const EvalWeights& weights, TraceSet& out,
                  u64& skippedNotQuiet);

// ---- Optimisation -----------------------------------------------------------------------------------

struct TuneConfig {
  int epochs = 100;
  double lr = 1.0;          ///< Adam step size (centipawns per step, roughly)
  double lrDecay = 1.0;     ///< lr is multiplied by this after every epoch
  size_t batch = 16384;     ///< positions per step; 0 = full batch (one step per epoch)
  int threads = 1;
  double beta1 = 0.9, beta2 = 0.999, epsilon = 1e-8;
  u64 seed = 1;             ///< shuffle order of mini-batches
  std::vector<char> frozen; ///< kParamCount flags: 1 = keep this parameter; empty = none frozen
};

struct EpochReport {
  int epoch = 0;  ///< 1-based
  int epochs = 0;
  double trainLoss = 0;
  double validationLoss = 0;  ///< NaN without a validation set
  double lr = 0;
  double seconds = 0;         ///< since the start of run()
  double etaSeconds = 0;
};

class Tuner {
 public:
  /// `validation` may be empty. Both sets must outlive the tuner.
  Tuner(const TraceSet& train, const TraceSet& validation, int threads);

  /// Mean squared error of `set` with parameters `p` and scaling constant `k` (continuous eval).
  [[nodiscard]] double loss(const TraceSet& set, const Params& p, double k) const;
  /// The same with the engine's integer evaluation and integer weights.
  [[nodiscard]] double exactLoss(const TraceSet& set, const EvalWeights& w, double k) const;
  /// The K in [0.05, 10] that minimises loss(train, p, K) (golden-section search to 1e-6).
  [[nodiscard]] double fitK(const Params& p) const;
  /// Gradient of the training loss over the samples order[begin, end) (the mean over them),
  /// written to `grad` (kParamCount entries). Returns the loss over those samples.
  double gradient(const Params& p, double k, const std::vector<u32>& order, size_t begin, size_t end,
                  std::vector<double>& grad) const;

  /// Runs Adam from `initial` with fixed `k`; calls `onEpoch` after every epoch. Returns the
  /// final parameters.
  [[nodiscard]] Params run(const Params& initial, double k, const TuneConfig& config,
                           const std::function<void(const EpochReport&, const Params&)>& onEpoch) const;

 private:
  const TraceSet& m_train;
  const TraceSet& m_validation;
  int m_threads;
};

/// Flags for TuneConfig::frozen from weight block names ("material", "pst_pawn", ...).
/// Throws janus::Error for an unknown name.
[[nodiscard]] std::vector<char> frozenMask(const std::vector<std::string>& blockNames);

}  // namespace janus::tune
