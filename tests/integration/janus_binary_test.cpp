// Drives the real janus binary through pipes, as a GUI would.

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <regex>

#include "core/movegen.h"
#include "core/notation.h"
#include "match/process.h"
#include "records/janusdat.h"

namespace janus {
namespace {

using namespace std::chrono_literals;
using match::ChildProcess;

class JanusProcess {
 public:
  explicit JanusProcess(std::vector<std::string> args = {}) { m_proc.start(JANUS_BINARY, args, ""); }
  ~JanusProcess() { m_proc.stop(2000ms); }

  /// Writes one line; the 20 s limit (not writeLine's 2 s) lets a sanitizer build on a loaded
  /// machine read a 1 MiB line (BinaryJunkAndHugeLines failed that way under TSan with ctest -j2).
  void send(const std::string& line) {
    ASSERT_TRUE(m_proc.writeLine(line, 20000ms)) << line.substr(0, 80) << (line.size() > 80 ? "..." : "");
  }
  /// Reads lines until one starts with `prefix`; returns it ("" on timeout or EOF).
  std::string expect(const std::string& prefix, std::chrono::milliseconds timeout = 20000ms) {
    auto deadline = ChildProcess::Clock::now() + timeout;
    std::string line;
    while (m_proc.readLine(line, deadline) == ChildProcess::ReadStatus::kLine) {
      m_log += line + "\n";
      if (line.rfind(prefix, 0) == 0) return line;
    }
    return "";
  }
  [[nodiscard]] const std::string& log() const { return m_log; }
  ChildProcess& process() { return m_proc; }

 private:
  ChildProcess m_proc;
  std::string m_log;
};

/// Runs janus with arguments and returns (exit description, stdout+stderr text).
std::pair<std::string, std::string> runCli(const std::string& args) {
  std::string cmd = std::string(JANUS_BINARY) + " " + args + " 2>&1";
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(cmd.c_str(), "r"), pclose);
  std::string out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, pipe.get())) > 0) out.append(buf, n);
  int status = pclose(pipe.release());
  return {WIFEXITED(status) ? "exit " + std::to_string(WEXITSTATUS(status)) : "signal", out};
}

TEST(JanusBinary, HandshakeAndSearchOverPipes) {
  JanusProcess j;
  j.send("uci");
  ASSERT_NE(j.expect("uciok"), "");
  EXPECT_NE(j.log().find("option name Hash type spin"), std::string::npos);
  j.send("isready");
  ASSERT_EQ(j.expect("readyok"), "readyok");
  j.send("position startpos moves e2e4 e7e5 g1f3");
  j.send("go depth 8");
  std::string best = j.expect("bestmove");
  ASSERT_NE(best, "");
  Position pos;
  for (const char* m : {"e2e4", "e7e5", "g1f3"}) pos.makeMove(parseUci(pos, m, false));
  EXPECT_NO_THROW((void)parseUci(pos, best.substr(9, best.find(' ', 9) - 9), false)) << best;
  EXPECT_NE(j.log().find("info depth 8 "), std::string::npos);
}

TEST(JanusBinary, MctsSearchOverUci) {
  JanusProcess j;
  j.send("uci");
  ASSERT_NE(j.expect("uciok"), "");
  EXPECT_NE(j.log().find("option name Search type combo default alphabeta var alphabeta var mcts"), std::string::npos);
  j.send("setoption name Search value mcts");
  j.send("setoption name UCI_ShowWDL value true");
  // Smart pruning may stop a node-limited search early (when the runner-up can no longer catch
  // up); without it `go nodes 200` makes exactly 200 playouts.
  j.send("setoption name MCTS Smart Pruning value false");
  j.send("position startpos moves e2e4");
  j.send("go nodes 200");
  std::string best = j.expect("bestmove");
  ASSERT_NE(best, "") << j.log();
  Position pos;
  pos.makeMove(parseUci(pos, "e2e4", false));
  EXPECT_NO_THROW((void)parseUci(pos, best.substr(9, best.find(' ', 9) - 9), false)) << best;
  EXPECT_TRUE(std::regex_search(j.log(), std::regex(R"(info depth \d+ seldepth \d+ multipv 1 score cp -?\d+ wdl \d+ \d+ \d+ nodes 200 )")))
      << j.log();
  EXPECT_TRUE(std::regex_search(j.log(), std::regex(R"(info string [a-h][1-8][a-h][1-8][qrbn]? N \d+ P \d+\.\d\d% Q -?\d\.\d{4})")))
      << j.log();
  EXPECT_EQ(j.log().find("info string error"), std::string::npos) << j.log();
}

TEST(JanusBinary, MalformedInputKeepsTheEngineRunning) {
  JanusProcess j;
  j.send("position startpos moves e2e4");
  j.send("position startpos moves e2e4 e7e9");
  j.send("position fen 8/8/8/8/8/2R5/1R6/6k1 w - - 0 1");
  j.send("go depth -3");
  j.send("setoption name Threads value 99999");
  j.send("flibbertigibbet");
  j.send(std::string("\x01\x02\xff\xfe garbage \x7f", 14));
  j.send("go before position is fine");
  j.send("isready");
  ASSERT_EQ(j.expect("readyok"), "readyok") << j.log();
  EXPECT_NE(j.log().find("info string error: move 2 of the position command: move 'e7e9': not a UCI move"),
            std::string::npos)
      << j.log();
  EXPECT_NE(j.log().find("info string error: FEN field 1 (placement): White has no king"), std::string::npos);
  EXPECT_NE(j.log().find("info string error: go depth: -3 is out of range"), std::string::npos);
  EXPECT_NE(j.log().find("info string error: option Threads: 99999 is out of range"), std::string::npos);
  EXPECT_NE(j.log().find("info string error: unknown command 'flibbertigibbet'"), std::string::npos);
  // The first position survived: the engine plays for Black.
  j.send("go depth 4");
  std::string best = j.expect("bestmove");
  Position pos;
  pos.makeMove(parseUci(pos, "e2e4", false));
  EXPECT_NO_THROW((void)parseUci(pos, best.substr(9, 4), false)) << best;
}

// Malformed-input catalogue (docs/malformed-input.md): NUL bytes, escape sequences, a 1 MiB line
// and CRLF line ends are answered (or ignored) line by line; the engine stays usable.
TEST(JanusBinary, BinaryJunkAndHugeLines) {
  JanusProcess j;
  j.send(std::string("\0\0\0position\0startpos", 20));
  j.send("\x1b[2J\x1b[H\x07\x08");
  j.send(std::string(1 << 20, 'x'));
  // The reply names the word, cut to 64 bytes (a 1 MiB echo could fill the GUI's pipe).
  EXPECT_EQ(j.expect("info string error: unknown command 'xxxx"),
            "info string error: unknown command '" + std::string(64, 'x') + "...' (1048576 bytes)");
  j.send(std::string(1 << 16, ' ') + "isready");
  ASSERT_EQ(j.expect("readyok"), "readyok");
  j.send("position startpos moves e2e4\r");
  j.send("go depth 3\r");
  std::string best = j.expect("bestmove");
  Position pos;
  pos.makeMove(parseUci(pos, "e2e4", false));
  EXPECT_NO_THROW((void)parseUci(pos, best.substr(9, 4), false)) << best;
}

TEST(JanusBinary, EmptyStdinExitsCleanly) {
  JanusProcess j;
  j.process().stop(5000ms);  // closes stdin at once
  EXPECT_EQ(j.process().exitDescription(), "exited with code 0");
}

TEST(JanusBinary, TenThousandMovePositionCommand) {
  JanusProcess j;
  std::string cmd = "position startpos moves";
  for (int i = 0; i < 2500; ++i) cmd += " g1f3 g8f6 f3g1 f6g8";
  j.send(cmd);
  j.send("go depth 5");
  EXPECT_NE(j.expect("bestmove"), "") << j.log();
}

TEST(JanusBinary, GoBeforePositionSearchesTheStartPosition) {
  JanusProcess j;
  j.send("go depth 3");
  std::string best = j.expect("bestmove");
  Position pos;
  EXPECT_NO_THROW((void)parseUci(pos, best.substr(9, 4), false)) << best;
}

TEST(JanusBinary, PonderThenPonderhit) {
  JanusProcess j;
  j.send("setoption name Ponder value true");
  j.send("position startpos moves e2e4 e7e5");
  j.send("go ponder wtime 2000 btime 2000 winc 0 binc 0");
  EXPECT_EQ(j.expect("bestmove", 500ms), "") << "no bestmove while pondering";
  j.send("ponderhit");
  EXPECT_NE(j.expect("bestmove", 10000ms), "");
}

TEST(JanusBinary, StopEndsInfiniteSearch) {
  JanusProcess j;
  j.send("position startpos");
  j.send("go infinite");
  EXPECT_EQ(j.expect("bestmove", 300ms), "");
  j.send("stop");
  EXPECT_NE(j.expect("bestmove", 5000ms), "");
}

TEST(JanusBinary, ClosedStdinExitsCleanlyEvenWhileSearching) {
  JanusProcess j;
  j.send("go infinite");
  j.expect("info depth 3");
  j.process().stop(5000ms);  // closes stdin and waits for the exit
  EXPECT_EQ(j.process().exitDescription(), "exited with code 0");
}

TEST(JanusBinary, QuitExitsWithCodeZero) {
  JanusProcess j;
  j.send("go infinite");
  j.expect("info depth 2");
  j.send("quit");
  j.process().stop(5000ms);
  EXPECT_EQ(j.process().exitDescription(), "exited with code 0");
}

TEST(JanusBinary, CommandLineTools) {
  auto [code, out] = runCli("perft 4");
  EXPECT_EQ(code, "exit 0");
  EXPECT_NE(out.find("Nodes searched: 197281"), std::string::npos);
  std::tie(code, out) = runCli("divide 2 \"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1\"");
  EXPECT_NE(out.find("e1g1: 43"), std::string::npos) << out;
  EXPECT_NE(out.find("Nodes searched: 2039"), std::string::npos);
  std::tie(code, out) = runCli("bench 5");
  EXPECT_EQ(code, "exit 0");
  EXPECT_TRUE(std::regex_search(out, std::regex("\\n[0-9]+ nodes [0-9]+ nps\\n$"))) << out;
  std::tie(code, out) = runCli("bench --search mcts --nodes 100");  // 30 positions x 100 playouts
  EXPECT_EQ(code, "exit 0");
  EXPECT_TRUE(std::regex_search(out, std::regex("\\n3000 nodes [0-9]+ nps\\n$"))) << out;
  EXPECT_NE(out.find("Cache hits"), std::string::npos) << out;
  // Engine options reach the MCTS bench (its "Evaluation:" line names the backend they built).
  std::tie(code, out) =
      runCli("bench --search mcts --nodes 20 --option \"MCTS Prior Temperature=50\" --option \"MCTS QS Depth=4\"");
  EXPECT_EQ(code, "exit 0");
  EXPECT_TRUE(std::regex_search(out, std::regex("\\n600 nodes [0-9]+ nps\\n$"))) << out;
  if (out.find("pvnet: NNUE nn-") != std::string::npos) {  // a build with a network: the NNUE value
    EXPECT_NE(out.find("one-ply search (quiescence 4 plies, prior temperature 50 cp)"), std::string::npos) << out;
  }
  std::tie(code, out) = runCli("bench --search mcts --nodes 20 --option \"MCTS QS Depth\"");
  EXPECT_EQ(code, "exit 1");
  EXPECT_NE(out.find("'MCTS QS Depth': expected NAME=VALUE"), std::string::npos) << out;
  std::tie(code, out) = runCli("eval");
  EXPECT_EQ(code, "exit 0");
  EXPECT_NE(out.find("Total"), std::string::npos);
  std::tie(code, out) = runCli("perft 3 \"8/8/8/8/8/2R5/1R6/6k1 w - - 0 1\"");
  EXPECT_EQ(code, "exit 1");
  EXPECT_NE(out.find("White has no king"), std::string::npos);
}

// A bad EPD test-suite line is skipped with a message naming it (an operand of dm that is not a
// number used to be reported as just "stoi").
TEST(JanusBinary, MalformedEpdSuiteLinesAreSkipped) {
  std::string path = testing::TempDir() + "/janus-binary-test-bad-suite.epd";
  {
    std::unique_ptr<FILE, int (*)(FILE*)> f(fopen(path.c_str(), "w"), fclose);
    ASSERT_TRUE(f);
    fputs("4k3/8/8/8/8/8/8/4K3 w - - dm x;\n4k3/8/8/8/8/8/8/4K3 w - -\nno fen here\n"
          "6k1/4Rppp/8/8/8/8/5PPP/6K1 w - - bm Re8#; id \"mate\";\n", f.get());
  }
  auto [code, out] = runCli("epdtest --depth 2 " + path);
  EXPECT_EQ(code, "exit 0") << out;
  EXPECT_NE(out.find(path + ":1: skipped: line 1: dm 'x' is not a positive integer"), std::string::npos) << out;
  EXPECT_NE(out.find(path + ":2: skipped: line 2: no bm, am or dm operation"), std::string::npos) << out;
  EXPECT_NE(out.find(path + ":3: skipped: line 3: fewer than 4 FEN fields"), std::string::npos) << out;
  EXPECT_NE(out.find("solved 1/1 (3 lines skipped)"), std::string::npos) << out;
  std::remove(path.c_str());
}

// A JANUSDAT file is a suite whose bm are the records' best moves; --nodes and --option choose
// the search (here both faces), --every and --limit the records.
TEST(JanusBinary, EpdTestTakesTheBestMovesOfAJanusdatFile) {
  const std::string path = testing::TempDir() + "/janus-binary-test-suite.janusdat";
  {
    records::DataWriter out(path, 3);
    const Position mate = Position::fromFen("6k1/4Rppp/8/8/8/8/5PPP/6K1 w - - 0 1");
    out.write(records::packRecord(mate, 0, records::kWhiteWin, Move::none(), parseSan(mate, "Re8#")));
    out.write(records::packRecord(mate, 0, records::kWhiteWin, Move::none(), parseSan(mate, "Kf1")));  // a wrong bm
    out.write(records::packRecord(Position(), 0, records::kDraw, parseSan(Position(), "e4")));        // no best move: not a case
    out.commit();
  }
  for (const char* face : {"alphabeta", "mcts"}) {
    auto [code, out] = runCli(std::string("epdtest -v --nodes 300 --option Search=") + face + " " + path);
    EXPECT_EQ(code, "exit 0") << out;
    EXPECT_NE(out.find("ok   record 0: played Re8#"), std::string::npos) << face << "\n" << out;
    EXPECT_NE(out.find("FAIL record 1: played Re8#"), std::string::npos) << face << "\n" << out;
    EXPECT_NE(out.find("solved 1/2 (0 lines skipped) at 300 nodes per position"), std::string::npos) << out;
  }
  auto [code, out] = runCli("epdtest --nodes 300 --every 2 " + path);
  EXPECT_NE(out.find("solved 1/1"), std::string::npos) << out;  // records 0 and (not 1, not 2: no best move)
  std::tie(code, out) = runCli("epdtest --nodes 300 --limit 1 --option \"MCTS CPuct=2\" " + path);
  EXPECT_NE(out.find("solved 1/1"), std::string::npos) << out;
  std::tie(code, out) = runCli("epdtest --nodes 300 --option NoSuchOption=1 " + path);
  EXPECT_EQ(code, "exit 1") << out;
  EXPECT_NE(out.find("NoSuchOption"), std::string::npos) << out;
  std::remove(path.c_str());
}

// Regression (perft_suite_fuzz): a suite line "epd" without a FEN aborted janus perftsuite with
// an uncaught std::out_of_range; now it is an error naming the file and line.
TEST(JanusBinary, MalformedPerftSuiteIsAnError) {
  std::string path = testing::TempDir() + "/janus-binary-test-bad-suite.perft";
  {
    std::unique_ptr<FILE, int (*)(FILE*)> f(fopen(path.c_str(), "w"), fclose);
    ASSERT_TRUE(f);
    fputs("id empty\nepd\n", f.get());
  }
  auto [code, out] = runCli("perftsuite " + path);
  EXPECT_EQ(code, "exit 1") << out;
  EXPECT_NE(out.find("error: " + path + ":2: 'epd' without a FEN"), std::string::npos) << out;
  std::remove(path.c_str());
}

// janus score pools match PGNs: W/D/L, pentanomial pairs by Round, and losses by Termination.
TEST(JanusBinary, ScoreSummarisesMatchPgns) {
  std::string path = testing::TempDir() + "/janus-binary-test-score.pgn";
  {
    std::unique_ptr<FILE, int (*)(FILE*)> f(fopen(path.c_str(), "w"), fclose);
    ASSERT_TRUE(f);
    auto game = [&](int round, const char* white, const char* black, const char* result, const char* term) {
      fprintf(f.get(), "[Round \"%d\"]\n[White \"%s\"]\n[Black \"%s\"]\n[Result \"%s\"]\n[Termination \"%s\"]\n\n1. e4 e5 %s\n\n",
              round, white, black, result, term, result);
    };
    game(1, "Janus", "Opp", "1-0", "normal");
    game(2, "Opp", "Janus", "1/2-1/2", "normal");
    game(3, "Janus", "Opp", "0-1", "time forfeit");
    game(4, "Opp", "Janus", "0-1", "adjudication");
    game(5, "Other", "Opp", "1-0", "normal");
    game(1, "Janus", "Opp", "1-0", "normal");  // a second run appended to the file
    game(2, "Opp", "Janus", "0-1", "normal");
  }
  auto [code, out] = runCli("score --engine Janus " + path);
  EXPECT_EQ(code, "exit 0") << out;
  EXPECT_NE(out.find("6 games of Janus in 1 file(s) against Opp (6); 1 other or unfinished games skipped"),
            std::string::npos) << out;
  EXPECT_NE(out.find("Score of Janus: +4 -1 =1 [0.750] 6"), std::string::npos) << out;
  EXPECT_NE(out.find("pentanomial over 3 pairs"), std::string::npos) << out;
  EXPECT_NE(out.find("Pentanomial [0, 0.5, 1, 1.5, 2]: [0, 0, 1, 1, 1]"), std::string::npos) << out;
  EXPECT_NE(out.find("Lost by time forfeit: 1"), std::string::npos) << out;
  EXPECT_NE(out.find("Won by adjudication: 1"), std::string::npos) << out;
  EXPECT_NE(out.find("Won by normal: 3"), std::string::npos) << out;
  // The appended run's first game repeats the first run's move for move: counted, and scored
  // once with --distinct (its pair then lacks a game).
  EXPECT_NE(out.find("1 game(s) repeat an earlier game move for move"), std::string::npos) << out;
  std::tie(code, out) = runCli("score --distinct --engine Janus " + path);
  EXPECT_EQ(code, "exit 0") << out;
  EXPECT_NE(out.find("Score of Janus: +3 -1 =1 [0.700] 5"), std::string::npos) << out;
  EXPECT_NE(out.find("pentanomial over 2 pairs"), std::string::npos) << out;
  std::tie(code, out) = runCli("score --engine Nobody " + path);
  EXPECT_EQ(code, "exit 1");
  EXPECT_NE(out.find("no finished game of 'Nobody'"), std::string::npos) << out;
  std::remove(path.c_str());
}

// janus cecp puts a UCI front on an xboard engine (here the CECP test engine of src/match).
TEST(JanusBinary, CecpBridgeSpeaksUci) {
  JanusProcess janus({"cecp", JANUS_CECP_FAKE_ENGINE});
  janus.send("uci");
  EXPECT_EQ(janus.expect("id name"), "id name Fake CECP");
  EXPECT_NE(janus.expect("uciok"), "");
  janus.send("isready");
  EXPECT_NE(janus.expect("readyok"), "");
  janus.send("position startpos moves e2e4");
  janus.send("go wtime 1000 btime 1000 winc 10 binc 10");
  Position pos;
  pos.makeMove(parseUci(pos, "e2e4", false));
  EXPECT_EQ(janus.expect("bestmove"), "bestmove " + toUci(legalMoves(pos)[0], false)) << janus.log();
  janus.send("quit");
  auto [code, out] = runCli("cecp /nonexistent/xboard-engine");
  EXPECT_EQ(code, "exit 1");
  EXPECT_NE(out.find("/nonexistent/xboard-engine"), std::string::npos) << out;
}

TEST(JanusBinary, SpsaRunTunesAnOptionAndResumes) {
  const std::string dir = testing::TempDir() + "/janus-binary-test-spsa-" + std::to_string(::getpid());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string params = dir + "/params.txt", state = dir + "/state.json";
  std::ofstream(params) << "MCTS CPuct, float, 2.5, 0.5, 8, 0.3, 0.02\nMCTS Prior Temperature, int, 100, 20, 400, 20, 0.02\n";
  const std::string engine = std::string("--engine \"cmd=") + JANUS_BINARY + " arg=--show-hidden option.Search=mcts option.Hash=4\"";
  const std::string common = "spsa run --params " + params + " " + engine + " --nodes 64 --concurrency 2 --maxmoves 30 --state " + state;
  auto [code, out] = runCli(common + " --iterations 2");
  ASSERT_EQ(code, "exit 0") << out;
  EXPECT_NE(out.find("SPSA of 2 parameters, 2 iterations of 1 game pairs, seed 1"), std::string::npos) << out;
  EXPECT_NE(out.find("iteration 2/2: "), std::string::npos) << out;
  EXPECT_NE(out.find("finished 2 iterations; the values:\nMCTS CPuct = "), std::string::npos) << out;
  std::ifstream in(state);
  const std::string json((std::istreambuf_iterator<char>(in)), {});
  EXPECT_NE(json.find("\"iteration\": 2"), std::string::npos) << json;
  // The state exists: a new run must be asked for explicitly, a resumed one has nothing left.
  std::tie(code, out) = runCli(common + " --iterations 2");
  EXPECT_EQ(code, "exit 1");
  EXPECT_NE(out.find("state file '" + state + "' exists: give --resume"), std::string::npos) << out;
  std::tie(code, out) = runCli(common + " --iterations 2 --resume");
  EXPECT_EQ(code, "exit 0") << out;
  EXPECT_NE(out.find("(resumed at iteration 3)"), std::string::npos) << out;
  EXPECT_EQ(out.find("iteration 3/"), std::string::npos) << out;
  std::tie(code, out) = runCli(common + " --iterations 3 --resume");
  EXPECT_EQ(code, "exit 1");
  EXPECT_NE(out.find("it was started with 2 iterations, not 3"), std::string::npos) << out;
  std::ofstream(params) << "MCTS CPuct, float, 2.5, 0.5\n";
  std::tie(code, out) = runCli(common + " --iterations 2 --resume");
  EXPECT_EQ(code, "exit 1");
  EXPECT_NE(out.find(params + ": line 1: 4 fields, expected 7"), std::string::npos) << out;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace janus
