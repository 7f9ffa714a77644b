// One train-az run (az_train.h).

#include "training/az/az_train.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <numbers>
#include <numeric>
#include <random>
#include <sstream>
#include <thread>

#include <fmt/format.h>

#include "core/movegen.h"
#include "datagen/generator.h"
#include "datagen/record.h"
#include "encoding/planes.h"
#include "mcts/pvnet.h"
#include "mcts/rn_file.h"
#include "training/az/az_model.h"
#include "training/report.h"
#include "tune/tuner.h"
#include "util/error.h"
#include "util/hash.h"
#include "util/zstd_stream.h"

namespace janus::training::az {

namespace fs = std::filesystem;

namespace {

constexpr const char* kCheckpointName = "checkpoint.pt";
constexpr int kCheckpointVersion = 1;

std::string joinList(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ",") + x;
  return s;
}

std::vector<std::string> splitList(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string part; std::getline(in, part, ',');)
    if (!part.empty()) out.push_back(part);
  return out;
}

std::string joinInts(const std::vector<int>& v) {
  std::string s;
  for (int x : v) s += fmt::format("{}{}", s.empty() ? "" : ",", x);
  return s;
}

/// Throws std::invalid_argument (caught by configFromMap) for a non-number.
std::vector<int> splitInts(const std::string& s) {
  std::vector<int> out;
  for (const std::string& part : splitList(s)) out.push_back(std::stoi(part));
  return out;
}

/// Options that may differ from the checkpoint's on --resume (the data are checked by their hash).
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

/// The network being trained: the sparse pvnet or the residual network (AzConfig::arch). One
/// loss (lossFromLogits) serves both.
struct Net {
  PvModel pv{nullptr};
  mcts::rn::ResNet rn{nullptr};
  ValueNet value{nullptr};  ///< the value-only baselines (MSE loss instead)

  [[nodiscard]] bool resnet() const { return !rn.is_empty(); }
  [[nodiscard]] bool valueOnly() const { return !value.is_empty(); }
  torch::nn::Module& module() {
    if (valueOnly()) return *value;
    return resnet() ? static_cast<torch::nn::Module&>(*rn) : *pv;
  }
  LossParts loss(const Batch& b, PolicyHead head, double policyWeight, double valueWeight, bool metrics) {
    if (valueOnly()) return computeLoss(value, b, metrics);
    return resnet() ? computeLoss(rn, b, head, policyWeight, valueWeight, metrics)
                    : computeLoss(pv, b, head, policyWeight, valueWeight, metrics);
  }
  Batch batch(const Dataset& data, std::span<const std::uint32_t> idx, PolicyHead head) const {
    return makeBatch(data, idx, head, resnet() || valueOnly());
  }
  [[nodiscard]] std::size_t parameters() {
    std::size_t n = 0;
    for (const auto& p : module().parameters()) n += std::size_t(p.numel());
    return n;
  }
  /// One line: the architecture and the parameter count.
  std::string describe() {
    const std::size_t params = parameters();
    if (valueOnly()) {
      const ValueArch& a = value->arch;
      std::string layers;
      for (int f : a.convFilters) layers += fmt::format(" -> conv{}x{} {}", a.convKernel, a.convKernel, f);
      if (!a.convFilters.empty()) layers += fmt::format(" -> flatten {}", a.convFilters.back() * 64);
      for (int h : a.hidden) layers += fmt::format(" -> {}", h);
      return fmt::format("value-only {} {} planes x 8 x 8{} -> 1, {}, sigmoid; loss MSE on W + D/2 ({} parameters, "
                         "no network file)",
                         a.kind == ValueArch::Kind::kMlp ? "MLP" : "CNN", kValuePlanes.size(), layers,
                         a.activation == ValueArch::Activation::kElu ? "ELU" : "ReLU", params);
    }
    if (resnet())
      return fmt::format("residual network {} planes -> {} blocks x {} filters{} -> policy {}, value WDL ({} parameters, "
                         "batch normalisation folded at export)",
                         rn->arch.inputPlanes, rn->arch.blocks, rn->arch.filters,
                         rn->arch.seChannels ? fmt::format(", SE {}", rn->arch.seChannels) : std::string(),
                         mcts::rn::kPolicySize, params);
    return fmt::format("network 772 -> {} -> value {} -> 3, policy {} ({} parameters)", pv->hidden, pv->valueHidden,
                       mcts::pvnet::kPolicySize, params);
  }
  /// Writes the network file (pv-<hash>.jpv or rn-<hash>.jrn; see writePvFile/writeRnFile for `path`).
  std::string write(const std::string& path, const std::string& description) {
    if (valueOnly())
      throw Error("train-az: the value-only baselines (--arch value-mlp, value-cnn) have no network file: the engine "
                  "cannot use a network without a policy head");
    if (resnet()) {
      rn->eval();
      const std::string written = mcts::rn::writeRnFile(mcts::rn::exportWeights(rn), path, description);
      rn->train();
      return written;
    }
    return mcts::pvnet::writePvFile(exportWeights(pv), path, description);
  }
};

Net makeNet(const AzConfig& c) {
  Net net;
  if (c.arch == "resnet") net.rn = mcts::rn::ResNet(resnetArch(c.blocks, c.filters, c.se), true);
  else if (isValueArch(c.arch))
    net.value = ValueNet(valueArch(c.arch, c.hiddenLayers, c.convFilters, c.convKernel, c.activation));
  else net.pv = PvModel(c.hidden, c.valueHidden);
  return net;
}

void writeText(const std::string& path, const std::string& text) {
  OutputFile out(path, false);
  out << text;
  out.commit();
}

/// fsync(2) of a file or directory; throws janus::Error naming it.
void syncPath(const std::string& path, bool directory) {
  const int fd = ::open(path.c_str(), directory ? O_RDONLY | O_DIRECTORY : O_RDONLY);
  if (fd < 0) throw Error(fmt::format("cannot open '{}' to sync it: {}", path, std::strerror(errno)));
  const int rc = ::fsync(fd);
  ::close(fd);
  if (rc != 0) throw Error(fmt::format("cannot sync '{}': {}", path, std::strerror(errno)));
}

/// The mutable part of a run, saved with the weights.
struct RunState {
  AzConfig config;
  int epoch = 0;       ///< epochs done
  u64 stream = 0;      ///< training positions taken from the shuffled stream so far
  u64 step = 0;        ///< optimiser steps done
  double seconds = 0;  ///< training time of all sessions
  u64 dataHash = 0, trainCount = 0;
  std::vector<AzMetrics> metrics;
};

std::string stateText(const RunState& s) {
  std::string t = fmt::format("version={}\nepoch={}\nstream={}\nstep={}\nseconds={:.17g}\ndata-hash={}\ntrain-count={}\n",
                              kCheckpointVersion, s.epoch, s.stream, s.step, s.seconds, s.dataHash, s.trainCount);
  for (const auto& [k, v] : configToMap(s.config)) t += fmt::format("config.{}={}\n", k, v);
  return t;
}

RunState parseStateText(const std::string& text, const std::string& path) {
  std::map<std::string, std::string> kv, config;
  std::stringstream in(text);
  for (std::string line; std::getline(in, line);) {
    const auto eq = line.find('=');
    if (eq == std::string::npos) throw Error(fmt::format("checkpoint '{}': malformed state line '{}'", path, line));
    const std::string key = line.substr(0, eq), value = line.substr(eq + 1);
    if (key.rfind("config.", 0) == 0) config[key.substr(7)] = value;
    else kv[key] = value;
  }
  auto need = [&](const char* key) {
    auto it = kv.find(key);
    if (it == kv.end()) throw Error(fmt::format("checkpoint '{}': no '{}' in its state", path, key));
    return it->second;
  };
  if (std::stoi(need("version")) != kCheckpointVersion)
    throw Error(fmt::format("checkpoint '{}': version {} (this build reads {})", path, need("version"), kCheckpointVersion));
  RunState s;
  s.epoch = std::stoi(need("epoch"));
  s.stream = std::stoull(need("stream"));
  s.step = std::stoull(need("step"));
  s.seconds = std::stod(need("seconds"));
  s.dataHash = std::stoull(need("data-hash"));
  s.trainCount = std::stoull(need("train-count"));
  s.config = configFromMap(config);
  return s;
}

/// Writes model, optimiser and state atomically to `path` (temporary file, fsync, rename).
void saveCheckpoint(const std::string& path, torch::nn::Module& model, torch::optim::AdamW& opt, const RunState& s) {
  torch::serialize::OutputArchive archive, optArchive;
  model.save(archive);
  opt.save(optArchive);
  archive.write("optimizer", optArchive);
  archive.write("janus.state", c10::IValue(stateText(s)));
  archive.write("janus.metrics", c10::IValue(metricsCsv(s.metrics)));
  const std::string tmp = path + ".tmp";
  try {
    archive.save_to(tmp);
  } catch (const c10::Error& e) {
    throw Error(fmt::format("cannot write checkpoint '{}': {}", tmp, e.what_without_backtrace()));
  }
  syncPath(tmp, false);
  if (std::rename(tmp.c_str(), path.c_str()) != 0)
    throw Error(fmt::format("cannot rename '{}' to '{}': {}", tmp, path, std::strerror(errno)));
  syncPath(fs::path(path).parent_path().empty() ? "." : fs::path(path).parent_path().string(), true);
}

/// Reads the state of a checkpoint; with `model`/`opt` also their tensors.
RunState loadCheckpoint(const std::string& path, torch::nn::Module* model, torch::optim::AdamW* opt) {
  if (!fs::is_regular_file(path)) throw Error(fmt::format("checkpoint '{}' does not exist", path));
  torch::serialize::InputArchive archive;
  try {
    archive.load_from(path);
    c10::IValue state, metrics;
    archive.read("janus.state", state);
    archive.read("janus.metrics", metrics);
    RunState s = parseStateText(state.toStringRef(), path);
    s.metrics = parseMetricsCsv(metrics.toStringRef());
    if (model) model->load(archive);
    if (opt) {
      torch::serialize::InputArchive optArchive;
      archive.read("optimizer", optArchive);
      opt->load(optArchive);
    }
    return s;
  } catch (const c10::Error& e) {
    throw Error(fmt::format("checkpoint '{}' is not a readable train-az checkpoint: {}", path,
                            e.what_without_backtrace()));
  }
}

std::string defaultDescription(const std::string& dir) {
  std::string name = fs::path(dir).lexically_normal().filename().string();
  if (name.empty() || name == "." || name == "..") name = fs::absolute(dir).lexically_normal().filename().string();
  return name.substr(0, 23);
}

/// Validation figures of the whole set.
AzMetrics validate(Net& net, const Dataset& data, const AzConfig& c, PolicyHead head) {
  AzMetrics m;
  if (data.empty()) {
    m.valLoss = m.valPolicyCe = m.valValueCe = m.valAccuracy = m.valValueMse = std::numeric_limits<double>::quiet_NaN();
    return m;
  }
  torch::NoGradGuard g;
  net.module().eval();
  double policySum = 0, valueSum = 0, correct = 0, sq = 0;
  u64 withMove = 0;
  std::vector<std::uint32_t> idx;
  for (std::size_t start = 0; start < data.size(); start += 4096) {
    idx.resize(std::min<std::size_t>(4096, data.size() - start));
    std::iota(idx.begin(), idx.end(), std::uint32_t(start));
    const Batch b = net.batch(data, idx, head);
    const LossParts p = net.loss(b, head, c.policyWeight, c.valueWeight, true);
    policySum += p.policyCe.item<double>() * double(b.withMove);
    valueSum += p.valueCe.item<double>() * double(b.size);
    correct += p.correct;
    sq += p.sqErrorSum;
    withMove += u64(b.withMove);
  }
  net.module().train();
  const double n = double(data.size());
  m.valPolicyCe = withMove ? policySum / double(withMove) : std::numeric_limits<double>::quiet_NaN();
  m.valValueCe = valueSum / n;
  m.valLoss = c.policyWeight * (withMove ? m.valPolicyCe : 0.0) + c.valueWeight * m.valValueCe;
  m.valAccuracy = withMove ? correct / double(withMove) : std::numeric_limits<double>::quiet_NaN();
  m.valValueMse = sq / n;
  if (net.valueOnly()) {
    m.valPolicyCe = m.valValueCe = m.valAccuracy = std::numeric_limits<double>::quiet_NaN();
    m.valLoss = m.valValueMse;
  }
  return m;
}

std::string lossSvg(const std::vector<AzMetrics>& rows, const std::string& title, bool valueOnly) {
  std::vector<ChartSeries> s = {{"train loss", "#1f77b4", {}},
                                {"validation loss", "#ff7f0e", {}},
                                {"validation policy CE", "#2ca02c", {}},
                                {"validation value CE", "#d62728", {}}};
  for (const AzMetrics& r : rows) {
    s[0].points.emplace_back(r.epoch, r.trainLoss);
    s[1].points.emplace_back(r.epoch, r.valLoss);
    s[2].points.emplace_back(r.epoch, r.valPolicyCe);
    s[3].points.emplace_back(r.epoch, r.valValueCe);
  }
  if (valueOnly) s.resize(2);  // the CE series are NaN
  return lineChartSvg(title, "epoch", valueOnly ? "value MSE (expected score)" : "loss (cross-entropy, nats)", s);
}

/// Largest |torch - engine| logit (value and legal moves' policy) of the network file `netPath`
/// against `model`, over the positions of 8 random games from the start position (the samples
/// keep no positions to check on).
double exportDifference(Net& net, const std::string& netPath, u64 seed) {
  std::mt19937_64 rng(seed);
  double worst = 0;
  net.module().eval();
  std::unique_ptr<mcts::rn::RnFile> file;
  mcts::rn::ResNet loaded{nullptr};
  std::shared_ptr<const mcts::pvnet::PvNetwork> pvnet;
  if (net.resnet()) {
    file = std::make_unique<mcts::rn::RnFile>(mcts::rn::RnFile::fromFile(netPath));
    loaded = mcts::rn::makeInferenceNetwork(file->weights);
  } else {
    pvnet = mcts::pvnet::PvNetwork::fromFile(netPath);
  }
  for (int game = 0; game < 8; ++game) {
    Position pos;
    for (int ply = 0; ply < 60; ++ply) {
      const MoveList moves = legalMoves(pos);
      if (moves.empty()) break;
      std::vector<Move> list(moves.begin(), moves.end());
      if (net.resnet()) {
        // The whole output of both networks on the planes the engine would give the file's network.
        std::vector<float> planes(std::size_t(file->weights.arch.inputPlanes) * 64);
        encoding::encodePlanes(pos, mcts::rn::encoderOptions(file->weights.arch), planes);
        torch::NoGradGuard g;
        const torch::Tensor x = torch::from_blob(planes.data(), {1, file->weights.arch.inputPlanes, 8, 8});
        const mcts::rn::RnOutput a = net.rn->forward(x), b = loaded->forward(x);
        worst = std::max({worst, (a.policy - b.policy).abs().max().item<double>(),
                          (a.value - b.value).abs().max().item<double>()});
      } else {
        std::array<float, 3> vt{}, ve{};
        std::vector<float> pt(list.size()), pe(list.size());
        modelLogits(net.pv, pos, list, vt, pt);
        pvnet->logits(pos, list, ve, pe);
        for (int k = 0; k < 3; ++k) worst = std::max(worst, double(std::abs(vt[std::size_t(k)] - ve[std::size_t(k)])));
        for (std::size_t i = 0; i < list.size(); ++i) worst = std::max(worst, double(std::abs(pt[i] - pe[i])));
      }
      pos.makeMove(list[std::size_t(rng() % list.size())]);
      if (pos.isInsufficientMaterial() || pos.isFiftyMoveDraw()) break;
    }
  }
  net.module().train();
  return worst;
}

}  // namespace

// ---- Configuration and metrics text ---------------------------------------------------------------

std::map<std::string, std::string> configToMap(const AzConfig& c) {
  auto num = [](double v) { return fmt::format("{:.17g}", v); };
  return {{"data", joinList(c.data)},
          {"validation", joinList(c.validation)},
          {"val-fraction", num(c.valFraction)},
          {"seed", std::to_string(c.seed)},
          {"lambda", num(c.value.lambda)},
          {"wdl-a", num(c.value.wdlA)},
          {"wdl-b", num(c.value.wdlB)},
          {"pgn-skip-plies", std::to_string(c.pgnSkipPlies)},
          {"limit", std::to_string(c.limit)},
          {"memory-mib", std::to_string(c.memoryMib)},
          {"arch", c.arch},
          {"hidden", std::to_string(c.hidden)},
          {"value-hidden", std::to_string(c.valueHidden)},
          {"blocks", std::to_string(c.blocks)},
          {"filters", std::to_string(c.filters)},
          {"se", c.se ? "true" : "false"},
          {"hidden-layers", joinInts(c.hiddenLayers)},
          {"conv-filters", joinInts(c.convFilters)},
          {"conv-kernel", std::to_string(c.convKernel)},
          {"activation", c.activation},
          {"batch", std::to_string(c.batch)},
          {"epochs", std::to_string(c.epochs)},
          {"epoch-positions", std::to_string(c.epochPositions)},
          {"lr", num(c.lr)},
          {"lr-final", num(c.lrFinal)},
          {"lr-schedule", c.lrSchedule},
          {"lr-drop-every", std::to_string(c.lrDropEvery)},
          {"lr-gamma", num(c.lrGamma)},
          {"wd", num(c.wd)},
          {"policy-weight", num(c.policyWeight)},
          {"value-weight", num(c.valueWeight)},
          {"policy-head", c.policyHead},
          {"threads", std::to_string(c.threads)}};
}

AzConfig configFromMap(const std::map<std::string, std::string>& m) {
  AzConfig c;
  auto get = [&](const char* key) -> const std::string& {
    auto it = m.find(key);
    if (it == m.end()) throw Error(fmt::format("train-az configuration: no value for '{}'", key));
    return it->second;
  };
  try {
    c.data = splitList(get("data"));
    c.validation = splitList(get("validation"));
    c.valFraction = std::stod(get("val-fraction"));
    c.seed = std::stoull(get("seed"));
    c.value.lambda = std::stod(get("lambda"));
    c.value.wdlA = std::stod(get("wdl-a"));
    c.value.wdlB = std::stod(get("wdl-b"));
    c.pgnSkipPlies = std::stoi(get("pgn-skip-plies"));
    c.limit = std::stoull(get("limit"));
    c.memoryMib = std::stoull(get("memory-mib"));
    c.hidden = std::stoi(get("hidden"));
    c.valueHidden = std::stoi(get("value-hidden"));
    // Checkpoints from before --arch hold a pvnet.
    if (m.contains("arch")) {
      c.arch = get("arch");
      c.blocks = std::stoi(get("blocks"));
      c.filters = std::stoi(get("filters"));
      c.se = get("se") == "true";
    }
    // Checkpoints from before the value-only baselines keep the defaults.
    if (m.contains("hidden-layers")) {
      c.hiddenLayers = splitInts(get("hidden-layers"));
      c.convFilters = splitInts(get("conv-filters"));
      c.convKernel = std::stoi(get("conv-kernel"));
      c.activation = get("activation");
    }
    c.batch = std::stoi(get("batch"));
    c.epochs = std::stoi(get("epochs"));
    c.epochPositions = std::stoull(get("epoch-positions"));
    c.lr = std::stod(get("lr"));
    c.lrFinal = std::stod(get("lr-final"));
    c.lrSchedule = get("lr-schedule");
    c.lrDropEvery = std::stoi(get("lr-drop-every"));
    c.lrGamma = std::stod(get("lr-gamma"));
    c.wd = std::stod(get("wd"));
    c.policyWeight = std::stod(get("policy-weight"));
    c.valueWeight = std::stod(get("value-weight"));
    c.policyHead = get("policy-head");
    c.threads = std::stoi(get("threads"));
  } catch (const std::logic_error& e) {
    throw Error(fmt::format("train-az configuration: malformed number ({})", e.what()));
  }
  return c;
}

std::string metricsCsv(const std::vector<AzMetrics>& rows) {
  std::string s =
      "epoch,positions,train_loss,train_policy_ce,train_value_ce,val_loss,val_policy_ce,val_value_ce,val_policy_acc,"
      "val_value_mse,lr,seconds\n";
  auto num = [](double v) { return std::isnan(v) ? std::string("nan") : fmt::format("{:.8g}", v); };
  for (const AzMetrics& r : rows)
    s += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{:.3f}\n", r.epoch, r.positions, num(r.trainLoss),
                     num(r.trainPolicyCe), num(r.trainValueCe), num(r.valLoss), num(r.valPolicyCe), num(r.valValueCe),
                     num(r.valAccuracy), num(r.valValueMse), num(r.lr), r.seconds);
  return s;
}

std::vector<AzMetrics> parseMetricsCsv(const std::string& text) {
  std::vector<AzMetrics> rows;
  std::stringstream in(text);
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    std::vector<std::string> f = splitList(line);
    if (f.size() != 12) throw Error(fmt::format("metrics: malformed line '{}'", line));
    auto d = [&](std::size_t i) { return f[i] == "nan" ? std::numeric_limits<double>::quiet_NaN() : std::stod(f[i]); };
    AzMetrics r;
    try {
      r.epoch = std::stoi(f[0]);
      r.positions = std::stoull(f[1]);
      r.trainLoss = d(2), r.trainPolicyCe = d(3), r.trainValueCe = d(4);
      r.valLoss = d(5), r.valPolicyCe = d(6), r.valValueCe = d(7), r.valAccuracy = d(8), r.valValueMse = d(9);
      r.lr = d(10), r.seconds = d(11);
    } catch (const std::logic_error&) {
      throw Error(fmt::format("metrics: malformed number in '{}'", line));
    }
    rows.push_back(r);
  }
  return rows;
}

// ---- The run ------------------------------------------------------------------------------------

namespace {

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
  const AzMetrics v = validate(net, validation, config, head);
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
                  row.lr, speedText(double(plan.positions) / epochSeconds), tune::formatDuration(state.seconds),
                  tune::formatDuration(eta), o.tty ? "\x1b[K" : "")
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
    const AzMetrics v = validate(net, data.validation, config, head);
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

// ---- Command line -------------------------------------------------------------------------------

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
                 "engine; docs/mcts.md \"Value-only baselines\")");
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
  app.add_option("--output", cli.exportOutput, "--export: output file or directory (default: pv-<hash>.jpv here)");
}

int runAzCli(AzCli& cli) {
  if (!cli.exportCheckpoint.empty()) {
    exportAzCheckpoint(cli.exportCheckpoint, cli.exportOutput.empty() ? std::string("./") : cli.exportOutput,
                       cli.run.description, std::cout);
    return 0;
  }
  if (!cli.exportOutput.empty()) throw Error("train-az: --output goes with --export");
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
