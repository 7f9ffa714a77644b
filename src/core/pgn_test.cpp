// PGN reading (PgnReader); writing and the comment commands are tested in pgn_write_test.cpp.

#include "core/pgn.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "core/movegen.h"
#include "core/notation.h"
#include "core/pgn_test_util.h"
#include "util/error.h"
#include "util/zstd_stream.h"

namespace janus {
namespace {

using namespace pgn_test;

int countLines(const std::string& text) { return int(std::count(text.begin(), text.end(), '\n')); }

Position finalPosition(const PgnGame& g) {
  Position pos = g.startPosition();
  for (Move m : g.moves) pos.makeMove(m);
  return pos;
}

/// SAN of every move (for messages and for checking the last move's suffix).
std::vector<std::string> sanMoves(const PgnGame& g) {
  Position pos = g.startPosition();
  std::vector<std::string> san;
  for (Move m : g.moves) {
    san.push_back(toSan(pos, m));
    pos.makeMove(m);
  }
  return san;
}

// Independent check: plies, final FEN and result of every standard game, computed with chess.js
// 1.4.0 (`new Chess().loadPgn(game)`, `history().length`, `fen()`), not with Janus.
struct Expected {
  const char* file;
  int index;
  int plies;
  const char* finalFen;
  const char* result;
};
const Expected kExpected[] = {
    {"kasparov-deep-blue-1997.pgn", 0, 89, "4r3/6P1/2p2P1k/1p6/pP2p1R1/P1B5/2P2K2/3r4 b - - 0 45", "1-0"},
    {"kasparov-deep-blue-1997.pgn", 1, 89, "1r6/5kp1/RqQb1p1p/1p1PpP2/1Pp1B3/2P4P/6P1/5K2 b - - 14 45", "1-0"},
    {"kasparov-deep-blue-1997.pgn", 2, 95, "3r3k/2r2p2/R4Pbp/1Bp1p3/2P1P2K/3P1R2/8/8 b - - 12 48", "1/2-1/2"},
    {"kasparov-deep-blue-1997.pgn", 3, 111, "8/2R1P3/8/2pp4/P3r3/1k6/8/2K5 b - - 2 56", "1/2-1/2"},
    {"kasparov-deep-blue-1997.pgn", 4, 98, "8/pp4P1/8/8/1kp2N2/1n2R1P1/3r4/1K6 w - - 1 50", "1/2-1/2"},
    {"kasparov-deep-blue-1997.pgn", 5, 37, "r1k4r/p2nb1p1/2b4p/1p1n1p2/2PP4/3Q1NB1/1P3PPP/R5K1 b - - 0 19", "1-0"},
    {"matetrack_masters.pgn", 0, 51, "4rr2/p1pb1ppk/1p6/n1qPB2Q/8/2P1R3/5PPP/4R1K1 b - - 1 26", "1-0"},
    {"matetrack_masters.pgn", 1, 55, "r1r5/p4kbQ/1p6/3p4/P2p2P1/3P4/1q5P/5R1K b - - 1 28", "1-0"},
    {"matetrack_masters.pgn", 2, 88, "4rk2/5p2/5Pp1/8/6P1/7K/5b1P/6r1 w - - 1 45", "0-1"},
    {"matetrack_masters.pgn", 3, 61, "r4rk1/1q2pp2/b2p2pQ/6P1/4P3/1BNnBn2/P7/1K5R b - - 3 31", "1-0"},
    {"matetrack_masters.pgn", 4, 82, "6k1/5p2/6p1/4p3/2Q1PbP1/6pP/3r2K1/8 w - - 2 42", "0-1"},
    {"matetrack_masters.pgn", 5, 73, "2r5/2q3pk/p2p1b2/2nB1P2/1p1N4/8/PPP5/2K4R b - - 1 37", "1-0"},
    {"matetrack_masters.pgn", 6, 45, "2Q1kb1r/4npp1/2n3qp/1N6/8/8/PPP2PPP/2K1R3 b - - 5 23", "1-0"},
    {"matetrack_masters.pgn", 7, 87, "1R1Q4/5k2/p1p1pPb1/P4qp1/B3p3/4P3/7P/4K3 b - - 2 44", "1-0"},
    {"matetrack_masters.pgn", 8, 207, "k6Q/8/2K5/8/8/8/8/1r6 b - - 50 104", "1-0"},
    {"matetrack_masters.pgn", 9, 47, "r4r2/p1q2kpQ/2p5/4p2p/2B3bP/2P1P3/PP6/2KR3R b - - 6 24", "1-0"},
    {"matetrack_masters.pgn", 10, 58, "8/2R2pp1/p3p1k1/4P3/B7/2p3p1/PP1r2P1/R4KNr w - - 1 30", "0-1"},
    {"matetrack_masters.pgn", 11, 81, "2r3k1/1r3p2/4pBp1/ppq1P3/4b2R/P1P5/1P4PP/K4R2 b - - 5 41", "1-0"},
    {"matetrack_masters.pgn", 12, 29, "r1bqnr2/pp1pp1bp/6p1/n3P2k/8/2N1B3/PPP2PQP/R3K1R1 b Q - 3 15", "1-0"},
    {"matetrack_masters.pgn", 13, 69, "rr4k1/2p2R1n/p1Q4p/1p3P2/6PB/2P1p3/1q4P1/4R2K b - - 0 35", "1-0"},
    {"matetrack_masters.pgn", 14, 189, "2k5/5B2/3K4/2N5/8/8/8/8 b - - 28 95", "1-0"},
    {"matetrack_masters.pgn", 15, 42, "2rq4/p3bk2/2p1pp2/3p3r/N2P2p1/4PbB1/PP1Q1PP1/2R1RK2 w - - 8 22", "0-1"},
    {"matetrack_masters.pgn", 16, 81, "4q2k/2r1r3/4PR1p/p1p5/P1Bp1Q1P/1P6/6P1/6K1 b - - 4 41", "1-0"},
    {"matetrack_masters.pgn", 17, 81, "3k4/1pR2N2/pPb2K2/3pPp2/7r/8/8/8 b - - 5 41", "1-0"},
    {"matetrack_masters.pgn", 18, 85, "4Q1k1/6r1/p2Npb2/1p1bq3/6P1/P1P5/1PB5/1K3R2 b - - 5 43", "1-0"},
    {"matetrack_masters.pgn", 19, 53, "r1r2k2/4p1b1/3p1pQ1/q1n2PP1/pp1NP3/P1N1B3/1PP5/2K4R b - - 0 27", "1-0"},
    {"matetrack_masters.pgn", 20, 41, "r2r2n1/1pq1b1kQ/p1b1p3/6B1/2p3P1/2N2P2/PPP5/1K1R3R b - - 0 21", "1-0"},
    {"matetrack_masters.pgn", 21, 69, "6kr/1b2bp1p/p6Q/Pp2pN2/8/4p3/2PRK1PP/1q6 b - - 1 35", "1-0"},
    {"matetrack_masters.pgn", 22, 79, "7b/2rNqp1k/p3N2p/1p6/4n2P/P2QP3/1P4R1/1K6 b - - 4 40", "1-0"},
    {"matetrack_masters.pgn", 23, 43, "rnb2r1k/qp1nb2B/4p2Q/1P1p4/p7/P4N2/3N1PPP/4RRK1 b - - 0 22", "1-0"},
    {"matetrack_masters.pgn", 24, 47, "r4r2/p1q2kpQ/2p5/4p2p/2B3bP/2P1P3/PP6/2KR3R b - - 6 24", "1-0"},
    {"matetrack_masters.pgn", 25, 180, "1r2n1RK/8/7k/8/8/8/8/8 w - - 62 91", "0-1"},
    {"matetrack_masters.pgn", 26, 64, "6k1/4pp1p/4n1p1/1NB2rP1/1P6/7q/P1R2KQb/3r1R2 w - - 2 33", "0-1"},
    {"matetrack_masters.pgn", 27, 39, "r4n1k/ppB1NQp1/2p1pn2/4P1Np/q2b2b1/3B4/PPP3PP/R6K b - - 0 20", "1-0"},
    {"matetrack_masters.pgn", 28, 240, "8/7n/5n1P/8/8/7K/5k2/8 w - - 100 121", "1/2-1/2"},
    {"matetrack_masters.pgn", 29, 47, "r1b2b1r/pp1np1pp/8/2p3R1/4P2k/3P2P1/PP3P2/R1B2K2 b - - 0 24", "1-0"},
    {"matetrack_masters.pgn", 30, 64, "5rk1/QpN2ppp/3p4/6r1/2P2q2/1P4nP/P5P1/4R1RK w - - 9 33", "0-1"},
    {"matetrack_masters.pgn", 31, 47, "r4b1r/1b1p1ppp/p7/1p1P4/5B2/k1N2P2/P5PP/nR4K1 b - - 1 24", "1-0"},
    {"matetrack_masters.pgn", 32, 53, "4rb1k/3q1pQp/p1rPp3/PpP5/8/5P2/1B3P1P/2R3RK b - - 0 27", "1-0"},
    {"matetrack_masters.pgn", 33, 99, "q3rn1k/2QR4/pp2pp2/5N2/P1P5/1P6/6n1/6K1 b - - 7 50", "1-0"},
    {"matetrack_masters.pgn", 34, 63, "r1r2kQ1/3n4/2qp4/1p2p2p/4P3/1PP1BP2/2P5/1K4R1 b - - 2 32", "1-0"},
    {"matetrack_masters.pgn", 35, 80, "7k/p7/6P1/1p1Q3p/6b1/6q1/PPP5/4r2K w - - 4 41", "0-1"},
    {"matetrack_masters.pgn", 36, 75, "4Q2k/p2q2p1/2b2R1p/2P5/Pp1B4/1B6/1P4PP/6K1 b - - 0 38", "1-0"},
    {"matetrack_masters.pgn", 37, 82, "8/4r1kp/6p1/8/2p5/3q2PP/1R1nN1K1/5Q2 w - - 6 42", "0-1"},
    {"matetrack_masters.pgn", 38, 112, "2B5/6pk/3Br2p/8/1p4P1/6K1/1P4P1/2r1q3 w - - 0 57", "0-1"},
    {"matetrack_masters.pgn", 39, 71, "3rr1k1/pp1qp3/6Q1/8/2pP2P1/2P4P/PP6/5RK1 b - - 4 36", "1-0"},
    {"matetrack_masters.pgn", 40, 55, "r3r1k1/5pBR/bqn1pPp1/3pn3/pp1P4/P2Q1N2/1PB2PK1/1R6 b - - 0 28", "1-0"},
    {"matetrack_masters.pgn", 41, 55, "3R1rkQ/p3n2p/4p2P/1p6/2p2Bq1/P3p3/KPP5/8 b - - 2 28", "1-0"},
    {"matetrack_masters.pgn", 42, 77, "1r1rk3/8/4PQ2/1p4pp/p3p2P/P3P1P1/1P3P2/6K1 b - - 0 39", "1-0"},
    {"nepomniachtchi-liren-game1.pgn", 0, 97, "8/3b1kp1/5p2/1p5p/1BpN1P1P/P1P1K1P1/8/2n5 b - - 2 49", "1/2-1/2"},
    {"molinari-bordais-1979.pgn", 0, 10, "r1bqkb1r/pp1ppppp/5n2/2p5/2P1P3/2Nn2P1/PP1PNP1P/R1BQKB1R w KQkq - 1 6",
     "0-1"},
    {"stockfish-learning.pgn", 0, 154, "8/2p2k2/1pR3p1/1P1P4/p1P2P2/P4K2/8/5r2 w - - 7 78", "1-0"},
};

// Final positions of the 4 games of cutechess-fischerrandom.pgn, computed by Stockfish 15.1
// (UCI_Chess960 on, "position fen <FEN tag> moves <UCI moves>", "d"); plies from PlyCount tags.
const char* const kChess960Final0 = "8/p7/P7/7K/4bk2/8/7r/8 w - - 14 61";
const char* const kChess960Final1 = "8/2Q5/2k5/pN3R2/1p6/1PP5/PK6/8 b - - 6 50";
const char* const kChess960Final2 = "1k5r/pr6/8/4qbpK/8/P3bR1P/6P1/8 w - - 1 36";
const char* const kChess960Final3 = "2R3k1/4Q3/7p/8/5Pp1/6P1/7P/7K b - - 2 54";

TEST(Pgn, StandardGamesMatchAnIndependentParser) {
  std::map<std::string, std::vector<PgnGame>> files;
  for (const char* name : {"kasparov-deep-blue-1997.pgn", "matetrack_masters.pgn", "nepomniachtchi-liren-game1.pgn",
                           "molinari-bordais-1979.pgn", "stockfish-learning.pgn"})
    files[name] = readFileGames(name);
  EXPECT_EQ(files["kasparov-deep-blue-1997.pgn"].size(), 6u);
  EXPECT_EQ(files["matetrack_masters.pgn"].size(), 43u);
  EXPECT_EQ(files["nepomniachtchi-liren-game1.pgn"].size(), 1u);
  EXPECT_EQ(files["molinari-bordais-1979.pgn"].size(), 1u);
  EXPECT_EQ(files["stockfish-learning.pgn"].size(), 1u);
  int checked = 0;
  for (const Expected& e : kExpected) {
    const auto& games = files[e.file];
    ASSERT_LT(size_t(e.index), games.size()) << e.file;
    const PgnGame& g = games[size_t(e.index)];
    SCOPED_TRACE(std::string(e.file) + " game " + std::to_string(e.index) + " (line " + std::to_string(g.line) + ")");
    EXPECT_EQ(int(g.moves.size()), e.plies);
    EXPECT_EQ(g.comments.size(), g.moves.size());
    EXPECT_EQ(g.result, e.result);
    EXPECT_FALSE(g.chess960);
    Position pos = finalPosition(g);
    EXPECT_EQ(pos.fen(), e.finalFen);
    // The last SAN says mate exactly when the final position is checkmate.
    auto san = sanMoves(g);
    ASSERT_FALSE(san.empty());
    EXPECT_EQ(san.back().back() == '#', isCheckmate(pos));
    if (!g.tag("PlyCount").empty()) {
      EXPECT_EQ(g.tag("PlyCount"), std::to_string(g.moves.size()));
    }
    ++checked;
  }
  EXPECT_EQ(checked, 52);
  // Spot checks of tags, game lines and results.
  const auto& kasparov = files["kasparov-deep-blue-1997.pgn"];
  EXPECT_EQ(kasparov[0].line, 1);
  EXPECT_EQ(kasparov[1].line, 24);
  EXPECT_EQ(kasparov[0].tag("White"), "Garry Kasparov");
  EXPECT_EQ(kasparov[0].tag("Missing"), "");
  EXPECT_EQ(kasparov[0].tags.front().first, "Event");
  EXPECT_EQ(kasparov[0].tags.size(), 12u);
  const PgnGame& molinari = files["molinari-bordais-1979.pgn"][0];
  EXPECT_TRUE(isCheckmate(finalPosition(molinari)));
  EXPECT_EQ(sanMoves(molinari).back(), "Nd3#");
  const PgnGame& sf = files["stockfish-learning.pgn"][0];
  EXPECT_EQ(sf.comments[0], "book");
  EXPECT_EQ(sf.comments[3], "0.00/31 48s");
  EXPECT_EQ(sf.tag("Termination"), "adjudication");
}

TEST(Pgn, MatetrackEvalCommentsAreKept) {
  auto games = readFileGames("matetrack_masters.pgn");
  ASSERT_EQ(games.size(), 43u);
  const PgnGame& first = games[0];
  EXPECT_EQ(first.tag("White"), "Polgar, Judit");
  EXPECT_EQ(first.comments[0], "[%eval 0.28]");
  EXPECT_EQ(parseEvalComment(first.comments[0])->centipawns, 28);
  EXPECT_EQ(parseEvalComment(first.comments[2])->centipawns, 30);  // "[%eval 0.3]"
  int evals = 0, mates = 0, gamesWithEval = 0;
  for (const PgnGame& g : games) {
    bool any = false;
    EXPECT_TRUE(g.preComment.empty());
    for (const std::string& c : g.comments) {
      if (c.empty()) continue;
      auto e = parseEvalComment(c);
      ASSERT_TRUE(e.has_value()) << c;
      EXPECT_NE(e->centipawns.has_value(), e->mate.has_value());
      ++evals;
      mates += e->mate.has_value();
      any = true;
    }
    gamesWithEval += any;
  }
  // Counted in the file with grep: 3050 "[%eval ...]" comments, 275 of them mate scores.
  EXPECT_EQ(evals, 3050);
  EXPECT_EQ(mates, 275);
  EXPECT_EQ(gamesWithEval, 41);
  // Mate scores are from White's point of view: where the last comment is a mate score, its sign
  // agrees with the result (e.g. game 2 ends "44... Kf8 { [%eval #-1] } 0-1").
  EXPECT_EQ(parseEvalComment(games[2].comments.back())->mate, -1);
  int decided = 0;
  for (const PgnGame& g : games) {
    if (g.comments.empty() || g.comments.back().empty()) continue;
    auto e = parseEvalComment(g.comments.back());
    if (!e || !e->mate) continue;
    EXPECT_EQ(*e->mate > 0 ? "1-0" : "0-1", g.result) << "line " << g.line;
    ++decided;
  }
  EXPECT_EQ(decided, 32);
}

TEST(Pgn, FischerRandomGames) {
  auto games = readFileGames("cutechess-fischerrandom.pgn");
  ASSERT_EQ(games.size(), 4u);
  const char* kFinal[] = {kChess960Final0, kChess960Final1, kChess960Final2, kChess960Final3};
  const char* kResults[] = {"0-1", "1-0", "0-1", "1-0"};
  int castlings = 0;
  for (size_t i = 0; i < games.size(); ++i) {
    const PgnGame& g = games[i];
    SCOPED_TRACE("game " + std::to_string(i));
    EXPECT_TRUE(g.chess960);
    EXPECT_FALSE(g.startFen.empty());
    EXPECT_EQ(g.tag("PlyCount"), std::to_string(g.moves.size()));
    EXPECT_EQ(g.result, kResults[i]);
    Position pos = finalPosition(g);
    EXPECT_TRUE(pos.isChess960());
    EXPECT_EQ(pos.fen(), kFinal[i]);
    for (Move m : g.moves) castlings += m.isCastling();
  }
  EXPECT_GE(castlings, 4);
  // Game 0: "9... O-O" and "21. O-O-O" with the king on e1/e8 and rooks on d and g files.
  EXPECT_EQ(games[0].startFen, "nbbrknrq/pppppppp/8/8/8/8/PPPPPPPP/NBBRKNRQ w KQkq - 0 1");
  EXPECT_EQ(games[0].moves[17], Move(kE8, kG8, Move::kCastling));
  EXPECT_EQ(games[0].moves[40], Move(kE1, kD1, Move::kCastling));
  EXPECT_EQ(sanMoves(games[3]).back(), "Rc8#");
  EXPECT_TRUE(isCheckmate(finalPosition(games[3])));
  EXPECT_EQ(games[3].comments.back(), "+M1/127 0.002s, White mates");
}

TEST(Pgn, UnsupportedGamesAreSkippedAndReadingContinues) {
  std::vector<std::string> parts = {"kasparov-deep-blue-1997.pgn", "knightvuillaume-jannlee-zh-lichess.pgn",
                                    "molinari-bordais-1979.pgn", "anastasian-lewis.pgn",
                                    "nepomniachtchi-liren-game1.pgn"};
  std::string text;
  std::vector<int> firstLine;
  for (const auto& p : parts) {
    firstLine.push_back(countLines(text) + 1);
    text += readFile(kPgnDir + p) + "\n";
  }
  std::vector<PgnError> errors;
  auto games = readAll(text, &errors, "concat.pgn");
  ASSERT_EQ(games.size(), 8u);
  EXPECT_EQ(games[6].tag("White"), "Molinari");
  EXPECT_EQ(games[6].line, firstLine[2]);
  EXPECT_EQ(games[7].tag("Event"), "FIDE World Championship 2023");
  EXPECT_EQ(games[7].moves.size(), 97u);
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(errors[0].source, "concat.pgn");
  EXPECT_EQ(errors[0].line, firstLine[1] + 9);  // [Variant "Crazyhouse"] is line 10 of its file
  EXPECT_NE(errors[0].message.find("unsupported variant 'Crazyhouse'"), std::string::npos) << errors[0].message;
  EXPECT_EQ(errors[1].line, firstLine[3] + 19);  // "41. Bxf3 Z0" is on line 20
  EXPECT_NE(errors[1].message.find("move 41... 'Z0': null moves are not supported"), std::string::npos)
      << errors[1].message;

  // The crazyhouse game also fails without its Variant tag, on the first drop.
  std::string zh = readFile(kPgnDir + "knightvuillaume-jannlee-zh-lichess.pgn");
  zh.replace(zh.find("[Variant \"Crazyhouse\"]"), 22, "[Variant \"Standard\"]");
  readAll(zh, &errors);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].line, 17);
  EXPECT_NE(errors[0].message.find("piece drops are not standard chess"), std::string::npos) << errors[0].message;
}

std::string tempPath(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("janus_pgn_" + std::to_string(::getpid()) + "_" + name)).string();
}

void expectSameGames(const std::vector<PgnGame>& a, const std::vector<PgnGame>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].tags, b[i].tags);
    EXPECT_EQ(a[i].moves, b[i].moves);
    EXPECT_EQ(a[i].comments, b[i].comments);
    EXPECT_EQ(a[i].result, b[i].result);
    EXPECT_EQ(a[i].line, b[i].line);
  }
}

TEST(Pgn, ZstdCompressedFilesReadIdentically) {
  std::string text = readFile(kPgnDir + "matetrack_masters.pgn");
  std::string path = tempPath("matetrack.pgn.zst");
  {
    OutputFile out(path, true, 19);
    out << text;
    out.commit();
    EXPECT_LT(out.bytesWritten(), text.size() / 3);
  }
  EXPECT_TRUE(isZstdFile(path));
  auto reader = PgnReader::open(path);
  std::vector<PgnGame> games;
  PgnGame g;
  while (reader->next(g)) games.push_back(g);
  EXPECT_EQ(reader->bytesRead(), text.size());
  expectSameGames(games, readFileGames("matetrack_masters.pgn"));

  // A damaged compressed file is a stream error naming the file, not a short read.
  std::string raw = readFile(path);
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(raw.data(), std::streamsize(raw.size() / 2));
  }
  reader = PgnReader::open(path);
  try {
    while (reader->next(g)) {
    }
    ADD_FAILURE() << "no error for a truncated .pgn.zst";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  }
  std::filesystem::remove(path);
  EXPECT_THROW(PgnReader::open(path), Error);
}

TEST(Pgn, MalformedGamesAreSkippedWithLineNumbers) {
  const std::string text =
      "[Event \"good 1\"]\n"                          // 1
      "\n"                                             // 2
      "1. e4 e5 2. Nf3 *\n"                            // 3
      "\n"                                             // 4
      "[Event \"illegal move\"]\n"                     // 5
      "\n"                                             // 6
      "1. e4 e5\n"                                     // 7
      "2. Ke3 Nc6 *\n"                                 // 8
      "\n"                                             // 9
      "[Event \"good 2\"]\n"                           // 10
      "\n"                                             // 11
      "1. d4 1-0\n"                                    // 12
      "\n"                                             // 13
      "[Event \"bad tag\"]\n"                          // 14
      "[White Kasparov]\n"                             // 15
      "[Black \"x\"]\n"                                // 16
      "\n"                                             // 17
      "1. c4 *\n"                                      // 18
      "\n"                                             // 19
      "[Event \"good 3\"]\n"                           // 20
      "\n"                                             // 21
      "1. c4 {a comment\n"                             // 22
      "over two lines} c5 0-1\n"                       // 23
      "\n"                                             // 24
      "[Event \"unterminated comment\"]\n"             // 25
      "\n"                                             // 26
      "1. e4 {never closed 1-0\n"                      // 27
      "\n"                                             // 28
      "[Event \"good 4\"]\n"                           // 29
      "\n"                                             // 30
      "1. Nf3 (1. e4 (1. d4) e5) Nf6 (1... d5 {a (nested) comment} 2. c4) 1/2-1/2\n"  // 31
      "\n"                                             // 32
      "[Event \"bad FEN\"]\n"                          // 33
      "[SetUp \"1\"]\n"                                // 34
      "[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n"          // 35
      "\n"                                             // 36
      "1. e4 *\n"                                      // 37
      "\n"                                             // 38
      "[Event \"good 5\"]\n"                           // 39
      "\n"                                             // 40
      "1. e4 *\n"                                      // 41
      "\n"                                             // 42
      "[Event \"variation never closed\"]\n"           // 43
      "\n"                                             // 44
      "1. e4 (1. d4 d5 2. c4\n"                        // 45
      "e5 *\n"                                         // 46
      "\n"                                             // 47
      "[Event \"good 6\"]\n"                           // 48
      "\n"                                             // 49
      "1. e4 *\n"                                      // 50
      "\n"                                             // 51
      "[Event \"unmatched paren\"]\n"                  // 52
      "\n"                                             // 53
      "1. e4 e5) 2. Nf3 *\n"                           // 54
      "\n"                                             // 55
      "[Event \"garbage\"]\n"                          // 56
      "\n"                                             // 57
      "1. e4 hello world *\n"                          // 58
      "[Event \"good 7\"]\n"                           // 59
      "1. e4 *\n"                                      // 60
      "[Event \"unterminated tag value\"]\n"           // 61
      "[Site \"nowhere]\n"                             // 62
      "\n"                                             // 63
      "1. e4 *\n"                                      // 64
      "\n"                                             // 65
      "[Event \"good 8\"]\n"                           // 66
      "\n"                                             // 67
      "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O *\n";  // 68
  std::vector<PgnError> errors;
  auto games = readAll(text, &errors, "snippets.pgn");
  std::vector<std::string> events;
  for (const auto& g : games) events.push_back(g.tag("Event"));
  EXPECT_EQ(events, (std::vector<std::string>{"good 1", "good 2", "good 3", "good 4", "good 5", "good 6", "good 7",
                                              "good 8"}));
  std::vector<std::pair<int, std::string>> expected = {
      {8, "move 2. 'Ke3': no legal move matches"},
      {15, "value of tag 'White' is not a quoted string"},
      {27, "unterminated comment (no '}' before the next game at line 29)"},
      {35, "bad FEN tag '8/8/8/8/8/8/8/8 w - - 0 1'"},
      {45, "unterminated variation (no ')' before the next game at line 48)"},
      {54, "')' without an open variation"},
      {58, "move 1... 'hello': "},
      {62, "unterminated tag value"},
  };
  ASSERT_EQ(errors.size(), expected.size());
  for (size_t i = 0; i < errors.size(); ++i) {
    EXPECT_EQ(errors[i].source, "snippets.pgn");
    EXPECT_EQ(errors[i].line, expected[i].first) << errors[i].message;
    EXPECT_NE(errors[i].message.find(expected[i].second), std::string::npos) << errors[i].message;
  }
  // The good games are complete.
  EXPECT_EQ(games[0].moves.size(), 3u);
  EXPECT_EQ(games[0].line, 1);
  EXPECT_EQ(games[1].result, "1-0");
  EXPECT_EQ(games[2].comments[0], "a comment over two lines");
  EXPECT_EQ(games[2].result, "0-1");
  EXPECT_EQ(games[3].moves.size(), 2u);  // Nf3 Nf6, variations skipped
  EXPECT_TRUE(games[3].comments[1].empty());
  EXPECT_EQ(games[3].result, "1/2-1/2");
  EXPECT_EQ(games[6].line, 59);
  EXPECT_EQ(games[7].moves.size(), 16u);
}

TEST(Pgn, UnterminatedConstructsAtEndOfInput) {
  std::vector<PgnError> errors;
  EXPECT_TRUE(readAll("[Event \"a\"]\n\n1. e4 {never closed\nstill open\n", &errors).empty());
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].line, 3);
  EXPECT_EQ(errors[0].message, "unterminated comment (no '}' before the end of the input)");
  EXPECT_TRUE(readAll("1. e4 e5\n2. Nf3 (2. d4 exd4", &errors).empty());
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].line, 2);
  EXPECT_EQ(errors[0].message, "unterminated variation (no ')' before the end of the input)");
  EXPECT_TRUE(readAll("[Event \"a\"]\n[Site \"b\"", &errors).empty());
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].line, 2);
  // Stray brackets in movetext (a ']' once made the tokenizer loop forever).
  auto games = readAll("1. e4 ] e5 *\n\n[Event \"next\"]\n\n1. d4 [ *\n\n[Event \"last\"]\n\n1. c4 *\n", &errors);
  ASSERT_EQ(games.size(), 1u);
  EXPECT_EQ(games[0].tag("Event"), "last");
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(errors[0].message, "unexpected ']' in movetext: '] e5 *'");
  EXPECT_EQ(errors[1].line, 5);
  EXPECT_TRUE(readAll("", &errors).empty());
  EXPECT_TRUE(readAll("\n\n  \n", &errors).empty());
  EXPECT_TRUE(errors.empty());
}

TEST(Pgn, ImportFormatVariety) {
  const std::string text =
      "\xEF\xBB\xBF[Event \"CRLF, BOM \\\"escapes\\\" \\\\ and more\"]\r\n"
      "[Site \"The \"Big\" Open\"]\r\n"
      "[Result \"1-0\"]\r\n"
      "\r\n"
      "{Opening remark} 1.e4! e5?! 2.Nf3 $1 Nc6 $2 3.Bb5 !? a6 ; rest-of-line comment\r\n"
      "% an escaped line 4. d4\r\n"
      "4.Ba4 {first} {second} Nf6 5.0-0 e.p. Be7 6... \r\n"
      "; another\r\n"
      "\r\n"
      "[Event \"no termination marker\"]\n"
      "[Result \"0-1\"]\n"
      "\n"
      "1. f3 e5 2. g4 Qh4#\n"
      "[Event \"black starts\"]\n"
      "[FEN \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1\"]\n"
      "\n"
      "1... c5 2. Nf3 ½-½\n"
      "\n"
      "1. d4 d5 *\n"
      "\n"
      "[Event \"tags only\"]\n"
      "[Result \"1/2-1/2\"]\n"
      "\n"
      "[Event \"after\"]\n"
      "\n"
      "1. e4";
  std::vector<PgnError> errors;
  auto games = readAll(text, &errors);
  for (const auto& e : errors) ADD_FAILURE() << e.line << ": " << e.message;
  ASSERT_EQ(games.size(), 6u);
  const PgnGame& g = games[0];
  EXPECT_EQ(g.tags[0], (std::pair<std::string, std::string>{"Event", "CRLF, BOM \"escapes\" \\ and more"}));
  EXPECT_EQ(g.tag("Site"), "The \"Big\" Open");
  EXPECT_EQ(g.preComment, "Opening remark");
  ASSERT_EQ(g.moves.size(), 10u);
  EXPECT_EQ(g.comments[5], "rest-of-line comment");
  EXPECT_EQ(g.comments[6], "first second");
  EXPECT_TRUE(g.moves[8].isCastling());
  EXPECT_EQ(g.comments[9], "another");
  EXPECT_EQ(g.result, "1-0");  // from the tag: no termination marker before the next game

  EXPECT_EQ(games[1].result, "0-1");
  EXPECT_TRUE(isCheckmate(finalPosition(games[1])));
  EXPECT_EQ(games[1].line, 10);
  EXPECT_EQ(games[2].moves.size(), 2u);
  EXPECT_EQ(games[2].result, "1/2-1/2");
  EXPECT_EQ(games[2].startPosition().sideToMove(), kBlack);
  EXPECT_TRUE(games[3].tags.empty());  // movetext only
  EXPECT_EQ(games[3].moves.size(), 2u);
  EXPECT_EQ(games[4].tag("Event"), "tags only");
  EXPECT_TRUE(games[4].moves.empty());
  EXPECT_EQ(games[4].result, "1/2-1/2");
  EXPECT_EQ(games[5].moves.size(), 1u);  // last line without newline or result
  EXPECT_EQ(games[5].result, "*");
}

TEST(Pgn, OverlongLineIsAnErrorAndReadingGoesOn) {
  std::string text = "[Event \"long\"]\n\n1. e4 {" + std::string(PgnReader::kMaxLineLength + 100, 'x') +
                     "} e5 *\n\n[Event \"next\"]\n\n1. d4 *\n";
  std::vector<PgnError> errors;
  auto games = readAll(text, &errors);
  ASSERT_EQ(games.size(), 1u);
  EXPECT_EQ(games[0].tag("Event"), "next");
  EXPECT_EQ(games[0].line, 5);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].line, 3);
  EXPECT_NE(errors[0].message.find("line longer than"), std::string::npos);
}

}  // namespace
}  // namespace janus
