// The alpha-beta face's generation loop end to end (janus rl --face ab, issue 74): a tiny
// generation (datagen of the default network, train-nnue --init, a gate and the match against
// generation 0), the state and PGNs in --dir, the data in --data-dir, the candidate in --nets-dir;
// the data equal a direct `janus datagen` run with the generation's documented seed; --hours
// stops before a step and the same command resumes.

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "child_process.h"

namespace janus {
namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

/// Runs `args` in the folder of `log` with stdout and stderr into `log`; returns the exit status.
int run(const std::vector<std::string>& args, const fs::path& log) {
  return test::waitProgram(test::startProgram(args, log, log.parent_path()));
}


TEST(RlAbLoop, ATinyGenerationKeepsStateAndNetsApartFromItsData) {
  const fs::path root = fs::temp_directory_path() / ("janus-rl-ab-" + std::to_string(::getpid()));
  fs::remove_all(root);
  fs::create_directories(root);
  const fs::path state = root / "state", data = root / "data", nets = root / "nets";
  const std::string net = test::defaultNetwork().string();
  std::vector<std::string> args = {JANUS_BINARY, "rl", "--face", "ab", "--dir", state.string(), "--data-dir", data.string(),
                                   "--nets-dir", nets.string(), "--init-net", net, "--generations", "1",
                                   "--games-per-gen", "4", "--chunk-games", "2", "--threads", "1", "--nodes", "300",
                                   "--seed", "5", "--gate-nodes", "300", "--gate-games", "4", "--gen0-games", "2",
                                   "--train-args", "--superbatches 1 --superbatch-size 1000 --batch 256 --lambda 0.3 --mirror"};

  // --hours: no step starts once the time is spent; the state stays at the step to come.
  std::vector<std::string> stopped = args;
  stopped.insert(stopped.end(), {"--hours", "0.0000001"});
  ASSERT_EQ(run(stopped, root / "stopped.log"), 0) << slurp(root / "stopped.log");
  EXPECT_NE(slurp(root / "stopped.log").find("--hours"), std::string::npos) << slurp(root / "stopped.log");
  const nlohmann::json before = nlohmann::json::parse(slurp(state / "rl-state.json"));
  EXPECT_EQ(before["generation"], 1);
  EXPECT_EQ(before["step"], "selfplay");
  EXPECT_FALSE(fs::exists(data / "gen-001" / "data"));

  ASSERT_EQ(run(args, root / "run.log"), 0) << slurp(root / "run.log");
  const std::string log = slurp(root / "run.log");
  EXPECT_NE(log.find("resuming"), std::string::npos) << log;
  const nlohmann::json s = nlohmann::json::parse(slurp(state / "rl-state.json"));
  EXPECT_EQ(s["generation"], 2);
  ASSERT_EQ(s["history"].size(), 2u);
  const auto& zero = s["history"][0];
  const auto& g = s["history"][1];
  // Paths in the state: outside the working directory (root) absolute, inside it relative.
  EXPECT_EQ(zero["net"], net);
  EXPECT_EQ(g["parent"], net);
  EXPECT_EQ(g["selfplay_games"], 4);
  EXPECT_GT(g["selfplay_positions"].get<int>(), 4 * 10);
  EXPECT_EQ(g["selfplay_targets"], g["selfplay_positions"]);  // every datagen record is a training record
  const fs::path candidate = root / g["candidate"].get<std::string>();
  EXPECT_EQ(fs::path(g["candidate"].get<std::string>()).parent_path(), "nets") << g.dump();
  EXPECT_EQ(candidate.extension(), ".jnn");
  EXPECT_TRUE(fs::exists(candidate));
  EXPECT_EQ(g["gate_wins"].get<int>() + g["gate_draws"].get<int>() + g["gate_losses"].get<int>(), 4);
  EXPECT_EQ(g["net"], g["promoted"].get<bool>() ? g["candidate"] : g["parent"]);
  EXPECT_DOUBLE_EQ(g["candidate_speed"].get<double>(), 1.0);  // the parent's shape: not measured
  EXPECT_TRUE(g.contains("train_loss") && g.contains("val_loss")) << g.dump();
  if (g["promoted"].get<bool>()) {
    EXPECT_EQ(g["gen0_wins"].get<int>() + g["gen0_draws"].get<int>() + g["gen0_losses"].get<int>(), 2) << g.dump();
  }
  // What lasts (state, report, PGN, training curve) is in --dir; the data and the training run
  // are in --data-dir.
  for (const char* f : {"rl-report.md", "rl-elo.svg", "gen-001/gate.pgn", "gen-001/gate.txt", "gen-001/train-metrics.csv"})
    EXPECT_TRUE(fs::exists(state / f)) << f;
  EXPECT_NE(slurp(state / "gen-001" / "gate.pgn").find("[Round \"4\"]"), std::string::npos);
  EXPECT_FALSE(fs::exists(state / "gen-001" / "data"));
  EXPECT_TRUE(fs::exists(data / "gen-001" / "train" / "checkpoint.bin"));
  EXPECT_NE(slurp(data / "gen-001" / "train.log").find("superbatch"), std::string::npos) << slurp(data / "gen-001" / "train.log");

  // The gate's PGN has its zstd snapshot (what git keeps). In a new clone only the snapshot is
  // there: a run resumed in the gate unpacks it and counts its games instead of playing them.
  const fs::path pgn = state / "gen-001" / "gate.pgn";
  ASSERT_TRUE(fs::exists(pgn.string() + ".zst"));
  ASSERT_EQ(run({"/usr/bin/zstd", "-q", "-d", "-c", (pgn.string() + ".zst")}, root / "unpacked.pgn"), 0);
  EXPECT_EQ(slurp(root / "unpacked.pgn"), slurp(pgn));
  nlohmann::json rewound = s;
  rewound["step"] = "gate";
  rewound["generation"] = 1;
  rewound["current"] = g;
  rewound["history"].erase(1);
  std::ofstream(state / "rl-state.json") << rewound.dump(2);
  fs::remove(pgn);
  ASSERT_EQ(run(args, root / "resumed.log"), 0) << slurp(root / "resumed.log");
  EXPECT_NE(slurp(state / "gen-001" / "gate.txt").find("resumed: 4 games counted"), std::string::npos)
      << slurp(state / "gen-001" / "gate.txt");
  EXPECT_EQ(slurp(pgn), slurp(root / "unpacked.pgn"));

  // The generation's data are those of `janus datagen` with seed 5 * 1000003 + 1 (rl_loop.h).
  const fs::path direct = root / "direct";
  ASSERT_EQ(run({JANUS_BINARY, "datagen", "--output-dir", direct.string(), "--games", "4", "--chunk-games", "2", "--nodes",
                 "300", "--seed", "5000016", "--eval", net},
                root / "direct.log"),
            0)
      << slurp(root / "direct.log");
  for (const char* chunk : {"chunk-000000.janusdat.zst", "chunk-000001.janusdat.zst"}) {
    const std::string mine = slurp(data / "gen-001" / "data" / chunk);
    EXPECT_FALSE(mine.empty()) << chunk;
    EXPECT_EQ(mine, slurp(direct / chunk)) << chunk;
  }
  fs::remove_all(root);
}

}  // namespace
}  // namespace janus
