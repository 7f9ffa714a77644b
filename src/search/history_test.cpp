#include "search/history.h"

#include <gtest/gtest.h>

#include <memory>

#include "core/notation.h"

namespace janus {
namespace {

std::unique_ptr<CorrectionHistory> emptyCorrection() {
  return std::make_unique<CorrectionHistory>();  // value-initialised: every entry 0
}

const char* kStart = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

TEST(CorrectionHistory, LearnsTheSignOfTheSearchResultAndStaysBounded) {
  auto c = emptyCorrection();
  const Position pos = Position::fromFen(kStart);
  EXPECT_EQ(c->correction(pos), 0);
  c->update(pos, 80, 8);  // the search came out 80 cp above the static evaluation at depth 8
  const int once = c->correction(pos);
  EXPECT_GT(once, 0);
  for (int i = 0; i < 1000; ++i) c->update(pos, 3000, 40);
  EXPECT_GT(c->correction(pos), once);
  EXPECT_LE(c->correction(pos), 4 * CorrectionHistory::kLimit / 64);  // at most 64 cp
  for (int i = 0; i < 1000; ++i) c->update(pos, -3000, 40);
  EXPECT_LT(c->correction(pos), 0);
  EXPECT_GE(c->correction(pos), -4 * CorrectionHistory::kLimit / 64);
}

TEST(CorrectionHistory, KeysOnSideToMovePawnsAndEachColoursPieces) {
  auto c = emptyCorrection();
  const Position pos = Position::fromFen(kStart);
  for (int i = 0; i < 50; ++i) c->update(pos, 200, 10);
  const int full = c->correction(pos);
  // The same pieces with Black to move: another table row.
  EXPECT_EQ(c->correction(Position::fromFen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1")), 0);
  // Other pawns, the same pieces: only the two non-pawn entries (1 + 1 of 4 parts).
  const int piecesOnly = c->correction(Position::fromFen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1"));
  EXPECT_GT(piecesOnly, 0);
  EXPECT_LT(piecesOnly, full);
  EXPECT_NEAR(piecesOnly, full / 2, 1);
  // The same pawns, a white knight moved: the pawn entry and Black's piece entry (2 + 1 of 4).
  const int knightMoved = c->correction(Position::fromFen("rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 0 1"));
  EXPECT_NEAR(knightMoved, full * 3 / 4, 1);
}

}  // namespace
}  // namespace janus
