// janus tune: Texel tuning of the hand-crafted evaluation weights (src/tune/tuner.h) on JANUSDAT
// files from `janus datagen` and/or PGN games. See docs/tuning.md.

#include <chrono>
#include <cmath>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "apps/commands.h"
#include "tune/cpp_writer.h"
#include "tune/tuner.h"
#include "util/duration.h"
#include "util/error.h"
#include "util/zstd_stream.h"

namespace janus::apps {

namespace {

struct TuneArgs {
  std::vector<std::string> data;
  std::vector<std::string> pgn;
  tune::TuneConfig config;
  tune::LoadOptions load;
  std::optional<double> k;
  double lambda = 0;
  std::string output = "tuned_weights.txt";
  std::string cpp;
  std::string init;
  std::vector<std::string> freeze;
};

void writeText(const std::string& path, const std::string& text) {
  OutputFile out(path, false);
  out << text;
  out.commit();
}

std::string readText(const std::string& path) {
  auto in = openInputFile(path);
  std::ostringstream s;
  s << in->rdbuf();
  return s.str();
}

std::string lossText(double v) { return std::isnan(v) ? "-" : fmt::format("{:.6f}", v); }

int runTune(TuneArgs& a) {
  if (a.data.empty() && a.pgn.empty()) throw Error("tune: give --data and/or --pgn");
  a.config.threads = a.load.threads;
  const auto t0 = std::chrono::steady_clock::now();
  auto since = [](auto start) { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };

  EvalWeights start = EvalWeights::defaults();
  if (!a.init.empty()) {
    try {
      start.loadText(readText(a.init));
    } catch (const Error& e) {
      throw Error(fmt::format("tune: --init '{}': {}", a.init, e.what()));
    }
  }

  std::cout << fmt::format("loading {} data file(s), {} PGN file(s){} with {} thread(s)\n", a.data.size(), a.pgn.size(),
                           a.load.qsearch ? " (quiescence leaves)" : "", a.load.threads);
  tune::LoadedData d = tune::loadTrainingData(a.data, a.pgn, a.load, start);
  for (const auto& n : d.notes) std::cout << "  " << n << "\n";
  const u64 total = d.results[0] + d.results[1] + d.results[2];
  auto pct = [&](u64 n) { return total ? 100.0 * double(n) / double(total) : 0.0; };
  std::cout << fmt::format(
      "loaded {} positions in {}: {} train, {} validation; results (White) W {} ({:.1f}%) D {} ({:.1f}%) L {} "
      "({:.1f}%); {} skipped (in check, or a noisy move without --qsearch); traces {:.0f} MiB\n",
      total, formatDuration(since(t0)), d.train.size(), d.validation.size(), d.results[2], pct(d.results[2]),
      d.results[1], pct(d.results[1]), d.results[0], pct(d.results[0]), d.skippedNotQuiet,
      double(d.train.memoryBytes() + d.validation.memoryBytes()) / (1 << 20));
  if (d.train.size() == 0) throw Error("tune: no training positions");

  tune::Tuner tuner(d.train, d.validation, a.config.threads);
  const tune::Params p0 = tune::toParams(start);
  double k = 0;
  if (a.k) {
    k = *a.k;
    std::cout << fmt::format("K = {:.6f} (given)\n", k);
  } else {
    k = tuner.fitK(p0);
    std::cout << fmt::format("K = {:.6f} (fitted to the starting weights on the training set)\n", k);
  }
  if (a.lambda > 0) {
    d.train.setTargets(a.lambda, k);
    d.validation.setTargets(a.lambda, k);
    std::cout << fmt::format("targets: {:.2f} * result + {:.2f} * sigmoid(K * search score)\n", 1 - a.lambda, a.lambda);
  }
  const double startTrain = tuner.exactLoss(d.train, start, k), startVal = tuner.exactLoss(d.validation, start, k);
  std::cout << fmt::format("start: train loss {} validation loss {}\n", lossText(startTrain), lossText(startVal));

  if (!a.freeze.empty()) a.config.frozen = tune::frozenMask(a.freeze);
  std::cout << fmt::format("Adam: {} epochs, lr {} (x{} per epoch), beta2 {}, batch {}, {} parameters{}\n",
                           a.config.epochs, a.config.lr, a.config.lrDecay, a.config.beta2, a.config.batch == 0 ? std::string("full") : std::to_string(a.config.batch),
                           tune::kParamCount, a.freeze.empty() ? "" : " (some frozen)");
  const auto tRun = std::chrono::steady_clock::now();
  tune::Params p = tuner.run(p0, k, a.config, [&](const tune::EpochReport& r, const tune::Params& current) {
    std::cout << fmt::format("epoch {:>4}/{}  train {}  validation {}  lr {:.4g}  elapsed {}  ETA {}\n", r.epoch,
                             r.epochs, lossText(r.trainLoss), lossText(r.validationLoss), r.lr,
                             formatDuration(r.seconds), formatDuration(r.etaSeconds))
              << std::flush;
    writeText(a.output, tune::toWeights(current).toText());  // checkpoint, atomically replaced
  });
  const double runSeconds = since(tRun);

  const EvalWeights tuned = tune::toWeights(p);
  const double endTrain = tuner.exactLoss(d.train, tuned, k), endVal = tuner.exactLoss(d.validation, tuned, k);
  std::cout << fmt::format("end (integer weights): train loss {} (start {}), validation loss {} (start {})\n",
                           lossText(endTrain), lossText(startTrain), lossText(endVal), lossText(startVal));
  std::cout << "material (mg eg) before -> after:";
  const char* names[] = {"P", "N", "B", "R", "Q"};
  for (int pt = 0; pt < 5; ++pt)
    std::cout << fmt::format("  {} {} {} -> {} {}", names[pt], start[weight::kMaterial + pt].mg(),
                             start[weight::kMaterial + pt].eg(), tuned[weight::kMaterial + pt].mg(),
                             tuned[weight::kMaterial + pt].eg());
  std::cout << "\n";

  writeText(a.output, tuned.toText());
  std::cout << "wrote weights (text, EvalWeights::loadText format) to " << a.output << "\n";
  if (!a.cpp.empty()) {
    std::vector<std::string> notes;
    std::vector<std::string> files = a.data;
    files.insert(files.end(), a.pgn.begin(), a.pgn.end());
    const std::string sources = fmt::format("{}", fmt::join(files, ", "));
    notes.push_back(fmt::format("Data: {} ({} training, {} validation positions{}).", sources, d.train.size(),
                                d.validation.size(), a.load.qsearch ? ", quiescence leaves" : ""));
    notes.push_back(fmt::format("K = {:.4f}; {} epochs of Adam, lr {} (x{} per epoch), beta2 {}, batch {}{}.", k,
                                a.config.epochs, a.config.lr, a.config.lrDecay, a.config.beta2, a.config.batch,
                                a.lambda > 0 ? fmt::format(", lambda {}", a.lambda) : ""));
    if (!a.freeze.empty())
      notes.push_back(fmt::format("Frozen (kept at their previous values): {}.", fmt::join(a.freeze, ", ")));
    notes.push_back(fmt::format("Loss (integer eval): train {} -> {}, validation {} -> {}.", lossText(startTrain),
                                lossText(endTrain), lossText(startVal), lossText(endVal)));
    writeText(a.cpp, tune::weightsToCpp(tuned, notes));
    std::cout << "wrote weights (C++, default_weights.cpp layout) to " << a.cpp << "\n";
  }
  std::cout << fmt::format("tuning took {} ({} in total)\n", formatDuration(runSeconds),
                           formatDuration(since(t0)));
  return 0;
}

}  // namespace

void addTuneCommand(CLI::App& app, Commands& out) {
  auto a = std::make_shared<TuneArgs>();
  auto* cmd = app.add_subcommand("tune", "Texel-tune the evaluation weights on JANUSDAT files and/or PGN games; see "
                                         "docs/tuning.md");
  cmd->option_defaults()->always_capture_default();
  cmd->add_option("--data", a->data, "JANUSDAT files from janus datagen (comma-separated or repeated)")->delimiter(',');
  cmd->add_option("--pgn", a->pgn, "PGN files: positions of finished games with their results")->delimiter(',');
  cmd->add_option("--epochs", a->config.epochs, "Passes over the training set")->check(CLI::Range(0, 1000000));
  cmd->add_option("--lr", a->config.lr, "Adam step size (about centipawns per step)")->check(CLI::PositiveNumber);
  cmd->add_option("--lr-decay", a->config.lrDecay, "Multiply lr by this after every epoch")
      ->check(CLI::Range(0.0, 1.0));
  cmd->add_option("--batch", a->config.batch, "Positions per step (0: full batch)");
  cmd->add_option("--beta2", a->config.beta2, "Adam's second-moment decay (lower: adapts faster to shrinking gradients)")
      ->check(CLI::Range(0.0, 0.999999));
  cmd->add_option("--threads", a->load.threads, "Threads for loading and gradients")->check(CLI::Range(1, 1024));
  cmd->add_option("--k", a->k, "Sigmoid scale K (default: fitted to the starting weights)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--lambda", a->lambda, "Blend the search score into the target: (1-l)*result + l*sigmoid(K*score)")
      ->check(CLI::Range(0.0, 1.0));
  cmd->add_option("--validation", a->load.validationFraction,
                  "Fraction of each source (its end) held out for validation")
      ->check(CLI::Range(0.0, 0.9));
  cmd->add_flag("--qsearch", a->load.qsearch, "Trace the quiescence-search leaf of each position instead of it");
  cmd->add_option("--limit", a->load.limit, "At most this many positions per source (0: all)");
  cmd->add_option("--init", a->init, "Start from this weights text file (default: the built-in weights)");
  cmd->add_option("--freeze", a->freeze, "Weight blocks to keep fixed, e.g. material,pst_king")->delimiter(',');
  cmd->add_option("--seed", a->config.seed, "Seed of the mini-batch shuffle");
  cmd->add_option("--output", a->output, "Weights text file (EvalWeights::toText), rewritten after every epoch");
  cmd->add_option("--cpp", a->cpp, "Also write the weights as C++ in the layout of src/eval/default_weights.cpp");
  out.push_back({cmd, [a] { return runTune(*a); }});
}

}  // namespace janus::apps
