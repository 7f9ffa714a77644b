#pragma once
// One `janus train-az` run (the janus-train-az executable): supervised training of the MCTS
// face's policy/value network (mcts/pvnet_format.h) on JANUSDAT and PGN samples (az_data.h)
// with libtorch, and the export of the engine's network file. docs/mcts-networks.md, "Training the
// network", describes it; the files it writes into --out-dir:
//   metrics.csv     one row per epoch (columns: az_config.h metricsCsv)
//   loss.svg        training and validation loss, validation policy and value cross-entropy
//   checkpoint.pt   the whole state after the latest epoch (az_checkpoint.h: weights, AdamW
//                   moments, configuration, counters, metrics), written atomically
//   pv-<hash>.jpv   the network (mcts::pvnet::writePvFile), written when the run completes;
//   rn-<hash>.jrn   with --arch resnet instead (mcts::rn::writeResNetFile, batch normalisation folded)
//                   (the value-only baselines --arch value-mlp / value-cnn write no network file)

#include <iosfwd>
#include <set>
#include <string>
#include <vector>

#include "training/az/az_config.h"

namespace janus::training::az {

/// The options of one session of a run: the configuration and how this session runs.
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

/// What a session did.
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

/// One network's figures on an evaluation set (evaluateAzNetworks).
struct AzEvaluation {
  std::string net;    ///< the network file
  AzMetrics metrics;  ///< the val* fields: policy CE (nats, positions with a move), top-1 share, value CE
                      ///< (nats), value MSE of the expected score W + D/2, loss = policy-weight x policy CE
                      ///< + value-weight x value CE
  u64 positions = 0;  ///< positions evaluated (all of --data; --limit applies)
};

/// `janus train-az --evaluate NET[,NET...]`: every position of `config.data` (no split; the
/// value target by `config.value`, e.g. --lambda 1 for the game result alone) evaluated by each
/// pvnet network (.jpv) without training, one line per network on `out`. Compares networks on
/// the same held-out data, e.g. the generations of an RL run on games of a stronger engine
/// (docs/rl.md). Nothing is written. Throws janus::Error for an unreadable or non-pvnet network
/// file, no positions, and everything loadData throws.
std::vector<AzEvaluation> evaluateAzNetworks(AzConfig config, const std::vector<std::string>& nets, std::ostream& out);

/// Writes `evaluations` as CSV (header network,positions,policy_ce,top1,value_ce,value_mse; top1
/// a share 0..1, CEs in nats) to `path` atomically. Throws janus::Error when it cannot.
void writeEvaluationCsv(const std::string& path, const std::vector<AzEvaluation>& evaluations);

/// Writes the network of a checkpoint (file or directory `output`, see pvnet::writePvFile).
/// Returns the path written. Throws janus::Error for an unreadable checkpoint.
std::string exportAzCheckpoint(const std::string& checkpointPath, const std::string& output,
                               const std::string& description, std::ostream& out);

}  // namespace janus::training::az
