#pragma once
// The configuration of a `janus train-az` run and its per-epoch figures, with their text forms:
// the option map saved in the checkpoint (configToMap/configFromMap), metrics.csv
// (metricsCsv/parseMetricsCsv) and loss.svg (lossSvg). No libtorch here: the command line
// (az_cli.h) and the checkpoint (az_checkpoint.h) share these.

#include <map>
#include <string>
#include <vector>

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
  /// network of mcts/resnet_format.h, evaluated by janus-torch's torch backend), or one of the
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

/// The configuration as option name -> value text: the long option names of the command line
/// (az_cli.h) without "--"; lists comma-separated, doubles with 17 significant digits (exact).
[[nodiscard]] std::map<std::string, std::string> configToMap(const AzConfig& c);
/// The inverse of configToMap. Maps of checkpoints from before --arch (a pvnet) and before the
/// value-only baselines lack those keys and keep the defaults. Throws janus::Error for a missing
/// key or a malformed number.
[[nodiscard]] AzConfig configFromMap(const std::map<std::string, std::string>& m);

/// metrics.csv text: "epoch,positions,train_loss,train_policy_ce,train_value_ce,val_loss,
/// val_policy_ce,val_value_ce,val_policy_acc,val_value_mse,lr,seconds" and one line per row
/// (losses in nats, 8 significant digits, "nan" for NaN; seconds to the millisecond).
[[nodiscard]] std::string metricsCsv(const std::vector<AzMetrics>& rows);
/// Header line of `janus-train-az --evaluate-csv` files: written by writeEvaluationCsv
/// (az_train.h), read by rl::readHeldoutCsv (rl/rl_loop.h). One row per network after it.
inline constexpr const char* kEvaluationCsvHeader = "network,positions,policy_ce,top1,value_ce,value_mse";
/// Parses metricsCsv() text. Throws janus::Error for a malformed line.
[[nodiscard]] std::vector<AzMetrics> parseMetricsCsv(const std::string& text);

/// loss.svg: training and validation loss per epoch and, unless `valueOnly` (whose CEs are
/// NaN), the validation policy and value cross-entropies (training/report.h lineChartSvg).
[[nodiscard]] std::string lossSvg(const std::vector<AzMetrics>& rows, const std::string& title, bool valueOnly);

}  // namespace janus::training::az
