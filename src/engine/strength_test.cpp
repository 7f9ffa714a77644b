#include "engine/strength.h"

#include <gtest/gtest.h>

#include <map>

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
    EXPECT_GT(s.nodes, prev.nodes);
    EXPECT_LT(s.temperatureCp, prev.temperatureCp);
    EXPECT_LT(s.maxLossCp, prev.maxLossCp);
    prev = s;
  }
  EXPECT_EQ(strengthForElo(500).elo, kMinElo);
  EXPECT_EQ(eloForSkill(20), kMaxElo);
  EXPECT_LT(strengthForElo(2000).maxLossCp, 900) << "a 2000 player never chooses to hang a queen it sees";
}

TEST(Strength, ChoiceFollowsTheSoftmaxAndTheLossCap) {
  std::vector<SearchInfo> lines = {line(50, Move(kE2, kE4)), line(40, Move(kD2, kD4)), line(-30, Move(kG1, kF3)),
                                   line(-900, Move(kA2, kA3))};
  StrengthLevel level = strengthForElo(1500);
  std::mt19937_64 rng(1);
  std::map<int, int> counts;
  for (int i = 0; i < 20000; ++i) ++counts[chooseLine(lines, level, rng)];
  EXPECT_EQ(counts[3], 0) << "beyond maxLoss";
  double w0 = 1, w1 = std::exp(-10.0 / level.temperatureCp), w2 = std::exp(-80.0 / level.temperatureCp);
  double total = w0 + w1 + w2;
  EXPECT_NEAR(counts[0] / 20000.0, w0 / total, 0.02);
  EXPECT_NEAR(counts[1] / 20000.0, w1 / total, 0.02);
  EXPECT_NEAR(counts[2] / 20000.0, w2 / total, 0.02);
}

TEST(Strength, WinningPositionsAreConverted) {
  StrengthLevel level = strengthForElo(1000);
  std::mt19937_64 rng(2);
  std::vector<SearchInfo> mating = {line(mateIn(5), Move(kA1, kA7)), line(600, Move(kA1, kA2))};
  std::vector<SearchInfo> winning = {line(kTechniqueCp + 50, Move(kA1, kA7)), line(kTechniqueCp, Move(kA1, kA2))};
  for (int i = 0; i < 100; ++i) {
    EXPECT_EQ(chooseLine(mating, level, rng), 0);
    EXPECT_EQ(chooseLine(winning, level, rng), 0);
  }
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
