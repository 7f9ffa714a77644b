#include "search/timeman.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace janus {
namespace {

TimeManager budget(i64 timeMs, i64 incMs, i64 overheadMs, int movesToGo = 0) {
  SearchLimits limits;
  limits.time[kWhite] = timeMs;
  limits.inc[kWhite] = incMs;
  limits.movesToGo = movesToGo;
  TimeManager tm;
  tm.init(limits, kWhite, overheadMs, TimeManager::Clock::now());
  return tm;
}

TEST(TimeManager, ReserveIsThreeIncrementsOrFiveOverheads) {
  EXPECT_EQ(TimeManager::reserveMs(100, 30), 300);
  EXPECT_EQ(TimeManager::reserveMs(1000, 30), 3000);
  EXPECT_EQ(TimeManager::reserveMs(100, 80), 400);  // five overheads (a measured lag)
  EXPECT_EQ(TimeManager::reserveMs(10, 30), 150);
  EXPECT_EQ(TimeManager::reserveMs(0, 30), 150);
}

// The issue-15 situation: 0.2 s left at 10+0.1. The old plan spent up to 80 ms of the 200;
// now a move must cost less than the increment so that the clock grows back.
TEST(TimeManager, LowClockPlansBelowTheIncrement) {
  TimeManager tm = budget(200, 100, 30);
  ASSERT_TRUE(tm.enabled());
  EXPECT_GE(tm.optimumMs(), 1);
  EXPECT_LE(tm.optimumMs(), tm.maximumMs());
  EXPECT_LT(tm.maximumMs(), 100);
}

TEST(TimeManager, NeverPlansBeyondTheClock) {
  for (i64 time : {0, 1, 5, 30, 100, 250, 1000, 3000, 10000, 60000, 600000})
    for (i64 inc : {0, 10, 100, 1000, 5000})
      for (i64 overhead : {0, 10, 50, 200})
        for (int mtg : {0, 1, 2, 10, 40}) {
          TimeManager tm = budget(time, inc, overhead, mtg);
          SCOPED_TRACE(testing::Message() << time << "+" << inc << " overhead " << overhead << " mtg " << mtg);
          EXPECT_GE(tm.optimumMs(), 1);
          EXPECT_LE(tm.optimumMs(), tm.maximumMs());
          EXPECT_LE(tm.maximumMs(), std::max<i64>(1, (time - overhead) * 8 / 10));
        }
}

// A whole game at 10+0.1 in which every move overruns its plan: the search stops only at the
// maximum and the machine adds 30 ms. The clock must settle near the reserve, not near zero.
TEST(TimeManager, ClockKeepsItsReserveThroughAGame) {
  const i64 inc = 100, overhead = 30, stall = 25;
  i64 clock = 10000, lowest = clock;
  for (int move = 0; move < 200; ++move) {
    TimeManager tm = budget(clock, inc, overhead);
    clock -= tm.maximumMs() + stall;
    ASSERT_GT(clock, 0) << "flagged at move " << move;
    clock += inc;
    if (move >= 40) lowest = std::min(lowest, clock);
  }
  // Below the reserve a move costs at most 3/4 of the increment plus the stall, so the clock
  // dips under the reserve by less than one increment and climbs back.
  EXPECT_GE(lowest, TimeManager::reserveMs(inc, overhead) - inc) << "the clock fell to " << lowest << " ms";
}

TEST(TimeManager, CountsFromTheRequestTime) {
  SearchLimits limits;
  limits.moveTime = 1000;
  limits.startTime = TimeManager::Clock::now() - std::chrono::milliseconds(400);
  TimeManager tm;
  tm.init(limits, kWhite, 0, TimeManager::Clock::now());
  EXPECT_GE(tm.elapsedMs(), 400);
}

TEST(LagEstimator, MeasuresWhatTheGuiChargedBeyondTheSearch) {
  using namespace std::chrono_literals;
  LagEstimator lag;
  auto t = LagEstimator::Clock::now();
  lag.onGo(kWhite, 10, 5000, 100, t);
  lag.onBestMove(t + 200ms);  // 200 ms by the engine's own clock
  EXPECT_EQ(lag.lagMs(), 0);
  // The GUI charged 260 ms: 5000 + 100 - 260 = 4840 left two plies later.
  lag.onGo(kWhite, 12, 4840, 100, t + 1s);
  EXPECT_EQ(lag.lagMs(), 60);
  lag.onBestMove(t + 1s + 100ms);
  // A smaller lag next: the estimate decays instead of dropping.
  lag.onGo(kWhite, 14, 4840 + 100 - 110, 100, t + 2s);
  EXPECT_EQ(lag.lagMs(), 54);
  // Not our consecutive move (take-back, other colour, new game): nothing measured.
  lag.onBestMove(t + 2s + 10ms);
  lag.onGo(kWhite, 10, 100, 100, t + 3s);
  EXPECT_EQ(lag.lagMs(), 54);
  lag.newGame();
  lag.onGo(kWhite, 12, 0, 100, t + 4s);
  EXPECT_EQ(lag.lagMs(), 54);
}

}  // namespace
}  // namespace janus
