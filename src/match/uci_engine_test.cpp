#include "match/uci_engine.h"

#include <chrono>

#include <gtest/gtest.h>

#include "util/error.h"

using namespace janus::match;
using namespace std::chrono_literals;

TEST(UciInfo, ParsesScoreDepthNodesPv) {
  SearchInfo info;
  parseInfoLine("info depth 12 seldepth 18 multipv 1 score cp 35 nodes 123456 nps 1000 hashfull 3 tbhits 0 time 512 "
                "pv e2e4 e7e5 g1f3",
                info);
  ASSERT_TRUE(info.score);
  EXPECT_EQ(info.score->kind, UciScore::Kind::kCentipawns);
  EXPECT_EQ(info.score->value, 35);
  EXPECT_EQ(info.depth, 12);
  EXPECT_EQ(info.seldepth, 18);
  EXPECT_EQ(info.nodes, 123456u);
  EXPECT_EQ(info.timeMs, 512);
  ASSERT_EQ(info.pv.size(), 3u);
  EXPECT_EQ(info.pv[2], "g1f3");
  EXPECT_EQ(info.score->toString(), "+0.35");

  parseInfoLine("info depth 13 score mate -3 wdl 0 0 1000 nodes 200000 pv e1e2", info);
  EXPECT_EQ(info.score->kind, UciScore::Kind::kMate);
  EXPECT_EQ(info.score->value, -3);
  EXPECT_EQ(info.score->toString(), "-M3");
  EXPECT_EQ(info.score->centipawns(), -(UciScore::kMateCp - 3));
  EXPECT_EQ(info.nodes, 200000u);
}

TEST(UciInfo, BoundsAndSecondaryLinesAndStrings) {
  SearchInfo info;
  parseInfoLine("info depth 10 score cp 20 pv d2d4", info);
  // A bound at the same depth does not replace the exact score.
  parseInfoLine("info depth 10 score cp 80 lowerbound nodes 5", info);
  EXPECT_EQ(info.score->value, 20);
  EXPECT_EQ(info.nodes, 5u);
  // A deeper bound does.
  parseInfoLine("info depth 11 score cp 60 upperbound", info);
  EXPECT_EQ(info.score->value, 60);
  EXPECT_EQ(info.score->bound, UciScore::Bound::kUpper);
  // multipv 2 lines and info strings are ignored.
  parseInfoLine("info depth 11 multipv 2 score cp -500 pv a2a3", info);
  EXPECT_EQ(info.score->value, 60);
  parseInfoLine("info string depth 40 score cp 999", info);
  EXPECT_EQ(info.depth, 11);
  parseInfoLine("info currmove e2e4 currmovenumber 1", info);
  EXPECT_EQ(info.depth, 11);
  parseInfoLine("info depth", info);  // truncated: harmless
  EXPECT_EQ(info.score->toString(), "+0.60");
}

TEST(ChildProcess, LinesStderrEofAndExitStatus) {
  ChildProcess p;
  std::vector<std::string> errs;
  p.setStderrSink([&](const std::string& l) { errs.push_back(l); });
  p.start("/bin/sh", {"-c", "read x; echo got $x; echo oops >&2; printf 'partial'; exit 7"}, "");
  EXPECT_TRUE(p.running());
  ASSERT_TRUE(p.writeLine("hello"));
  std::string line;
  auto deadline = ChildProcess::Clock::now() + 5s;
  ASSERT_EQ(p.readLine(line, deadline), ChildProcess::ReadStatus::kLine);
  EXPECT_EQ(line, "got hello");
  ASSERT_EQ(p.readLine(line, deadline), ChildProcess::ReadStatus::kLine);
  EXPECT_EQ(line, "partial");  // last line without '\n' is delivered at EOF
  EXPECT_EQ(p.readLine(line, deadline), ChildProcess::ReadStatus::kEof);
  p.stop(1000ms);
  EXPECT_EQ(p.exitDescription(), "exited with code 7");
  ASSERT_EQ(errs.size(), 1u);
  EXPECT_EQ(errs[0], "oops");
  EXPECT_FALSE(p.writeLine("more"));  // SIGPIPE is ignored: a write to a dead child just fails
}

TEST(ChildProcess, TimeoutAndKill) {
  ChildProcess p;
  p.start("sleep", {"30"}, "");
  std::string line;
  auto t0 = ChildProcess::Clock::now();
  EXPECT_EQ(p.readLine(line, t0 + 50ms), ChildProcess::ReadStatus::kTimeout);
  EXPECT_GE(ChildProcess::Clock::now() - t0, 45ms);
  p.stop(20ms);  // sleep ignores stdin EOF: killed after the grace period
  EXPECT_EQ(p.exitDescription(), "killed by signal 9 (Killed)");
}

TEST(ChildProcess, MissingProgramAndDirectory) {
  ChildProcess p;
  EXPECT_THROW(p.start("/nonexistent/engine", {}, ""), janus::Error);
  EXPECT_THROW(p.start("/bin/true", {}, "/nonexistent-dir"), janus::Error);
  try {
    p.start("/nonexistent/engine", {}, "");
  } catch (const janus::Error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/engine"), std::string::npos);
  }
}

TEST(UciEngine, HandshakeWithFakeEngine) {
  EngineConfig c = parseEngineSpec(std::string("name=Fake cmd=") + JANUS_FAKE_ENGINE + " option.Hash=4 option.Nope=1");
  UciEngine e(c, "Fake#1", nullptr);
  e.start(false, 5000ms);
  EXPECT_TRUE(e.running());
  EXPECT_EQ(e.idName(), "FakeEngine");
  ASSERT_EQ(e.warnings().size(), 1u);
  EXPECT_NE(e.warnings()[0].find("Nope"), std::string::npos);
  EXPECT_TRUE(e.newGame(5000ms));
  ASSERT_TRUE(e.send("position startpos moves e2e4"));
  ASSERT_TRUE(e.send("go wtime 1000 btime 1000"));
  auto r = e.waitBestMove(UciEngine::Clock::now() + 5s);
  EXPECT_EQ(r.status, UciEngine::SearchResult::Status::kBestMove);
  EXPECT_EQ(r.bestMove.size(), 4u);
  EXPECT_FALSE(r.ponderMove.empty());
  e.quit(1000ms);
  EXPECT_FALSE(e.running());
  EXPECT_EQ(e.exitDescription(), "exited with code 0");
}

TEST(UciEngine, StartFailures) {
  UciEngine silent(parseEngineSpec(std::string("name=Silent cmd=") + JANUS_FAKE_ENGINE + " arg=--no-uciok"), "S",
                   nullptr);
  try {
    silent.start(false, 200ms);
    FAIL() << "no uciok must throw";
  } catch (const janus::Error& e) {
    EXPECT_NE(std::string(e.what()).find("no uciok within 200 ms"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(silent.running());

  UciEngine missing(parseEngineSpec("name=Missing cmd=/nonexistent/engine"), "M", nullptr);
  EXPECT_THROW(missing.start(false, 1000ms), janus::Error);

  UciEngine notUci(parseEngineSpec("name=True cmd=/bin/true"), "T", nullptr);
  EXPECT_THROW(notUci.start(false, 2000ms), janus::Error);  // exits at once: no uciok
}
