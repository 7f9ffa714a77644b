#pragma once
// One `janus train-az` run (the janus-train-az executable): supervised training of the MCTS
// face's policy/value network (mcts/pvnet_format.h) on JANUSDAT and PGN samples (az_data.h)
// with libtorch, and the export of the engine's network file. docs/mcts.md, "Training the
// network", describes it; the files it writes into --out-dir:
//   metrics.csv     one row per epoch (columns: metricsCsv below)
//   loss.svg        training and validation loss, validation policy and value cross-entropy
//   checkpoint.pt   the whole state after the latest epoch (torch archive: weights, AdamW moments,
//                   configuration, counters, metrics), written atomically
//   pv-<hash>.jpv   the network (mcts::pvnet::writePvFile), written when the run completes;
//   rn-<hash>.jrn   with --arch resnet instead (mcts::rn::writeRnFile, batch normalisation folded)
//                   (the value-only baselines --arch value-mlp / value-cnn write no network file)

#include <iosfwd>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "training/az_data.h"

namespace janus::training::az {

/// Everything that decides a run's result (saved in the checkpoint).
struct AzConfig {
  std::vector<std::string> data;        ///< training files (JANUSDAT or PGN, plain or .zst)
  std::vector<std::string> validation;  ///< held-out files (instead of valFraction)
  double valFraction = 0.05;
  u64 seed = 1;                         ///< weights, data order and the validation split
  ValueTargetConfig value;
  int pgnSkipPlies = 0;
  u64 limit = 0;                        ///< samples at most (0: all)
  u64 memoryMib = 4096;                 ///< memory budget of the samples
  /// pvnet (the sparse network, mcts/pvnet_format.h), resnet (the convolutional residual
  /// network of mcts/rn_format.h, evaluated by janus-torch's torch backend), or one of the
  /// value-only research baselines value-mlp / value-cnn (az_model.h ValueArch: MSE on the
  /// expected score, no policy, no network file)
  std::string arch = "pvnet";
  int hidden = 256, valueHidden = 32;   ///< pvnet sizes
  int blocks = 6, filters = 64;         ///< resnet sizes
  bool se = false;                      ///< resnet: squeeze-excitation (az_model.h resnetArch)
  std::vector<int> hiddenLayers = {1048, 500, 50};  ///< value-mlp / value-cnn: dense layer widths
  std::vector<int> convFilters;         ///< value-cnn: filters of each convolution
  int convKernel = 3;                   ///< value-cnn: kernel size of every convolution
  std::string activation = "relu";      ///< value-mlp / value-cnn: relu or elu
  int batch = 1024;                     ///< positions per AdamW step
  int epochs = 10;
  u64 epochPositions = 0;               ///< positions per epoch (0: one pass over the training set)
  double lr = 1e-3, lrFinal = 1e-5;
  std::string lrSchedule = "cosine";    ///< cosine (lr -> lrFinal over the run), step, constant
  int lrDropEvery = 0;                  ///< step: multiply by lrGamma every this many epochs
  double lrGamma = 0.3;
  double wd = 0.01;                     ///< AdamW decoupled weight decay
  double policyWeight = 1.0, valueWeight = 1.0;
  std::string policyHead = "gather";    ///< dense or gather (az_model.h; same loss)
  int threads = 2;                      ///< torch threads and files decoded at once
};

/// One row of metrics.csv.
struct AzMetrics {
  int epoch = 0;
  u64 positions = 0;  ///< training positions seen so far
  /// Means over the epoch's batches. Value-only archs: trainLoss is the MSE, the CEs are NaN
  /// (and so are the validation CEs and accuracy; valLoss = valValueMse).
  double trainLoss = 0, trainPolicyCe = 0, trainValueCe = 0;
  double valLoss = 0, valPolicyCe = 0, valValueCe = 0;        ///< after the epoch; NaN without validation data
  double valAccuracy = 0;  ///< share of validation positions with a move whose most likely legal move was played
  double valValueMse = 0;  ///< mean (expected score - target expected score)^2, expected score = W + D/2
  double lr = 0;           ///< lr of the epoch's first step
  double seconds = 0;      ///< training time so far (all sessions)
};

struct AzRunOptions {
  AzConfig config;
  std::set<std::string> given;  ///< option names given on the command line (checked against the checkpoint on resume)
  std::string outDir = "az-run";
  bool resume = false;
  std::string description;      ///< the network file's description (default: the output directory's name)
  std::string init;             ///< start from this network's weights (.jpv; sizes from it) instead of random ones
  int stopAfter = 0;            ///< end this session after this many epochs (0: run to the end)
  bool tty = false;             ///< redraw a progress line during an epoch
};

struct AzRunResult {
  std::vector<AzMetrics> metrics;
  std::string netPath;           ///< "" when the session stopped before the last epoch, and for value-only archs
  std::size_t parameters = 0;    ///< trainable parameters of the network
  /// Value-only archs: MSE of the trivial baseline that predicts the training set's mean
  /// expected score W + D/2, on the training and on the validation set (NaN without one).
  double meanBaselineTrainMse = 0, meanBaselineValMse = 0;
  double positionsPerSecond = 0; ///< training steps of this session
  double maxExportDifference = 0;  ///< largest |torch - PvNetwork| logit over the checked positions
  u64 trainPositions = 0, validationPositions = 0;
};

/// Runs training (header comment). `out` gets the summary, `progress` the progress lines.
/// Throws janus::Error for bad options, unreadable data, an output directory that holds a
/// checkpoint without --resume, a missing or mismatched checkpoint with --resume (options that
/// may not change, other training data), and write errors.
AzRunResult runAzTraining(const AzRunOptions& options, std::ostream& out, std::ostream& progress);

/// Writes the network of a checkpoint (file or directory `output`, see pvnet::writePvFile).
/// Returns the path written. Throws janus::Error for an unreadable checkpoint.
std::string exportAzCheckpoint(const std::string& checkpointPath, const std::string& output,
                               const std::string& description, std::ostream& out);

/// metrics.csv text: "epoch,positions,train_loss,train_policy_ce,train_value_ce,val_loss,
/// val_policy_ce,val_value_ce,val_policy_acc,val_value_mse,lr,seconds" and one line per row.
[[nodiscard]] std::string metricsCsv(const std::vector<AzMetrics>& rows);
/// Parses metricsCsv() text. Throws janus::Error for a malformed line.
[[nodiscard]] std::vector<AzMetrics> parseMetricsCsv(const std::string& text);

/// The configuration as option name -> value text (the names of the command line).
[[nodiscard]] std::map<std::string, std::string> configToMap(const AzConfig& c);
[[nodiscard]] AzConfig configFromMap(const std::map<std::string, std::string>& m);

/// The command line of janus-train-az.
struct AzCli {
  AzRunOptions run;
  std::string exportCheckpoint, exportOutput;
  CLI::App* app = nullptr;
};
/// Adds the options to `app` (`cli` must outlive parsing and runAzCli).
void addAzOptions(CLI::App& app, AzCli& cli);
/// Runs what the parsed options ask for; returns the exit code. Throws janus::Error.
int runAzCli(AzCli& cli);

}  // namespace janus::training::az
