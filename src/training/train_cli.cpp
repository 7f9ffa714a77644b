// Command line of train-nnue (train_cli.h).

#include "training/train_cli.h"

#include <unistd.h>

#include <iostream>
#include <thread>

#include "util/error.h"

namespace janus::training {

void addTrainNnueOptions(CLI::App& app, TrainCli& cli) {
  cli.app = &app;
  TrainConfig& c = cli.run.config;
  c.threads = int(std::max(1u, std::thread::hardware_concurrency()));
  app.option_defaults()->always_capture_default();
  // Keys of TrainConfig (configToMap) are the long option names without "--".
  app.add_option("--data", c.data, "Training files: JANUSDAT from janus datagen, plain or .zst (comma-separated or repeated)")
      ->delimiter(',');
  app.add_option("--validation", c.validation, "Held-out validation files (default: --val-fraction of the training games)")
      ->delimiter(',');
  app.add_option("--val-fraction", c.valFraction, "Fraction of the training games held out for validation (by --seed)");
  app.add_option("--max-score", c.maxScore, "Drop positions with |score| above this (centipawns)");
  app.add_option("--limit", c.limit, "At most this many records per file (0: all)");
  app.add_flag("--keep-noisy", c.keepNoisy,
               "Keep positions whose played move was a capture or promotion (data format 2 flag; default: drop)");
  app.add_flag("--mirror", c.mirror,
               "Also train on the a<->h file mirror of every training position without castling rights");
  app.add_option("--hidden", c.shape.hidden, "Hidden size N (a multiple of 16, 16..2048)");
  app.add_option("--buckets", c.shape.buckets, "Output buckets B by piece count (1..16)");
  app.add_option("--king-buckets", c.shape.kingBuckets,
                 "King buckets K of the inputs: 1 (none), 2, 4, 8 or 16, with the a<->h mirror when the king "
                 "is on files e-h (768 K inputs; layouts in src/nnue/format.h)")
      ->check(CLI::IsMember({1, 2, 4, 8, 16}));
  app.add_flag("--factoriser", c.shape.factoriser,
               "With --king-buckets > 1: train 768 more inputs shared by all king buckets (nnue-pytorch's "
               "factorizer), added into every bucket on export; helps king buckets learn from less data");
  app.add_option_function<std::string>(
         "--activation", [&c](const std::string& v) { c.shape.activation = parseActivation(v); },
         "Activation: screlu or crelu")
      ->check(CLI::IsMember({"screlu", "crelu"}, CLI::ignore_case))
      ->default_str("screlu");
  app.add_option("--lambda", c.loss.lambda, "Weight of the game result in the target (0: search score only)");
  app.add_option("--sigmoid-scale", c.loss.sigmoidScale, "S in centipawns: expected score = sigmoid(cp / S)");
  app.add_option("--batch", c.batch, "Positions per optimiser step");
  app.add_option("--superbatch-size", c.superbatchSize,
                 "Positions per superbatch (capped at one pass over the training set; 0: one pass)");
  app.add_option("--superbatches", c.superbatches, "Superbatches to train");
  app.add_option("--lr", c.lr, "AdamW learning rate at the start");
  app.add_option("--lr-schedule", c.lrSchedule, "cosine (to --lr-final over the run) or constant");
  app.add_option("--lr-final", c.lrFinal, "Learning rate of the last batch with --lr-schedule cosine");
  app.add_option("--lr-drop-every", c.lrDropEvery, "Multiply the lr by --lr-gamma every this many superbatches (0: never)");
  app.add_option("--lr-gamma", c.lrGamma, "Factor of each step drop");
  app.add_option("--wd", c.wd, "AdamW decoupled weight decay");
  app.add_option("--seed", c.seed, "Seed of the initial weights, the validation games and the shuffle");
  app.add_option("--init", c.init,
                 "Start from these weights (fine-tuning): a network file nn-<hash>.jnn or a checkpoint.bin; the shape "
                 "options not given are the file's; a net without king buckets with --king-buckets K > 1 starts every bucket "
                 "from its weights (net expansion); a larger --hidden widens it to the same function (new neurons "
                 "with zero output weights; default: random weights from --seed)");
  app.add_flag("--qat", c.qat,
               "Quantisation-aware training: passes and validation on the network rounded as the exporter "
               "rounds it, updates to the float weights (straight-through); may be switched on at --resume");
  app.add_option("--threads", c.threads, "Threads (default: hardware concurrency)");
  app.add_option("--backend", c.backend, "Gradient backend: sparse (fast CPU) or torch (libtorch reference)");
  app.add_option("--torch-input", c.torchInput, "torch backend input: sparse (embedding_bag) or dense (matmul)");
  app.add_option("--out-dir", cli.run.outDir, "Output directory: metrics.csv, loss.svg, checkpoint.bin, nn-<hash>.jnn");
  app.add_flag("--resume", cli.run.resume, "Continue from <out-dir>/checkpoint.bin (options not given: the checkpoint's)");
  app.add_option("--stop-after", cli.run.stopAfter, "End this session after this many superbatches (continue with --resume)");
  app.add_option("--description", cli.run.description, "Description in the network header (16 bytes; default: out-dir name)");
  app.add_option("--export", cli.exportCheckpoint, "Write this checkpoint as a quantised network (with --output) and stop");
  app.add_option("--evaluate", cli.evaluate,
                 "Print the loss of these networks (nn-<hash>.jnn or checkpoint.bin) over every position of --data "
                 "(the training filters and loss options; no validation split) and stop")
      ->delimiter(',');
  app.add_option("--output", cli.exportOutput, "--export: output file or directory (default: nn-<hash>.jnn here)");
}

int runTrainNnue(TrainCli& cli) {
  if (!cli.exportCheckpoint.empty()) {
    exportCheckpoint(cli.exportCheckpoint, cli.exportOutput.empty() ? std::string("./") : cli.exportOutput,
                     cli.run.description, std::cout);
    return 0;
  }
  if (!cli.exportOutput.empty()) throw Error("train-nnue: --output goes with --export");
  if (!cli.evaluate.empty()) {
    (void)evaluateNetworks(cli.run.config, cli.evaluate, std::cout);
    return 0;
  }
  RunOptions options = cli.run;
  options.given.clear();
  if (cli.app) {
    const std::map<std::string, std::string> keys = configToMap(options.config);
    for (const CLI::Option* opt : cli.app->get_options()) {
      if (opt->count() == 0) continue;
      const std::string name = opt->get_name(false, true);  // "--lr" for a long option
      const std::string key = name.rfind("--", 0) == 0 ? name.substr(2) : name;
      if (keys.contains(key)) options.given.insert(key);
    }
  }
  options.tty = ::isatty(STDERR_FILENO) != 0;
  runTraining(options, std::cout, std::cerr);
  return 0;
}

}  // namespace janus::training
