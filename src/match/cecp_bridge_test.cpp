#include "match/cecp_bridge.h"

#include <chrono>
#include <condition_variable>
#include <mutex>

#include <gtest/gtest.h>

#include "core/movegen.h"
#include "core/notation.h"
#include "util/error.h"

using namespace janus;
using namespace janus::match;
using namespace std::chrono_literals;

namespace {

/// Collects the bridge's UCI output and waits for lines.
class Output {
 public:
  CecpBridge::Sink sink() {
    return [this](const std::string& line) {
      std::lock_guard lock(m_mutex);
      m_lines.push_back(line);
      m_cv.notify_all();
    };
  }
  /// The first line from index `from` on that starts with `prefix`, waiting up to `timeout`.
  std::optional<std::string> waitFor(const std::string& prefix, std::chrono::milliseconds timeout = 5s) {
    std::unique_lock lock(m_mutex);
    std::optional<std::string> found;
    m_cv.wait_for(lock, timeout, [&] {
      for (size_t i = m_next; i < m_lines.size(); ++i)
        if (m_lines[i].starts_with(prefix)) {
          found = m_lines[i];
          m_next = i + 1;
          return true;
        }
      return false;
    });
    return found;
  }
  bool anyContains(const std::string& text) {
    std::lock_guard lock(m_mutex);
    for (auto& l : m_lines)
      if (l.find(text) != std::string::npos) return true;
    return false;
  }

 private:
  std::mutex m_mutex;
  std::condition_variable m_cv;
  std::vector<std::string> m_lines;
  size_t m_next = 0;
};

std::string firstMove(const std::string& fen, const std::vector<std::string>& moves) {
  Position pos = Position::fromFen(fen);
  for (auto& m : moves) pos.makeMove(parseUci(pos, m, false));
  return toUci(legalMoves(pos)[0], false);
}

/// Plays three engine moves of a game through the bridge, as the match runner does.
void playGame(CecpBridge& bridge, Output& out) {
  bridge.handle("uci");
  ASSERT_EQ(out.waitFor("id name"), "id name Fake CECP");
  ASSERT_TRUE(out.waitFor("uciok"));
  bridge.handle("isready");
  ASSERT_TRUE(out.waitFor("readyok"));
  bridge.handle("ucinewgame");
  std::vector<std::string> moves;
  const std::vector<std::string> replies = {"e7e5", "b8c6", "g8f6"};
  for (int i = 0; i < 3; ++i) {
    std::string cmd = "position startpos";
    if (!moves.empty()) {
      cmd += " moves";
      for (auto& m : moves) cmd += " " + m;
    }
    bridge.handle(cmd);
    bridge.handle("go wtime 10000 btime 9000 winc 100 binc 100");
    auto info = out.waitFor("info depth");
    ASSERT_TRUE(info);
    EXPECT_EQ(*info, "info depth 1 score cp 17 time 0 nodes 42");
    auto best = out.waitFor("bestmove");
    ASSERT_TRUE(best);
    std::string expected = firstMove(Position::kStartFen, moves);
    EXPECT_EQ(*best, "bestmove " + expected);
    moves.push_back(expected);
    moves.push_back(replies[size_t(i)]);
  }
  EXPECT_FALSE(out.anyContains("error"));
}

}  // namespace

TEST(CecpBridge, PlaysAGameInCoordinateNotation) {
  Output out;
  CecpBridge bridge(JANUS_CECP_FAKE_ENGINE, {}, out.sink());
  playGame(bridge, out);
}

TEST(CecpBridge, PlaysAGameWithAnSanEngine) {
  Output out;
  CecpBridge bridge(JANUS_CECP_FAKE_ENGINE, {"--san"}, out.sink());
  playGame(bridge, out);
}

TEST(CecpBridge, FenPositionsUseSetboardAndANewGameRestartsTheBoard) {
  Output out;
  CecpBridge bridge(JANUS_CECP_FAKE_ENGINE, {}, out.sink());
  const std::string fen = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1";
  bridge.handle("position fen " + fen);
  bridge.handle("go movetime 100");
  EXPECT_EQ(out.waitFor("bestmove"), "bestmove " + firstMove(fen, {}));
  bridge.handle("ucinewgame");
  bridge.handle("position startpos moves d2d4");
  bridge.handle("go depth 3");
  EXPECT_EQ(out.waitFor("bestmove"), "bestmove " + firstMove(Position::kStartFen, {"d2d4"}));
  EXPECT_FALSE(out.anyContains("error"));
}

TEST(CecpBridge, BadInputIsReportedAndThePositionKept) {
  Output out;
  CecpBridge bridge(JANUS_CECP_FAKE_ENGINE, {}, out.sink());
  bridge.handle("position startpos moves e2e4");
  bridge.handle("position startpos moves e2e5");
  ASSERT_TRUE(out.waitFor("info string error: illegal move 'e2e5'"));
  bridge.handle("position fen 8/8/8/8/8/2R5/1R6/6k1 w - - 0 1");
  ASSERT_TRUE(out.waitFor("info string error:"));
  bridge.handle("go infinite");
  ASSERT_TRUE(out.waitFor("info string error: go: 'infinite' is not supported"));
  bridge.handle("go wtime abc");
  ASSERT_TRUE(out.waitFor("info string error: go: bad value 'abc'"));
  bridge.handle("frobnicate");
  ASSERT_TRUE(out.waitFor("info string error: unknown command 'frobnicate'"));
  bridge.handle("go movetime 50");
  EXPECT_EQ(out.waitFor("bestmove"), "bestmove " + firstMove(Position::kStartFen, {"e2e4"}));
}

TEST(CecpBridge, StopMakesTheEngineMoveNow) {
  Output out;
  CecpBridge bridge(JANUS_CECP_FAKE_ENGINE, {"--think"}, out.sink());
  bridge.handle("position startpos");
  bridge.handle("go wtime 60000 btime 60000");
  EXPECT_FALSE(out.waitFor("bestmove", 300ms));
  bridge.handle("stop");
  EXPECT_EQ(out.waitFor("bestmove"), "bestmove " + firstMove(Position::kStartFen, {}));
}

TEST(CecpBridge, ResignationIsANullBestMove) {
  Output out;
  CecpBridge bridge(JANUS_CECP_FAKE_ENGINE, {"--resign"}, out.sink());
  bridge.handle("position startpos");
  bridge.handle("go movetime 100");
  EXPECT_TRUE(out.waitFor("info string Fake CECP resigns"));
  EXPECT_EQ(out.waitFor("bestmove"), "bestmove 0000");
}

TEST(CecpBridge, IsReadyWithoutPingAndAMatedSideHasNoMove) {
  Output out;
  CecpBridge bridge(JANUS_CECP_FAKE_ENGINE, {"--no-ping"}, out.sink());
  bridge.handle("isready");
  EXPECT_TRUE(out.waitFor("readyok"));
  bridge.handle("position fen R5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 1 1");
  bridge.handle("go movetime 100");
  EXPECT_EQ(out.waitFor("bestmove"), "bestmove 0000");
}

TEST(CecpBridge, AMissingProgramIsAnError) {
  Output out;
  EXPECT_THROW(CecpBridge("/nonexistent/xboard-engine", {}, out.sink()), Error);
}
