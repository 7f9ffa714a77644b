#include "core/movegen.h"

#include <gtest/gtest.h>

#include "core/notation.h"
#include "core/perft.h"

namespace janus {
namespace {

const std::string kData = JANUS_TEST_DATA;

/// Runs every (position, depth) entry of a suite whose expected count is at most `maxNodes`
/// (deeper entries are covered by tools/perft-suite.sh, outside CI).
void checkSuite(const std::string& file, u64 maxNodes, bool chess960 = false, int stride = 1) {
  auto cases = loadPerftSuite(kData + "/perft/" + file);
  ASSERT_FALSE(cases.empty());
  int checked = 0;
  for (size_t i = 0; i < cases.size(); i += stride) {
    const auto& c = cases[i];
    Position pos = Position::fromFen(c.fen, chess960);
    for (auto [depth, expected] : c.expected) {
      if (expected > maxNodes) continue;
      EXPECT_EQ(perft(pos, depth), expected) << c.name << ": " << c.fen << " depth " << depth;
      ++checked;
    }
  }
  EXPECT_GT(checked, 0);
}

TEST(Perft, StartPosition) {
  Position pos;
  EXPECT_EQ(perft(pos, 1), 20u);
  EXPECT_EQ(perft(pos, 2), 400u);
  EXPECT_EQ(perft(pos, 3), 8902u);
  EXPECT_EQ(perft(pos, 4), 197281u);
  EXPECT_EQ(perft(pos, 5), 4865609u);
}

TEST(Perft, Kiwipete) {
  Position pos = Position::fromFen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
  EXPECT_EQ(perft(pos, 3), 97862u);
  EXPECT_EQ(perft(pos, 4), 4085603u);
}

TEST(Perft, CpwSuite) { checkSuite("cpw.epd", 5'000'000); }
TEST(Perft, StandardSuite) { checkSuite("standard.epd", 1'000'000); }
TEST(Perft, TrickySuite) { checkSuite("tricky.perft", 5'000'000); }
TEST(Perft, EnPassantExtra) { checkSuite("ep-extra.epd", 20'000'000); }
TEST(Perft, Chess960Suite) { checkSuite("chess960.epd", 500'000, true, 4); }

TEST(Perft, DivideSumsToPerft) {
  Position pos = Position::fromFen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
  u64 sum = 0;
  auto parts = divide(pos, 3);
  EXPECT_EQ(parts.size(), 48u);
  for (auto [m, n] : parts) sum += n;
  EXPECT_EQ(sum, 97862u);
}

TEST(MoveGen, NoisyPlusQuietEqualsAll) {
  for (const char* fen : {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                          "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
                          "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
                          "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1"}) {
    Position pos = Position::fromFen(fen);
    MoveList all, noisy, quiet;
    generateMoves(pos, all, GenType::kAll);
    generateMoves(pos, noisy, GenType::kNoisy);
    generateMoves(pos, quiet, GenType::kQuiet);
    EXPECT_EQ(all.size(), noisy.size() + quiet.size()) << fen;
    for (Move m : noisy) EXPECT_TRUE(pos.isNoisy(m) && all.contains(m)) << fen << " " << toUci(m, false);
    for (Move m : quiet) EXPECT_TRUE(!pos.isNoisy(m) && all.contains(m)) << fen << " " << toUci(m, false);
    EXPECT_EQ(countLegalMoves(pos), all.size());
  }
}

TEST(MoveGen, DoubleCheckAllowsOnlyKingMoves) {
  // The rook on a1 and the bishop on b4 both check the king on e1 (the knight on g1 cannot help).
  Position pos = Position::fromFen("4k3/8/8/8/1b6/8/8/r3K1N1 w - - 0 1");
  EXPECT_EQ(popCount(pos.checkers()), 2);
  EXPECT_GT(legalMoves(pos).size(), 0);
  for (Move m : legalMoves(pos)) EXPECT_EQ(typeOf(pos.movedPiece(m)), kKing);
}

TEST(MoveGen, Chess960CastlingKingTakesRook) {
  // King b1, rook a1 (queen side) and rook h1 (king side): both castlings legal.
  Position pos = Position::fromFen("1k6/8/8/8/8/8/8/RK5R w HA - 0 1");
  MoveList moves = legalMoves(pos);
  EXPECT_TRUE(moves.contains(Move(kB1, kA1, Move::kCastling)));
  EXPECT_TRUE(moves.contains(Move(kB1, kH1, Move::kCastling)));
  pos.makeMove(Move(kB1, kA1, Move::kCastling));
  EXPECT_EQ(pos.pieceOn(kC1), kWhiteKing);
  EXPECT_EQ(pos.pieceOn(kD1), kWhiteRook);
  EXPECT_EQ(pos.pieceOn(kA1), kNoPiece);
  EXPECT_EQ(pos.castlingRights() & (kWhiteKingSide | kWhiteQueenSide), kNoCastling);
}

TEST(MoveGen, Chess960CastlingBlockedWhenRookShieldsDestination) {
  // King c1 castles queen side with the rook on b1 (rook to d1, king stays on c1). Before
  // castling the rook shields c1 from the queen on a1; after it the king would be in check.
  Position pos = Position::fromFen("3k4/8/8/8/8/8/8/qRK4R w B - 0 1");
  EXPECT_FALSE(legalMoves(pos).contains(Move(kC1, kB1, Move::kCastling)));
}

}  // namespace
}  // namespace janus
