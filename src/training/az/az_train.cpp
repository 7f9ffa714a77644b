// One train-az run (az_train.h).

#include "training/az/az_train.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <numbers>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "mcts/pvnet.h"
#include "training/az/az_checkpoint.h"
#include "training/az/az_model.h"
#include "training/az/az_net.h"
#include "training/report.h"
#include "util/duration.h"
#include "util/error.h"
#include "util/hash.h"
#include "util/zstd_stream.h"

namespace janus::training::az {

namespace fs = std::filesystem;

namespace {

const std::set<std::string>& resumableKeys() {
  static const std::set<std::string> keys = {"epochs", "threads", "data", "validation", "policy-head", "memory-mib"};
  return keys;
}

void validate(const AzConfig& c) {
  if (c.batch < 1) throw Error("train-az: --batch must be at least 1");
  if (c.epochs < 1) throw Error("train-az: --epochs must be at least 1");
  if (!(c.lr > 0) || !(c.lrFinal >= 0)) throw Error("train-az: --lr must be positive and --lr-final not negative");
  if (c.lrSchedule != "cosine" && c.lrSchedule != "step" && c.lrSchedule != "constant")
    throw Error(fmt::format("train-az: --lr-schedule '{}' is not one of cosine, step, constant", c.lrSchedule));
  if (c.lrSchedule == "step" && c.lrDropEvery < 1) throw Error("train-az: --lr-schedule step needs --lr-drop-every >= 1");
  if (!(c.wd >= 0)) throw Error("train-az: --wd must not be negative");
  if (!(c.policyWeight >= 0) || !(c.valueWeight >= 0) || c.policyWeight + c.valueWeight <= 0)
    throw Error("train-az: --policy-weight and --value-weight must not be negative, and not both 0");
  if (c.threads < 1) throw Error("train-az: --threads must be at least 1");
  if (c.memoryMib < 1) throw Error("train-az: --memory-mib must be at least 1");
  (void)parsePolicyHead(c.policyHead);
  if (c.arch != "pvnet" && c.arch != "resnet" && !isValueArch(c.arch))
    throw Error(fmt::format("train-az: --arch '{}' is not one of pvnet, resnet, value-mlp, value-cnn", c.arch));
  if (c.arch == "resnet") (void)resnetArch(c.blocks, c.filters, c.se);
  if (isValueArch(c.arch)) (void)valueArch(c.arch, c.hiddenLayers, c.convFilters, c.convKernel, c.activation);
  if (!mcts::pvnet::validSizes(c.hidden, c.valueHidden))
    throw Error(fmt::format("train-az: --hidden {} / --value-hidden {}: hidden must be {}..{} and a multiple of 16, value "
                            "hidden {}..{} and a multiple of 8",
                            c.hidden, c.valueHidden, mcts::pvnet::kMinHidden, mcts::pvnet::kMaxHidden,
                            mcts::pvnet::kMinValueHidden, mcts::pvnet::kMaxValueHidden));
}

/// Options of the command line (AzRunOptions::given) that `arch` does not use: a clear error
/// rather than an option silently ignored.
void checkArchOptions(const std::string& arch, const std::set<std::string>& given, bool init) {
  static const std::map<std::string, std::set<std::string>> own = {
      {"pvnet", {"hidden", "value-hidden"}},
      {"resnet", {"blocks", "filters", "se"}},
      {"value-mlp", {"hidden-layers", "activation"}},
      {"value-cnn", {"hidden-layers", "activation", "conv-filters", "conv-kernel"}}};
  // Options of the policy/value archs that the value-only ones have no use for.
  static const std::set<std::string> policyValue = {"policy-weight", "value-weight", "policy-head"};
  std::set<std::string> others;
  for (const auto& [a, keys] : own)
    if (a != arch) others.insert(keys.begin(), keys.end());
  for (const auto& key : own.at(arch)) others.erase(key);
  if (isValueArch(arch)) others.insert(policyValue.begin(), policyValue.end());
  std::string bad;
  for (const std::string& key : given)
    if (others.contains(key)) bad += fmt::format("{}--{}", bad.empty() ? "" : ", ", key);
  if (!bad.empty())
    throw Error(fmt::format("train-az: {} {} not apply to --arch {}", bad, bad.find(',') == std::string::npos ? "does" : "do",
                            arch));
  if (init && arch != "pvnet")
    throw Error(fmt::format("train-az: --init takes a pvnet network (.jpv); --arch {} starts from random weights", arch));
}

double learningRate(const AzConfig& c, u64 step, u64 totalSteps, int epoch) {
  double lr = c.lr;
  if (c.lrSchedule == "cosine" && totalSteps > 1)
    lr = c.lrFinal + (c.lr - c.lrFinal) * 0.5 * (1 + std::cos(std::numbers::pi * double(step) / double(totalSteps - 1)));
  if (c.lrDropEvery > 0) lr *= std::pow(c.lrGamma, double(epoch / c.lrDropEvery));
  return lr;
}

void setLearningRate(torch::optim::AdamW& opt, double lr) {
  for (auto& group : opt.param_groups()) static_cast<torch::optim::AdamWOptions&>(group.options()).lr(lr);
}

/// Writes `text` to `path` atomically (OutputFile: temporary name, fsync, rename).
void writeText(const std::string& path, const std::string& text) {
  OutputFile out(path, false);
  out << text;
  out.commit();
}

/// The network file's description by default: the name of the output directory (23 bytes at most).
std::string defaultDescription(const std::string& dir) {
  std::string name = fs::path(dir).lexically_normal().filename().string();
  if (name.empty() || name == "." || name == "..") name = fs::absolute(dir).lexically_normal().filename().string();
  return name.substr(0, 23);
}

// ---- The run ------------------------------------------------------------------------------------

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

/// Step 1: the run's configuration: the options, or on --resume the checkpoint's with the given
/// options checked (only resumableKeys() may change). Throws for conflicts, a missing checkpoint
/// with --resume, or an existing one without it.
AzConfig runConfig(const AzRunOptions& o, const std::string& checkpointPath, std::ostream& out) {
  if (!o.resume) {
    validate(o.config);
    if (fs::exists(checkpointPath))
      throw Error(fmt::format("'{}' already holds a {}: continue it with --resume or choose another --out-dir", o.outDir,
                              kCheckpointName));
    return o.config;
  }
  if (!fs::exists(checkpointPath))
    throw Error(fmt::format("--resume: no checkpoint '{}' (run without --resume to start)", checkpointPath));
  const RunState saved = loadCheckpoint(checkpointPath, nullptr, nullptr);
  std::map<std::string, std::string> merged = configToMap(saved.config);
  const std::map<std::string, std::string> mine = configToMap(o.config);
  std::string conflicts;
  for (const std::string& key : o.given) {
    auto it = mine.find(key);
    if (it == mine.end() || merged[key] == it->second) continue;
    if (resumableKeys().contains(key)) {
      out << fmt::format("resume: --{} {} (checkpoint: {})\n", key, it->second, merged[key]);
      merged[key] = it->second;
    } else {
      conflicts += fmt::format("{}--{} {} (checkpoint: {})", conflicts.empty() ? "" : ", ", key, it->second, merged[key]);
    }
  }
  if (!conflicts.empty())
    throw Error(fmt::format("--resume: options differ from the checkpoint's: {}; only --epochs, --threads, --data, "
                            "--validation, --policy-head and --memory-mib may change",
                            conflicts));
  AzConfig config = configFromMap(merged);
  validate(config);
  if (config.epochs < saved.epoch)
    throw Error(fmt::format("--resume: --epochs {} is below the {} epochs already done", config.epochs, saved.epoch));
  out << fmt::format("resuming '{}' after epoch {}/{}\n", checkpointPath, saved.epoch, config.epochs);
  return config;
}

/// Step 2: the samples (az_data.h), described on `out` with the WDL model fitted on them.
LoadedData loadRunData(const AzConfig& config, std::ostream& out) {
  LoadOptions load;
  load.files = config.data;
  load.validationFiles = config.validation;
  load.valFraction = config.valFraction;
  load.seed = config.seed;
  load.value = config.value;
  load.pgnSkipPlies = config.pgnSkipPlies;
  load.limit = config.limit;
  load.memoryBudgetBytes = config.memoryMib << 20;
  load.threads = config.threads;
  LoadedData data = loadData(load);
  out << describeLoad(data.stats, data.train.bytes() + data.validation.bytes());
  if (data.train.empty()) throw Error("train-az: no training positions");
  if (data.train.size() > std::numeric_limits<std::uint32_t>::max())
    throw Error("train-az: more than 2^32 training positions; use --limit");
  const auto [fitA, fitB] = fitWdlModel(data.stats.scoreResult);
  out << fmt::format(
      "value target: {} x result + {} x WDL(score) with win = 1/(1+exp((a-cp)/b)), loss = 1/(1+exp((a+cp)/b)), a = {}, "
      "b = {} (--wdl-a, --wdl-b); maximum-likelihood fit on these data: a = {}, b = {}\n",
      config.value.lambda, 1 - config.value.lambda, config.value.wdlA, config.value.wdlB, fitA, fitB);
  return data;
}

/// Value-only archs: the MSE of predicting the training set's mean expected score W + D/2 for
/// every position, on the training and validation sets (the scale of the value MSE).
void reportMeanBaseline(const LoadedData& data, AzRunResult& result, std::ostream& out) {
  auto expected = [](const SampleView& v) { return double(v.wdl[0]) + 0.5 * double(v.wdl[1]); };
  double sum = 0;
  for (std::size_t i = 0; i < data.train.size(); ++i) sum += expected(data.train[i]);
  const double mean = sum / double(data.train.size());
  auto mse = [&](const Dataset& d) {
    if (d.empty()) return std::numeric_limits<double>::quiet_NaN();
    double sq = 0;
    for (std::size_t i = 0; i < d.size(); ++i) sq += (expected(d[i]) - mean) * (expected(d[i]) - mean);
    return sq / double(d.size());
  };
  result.meanBaselineTrainMse = mse(data.train);
  result.meanBaselineValMse = mse(data.validation);
  out << fmt::format("trivial baseline: predicting the training mean expected score {:.4f} gives MSE {:.6f} "
                     "(training), {:.6f} (validation)\n",
                     mean, result.meanBaselineTrainMse, result.meanBaselineValMse);
}

/// The run's state at the start of this session: fresh, or (--resume) the checkpoint's model,
/// optimiser and counters, which must have been trained on the same data.
RunState startState(const AzRunOptions& o, const std::string& checkpointPath, const AzConfig& config,
                    const Dataset& train, Net& net, torch::optim::AdamW& optimizer) {
  RunState state;
  const u64 dataHash = train.hash();
  if (o.resume) {
    state = loadCheckpoint(checkpointPath, &net.module(), &optimizer);
    if (dataHash != state.dataHash || train.size() != state.trainCount)
      throw Error(fmt::format("--resume: the training data differ from the checkpoint's ({} positions, hash {:016x}; now "
                              "{} positions, hash {:016x}): resume needs the same files, options and seed",
                              state.trainCount, state.dataHash, train.size(), dataHash));
  } else {
    state.dataHash = dataHash;
    state.trainCount = train.size();
  }
  state.config = config;
  return state;
}

/// How an epoch is cut into steps.
struct EpochPlan {
  u64 positions = 0;     ///< training positions per epoch
  u64 steps = 0;         ///< optimiser steps per epoch
  u64 totalSteps = 0;    ///< of the whole run
};

/// The network, batch, schedule and loss of the run, one block of `out`.
void describeRun(Net& net, const AzConfig& config, const EpochPlan& plan, std::ostream& out) {
  out << fmt::format(
      "{}{}; torch {} thread(s)\n"
      "batch {} x {} steps per epoch, {} epochs; AdamW lr {} ({}{}{}), wd {}; loss {}\n",
      net.describe(), net.valueOnly() ? std::string() : fmt::format("; policy head {}", config.policyHead),
      config.threads, config.batch, plan.steps, config.epochs, config.lr, config.lrSchedule,
      config.lrSchedule == "cosine" ? fmt::format(" to {}", config.lrFinal) : std::string(),
      config.lrDropEvery > 0 ? fmt::format(", x{} every {} epochs", config.lrGamma, config.lrDropEvery) : std::string(),
      config.wd,
      net.valueOnly() ? std::string("MSE of the expected score W + D/2 (value-only)")
                      : fmt::format("{} x policy CE + {} x value CE", config.policyWeight, config.valueWeight));
}

/// The training positions in the order the run takes them: pass p over the training set in the
/// order of a permutation drawn from (seed, p), so a resumed run continues at the same place.
class PositionStream {
 public:
  PositionStream(u64 n, u64 seed) : m_n(n), m_seed(seed) {}
  /// Index (into the training set) of stream position `pos`.
  std::uint32_t at(u64 pos) {
    const u64 pass = pos / m_n;
    if (pass != m_pass) {
      m_perm.resize(m_n);
      std::iota(m_perm.begin(), m_perm.end(), 0u);
      std::mt19937_64 rng(splitmix64(m_seed ^ splitmix64(pass + 1)));
      std::shuffle(m_perm.begin(), m_perm.end(), rng);
      m_pass = pass;
    }
    return m_perm[pos % m_n];
  }

 private:
  u64 m_n, m_seed;
  u64 m_pass = ~u64(0);
  std::vector<std::uint32_t> m_perm;
};

/// The optimiser steps of epoch state.epoch + 1: returns its row with the training losses and the
/// learning rate filled in (validation is finishEpoch's). Redraws a progress line when `tty`.
AzMetrics trainEpoch(Net& net, torch::optim::AdamW& optimizer, const Dataset& train, PositionStream& stream,
                     RunState& state, const EpochPlan& plan, PolicyHead head, bool tty, std::ostream& progress) {
  const AzConfig& config = state.config;
  AzMetrics row;
  row.epoch = state.epoch + 1;
  double lossSum = 0, policySum = 0, valueSum = 0;
  const auto tEpoch = Clock::now();
  auto lastDraw = Clock::now() - std::chrono::seconds(1);
  std::vector<std::uint32_t> idx;
  for (u64 s = 0; s < plan.steps; ++s) {
    const u64 size = std::min<u64>(u64(config.batch), plan.positions - s * u64(config.batch));
    idx.resize(size);
    for (u64 i = 0; i < size; ++i) idx[i] = stream.at(state.stream + i);
    state.stream += size;
    const Batch b = net.batch(train, idx, head);
    const double lr = learningRate(config, state.step, plan.totalSteps, state.epoch);
    if (s == 0) row.lr = lr;
    setLearningRate(optimizer, lr);
    optimizer.zero_grad();
    const LossParts p = net.loss(b, head, config.policyWeight, config.valueWeight, false);
    p.loss.backward();
    optimizer.step();
    ++state.step;
    const double loss = p.loss.item<double>();
    if (!std::isfinite(loss))
      throw Error(fmt::format("train-az: the loss became {} at step {} (lr {}): lower --lr", loss, state.step, lr));
    lossSum += loss;
    policySum += p.policyCe.item<double>();
    valueSum += p.valueCe.item<double>();
    if (tty && since(lastDraw) >= 0.25) {
      lastDraw = Clock::now();
      const double rate = double((s + 1) * u64(config.batch)) / since(tEpoch);
      progress << fmt::format("\repoch {}/{}  step {}/{}  loss {}  {} pos/s\x1b[K", row.epoch, config.epochs, s + 1,
                              plan.steps, lossText(lossSum / double(s + 1)), speedText(rate))
               << std::flush;
    }
  }
  row.positions = state.stream;
  row.trainLoss = lossSum / double(plan.steps);
  row.trainPolicyCe = policySum / double(plan.steps);
  row.trainValueCe = valueSum / double(plan.steps);
  return row;
}

/// The session's timing, for the epoch lines.
struct SessionClock {
  Clock::time_point start = Clock::now();
  int firstEpoch = 0;  ///< epochs done when the session started
};

/// After an epoch's steps (which took `epochSeconds`): validation, then the epoch is recorded
/// (state, checkpoint, metrics.csv, loss.svg) and its line printed on `progress`.
void finishEpoch(Net& net, torch::optim::AdamW& optimizer, const Dataset& validation, AzMetrics row, RunState& state,
                 PolicyHead head, double epochSeconds, const EpochPlan& plan, const AzRunOptions& o,
                 const std::string& checkpointPath, const std::string& title, const SessionClock& session,
                 std::ostream& progress) {
  const AzConfig& config = state.config;
  state.seconds += epochSeconds;
  const AzMetrics v = validationMetrics(net, validation, config, head);
  row.valLoss = v.valLoss, row.valPolicyCe = v.valPolicyCe, row.valValueCe = v.valValueCe;
  row.valAccuracy = v.valAccuracy, row.valValueMse = v.valValueMse;
  row.seconds = state.seconds;
  state.metrics.push_back(row);
  state.epoch = row.epoch;
  saveCheckpoint(checkpointPath, net.module(), optimizer, state);
  writeText((fs::path(o.outDir) / "metrics.csv").string(), metricsCsv(state.metrics));
  writeText((fs::path(o.outDir) / "loss.svg").string(), lossSvg(state.metrics, title, net.valueOnly()));
  const double eta = since(session.start) / (state.epoch - session.firstEpoch) * (config.epochs - state.epoch);
  progress << fmt::format(
                  "{}epoch {}/{}  {}  lr {:.3g}  {} pos/s  elapsed {}  ETA {}{}\n", o.tty ? "\r" : "", row.epoch,
                  config.epochs,
                  net.valueOnly()
                      ? fmt::format("train MSE {}  validation MSE {}", lossText(row.trainLoss), lossText(row.valLoss))
                      : fmt::format("train {} (policy {}, value {})  val {} (policy {}, value {})  top-1 {:.1f}%  "
                                    "value MSE {:.4f}",
                                    lossText(row.trainLoss), lossText(row.trainPolicyCe), lossText(row.trainValueCe),
                                    lossText(row.valLoss), lossText(row.valPolicyCe), lossText(row.valValueCe),
                                    100 * row.valAccuracy, row.valValueMse),
                  row.lr, speedText(double(plan.positions) / epochSeconds), formatDuration(state.seconds),
                  formatDuration(eta), o.tty ? "\x1b[K" : "")
           << std::flush;
}

/// Step 5: the network file, checked against the torch model (none for value-only archs).
void writeNetwork(Net& net, const AzConfig& config, const AzRunOptions& o, const std::string& description,
                  const std::string& checkpointPath, AzRunResult& result, std::ostream& out) {
  if (net.valueOnly()) {
    out << fmt::format("--arch {} is a value-only research baseline: no network file (the weights are in {})\n",
                       config.arch, checkpointPath);
    return;
  }
  result.netPath = net.write(o.outDir + "/", description);
  result.maxExportDifference = exportDifference(net, result.netPath, config.seed);
  out << fmt::format("wrote {} (description '{}'); engine vs torch logits over 8 random games: max |difference| {:.2e}\n",
                     result.netPath, description, result.maxExportDifference);
  if (result.maxExportDifference > 1e-3)
    throw Error(fmt::format("train-az: the exported network differs from the torch model by {} (a logit): the export "
                            "or the engine's inference is wrong",
                            result.maxExportDifference));
}

}  // namespace

AzRunResult runAzTraining(const AzRunOptions& o, std::ostream& out, std::ostream& progress) {
  if (o.outDir.empty()) throw Error("train-az: --out-dir must not be empty");
  const std::string checkpointPath = (fs::path(o.outDir) / kCheckpointName).string();

  // 1. Configuration.
  const AzConfig config = runConfig(o, checkpointPath, out);
  checkArchOptions(config.arch, o.given, !o.resume && !o.init.empty());
  const PolicyHead head = parsePolicyHead(config.policyHead);
  torch::set_num_threads(config.threads);
  fs::create_directories(o.outDir);

  // 2. Data.
  const LoadedData data = loadRunData(config, out);
  AzRunResult result;
  result.trainPositions = data.train.size();
  result.validationPositions = data.validation.size();

  // 3. Model and optimiser, fresh or restored.
  torch::manual_seed(config.seed);
  Net net = makeNet(config);
  torch::optim::AdamW optimizer(net.module().parameters(), torch::optim::AdamWOptions(config.lr)
                                                         .betas({0.9, 0.999})
                                                         .eps(1e-8)
                                                         .weight_decay(config.wd));
  if (!o.resume && !o.init.empty()) {
    if (net.resnet()) throw Error("train-az: --init takes a pvnet network (.jpv); --arch resnet starts from random weights");
    const auto init = mcts::pvnet::PvNetwork::fromFile(o.init);
    importWeights(net.pv, init->weights());
    out << fmt::format("initial weights: {}\n", init->describe());
  }
  result.parameters = net.parameters();
  if (net.valueOnly()) reportMeanBaseline(data, result, out);
  RunState state = startState(o, checkpointPath, config, data.train, net, optimizer);
  EpochPlan plan;
  plan.positions = config.epochPositions > 0 ? config.epochPositions : data.train.size();
  plan.steps = (plan.positions + u64(config.batch) - 1) / u64(config.batch);
  plan.totalSteps = plan.steps * u64(config.epochs);
  describeRun(net, config, plan, out);
  if (!o.resume && !data.validation.empty()) {
    const AzMetrics v = validationMetrics(net, data.validation, config, head);
    if (net.valueOnly()) out << fmt::format("start: validation MSE {}\n", lossText(v.valLoss));
    else
      out << fmt::format("start: validation loss {} (policy {}, value {})\n", lossText(v.valLoss),
                         lossText(v.valPolicyCe), lossText(v.valValueCe));
  }
  out << std::flush;

  // 4. Epochs.
  const std::string description = o.description.empty() ? defaultDescription(o.outDir) : o.description;
  const std::string title =
      net.valueOnly() ? fmt::format("train-az {}: {} (value MSE)", description, config.arch)
      : net.resnet() ? fmt::format("train-az {}: resnet {}x{}{}", description, config.blocks, config.filters,
                                 config.se ? " SE" : "")
                   : fmt::format("train-az {}: 772-{}-{}, policy 1858", description, config.hidden, config.valueHidden);
  PositionStream stream(data.train.size(), config.seed);
  const SessionClock session{Clock::now(), state.epoch};
  double trainSeconds = 0;
  u64 trainedPositions = 0;
  while (state.epoch < config.epochs && (o.stopAfter <= 0 || state.epoch - session.firstEpoch < o.stopAfter)) {
    const auto tEpoch = Clock::now();
    const AzMetrics row = trainEpoch(net, optimizer, data.train, stream, state, plan, head, o.tty, progress);
    const double epochSeconds = since(tEpoch);
    trainSeconds += epochSeconds;
    trainedPositions += plan.positions;
    finishEpoch(net, optimizer, data.validation, row, state, head, epochSeconds, plan, o, checkpointPath, title, session,
                progress);
  }
  result.metrics = state.metrics;
  result.positionsPerSecond = trainSeconds > 0 ? double(trainedPositions) / trainSeconds : 0.0;
  if (trainedPositions > 0)
    out << fmt::format("speed: {:.0f} positions/s ({} positions in {:.1f} s of training steps and validation; {} "
                       "thread(s))\n",
                       result.positionsPerSecond, trainedPositions, trainSeconds, config.threads);
  if (state.epoch < config.epochs) {
    out << fmt::format("stopped after epoch {}/{}: continue with --resume --out-dir {}\n", state.epoch, config.epochs,
                       o.outDir);
    return result;
  }

  // 5. The network file.
  writeNetwork(net, config, o, description, checkpointPath, result, out);
  return result;
}

std::vector<AzEvaluation> evaluateAzNetworks(AzConfig config, const std::vector<std::string>& nets, std::ostream& out) {
  if (nets.empty()) throw Error("train-az: --evaluate needs at least one network file");
  if (config.arch != "pvnet") throw Error(fmt::format("train-az: --evaluate takes pvnet networks (.jpv), not --arch {}", config.arch));
  config.valFraction = 0;
  config.validation.clear();
  const PolicyHead head = parsePolicyHead(config.policyHead);
  torch::set_num_threads(config.threads);
  const LoadedData data = loadRunData(config, out);
  std::vector<AzEvaluation> result;
  out << fmt::format("{:<40} {:>10} {:>10} {:>7} {:>10} {:>10}\n", "network", "positions", "policy CE", "top-1",
                     "value CE", "value MSE");
  for (const std::string& path : nets) {
    const auto file = mcts::pvnet::PvNetwork::fromFile(path);
    AzConfig c = config;
    c.hidden = file->hidden();
    c.valueHidden = file->valueHidden();
    Net net = makeNet(c);
    importWeights(net.pv, file->weights());
    AzEvaluation e{path, validationMetrics(net, data.train, c, head), u64(data.train.size())};
    out << fmt::format("{:<40} {:>10} {:>10.4f} {:>6.1f}% {:>10.4f} {:>10.4f}\n", fs::path(path).filename().string(),
                       e.positions, e.metrics.valPolicyCe, 100 * e.metrics.valAccuracy, e.metrics.valValueCe,
                       e.metrics.valValueMse)
        << std::flush;
    result.push_back(std::move(e));
  }
  return result;
}

void writeEvaluationCsv(const std::string& path, const std::vector<AzEvaluation>& evaluations) {
  OutputFile out(path, false);
  out << kEvaluationCsvHeader << "\n";
  for (const AzEvaluation& e : evaluations)
    out << fmt::format("{},{},{:.6f},{:.6f},{:.6f},{:.6f}\n", e.net, e.positions, e.metrics.valPolicyCe,
                       e.metrics.valAccuracy, e.metrics.valValueCe, e.metrics.valValueMse);
  out.commit();
}

std::string exportAzCheckpoint(const std::string& checkpointPath, const std::string& output,
                               const std::string& description, std::ostream& out) {
  const RunState header = loadCheckpoint(checkpointPath, nullptr, nullptr);
  if (isValueArch(header.config.arch))
    throw Error(fmt::format("train-az: --export: '{}' holds a value-only baseline (--arch {}): it has no network file "
                            "format and the engine cannot use it",
                            checkpointPath, header.config.arch));
  Net net = makeNet(header.config);
  (void)loadCheckpoint(checkpointPath, &net.module(), nullptr);
  const std::string desc =
      description.empty() ? defaultDescription(fs::path(checkpointPath).parent_path().string()) : description;
  if (!output.empty() && output.back() == '/') fs::create_directories(output);
  const std::string path = net.write(output, desc);
  out << fmt::format("wrote {} ({}, epoch {}/{}, description '{}')\n", path, net.describe(), header.epoch,
                     header.config.epochs, desc);
  return path;
}

}  // namespace janus::training::az
