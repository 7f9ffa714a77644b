#include "engine/engine.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include <unistd.h>

#include "core/movegen.h"
#include "core/notation.h"
#include "mcts/mcts.h"
#include "mcts/pvnet.h"
#include "mcts/resnet_file.h"
#include "nnue/test_net.h"
#include "tb/syzygy.h"
#include "util/error.h"

namespace janus {
namespace {

TEST(Engine, SetPositionAppliesMovesAndKeepsStateOnError) {
  Engine e;
  e.setPosition("startpos", {"e2e4", "e7e5"});
  std::string fen = e.position().fen();
  EXPECT_EQ(fen, "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
  EXPECT_THROW(e.setPosition("startpos", {"e2e4", "e2e4"}), Error);
  EXPECT_EQ(e.position().fen(), fen);
  EXPECT_THROW(e.setPosition("8/8/8/8/8/2R5/1R6/6k1 w - - 0 1", {}), Error);
  EXPECT_EQ(e.position().fen(), fen);
}

TEST(Engine, GoDoesNotBlockAndDeliversBestMove) {
  Engine e;
  std::atomic<int> infos{0};
  SearchResult result;
  std::atomic<bool> got{false};
  e.onInfo([&](const SearchInfo&) { ++infos; });
  e.onBestMove([&](const SearchResult& r) {
    result = r;
    got = true;
  });
  e.setPosition("startpos", {});
  SearchLimits l;
  l.depth = 6;
  e.go(l);
  e.wait();
  EXPECT_TRUE(got);
  EXPECT_TRUE(result.best);
  EXPECT_GT(infos.load(), 0);
  EXPECT_FALSE(e.searching());
}

// The clock of the next go shows 300 ms more charged than the whole first go took: the engine
// measures at least that lag and plans with it.
TEST(Engine, MeasuresTheLagOfTheClock) {
  Engine e;
  std::vector<std::string> moves;
  e.onBestMove([&](const SearchResult& r) { moves.push_back(toUci(r.best, false)); });
  e.setPosition("startpos", {});
  SearchLimits l;
  l.time[kWhite] = l.time[kBlack] = 5000;
  l.inc[kWhite] = l.inc[kBlack] = 100;
  l.depth = 4;
  auto t0 = std::chrono::steady_clock::now();
  l.startTime = t0;
  e.go(l);
  e.wait();
  const i64 wallMs = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(e.measuredLagMs(), 0);
  ASSERT_EQ(moves.size(), 1u);
  e.setPosition("startpos", {moves[0], "e7e5"});
  l.time[kWhite] = 5000 + 100 - (wallMs + 300);
  l.startTime = std::chrono::steady_clock::now();
  e.go(l);
  e.wait();
  EXPECT_GE(e.measuredLagMs(), 300);
  EXPECT_LE(e.measuredLagMs(), 300 + wallMs + 50);
  e.newGame();  // a new game keeps the estimate (the machine is as loaded as before)
  EXPECT_GE(e.measuredLagMs(), 300);
}

TEST(Engine, EvalFileLoadsANetworkAndABadFileKeepsThePreviousEvaluation) {
  const std::string path = ::testing::TempDir() + "engine_test_net.jnn";
  {
    auto bytes = nnue::testing::quantise(nnue::testing::randomFloatNet(32, 8, nnue::Activation::kSCReLU, 1), "engine");
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  }
  Engine e;
  e.setOption("Use NNUE", "false");
  EXPECT_EQ(e.evaluationName(), "hand-crafted evaluation");
  e.setOption("EvalFile", path);  // choosing a network switches NNUE on
  const std::string nnueName = e.evaluationName();
  EXPECT_EQ(nnueName.rfind("NNUE nn-", 0), 0u) << nnueName;
  EXPECT_NE(nnueName.find("768x2->32->8 buckets"), std::string::npos) << nnueName;
  EXPECT_EQ(e.options().value("Use NNUE"), "true");
  {
    std::ofstream(path + ".bad", std::ios::binary) << "JANUSNN";  // truncated
  }
  EXPECT_THROW(e.setOption("EvalFile", path + ".bad"), Error);
  EXPECT_EQ(e.evaluationName(), nnueName);  // the previous network stays
  EXPECT_EQ(e.options().value("EvalFile"), path);
  // The search runs with it: a legal move at depth 5.
  SearchResult result;
  e.onBestMove([&](const SearchResult& r) { result = r; });
  SearchLimits l;
  l.depth = 5;
  e.go(l);
  e.wait();
  EXPECT_TRUE(result.best);
  e.setOption("Use NNUE", "false");
  EXPECT_EQ(e.evaluationName(), "hand-crafted evaluation");
  std::remove(path.c_str());
  std::remove((path + ".bad").c_str());
}

TEST(Engine, InfiniteSearchWaitsForStop) {
  Engine e;
  std::atomic<bool> got{false};
  e.onBestMove([&](const SearchResult&) { got = true; });
  e.setPosition("6k1/5ppp/8/8/8/8/8/K2R4 w - - 0 1", {});  // mate in 1: the search ends early
  SearchLimits l;
  l.infinite = true;
  l.depth = 3;
  e.go(l);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT_FALSE(got) << "bestmove before stop in infinite mode";
  EXPECT_TRUE(e.searching() || !got);
  e.stop();
  e.wait();
  EXPECT_TRUE(got);
}

TEST(Engine, PonderWaitsForPonderhitThenUsesTheClock) {
  Engine e;
  std::atomic<bool> got{false};
  e.onBestMove([&](const SearchResult&) { got = true; });
  e.setPosition("startpos", {"e2e4"});
  SearchLimits l;
  l.ponder = true;
  l.time[kWhite] = l.time[kBlack] = 1000;
  e.go(l);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_FALSE(got) << "no bestmove while pondering, whatever the clock says";
  e.ponderhit();
  e.wait();
  EXPECT_TRUE(got);
}

TEST(Engine, SecondGoWhileSearchingIsAnError) {
  Engine e;
  SearchLimits l;
  l.infinite = true;
  e.go(l);
  EXPECT_THROW(e.go(l), Error);
  EXPECT_THROW(e.setOption("Hash", "32"), Error);
  e.stop();
  e.wait();
  EXPECT_NO_THROW(e.setOption("Hash", "32"));
}

TEST(Engine, OptionsAreDeclared) {
  Engine e;
  for (const char* name : {"Hash", "Threads", "MultiPV", "Ponder", "Move Overhead", "Clear Hash", "UCI_Chess960"})
    EXPECT_TRUE(e.options().contains(name)) << name;
}

TEST(Engine, TuningOptionsAreHiddenAndTheDocsTableIsTheEnginesOwn) {
  Engine e;
  // What a player or GUI needs is shown; the MCTS face's tuning constants are hidden (settable).
  for (const char* shown : {"Search", "MCTS Backend", "MCTS WeightsFile", "MCTS Value", "MCTS Cache", "MCTS Tree MiB", "Threads"})
    EXPECT_FALSE(e.options().spec(shown).hidden) << shown;
  for (const char* hidden : {"MCTS CPuct", "MCTS Hint Visits", "MCTS Hint Weight", "MCTS Batch", "MCTS Policy Temperature"})
    EXPECT_TRUE(e.options().spec(hidden).hidden) << hidden;
  e.setOption("MCTS CPuct", "2.5");
  EXPECT_EQ(e.options().value("MCTS CPuct"), "2.5");
  EXPECT_THROW(e.setOption("MCTS CPuct", "lots"), Error);
  EXPECT_THROW(e.setOption("MCTS Hint Share", "101"), Error);
  // docs/mcts.md's table is `janus options --prefix Search --prefix "MCTS "`, byte for byte.
  std::ifstream in(std::string(JANUS_TEST_DATA) + "/../../docs/mcts.md");
  ASSERT_TRUE(in) << "docs/mcts.md";
  const std::string doc((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string begin = "<!-- BEGIN janus options --prefix Search --prefix \"MCTS \" -->\n", end = "<!-- END janus options -->";
  const size_t from = doc.find(begin), to = doc.find(end);
  ASSERT_NE(from, std::string::npos);
  ASSERT_NE(to, std::string::npos);
  EXPECT_EQ(doc.substr(from + begin.size(), to - from - begin.size()), Engine().options().markdownTable({"Search", "MCTS "}))
      << "regenerate docs/mcts.md's option table with: build/janus options --prefix Search --prefix \"MCTS \"";
}

TEST(Engine, SetOptionsTakesNameEqualsValueAssignmentsInOrder) {
  Engine e;
  e.setOptions({"Hash=8", "MultiPV=3", "MultiPV=2", "MCTS Noise=TRUE"});
  EXPECT_EQ(e.options().value("Hash"), "8");
  EXPECT_EQ(e.options().value("MultiPV"), "2");
  EXPECT_EQ(e.options().value("MCTS Noise"), "true");
  EXPECT_THROW(e.setOptions({"Hash"}), Error);
  EXPECT_THROW(e.setOptions({"=5"}), Error);
  EXPECT_THROW(e.setOptions({"No Such Option=1"}), Error);
  EXPECT_THROW(e.setOptions({"Hash=lots"}), Error);
  EXPECT_EQ(e.options().value("Hash"), "8");
  // The leaf searches' options reach the MCTS face's backend.
  if (e.options().value("MCTS Value") != "nnue") GTEST_SKIP() << "no NNUE network built in";
  e.setOptions({"MCTS Backend=uniform", "Search=mcts", "MCTS Smart Pruning=false"});
  e.setOptions({"MCTS QS Depth=4", "MCTS Prior Temperature=50"});
  EXPECT_NE(e.evaluationName().find("one-ply search (quiescence 4 plies, prior temperature 50 cp)"), std::string::npos)
      << e.evaluationName();
  EXPECT_THROW(e.setOption("MCTS QS Depth", "-1"), Error);
  // The hints' options reach the search's hints (defaults: share 50, depth 3, value on).
  EXPECT_NE(e.evaluationName().find("TT hints at a draft of 3 plies (prior at least 50%, value within the bound)"),
            std::string::npos)
      << e.evaluationName();
  e.setOptions({"MCTS TT Hint Value=false", "MCTS TT Hint Depth=5"});
  EXPECT_NE(e.evaluationName().find("TT hints at a draft of 5 plies (prior at least 50%)"), std::string::npos)
      << e.evaluationName();
  e.setOption("MCTS TT Hint Share", "0");
  EXPECT_EQ(e.evaluationName().find("TT hints"), std::string::npos) << e.evaluationName();
  EXPECT_NE(e.evaluationName().find("alpha-beta hints of depth 10"), std::string::npos) << e.evaluationName();
  // The hints search with the NNUE of MCTS Value nnue: with the backend's own values, none.
  e.setOption("MCTS Value", "net");
  EXPECT_EQ(e.evaluationName().find("alpha-beta hints"), std::string::npos) << e.evaluationName();
}

TEST(Engine, MctsValueFileValuesTheLeavesWhileTheHintsKeepEvalFile) {
  Engine e;
  if (e.options().value("MCTS Value") != "nnue") GTEST_SKIP() << "no NNUE network built in";
  const std::string path = ::testing::TempDir() + "engine_test_value_net.jnn";
  {
    auto bytes = nnue::testing::quantise(nnue::testing::randomFloatNet(32, 8, nnue::Activation::kSCReLU, 3), "value");
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  }
  const std::string evalNet = nnue::Network::fromFile(path)->name();
  e.setOptions({"MCTS Backend=uniform", "Search=mcts"});
  const std::string before = e.evaluationName();
  const std::string defaultNet = before.substr(before.find("NNUE ") + 5, before.find(' ', before.find("NNUE ") + 5) -
                                                                             before.find("NNUE ") - 5);
  EXPECT_NE(before.find("by NNUE " + defaultNet), std::string::npos) << before;  // one network for both
  e.setOption("MCTS ValueFile", path);
  const std::string after = e.evaluationName();
  EXPECT_EQ(after.rfind("MCTS backend uniform: NNUE " + evalNet + " one-ply search", 0), 0u) << after;
  EXPECT_NE(after.find("by NNUE " + defaultNet), std::string::npos) << after;  // the hints keep EvalFile's
  // A bad file is an error naming it, and the previous value network stays.
  EXPECT_THROW(e.setOption("MCTS ValueFile", path + ".missing"), Error);
  EXPECT_EQ(e.evaluationName(), after);
  // The value scale reaches the leaves.
  e.setOption("MCTS Value Scale", "187");
  EXPECT_NE(e.evaluationName().find("expected score sigmoid(cp / 187)"), std::string::npos) << e.evaluationName();
  // The search runs with it.
  SearchResult result;
  e.onBestMove([&](const SearchResult& r) { result = r; });
  SearchLimits l;
  l.nodes = 200;
  e.go(l);
  e.wait();
  EXPECT_TRUE(result.best);
  // Empty: EvalFile's network values the leaves again.
  e.setOption("MCTS ValueFile", "");
  EXPECT_EQ(e.evaluationName().rfind("MCTS backend uniform: NNUE " + defaultNet, 0), 0u) << e.evaluationName();
}

}  // namespace
}  // namespace janus

namespace janus {
namespace {

SearchResult searchOnce(Engine& e, SearchLimits l, std::vector<SearchInfo>* infos = nullptr) {
  SearchResult r;
  e.onBestMove([&](const SearchResult& res) { r = res; });
  e.onInfo([infos](const SearchInfo& i) {
    if (infos) infos->push_back(i);
  });
  e.go(l);
  e.wait();
  return r;
}

TEST(EngineBook, OwnBookPlaysPolyglotMoves) {
  Engine e;
  e.setOption("BookFile", std::string(JANUS_TEST_DATA) + "/books/performance.bin");
  e.setOption("OwnBook", "true");
  e.setOption("BookBestMove", "true");
  e.setPosition("startpos", {});
  SearchLimits l;
  l.depth = 30;  // a book move comes back at once, without searching
  std::vector<SearchInfo> infos;
  SearchResult r = searchOnce(e, l, &infos);
  std::string m = toUci(r.best, false);
  EXPECT_TRUE(m == "e2e4" || m == "d2d4" || m == "c2c4") << m;
  // No search, but one info line shows the move (GUIs check that bestmove begins the last PV).
  ASSERT_EQ(infos.size(), 1u);
  EXPECT_EQ(infos[0].pv, std::vector<Move>{r.best});
  EXPECT_EQ(infos[0].depth, 0);
  // Out of book: a normal search.
  e.setPosition("8/8/8/4k3/8/8/8/R3K3 w - - 0 1", {});
  l.depth = 4;
  r = searchOnce(e, l, &infos);
  EXPECT_FALSE(infos.empty());
}

TEST(EngineBook, BadBookFileIsRejectedAndTheOldBookKept) {
  Engine e;
  EXPECT_THROW(e.setOption("BookFile", "/nonexistent/book.bin"), Error);
  EXPECT_EQ(e.options().value("BookFile"), "");
}

const char* kGaviota = "/usr/share/gaviotatb/gtb4";

TEST(EngineTablebases, RootProbeGivesExactMateDistance) {
  if (!std::ifstream(std::string(kGaviota) + "/kqk.gtb.cp4")) GTEST_SKIP() << "Debian's gaviotatb not installed";
  Engine e;
  e.setOption("GaviotaTbPath", kGaviota);
  // KQ vs K: the tablebase knows the exact distance to mate; the engine plays a DTM-optimal move.
  e.setPosition("8/8/8/2k5/8/8/8/3QK3 w - - 0 1", {});
  std::vector<SearchInfo> infos;
  SearchLimits l;
  l.depth = 10;
  SearchResult r = searchOnce(e, l, &infos);
  ASSERT_FALSE(infos.empty());
  EXPECT_TRUE(isMateScore(r.score));
  EXPECT_GT(infos.back().tbHits, 0u);
  // Mate in N moves for White means 2N - 1 plies; K+Q vs K from here needs at least 4 moves.
  EXPECT_GE(mateInMoves(r.score), 4);
  EXPECT_LE(mateInMoves(r.score), 10);
  e.setOption("GaviotaTbPath", "");
}

TEST(EngineTablebases, SearchProbesAfterCaptures) {
  if (!std::ifstream(std::string(kGaviota) + "/krk.gtb.cp4")) GTEST_SKIP() << "Debian's gaviotatb not installed";
  Engine e;
  e.setOption("GaviotaTbPath", kGaviota);
  // The rook takes the knight: the resulting K+R vs K is a tablebase win found in search.
  e.setPosition("8/8/3k4/8/8/3n4/8/3RK3 w - - 0 1", {});
  std::vector<SearchInfo> infos;
  SearchLimits l;
  l.depth = 6;
  SearchResult r = searchOnce(e, l, &infos);
  EXPECT_EQ(toUci(r.best, false), "d1d3");
  EXPECT_GE(r.score, kTbWinInMaxPly);
  EXPECT_GT(infos.back().tbHits, 0u);
  e.setOption("GaviotaTbPath", "");
}

TEST(EngineMcts, SearchOptionSwitchesToMcts) {
  Engine e;
  EXPECT_EQ(e.search().name(), "alphabeta");
  EXPECT_EQ(e.options().value("MCTS Backend"), mcts::BackendRegistry::instance().defaultName());
  e.setOption("MCTS Backend", "uniform");
  e.setOption("Search", "mcts");
  EXPECT_EQ(e.search().name(), "mcts");
  EXPECT_NE(e.evaluationName().find("uniform"), std::string::npos) << e.evaluationName();
  e.setOption("UCI_ShowWDL", "true");
  // Without smart pruning 'nodes 200' makes exactly 200 playouts (with it the search may stop
  // once the runner-up can no longer catch up).
  e.setOption("MCTS Smart Pruning", "false");
  e.setPosition("startpos", {"e2e4"});
  SearchLimits l;
  l.nodes = 200;
  std::vector<SearchInfo> infos;
  SearchResult r = searchOnce(e, l, &infos);
  EXPECT_TRUE(legalMoves(e.position()).contains(r.best));
  EXPECT_EQ(r.nodes, 200u);
  ASSERT_FALSE(infos.empty());
  ASSERT_TRUE(infos.back().wdl);
  EXPECT_EQ(infos.back().wdl->win + infos.back().wdl->draw + infos.back().wdl->loss, 1000);
  EXPECT_FALSE(infos.back().moveStats.empty());
  EXPECT_EQ(infos.back().pv.front(), r.best);
  // Without UCI_ShowWDL no wdl, as the UCI protocol asks.
  e.setOption("UCI_ShowWDL", "false");
  searchOnce(e, l, &infos);
  EXPECT_FALSE(infos.back().wdl);
  // Options are checked when set; bad values keep the old ones.
  EXPECT_THROW(e.setOption("MCTS CPuct", "lots"), Error);
  EXPECT_THROW(e.setOption("MCTS CPuct", "-1"), Error);
  EXPECT_EQ(e.options().value("MCTS CPuct"), "1.86");
  EXPECT_THROW(e.setOption("MCTS Backend", "tensor"), Error);
  e.setOption("MCTS CPuct", "3.1");
  e.setOption("MCTS Cache", "0");
  e.setOption("MCTS Batch", "4");
  e.setOption("Threads", "2");
  r = searchOnce(e, l, &infos);
  EXPECT_TRUE(legalMoves(e.position()).contains(r.best));
  EXPECT_DOUBLE_EQ(e.mctsSearch()->params().puct.cpuctInit, 3.1);
  EXPECT_EQ(e.mctsSearch()->params().batchSize, 4);
  // And back: alpha-beta as before.
  e.setOption("Search", "alphabeta");
  e.setOption("Threads", "1");
  EXPECT_EQ(e.search().name(), "alphabeta");
  l = SearchLimits{};
  l.depth = 4;
  r = searchOnce(e, l, &infos);
  EXPECT_TRUE(r.best);
  EXPECT_TRUE(infos.back().moveStats.empty());
}

TEST(EngineMcts, AResidualNetworkFileNeedsJanusTorch) {
  // engine_tests do not link the torch backend (like janus): no backend claims a .jrn file, a
  // clear error naming the file and its magic.
  if (mcts::BackendRegistry::instance().contains("torch")) GTEST_SKIP() << "torch backend linked in";
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("janus-engine-rn-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  mcts::rn::ResNetArch a;
  a.blocks = 1;
  a.filters = 8;
  const std::string path = mcts::rn::writeResNetFile(mcts::rn::ResNetWeights::zeros(a), dir.string(), "engine test");
  Engine e;
  e.setOption("MCTS Backend", "uniform");
  e.setOption("Search", "mcts");
  try {
    e.setOption("MCTS WeightsFile", path);
    ADD_FAILURE() << "a .jrn file was accepted without the torch backend";
  } catch (const Error& err) {
    const std::string what = err.what();
    EXPECT_NE(what.find("no MCTS backend of this binary reads the network file '" + path + "'"), std::string::npos) << what;
    EXPECT_NE(what.find("JANUSRN"), std::string::npos) << what;
  }
  EXPECT_EQ(e.options().value("MCTS Backend"), "uniform");
  EXPECT_EQ(e.options().value("MCTS WeightsFile"), "");
  fs::remove_all(dir);
}

TEST(EngineMcts, WeightsFileSelectsThePvNetBackendAndABadFileKeepsThePrevious) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("janus-engine-pv-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  mcts::pvnet::PvWeights w = mcts::pvnet::PvWeights::zeros(16, 8);
  w.valueB2 = {0.0f, 3.0f, 0.0f};  // a draw, whatever the position
  const std::string path = mcts::pvnet::writePvFile(w, dir.string(), "engine test");
  Engine e;
  e.setOption("MCTS Backend", "uniform");
  e.setOption("MCTS Value", "net");  // the network's own value head: its certain draw below
  e.setOption("Search", "mcts");
  e.setOption("MCTS WeightsFile", path);
  EXPECT_EQ(e.options().value("MCTS Backend"), "pvnet");
  EXPECT_NE(e.evaluationName().find("pvnet pv-"), std::string::npos) << e.evaluationName();
  const std::string before = e.evaluationName();
  // A missing or corrupt file is an error naming it; the loaded network stays.
  EXPECT_THROW(e.setOption("MCTS WeightsFile", (dir / "missing.jpv").string()), Error);
  { std::ofstream((dir / "bad.jpv").string()) << "not a network"; }
  try {
    e.setOption("MCTS WeightsFile", (dir / "bad.jpv").string());
    ADD_FAILURE() << "a bad network file was accepted";
  } catch (const Error& err) {
    EXPECT_NE(std::string(err.what()).find("bad.jpv"), std::string::npos) << err.what();
  }
  EXPECT_EQ(e.options().value("MCTS WeightsFile"), path);
  EXPECT_EQ(e.evaluationName(), before);
  EXPECT_THROW(e.setOption("MCTS Policy Temperature", "0"), Error);
  e.setOption("MCTS Policy Temperature", "1.5");
  EXPECT_NE(e.evaluationName().find("policy temperature 1.5"), std::string::npos) << e.evaluationName();
  e.setPosition("startpos", {});
  SearchLimits l;
  l.nodes = 300;
  std::vector<SearchInfo> infos;
  const SearchResult r = searchOnce(e, l, &infos);
  EXPECT_TRUE(legalMoves(e.position()).contains(r.best));
  EXPECT_EQ(infos.back().score, 0);  // the network's certain draw
  fs::remove_all(dir);
}

TEST(EngineMcts, InfiniteMctsSearchWaitsForStop) {
  Engine e;
  e.setOption("Search", "mcts");
  e.setOption("MCTS Tree MiB", "64");
  std::atomic<bool> got{false};
  e.onBestMove([&](const SearchResult&) { got = true; });
  SearchLimits l;
  l.infinite = true;
  e.go(l);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_FALSE(got);
  e.stop();
  e.wait();
  EXPECT_TRUE(got);
}

// ---- Syzygy (tb/syzygy.h) through the engine's options --------------------------------------

const std::string kSyzygy = std::string(JANUS_TEST_DATA) + "/syzygy";
#define REQUIRE_SYZYGY() \
  ASSERT_TRUE(std::ifstream(kSyzygy + "/KQvK.rtbw")) << "Syzygy test tables missing: " << kSyzygy

/// Sets SyzygyPath for one test and clears it (the tables are process-wide) at the end.
struct SyzygyScope {
  Engine& e;
  std::vector<std::string> messages;
  SyzygyScope(Engine& engine, const std::string& path) : e(engine) {
    e.onMessage([this](const std::string& m) { messages.push_back(m); });
    e.setOption("SyzygyPath", path);
  }
  ~SyzygyScope() {
    e.setOption("SyzygyPath", "");
    e.setOption("Syzygy50MoveRule", "true");
    e.setOption("SyzygyProbeDepth", "1");
    e.setOption("SyzygyProbeLimit", "7");
  }
};

TEST(EngineSyzygy, OptionsAreNamedAsStockfishNamesThem) {
  Engine e;
  EXPECT_EQ(e.options().value("SyzygyPath"), "");
  EXPECT_EQ(e.options().value("SyzygyProbeDepth"), "1");
  EXPECT_EQ(e.options().value("Syzygy50MoveRule"), "true");
  EXPECT_EQ(e.options().value("SyzygyProbeLimit"), "7");
  EXPECT_THROW(e.setOption("SyzygyProbeLimit", "8"), Error);
  EXPECT_THROW(e.setOption("SyzygyProbeDepth", "0"), Error);
}

TEST(EngineSyzygy, NonexistentPathIsAnErrorAndNothingElseChanges) {
  REQUIRE_SYZYGY();
  Engine e;
  SyzygyScope scope(e, kSyzygy);
  ASSERT_EQ(scope.messages.size(), 1u);
  EXPECT_EQ(scope.messages[0].rfind("Syzygy tablebases: 23 WDL and 23 DTZ files, up to 4 pieces", 0), 0u) << scope.messages[0];
  try {
    e.setOption("SyzygyPath", "/nonexistent/syzygy");
    FAIL() << "no error";
  } catch (const Error& err) {
    EXPECT_EQ(std::string(err.what()),
              "option SyzygyPath: Syzygy tablebases: '/nonexistent/syzygy' is not a directory (it does not exist)");
  }
  EXPECT_EQ(e.options().value("SyzygyPath"), kSyzygy);
  EXPECT_EQ(scope.messages.size(), 1u);
  // The tables loaded before still decide the root.
  e.setPosition("8/8/7R/8/8/8/3Kn1k1/8 w - - 0 1", {});
  std::vector<SearchInfo> infos;
  SearchLimits l;
  l.depth = 4;
  const SearchResult r = searchOnce(e, l, &infos);
  EXPECT_EQ(toUci(r.best, false), "d2e2");
  EXPECT_GT(infos.back().tbHits, 0u);
}

// K+R v K+N where only Kd2xe2 keeps the win (tb/syzygy_test.cpp): the root is narrowed to it and
// the score is a tablebase win (kTbWin - DTZ), with tbhits counting the probes.
TEST(EngineSyzygy, AlphaBetaPlaysTheOnlyWinningMove) {
  REQUIRE_SYZYGY();
  Engine e;
  SyzygyScope scope(e, kSyzygy);
  e.setPosition("8/8/7R/8/8/8/3Kn1k1/8 w - - 0 1", {});
  std::vector<SearchInfo> infos;
  SearchLimits l;
  l.depth = 8;
  const SearchResult r = searchOnce(e, l, &infos);
  EXPECT_EQ(toUci(r.best, false), "d2e2");
  EXPECT_GE(r.score, kTbWinInMaxPly);
  EXPECT_FALSE(isMateScore(r.score));
  ASSERT_FALSE(infos.empty());
  EXPECT_EQ(infos.back().score, r.score);
  EXPECT_GE(infos.back().tbHits, 20u);  // the root probe alone looks at the 20 moves
  // K+R v K+B: only the quiet Rf1-c1 keeps the win (docs/tablebases.md: without tables depth 10
  // plays Kb6, a draw).
  e.setPosition("1k6/8/K7/7b/8/8/8/5R2 w - - 0 1", {});
  l.depth = 10;
  const SearchResult krkb = searchOnce(e, l, &infos);
  EXPECT_EQ(toUci(krkb.best, false), "f1c1");
  EXPECT_GE(krkb.score, kTbWinInMaxPly);
}

// Five pieces at the root (not in the tables): the queen takes the rook and the search's WDL probe
// after the capture sees a K+Q+N v K win.
TEST(EngineSyzygy, AlphaBetaProbesAfterCaptures) {
  REQUIRE_SYZYGY();
  Engine e;
  SyzygyScope scope(e, kSyzygy);
  e.setPosition("4k3/8/8/8/3r4/8/3Q4/4K2N w - - 0 1", {});
  std::vector<SearchInfo> infos;
  SearchLimits l;
  l.depth = 6;
  const SearchResult r = searchOnce(e, l, &infos);
  EXPECT_EQ(toUci(r.best, false), "d2d4");
  EXPECT_GE(r.score, kTbWinInMaxPly);
  EXPECT_GT(infos.back().tbHits, 0u);
  // SyzygyProbeLimit 3 leaves the 4-piece ending to the search: no tablebase score, no probes.
  e.setOption("SyzygyProbeLimit", "3");
  e.newGame();
  infos.clear();
  const SearchResult limited = searchOnce(e, l, &infos);
  EXPECT_EQ(toUci(limited.best, false), "d2d4");
  EXPECT_LT(limited.score, kTbWinInMaxPly);
  EXPECT_EQ(infos.back().tbHits, 0u);
}

// K+B+N v K with 56 plies to zeroing and 50 on the clock: a cursed win. Syzygy50MoveRule true
// reports the draw it is; false reports the win (kTbWin - 56).
TEST(EngineSyzygy, FiftyMoveRuleOptionDecidesACursedWin) {
  REQUIRE_SYZYGY();
  const std::string fen = "8/4k3/8/8/2B5/8/K7/7N w - - 50 60";
  SearchResult drawn, won;
  {
    Engine e;
    SyzygyScope scope(e, kSyzygy);
    e.setPosition(fen, {});
    SearchLimits l;
    l.depth = 8;
    std::vector<SearchInfo> infos;
    drawn = searchOnce(e, l, &infos);
    EXPECT_EQ(drawn.score, kDrawScore);
    EXPECT_EQ(infos.back().score, kDrawScore);
    EXPECT_GT(infos.back().tbHits, 0u);
    e.setOption("Syzygy50MoveRule", "false");
    infos.clear();
    won = searchOnce(e, l, &infos);
    EXPECT_EQ(won.score, tbWinIn(56));
  }
  // Both play one of the moves fastest to zeroing (the best DTZ rank): the root is restricted to
  // them. Which of those equal moves comes first is the search's (its histories, kept from the
  // first search, order them), so each is checked against the tables' own ranking, probed after
  // the engine has released them (one holder at a time, tb/syzygy.h).
  SyzygyTablebases tables;
  ASSERT_GT(tables.init(kSyzygy).maxPieces, 0);
  const auto root = tables.probeRoot(Position::fromFen(fen));
  ASSERT_TRUE(root);
  std::vector<std::string> fastest;
  for (const SyzygyRootMove& m : root->moves)
    if (m.rank == root->moves.front().rank) fastest.push_back(toUci(m.move, false));
  ASSERT_LT(fastest.size(), root->moves.size()) << "the check needs moves outside the best rank";
  EXPECT_NE(std::find(fastest.begin(), fastest.end(), toUci(drawn.best, false)), fastest.end()) << toUci(drawn.best, false);
  EXPECT_NE(std::find(fastest.begin(), fastest.end(), toUci(won.best, false)), fastest.end()) << toUci(won.best, false);
}

TEST(EngineSyzygy, CorruptTableIsAnErrorAndTheSearchGoesOnWithoutIt) {
  REQUIRE_SYZYGY();
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("janus-engine-syzygy-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  for (const auto& f : std::filesystem::directory_iterator(kSyzygy))
    if (f.path().extension() == ".rtbw" || f.path().extension() == ".rtbz")
      std::filesystem::copy_file(f.path(), dir / f.path().filename(), std::filesystem::copy_options::overwrite_existing);
  std::filesystem::permissions(dir / "KQvK.rtbw", std::filesystem::perms::owner_write, std::filesystem::perm_options::add);
  std::filesystem::resize_file(dir / "KQvK.rtbw", 4000);  // a partial download
  {
    Engine e;
    SyzygyScope scope(e, dir.string());
    EXPECT_EQ(e.options().value("SyzygyPath"), dir.string());
    ASSERT_EQ(scope.messages.size(), 2u);
    EXPECT_EQ(scope.messages[0], "error: option SyzygyPath: " + (dir / "KQvK.rtbw").string() +
                                     ": truncated or corrupt: 4000 bytes (a Syzygy table is 16 bytes more than a multiple "
                                     "of 64); probing goes on without this table");
    EXPECT_NE(scope.messages[1].find("22 WDL and 23 DTZ files"), std::string::npos) << scope.messages[1];
    // K+Q v K: searched without tables (Fathom left the file out), a mate found by search alone.
    e.setPosition("8/8/8/2k5/8/8/8/3QK3 w - - 0 1", {});
    std::vector<SearchInfo> infos;
    SearchLimits l;
    l.depth = 6;
    const SearchResult kqk = searchOnce(e, l, &infos);
    EXPECT_TRUE(kqk.best);
    EXPECT_EQ(infos.back().tbHits, 0u);
    EXPECT_GT(kqk.score, 500);
    // K+R v K+N still answers from its tables.
    e.setPosition("8/8/7R/8/8/8/3Kn1k1/8 w - - 0 1", {});
    infos.clear();
    const SearchResult krkn = searchOnce(e, l, &infos);
    EXPECT_EQ(toUci(krkn.best, false), "d2e2");
    EXPECT_GT(infos.back().tbHits, 0u);
  }
  std::filesystem::remove_all(dir);
}

TEST(EngineTablebases, BadPathIsAnError) {
  Engine e;
  EXPECT_THROW(e.setOption("GaviotaTbPath", "/nonexistent"), Error);
  EXPECT_EQ(e.options().value("GaviotaTbPath"), "");
}

}  // namespace
}  // namespace janus
