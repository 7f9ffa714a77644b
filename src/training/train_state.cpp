// The training configuration: validation and its key=value form (train_state.h).

#include "training/train_state.h"

#include <cstdlib>
#include <limits>

#include <fmt/format.h>

#include "util/error.h"

namespace janus::training {

void validateConfig(const TrainConfig& c) {
  auto bad = [](const std::string& what) { return Error("train-nnue: " + what); };
  try {
    validateShape(c.shape);
  } catch (const Error& e) {
    throw bad(fmt::format("--hidden/--buckets/--king-buckets/--factoriser: {}", e.what()));
  }
  if (c.data.empty()) throw bad("no training data (give --data)");
  if (c.mirror && c.shape.kingBuckets > 1)
    throw bad("--mirror with --king-buckets > 1: a king-bucket net already reads a position and its a<->h mirror "
              "image as the same inputs, so the mirror would only duplicate positions");
  if (!(c.loss.lambda >= 0 && c.loss.lambda <= 1)) throw bad(fmt::format("--lambda {} is not in [0, 1]", c.loss.lambda));
  if (!(c.loss.sigmoidScale > 0)) throw bad(fmt::format("--sigmoid-scale {} must be positive", c.loss.sigmoidScale));
  if (!(c.valFraction >= 0 && c.valFraction < 1)) throw bad(fmt::format("--val-fraction {} is not in [0, 1)", c.valFraction));
  if (c.maxScore < 1 || c.maxScore >= kMateScoreFloor)
    throw bad(fmt::format("--max-score {} is not in 1..{}", c.maxScore, kMateScoreFloor - 1));
  if (c.batch < 1) throw bad(fmt::format("--batch {} must be at least 1", c.batch));
  if (c.superbatches < 1) throw bad(fmt::format("--superbatches {} must be at least 1", c.superbatches));
  if (!(c.lr > 0)) throw bad(fmt::format("--lr {} must be positive", c.lr));
  if (!(c.lrFinal >= 0)) throw bad(fmt::format("--lr-final {} must not be negative", c.lrFinal));
  if (c.lrSchedule != "cosine" && c.lrSchedule != "constant")
    throw bad(fmt::format("--lr-schedule '{}' is not cosine or constant", c.lrSchedule));
  if (c.lrDropEvery < 0) throw bad(fmt::format("--lr-drop-every {} must not be negative", c.lrDropEvery));
  if (!(c.lrGamma > 0 && c.lrGamma <= 1)) throw bad(fmt::format("--lr-gamma {} is not in (0, 1]", c.lrGamma));
  if (!(c.wd >= 0 && c.wd * c.lr < 1)) throw bad(fmt::format("--wd {} must be in [0, 1/lr)", c.wd));
  if (!(c.beta1 >= 0 && c.beta1 < 1 && c.beta2 >= 0 && c.beta2 < 1 && c.eps > 0))
    throw bad("Adam betas must be in [0, 1) and eps positive");
  if (c.threads < 1) throw bad(fmt::format("--threads {} must be at least 1", c.threads));
  if (c.torchInput != "sparse" && c.torchInput != "dense")
    throw bad(fmt::format("--torch-input '{}' is not sparse or dense", c.torchInput));
}

namespace {

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ",") + x;
  return s;
}

std::vector<std::string> splitList(const std::string& s) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start < s.size()) {
    std::size_t comma = s.find(',', start);
    if (comma == std::string::npos) comma = s.size();
    if (comma > start) out.push_back(s.substr(start, comma - start));
    start = comma + 1;
  }
  return out;
}

}  // namespace

std::map<std::string, std::string> configToMap(const TrainConfig& c) {
  std::map<std::string, std::string> m;
  m["hidden"] = std::to_string(c.shape.hidden);
  m["buckets"] = std::to_string(c.shape.buckets);
  m["activation"] = c.shape.activation == nnue::Activation::kSCReLU ? "screlu" : "crelu";
  m["king-buckets"] = std::to_string(c.shape.kingBuckets);
  m["factoriser"] = c.shape.factoriser ? "true" : "false";
  m["lambda"] = fmt::format("{}", c.loss.lambda);
  m["sigmoid-scale"] = fmt::format("{}", c.loss.sigmoidScale);
  m["data"] = join(c.data);
  m["validation"] = join(c.validation);
  m["val-fraction"] = fmt::format("{}", c.valFraction);
  m["max-score"] = std::to_string(c.maxScore);
  m["limit"] = std::to_string(c.limit);
  m["keep-noisy"] = c.keepNoisy ? "true" : "false";
  m["mirror"] = c.mirror ? "true" : "false";
  m["batch"] = std::to_string(c.batch);
  m["superbatch-size"] = std::to_string(c.superbatchSize);
  m["superbatches"] = std::to_string(c.superbatches);
  m["lr"] = fmt::format("{}", c.lr);
  m["lr-schedule"] = c.lrSchedule;
  m["lr-final"] = fmt::format("{}", c.lrFinal);
  m["lr-drop-every"] = std::to_string(c.lrDropEvery);
  m["lr-gamma"] = fmt::format("{}", c.lrGamma);
  m["wd"] = fmt::format("{}", c.wd);
  m["beta1"] = fmt::format("{}", c.beta1);
  m["beta2"] = fmt::format("{}", c.beta2);
  m["eps"] = fmt::format("{}", c.eps);
  m["seed"] = std::to_string(c.seed);
  m["init"] = c.init;
  m["threads"] = std::to_string(c.threads);
  m["backend"] = c.backend;
  m["torch-input"] = c.torchInput;
  m["qat"] = c.qat ? "true" : "false";
  return m;
}

TrainConfig configFromMap(const std::map<std::string, std::string>& m) {
  auto get = [&](const char* key) -> const std::string& {
    auto it = m.find(key);
    if (it == m.end()) throw Error(fmt::format("configuration: missing key '{}'", key));
    return it->second;
  };
  auto number = [&](const char* key) {
    const std::string& s = get(key);
    char* end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    if (s.empty() || *end != '\0') throw Error(fmt::format("configuration: '{}' = '{}' is not a number", key, s));
    return v;
  };
  auto integer = [&](const char* key) {
    const std::string& s = get(key);
    char* end = nullptr;
    const unsigned long long v = std::strtoull(s.c_str(), &end, 10);
    if (s.empty() || *end != '\0' || s[0] == '-')
      throw Error(fmt::format("configuration: '{}' = '{}' is not a non-negative integer", key, s));
    return u64(v);
  };
  auto smallInt = [&](const char* key) {
    const u64 v = integer(key);
    if (v > u64(std::numeric_limits<int>::max())) throw Error(fmt::format("configuration: '{}' = {} is too large", key, v));
    return int(v);
  };
  TrainConfig c;
  c.shape.hidden = smallInt("hidden");
  c.shape.buckets = smallInt("buckets");
  c.shape.activation = parseActivation(get("activation"));
  if (m.contains("king-buckets")) c.shape.kingBuckets = smallInt("king-buckets");  // absent before king buckets
  if (auto it = m.find("factoriser"); it != m.end()) {  // absent in checkpoints written before the factoriser
    if (it->second != "true" && it->second != "false")
      throw Error(fmt::format("configuration: 'factoriser' = '{}' is not true or false", it->second));
    c.shape.factoriser = it->second == "true";
  }
  c.loss.lambda = number("lambda");
  c.loss.sigmoidScale = number("sigmoid-scale");
  c.data = splitList(get("data"));
  c.validation = splitList(get("validation"));
  c.valFraction = number("val-fraction");
  c.maxScore = smallInt("max-score");
  c.limit = integer("limit");
  {
    const std::string& v = get("keep-noisy");
    if (v != "true" && v != "false") throw Error(fmt::format("configuration: 'keep-noisy' = '{}' is not true or false", v));
    c.keepNoisy = v == "true";
  }
  if (auto it = m.find("mirror"); it != m.end()) {  // absent in checkpoints written before the option
    if (it->second != "true" && it->second != "false")
      throw Error(fmt::format("configuration: 'mirror' = '{}' is not true or false", it->second));
    c.mirror = it->second == "true";
  }
  c.batch = smallInt("batch");
  c.superbatchSize = integer("superbatch-size");
  c.superbatches = smallInt("superbatches");
  c.lr = number("lr");
  c.lrSchedule = get("lr-schedule");
  c.lrFinal = number("lr-final");
  c.lrDropEvery = smallInt("lr-drop-every");
  c.lrGamma = number("lr-gamma");
  c.wd = number("wd");
  c.beta1 = number("beta1");
  c.beta2 = number("beta2");
  c.eps = number("eps");
  c.seed = integer("seed");
  if (auto it = m.find("init"); it != m.end()) c.init = it->second;  // absent in checkpoints written before the option
  c.threads = smallInt("threads");
  c.backend = get("backend");
  c.torchInput = get("torch-input");
  if (auto it = m.find("qat"); it != m.end()) {  // absent in checkpoints written before the option
    if (it->second != "true" && it->second != "false")
      throw Error(fmt::format("configuration: 'qat' = '{}' is not true or false", it->second));
    c.qat = it->second == "true";
  }
  return c;
}

const std::set<std::string>& resumableKeys() {
  // Data paths may change (the data themselves are checked by hash); the thread count and the
  // backend change only the rounding; more superbatches extend the run; quantisation-aware
  // training is typically switched on for the last superbatches.
  static const std::set<std::string> keys = {"superbatches", "threads", "backend", "torch-input",
                                             "data",         "validation", "qat"};
  return keys;
}

}  // namespace janus::training
