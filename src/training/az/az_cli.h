#pragma once
// The command line of janus-train-az (az_main.cpp; `janus train-az ...` runs it): the options of
// AzConfig under the names of configToMap (az_config.h), the run's options (AzRunOptions) and
// --export / --output, which write a checkpoint's network instead of training.

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "training/az/az_train.h"

namespace janus::training::az {

/// The parsed command line.
struct AzCli {
  AzRunOptions run;
  std::string exportCheckpoint, exportOutput;  ///< --export, --output
  std::vector<std::string> evaluate;           ///< --evaluate: networks to evaluate on --data
  std::string evaluateCsv;                     ///< --evaluate-csv: also write the figures there (az_train.h)
  CLI::App* app = nullptr;                     ///< set by addAzOptions: which options were given
};

/// Adds the options to `app` (`cli` must outlive parsing and runAzCli). --threads defaults to
/// the hardware concurrency.
void addAzOptions(CLI::App& app, AzCli& cli);

/// Runs what the parsed options ask for: --export (exportAzCheckpoint, to stdout), --evaluate
/// (evaluateAzNetworks, to stdout) or a training
/// run (runAzTraining: summary on stdout, progress on stderr, redrawn when stderr is a
/// terminal). With --init, the network's sizes become the run's. Returns the exit code (0).
/// Throws janus::Error for bad options (--output without --export, --init sizes that differ
/// from a given --hidden / --value-hidden) and everything runAzTraining throws.
int runAzCli(AzCli& cli);

}  // namespace janus::training::az
