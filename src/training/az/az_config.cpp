// The configuration and metrics of a train-az run as text (az_config.h).

#include "training/az/az_config.h"

#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#include "training/report.h"
#include "util/error.h"

namespace janus::training::az {

namespace {

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

}  // namespace

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

}  // namespace janus::training::az
