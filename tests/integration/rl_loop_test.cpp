// The reinforcement-learning loop end to end (janus rl with the real janus-train-az, issue 14):
// a tiny run of 2 generations, and a run killed during its self-play that resumes, keeping the
// finished chunks. Built only when janus-train-az is (libtorch found).

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "child_process.h"

namespace {

namespace fs = std::filesystem;

fs::path tempDir(const std::string& name) {
  const fs::path p = fs::temp_directory_path() / ("janus-rl-it-" + std::to_string(::getpid()) + "-" + name);
  fs::remove_all(p);
  return p;
}

std::vector<std::string> tinyArgs(const fs::path& dir, int generations, int games) {
  return {JANUS_BINARY, "rl", "--dir", dir.string(), "--generations", std::to_string(generations),
          "--games-per-gen", std::to_string(games), "--chunk-games", "2", "--threads", "1", "--visits", "24",
          "--fast-visits", "6", "--max-plies", "60", "--gate-games", "4", "--gate-visits", "24", "--gen0-games", "2", "--trainer",
          JANUS_TRAIN_AZ, "--train-args", "--epochs 1 --hidden 32 --value-hidden 8 --batch 64 --threads 1 --val-fraction 0"};
}

pid_t start(const std::vector<std::string>& args, const fs::path& log) { return janus::test::startProgram(args, log); }

int wait(pid_t pid) { return janus::test::waitProgram(pid); }

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  return {std::istreambuf_iterator<char>(in), {}};
}

TEST(RlLoop, TwoTinyGenerationsWriteStateReportAndNetworks) {
  const fs::path dir = tempDir("tiny");
  fs::create_directories(dir);
  ASSERT_EQ(wait(start(tinyArgs(dir, 2, 4), dir / "out.log")), 0) << slurp(dir / "out.log");
  const nlohmann::json state = nlohmann::json::parse(slurp(dir / "rl-state.json"));
  EXPECT_EQ(state["generation"], 3);
  ASSERT_EQ(state["history"].size(), 3u);
  for (int g = 1; g <= 2; ++g) {
    const auto& h = state["history"][std::size_t(g)];
    EXPECT_EQ(h["number"], g);
    EXPECT_EQ(h["selfplay_games"], 4);
    EXPECT_GT(h["selfplay_targets"].get<int>(), 0);
    EXPECT_TRUE(fs::exists(h["candidate"].get<std::string>())) << h.dump();
    EXPECT_EQ(h["gate_wins"].get<int>() + h["gate_draws"].get<int>() + h["gate_losses"].get<int>(), 4);
    // The best network after the gate is the candidate if promoted, else the parent.
    EXPECT_EQ(h["net"], h["promoted"].get<bool>() ? h["candidate"] : h["parent"]);
    // A new best network plays generation 0 directly; one kept from before has its measurement.
    const auto& previous = state["history"][std::size_t(g - 1)];
    if (h["net"] != previous["net"]) {
      EXPECT_EQ(h["gen0_wins"].get<int>() + h["gen0_draws"].get<int>() + h["gen0_losses"].get<int>(), 2) << h.dump();
      EXPECT_TRUE(h.contains("gen0_elo"));
      EXPECT_TRUE(fs::exists(dir / ("gen-00" + std::to_string(g)) / "gen0.pgn"));
    } else {
      EXPECT_EQ(h.contains("gen0_elo"), previous.contains("gen0_elo")) << h.dump();
      EXPECT_EQ(h["gen0_wins"], previous["gen0_wins"]);
    }
  }
  EXPECT_NE(slurp(dir / "rl-report.md").find("| 2 |"), std::string::npos);
  EXPECT_NE(slurp(dir / "rl-elo.svg").find("<svg"), std::string::npos);
  EXPECT_NE(slurp(dir / "gen-002" / "train.log").find("JANUSSP"), std::string::npos);

  // The finished run given an anchor later: generation 0 (the baseline) and every finished
  // generation due an anchor match (--anchor-every 2: generation 2, also the last) get theirs;
  // generation 1 is not due. A second resume plays nothing again.
  std::vector<std::string> anchored = tinyArgs(dir, 2, 4);
  anchored.insert(anchored.end(), {"--anchor", "name=anchor cmd=" + std::string(JANUS_BINARY) + " nodes=64", "--anchor-games", "2",
                                   "--anchor-tc", "1+0.01", "--anchor-every", "2"});
  ASSERT_EQ(wait(start(anchored, dir / "anchor.log")), 0) << slurp(dir / "anchor.log");
  const nlohmann::json after = nlohmann::json::parse(slurp(dir / "rl-state.json"));
  ASSERT_EQ(after["history"].size(), 3u);
  auto anchorGames = [](const nlohmann::json& h) {
    return h["anchor_wins"].get<int>() + h["anchor_draws"].get<int>() + h["anchor_losses"].get<int>();
  };
  EXPECT_EQ(anchorGames(after["history"][0]), 2) << after.dump();
  EXPECT_FALSE(after["history"][1].contains("anchor_elo")) << after.dump();
  EXPECT_EQ(anchorGames(after["history"][1]), 0);
  EXPECT_EQ(anchorGames(after["history"][2]), 2) << after.dump();
  EXPECT_TRUE(after["history"][2].contains("anchor_elo"));
  EXPECT_TRUE(fs::exists(dir / "gen-002" / "anchor.pgn"));
  EXPECT_NE(slurp(dir / "anchor.log").find("generation 2 anchor"), std::string::npos) << slurp(dir / "anchor.log");
  ASSERT_EQ(wait(start(anchored, dir / "again.log")), 0) << slurp(dir / "again.log");
  EXPECT_EQ(slurp(dir / "again.log").find("anchor:"), std::string::npos) << slurp(dir / "again.log");

  // Given --heldout later (here the first generation's self-play chunk), every candidate is
  // evaluated on it; generation 0 is the uniform backend, which has no network to evaluate.
  std::vector<std::string> heldout = tinyArgs(dir, 2, 4);
  heldout.insert(heldout.end(), {"--heldout", (dir / "gen-001" / "selfplay" / "chunk-000000.janussp.zst").string()});
  ASSERT_EQ(wait(start(heldout, dir / "heldout.log")), 0) << slurp(dir / "heldout.log");
  const nlohmann::json evaluated = nlohmann::json::parse(slurp(dir / "rl-state.json"));
  EXPECT_FALSE(evaluated["history"][0].contains("heldout"));
  for (int g = 1; g <= 2; ++g) {
    const auto& h = evaluated["history"][std::size_t(g)];
    ASSERT_TRUE(h.contains("heldout")) << h.dump();
    EXPECT_GT(h["heldout"]["positions"].get<int>(), 0);
    EXPECT_GT(h["heldout"]["value_ce"].get<double>(), 0.0);
    EXPECT_TRUE(fs::exists(dir / ("gen-00" + std::to_string(g)) / "heldout.csv"));
  }
  EXPECT_NE(slurp(dir / "heldout.log").find("generation 2 held-out"), std::string::npos) << slurp(dir / "heldout.log");
  ASSERT_EQ(wait(start(heldout, dir / "heldout-again.log")), 0) << slurp(dir / "heldout-again.log");
  EXPECT_EQ(slurp(dir / "heldout-again.log").find("held-out:"), std::string::npos) << slurp(dir / "heldout-again.log");
  fs::remove_all(dir);
}

TEST(RlLoop, AKilledRunResumesAtItsStepAndKeepsFinishedChunks) {
  const fs::path dir = tempDir("kill");
  fs::create_directories(dir);
  const fs::path chunk = dir / "gen-001" / "selfplay" / "chunk-000000.janussp.zst";
  const pid_t pid = start(tinyArgs(dir, 1, 100), dir / "first.log");
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (!fs::exists(chunk) && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ::kill(pid, SIGKILL);
  (void)wait(pid);
  ASSERT_TRUE(fs::exists(chunk)) << slurp(dir / "first.log");
  const auto written = fs::last_write_time(chunk);
  EXPECT_FALSE(fs::exists(dir / "gen-001" / "train"));  // killed during the self-play

  ASSERT_EQ(wait(start(tinyArgs(dir, 1, 100), dir / "second.log")), 0) << slurp(dir / "second.log");
  EXPECT_NE(slurp(dir / "second.log").find("resuming"), std::string::npos) << slurp(dir / "second.log");
  EXPECT_EQ(fs::last_write_time(chunk), written);  // kept, not played again
  const nlohmann::json state = nlohmann::json::parse(slurp(dir / "rl-state.json"));
  EXPECT_EQ(state["history"].size(), 2u);
  EXPECT_EQ(state["history"][1]["selfplay_games"], 100);
  // The killed session's chunks count in the positions but not in the timed ones (the rate).
  EXPECT_LT(state["history"][1]["selfplay_timed_positions"].get<long>(), state["history"][1]["selfplay_positions"].get<long>())
      << state.dump();
  fs::remove_all(dir);
}

TEST(RlLoop, AValueNetworkLearnsFromTheGamesAndIsGatedWithThePolicy) {
  const fs::path dir = tempDir("value");
  fs::create_directories(dir);
  const std::string init = janus::test::defaultNetwork().string();
  std::vector<std::string> args = tinyArgs(dir, 1, 4);
  args.insert(args.end(), {"--value", "nnue", "--value-init", init, "--mcts-option", "MCTS Value Scale=187",
                           "--mcts-option", "MCTS Hint Depth=0", "--value-train-args",
                           "--lambda 1.0 --sigmoid-scale 187 --superbatches 1 --superbatch-size 1000 --batch 256"});
  ASSERT_EQ(wait(start(args, dir / "out.log")), 0) << slurp(dir / "out.log");
  const std::string log = slurp(dir / "out.log");
  EXPECT_NE(log.find("generation 1 value: nn-"), std::string::npos) << log;
  const nlohmann::json state = nlohmann::json::parse(slurp(dir / "rl-state.json"));
  ASSERT_EQ(state["history"].size(), 2u);
  // Generation 0's value network (the state names files inside the working directory relatively).
  EXPECT_TRUE(fs::equivalent(state["history"][0]["value_net"].get<std::string>(), init)) << state.dump();
  const auto& g = state["history"][1];
  const std::string candidate = g["value_candidate"].get<std::string>();
  ASSERT_TRUE(fs::exists(candidate)) << g.dump();
  EXPECT_NE(candidate, init);
  EXPECT_TRUE(g.contains("val_loss")) << g.dump();  // the value network's training curve
  EXPECT_TRUE(fs::exists(dir / "gen-001" / "value-metrics.csv"));
  // Its data: one JANUSDAT file per self-play chunk (2 games each).
  EXPECT_TRUE(fs::exists(dir / "gen-001" / "value-data" / "chunk-000000.janusdat"));
  EXPECT_TRUE(fs::exists(dir / "gen-001" / "value-data" / "chunk-000001.janusdat"));
  // Both networks are promoted or kept together.
  const bool promoted = g["promoted"].get<bool>();
  EXPECT_EQ(g["net"], promoted ? g["candidate"] : g["parent"]);
  EXPECT_TRUE(fs::equivalent(g["value_net"].get<std::string>(), promoted ? candidate : init)) << g.dump();
  EXPECT_EQ(state["best_value"], g["value_net"]);
  // The gate: the candidate with its value network against the best with its own.
  EXPECT_TRUE(fs::exists(dir / "gen-001" / "gate.pgn"));
  EXPECT_EQ(g["gate_wins"].get<int>() + g["gate_draws"].get<int>() + g["gate_losses"].get<int>(), 4);
  EXPECT_NE(slurp(dir / "rl-report.md").find(" + nn-"), std::string::npos) << slurp(dir / "rl-report.md");
  // The run trains a value network: resuming it without one is an error that says so.
  ASSERT_NE(wait(start(tinyArgs(dir, 2, 4), dir / "without.log")), 0);
  EXPECT_NE(slurp(dir / "without.log").find("--value-init"), std::string::npos) << slurp(dir / "without.log");
  fs::remove_all(dir);
}

}  // namespace
