#pragma once
// What defines a `janus train-nnue` run (TrainConfig, the options) and where it stands
// (TrainState: weights, Adam moments, counters, metrics): what a checkpoint (checkpoint.h)
// holds, what the trainer (nnue_trainer.h) advances and what train_run.h starts or resumes.

#include <map>
#include <set>
#include <string>
#include <vector>

#include "training/nnue_data.h"
#include "training/nnue_model.h"

namespace janus::training {

/// Everything that defines a training run (the `janus train-nnue` options except the output
/// directory). Stored in checkpoints as "key=value" lines with the option names as keys.
struct TrainConfig {
  NetworkShape shape;
  LossConfig loss;
  std::vector<std::string> data;        ///< training files
  std::vector<std::string> validation;  ///< held-out files (empty: valFraction of the training games)
  double valFraction = 0.02;
  int maxScore = 3000;                  ///< centipawns
  u64 limit = 0;                        ///< records per file (0: all)
  bool keepNoisy = false;               ///< keep positions whose played move was noisy
  bool mirror = false;                  ///< add file-mirrored copies of training positions without castling rights
  int batch = 16384;                    ///< positions per optimiser step
  u64 superbatchSize = 1'000'000;       ///< positions per superbatch (capped by the training set)
  int superbatches = 40;
  double lr = 0.001;                    ///< AdamW step size at the start
  std::string lrSchedule = "cosine";    ///< "cosine" (to lrFinal over the run) or "constant"
  double lrFinal = 0.00001;             ///< cosine: lr of the last batch
  int lrDropEvery = 0;                  ///< step drops: multiply by lrGamma every this many superbatches (0: none)
  double lrGamma = 0.1;
  double wd = 0.01;                     ///< decoupled weight decay
  double beta1 = 0.9, beta2 = 0.999, eps = 1e-8;
  u64 seed = 1;                         ///< initial weights, validation games, shuffle
  /// Starting weights instead of random ones (warm start, fine-tuning): a network file
  /// (nn-<hash>.jnn, its integers divided by QA/QB, nnue_export.h dequantise) or a train-nnue
  /// checkpoint.bin (its float weights; its Adam moments and counters are not taken). The shape
  /// options not given are the file's (train_run.h); given ones must match. Empty: random from
  /// `seed`.
  std::string init;
  /// Quantisation-aware training (--qat): every forward and backward pass, and the validation
  /// loss, use the network as the exporter rounds it (dequantise(quantise(net)): steps of 1/QA in
  /// the feature transformer, 1/QB in the output layer); the gradient updates the float weights
  /// (the straight-through estimator, Bengio et al. 2013, arXiv:1308.3432), so the network learns
  /// to work around its own rounding. May be switched on at --resume for the last superbatches.
  bool qat = false;
  int threads = 1;
  std::string backend = "sparse";
  std::string torchInput = "sparse";
};

/// Throws janus::Error for an invalid configuration (naming the option).
void validateConfig(const TrainConfig& c);
/// The configuration as key/value text (keys = option names without "--").
[[nodiscard]] std::map<std::string, std::string> configToMap(const TrainConfig& c);
/// Inverse of configToMap; throws janus::Error for a missing or malformed value.
[[nodiscard]] TrainConfig configFromMap(const std::map<std::string, std::string>& m);
/// Keys that may differ when a run is resumed (all others must equal the checkpoint's).
[[nodiscard]] const std::set<std::string>& resumableKeys();

/// One row of metrics.csv.
struct MetricsRow {
  int superbatch = 0;     ///< 1-based
  u64 positions = 0;      ///< training positions seen so far
  double trainLoss = 0;   ///< mean batch loss of the superbatch (before each step)
  double valLoss = 0;     ///< after the superbatch; NaN without validation data
  double lr = 0;          ///< lr of the superbatch's first batch
  double seconds = 0;     ///< training time so far (all sessions)
};

/// The complete state of a run: what a checkpoint holds.
struct TrainState {
  TrainConfig config;
  FloatNetwork net;
  FloatVector adamM, adamV;  ///< paramCount floats each
  u64 adamStep = 0;          ///< optimiser steps taken (t of the bias correction)
  int superbatch = 0;        ///< superbatches completed
  u64 streamPos = 0;         ///< positions of the shuffled stream consumed
  double seconds = 0;        ///< training time so far
  u64 dataHash = 0;          ///< hashSamples of the training set
  u64 trainCount = 0;        ///< training positions
  std::vector<MetricsRow> metrics;
};

}  // namespace janus::training
