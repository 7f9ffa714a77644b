#pragma once
// The command line of `janus train-nnue` (and of janus-train-torch, which takes the same
// options): option definitions and the action. See docs/nnue.md, section "Trainer".

#include <string>

#include <CLI/CLI.hpp>

#include "training/train_run.h"

namespace janus::training {

struct TrainCli {
  RunOptions run;
  std::string exportCheckpoint;  ///< --export: write this checkpoint as a .jnn and stop
  std::string exportOutput;      ///< --output: file or directory for --export
  std::vector<std::string> evaluate;  ///< --evaluate: print these networks' loss on --data and stop
  CLI::App* app = nullptr;       ///< set by addTrainNnueOptions
};

/// Adds the train-nnue options to `app`. `cli` must outlive parsing and runTrainNnue. Defaults
/// are the values already in cli.run.config (so janus-train-torch can default to "torch").
void addTrainNnueOptions(CLI::App& app, TrainCli& cli);

/// Runs what the parsed options ask for (training, --export or --evaluate); returns the exit code. Throws
/// janus::Error for bad input.
int runTrainNnue(TrainCli& cli);

}  // namespace janus::training
