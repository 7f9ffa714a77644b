// PGN writing (writePgn) and the comment commands ([%eval], [%clk]); reading is tested in
// pgn_test.cpp.

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "core/movegen.h"
#include "core/notation.h"
#include "core/pgn.h"
#include "core/pgn_test_util.h"
#include "util/error.h"

namespace janus {
namespace {

using namespace pgn_test;

bool allLinesFit(const std::string& text) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line))
    if (line.size() > 80 && line[0] != '[') return false;
  return true;
}

TEST(Pgn, WritePgnRoundTripsEveryDataFile) {
  int games = 0;
  for (const char* name : {"kasparov-deep-blue-1997.pgn", "matetrack_masters.pgn", "nepomniachtchi-liren-game1.pgn",
                           "molinari-bordais-1979.pgn", "stockfish-learning.pgn", "cutechess-fischerrandom.pgn"}) {
    for (const PgnGame& g : readFileGames(name)) {
      SCOPED_TRACE(std::string(name) + " line " + std::to_string(g.line));
      std::string text = writePgn(g);
      EXPECT_TRUE(allLinesFit(text)) << text;
      std::vector<PgnError> errors;
      auto again = readAll(text, &errors);
      ASSERT_EQ(again.size(), 1u) << (errors.empty() ? text : errors[0].message);
      const PgnGame& h = again[0];
      EXPECT_EQ(h.moves, g.moves);
      EXPECT_EQ(h.comments, g.comments);
      EXPECT_EQ(h.preComment, g.preComment);
      EXPECT_EQ(h.result, g.result);
      EXPECT_EQ(h.chess960, g.chess960);
      EXPECT_EQ(h.startPosition().fen(), g.startPosition().fen());
      // Every tag survives except those writePgn derives from the game (Result, Variant, SetUp, FEN).
      for (const auto& [tagName, value] : g.tags) {
        if (tagName != "Result" && tagName != "Variant" && tagName != "SetUp" && tagName != "FEN") {
          EXPECT_EQ(h.tag(tagName), value) << tagName;
        }
      }
      if (g.chess960) {
        EXPECT_EQ(h.tag("Variant"), "Chess960");
      }
      // Seven Tag Roster first.
      ASSERT_GE(h.tags.size(), 7u);
      EXPECT_EQ(h.tags[0].first, "Event");
      EXPECT_EQ(h.tags[6].first, "Result");
      // Writing what was read back gives the same text: a fixed point.
      EXPECT_EQ(writePgn(h), text);
      ++games;
    }
  }
  EXPECT_EQ(games, 56);
}

TEST(Pgn, WritePgnFormat) {
  PgnGame g;
  g.setTag("White", "Anderssen");
  g.setTag("Event", "Test \"quoted\"");
  g.setTag("Annotator", "me");
  g.setTag("White", "Anderssen, A.");
  Position pos;
  for (const char* san : {"e4", "e5", "Nf3", "Nc6", "Bb5"}) {
    Move m = parseSan(pos, san);
    g.moves.push_back(m);
    pos.makeMove(m);
  }
  g.comments = {"", "Open game", "", "", "The } Spanish"};
  g.preComment = "Intro";
  g.result = "1/2-1/2";
  EXPECT_EQ(writePgn(g),
            "[Event \"Test \\\"quoted\\\"\"]\n"
            "[Site \"?\"]\n"
            "[Date \"????.??.??\"]\n"
            "[Round \"?\"]\n"
            "[White \"Anderssen, A.\"]\n"
            "[Black \"?\"]\n"
            "[Result \"1/2-1/2\"]\n"
            "[Annotator \"me\"]\n"
            "\n"
            "{Intro} 1. e4 e5 {Open game} 2. Nf3 Nc6 3. Bb5 ; The } Spanish\n"
            "1/2-1/2\n"
            "\n");

  auto reread = readAll(writePgn(g));
  ASSERT_EQ(reread.size(), 1u);
  EXPECT_EQ(reread[0].comments, g.comments);

  // Black to move first, a long game wrapped at 79 columns, move numbers after comments.
  PgnGame b;
  b.startFen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 12";
  Position p = b.startPosition();
  for (int i = 0; i < 60; ++i) {
    MoveList moves = legalMoves(p);
    if (moves.empty()) break;
    Move m = moves[(i * 7) % moves.size()];
    b.moves.push_back(m);
    b.comments.push_back(i % 9 == 3 ? "a fairly long comment text to make the line wrap somewhere" : "");
    p.makeMove(m);
  }
  std::string text = writePgn(b);
  EXPECT_NE(text.find("[SetUp \"1\"]\n[FEN \"" + b.startFen + "\"]\n"), std::string::npos);
  EXPECT_NE(text.find("\n\n12... "), std::string::npos) << text;
  std::istringstream lines(text.substr(text.find("\n\n") + 2));
  std::string line;
  size_t longest = 0;
  while (std::getline(lines, line)) longest = std::max(longest, line.size());
  EXPECT_LE(longest, 79u);
  EXPECT_GT(longest, 70u);
  auto again = readAll(text);
  ASSERT_EQ(again.size(), 1u);
  EXPECT_EQ(again[0].moves, b.moves);
  EXPECT_EQ(again[0].comments, b.comments);
  // After a comment on White's move, Black's move gets "N...".
  Position q = b.startPosition();
  for (size_t i = 0; i < b.moves.size(); ++i) {
    std::string san = toSan(q, b.moves[i]);
    std::string label = std::to_string(q.fullmoveNumber()) + (q.sideToMove() == kWhite ? ". " : "... ");
    bool numbered = q.sideToMove() == kWhite || i == 0 || !b.comments[i - 1].empty();
    std::string flat = text;
    std::replace(flat.begin(), flat.end(), '\n', ' ');
    if (numbered) {
      EXPECT_NE(flat.find(label + san + " "), std::string::npos) << label << san;
    }
    q.makeMove(b.moves[i]);
  }

  // Bad games built in code are errors, not crashes.
  PgnGame bad = g;
  bad.result = "2-0";
  EXPECT_THROW((void)writePgn(bad), Error);
  bad = g;
  bad.moves.push_back(Move(kE1, kE8));
  EXPECT_THROW((void)writePgn(bad), Error);
  bad = g;
  bad.startFen = "not a fen";
  EXPECT_THROW((void)writePgn(bad), Error);
  EXPECT_THROW((void)bad.startPosition(), Error);
}

// Regression (pgn_fuzz round trip): a comment word such as [Event "x"] that the line wrapping put
// at the start of a line made the reader take it for the next game's tags, so the written game
// did not read back. Every wrap position is tried.
TEST(Pgn, CommentWordsThatLookLikeTagsRoundTrip) {
  for (int n = 0; n < 40; ++n) {
    PgnGame g;
    Position pos;
    for (const char* san : {"e4", "e5"}) {
      Move m = parseSan(pos, san);
      g.moves.push_back(m);
      g.comments.emplace_back();
      pos.makeMove(m);
    }
    std::string comment;
    for (int i = 0; i < n; ++i) comment += "ab ";
    g.comments[0] = comment + "[Event \"x\"] [Site_2 \"y\"] [%clk 0:01:00] more";
    std::string text = writePgn(g);
    std::vector<PgnError> errors;
    auto again = readAll(text, &errors);
    ASSERT_EQ(again.size(), 1u) << text << (errors.empty() ? "" : errors[0].message);
    EXPECT_EQ(again[0].comments, g.comments) << text;
    EXPECT_EQ(writePgn(again[0]), text);
  }
}

TEST(Pgn, ChessNineSixtyVariantNames) {
  for (const char* variant : {"Chess960", "chess 960", "fischerandom", "Fischer Random", "CHESS960"}) {
    std::string text = std::string("[Variant \"") + variant +
                       "\"]\n[FEN \"rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1\"]\n\n"
                       "1. O-O O-O-O *\n";
    auto games = readAll(text);
    ASSERT_EQ(games.size(), 1u) << variant;
    EXPECT_TRUE(games[0].chess960);
    ASSERT_EQ(games[0].moves.size(), 2u);
    EXPECT_EQ(games[0].moves[0], Move(kB1, kH1, Move::kCastling));
    EXPECT_EQ(games[0].moves[1], Move(kB8, kA8, Move::kCastling));
    EXPECT_NE(writePgn(games[0]).find("[Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN \"rk5r/"), std::string::npos);
  }
  // Chess960 without a FEN tag starts from the standard position with Chess960 castling.
  auto games = readAll("[Variant \"Chess960\"]\n\n1. Nf3 Nf6 2. g3 g6 3. Bg2 Bg7 4. O-O O-O *\n");
  ASSERT_EQ(games.size(), 1u);
  EXPECT_EQ(games[0].moves[6], Move(kE1, kH1, Move::kCastling));
}

TEST(Pgn, EvalAndClockComments) {
  auto cp = [](std::string_view c) { return parseEvalComment(c).value().centipawns.value_or(99999); };
  auto mate = [](std::string_view c) { return parseEvalComment(c).value().mate.value_or(99999); };
  EXPECT_EQ(cp("[%eval 0.30]"), 30);
  EXPECT_EQ(cp("[%eval -1.5]"), -150);
  EXPECT_EQ(cp("[%eval +2.07]"), 207);
  EXPECT_EQ(cp("[%eval 0.17] [%clk 0:01:00]"), 17);
  EXPECT_EQ(cp("Inaccuracy. [%eval -0.004,23]"), 0);
  EXPECT_EQ(cp("[%eval 12]"), 1200);
  EXPECT_EQ(mate("[%eval #3]"), 3);
  EXPECT_EQ(mate("[%eval #-2]"), -2);
  EXPECT_FALSE(parseEvalComment("[%eval #3]").value().centipawns.has_value());
  EXPECT_FALSE(parseEvalComment("").has_value());
  EXPECT_FALSE(parseEvalComment("+0.13/12 0.29s").has_value());
  EXPECT_FALSE(parseEvalComment("[%eval abc]").has_value());
  EXPECT_FALSE(parseEvalComment("[%eval 0.3").has_value());
  EXPECT_FALSE(parseEvalComment("[%evaluation 0.3]").has_value());
  EXPECT_FALSE(parseEvalComment("[%eval #]").has_value());

  EXPECT_EQ(parseClockComment("[%clk 0:01:00]"), 60000);
  EXPECT_EQ(parseClockComment("[%eval 0.17] [%clk 1:02:03]"), 3723000);
  EXPECT_EQ(parseClockComment("[%clk 0:00:59.5]"), 59500);
  EXPECT_EQ(parseClockComment("[%clk 0:00:07.25]"), 7250);
  EXPECT_EQ(parseClockComment("[%clk 2:05]"), 125000);
  EXPECT_FALSE(parseClockComment("[%clk 0:61:00]").has_value());
  EXPECT_FALSE(parseClockComment("[%clk soon]").has_value());
  EXPECT_FALSE(parseClockComment("[%eval 0.3]").has_value());
  // Crazyhouse Lichess export: every comment carries a clock.
  std::string zh = readFile(kPgnDir + "knightvuillaume-jannlee-zh-lichess.pgn");
  auto first = zh.find("{ [%clk ");
  EXPECT_EQ(parseClockComment(zh.substr(first, 20)), 60000);
}

}  // namespace
}  // namespace janus
