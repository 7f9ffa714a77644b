#include "uci/uci.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include <unistd.h>

#include "core/notation.h"
#include "search/wdl.h"

namespace janus {
namespace {

/// Runs a UCI script through the protocol and returns everything it printed. Like a GUI, it
/// waits for the bestmove of a finite "go" before sending the next command.
std::string runScript(const std::string& script) {
  Engine engine;
  std::ostringstream out;
  UciProtocol uci(engine, out);
  std::istringstream in(script);
  for (std::string line; std::getline(in, line);) {
    if (!uci.handle(line)) break;
    if (line.rfind("go", 0) == 0 && line.find("infinite") == std::string::npos) engine.wait();
  }
  engine.stop();
  engine.wait();
  return out.str();
}

bool contains(const std::string& s, const std::string& what) { return s.find(what) != std::string::npos; }

TEST(Uci, SyzygyOptionsAndABadPath) {
  std::string out = runScript("uci\nsetoption name SyzygyPath value /nonexistent/tb\nisready\n");
  EXPECT_TRUE(contains(out, "option name SyzygyPath type string default <empty>\n")) << out;
  EXPECT_TRUE(contains(out, "option name SyzygyProbeDepth type spin default 1 min 1 max 100"));
  EXPECT_TRUE(contains(out, "option name Syzygy50MoveRule type check default true"));
  EXPECT_TRUE(contains(out, "option name SyzygyProbeLimit type spin default 7 min 0 max 7"));
  EXPECT_TRUE(contains(out, "info string error: option SyzygyPath: Syzygy tablebases: '/nonexistent/tb' is not a "
                            "directory (it does not exist)\nreadyok"))
      << out;
}

TEST(Uci, SyzygyTablesReportTbHitsAndCorruptFiles) {
  const std::string tables = std::string(JANUS_TEST_DATA) + "/syzygy";
  ASSERT_TRUE(std::filesystem::exists(tables + "/KQvK.rtbw")) << "Syzygy test tables missing: " << tables;
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("janus-uci-syzygy-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  for (const char* name : {"KRvKB.rtbw", "KRvKB.rtbz", "KRvK.rtbw", "KRvK.rtbz", "KBvK.rtbw", "KBvK.rtbz", "KQvK.rtbw"})
    std::filesystem::copy_file(tables + "/" + name, dir / name, std::filesystem::copy_options::overwrite_existing);
  std::filesystem::permissions(dir / "KQvK.rtbw", std::filesystem::perms::owner_write, std::filesystem::perm_options::add);
  std::filesystem::resize_file(dir / "KQvK.rtbw", 100);
  const std::string out = runScript("setoption name SyzygyPath value " + dir.string() +
                                    "\nposition fen 1k6/8/K7/7b/8/8/8/5R2 w - - 0 1\ngo depth 6\n"
                                    "setoption name SyzygyPath value <empty>\n");
  std::filesystem::remove_all(dir);
  EXPECT_TRUE(contains(out, "info string error: option SyzygyPath: " + (dir / "KQvK.rtbw").string() +
                                ": truncated or corrupt: 100 bytes")) << out;
  EXPECT_TRUE(contains(out, "info string Syzygy tablebases: 3 WDL and 3 DTZ files, up to 4 pieces")) << out;
  EXPECT_TRUE(contains(out, "bestmove f1c1")) << out;
  const size_t last = out.rfind("info depth 6 ");
  ASSERT_NE(last, std::string::npos) << out;
  EXPECT_EQ(out.find(" tbhits 0 ", last), std::string::npos) << out;  // the root probe alone makes 17
}

TEST(Uci, HandshakeListsOptions) {
  std::string out = runScript("uci\nisready\nquit\n");
  EXPECT_TRUE(contains(out, "id name Janus"));
  EXPECT_TRUE(contains(out, "option name Hash type spin default 16 min 1 max 65536"));
  EXPECT_TRUE(contains(out, "option name Ponder type check default false"));
  EXPECT_TRUE(contains(out, "option name Clear Hash type button"));
  EXPECT_TRUE(contains(out, "option name UCI_Chess960 type check default false"));
  EXPECT_TRUE(contains(out, "uciok"));
  EXPECT_TRUE(contains(out, "readyok"));
}

TEST(Uci, GoDepthPrintsInfoAndBestmove) {
  std::string out = runScript("position startpos moves e2e4 e7e5\ngo depth 5\nisready\n");
  EXPECT_TRUE(contains(out, "info depth 5 seldepth"));
  EXPECT_TRUE(contains(out, " score cp "));
  EXPECT_TRUE(contains(out, " pv "));
  EXPECT_TRUE(contains(out, "bestmove "));
}

TEST(Uci, MateScoresAreInMoves) {
  std::string out = runScript("position fen 6k1/4Rppp/8/8/8/8/5PPP/6K1 w - - 0 1\ngo depth 4\n");
  EXPECT_TRUE(contains(out, "score mate 1")) << out;
  EXPECT_TRUE(contains(out, "bestmove e7e8"));
}

TEST(Uci, ShowWdlAddsWinDrawLossPerMille) {
  std::string plain = runScript("position startpos\ngo depth 4\n");
  EXPECT_FALSE(contains(plain, " wdl ")) << "off by default";
  std::string out = runScript("uci\nsetoption name UCI_ShowWDL value true\nposition startpos\ngo depth 4\n");
  EXPECT_TRUE(contains(out, "option name UCI_ShowWDL type check default false"));
  std::istringstream lines(out);
  int infos = 0;
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("info depth", 0) != 0) continue;
    ++infos;
    size_t at = line.find(" wdl ");
    ASSERT_NE(at, std::string::npos) << line;
    std::istringstream w(line.substr(at + 5));
    int win = -1, draw = -1, loss = -1;
    w >> win >> draw >> loss;
    EXPECT_EQ(win + draw + loss, 1000) << line;
    // The line's WDL is the score model's (search/wdl.h, tested in wdl_test.cpp) for its score at
    // the start position's material.
    const size_t cp = line.find(" score cp ");
    ASSERT_NE(cp, std::string::npos) << line;
    const WdlPermille model = scoreToWdl(std::stoi(line.substr(cp + 10)), wdlMaterial(Position::fromFen(Position::kStartFen)));
    EXPECT_EQ(win, model.win) << line;
    EXPECT_EQ(draw, model.draw) << line;
    EXPECT_EQ(loss, model.loss) << line;
  }
  EXPECT_GT(infos, 0);
  std::string mate = runScript("setoption name UCI_ShowWDL value true\nposition fen 6k1/4Rppp/8/8/8/8/5PPP/6K1 w - - 0 1\ngo depth 4\n");
  EXPECT_TRUE(contains(mate, "score mate 1 wdl 1000 0 0")) << mate;
}

TEST(Uci, MalformedInputGivesErrorsAndKeepsState) {
  std::string out = runScript(
      "position startpos moves e2e4\n"
      "position startpos moves e2e4 e2e4\n"      // illegal second move
      "position fen 8/8/8/8/8/2R5/1R6/6k1 w - - 0 1\n"  // no white king
      "position sideways\n"
      "setoption name Hash value 0\n"
      "setoption name Nonsense value 1\n"
      "setoption value 3\n"
      "go depth x\n"
      "go wtime\n"
      "go flying\n"
      "xyzzy\n"
      "d\n");
  EXPECT_TRUE(contains(out, "info string error: move 2 of the position command: illegal move 'e2e4'"));
  EXPECT_TRUE(contains(out, "info string error: FEN field 1 (placement): White has no king"));
  EXPECT_TRUE(contains(out, "info string error: position: expected 'startpos' or 'fen <FEN>'"));
  EXPECT_TRUE(contains(out, "info string error: option Hash: 0 is out of range 1..65536"));
  EXPECT_TRUE(contains(out, "info string error: unknown option 'Nonsense'"));
  EXPECT_TRUE(contains(out, "info string error: setoption: expected 'name <id> [value <x>]'"));
  EXPECT_TRUE(contains(out, "info string error: go depth: 'x' is not an integer"));
  EXPECT_TRUE(contains(out, "info string error: go wtime: missing value"));
  EXPECT_TRUE(contains(out, "info string error: go: unknown parameter 'flying'"));
  EXPECT_TRUE(contains(out, "info string error: unknown command 'xyzzy'"));
  // The position after the first command survived every bad one.
  EXPECT_TRUE(contains(out, "Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"));
}

// Malformed-input catalogue (docs/malformed-input.md): more bad commands, each answered with one
// "info string error" line while the engine keeps its state.
TEST(Uci, MoreMalformedCommands) {
  std::string out = runScript(
      "position startpos moves e2e4\n"
      "position fen\n"
      "position startpos e2e4\n"
      "position fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1 moves e1e3\n"
      "go wtime 99999999999999999999\n"
      "go perft 21\n"
      "go depth 0\n"
      "go searchmoves e2e4\n"
      "setoption name MultiPV value many\n"
      "setoption name Ponder value maybe\n"
      "setoption name\n"
      "setoption name Threads value -1\n"
      "d\n");
  EXPECT_TRUE(contains(out, "info string error: position fen: missing FEN")) << out;
  EXPECT_TRUE(contains(out, "info string error: position: expected 'moves', got 'e2e4'"));
  EXPECT_TRUE(contains(out, "info string error: move 1 of the position command: illegal move 'e1e3'"));
  EXPECT_TRUE(contains(out, "info string error: go wtime: '99999999999999999999' is not an integer"));
  EXPECT_TRUE(contains(out, "info string error: go perft: 21 is out of range 0..20"));
  EXPECT_TRUE(contains(out, "info string error: go depth: 0 is out of range"));
  EXPECT_TRUE(contains(out, "info string error: illegal move 'e2e4'"));
  EXPECT_TRUE(contains(out, "info string error: option MultiPV: 'many' is not an integer"));
  EXPECT_TRUE(contains(out, "info string error: option Ponder: 'maybe' is not true or false"));
  EXPECT_TRUE(contains(out, "info string error: setoption: missing option name"));
  EXPECT_TRUE(contains(out, "info string error: option Threads: -1 is out of range"));
  EXPECT_FALSE(contains(out, "bestmove")) << "no rejected go may start a search";
  EXPECT_TRUE(contains(out, "Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"));
}

// Regression: -1 is SearchLimits' "no clock", so "go wtime -1 btime -1" (a flagged clock) searched
// until stop. A negative clock now means "move at once".
TEST(Uci, NegativeClockMovesAtOnce) {
  std::string out = runScript("position startpos\ngo wtime -1 btime -1\ngo wtime -5000 btime 1000 movestogo 1\n");
  size_t first = out.find("bestmove ");
  ASSERT_NE(first, std::string::npos) << out;
  EXPECT_NE(out.find("bestmove ", first + 1), std::string::npos) << out;
}

TEST(Uci, CrLfEmptyLinesAndBinaryJunk) {
  std::string out = runScript(std::string("\r\n   \t \nisready\r\nposition startpos moves e2e4\r\n") +
                              std::string("\x00\x01\xfe\xff\n", 5) + "\x1b[2J\nd\r\n");
  EXPECT_TRUE(contains(out, "readyok\n")) << out;
  EXPECT_TRUE(contains(out, "Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")) << out;
  EXPECT_TRUE(contains(out, "info string error: unknown command"));
  // Empty and blank lines get no answer at all.
  EXPECT_EQ(runScript("\n\r\n \t\n"), "");
}

TEST(Uci, CommandsDuringASearch) {
  Engine engine;
  std::ostringstream out;
  UciProtocol uci(engine, out);
  uci.handle("go infinite");
  uci.handle("go depth 1");
  uci.handle("setoption name Hash value 8");
  uci.handle("position startpos moves e2e4");  // allowed: the search has its own copy
  uci.handle("isready");
  uci.handle("stop");
  engine.wait();
  std::string s = out.str();
  EXPECT_TRUE(contains(s, "info string error: a search is already running (send stop first)")) << s;
  EXPECT_TRUE(contains(s, "info string error: cannot set option 'Hash' while searching"));
  EXPECT_TRUE(contains(s, "readyok"));
  EXPECT_TRUE(contains(s, "bestmove "));
  EXPECT_EQ(engine.options().integer("Hash"), 16);
  EXPECT_EQ(engine.position().sideToMove(), kBlack);
}

TEST(Uci, SetOptionWithSpacesInNameAndValue) {
  std::string out = runScript("setoption name Move Overhead value 50\nsetoption name Clear Hash\nisready\n");
  EXPECT_FALSE(contains(out, "error")) << out;
}

TEST(Uci, Chess960CastlingNotation) {
  // King b1, rooks a1/h1: castling queen side is b1a1 in Chess960 notation.
  std::string out = runScript(
      "setoption name UCI_Chess960 value true\n"
      "position fen 1k6/8/8/8/8/8/8/RK5R w HA - 0 1 moves b1a1\nd\n");
  EXPECT_TRUE(contains(out, "Fen: 1k6/8/8/8/8/8/8/2KR3R b - - 1 1")) << out;
  std::string std = runScript("position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1\nd\n");
  EXPECT_TRUE(contains(std, "RNBQ1RK1 b kq")) << std;
}

TEST(Uci, SearchMovesAndMultiPv) {
  std::string out = runScript("setoption name MultiPV value 2\nposition startpos\ngo depth 4 searchmoves a2a3 b2b3\n");
  EXPECT_TRUE(contains(out, "multipv 2"));
  EXPECT_TRUE(contains(out, "bestmove a2a3") || contains(out, "bestmove b2b3"));
}

TEST(Uci, GoPerft) {
  std::string out = runScript("position startpos\ngo perft 3\n");
  EXPECT_TRUE(contains(out, "Nodes searched: 8902"));
}

TEST(Uci, StopAndQuitEndAnInfiniteSearch) {
  std::string out = runScript("position startpos\ngo infinite\nisready\nstop\n");
  EXPECT_TRUE(contains(out, "bestmove "));
  // End of input behaves like quit: the search is stopped and loop() returns.
  Engine engine;
  std::ostringstream o;
  UciProtocol uci(engine, o);
  std::istringstream in("go infinite\n");
  uci.loop(in);
  EXPECT_FALSE(engine.searching());
  EXPECT_TRUE(contains(o.str(), "bestmove "));
}

TEST(Uci, FormatInfoBounds) {
  SearchInfo i;
  i.depth = 3;
  i.selDepth = 5;
  i.score = 25;
  i.bound = Bound::kLower;
  i.nodes = 100;
  i.pv = {Move(kE2, kE4)};
  EXPECT_EQ(UciProtocol::formatInfo(i, false),
            "info depth 3 seldepth 5 multipv 1 score cp 25 lowerbound nodes 100 nps 0 hashfull 0 tbhits 0 time 0 pv e2e4");
  i.score = matedIn(4);
  i.bound = Bound::kUpper;
  EXPECT_NE(UciProtocol::formatInfo(i, false).find("score mate -2 upperbound"), std::string::npos);
}

TEST(Uci, TuningOptionsAreListedOnlyWhenAskedButSettableAlways) {
  for (const bool showHidden : {false, true}) {
    Engine engine;
    std::ostringstream out;
    UciProtocol uci(engine, out, showHidden);
    for (const char* line : {"uci", "setoption name MCTS CPuct value 2.25", "setoption name MCTS Hint Share value 101"})
      uci.handle(line);
    const std::string text = out.str();
    EXPECT_TRUE(contains(text, "option name MCTS Tree MiB type spin")) << text;
    EXPECT_EQ(contains(text, "option name MCTS CPuct type string default 1.86\n"), showHidden) << text;
    EXPECT_EQ(contains(text, "option name MCTS Hint Visits type spin default 300 min 0 max 1000000000\n"), showHidden);
    EXPECT_EQ(engine.options().value("MCTS CPuct"), "2.25");
    EXPECT_TRUE(contains(text, "info string error: option MCTS Hint Share: 101 is out of range 0..100")) << text;
  }
}

TEST(Uci, GoPlayoutsLimitsTheMctsFacesPlayouts) {
  // The uniform backend (no NNUE, no hints): playouts are all the nodes.
  const std::string out = runScript(
      "setoption name Search value mcts\nsetoption name MCTS Backend value uniform\nsetoption name MCTS Value value "
      "net\nsetoption name MCTS Smart Pruning value false\nposition startpos\ngo playouts 200\n");
  EXPECT_TRUE(contains(out, " nodes 200 nps ")) << out;
  EXPECT_TRUE(contains(out, "bestmove ")) << out;
  EXPECT_TRUE(contains(runScript("go playouts 0\n"), "info string error: go playouts: 0 is out of range"));
}

TEST(Uci, FormatMoveStatsOfATreeSearch) {
  SearchInfo i;
  EXPECT_TRUE(UciProtocol::formatMoveStats(i, false).empty());  // alpha-beta: none
  // {move, playouts, backend prior, Q, search prior}: d2d4's prior was raised by a hint.
  // {..., search value}: b1c3's and h2h3's values were moved by hints (h2h3 has no playout yet).
  i.moveStats = {{Move(kE2, kE4), 1234, 0.05f, 0.03125f, 0.05f, 0.03125f}, {Move(kA2, kA3), 0, 0.125f, 0.0f, 0.125f},
                 {Move(kD2, kD4), 7, 0.25f, -0.25f, 0.5f}, {Move(kG1, kF3), 3, 0.1f, -0.0f, 0.1f},
                 {Move(kB1, kC3), 5, 0.1f, 0.2f, 0.1f, 0.35f}, {Move(kH2, kH3), 0, 0.1f, 0.0f, 0.1f, -0.5f}};
  EXPECT_EQ(UciProtocol::formatMoveStats(i, false),
            (std::vector<std::string>{"info string e2e4 N 1234 P 5.00% Q 0.0312", "info string a2a3 N 0 P 12.50% Q -",
                                      "info string d2d4 N 7 P 25.00% PS 50.00% Q -0.2500",
                                      "info string g1f3 N 3 P 10.00% Q 0.0000",
                                      "info string b1c3 N 5 P 10.00% Q 0.2000 QS 0.3500",
                                      "info string h2h3 N 0 P 10.00% Q - QS -0.5000"}));
  // The first line of an MCTS report splits its nodes into playouts and alpha-beta hint nodes.
  i.nodes = 12000;
  i.playouts = 2000;
  const std::vector<std::string> lines = UciProtocol::formatMoveStats(i, false);
  ASSERT_EQ(lines.size(), 7u);
  EXPECT_EQ(lines.front(), "info string nodes 12000 = playouts 2000 + hint nodes 10000");
}

/// The numbers of the last "info string nodes X = playouts Y + hint nodes Z" line of `out`.
struct NodeSplit {
  u64 nodes = 0, playouts = 0, hintNodes = 0;
};
NodeSplit lastNodeSplit(const std::string& out) {
  const std::string prefix = "info string nodes ";
  const size_t at = out.rfind(prefix);
  NodeSplit n;
  if (at == std::string::npos) return n;
  std::istringstream line(out.substr(at + prefix.size()));
  std::string equals, playouts, plus, hint, nodes;
  line >> n.nodes >> equals >> playouts >> n.playouts >> plus >> hint >> nodes >> n.hintNodes;
  return n;
}

TEST(Uci, TheMctsFacesNodesCountItsHintsNodesAndGoPlayoutsCountsPlayouts) {
  if (Engine().options().value("MCTS Value") != "nnue") GTEST_SKIP() << "a build without an NNUE network has no hints";
  // The default face's hints come at 300 visits: the root's first (10,000 nodes at most) gets what
  // the 3000 nodes leave after 300 playouts.
  const std::string out = runScript(
      "setoption name Search value mcts\nsetoption name MCTS Smart Pruning value false\nposition startpos\ngo nodes "
      "3000\n");
  const NodeSplit n = lastNodeSplit(out);
  EXPECT_GT(n.hintNodes, 0u) << out;
  EXPECT_EQ(n.nodes, n.playouts + n.hintNodes) << out;
  EXPECT_LE(n.nodes, 3001u + 16) << out;  // a playout, and the nodes alpha-beta counts past its limit
  EXPECT_GE(n.nodes, 2999u) << out;
  EXPECT_TRUE(contains(out, " nodes " + std::to_string(n.nodes) + " nps ")) << out;
  // go playouts: the playouts, whatever the hints search on top.
  const std::string playouts = runScript(
      "setoption name Search value mcts\nsetoption name MCTS Smart Pruning value false\nposition startpos\ngo playouts "
      "400\n");
  const NodeSplit p = lastNodeSplit(playouts);
  EXPECT_EQ(p.playouts, 400u) << playouts;
  EXPECT_GE(p.hintNodes, 10000u) << playouts;  // the root's hint was not cut short
  EXPECT_EQ(p.nodes, 400u + p.hintNodes) << playouts;
  EXPECT_TRUE(contains(playouts, "bestmove ")) << playouts;
}

}  // namespace
}  // namespace janus
