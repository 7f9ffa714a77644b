#include "search/movepick.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <random>
#include <vector>

#include "core/notation.h"

namespace janus {
namespace {

/// Empty histories (continuation histories: the zero sentinel) and a main-search picker over them
/// without TT move, killers or countermove.
class MovePickerTest : public ::testing::Test {
 protected:
  MovePickerTest() { hist->clear(); }
  MovePicker picker(const Position& pos) const {
    return MovePicker(pos, Move::none(), kNoKillers, Move::none(), *hist, contHist);
  }

  std::unique_ptr<Histories> hist = std::make_unique<Histories>();
  const PieceToHistory* contHist[3] = {hist->sentinel(), hist->sentinel(), hist->sentinel()};
  static constexpr Move kNoKillers[2] = {Move::none(), Move::none()};
};

// The quiets come out in the order of a stable sort by descending score (ties keep the generation
// order, so the search is the same whatever sort the picker uses). Scores here come from the
// butterfly history alone (continuation histories are the zero sentinel), drawn from a small range
// so that ties are common.
TEST_F(MovePickerTest, QuietsComeInStableDescendingHistoryOrder) {
  const char* fens[] = {
      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
      "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
      "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
      "8/2k5/8/8/3K4/8/4P3/8 b - - 0 1",
  };
  std::mt19937 rng(7);
  for (const char* fen : fens) {
    const Position pos = Position::fromFen(fen);
    MoveList quiets;
    generateMoves(pos, quiets, GenType::kQuiet);
    ASSERT_GT(quiets.size(), 5u) << fen;
    for (int trial = 0; trial < 20; ++trial) {
      hist->clear();
      std::vector<std::pair<int, Move>> expected;  // (score, move) in generation order
      for (Move m : quiets) {
        const int score = int(rng() % 5) * 100 - 200;
        hist->main[pos.sideToMove()][m.from() * 64 + m.to()] = i16(score);
        expected.emplace_back(score, m);
      }
      std::stable_sort(expected.begin(), expected.end(),
                       [](const auto& a, const auto& b) { return a.first > b.first; });
      MovePicker mp = picker(pos);
      std::vector<Move> picked;
      while (Move m = mp.next())
        if (!pos.isNoisy(m)) picked.push_back(m);
      ASSERT_EQ(picked.size(), expected.size()) << fen;
      for (std::size_t i = 0; i < picked.size(); ++i)
        EXPECT_EQ(picked[i], expected[i].second)
            << fen << " trial " << trial << " quiet #" << i << ": got " << toUci(picked[i], false) << ", want "
            << toUci(expected[i].second, false);
    }
  }
}

// skipQuiets (late move pruning) after a few quiets: no more quiets, the bad captures still come.
TEST_F(MovePickerTest, SkipQuietsStopsQuietsButKeepsBadCaptures) {
  // Qxd5 is a losing capture (the pawn on d5 is defended by e6 and c6).
  const Position pos = Position::fromFen("4k3/8/2p1p3/3p4/8/8/3Q4/4K3 w - - 0 1");
  MovePicker mp = picker(pos);
  int quiets = 0;
  while (quiets < 2) {
    Move m = mp.next();
    ASSERT_TRUE(m);
    ASSERT_FALSE(pos.isNoisy(m)) << toUci(m, false) << ": the only capture loses and must wait";
    ++quiets;
  }
  const Move rest = mp.next(true);
  ASSERT_TRUE(rest);
  EXPECT_EQ(toUci(rest, false), "d2d5");
  EXPECT_FALSE(mp.next(true));
}

}  // namespace
}  // namespace janus
