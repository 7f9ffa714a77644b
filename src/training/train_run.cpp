// One train-nnue run and its output files (train_run.h).

#include "training/train_run.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <string_view>

#include <fmt/format.h>

#include "training/checkpoint.h"
#include "training/nnue_export.h"
#include "training/report.h"
#include "util/duration.h"
#include "util/error.h"
#include "util/zstd_stream.h"

namespace janus::training {

namespace fs = std::filesystem;

namespace {

void writeText(const std::string& path, const std::string& text) {
  OutputFile out(path, false);
  out << text;
  out.commit();
}

std::string defaultDescription(const std::string& dir) {
  std::string name = fs::path(dir).lexically_normal().filename().string();
  if (name.empty() || name == "." || name == "..") name = fs::absolute(dir).lexically_normal().filename().string();
  return name.substr(0, 16);
}

/// The configuration to run with: the options as given, or on --resume the checkpoint's with
/// the explicitly given options checked against it.
TrainConfig mergeResumeConfig(const RunOptions& o, const TrainState& saved, std::ostream& out) {
  std::map<std::string, std::string> merged = configToMap(saved.config);
  const std::map<std::string, std::string> mine = configToMap(o.config);
  std::vector<std::string> conflicts;
  for (const std::string& key : o.given) {
    auto it = mine.find(key);
    if (it == mine.end() || merged[key] == it->second) continue;
    if (resumableKeys().contains(key)) {
      out << fmt::format("resume: --{} {} (checkpoint: {})\n", key, it->second, merged[key]);
      merged[key] = it->second;
    } else {
      conflicts.push_back(fmt::format("--{} {} (checkpoint: {})", key, it->second, merged[key]));
    }
  }
  if (!conflicts.empty()) {
    std::string list;
    for (const auto& c : conflicts) list += (list.empty() ? "" : ", ") + c;
    throw Error(fmt::format("--resume: options differ from the checkpoint's: {}; only --superbatches, --threads, "
                            "--backend, --torch-input, --qat and the data paths may change",
                            list));
  }
  TrainConfig c = configFromMap(merged);
  validateConfig(c);
  if (c.superbatches < saved.superbatch)
    throw Error(fmt::format("--resume: --superbatches {} is below the {} superbatches already done", c.superbatches,
                            saved.superbatch));
  if (c.threads != saved.config.threads)
    out << fmt::format("note: {} threads instead of the checkpoint's {}: the run continues, but not bit-identically\n",
                       c.threads, saved.config.threads);
  return c;
}

}  // namespace

std::string metricsCsv(const std::vector<MetricsRow>& rows) {
  std::string s = "superbatch,positions,train_loss,val_loss,lr,seconds\n";
  auto num = [](double v) { return std::isnan(v) ? std::string("nan") : fmt::format("{:.8g}", v); };
  for (const MetricsRow& r : rows)
    s += fmt::format("{},{},{},{},{},{:.3f}\n", r.superbatch, r.positions, num(r.trainLoss), num(r.valLoss), num(r.lr),
                     r.seconds);
  return s;
}

std::string lossSvg(const std::vector<MetricsRow>& rows, const std::string& title) {
  std::vector<ChartSeries> series = {{"train", "#1f77b4", {}}, {"validation", "#ff7f0e", {}}};
  for (const MetricsRow& r : rows) {
    series[0].points.emplace_back(r.superbatch, r.trainLoss);
    series[1].points.emplace_back(r.superbatch, r.valLoss);
  }
  return lineChartSvg(title, "superbatch", "loss (mean squared error)", series);
}

QuantisationError quantisationError(const FloatNetwork& net, std::span<const Sample> samples) {
  const QuantisedNetwork q = quantise(net, "");
  QuantisationError e;
  PieceSquare pieces[32];
  double sum = 0;
  for (const Sample& s : samples) {
    const int n = samplePieces(s, pieces);
    const std::span<const PieceSquare> ps(pieces, std::size_t(n));
    const double d = std::abs(double(evaluateFloat(net, ps, s.stm)) - evaluateQuantised(q, ps, s.stm));
    sum += d;
    e.maxCp = std::max(e.maxCp, d);
  }
  e.positions = samples.size();
  e.meanCp = samples.empty() ? 0.0 : sum / double(samples.size());
  return e;
}

FloatNetwork readInitNetwork(const std::string& path) {
  char magic[8] = {};
  {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error(fmt::format("train-nnue: --init '{}': cannot open: {}", path, std::strerror(errno)));
    in.read(magic, sizeof magic);
  }
  FloatNetwork net;
  if (std::string_view(magic, sizeof magic) == std::string_view(kCheckpointMagic, sizeof kCheckpointMagic))
    net = readCheckpoint(path).net;
  else
    net = dequantise(readNetFile(path));
  return net;
}

FloatNetwork initialNetwork(const std::string& path, const NetworkShape& shape, u64 seed) {
  FloatNetwork net = readInitNetwork(path);
  // Widening: a wider run starts from the same function (withHidden).
  if (shape.hidden > net.shape.hidden) net = withHidden(net, shape.hidden, seed);
  // The factoriser is a training device, not part of what the network computes: a king-bucket
  // file with or without it starts a run with or without it (withFactoriser keeps the function).
  if (net.shape.kingBuckets > 1) net = withFactoriser(net, shape.factoriser);
  // Net expansion: a trained net without king buckets is the start of every bucket.
  else if (shape.kingBuckets > 1) net = withKingBuckets(net, shape.kingBuckets, shape.factoriser);
  if (!(net.shape == shape))
    throw Error(fmt::format("train-nnue: --init '{}' is a {} network, but this run trains {} (set --hidden, --buckets, "
                            "--activation and --king-buckets to the file's)",
                            path, describeShape(net.shape), describeShape(shape)));
  return net;
}

NetworkShape shapeFromInit(const NetworkShape& shape, const NetworkShape& file, const std::set<std::string>& given) {
  NetworkShape s = shape;
  if (!given.contains("hidden")) s.hidden = file.hidden;
  if (!given.contains("buckets")) s.buckets = file.buckets;
  if (!given.contains("activation")) s.activation = file.activation;
  if (!given.contains("king-buckets")) s.kingBuckets = file.kingBuckets;
  return s;
}

TrainState initialState(const TrainConfig& config, std::span<const Sample> train) {
  validateConfig(config);
  TrainState s;
  s.config = config;
  s.net = config.init.empty() ? randomNetwork(config.shape, config.seed) : initialNetwork(config.init, config.shape, config.seed);
  s.adamM.assign(s.net.params.size(), 0.0f);
  s.adamV.assign(s.net.params.size(), 0.0f);
  s.dataHash = hashSamples(train);
  s.trainCount = train.size();
  return s;
}

RunResult runTraining(const RunOptions& o, std::ostream& out, std::ostream& progress) {
  using Clock = std::chrono::steady_clock;
  const auto tStart = Clock::now();
  auto since = [](Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); };
  if (o.outDir.empty()) throw Error("train-nnue: --out-dir must not be empty");
  const std::string checkpointPath = (fs::path(o.outDir) / "checkpoint.bin").string();

  // 1. Configuration: the options, or the checkpoint's on --resume.
  RunResult result;
  TrainState& state = result.state;
  TrainConfig config = o.config;
  if (o.resume) {
    if (!fs::exists(checkpointPath))
      throw Error(fmt::format("--resume: no checkpoint '{}' (run without --resume to start)", checkpointPath));
    state = readCheckpoint(checkpointPath);
    config = mergeResumeConfig(o, state, out);
    out << fmt::format("resuming '{}' after superbatch {}/{}\n", checkpointPath, state.superbatch, config.superbatches);
  } else {
    if (!config.init.empty()) {
      // Fine-tuning: the shape options not given are the --init network's.
      const NetworkShape file = readInitNetwork(config.init).shape;
      out << fmt::format("--init '{}': a {} network\n", config.init, describeShape(file));
      config.shape = shapeFromInit(config.shape, file, o.given);
    }
    validateConfig(config);
    if (fs::exists(checkpointPath))
      throw Error(fmt::format("'{}' already holds a checkpoint.bin: continue it with --resume or choose another --out-dir",
                              o.outDir));
  }
  WorkerPool pool(config.threads);
  GradientBackendOptions backendOptions{config.shape, config.threads, config.torchInput};
  std::unique_ptr<GradientBackend> backend = makeBackend(config.backend, backendOptions, pool);
  fs::create_directories(o.outDir);

  // 2. Data.
  LoadOptions load;
  load.files = config.data;
  load.validationFiles = config.validation;
  load.validationFraction = config.valFraction;
  load.maxScore = config.maxScore;
  load.seed = config.seed;
  load.limit = config.limit;
  load.keepNoisy = config.keepNoisy;
  load.mirror = config.mirror;
  out << fmt::format("loading {} training file(s){}\n", load.files.size(),
                     load.validationFiles.empty() ? fmt::format(", validation: {} of the games", config.valFraction)
                                                  : fmt::format(" and {} validation file(s)", load.validationFiles.size()));
  LoadedSamples data = loadSamples(load);
  out << describeLoad(data.stats);
  out << fmt::format("loaded in {} ({:.0f} MiB)\n", formatDuration(since(tStart)),
                     double((data.train.size() + data.validation.size()) * sizeof(Sample)) / (1 << 20));
  if (data.train.empty()) throw Error("train-nnue: no training positions left after filtering");
  out << fmt::format("score -> result fit on the training data: sigmoid(score / S) predicts the result best at S = "
                     "{:.0f} cp (--sigmoid-scale {})\n",
                     fitSigmoidScale(data.train), config.loss.sigmoidScale);
  result.trainPositions = data.train.size();
  result.validationPositions = data.validation.size();

  // 3. State: fresh or restored (then the data must be the checkpoint's).
  if (o.resume) {
    const u64 hash = hashSamples(data.train);
    if (hash != state.dataHash || data.train.size() != state.trainCount)
      throw Error(fmt::format("--resume: the training data differ from the checkpoint's ({} positions, hash {:016x}; "
                              "now {} positions, hash {:016x}): resume needs the same files, filters and seed",
                              state.trainCount, state.dataHash, data.train.size(), hash));
    state.config = config;
  } else {
    state = initialState(config, data.train);
  }

  Trainer trainer(state, data.train, data.validation, *backend, pool);
  out << fmt::format(
      "network {} ({} parameters); backend {} with {} thread(s)\n"
      "batch {} x {} batches per superbatch ({} positions), {} superbatches; AdamW lr {} ({}{}{}), wd {}\n"
      "loss: (sigmoid(out*{}/{}) - ({} * result + {} * sigmoid(score/{})))^2\n",
      describeShape(config.shape), config.shape.paramCount(), backend->name(), config.threads, trainer.batchSize(),
      trainer.batchesPerSuperbatch(), u64(trainer.batchSize()) * u64(trainer.batchesPerSuperbatch()), config.superbatches,
      config.lr, config.lrSchedule,
      config.lrSchedule == "cosine" ? fmt::format(" to {}", config.lrFinal) : std::string(),
      config.lrDropEvery > 0 ? fmt::format(", x{} every {} superbatches", config.lrGamma, config.lrDropEvery) : std::string(),
      config.wd, nnue::kEvalScale, config.loss.sigmoidScale, config.loss.lambda, 1 - config.loss.lambda,
      config.loss.sigmoidScale);
  if (config.qat)
    out << "quantisation-aware: passes and validation loss on the network rounded as exported (QA 255, QB "
        << outputScaleFor(std::span<const float>(state.net.params).subspan(config.shape.outWeightsOffset(),
                                                                          config.shape.outBiasOffset() -
                                                                              config.shape.outWeightsOffset()))
        << " now)\n";
  out << std::flush;
  if (!o.resume && !data.validation.empty())
    out << fmt::format("start: validation loss {}\n", lossText(trainer.validationLoss())) << std::flush;

  // 4. Superbatches.
  const std::string description = o.description.empty() ? defaultDescription(o.outDir) : o.description;
  const std::string title = fmt::format("train-nnue {}: {}", description, describeShape(config.shape));
  const int firstSuperbatch = state.superbatch;
  const auto tSession = Clock::now();
  double trainSeconds = 0;
  u64 trainedPositions = 0;
  while (state.superbatch < config.superbatches && (o.stopAfter <= 0 || state.superbatch - firstSuperbatch < o.stopAfter)) {
    const int k = state.superbatch + 1;
    auto lastDraw = Clock::now() - std::chrono::seconds(1);
    const MetricsRow row = trainer.runSuperbatch([&](const BatchProgress& b) {
      if (!o.tty || since(lastDraw) < 0.25) return;  // redraw at most 4 times a second
      lastDraw = Clock::now();
      progress << fmt::format("\rsuperbatch {}/{}  batch {}/{}  train {}  {} pos/s\x1b[K", k, config.superbatches,
                              b.batch, b.batches, lossText(b.loss), speedText(b.positionsPerSecond))
               << std::flush;
    });
    trainSeconds += trainer.lastTrainSeconds();
    trainedPositions += u64(trainer.batchSize()) * u64(trainer.batchesPerSuperbatch());
    writeCheckpoint(state, checkpointPath);
    writeText((fs::path(o.outDir) / "metrics.csv").string(), metricsCsv(state.metrics));
    writeText((fs::path(o.outDir) / "loss.svg").string(), lossSvg(state.metrics, title));
    const int done = state.superbatch - firstSuperbatch;
    const double eta = since(tSession) / done * (config.superbatches - state.superbatch);
    progress << fmt::format("{}superbatch {}/{}  train {}  val {}  lr {:.3g}  {} pos/s  elapsed {}  ETA {}{}\n",
                            o.tty ? "\r" : "", k, config.superbatches, lossText(row.trainLoss), lossText(row.valLoss),
                            row.lr, speedText(trainer.lastPositionsPerSecond()), formatDuration(state.seconds),
                            formatDuration(eta), o.tty ? "\x1b[K" : "")
             << std::flush;
  }
  result.positionsPerSecond = trainSeconds > 0 ? double(trainedPositions) / trainSeconds : 0.0;
  if (trainedPositions > 0)
    out << fmt::format("speed: {:.0f} positions/s ({} positions in {:.2f} s of training steps; backend {}, {} threads)\n",
                       result.positionsPerSecond, trainedPositions, trainSeconds, backend->name(), config.threads);

  // 5. The quantised network, once the run is complete.
  if (state.superbatch < config.superbatches) {
    out << fmt::format("stopped after superbatch {}/{}: continue with --resume --out-dir {}\n", state.superbatch,
                       config.superbatches, o.outDir);
    return result;
  }
  const QuantisedNetwork q = quantise(state.net, description);
  result.netPath = writeNetFile(q, o.outDir + "/");
  const std::span<const Sample> check = data.validation.empty() ? std::span<const Sample>(data.train)
                                                                : std::span<const Sample>(data.validation);
  const QuantisationError qe = quantisationError(state.net, check.first(std::min<std::size_t>(check.size(), 2000)));
  out << fmt::format("wrote {} ({}, description '{}'); quantised vs float eval over {} positions: mean {:.2f} cp, "
                     "max {:.2f} cp{}\n",
                     result.netPath, describeShape(config.shape), description, qe.positions, qe.meanCp, qe.maxCp,
                     config.qat ? " (--qat: the float weights are the optimiser's; the network is the rounded one)" : "");
  return result;
}

std::vector<double> evaluateNetworks(const TrainConfig& config, const std::vector<std::string>& networks,
                                     std::ostream& out) {
  if (networks.empty()) throw Error("train-nnue --evaluate: no network given");
  LoadOptions load;
  load.files = config.data;
  load.validationFraction = 0;  // every kept position is evaluated
  load.maxScore = config.maxScore;
  load.limit = config.limit;
  load.keepNoisy = config.keepNoisy;
  LoadedSamples data = loadSamples(load);
  out << describeLoad(data.stats);
  if (data.train.empty()) throw Error("train-nnue --evaluate: no positions left after filtering");
  WorkerPool pool(config.threads);
  std::vector<double> losses;
  for (const std::string& path : networks) {
    const FloatNetwork net = readInitNetwork(path);
    SparseBackend backend(net.shape, pool);
    losses.push_back(meanLoss(backend, net, data.train, config.loss));
    out << fmt::format("{}: loss {:.6f} over {} positions ({}, lambda {}, sigmoid scale {} cp)\n", path,
                       losses.back(), data.train.size(), describeShape(net.shape), config.loss.lambda,
                       config.loss.sigmoidScale);
  }
  return losses;
}

std::string exportCheckpoint(const std::string& checkpointPath, const std::string& output,
                             const std::string& description, std::ostream& out) {
  const TrainState state = readCheckpoint(checkpointPath);
  const std::string desc =
      description.empty() ? defaultDescription(fs::path(checkpointPath).parent_path().string()) : description;
  const QuantisedNetwork q = quantise(state.net, desc);
  const std::string path = writeNetFile(q, output);
  out << fmt::format("wrote {} ({}, superbatch {}/{}, description '{}')\n", path, describeShape(state.net.shape),
                     state.superbatch, state.config.superbatches, desc);
  return path;
}

}  // namespace janus::training
