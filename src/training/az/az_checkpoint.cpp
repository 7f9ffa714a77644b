// The checkpoint of a train-az run (az_checkpoint.h).

#include "training/az/az_checkpoint.h"

#include <filesystem>
#include <map>
#include <sstream>

#include <fmt/format.h>

#include "util/error.h"
#include "util/zstd_stream.h"

namespace janus::training::az {

namespace {

constexpr int kCheckpointVersion = 1;

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

}  // namespace

void saveCheckpoint(const std::string& path, torch::nn::Module& model, torch::optim::AdamW& opt, const RunState& s) {
  torch::serialize::OutputArchive archive, optArchive;
  model.save(archive);
  opt.save(optArchive);
  archive.write("optimizer", optArchive);
  archive.write("janus.state", c10::IValue(stateText(s)));
  archive.write("janus.metrics", c10::IValue(metricsCsv(s.metrics)));
  OutputFile out(path, false);
  try {
    archive.save_to(out);
  } catch (const c10::Error& e) {
    throw Error(fmt::format("cannot write checkpoint '{}': {}", path, e.what_without_backtrace()));
  }
  out.commit();
}

RunState loadCheckpoint(const std::string& path, torch::nn::Module* model, torch::optim::AdamW* opt) {
  if (!std::filesystem::is_regular_file(path)) throw Error(fmt::format("checkpoint '{}' does not exist", path));
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

}  // namespace janus::training::az
