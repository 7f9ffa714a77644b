#pragma once
// One `janus train-nnue` run: load the data, start or resume, train superbatch by superbatch with
// a progress line, and write the outputs into the output directory:
//   metrics.csv     superbatch,positions,train_loss,val_loss,lr,seconds (one row per superbatch)
//   loss.svg        training and validation loss against the superbatch
//   checkpoint.bin  the whole training state after the latest superbatch (checkpoint.h)
//   nn-<hash>.jnn   the quantised network (nnue/format.h), written when the run completes

#include <iosfwd>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "training/nnue_trainer.h"

namespace janus::training {

struct RunOptions {
  TrainConfig config;
  std::set<std::string> given;  ///< config keys given explicitly (checked against the checkpoint on resume)
  std::string outDir = "nnue-run";
  bool resume = false;          ///< continue from <outDir>/checkpoint.bin
  std::string description;      ///< NetHeader::description (default: the output directory's name)
  int stopAfter = 0;            ///< end this session after this many superbatches (0: run to the end)
  bool tty = false;             ///< redraw the progress line inside a superbatch
};

struct RunResult {
  TrainState state;
  std::string netPath;              ///< the .jnn written ("" when the session stopped early)
  double positionsPerSecond = 0;    ///< training steps of this session (positions/s)
  u64 trainPositions = 0, validationPositions = 0;
};

/// A fresh state: the network of config.init (initialNetwork) or a random one from config.seed,
/// zero moments, no steps taken.
[[nodiscard]] TrainState initialState(const TrainConfig& config, std::span<const Sample> train);

/// The float weights of `path` (TrainConfig::init: a network file, dequantised, or a
/// checkpoint.bin, told apart by their magic) with the file's shape. Throws janus::Error naming the
/// file when it cannot be read or is not a valid network or checkpoint (the readers' messages).
[[nodiscard]] FloatNetwork readInitNetwork(const std::string& path);

/// readInitNetwork(path), checked against `shape`: throws janus::Error naming the file and both
/// shapes when they differ. A narrower file is widened to shape.hidden first (withHidden, the new
/// neurons' weights from `seed`); a king-bucket file gets or loses the factoriser as `shape` says;
/// a file without king buckets is expanded when `shape` has K > 1 (withKingBuckets).
[[nodiscard]] FloatNetwork initialNetwork(const std::string& path, const NetworkShape& shape, u64 seed);

/// `shape` with every field whose configuration key (configToMap: hidden, buckets, activation,
/// king-buckets) is not in `given` taken from `file` (the shape of an --init network): a
/// fine-tuning run needs no shape options.
[[nodiscard]] NetworkShape shapeFromInit(const NetworkShape& shape, const NetworkShape& file,
                                         const std::set<std::string>& given);

/// Runs training. `out` gets the summary (data, configuration, final files), `progress` the
/// per-superbatch progress lines. Throws janus::Error for bad options, unreadable data, an
/// output directory that already holds a checkpoint without --resume, a missing or mismatched
/// checkpoint with --resume, or training data that differ from the checkpoint's.
RunResult runTraining(const RunOptions& options, std::ostream& out, std::ostream& progress);

/// Exports a checkpoint as a quantised network file (path or directory, see writeNetFile).
/// Returns the path written.
std::string exportCheckpoint(const std::string& checkpointPath, const std::string& output,
                             const std::string& description, std::ostream& out);

/// The loss (the training loss of config.loss) of each of `networks` (network files, dequantised,
/// or checkpoint.bin files; readInitNetwork) over every position of config.data kept by the
/// training filters (max score, noisy moves, limit; no validation split, no mirror), in the order
/// given; one line per network to `out`. Comparing networks on the same held-out files is what it
/// is for. Throws janus::Error for an unreadable network or data file or no positions.
std::vector<double> evaluateNetworks(const TrainConfig& config, const std::vector<std::string>& networks,
                                     std::ostream& out);

/// metrics.csv text of `rows` (header line + one line per row; NaN written as "nan").
[[nodiscard]] std::string metricsCsv(const std::vector<MetricsRow>& rows);
/// SVG (text) of the training and validation loss against the superbatch, with labelled axes.
[[nodiscard]] std::string lossSvg(const std::vector<MetricsRow>& rows, const std::string& title);

/// Mean and largest |float eval - quantised eval| in centipawns over `samples`.
struct QuantisationError {
  double meanCp = 0, maxCp = 0;
  std::size_t positions = 0;
};
[[nodiscard]] QuantisationError quantisationError(const FloatNetwork& net, std::span<const Sample> samples);

}  // namespace janus::training
