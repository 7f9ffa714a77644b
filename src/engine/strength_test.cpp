#include "engine/strength.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

#include "core/movegen.h"
#include "core/notation.h"
#include "engine/engine.h"

namespace janus {
namespace {

SearchInfo line(int score, Move m) {
  SearchInfo i;
  i.score = score;
  i.pv = {m};
  return i;
}

TEST(Strength, MappingIsMonotonic) {
  StrengthLevel prev = strengthForElo(kMinElo);
  for (int elo = kMinElo + 100; elo <= kMaxElo; elo += 100) {
    StrengthLevel s = strengthForElo(elo);
    EXPECT_GE(s.nodes, prev.nodes) << elo;
    EXPECT_LE(s.temperatureCp, prev.temperatureCp) << elo;
    EXPECT_LE(s.maxLossCp, prev.maxLossCp) << elo;
    if (elo > kSamplingElo) {
      EXPECT_GT(s.nodes, prev.nodes) << elo;
      EXPECT_EQ(s.multiPv, 1) << elo;
      EXPECT_EQ(s.temperatureCp, 0) << elo;
    } else if (elo < kSamplingElo) {
      EXPECT_LT(s.temperatureCp, prev.temperatureCp) << elo;
      EXPECT_EQ(s.multiPv, kSamplingMultiPv) << elo;
    }
    prev = s;
  }
  EXPECT_EQ(strengthForElo(500).elo, kMinElo);
  EXPECT_EQ(strengthForElo(5000).elo, kMaxElo);
  EXPECT_EQ(strengthForElo(2000).nodes, kNodesAt2000);
  EXPECT_NEAR(double(strengthForElo(2000 + int(kEloPerDoubling)).nodes), 2.0 * kNodesAt2000, 1.0);
  EXPECT_LT(strengthForElo(kMinElo).maxLossCp, 900) << "even the lowest level never chooses to hang a queen it sees";
  EXPECT_EQ(eloForSkill(20), kMaxElo);
  EXPECT_EQ(eloForSkill(0), kMinElo);
}

TEST(Strength, ChoiceFollowsTheSoftmaxAndTheLossCap) {
  std::vector<SearchInfo> lines = {line(50, Move(kE2, kE4)), line(40, Move(kD2, kD4)), line(-30, Move(kG1, kF3)),
                                   line(-900, Move(kA2, kA3))};
  StrengthLevel level = strengthForElo(1200);
  ASSERT_GT(level.temperatureCp, 0);
  ASSERT_LT(level.maxLossCp, 950);
  std::mt19937_64 rng(1);
  std::map<int, int> counts;
  for (int i = 0; i < 20000; ++i) ++counts[chooseLine(lines, level, rng)];
  EXPECT_EQ(counts[3], 0) << "beyond maxLoss";
  double w0 = 1, w1 = std::exp(-10.0 / level.temperatureCp), w2 = std::exp(-80.0 / level.temperatureCp);
  double total = w0 + w1 + w2;
  EXPECT_NEAR(counts[0] / 20000.0, w0 / total, 0.02);
  EXPECT_NEAR(counts[1] / 20000.0, w1 / total, 0.02);
  EXPECT_NEAR(counts[2] / 20000.0, w2 / total, 0.02);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(chooseLine(lines, strengthForElo(2000), rng), 0) << "no sampling at 2000";
}

TEST(Strength, WinningPositionsAreConverted) {
  StrengthLevel level = strengthForElo(kMinElo);
  std::mt19937_64 rng(2);
  std::vector<SearchInfo> mating = {line(mateIn(5), Move(kA1, kA7)), line(600, Move(kA1, kA2))};
  std::vector<SearchInfo> winning = {line(kTechniqueCp + 50, Move(kA1, kA7)), line(kTechniqueCp, Move(kA1, kA2))};
  for (int i = 0; i < 100; ++i) {
    EXPECT_EQ(chooseLine(mating, level, rng), 0);
    EXPECT_EQ(chooseLine(winning, level, rng), 0);
  }
}

TEST(Strength, BudgetsVaryWithinHalfADoubling) {
  StrengthLevel level = strengthForElo(2000);
  std::mt19937_64 rng(7);
  std::vector<u64> budgets;
  for (int i = 0; i < 2000; ++i) budgets.push_back(drawNodeBudget(level, false, rng));
  auto [lo, hi] = std::minmax_element(budgets.begin(), budgets.end());
  EXPECT_GE(double(*lo), level.nodes / std::sqrt(2.0) - 1);
  EXPECT_LE(double(*hi), level.nodes * std::sqrt(2.0) + 1);
  EXPECT_LT(double(*lo), level.nodes * 0.75) << "the draw covers the lower end";
  EXPECT_GT(double(*hi), level.nodes * 1.35) << "the draw covers the upper end";
  std::nth_element(budgets.begin(), budgets.begin() + 1000, budgets.end());
  EXPECT_NEAR(double(budgets[1000]), double(level.nodes), 0.05 * level.nodes) << "median = the level's budget";
  u64 technique = drawNodeBudget(level, true, rng);
  EXPECT_GE(technique, u64(level.nodes / std::sqrt(2.0)) * kTechniqueNodeFactor);
}

TEST(Strength, TheSearchKeepsToTheBudget) {
  Engine e;
  e.setOption("UCI_LimitStrength", "true");
  e.setOption("UCI_Elo", "1600");
  e.seedLevels(9);
  u64 maxBudget = u64(double(strengthForElo(1600).nodes) * std::sqrt(2.0)) + 1;
  SearchResult r;
  e.onBestMove([&](const SearchResult& res) { r = res; });
  // A middlegame position (below the technique threshold for either side).
  e.setPosition("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4", {});
  e.go({});
  e.wait();
  EXPECT_TRUE(r.best);
  EXPECT_GT(r.nodes, maxBudget / 4) << "the search uses its budget";
  EXPECT_LE(r.nodes, maxBudget);
}

TEST(Strength, Elo2000TakesAHangingQueen) {
  Engine e;
  e.setOption("UCI_LimitStrength", "true");
  e.setOption("UCI_Elo", "2000");
  e.seedLevels(3);
  SearchResult r;
  e.onBestMove([&](const SearchResult& res) { r = res; });
  for (int i = 0; i < 10; ++i) {
    e.setPosition("r1b1kbnr/pppp1ppp/2n5/4p3/4P2q/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 1", {});
    e.go({});
    e.wait();
    EXPECT_EQ(toUci(r.best, false), "f3h4") << "Nxh4 wins the queen";
  }
}

TEST(Strength, Elo1000MatesWithKingAndRook) {
  // A 1000-level Janus must still mate a bare king (it plays the best move once clearly winning).
  Engine e;
  e.setOption("UCI_LimitStrength", "true");
  e.setOption("UCI_Elo", "1000");
  e.seedLevels(4);
  Position pos = Position::fromFen("8/8/8/4k3/8/8/8/R3K3 w - - 0 1");
  SearchResult r;
  e.onBestMove([&](const SearchResult& res) { r = res; });
  std::mt19937_64 rng(5);
  int plies = 0;
  while (!isCheckmate(pos) && plies < 200) {
    if (pos.sideToMove() == kWhite) {
      e.setPosition(pos);
      SearchLimits l;
      e.go(l);
      e.wait();
      pos.makeMove(r.best);
    } else {
      MoveList moves = legalMoves(pos);
      ASSERT_FALSE(moves.empty()) << "stalemate: " << pos.fen();
      pos.makeMove(moves[int(rng() % moves.size())]);
    }
    ++plies;
    ASSERT_FALSE(pos.isRepetition(2)) << pos.fen();
  }
  EXPECT_TRUE(isCheckmate(pos)) << pos.fen();
}

TEST(Strength, LevelsAreOptIn) {
  Engine e;
  EXPECT_FALSE(e.strengthLevel());
  e.setOption("Skill Level", "10");
  ASSERT_TRUE(e.strengthLevel());
  EXPECT_EQ(e.strengthLevel()->elo, eloForSkill(10));
  e.setOption("UCI_LimitStrength", "true");
  e.setOption("UCI_Elo", "1700");
  EXPECT_EQ(e.strengthLevel()->elo, 1700);
}

}  // namespace
}  // namespace janus
