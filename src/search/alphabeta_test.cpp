#include "search/alphabeta.h"

#include <gtest/gtest.h>

#include <condition_variable>
#include <mutex>
#include <set>
#include <thread>

#include "core/movegen.h"
#include "core/notation.h"
#include "search/material_evaluator_test_double.h"

namespace janus {
namespace {

struct Outcome {
  SearchResult result;
  std::vector<SearchInfo> infos;
};

Outcome search(std::unique_ptr<AlphaBetaSearch>& s, const Position& pos, SearchLimits limits, SearchConfig config = {}) {
  Outcome r;
  InfoCallback cb = [&r](const SearchInfo& i) { r.infos.push_back(i); };
  SearchSignals signals;
  r.result = s->run(pos, limits, config, cb, signals);
  return r;
}

SearchLimits depth(int d) {
  SearchLimits l;
  l.depth = d;
  return l;
}

std::unique_ptr<AlphaBetaSearch> makeSearch() {
  return std::make_unique<AlphaBetaSearch>(std::make_unique<testing::MaterialEvaluator>());
}

TEST(AlphaBeta, FindsMateInOne) {
  auto s = makeSearch();
  Position pos = Position::fromFen("6k1/5ppp/8/8/8/8/8/K2R4 w - - 0 1");
  Outcome r = search(s, pos, depth(4));
  EXPECT_EQ(toUci(r.result.best, false), "d1d8");
  EXPECT_EQ(r.result.score, mateIn(1));
  EXPECT_EQ(mateInMoves(r.infos.back().score), 1);
}

TEST(AlphaBeta, FindsMateInTwoWithQueenSacrifice) {
  auto s = makeSearch();
  // 1. Qxe8+ Rxe8 2. Rxe8#  (the first design-notes position).
  Position pos = Position::fromFen("2r1r1k1/5ppp/8/8/Q7/8/5PPP/4R1K1 w - - 0 1");
  Outcome r = search(s, pos, depth(6));
  EXPECT_EQ(r.result.score, mateIn(3));
  EXPECT_EQ(mateInMoves(r.result.score), 2);
  EXPECT_EQ(toUci(r.result.best, false), "a4e8");
}

TEST(AlphaBeta, SeesBeingMated) {
  auto s = makeSearch();
  // Black's only move Kb8 allows Rh8#: the side to move is mated in 1 ("score mate -1").
  Position lost = Position::fromFen("k7/8/1K6/8/8/8/8/7R b - - 0 1");
  Outcome r = search(s, lost, depth(5));
  EXPECT_EQ(r.result.score, matedIn(2));
  EXPECT_EQ(mateInMoves(r.result.score), -1);
}

TEST(AlphaBeta, NoLegalMovesReturnsNone) {
  auto s = makeSearch();
  Outcome mate = search(s, Position::fromFen("6Rk/5Q2/8/8/8/8/8/K7 b - - 0 1"), depth(3));
  EXPECT_FALSE(mate.result.best);
  EXPECT_EQ(mate.result.score, matedIn(0));
  Outcome stale = search(s, Position::fromFen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"), depth(3));
  EXPECT_FALSE(stale.result.best);
  EXPECT_EQ(stale.result.score, 0);
}

TEST(AlphaBeta, WinsHangingQueen) {
  auto s = makeSearch();
  Position pos = Position::fromFen("4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1");
  Outcome r = search(s, pos, depth(5));
  EXPECT_EQ(toUci(r.result.best, false), "d2d5");
}

TEST(AlphaBeta, AvoidsStalemateWhenWinning) {
  auto s = makeSearch();
  // Qg6 or Qf7 would stalemate; a winning side must not choose a draw.
  Position pos = Position::fromFen("7k/8/5K2/8/8/8/8/6Q1 w - - 0 1");
  Outcome r = search(s, pos, depth(6));
  Position after = pos;
  after.makeMove(r.result.best);
  EXPECT_TRUE(hasLegalMove(after) || after.inCheck());
  EXPECT_GT(r.result.score, 500);
}

TEST(AlphaBeta, TakesRepetitionDrawWhenLosing) {
  auto s = makeSearch();
  // Black is far behind in material but has a perpetual: Qh3+ Kg1 Qg3+ Kh1 Qh3+ ...
  Position pos = Position::fromFen("2q3k1/RR3ppp/8/8/8/8/8/5R1K b - - 0 1");
  Outcome r = search(s, pos, depth(8));
  EXPECT_EQ(r.result.score, 0) << toUci(r.result.best, false);
}

TEST(AlphaBeta, DeterministicAfterNewGame) {
  auto s = makeSearch();
  Position pos = Position::fromFen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
  s->newGame();
  Outcome a = search(s, pos, depth(8));
  s->newGame();
  Outcome b = search(s, pos, depth(8));
  EXPECT_EQ(a.result.nodes, b.result.nodes);
  EXPECT_EQ(a.result.best, b.result.best);
  EXPECT_EQ(a.result.depth, 8);
}

TEST(AlphaBeta, InfoLinesAreComplete) {
  auto s = makeSearch();
  Outcome r = search(s, Position(), depth(6));
  ASSERT_FALSE(r.infos.empty());
  int lastDepth = 0;
  for (const auto& i : r.infos) {
    EXPECT_GE(i.depth, lastDepth);
    lastDepth = i.depth;
    EXPECT_FALSE(i.pv.empty());
    EXPECT_GE(i.selDepth, 1);
    EXPECT_GT(i.nodes, 0u);
    // The PV is a legal line.
    Position p;
    for (Move m : i.pv) {
      ASSERT_TRUE(p.isLegal(m));
      p.makeMove(m);
    }
  }
  EXPECT_EQ(r.infos.back().depth, 6);
  EXPECT_EQ(r.infos.back().pv[0], r.result.best);
}

TEST(AlphaBeta, MultiPvReportsDistinctOrderedLines) {
  auto s = makeSearch();
  SearchConfig cfg;
  cfg.multiPv = 3;
  Outcome r = search(s, Position::fromFen("4k3/8/8/3q4/8/2N5/3R4/4K3 w - - 0 1"), depth(6), cfg);
  std::vector<SearchInfo> last;
  for (const auto& i : r.infos)
    if (i.depth == 6) last.push_back(i);
  ASSERT_EQ(last.size(), 3u);
  std::set<u16> firstMoves;
  for (size_t k = 0; k < last.size(); ++k) {
    EXPECT_EQ(last[k].multiPv, int(k) + 1);
    firstMoves.insert(last[k].pv[0].raw());
    if (k) {
      EXPECT_LE(last[k].score, last[k - 1].score);
    }
  }
  EXPECT_EQ(firstMoves.size(), 3u);
}

TEST(AlphaBeta, SearchMovesRestrictsTheRoot) {
  auto s = makeSearch();
  Position pos;
  SearchLimits l = depth(5);
  l.searchMoves = {parseUci(pos, "a2a3", false), parseUci(pos, "h2h4", false)};
  Outcome r = search(s, pos, l);
  EXPECT_TRUE(r.result.best == l.searchMoves[0] || r.result.best == l.searchMoves[1]);
}

TEST(AlphaBeta, NodeLimitIsRespected) {
  auto s = makeSearch();
  SearchLimits l;
  l.nodes = 20000;
  Outcome r = search(s, Position(), l);
  EXPECT_GE(r.result.nodes, 20000u);
  EXPECT_LT(r.result.nodes, 22000u);
  EXPECT_TRUE(r.result.best);
}

TEST(AlphaBeta, StopEndsAnInfiniteSearch) {
  // Stops once the search has reported a completed third iteration (not after a fixed sleep: under
  // the sanitizers on a loaded machine 100 ms was once not enough for depth 2), so the result must
  // keep at least that iteration's depth and move.
  auto s = makeSearch();
  SearchLimits l;
  l.infinite = true;
  SearchResult result;
  SearchSignals signals;
  std::mutex m;
  std::condition_variable cv;
  int completedDepth = 0;
  auto onInfo = [&](const SearchInfo& info) {
    if (info.bound != Bound::kExact) return;
    std::lock_guard lock(m);
    completedDepth = std::max(completedDepth, info.depth);
    cv.notify_all();
  };
  std::thread t([&] { result = s->run(Position(), l, {}, onInfo, signals); });
  bool reached;
  {
    std::unique_lock lock(m);
    reached = cv.wait_for(lock, std::chrono::seconds(120), [&] { return completedDepth >= 3; });
  }
  signals.stop = true;
  t.join();
  ASSERT_TRUE(reached) << "no third iteration within 120 s";
  EXPECT_TRUE(result.best);
  EXPECT_GE(result.depth, 3);
}

TEST(AlphaBeta, MoveTimeIsObeyed) {
  auto s = makeSearch();
  SearchLimits l;
  l.moveTime = 50;
  auto start = std::chrono::steady_clock::now();
  Outcome r = search(s, Position(), l);
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
  EXPECT_TRUE(r.result.best);
  EXPECT_LT(ms, 5000) << "a 50 ms search must end long before 5 s, even on a loaded machine";
}

TEST(AlphaBeta, LazySmpWithTwoThreadsFindsTheMate) {
  auto s = makeSearch();
  SearchConfig cfg;
  cfg.threads = 2;
  Outcome r = search(s, Position::fromFen("2r1r1k1/5ppp/8/8/Q7/8/5PPP/4R1K1 w - - 0 1"), depth(7), cfg);
  EXPECT_EQ(r.result.score, mateIn(3));
}

}  // namespace
}  // namespace janus
