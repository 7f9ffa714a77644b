#include "engine/engine.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "core/notation.h"
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

}  // namespace
}  // namespace janus
