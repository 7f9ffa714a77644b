#include "search/wdl.h"

#include <gtest/gtest.h>

#include "core/position.h"
#include "search/score.h"

namespace janus {
namespace {

TEST(Wdl, MaterialCountsBothSides) {
  EXPECT_EQ(wdlMaterial(Position()), 78);  // 16 pawns + 4 N + 4 B (3 each) + 4 R (5) + 2 Q (9)
  EXPECT_EQ(wdlMaterial(Position::fromFen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1")), 5);
}

TEST(Wdl, PerMilleAddsUpSymmetricAndMonotonic) {
  for (int material : {0, 17, 30, 50, 62, 78, 120}) {
    int lastWin = -1;
    for (int cp = -1500; cp <= 1500; cp += 25) {
      WdlPermille w = scoreToWdl(cp, material), mirrored = scoreToWdl(-cp, material);
      EXPECT_EQ(w.win + w.draw + w.loss, 1000) << cp << " " << material;
      EXPECT_GE(w.draw, 0);
      EXPECT_EQ(w.win, mirrored.loss) << cp << " " << material;
      EXPECT_GE(w.win, lastWin) << "win chance must not fall as the score rises";
      lastWin = w.win;
    }
    WdlPermille even = scoreToWdl(0, material);
    EXPECT_EQ(even.win, even.loss);
    EXPECT_GT(even.draw, 300) << "an equal position is mostly a draw";
  }
}

TEST(Wdl, FittedParametersAndEndgameDrawishness) {
  // At s = a(m) a win is as likely as not: a(18) = 257.7 in the fitted table.
  EXPECT_NEAR(scoreToWdl(258, 18).win, 500, 2);
  // The same +1.5 pawns win more often with more material (a and b fall with material).
  EXPECT_GT(scoreToWdl(150, 62).win, scoreToWdl(150, 18).win);
  // Big advantages are near-certain wins.
  EXPECT_GE(scoreToWdl(1000, 62).win, 990);
}

TEST(Wdl, MateAndTablebaseScoresAreCertain) {
  WdlPermille mate = scoreToWdl(mateIn(5), 40), mated = scoreToWdl(matedIn(4), 40), tb = scoreToWdl(tbWinIn(9), 10);
  EXPECT_EQ(mate.win, 1000);
  EXPECT_EQ(mated.loss, 1000);
  EXPECT_EQ(tb.win, 1000);
}

}  // namespace
}  // namespace janus
