// Tests of the reinforcement-learning loop's bookkeeping (rl_loop.h): the state file round trip
// and its errors, the report table (Elo against generation 0 from direct matches), configuration errors, and the slurm
// launcher's task command and missing shards. The whole loop with a real trainer runs in
// tests/integration (rl_loop_test.cpp), with the slurm launcher in tests/slurm/slurm_test.sh.

#include "rl/rl_loop.h"
#include "rl/ab_face.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "util/error.h"
#include "util/test_temp_dir.h"

namespace janus::rl {
namespace {

using test::TempDir;

namespace fs = std::filesystem;

Generation gen(int n, bool promoted, double elo) {
  Generation g;
  g.number = n;
  g.promoted = promoted;
  g.gateElo = elo;
  g.gateError = 20;
  g.net = fmt::format("/nets/pv-{:016x}.jpv", n);
  g.candidate = g.net;
  g.gateWins = 10;
  g.gateDraws = 5;
  g.gateLosses = 3;
  return g;
}

TEST(RlState, RoundTripKeepsEveryField) {
  TempDir dir;
  RlState s;
  s.generation = 3;
  s.step = "gate";
  s.best = "/nets/pv-2.jpv";
  s.bestValue = "/nets/nn-2.jnn";
  s.history = {gen(0, true, 0), gen(1, true, 55.5), gen(2, false, -10)};
  s.history[1].valueNet = "/nets/nn-2.jnn";
  s.history[1].valueCandidate = "/nets/nn-2.jnn";
  s.history[1].anchorElo = -120.25;
  s.history[1].anchorError = 80;
  s.history[1].gen0Elo = 48.5;
  s.history[1].gen0Error = 61;
  s.history[1].gen0Wins = 30;
  s.history[2].gateElo = INFINITY;  // a candidate that won every game
  s.history[1].heldout = HeldoutFigures{2.5, 0.238, 0.9125, 174897};
  s.current = gen(3, false, 0);
  s.current.candidate = "/nets/pv-3.jpv";
  s.current.selfplayPositions = 12345;
  s.current.selfplayTimedPositions = 2345;
  s.history[1].candidateSpeed = 0.92;  // ab: a wider candidate
  s.history[1].trainLoss = 0.0121;
  s.history[1].valLoss = 0.0125;
  s.history[1].firstValLoss = NAN;  // no validation data after the first superbatch
  saveState(dir.path(), s);
  const auto t = loadState(dir.path());
  ASSERT_TRUE(t);
  EXPECT_EQ(t->generation, 3);
  EXPECT_EQ(t->step, "gate");
  EXPECT_EQ(t->best, "/nets/pv-2.jpv");
  EXPECT_EQ(t->bestValue, "/nets/nn-2.jnn");
  ASSERT_EQ(t->history.size(), 3u);
  EXPECT_EQ(t->history[1].valueNet, "/nets/nn-2.jnn");
  EXPECT_EQ(t->history[1].valueCandidate, "/nets/nn-2.jnn");
  EXPECT_EQ(t->history[2].valueNet, "");
  EXPECT_DOUBLE_EQ(t->history[1].gateElo, 55.5);
  EXPECT_DOUBLE_EQ(*t->history[1].anchorElo, -120.25);
  EXPECT_FALSE(t->history[2].anchorElo);
  EXPECT_DOUBLE_EQ(*t->history[1].gen0Elo, 48.5);
  EXPECT_DOUBLE_EQ(*t->history[1].gen0Error, 61);
  EXPECT_EQ(t->history[1].gen0Wins, 30);
  EXPECT_FALSE(t->history[2].gen0Elo);
  ASSERT_TRUE(t->history[1].heldout);
  EXPECT_DOUBLE_EQ(t->history[1].heldout->policyCe, 2.5);
  EXPECT_DOUBLE_EQ(t->history[1].heldout->top1, 0.238);
  EXPECT_DOUBLE_EQ(t->history[1].heldout->valueCe, 0.9125);
  EXPECT_EQ(t->history[1].heldout->positions, 174897u);
  EXPECT_FALSE(t->history[2].heldout);
  EXPECT_TRUE(std::isinf(t->history[2].gateElo));
  EXPECT_EQ(t->current.selfplayPositions, 12345u);
  EXPECT_EQ(t->current.selfplayTimedPositions, 2345u);
  EXPECT_EQ(t->current.candidate, "/nets/pv-3.jpv");
  EXPECT_DOUBLE_EQ(t->history[1].candidateSpeed, 0.92);
  EXPECT_DOUBLE_EQ(t->history[2].candidateSpeed, 1);
  EXPECT_DOUBLE_EQ(*t->history[1].trainLoss, 0.0121);
  EXPECT_DOUBLE_EQ(*t->history[1].valLoss, 0.0125);
  EXPECT_TRUE(std::isnan(*t->history[1].firstValLoss));
  EXPECT_FALSE(t->history[2].valLoss);
  const std::string report = reportMarkdown(t->history);
  EXPECT_NE(report.find("(92% speed)"), std::string::npos) << report;
  EXPECT_NE(report.find("val nan -> 0.012500"), std::string::npos) << report;
  EXPECT_NE(report.find("| pv-0000000000000001 + nn-2 |"), std::string::npos) << report;  // the best policy and value networks
  EXPECT_FALSE(loadState((dir.dir() / "none").string()));
}

TEST(RlState, AStateWithoutTimedPositionsTimedAllItsPositions) {
  TempDir dir;
  RlState s;
  s.history = {gen(0, true, 0)};
  s.current = gen(1, false, 0);
  s.current.selfplayPositions = 9000;
  s.current.selfplayTimedPositions = 100;
  saveState(dir.path(), s);
  const fs::path file = dir.dir() / "rl-state.json";
  std::stringstream text;
  text << std::ifstream(file).rdbuf();
  std::string older = text.str();  // as written before the field existed
  const std::string field = "\"selfplay_timed_positions\": 100,";
  ASSERT_NE(older.find(field), std::string::npos) << older;
  older.erase(older.find(field), field.size());
  std::ofstream(file) << older;
  const auto t = loadState(dir.path());
  ASSERT_TRUE(t);
  EXPECT_EQ(t->current.selfplayTimedPositions, 9000u);
}

TEST(RlState, MalformedFilesAreErrorsNamingTheFile) {
  TempDir dir;
  const fs::path file = dir.dir() / "rl-state.json";
  for (const char* text : {"{not json", R"({"generation": 1})",
                           R"({"generation":1,"step":"dance","best":"","history":[],"current":{}})"}) {
    std::ofstream(file) << text;
    try {
      (void)loadState(dir.path());
      ADD_FAILURE() << "accepted " << text;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("rl-state.json"), std::string::npos) << e.what();
    }
  }
}

TEST(RlReport, EachGenerationShowsItsDirectMatchAgainstGenerationZero) {
  std::vector<Generation> h = {gen(0, true, 0), gen(1, true, 50), gen(2, false, -30)};
  h[1].gen0Elo = 41.5;
  h[1].gen0Error = 33.0;
  h[1].gen0Wins = 40;
  h[1].gen0Draws = 35;
  h[1].gen0Losses = 25;
  h[1].selfplayGames = 400;
  h[1].selfplayPositions = 36000;
  h[1].selfplayTargets = 9000;
  h[1].selfplayTimedPositions = 36000;
  h[1].selfplaySeconds = 240;
  h[2].gen0Elo = 41.5;  // nothing promoted: generation 1's measurement, not a sum of gates
  h[2].gen0Error = 33.0;
  const std::string table = reportMarkdown(h);
  EXPECT_NE(table.find("| 1 | pv-0000000000000001 |"), std::string::npos) << table;
  EXPECT_NE(table.find("10/5/3 | +50.0 ± 20.0 | yes | 40/35/25 | +41.5 ± 33.0 |"), std::string::npos) << table;
  // The self-play rate: 36000 positions in 240 s.
  EXPECT_NE(table.find("| 400 / 36000 / 9000 | 240 (150.0) |"), std::string::npos) << table;
  // A step killed and resumed: the 240 s timed only the 12000 positions made after the resume.
  h[1].selfplayTimedPositions = 12000;
  EXPECT_NE(reportMarkdown(h).find("| 400 / 36000 / 9000 | 240 (50.0) |"), std::string::npos) << reportMarkdown(h);
  EXPECT_NE(table.find("| no | 0/0/0 | +41.5 ± 33.0 |"), std::string::npos) << table;
  EXPECT_NE(table.find("| 0 (itself) |"), std::string::npos) << table;
  EXPECT_EQ(table.find("cumulative"), std::string::npos) << "no sum of gates: " << table;
  // The held-out column: the candidate's figures, "-" where none were measured.
  h[1].heldout = HeldoutFigures{2.54, 0.2381, 0.9038, 1000};
  const std::string withHeldout = reportMarkdown(h);
  EXPECT_NE(withHeldout.find("| 2.5400 / 23.8% / 0.9038 |\n"), std::string::npos) << withHeldout;
  EXPECT_NE(withHeldout.find("| no | 0/0/0 | +41.5 ± 33.0 | - | - | - |\n"), std::string::npos) << withHeldout;
}

TEST(RlHeldout, TheEvaluationCsvIsReadAndBadOnesAreErrorsNamingTheFile) {
  TempDir dir;
  const fs::path csv = dir.dir() / "heldout.csv";
  std::ofstream(csv) << "network,positions,policy_ce,top1,value_ce,value_mse\n"
                        "/runs/a,b/pv-0123.jpv,174897,2.539300,0.238000,0.808500,0.090700\n";
  const HeldoutFigures h = readHeldoutCsv(csv.string());  // a comma in the path is fine
  EXPECT_EQ(h.positions, 174897u);
  EXPECT_DOUBLE_EQ(h.policyCe, 2.5393);
  EXPECT_DOUBLE_EQ(h.top1, 0.238);
  EXPECT_DOUBLE_EQ(h.valueCe, 0.8085);
  for (const char* text : {"", "network,positions,policy_ce,top1,value_ce,value_mse\n",
                           "net,pos\npv.jpv,1\n",
                           "network,positions,policy_ce,top1,value_ce,value_mse\npv.jpv,12,2.5,x,0.8,0.09\n",
                           "network,positions,policy_ce,top1,value_ce,value_mse\n2.5,0.2,0.8,0.09\n"}) {
    std::ofstream(csv) << text;
    try {
      (void)readHeldoutCsv(csv.string());
      ADD_FAILURE() << "accepted " << text;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("heldout.csv"), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW((void)readHeldoutCsv((dir.dir() / "none.csv").string()), Error);
}

TEST(RlWindow, TheTrainerSeesTheLastWindowGenerationsChunks) {
  TempDir dir;
  for (int g = 1; g <= 5; ++g) {
    const fs::path sp = dir.dir() / fmt::format("gen-{:03d}", g) / "selfplay";
    fs::create_directories(sp);
    for (int k = 1; k >= 0; --k) std::ofstream(sp / fmt::format("chunk-{:06d}.janussp.zst", k)) << "x";
    std::ofstream(sp / "selfplay-run.txt") << "not a chunk";
  }
  auto names = [&](int generation, int window) {
    std::vector<std::string> out;
    for (const std::string& f : trainingWindow(dir.path(), generation, window))
      out.push_back(fs::path(f).parent_path().parent_path().filename().string() + "/" + fs::path(f).filename().string());
    return out;
  };
  EXPECT_EQ(names(5, 2), (std::vector<std::string>{"gen-004/chunk-000000.janussp.zst", "gen-004/chunk-000001.janussp.zst",
                                                   "gen-005/chunk-000000.janussp.zst", "gen-005/chunk-000001.janussp.zst"}));
  EXPECT_EQ(names(2, 4).size(), 4u);  // generations 1 and 2 only
  EXPECT_EQ(names(2, 4).front(), "gen-001/chunk-000000.janussp.zst");
  EXPECT_EQ(names(3, 1), (std::vector<std::string>{"gen-003/chunk-000000.janussp.zst", "gen-003/chunk-000001.janussp.zst"}));
  EXPECT_TRUE(names(7, 1).empty());  // not played yet
}

TEST(RlConfig, BadSettingsAreErrors) {
  TempDir dir;
  RlConfig c;
  c.dir = dir.path();
  c.trainer = "/nonexistent/janus-train-az";
  c.janus = "/bin/true";
  std::ostringstream out;
  try {
    (void)runLoop(c, out);
    ADD_FAILURE() << "a missing trainer was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("janus-train-az"), std::string::npos) << e.what();
  }
  c.trainer = "/bin/true";
  c.gamesPerGeneration = 30;
  c.chunkGames = 20;
  EXPECT_THROW((void)runLoop(c, out), Error);
  c.chunkGames = 10;
  c.initNet = (dir.dir() / "missing.jpv").string();
  EXPECT_THROW((void)runLoop(c, out), Error);
  c.initNet.clear();
  c.heldout = {(dir.dir() / "missing.janusdat").string()};
  try {
    (void)runLoop(c, out);
    ADD_FAILURE() << "a missing held-out file was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("missing.janusdat"), std::string::npos) << e.what();
  }
  c.heldout.clear();
  // A value network needs NNUE leaves, a file that loads and a value scale.
  c.valueInit = (dir.dir() / "missing.jnn").string();
  try {
    (void)runLoop(c, out);
    ADD_FAILURE() << "a value network with --value net was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("--value nnue"), std::string::npos) << e.what();
  }
  c.selfplay.value = "nnue";
  EXPECT_THROW((void)runLoop(c, out), Error);  // the file is missing
  // The repository's default network (nets/default.txt names it) loads; without a value scale
  // its centipawns would be read by the UCI_ShowWDL model, not as the result it was trained on.
  const fs::path nets = fs::path(JANUS_TEST_DATA) / ".." / ".." / "nets";
  std::string name;
  std::ifstream(nets / "default.txt") >> name;
  c.valueInit = (nets / name).string();
  try {
    (void)runLoop(c, out);
    ADD_FAILURE() << "a value network without a value scale was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("MCTS Value Scale"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(fs::exists(dir.dir() / "rl-state.json"));
}

TEST(RlSlurm, TheTaskCommandCarriesEverySelfplaySetting) {
  selfplay::SelfplayConfig sc;
  sc.games = 40;
  sc.threads = 2;
  sc.backend = "pvnet";
  sc.weights = "/nets/pv-1.jpv";
  sc.backendParams["policy-temperature"] = "1.2";
  sc.visits = 64;
  sc.fastVisits = 16;
  sc.fullFraction = 0.3;
  sc.temperaturePlies = 12;
  sc.temperature = 0.9;
  sc.resignQ = 0.97;
  sc.resignPlies = 4;
  sc.noResignFraction = 0.15;
  sc.maxPlies = 300;
  sc.batch = 8;
  sc.seed = 1000005;
  sc.openings = "/books/b.epd";
  EXPECT_EQ(selfplayTaskCommand(sc, "/bin/janus", "/run/gen-001/selfplay", 10),
            (std::vector<std::string>{"/bin/janus", "selfplay", "--output-dir", "/run/gen-001/selfplay", "--resume", "--quiet",
                                      "--games", "40", "--chunk-games", "10", "--threads", "2", "--backend", "pvnet",
                                      "--weights", "/nets/pv-1.jpv", "--policy-temperature", "1.2", "--visits", "64",
                                      "--fast-visits", "16", "--full-fraction", "0.3", "--temperature-plies", "12",
                                      "--temperature", "0.9", "--resign-q", "0.97", "--resign-plies", "4",
                                      "--no-resign-fraction", "0.15", "--max-plies", "300", "--batch", "8", "--seed",
                                      "1000005", "--openings", "/books/b.epd", "--value", "net"}));
  // NNUE leaf values reach the tasks with their leaf searches.
  sc.value = "nnue";
  sc.evalFile = "/nets/nn-1.jnn";
  sc.face.leaf.maxPly = 6;
  sc.face.leaf.priorTemperature = 80;
  sc.face.params.hints.visits = 150;
  const auto nnueArgv = selfplayTaskCommand(sc, "/bin/janus", "/d", 10);
  // The settings that differ from the default face, by the table (mcts/face_options.h).
  EXPECT_EQ(std::vector<std::string>(nnueArgv.end() - 10, nnueArgv.end()),
            (std::vector<std::string>{"--value", "nnue", "--eval-file", "/nets/nn-1.jnn", "--mcts-option",
                                      "MCTS Hint Visits=150", "--mcts-option", "MCTS QS Depth=6", "--mcts-option",
                                      "MCTS Prior Temperature=80"}));
  sc.value = "net";
  // The uniform backend of generation 0 has no network file.
  sc.weights.clear();
  sc.backend = "uniform";
  sc.backendParams.clear();
  sc.openings.clear();
  const auto argv = selfplayTaskCommand(sc, "/bin/janus", "/d", 10);
  EXPECT_EQ(std::find(argv.begin(), argv.end(), "--weights"), argv.end());
  EXPECT_EQ(std::find(argv.begin(), argv.end(), "--openings"), argv.end());
  sc.backendParams["cache"] = "1";
  EXPECT_THROW((void)selfplayTaskCommand(sc, "/bin/janus", "/d", 10), Error);
  // A value network reaches the tasks.
  sc.backendParams.clear();
  sc.value = "nnue";
  sc.valueFile = "/nets/nn-2.jnn";
  const auto valued = selfplayTaskCommand(sc, "/bin/janus", "/d", 10);
  const auto at = std::find(valued.begin(), valued.end(), "--value-file");
  ASSERT_NE(at, valued.end());
  EXPECT_EQ(*(at + 1), "/nets/nn-2.jnn");
}

TEST(RlMatches, TheMatchEnginesPlayTheFaceTheSelfplayPlayed) {
  auto option = [](const match::EngineConfig& e, const std::string& name) -> std::string {
    for (const auto& [k, v] : e.options)
      if (k == name) return v;
    return "(absent)";
  };
  RlConfig c;
  c.janus = "/bin/janus";
  c.selfplay.value = "net";
  const match::EngineConfig net = mctsMatchEngine(c, "gen1", "/nets/pv-1.jpv");
  EXPECT_EQ(net.name, "gen1");
  EXPECT_EQ(net.command, "/bin/janus");
  EXPECT_EQ(net.args, std::vector<std::string>{"--show-hidden"});  // the engine lists the tuning options it is given
  EXPECT_EQ(option(net, "Search"), "mcts");
  EXPECT_EQ(option(net, "MCTS Value"), "net");  // not the engine's default (nnue)
  EXPECT_EQ(option(net, "MCTS WeightsFile"), "/nets/pv-1.jpv");
  EXPECT_EQ(option(net, "MCTS QS Depth"), "8");  // every setting of the face's table, the default face's here
  EXPECT_EQ(option(net, "MCTS CPuct"), "1.86");

  c.selfplay.value = "nnue";
  c.selfplay.evalFile = "/nets/nn-1.jnn";
  c.selfplay.face.leaf.maxPly = 5;
  c.selfplay.face.leaf.priorTemperature = 70;
  const match::EngineConfig nnue = mctsMatchEngine(c, "gen0", "");
  EXPECT_EQ(option(nnue, "MCTS Value"), "nnue");
  EXPECT_EQ(option(nnue, "EvalFile"), "/nets/nn-1.jnn");
  EXPECT_EQ(option(nnue, "MCTS QS Depth"), "5");
  EXPECT_EQ(option(nnue, "MCTS Prior Temperature"), "70");
  EXPECT_EQ(option(nnue, "MCTS Hint Visits"), "300");  // the default face's, as in self-play
  EXPECT_EQ(option(nnue, "MCTS Backend"), "uniform");  // generation 0 without a network
  EXPECT_EQ(option(nnue, "MCTS ValueFile"), "(absent)");  // no value network: EvalFile's values the leaves
  // A value network of the face's own values the leaves of its side (MCTS ValueFile).
  const match::EngineConfig valued = mctsMatchEngine(c, "gen1", "/nets/pv-1.jpv", "/nets/nn-2.jnn");
  EXPECT_EQ(option(valued, "MCTS ValueFile"), "/nets/nn-2.jnn");
  EXPECT_EQ(option(valued, "EvalFile"), "/nets/nn-1.jnn");  // the hints' network stays
}

TEST(RlSlurm, MissingShardsAreTheShardsOfMissingChunks) {
  TempDir dir;
  // 8 chunks in 3 shards: shard 1 = chunks 0 3 6, shard 2 = 1 4 7, shard 3 = 2 5.
  EXPECT_EQ(missingSelfplayShards(dir.path(), 8, 3), (std::vector<int>{1, 2, 3}));
  for (int k : {0, 2, 3, 5, 7}) std::ofstream(dir.dir() / fmt::format("chunk-{:06d}.janussp.zst", k)) << "x";
  std::ofstream(dir.dir() / "chunk-000006.janussp.zst.tmp") << "a chunk being written is missing";
  EXPECT_EQ(missingSelfplayShards(dir.path(), 8, 3), (std::vector<int>{1, 2}));
  for (int k : {1, 4, 6}) std::ofstream(dir.dir() / fmt::format("chunk-{:06d}.janussp.zst", k)) << "x";
  EXPECT_TRUE(missingSelfplayShards(dir.path(), 8, 3).empty());
  EXPECT_EQ(missingSelfplayShards(dir.path(), 9, 3), (std::vector<int>{3}));  // chunk 8
}

TEST(RlConfig, AnUnknownLauncherIsAnError) {
  TempDir dir;
  RlConfig c;
  c.dir = dir.path();
  c.trainer = "/bin/true";
  c.janus = "/bin/true";
  c.launcher = "kubernetes";
  std::ostringstream out;
  try {
    (void)runLoop(c, out);
    ADD_FAILURE() << "an unknown launcher was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("kubernetes"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(fs::exists(dir.dir() / "rl-state.json"));
}

TEST(RlAbSpeed, TheRelativeSpeedIsNodesPerCpuSecondOfBenchRuns) {
  // A stand-in for `janus bench --evalfile FILE`: the same CPU work for both files, 100 times the
  // nodes for "fast.jnn", so the first is measured at about 100 times the speed (the CPU time of
  // one short shell loop varies up to 3-4x on a loaded machine: the bounds leave room for that).
  TempDir dir;
  const fs::path bench = dir.dir() / "bench.sh";
  std::ofstream(bench) << "#!/bin/sh\n"
                          "i=0; while [ $i -lt 40000 ]; do i=$((i+1)); done\n"
                          "case \"$3\" in *fast.jnn) echo '100000000 nodes 1 nps' ;; *) echo '1000000 nodes 1 nps' ;; esac\n";
  fs::permissions(bench, fs::perms::owner_all);
  RlConfig c;
  c.janus = bench.string();
  std::ostringstream out;
  const double speed = abRelativeSpeed(c, "fast.jnn", "slow.jnn", 3, (dir.dir() / "speed.log").string(), out);
  EXPECT_GT(speed, 20.0) << out.str();
  EXPECT_LT(speed, 500.0) << out.str();
  EXPECT_NE(out.str().find("speed run 3/3"), std::string::npos) << out.str();
  EXPECT_NE(std::ifstream(dir.dir() / "speed.log").peek(), EOF);
  // Equal time in nodes: 92% of the speed, 92% of the nodes.
  EXPECT_EQ(abScaledNodes(25000, 0.92), 23000u);
  EXPECT_EQ(abScaledNodes(10, 0.01), 1u);
  // A bench that prints no node count is an error naming the log.
  std::ofstream(bench) << "#!/bin/sh\necho nothing\n";
  try {
    (void)abRelativeSpeed(c, "fast.jnn", "slow.jnn", 1, (dir.dir() / "bad.log").string(), out);
    ADD_FAILURE() << "a bench without a node count was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("bad.log"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace janus::rl
