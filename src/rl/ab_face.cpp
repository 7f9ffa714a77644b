#include "rl/ab_face.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "nnue/network.h"
#include "records/janusdat.h"
#include "rl/launcher.h"
#include "util/error.h"

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

std::vector<std::string> nnueTrainCommand(const RlConfig& c, const std::string& init, const std::vector<std::string>& data,
                                          const std::string& outDir, const std::string& description,
                                          const std::vector<std::string>& recipe) {
  std::vector<std::string> argv = {c.janus, "train-nnue", "--init", init, "--data"};
  argv.insert(argv.end(), data.begin(), data.end());
  argv.insert(argv.end(), {"--seed", "1", "--threads", std::to_string(std::max(1, c.datagen.threads)), "--out-dir", outDir,
                           "--description", description});
  argv.insert(argv.end(), recipe.begin(), recipe.end());
  if (fs::exists(fs::path(outDir) / "checkpoint.bin")) argv.push_back("--resume");
  return argv;
}

bool abSameShape(const std::string& a, const std::string& b) {
  const auto x = nnue::Network::fromFile(a), y = nnue::Network::fromFile(b);
  return x->hidden() == y->hidden() && x->outputBuckets() == y->outputBuckets() && x->kingBuckets() == y->kingBuckets() &&
         x->activation() == y->activation();
}

double abRelativeSpeed(const RlConfig& c, const std::string& net, const std::string& reference, int runs,
                       const std::string& log, std::ostream& out) {
  // One bench run: nodes per CPU second.
  auto speed = [&](const std::string& file) {
    const std::string scratch = log + ".run";
    std::error_code ec;
    fs::remove(scratch, ec);
    const ChildRun r = runMeasured({c.janus, "bench", "--evalfile", file}, scratch);
    std::ifstream in(scratch);
    std::string text{std::istreambuf_iterator<char>(in), {}}, line;
    std::ofstream(log, std::ios::app) << text;
    fs::remove(scratch, ec);
    // The last line: "<N> nodes <M> nps" (bench_command.cpp, OpenBench's form).
    u64 nodes = 0;
    std::istringstream lines(text);
    while (std::getline(lines, line)) {
      std::istringstream words(line);
      u64 n = 0;
      std::string word;
      if (words >> n >> word && word == "nodes") nodes = n;
    }
    if (r.status != 0 || nodes == 0 || !(r.cpuSeconds > 0))
      throw Error(fmt::format("rl: janus bench --evalfile {} failed (exit {}); see {}", file, r.status, log));
    return double(nodes) / r.cpuSeconds;
  };
  std::vector<double> mine, theirs;
  for (int k = 0; k < runs; ++k) {
    theirs.push_back(speed(reference));
    mine.push_back(speed(net));
    out << fmt::format("rl: speed run {}/{}: {} {:.0f}, {} {:.0f} nodes per CPU second\n", k + 1, runs,
                       fs::path(reference).stem().string(), theirs.back(), fs::path(net).stem().string(), mine.back())
        << std::flush;
  }
  auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
  };
  return median(mine) / median(theirs);
}

u64 abScaledNodes(u64 nodes, double speed) { return std::max<u64>(1, u64(std::llround(double(nodes) * speed))); }

match::EngineConfig abMatchEngine(const RlConfig& c, const std::string& name, const std::string& net) {
  match::EngineConfig e;
  e.name = name;
  e.command = c.janus;
  e.options = {{"Threads", "1"}, {"Hash", "64"}, {"EvalFile", fs::absolute(net).string()}};
  return e;
}

}  // namespace janus::rl
