#include "rl/ab_face.h"

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

#include "records/janusdat.h"

namespace janus::rl {

namespace fs = std::filesystem;

datagen::DatagenConfig abDatagenConfig(const RlConfig& c, const std::string& net, int gen) {
  datagen::DatagenConfig d = c.datagen;
  d.games = c.gamesPerGeneration;
  d.evaluation = net;
  d.seed = c.datagen.seed * 1000003ULL + u64(gen);
  return d;
}

DataCount countDatagenRun(const std::string& dir) {
  DataCount n;
  std::vector<fs::path> files;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().filename().string().starts_with("chunk-") && e.path().extension() == ".zst") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const fs::path& f : files) {
    records::DataReader reader(f.string());
    records::PackedRecord r{};
    while (reader.next(r)) {
      ++n.positions;
      n.games += r.gameEnd != 0;
    }
    ++n.chunks;
  }
  return n;
}

std::vector<std::string> abTrainCommand(const RlConfig& c, const std::string& best, const std::vector<std::string>& data,
                                        const std::string& outDir, int gen) {
  std::vector<std::string> argv = {c.janus, "train-nnue", "--init", best, "--data"};
  argv.insert(argv.end(), data.begin(), data.end());
  argv.insert(argv.end(), {"--seed", "1", "--threads", std::to_string(std::max(1, c.datagen.threads)), "--out-dir", outDir,
                           "--description", fmt::format("rl-ab gen {}", gen)});
  argv.insert(argv.end(), c.nnueTrainArgs.begin(), c.nnueTrainArgs.end());
  if (fs::exists(fs::path(outDir) / "checkpoint.bin")) argv.push_back("--resume");
  return argv;
}

match::EngineConfig abMatchEngine(const RlConfig& c, const std::string& name, const std::string& net) {
  match::EngineConfig e;
  e.name = name;
  e.command = c.janus;
  e.options = {{"Threads", "1"}, {"Hash", "64"}, {"EvalFile", fs::absolute(net).string()}};
  return e;
}

}  // namespace janus::rl
