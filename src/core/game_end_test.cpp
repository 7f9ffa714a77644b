// Tests of core/game_end.h: the stored codes, the names, the PGN Termination tags and the ends by
// the rules of a position.

#include "core/game_end.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "core/position.h"

namespace janus {
namespace {

TEST(GameEnd, CodesAreTheStoredOnesAndNamesAreDistinct) {
  // JANUSSP and JANUSDAT files store these numbers.
  EXPECT_EQ(int(GameEnd::kCheckmate), 0);
  EXPECT_EQ(int(GameEnd::kInsufficientMaterial), 4);
  EXPECT_EQ(int(GameEnd::kResignation), 5);
  EXPECT_EQ(int(GameEnd::kTablebase), 6);
  EXPECT_EQ(int(GameEnd::kMaxPlies), 7);
  EXPECT_EQ(int(GameEnd::kAdjudicatedWin), 8);
  EXPECT_EQ(int(GameEnd::kStall), 13);
  EXPECT_EQ(int(GameEnd::kAgreedDraw), kGameEndCount - 1);
  std::set<std::string> names;
  for (int e = 0; e < kGameEndCount; ++e) EXPECT_TRUE(names.insert(gameEndName(GameEnd(e))).second) << e;
  EXPECT_EQ(names.count("?"), 0u);
  EXPECT_TRUE(isGameEndCode(kGameEndCount - 1));
  EXPECT_FALSE(isGameEndCode(kGameEndCount));
  EXPECT_TRUE(isRulesEnd(GameEnd::kRepetition));
  EXPECT_FALSE(isRulesEnd(GameEnd::kResignation));
  EXPECT_STREQ(pgnTerminationTag(GameEnd::kCheckmate), "normal");
  EXPECT_STREQ(pgnTerminationTag(GameEnd::kTimeForfeit), "time forfeit");
  EXPECT_STREQ(pgnTerminationTag(GameEnd::kMaxPlies), "adjudication");
}

TEST(GameEnd, RulesEndsOfPositions) {
  EXPECT_FALSE(rulesGameEnd(Position()).has_value());
  EXPECT_EQ(rulesGameEnd(Position::fromFen("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")),
            GameEnd::kCheckmate);
  EXPECT_EQ(rulesGameEnd(Position::fromFen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")), GameEnd::kStalemate);
  EXPECT_EQ(rulesGameEnd(Position::fromFen("7k/8/8/8/8/8/8/KN6 w - - 0 1")), GameEnd::kInsufficientMaterial);
  EXPECT_EQ(rulesGameEnd(Position::fromFen("7k/8/8/8/8/8/8/KR6 w - - 100 80")), GameEnd::kFiftyMoves);
  // Mate on the 100th halfmove is mate (FIDE 9.3).
  EXPECT_EQ(rulesGameEnd(Position::fromFen("R6k/8/6K1/8/8/8/8/8 b - - 100 80")), GameEnd::kCheckmate);
  Position p;
  for (int i = 0; i < 2; ++i)
    for (Move m : {Move(kG1, kF3), Move(kG8, kF6), Move(kF3, kG1), Move(kF6, kG8)}) p.makeMove(m);
  EXPECT_EQ(rulesGameEnd(p), GameEnd::kRepetition);
}

}  // namespace
}  // namespace janus
