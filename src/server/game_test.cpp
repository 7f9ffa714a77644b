#include "server/game.h"

#include <gtest/gtest.h>

#include "server/openings.h"
#include "util/error.h"

namespace janus::server {
namespace {

TEST(GuiGame, PlaysLegalMovesAndRecordsSanAndFens) {
  Game g;
  g.play("e2e4");
  g.play("e7e5");
  g.play("g1f3");
  EXPECT_EQ(g.ply(), 3);
  EXPECT_EQ(g.sans(), (std::vector<std::string>{"e4", "e5", "Nf3"}));
  ASSERT_EQ(g.fens().size(), 4u);
  EXPECT_EQ(g.fens().back(), "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2");
  EXPECT_EQ(g.uci(2), "g1f3");
  EXPECT_FALSE(g.over());
}

TEST(GuiGame, RejectsIllegalAndMalformedMoves) {
  Game g;
  EXPECT_THROW(g.play("e2e5"), Error);
  EXPECT_THROW(g.play("zz"), Error);
  EXPECT_THROW(g.play(""), Error);
  EXPECT_EQ(g.ply(), 0);
}

TEST(GuiGame, CastlingInBothNotationsAndPromotion) {
  Game g;
  g.reset("r3k3/6P1/8/8/8/8/8/R3K2R w KQq - 0 1");
  g.play("e1h1");  // king takes rook form is accepted too
  EXPECT_EQ(g.sans().back(), "O-O");
  g.play("e8c8");
  EXPECT_EQ(g.sans().back(), "O-O-O");
  g.play("g7g8q");
  EXPECT_EQ(g.sans().back(), "g8=Q");
}

TEST(GuiGame, DetectsCheckmateAndWritesResultToPgn) {
  Game g;
  for (const char* m : {"f2f3", "e7e5", "g2g4", "d8h4"}) g.play(m);
  EXPECT_TRUE(g.over());
  EXPECT_EQ(g.termination(), GameEnd::kCheckmate);
  EXPECT_EQ(g.result(), "0-1");
  EXPECT_EQ(g.endMessage(), "Checkmate: Black wins.");
  std::string pgn = g.pgn();
  EXPECT_NE(pgn.find("[Result \"0-1\"]"), std::string::npos);
  EXPECT_NE(pgn.find("2. g4 Qh4# 0-1"), std::string::npos);
  EXPECT_THROW(g.play("a2a3"), Error);
}

TEST(GuiGame, DetectsStalemateInsufficientMaterialAndFiftyMoves) {
  Game g;
  g.reset("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
  EXPECT_EQ(g.termination(), GameEnd::kStalemate);
  g.reset("7k/8/6K1/8/8/8/8/6Nn w - - 0 1");
  g.play("g1f3");  // no capture possible that keeps material; K+N vs K+N is not insufficient
  g.reset("7k/8/6K1/8/8/8/8/7n w - - 0 1");
  EXPECT_EQ(g.termination(), GameEnd::kInsufficientMaterial);
  g.reset("7k/8/6K1/8/8/8/R7/8 w - - 99 80");
  g.play("a2a3");
  EXPECT_EQ(g.termination(), GameEnd::kFiftyMoves);
  EXPECT_EQ(g.result(), "1/2-1/2");
}

TEST(GuiGame, DetectsThreefoldRepetition) {
  Game g;
  for (int i = 0; i < 2; ++i)
    for (const char* m : {"g1f3", "g8f6", "f3g1", "f6g8"}) g.play(m);
  EXPECT_EQ(g.termination(), GameEnd::kRepetition);
  EXPECT_EQ(g.endMessage(), "Threefold repetition: draw.");
}

TEST(GuiGame, UndoAndTruncateRestoreTheGame) {
  Game g;
  for (const char* m : {"f2f3", "e7e5", "g2g4", "d8h4"}) g.play(m);
  EXPECT_EQ(g.undo(1), 1);
  EXPECT_FALSE(g.over());
  EXPECT_EQ(g.result(), "*");
  g.truncate(1);
  EXPECT_EQ(g.ply(), 1);
  EXPECT_EQ(g.fens().size(), 2u);
  EXPECT_THROW(g.truncate(5), Error);
  EXPECT_EQ(g.undo(10), 1);
  EXPECT_EQ(g.position().fen(), Position::kStartFen);
}

TEST(GuiGame, ResignationAndTimeLoss) {
  Game g;
  g.play("e2e4");
  g.resign(kWhite);
  EXPECT_EQ(g.result(), "0-1");
  EXPECT_EQ(g.termination(), GameEnd::kResignation);
  EXPECT_NE(g.pgn().find("[Termination \"normal\"]"), std::string::npos);
  g.undo(0);  // lifts the resignation
  EXPECT_FALSE(g.over());
  g.flagTime(kBlack);
  EXPECT_EQ(g.result(), "1-0");
  EXPECT_NE(g.pgn().find("[Termination \"time forfeit\"]"), std::string::npos);
  // Losing on time against a bare king is a draw.
  g.reset("7k/8/6K1/8/8/8/8/Q7 b - - 0 1");
  g.flagTime(kWhite);
  EXPECT_EQ(g.result(), "1/2-1/2");
}

TEST(GuiGame, BadFenKeepsTheGame) {
  Game g;
  g.play("e2e4");
  EXPECT_THROW(g.reset("not a fen"), Error);
  EXPECT_THROW(g.reset("8/8/8/8/8/8/8/8 w - - 0 1"), Error);
  EXPECT_EQ(g.ply(), 1);
}

TEST(GuiGame, LoadsPgnWithFenAndResult) {
  Game g;
  g.loadPgn("[Event \"x\"]\n[White \"A\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 {a comment} Nc6 1-0\n");
  EXPECT_EQ(g.ply(), 4);
  EXPECT_EQ(g.result(), "1-0");
  EXPECT_EQ(g.termination(), GameEnd::kAdjudicatedWin);
  EXPECT_NE(g.pgn().find("[White \"A\"]"), std::string::npos);
  g.loadPgn("[FEN \"4k3/8/8/8/8/8/8/R3K3 w Q - 0 1\"]\n[SetUp \"1\"]\n\n1. O-O-O Kf7 *");
  EXPECT_EQ(g.ply(), 2);
  EXPECT_EQ(g.startFen(), "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1");
  EXPECT_NE(g.pgn().find("[FEN \"4k3/8/8/8/8/8/8/R3K3 w Q - 0 1\"]"), std::string::npos);
  EXPECT_THROW(g.loadPgn("1. e4 e5 2. Ke3 Ke6 3. Qz9 *"), Error);
  EXPECT_THROW(g.loadPgn(""), Error);
  EXPECT_EQ(g.ply(), 2);
}

// Issue 75: a PGN whose main line has an illegal move, or that does not parse, was loaded in part
// (or its next game was): the load is an error naming the move or the line, and the game stays.
TEST(GuiGame, AFaultyPgnIsAnErrorNamingItAndTheGameStays) {
  Game g;
  g.loadPgn("1. d4 d5 *");
  auto message = [&](const std::string& pgn, int index = 0) {
    try {
      g.loadPgn(pgn, index);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("(loaded)");
  };
  EXPECT_EQ(message("1. e4 e5 2. Nf3 Nc6 3. Bb5 Qxh8 4. O-O-O-O *").rfind("PGN: line 1: move 3... 'Qxh8'", 0), 0u);
  EXPECT_EQ(message("[Event \"Casual\n[White \"Ann\"]\n\n1. e4 {an unclosed comment\n2. Nf3 *").rfind("PGN: line 1: unterminated tag", 0), 0u);
  // A broken first game is not skipped for a good second one.
  EXPECT_EQ(message("[Event \"a\"]\n\n1. e4 {unclosed\n\n[Event \"b\"]\n\n1. d4 *").rfind("PGN: line 3: unterminated comment", 0), 0u)
      << message("[Event \"a\"]\n\n1. e4 {unclosed\n\n[Event \"b\"]\n\n1. d4 *");
  EXPECT_EQ(g.sans(), (std::vector<std::string>{"d4", "d5"}));
  // Game by index (0-based); one that is not there is named.
  const std::string two = "[Event \"a\"]\n\n1. e4 *\n\n[Event \"b\"]\n\n1. c4 e5 *\n";
  g.loadPgn(two, 1);
  EXPECT_EQ(g.sans(), (std::vector<std::string>{"c4", "e5"}));
  EXPECT_EQ(message(two, 2), "PGN: the text has 2 games; game 3 was asked for");
  EXPECT_EQ(message(two, -1), "PGN: game 0 does not exist (games are counted from 1)");
  EXPECT_EQ(g.sans(), (std::vector<std::string>{"c4", "e5"}));
}

TEST(GuiGame, PositionAtReplaysTheGame) {
  Game g;
  g.play("d2d4");
  g.play("d7d5");
  EXPECT_EQ(g.positionAt(1).fen(), g.fens()[1]);
  EXPECT_EQ(g.positionAt(0).fen(), Position::kStartFen);
  EXPECT_THROW((void)g.positionAt(3), Error);
}

TEST(Openings, NamesPositionsByTheLichessTablesIncludingTranspositions) {
  Game g;
  for (const char* uci : {"e2e4", "e7e5", "g1f3", "b8c6", "f1b5"}) g.play(uci);
  auto found = openingsOf(g.fens());
  ASSERT_FALSE(found.empty());
  EXPECT_EQ(found.back().first, 5);
  EXPECT_EQ(found.back().second->eco, "C60");
  EXPECT_EQ(found.back().second->name, "Ruy Lopez");
  const Opening* kp = findOpening(g.fens()[1]);
  ASSERT_NE(kp, nullptr);
  EXPECT_EQ(kp->eco, "B00");
  EXPECT_EQ(kp->name, "King's Pawn Game");
  // 1. Nf3 d5 2. d4 reaches a position the tables list under 1. d4 d5 2. Nf3: named by position.
  Game t;
  for (const char* uci : {"g1f3", "d7d5", "d2d4"}) t.play(uci);
  const Opening* qp = findOpening(t.fens().back());
  ASSERT_NE(qp, nullptr);
  EXPECT_EQ(qp->eco, "D02");
  // The move counters do not matter; an unnamed position has no opening.
  EXPECT_NE(findOpening("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 7"), nullptr);
  EXPECT_EQ(findOpening("4k3/8/8/8/8/8/8/4K3 w - - 0 1"), nullptr);
}

}  // namespace
}  // namespace janus::server
