// The command line of janus-train-az (az_cli.h).

#include "training/az/az_cli.h"

#include <unistd.h>

#include <algorithm>
#include <iostream>
#include <map>
#include <thread>

#include <fmt/format.h>

#include "mcts/pvnet.h"
#include "training/az/az_config.h"
#include "util/error.h"

namespace janus::training::az {

void addAzOptions(CLI::App& app, AzCli& cli) {
  cli.app = &app;
  AzConfig& c = cli.run.config;
  c.threads = int(std::max(1u, std::thread::hardware_concurrency()));
  app.option_defaults()->always_capture_default();
  // The long option names are the keys of configToMap.
  app.add_option("--data", c.data,
                 "Training files: JANUSDAT (janus datagen) or PGN, plain or .zst, told apart by content "
                 "(several after one --data, comma-separated or repeated)")
      ->delimiter(',');
  app.add_option("--validation", c.validation, "Held-out validation files (default: --val-fraction of the training games)")
      ->delimiter(',');
  app.add_option("--val-fraction", c.valFraction, "Share of the training games held out for validation (0..0.5, by --seed)");
  app.add_option("--seed", c.seed, "Seed of the initial weights, the data order and the validation games");
  app.add_option("--lambda", c.value.lambda,
                 "Value target = lambda x game result + (1 - lambda) x WDL(search score) where a score exists");
  app.add_option("--wdl-a", c.value.wdlA, "Score -> WDL model: the score (cp) with a 50% win");
  app.add_option("--wdl-b", c.value.wdlB, "Score -> WDL model: the logistic scale (cp)");
  app.add_option("--pgn-skip-plies", c.pgnSkipPlies, "PGN: positions of the first this many plies are not taken");
  app.add_option("--limit", c.limit, "At most this many positions in all (0: every one)");
  app.add_option("--memory-mib", c.memoryMib, "Memory budget of the samples in MiB (about 160 bytes a position)");
  app.add_option("--arch", c.arch,
                 "pvnet (sparse network, .jpv, the pvnet backend), resnet (convolutional residual network, .jrn, the "
                 "torch backend of janus-torch), or the value-only research baselines value-mlp / value-cnn (MSE on "
                 "the expected score W + D/2 of the value target; no policy, no network file, not usable by the "
                 "engine; docs/mcts-networks.md \"Value-only baselines\")");
  app.add_option("--blocks", c.blocks, "resnet: residual blocks (1..64)");
  app.add_option("--filters", c.filters, "resnet: filters per convolution (8..1024, a multiple of 8)");
  app.add_flag("--se", c.se, "resnet: squeeze-excitation in every block (filters / 4 channels)");
  app.add_option("--hidden-layers", c.hiddenLayers,
                 "value-mlp / value-cnn: widths of the dense hidden layers (comma-separated, 0-8 layers of 1..8192; "
                 "Sabatelli et al. 2018's MLP: 1048,500,50)")
      ->delimiter(',');
  app.add_option("--conv-filters", c.convFilters,
                 "value-cnn: filters of each convolution (comma-separated, 1-8 layers of 1..1024), e.g. 32,32")
      ->delimiter(',');
  app.add_option("--conv-kernel", c.convKernel, "value-cnn: kernel size of every convolution (odd, 1..7; padding K/2)");
  app.add_option("--activation", c.activation, "value-mlp / value-cnn: relu or elu after every hidden layer");
  app.add_option("--hidden", c.hidden, "pvnet: trunk size H (16..2048, a multiple of 16)");
  app.add_option("--value-hidden", c.valueHidden, "pvnet: value head size V (8..256, a multiple of 8)");
  app.add_option("--batch", c.batch, "Positions per AdamW step");
  app.add_option("--epochs", c.epochs, "Epochs to train");
  app.add_option("--epoch-positions", c.epochPositions, "Positions per epoch (0: one pass over the training set)");
  app.add_option("--lr", c.lr, "AdamW learning rate at the start");
  app.add_option("--lr-final", c.lrFinal, "Learning rate of the last step with --lr-schedule cosine");
  app.add_option("--lr-schedule", c.lrSchedule, "cosine (to --lr-final over the run), step or constant");
  app.add_option("--lr-drop-every", c.lrDropEvery, "Multiply the lr by --lr-gamma every this many epochs (0: never)");
  app.add_option("--lr-gamma", c.lrGamma, "Factor of each step drop");
  app.add_option("--wd", c.wd, "AdamW decoupled weight decay");
  app.add_option("--policy-weight", c.policyWeight, "Weight of the policy cross-entropy in the loss");
  app.add_option("--value-weight", c.valueWeight, "Weight of the value cross-entropy in the loss");
  app.add_option("--policy-head", c.policyHead,
                 "gather (only the legal moves' rows; fast) or dense (all 1858 logits, masked); the same loss");
  app.add_option("--threads", c.threads, "Torch threads and data files read at once (default: hardware concurrency)");
  app.add_option("--out-dir", cli.run.outDir, "Output directory: metrics.csv, loss.svg, checkpoint.pt, pv-<hash>.jpv (or rn-<hash>.jrn)");
  app.add_flag("--resume", cli.run.resume, "Continue from <out-dir>/checkpoint.pt (options not given: the checkpoint's)");
  app.add_option("--stop-after", cli.run.stopAfter, "End this session after this many epochs (continue with --resume)");
  app.add_option("--init", cli.run.init,
                 "Start from this network's weights (.jpv) instead of random ones; its sizes are the run's "
                 "(--hidden/--value-hidden, if given, must match)");
  app.add_option("--description", cli.run.description, "Description in the network header (23 bytes; default: out-dir name)");
  app.add_option("--export", cli.exportCheckpoint, "Write this checkpoint as a network (with --output) and stop");
  app.add_option("--evaluate", cli.evaluate,
                 "Evaluate these networks (.jpv, comma-separated) on every position of --data (no split, no "
                 "training, nothing written): policy CE, top-1, value CE and MSE per network")
      ->delimiter(',');
  app.add_option("--evaluate-csv", cli.evaluateCsv,
                 "--evaluate: also write the figures to this CSV file (network,positions,policy_ce,top1,value_ce,"
                 "value_mse), atomically");
  app.add_option("--output", cli.exportOutput, "--export: output file or directory (default: pv-<hash>.jpv here)");
}

int runAzCli(AzCli& cli) {
  if (!cli.exportCheckpoint.empty()) {
    exportAzCheckpoint(cli.exportCheckpoint, cli.exportOutput.empty() ? std::string("./") : cli.exportOutput,
                       cli.run.description, std::cout);
    return 0;
  }
  if (!cli.exportOutput.empty()) throw Error("train-az: --output goes with --export");
  if (!cli.evaluateCsv.empty() && cli.evaluate.empty()) throw Error("train-az: --evaluate-csv goes with --evaluate");
  if (!cli.evaluate.empty()) {
    const std::vector<AzEvaluation> e = evaluateAzNetworks(cli.run.config, cli.evaluate, std::cout);
    if (!cli.evaluateCsv.empty()) writeEvaluationCsv(cli.evaluateCsv, e);
    return 0;
  }
  AzRunOptions options = cli.run;
  options.given.clear();
  if (!options.init.empty() && !options.resume) {
    // The initial network decides the sizes; explicit ones must agree.
    const auto net = mcts::pvnet::PvNetwork::fromFile(options.init);
    const bool hiddenGiven = cli.app && cli.app->get_option("--hidden")->count() > 0;
    const bool valueGiven = cli.app && cli.app->get_option("--value-hidden")->count() > 0;
    if ((hiddenGiven && options.config.hidden != net->hidden()) ||
        (valueGiven && options.config.valueHidden != net->valueHidden()))
      throw Error(fmt::format("train-az: --init {} is 772-{}-{}, but --hidden {} --value-hidden {} were given",
                              options.init, net->hidden(), net->valueHidden(), options.config.hidden,
                              options.config.valueHidden));
    options.config.hidden = net->hidden();
    options.config.valueHidden = net->valueHidden();
  }
  if (cli.app) {
    const std::map<std::string, std::string> keys = configToMap(options.config);
    for (const CLI::Option* opt : cli.app->get_options()) {
      if (opt->count() == 0) continue;
      const std::string name = opt->get_name(false, true);
      const std::string key = name.rfind("--", 0) == 0 ? name.substr(2) : name;
      if (keys.contains(key)) options.given.insert(key);
    }
  }
  options.tty = ::isatty(STDERR_FILENO) != 0;
  runAzTraining(options, std::cout, std::cerr);
  return 0;
}

}  // namespace janus::training::az
