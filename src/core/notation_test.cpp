#include "core/notation.h"

#include <gtest/gtest.h>

#include <random>

#include "core/movegen.h"
#include "util/error.h"

namespace janus {
namespace {

TEST(Notation, UciRoundTripAndCastlingModes) {
  Position pos = Position::fromFen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
  Move oo = Move(kE1, kH1, Move::kCastling);
  EXPECT_EQ(toUci(oo, false), "e1g1");
  EXPECT_EQ(toUci(oo, true), "e1h1");
  EXPECT_EQ(parseUci(pos, "e1g1", false), oo);
  EXPECT_EQ(parseUci(pos, "e1h1", true), oo);
  EXPECT_EQ(parseUci(pos, "e1c1", false), Move(kE1, kA1, Move::kCastling));
  EXPECT_EQ(toUci(Move::null(), false), "0000");
  Position promo = Position::fromFen("8/P6k/8/8/8/8/8/K7 w - - 0 1");
  EXPECT_EQ(parseUci(promo, "a7a8q", false), Move(kA7, kA8, Move::kPromotion, kQueen));
  EXPECT_EQ(parseUci(promo, "a7a8N", false), Move(kA7, kA8, Move::kPromotion, kKnight));
}

TEST(Notation, UciRejectsMalformedAndIllegal) {
  Position pos;
  EXPECT_THROW((void)parseUci(pos, "e2e9", false), Error);
  EXPECT_THROW((void)parseUci(pos, "e2", false), Error);
  EXPECT_THROW((void)parseUci(pos, "e7e8x", false), Error);
  try {
    (void)parseUci(pos, "e2e5", false);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("illegal move 'e2e5'"), std::string::npos);
  }
}

TEST(Notation, SanExamples) {
  Position pos = Position::fromFen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
  EXPECT_EQ(toSan(pos, Move(kE1, kH1, Move::kCastling)), "O-O");
  EXPECT_EQ(toSan(pos, Move(kE1, kA1, Move::kCastling)), "O-O-O");
  EXPECT_EQ(toSan(pos, Move(kE5, kF7)), "Nxf7");
  EXPECT_EQ(toSan(pos, Move(kD5, kE6)), "dxe6");
  EXPECT_EQ(toSan(pos, Move(kG2, kH3)), "gxh3");
  EXPECT_EQ(toSan(pos, Move(kC3, kB1)), "Nb1");
  // Disambiguation: by rank (two rooks on one file), by file, and by both squares.
  Position rooks = Position::fromFen("4k3/8/R7/8/8/8/R7/4K3 w - - 0 1");
  EXPECT_EQ(toSan(rooks, Move(kA6, kA4)), "R6a4");
  EXPECT_EQ(toSan(rooks, Move(kA2, kA4)), "R2a4");
  Position knights = Position::fromFen("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1");
  EXPECT_EQ(toSan(knights, Move(kB1, kD2)), "Nbd2");
  Position queens = Position::fromFen("6k1/8/8/8/Q2Q4/8/8/Q3K3 w - - 0 1");
  EXPECT_EQ(toSan(queens, Move(kA4, kD1)), "Qa4d1");  // a1 shares the file, d4 the rank
  EXPECT_EQ(toSan(queens, Move(kD4, kD1)), "Qdd1");
  // Promotions with check and mate.
  Position promo = Position::fromFen("7k/P7/8/8/8/8/8/K7 w - - 0 1");
  EXPECT_EQ(toSan(promo, Move(kA7, kA8, Move::kPromotion, kQueen)), "a8=Q+");
  Position mate = Position::fromFen("6k1/5ppp/8/8/8/8/8/K2R4 w - - 0 1");
  EXPECT_EQ(toSan(mate, Move(kD1, kD8)), "Rd8#");
}

TEST(Notation, SanParsingVariants) {
  Position pos;
  EXPECT_EQ(parseSan(pos, "e4"), Move(kE2, kE4));
  EXPECT_EQ(parseSan(pos, "Nf3"), Move(kG1, kF3));
  EXPECT_EQ(parseSan(pos, "Nf3!?"), Move(kG1, kF3));
  EXPECT_EQ(parseSan(pos, "Ngf3"), Move(kG1, kF3));
  Position castle = Position::fromFen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
  EXPECT_EQ(parseSan(castle, "0-0"), Move(kE1, kH1, Move::kCastling));
  EXPECT_EQ(parseSan(castle, "O-O-O+"), Move(kE1, kA1, Move::kCastling));
  Position promo = Position::fromFen("1r5k/P7/8/8/8/8/8/K7 w - - 0 1");
  EXPECT_EQ(parseSan(promo, "axb8=N"), Move(kA7, kB8, Move::kPromotion, kKnight));
  EXPECT_EQ(parseSan(promo, "a8Q"), Move(kA7, kA8, Move::kPromotion, kQueen));
  EXPECT_THROW((void)parseSan(promo, "a8"), Error);
  EXPECT_THROW((void)parseSan(pos, "Nf4"), Error);
  EXPECT_THROW((void)parseSan(pos, "Zz"), Error);
  EXPECT_THROW((void)parseSan(pos, ""), Error);
  Position rooks = Position::fromFen("4k3/8/R7/8/8/8/R7/4K3 w - - 0 1");
  try {
    (void)parseSan(rooks, "Ra4");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("ambiguous"), std::string::npos);
  }
}

/// toSan then parseSan gives back every legal move, along random games in several positions.
TEST(Notation, SanAndUciRoundTripForAllLegalMoves) {
  std::mt19937_64 rng(99);
  for (const char* fen : {Position::kStartFen,
                          "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                          "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
                          "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"}) {
    for (int game = 0; game < 10; ++game) {
      Position pos = Position::fromFen(fen);
      for (int ply = 0; ply < 80; ++ply) {
        MoveList moves = legalMoves(pos);
        if (moves.empty()) break;
        for (Move m : moves) {
          ASSERT_EQ(parseSan(pos, toSan(pos, m)), m) << pos.fen() << " " << toSan(pos, m);
          ASSERT_EQ(parseUci(pos, toUci(m, pos.isChess960()), pos.isChess960()), m) << pos.fen();
        }
        pos.makeMove(moves[int(rng() % moves.size())]);
      }
    }
  }
}

}  // namespace
}  // namespace janus

namespace janus {

TEST(UciPositionArgs, SplitsStartposAndFenWithMovesAndNamesErrors) {
  UciPositionArgs a = splitUciPosition("startpos moves e2e4 e7e5");
  EXPECT_EQ(a.fen, "startpos");
  EXPECT_EQ(a.moves, (std::vector<std::string>{"e2e4", "e7e5"}));
  a = splitUciPosition("fen 6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1 moves a1a8");
  EXPECT_EQ(a.fen, "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1");
  EXPECT_EQ(a.moves, (std::vector<std::string>{"a1a8"}));
  EXPECT_TRUE(splitUciPosition("startpos").moves.empty());
  auto message = [](std::string_view args) {
    try {
      (void)splitUciPosition(args);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message("startpos e2e4"), "position: expected 'moves', got 'e2e4'");
  EXPECT_EQ(message("fen moves e2e4"), "position fen: missing FEN");
  EXPECT_EQ(message("banana"), "position: expected 'startpos' or 'fen <FEN>', got 'banana'");
}

}  // namespace janus
