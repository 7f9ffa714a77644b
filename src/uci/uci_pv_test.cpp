// What a GUI or match runner checks in the info lines of every search (fastchess does, with
// warnings such as "Bestmove does not match beginning of last PV" and "PV continues after
// checkmate"): the last "info ... pv" line before "bestmove" begins with the move played, and
// every PV is a legal move sequence from the searched position that stops at a checkmate or
// stalemate. Many short searches (time and node limits that stop inside an iteration, MultiPV,
// a playing level, MCTS) of tactical and mating positions through the UCI adapter.

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "core/movegen.h"
#include "core/notation.h"
#include "uci/uci.h"
#include "util/error.h"

namespace janus {
namespace {

/// The FEN of the first `count` records of an EPD file of tests/data, taking every
/// `stride`-th one (a test failure if the file is missing).
std::vector<std::string> epdFens(const std::string& relPath, int count, int stride) {
  std::vector<std::string> fens;
  std::ifstream in(std::string(JANUS_TEST_DATA) + "/" + relPath);
  EXPECT_TRUE(in) << "cannot open " << JANUS_TEST_DATA << "/" << relPath;
  int index = 0;
  for (std::string line; std::getline(in, line) && int(fens.size()) < count; ++index) {
    if (index % stride != 0) continue;
    std::istringstream fields(line);
    std::string board, side, castling, ep;
    if (fields >> board >> side >> castling >> ep) fens.push_back(board + " " + side + " " + castling + " " + ep + " 0 1");
  }
  return fens;
}

/// The positions: the start position, two mates in one, a mate in two and a checkmated side
/// (written here, so the test never runs empty), plus WAC tactics and mates in two from
/// tests/data.
std::vector<std::string> testPositions() {
  std::vector<std::string> fens = {
      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
      "6k1/4Rppp/8/8/8/8/5PPP/6K1 w - - 0 1",                              // Re8#
      "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",  // Qxf7#
      "6k1/5ppp/8/8/8/8/r4PPP/1r4K1 w - - 0 1",                             // checkmated: bestmove (none)
      "2brrb2/8/p7/7Q/1p1kpPp1/1P1pN1K1/3P4/8 w - - 0 1",                   // mate in two
  };
  for (const auto& f : epdFens("tactics/wac.epd", 6, 37)) fens.push_back(f);
  for (const auto& f : epdFens("mates/mate-in-2-first100.epd", 2, 50)) fens.push_back(f);
  return fens;
}

/// Checks one search's output (the lines from "position" to "bestmove"). Returns the defects
/// found, one per line, or "" if there is none.
std::string checkSearchOutput(const std::string& fen, const std::string& output) {
  std::ostringstream defects;
  const Position root = Position::fromFen(fen);
  std::istringstream lines(output);
  std::vector<std::string> lastPv;
  bool sawBestMove = false;
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string first;
    words >> first;
    if (first == "bestmove") {
      std::string best;
      words >> best;
      sawBestMove = true;
      if (best == "(none)") {
        if (hasLegalMove(root)) defects << "bestmove (none) with legal moves\n";
        break;
      }
      if (lastPv.empty())
        defects << "bestmove " << best << " without an info line with a pv before it\n";
      else if (lastPv.front() != best)
        defects << "bestmove " << best << " does not begin the last pv (" << lastPv.front() << ")\n";
      break;
    }
    if (first != "info" || line.rfind("info string", 0) == 0) continue;
    size_t at = line.find(" pv ");
    if (at == std::string::npos) continue;
    std::istringstream pvWords(line.substr(at + 4));
    std::vector<std::string> pv;
    Position pos = root;
    for (std::string m; pvWords >> m;) {
      pv.push_back(m);
      if (!hasLegalMove(pos)) {
        defects << "pv continues after " << (pos.inCheck() ? "checkmate" : "stalemate") << " with " << m << ": " << line
                << '\n';
        break;
      }
      try {
        pos.makeMove(parseUci(pos, m, false));
      } catch (const Error& e) {
        defects << "illegal pv move " << m << " (" << e.what() << "): " << line << '\n';
        break;
      }
    }
    lastPv = pv;
  }
  if (!sawBestMove) defects << "no bestmove\n";
  return defects.str();
}

/// Runs `goCommands` on every test position through one engine configured by `setup` (UCI
/// setoption lines) and checks each search's output. Returns the number of searches run.
int runAndCheck(const std::vector<std::string>& setup, const std::vector<std::string>& goCommands) {
  Engine engine;
  engine.seedLevels(7);
  std::ostringstream out;
  UciProtocol uci(engine, out);
  for (const std::string& s : setup) uci.handle(s);
  EXPECT_EQ(out.str().find("error"), std::string::npos) << out.str();
  int searches = 0;
  for (const std::string& fen : testPositions()) {
    uci.handle("ucinewgame");
    for (const std::string& go : goCommands) {
      out.str("");
      uci.handle("position fen " + fen);
      uci.handle(go);
      engine.wait();
      ++searches;
      const std::string text = out.str();
      EXPECT_EQ(checkSearchOutput(fen, text), "") << "position fen " << fen << "\n" << go << "\n" << text;
    }
  }
  return searches;
}

/// Time limits from 5 to 100 ms and node limits that stop the search inside an iteration.
const std::vector<std::string> kShortSearches = {"go movetime 5",  "go nodes 700",  "go movetime 25",
                                                 "go nodes 4000", "go movetime 100", "go nodes 15000"};

TEST(UciPv, AlphaBetaBestMoveBeginsTheLastPvAndPvsAreLegal) {
  EXPECT_GT(runAndCheck({}, kShortSearches), 0);
}

TEST(UciPv, AlphaBetaMultiPv) {
  EXPECT_GT(runAndCheck({"setoption name MultiPV value 3"}, {"go movetime 10", "go nodes 3000", "go movetime 40"}), 0);
}

TEST(UciPv, PlayingLevelsShowTheChosenLine) {
  // Below 1600 Elo a level samples among four lines: the move played is often not line 1's.
  EXPECT_GT(runAndCheck({"setoption name UCI_LimitStrength value true", "setoption name UCI_Elo value 1100"},
                        {"go movetime 30", "go nodes 2000"}),
            0);
  EXPECT_GT(runAndCheck({"setoption name Skill Level value 12"}, {"go movetime 30"}), 0);
}

TEST(UciPv, MctsBestMoveBeginsTheLastPvAndPvsAreLegal) {
  EXPECT_GT(runAndCheck({"setoption name Search value mcts"}, {"go movetime 20", "go nodes 60", "go movetime 60"}), 0);
  EXPECT_GT(runAndCheck({"setoption name Search value mcts", "setoption name MultiPV value 3"}, {"go nodes 200"}), 0);
}

TEST(UciPv, CheckerFindsDefects) {
  const std::string fen = "6k1/4Rppp/8/8/8/8/5PPP/6K1 w - - 0 1";
  EXPECT_EQ(checkSearchOutput(fen, "info depth 1 score mate 1 pv e7e8\nbestmove e7e8\n"), "");
  EXPECT_NE(checkSearchOutput(fen, "info depth 1 score mate 1 pv e7e8 g8h7\nbestmove e7e8\n"), "");  // after mate
  EXPECT_NE(checkSearchOutput(fen, "info depth 1 score cp 0 pv e7e9\nbestmove e7e8\n"), "");           // illegal
  EXPECT_NE(checkSearchOutput(fen, "info depth 1 score cp 0 pv e7e6\nbestmove e7e8\n"), "");  // not the move
  EXPECT_NE(checkSearchOutput(fen, "bestmove e7e8\n"), "");                                   // no info line
  EXPECT_NE(checkSearchOutput(fen, "info depth 1 score mate 1 pv e7e8\n"), "");               // no bestmove
}

}  // namespace
}  // namespace janus
