#pragma once
// The checkpoint of a train-az run, <out-dir>/checkpoint.pt: a torch archive (torch::serialize)
// holding
//   the model's parameters and buffers   (torch::nn::Module::save, the module's own names)
//   "optimizer"                          AdamW's state (step counts, first and second moments)
//   "janus.state"                        the run state as "key=value" lines: version, epoch,
//                                        stream, step, seconds, data-hash, train-count, and
//                                        config.<name>=<value> for each configToMap entry
//   "janus.metrics"                      metrics.csv text (az_config.h metricsCsv)
// written atomically (util/zstd_stream.h OutputFile: temporary name, fsync, rename), so that a
// run stopped at any moment resumes from its last complete epoch.

#include <string>
#include <vector>

#include <torch/torch.h>

#include "training/az/az_config.h"

namespace janus::training::az {

/// File name of the checkpoint in the run's output directory.
inline constexpr const char* kCheckpointName = "checkpoint.pt";

/// The mutable part of a run, saved with the weights.
struct RunState {
  AzConfig config;
  int epoch = 0;       ///< epochs done
  u64 stream = 0;      ///< training positions taken from the shuffled stream so far
  u64 step = 0;        ///< optimiser steps done
  double seconds = 0;  ///< training time of all sessions
  u64 dataHash = 0;    ///< Dataset::hash() of the training set (a resumed run must train on the same)
  u64 trainCount = 0;  ///< training positions
  std::vector<AzMetrics> metrics;  ///< one row per epoch done
};

/// Writes `model`, `opt` and `s` atomically to `path`. Throws janus::Error for a write error.
void saveCheckpoint(const std::string& path, torch::nn::Module& model, torch::optim::AdamW& opt, const RunState& s);

/// Reads the state of the checkpoint `path`; with `model` / `opt` also their tensors (the module
/// must have the checkpoint's architecture: makeNet(state.config), az_net.h). Throws
/// janus::Error for a missing file, one that is not a train-az checkpoint, another checkpoint
/// version, or malformed state or metrics text.
[[nodiscard]] RunState loadCheckpoint(const std::string& path, torch::nn::Module* model, torch::optim::AdamW* opt);

}  // namespace janus::training::az
