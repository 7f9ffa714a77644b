#pragma once
// A UCI front for an engine that speaks only CECP, the xboard/WinBoard protocol version 2
// (Tim Mann and H.G. Muller, "Chess Engine Communication Protocol",
// https://www.gnu.org/software/xboard/engine-intf.html). Debian's phalanx, for example, has no UCI
// mode; `janus cecp PROGRAM ARGS...` lets the match runner, and any UCI GUI, play it.
//
// Mapping (UCI -> CECP):
//   uci          -> the engine was started with "xboard" + "protover 2"; its features (until
//                   "feature done=1", at most 2 s, or 10 s after "done=0") are answered with
//                   "accepted"/"rejected"; replies "id name <myname>" and "uciok"
//   isready      -> "ping N", waits for "pong N" (readyok at once for engines without ping)
//   ucinewgame   -> the next go starts with "new"
//   position     -> checked with Janus's core (an illegal move or bad FEN is an error and the
//                   previous position is kept); nothing is sent until go
//   go           -> "force", then only the moves the engine has not seen yet (or "new", "easy",
//                   "post", "force", "setboard FEN" and all moves when the game changed);
//                   clocks become "level MOVES M:SS INC" + "time CS" + "otim CS" (centiseconds),
//                   movetime becomes "st SECONDS", depth becomes "sd N"; then "go"
//   stop         -> "?" (move now)
//   quit         -> "quit", then the engine is stopped
// CECP -> UCI:
//   "move X"     -> "bestmove X" in UCI notation (coordinate or SAN input are both understood)
//   "ply score time nodes pv" thinking output -> "info depth score cp time (ms) nodes"
//   "resign"     -> "info string ... resigns" and "bestmove 0000" (the runner scores it as a loss)
//   "Error ..." / "Illegal move ..." -> "info string error: ..."
// Not supported (answered with "info string error: ..."): go ponder, go infinite, go nodes,
// go mate, searchmoves, UCI_Chess960 (CECP castling differs in Chess960).
//
// Threading: handle() is called by one thread (the UCI input loop); a reader thread owns the
// engine's output. Output lines go through the sink, one at a time (serialised by a mutex).

#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "core/position.h"
#include "match/process.h"

namespace janus::match {

class CecpBridge {
 public:
  using Sink = std::function<void(const std::string&)>;

  /// Starts `program` with `args` and runs the CECP handshake. `sink` receives every UCI output
  /// line (without '\n'). Throws janus::Error if the program cannot be started.
  CecpBridge(const std::string& program, const std::vector<std::string>& args, Sink sink);
  /// Sends "quit" and stops the engine (killed after 1 s).
  ~CecpBridge();
  CecpBridge(const CecpBridge&) = delete;
  CecpBridge& operator=(const CecpBridge&) = delete;

  /// Handles one UCI command line. Returns false after "quit". Bad input gets
  /// "info string error: ..." and changes nothing.
  bool handle(std::string_view line);

  /// The engine's name (CECP feature myname, else the program's file name).
  [[nodiscard]] std::string engineName() const;

 private:
  void send(const std::string& line);
  void say(const std::string& line);
  void readerLoop();
  void onEngineLine(const std::string& line);
  void onFeatures(std::string_view text);
  void handleGo(std::string_view args);
  void syncBoard();
  [[nodiscard]] std::string moveText(const Position& pos, Move m) const;
  [[nodiscard]] bool feature(const std::string& name) const;

  ChildProcess m_process;
  Sink m_sink;
  std::mutex m_sayMutex;
  std::mutex m_sendMutex;
  std::thread m_reader;
  std::atomic<bool> m_engineGone{false};
  std::atomic<bool> m_quitting{false};

  // Shared with the reader thread (guarded by m_mutex).
  mutable std::mutex m_mutex;
  std::condition_variable m_changed;
  std::vector<std::pair<std::string, std::string>> m_features;  ///< name, value (quotes removed)
  bool m_featuresDone = false;
  bool m_featuresWaitLonger = false;  ///< "feature done=0": the engine needs more time
  int m_pong = -1;
  bool m_searching = false;
  Position m_searchPos;                     ///< position the engine is thinking about
  std::vector<Move> m_engineMoves;          ///< moves the engine's board has since m_engineStartFen

  // Owned by the UCI thread.
  std::string m_program;
  int m_pingCounter = 0;
  bool m_needNew = true;
  std::string m_engineStartFen;
  std::string m_startFen = Position::kStartFen;
  std::vector<Move> m_moves;                ///< current UCI position: moves from m_startFen
  Position m_pos;                           ///< current UCI position
};

}  // namespace janus::match
