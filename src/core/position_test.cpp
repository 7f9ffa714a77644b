#include "core/position.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <random>

#include "core/fen.h"
#include "core/movegen.h"
#include "core/notation.h"
#include "util/error.h"

namespace janus {
namespace {

TEST(Position, StartPositionFenRoundTrip) {
  Position pos;
  EXPECT_EQ(pos.fen(), Position::kStartFen);
  EXPECT_EQ(pos.sideToMove(), kWhite);
  EXPECT_EQ(pos.castlingRights(), kAllCastling);
  EXPECT_EQ(pos.fullmoveNumber(), 1);
  EXPECT_FALSE(pos.isChess960());
}

TEST(Position, FenRoundTripsForVariousPositions) {
  for (const char* fen : {
           "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
           "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
           "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
           "4k3/8/8/8/8/8/8/4K2R b K - 57 90",
           "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
       }) {
    EXPECT_EQ(Position::fromFen(fen).fen(), fen);
  }
}

TEST(Fen, PlacementOfACharacterBoard) {
  char board[64];
  std::fill(std::begin(board), std::end(board), '.');
  EXPECT_EQ(fenPlacement(board), "8/8/8/8/8/8/8/8");
  board[4] = 'K';   // e1
  board[7] = 'R';   // h1
  board[60] = 'k';  // e8
  board[48] = 'p';  // a7
  board[55] = 'p';  // h7
  EXPECT_EQ(fenPlacement(board), "4k3/p6p/8/8/8/8/8/4K2R");
  // The start position's board, read back from Position::fen().
  const std::string start = Position::fromFen(Position::kStartFen).fen();
  EXPECT_EQ(start.substr(0, start.find(' ')), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR");
}

TEST(Position, EnPassantSquareKeptOnlyWhenCaptureIsLegal) {
  // No white pawn can capture on e6: the square is dropped on output.
  Position p = Position::fromFen("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2");
  EXPECT_EQ(p.epSquare(), kNoSquare);
  // The capture d5xe6 would expose the white king on a2 to the bishop on f7? No: a pinned pawn.
  Position pinned = Position::fromFen("8/8/8/K2pP2r/8/8/8/7k w - d6 0 1");
  EXPECT_EQ(pinned.epSquare(), kNoSquare) << "exd6 leaves the king on a5 in check from h5";
  Position legal = Position::fromFen("8/8/8/3pP3/8/8/8/K6k w - d6 0 1");
  EXPECT_EQ(legal.epSquare(), kD6);
}

TEST(Position, ParsesShredderAndXFenCastling) {
  Position a = Position::fromFen("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9");
  EXPECT_TRUE(a.isChess960());
  EXPECT_EQ(a.castlingRights(), kAllCastling);
  EXPECT_EQ(a.castling().rookFrom[castlingIndex(kWhite, true)], kH1);
  EXPECT_EQ(a.castling().rookFrom[castlingIndex(kWhite, false)], kF1);
  EXPECT_EQ(a.fen(), "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9");
  // X-FEN names the inner rook by its file when another rook stands further out.
  Position b = Position::fromFen("1k2r2r/8/8/8/8/8/8/1K2R2R w Ee - 0 1");
  EXPECT_EQ(b.castling().rookFrom[castlingIndex(kWhite, true)], kE1);
  EXPECT_EQ(b.fen(), "1k2r2r/8/8/8/8/8/8/1K2R2R w Ee - 0 1");
  // With only one rook on that side, X-FEN writes K/Q even in Chess960.
  EXPECT_EQ(Position::fromFen("rk2r3/8/8/8/8/8/8/RK2R3 w EA - 0 1").fen(), "rk2r3/8/8/8/8/8/8/RK2R3 w KQ - 0 1");
}

struct BadFen {
  const char* fen;
  const char* expectedFragment;
};

class InvalidFen : public testing::TestWithParam<BadFen> {};

TEST_P(InvalidFen, IsRejectedWithAClearMessage) {
  try {
    (void)Position::fromFen(GetParam().fen);
    FAIL() << "accepted " << GetParam().fen;
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(GetParam().expectedFragment), std::string::npos) << e.what();
  }
}

INSTANTIATE_TEST_SUITE_P(
    Position, InvalidFen,
    testing::Values(BadFen{"8/8/8/8/8/2R5/1R6/6k1 w - - 0 1", "White has no king"},
                    BadFen{"", "at least 4 are needed"},
                    BadFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq", "at least 4"},
                    BadFen{"rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "'9' is not"},
                    BadFen{"rnbqkbnr/pppppppp/63/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "more than 8 squares"},
                    BadFen{"rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "7 ranks"},
                    BadFen{"rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "'x' is not a piece"},
                    BadFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "field 2"},
                    BadFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkz - 0 1", "field 3"},
                    BadFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1", "no White rook"},
                    BadFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1", "field 4"},
                    BadFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1", "impossible"},
                    BadFen{"rnbqkbnr/pppp1ppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1", "impossible"},
                    BadFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", "field 5"},
                    BadFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 -3", "field 6"},
                    BadFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra", "at most 6"},
                    BadFen{"4k3/8/8/8/8/8/8/3KK3 w - - 0 1", "2 kings"},
                    BadFen{"3kK3/8/8/8/8/8/8/8 w - - 0 1", "is in check"},
                    BadFen{"4k3/8/8/8/8/8/8/4K2P w - - 0 1", "first or last rank"},
                    BadFen{"4k3/8/8/8/8/8/PPPPPPPP/P3K3 w - - 0 1", "more than 8 pawns"},
                    BadFen{"p3k3/8/8/8/8/8/8/4K3 w - - 0 1", "first or last rank"},
                    BadFen{"4k3/4R3/8/8/8/8/8/4K3 w - - 0 1", "Black) is in check"},
                    // Malformed-input catalogue (docs/malformed-input.md).
                    BadFen{"8/8/8/8/8/8/8/8/8 w - - 0 1", "more than 8 ranks"},
                    BadFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w", "has 2 fields"},
                    BadFen{"4k3/8/8/8/8/8/4K3/7R w K - 0 1", "White king is not on its back rank"},
                    BadFen{"4k3/8/8/8/8/8/8/4K2R w KK - 0 1", "repeats a castling right"},
                    BadFen{"rnbqk1nr/ppppbppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1", "impossible"},
                    BadFen{"4k3/8/8/8/8/8/8/4K3 b - e3 0 1", "impossible"},
                    BadFen{"4k3/8/8/8/8/8/8/4K3 w - - 0 100001", "too large"},
                    BadFen{"4k3/8/8/8/NNNNNNNN/NNNNNNNN/N7/4K3 w - - 0 1", "White has more than 16 pieces"},
                    BadFen{"4k3/8/8/8/8/8/8/4K3 w - - -1 1", "field 5"},
                    BadFen{"4k3/8/8/8/8/8/8/4K3 w - - 0 99999999999999999999", "field 6"},
                    BadFen{"4k3/8/8/8/8/8/8/4K3 W - - 0 1", "'W' is not 'w' or 'b'"},
                    BadFen{"4k3/8/8/8/8/8/8/4K3 w - e3e4 0 1", "'e3e4' is not a square"},
                    BadFen{"4kk2/8/8/8/8/8/8/4K3 w - - 0 1", "Black has 2 kings"},
                    BadFen{"8/8/8/8/8/8/8/4K3 w - - 0 1", "Black has no king"},
                    BadFen{"4k3/8/8/8/8/8/8/4K3\xff w - - 0 1", "is not a piece letter"}));

TEST(Position, OverlongFenIsRejected) {
  std::string fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
  for (int i = 0; i < 10000; ++i) fen += "/8";
  EXPECT_THROW((void)Position::fromFen(fen + " w KQkq - 0 1"), Error);
  std::string junk(1 << 20, 'x');
  EXPECT_THROW((void)Position::fromFen(std::string(Position::kStartFen) + " " + junk), Error);
  EXPECT_THROW((void)Position::fromFen(junk), Error);
}

TEST(Position, LenientFenForms) {
  // White space of any kind and amount, CRLF, and a missing clock pair (EPD) are accepted.
  EXPECT_EQ(Position::fromFen("  rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR\tw  KQkq -  0 1\r\n").fen(),
            Position::kStartFen);
  EXPECT_EQ(Position::fromFen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -").fen(), Position::kStartFen);
  // Fullmove 0 is read as 1; a huge halfmove clock is capped at 10000.
  EXPECT_EQ(Position::fromFen("4k3/8/8/8/8/8/8/4K3 w - - 0 0").fullmoveNumber(), 1);
  EXPECT_EQ(Position::fromFen("4k3/8/8/8/8/8/8/4K3 w - - 99999 1").halfmoveClock(), 10000);
  // An en passant square with no legal capture is accepted and dropped (FIDE 9.2.3 keys).
  EXPECT_EQ(Position::fromFen("4k3/8/8/4p3/8/8/8/4K3 w - e6 0 1").epSquare(), kNoSquare);
  // Positions that cannot arise in a game but are well defined are accepted: a triple check
  // and a pawn-less side with 15 queens (move lists stay below kMaxMoves = 256).
  Position triple = Position::fromFen("4k3/8/3N4/1B6/8/8/4R3/4K3 b - - 0 1");
  EXPECT_EQ(popCount(triple.checkers()), 3);
  for (Move m : legalMoves(triple)) EXPECT_EQ(m.from(), kE8);
  EXPECT_EQ(legalMoves(Position::fromFen("kn2Q3/ppQ4Q/Q4Q2/3Q4/1Q4Q1/4Q3/Q6Q/KQQQ1Q2 w - - 0 1")).size(), 237);
}

/// Plays random legal games and checks after every move that the incremental Zobrist keys and
/// checkers equal a recomputation, and that unmaking every move restores the original FEN and key.
TEST(Position, MakeUnmakeRestoresStateAndKeys) {
  std::mt19937_64 rng(12345);
  for (const char* fen : {Position::kStartFen,
                          "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                          "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"}) {
    for (int game = 0; game < 50; ++game) {
      Position pos = Position::fromFen(fen);
      std::vector<Move> played;
      std::vector<std::string> fens{pos.fen()};
      std::vector<u64> keys{pos.key()};
      for (int ply = 0; ply < 120; ++ply) {
        MoveList moves = legalMoves(pos);
        if (moves.empty()) break;
        Move m = moves[int(rng() % moves.size())];
        pos.makeMove(m);
        played.push_back(m);
        ASSERT_EQ(pos.key(), pos.computeKey()) << pos.fen();
        ASSERT_EQ(pos.pawnKey(), pos.computePawnKey()) << pos.fen();
        for (Color c : {kWhite, kBlack}) ASSERT_EQ(pos.nonPawnKey(c), pos.computeNonPawnKey(c)) << pos.fen();
        ASSERT_EQ(pos.checkers(), pos.attackersTo(pos.kingSquare(pos.sideToMove())) & pos.pieces(~pos.sideToMove()));
        // The FEN written and read back gives the same key.
        ASSERT_EQ(Position::fromFen(pos.fen(), pos.isChess960()).key(), pos.key()) << pos.fen();
        fens.push_back(pos.fen());
        keys.push_back(pos.key());
      }
      while (!played.empty()) {
        pos.unmakeMove(played.back());
        played.pop_back();
        fens.pop_back();
        keys.pop_back();
        ASSERT_EQ(pos.fen(), fens.back());
        ASSERT_EQ(pos.key(), keys.back());
      }
    }
  }
}

TEST(Position, NullMoveFlipsSideAndRestores) {
  Position pos = Position::fromFen("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
  u64 key = pos.key();
  std::string fen = pos.fen();
  pos.makeNullMove();
  EXPECT_EQ(pos.sideToMove(), kBlack);
  EXPECT_EQ(pos.epSquare(), kNoSquare);
  EXPECT_EQ(pos.key(), pos.computeKey());
  pos.unmakeNullMove();
  EXPECT_EQ(pos.key(), key);
  EXPECT_EQ(pos.fen(), fen);
}

TEST(Position, ThreefoldRepetition) {
  Position pos;
  auto play = [&](const char* uci) { pos.makeMove(parseUci(pos, uci, false)); };
  for (int i = 0; i < 2; ++i) {
    EXPECT_FALSE(pos.isRepetition(2));
    play("g1f3");
    play("g8f6");
    play("f3g1");
    play("f6g8");
  }
  EXPECT_TRUE(pos.isRepetition(2));  // start position for the third time
  EXPECT_TRUE(pos.isRepetition(1));
}

TEST(Position, RepetitionNeedsSameCastlingRights) {
  Position pos;
  auto play = [&](const char* uci) { pos.makeMove(parseUci(pos, uci, false)); };
  for (const char* m : {"e2e4", "e7e5", "e1e2", "e8e7", "e2e1", "e7e8", "e1e2", "e8e7", "e2e1", "e7e8"}) play(m);
  // Kings are back, but castling rights were lost: only two occurrences of this position.
  EXPECT_FALSE(pos.isRepetition(2));
  play("e1e2");
  play("e8e7");
  play("e2e1");
  play("e7e8");
  EXPECT_TRUE(pos.isRepetition(2));
}

TEST(Position, FiftyMoveRule) {
  Position pos = Position::fromFen("4k3/8/8/8/8/8/8/R3K3 w - - 99 80");
  EXPECT_FALSE(pos.isFiftyMoveDraw());
  pos.makeMove(parseUci(pos, "a1a2", false));
  EXPECT_TRUE(pos.isFiftyMoveDraw());
  Position reset = Position::fromFen("4k3/8/8/8/8/8/P7/4K3 w - - 99 80");
  reset.makeMove(parseUci(reset, "a2a3", false));
  EXPECT_EQ(reset.halfmoveClock(), 0);
}

TEST(Position, InsufficientMaterial) {
  EXPECT_TRUE(Position::fromFen("4k3/8/8/8/8/8/8/4K3 w - - 0 1").isInsufficientMaterial());
  EXPECT_TRUE(Position::fromFen("4k3/8/8/8/8/8/8/4KN2 w - - 0 1").isInsufficientMaterial());
  // f1 and g8 are light squares, f8 is dark.
  EXPECT_TRUE(Position::fromFen("4k1b1/8/8/8/8/8/8/4KB2 w - - 0 1").isInsufficientMaterial()) << "same colour";
  EXPECT_FALSE(Position::fromFen("4kb2/8/8/8/8/8/8/4KB2 w - - 0 1").isInsufficientMaterial()) << "opposite";
  EXPECT_FALSE(Position::fromFen("4k3/8/8/8/8/8/8/4KNN1 w - - 0 1").isInsufficientMaterial());
  EXPECT_FALSE(Position::fromFen("4k3/8/8/8/8/8/P7/4K3 w - - 0 1").isInsufficientMaterial());
}

TEST(Position, CheckmateAndStalemate) {
  EXPECT_TRUE(isCheckmate(Position::fromFen("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")));
  EXPECT_TRUE(isStalemate(Position::fromFen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")));
  EXPECT_FALSE(isCheckmate(Position()));
}

TEST(Position, IsLegalAgreesWithGenerator) {
  // Every 16-bit move pattern that is legal must be generated and vice versa.
  for (const char* fen : {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                          "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
                          "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
                          "2r5/8/8/8/8/8/6k1/R3K2R w KQ - 0 1", "1k6/8/8/5q2/8/3B4/8/1K6 w - - 0 1",
                          "rnbqk2r/pppp1ppp/5n2/4p3/1b2P3/3P4/PPPNBPPP/R1BQK1NR w KQkq - 0 1"}) {
    Position pos = Position::fromFen(fen);
    MoveList legal = legalMoves(pos);
    int count = 0;
    for (int raw = 0; raw < 65536; ++raw) {
      Move m{u16(raw)};
      if (pos.isLegal(m)) {
        ++count;
        EXPECT_TRUE(legal.contains(m)) << fen << " " << toUci(m, true);
      }
    }
    EXPECT_EQ(count, legal.size()) << fen;
  }
}

TEST(Position, GivesCheckMatchesMakeMove) {
  std::mt19937_64 rng(7);
  Position pos = Position::fromFen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
  for (int i = 0; i < 3000; ++i) {
    MoveList moves = legalMoves(pos);
    if (moves.empty() || pos.halfmoveClock() > 60) {
      pos = Position::fromFen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
      continue;
    }
    for (Move m : moves) {
      bool predicted = pos.givesCheck(m);
      Position after = pos;
      after.makeMove(m);
      ASSERT_EQ(predicted, after.inCheck()) << pos.fen() << " " << toUci(m, false);
    }
    pos.makeMove(moves[int(rng() % moves.size())]);
  }
}

// Every move of whole perft trees, with one CheckInfo per node as the search uses it: direct,
// discovered (also by the king and by en passant), promotion and Chess960 castling checks.
int checkTreeMismatches(Position& pos, int depth, int& checks) {
  const CheckInfo ci = pos.checkInfo();
  int mismatches = 0;
  for (Move m : legalMoves(pos)) {
    const bool predicted = pos.givesCheck(m, ci);
    pos.makeMove(m);
    checks += pos.inCheck();
    if (predicted != pos.inCheck()) {
      ++mismatches;
      ADD_FAILURE() << "after " << toUci(m, pos.isChess960()) << ": predicted " << predicted << ", " << pos.fen();
    }
    if (depth > 1) mismatches += checkTreeMismatches(pos, depth - 1, checks);
    pos.unmakeMove(m);
  }
  return mismatches;
}

TEST(Position, GivesCheckWithCheckInfoMatchesMakeMoveOnPerftTrees) {
  for (const char* fen : {
           "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
           "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
           "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
           "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
           "8/8/8/K2pP2q/8/8/8/7k w - d6 0 1",         // en passant that uncovers a rook line
           "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",          // castling checks along the back rank
           "3k4/1P6/8/8/8/8/8/4K2B w - - 0 1",          // promotions giving check
           "7k/8/8/3K4/8/5B2/8/8 w - - 0 1",            // the king moving off a bishop's line
           "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
       }) {
    Position pos = Position::fromFen(fen);
    int checks = 0;
    EXPECT_EQ(checkTreeMismatches(pos, 3, checks), 0) << fen;
    EXPECT_GT(checks, 0) << fen;  // the trees hold checks to predict
  }
}

}  // namespace
}  // namespace janus
