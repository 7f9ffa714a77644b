#pragma once
// The runner's side of the UCI protocol (UCI spec, Stefan Meyer-Kahlen, April 2006): an engine
// process driven with uci / setoption / isready / ucinewgame / position / go / stop / ponderhit /
// quit, and the parsing of its id, option, info and bestmove lines.
//
// Threading: a UciEngine is used by one worker thread at a time. TrafficLog is thread-safe and
// shared by all engines.

#include <chrono>
#include <fstream>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "match/engine_config.h"
#include "match/process.h"

namespace janus::match {

/// An engine's evaluation from its own point of view (the side to move when it searched).
struct UciScore {
  enum class Kind : u8 { kCentipawns, kMate };
  enum class Bound : u8 { kExact, kLower, kUpper };
  static constexpr int kMateCp = 32000;  ///< centipawn value of "mate in 0"

  Kind kind = Kind::kCentipawns;
  int value = 0;  ///< centipawns, or moves to mate (> 0: the engine mates, < 0: it gets mated)
  Bound bound = Bound::kExact;

  /// Centipawns; a mate in n moves is kMateCp - n (or -(kMateCp - |n|) when being mated).
  [[nodiscard]] int centipawns() const;
  /// PGN comment form: "+0.35", "-1.20", "+M5", "-M3" (pawns, mate in moves).
  [[nodiscard]] std::string toString() const;
};

/// What an engine reported about its search (the last values seen; multipv 1 only).
struct SearchInfo {
  std::optional<UciScore> score;
  int depth = 0;
  int seldepth = 0;
  u64 nodes = 0;
  i64 timeMs = 0;
  std::vector<std::string> pv;  ///< UCI moves
};

/// Updates `info` from one "info ..." line (fields it lacks are kept). Ignores "info string",
/// lines for multipv > 1 and unknown tokens; a bound score does not replace an exact score of the
/// same or a greater depth.
void parseInfoLine(std::string_view line, SearchInfo& info);

/// Optional log of all UCI traffic (--debug-log): "[  12.345] Janus#1 > go wtime ..." where ">" is
/// runner to engine, "<" engine to runner, "!" engine stderr. Thread-safe.
class TrafficLog {
 public:
  /// Opens (truncates) `path`. Throws janus::Error if it cannot be written.
  explicit TrafficLog(const std::string& path);
  void write(std::string_view who, char direction, std::string_view line);

 private:
  std::mutex m_mutex;
  std::ofstream m_out;
  std::chrono::steady_clock::time_point m_start;
};

class UciEngine {
 public:
  using Clock = std::chrono::steady_clock;

  /// `tag` names this instance in the traffic log (e.g. "Janus#2" for worker 2); `log` may be null.
  UciEngine(EngineConfig config, std::string tag, TrafficLog* log);
  ~UciEngine();
  UciEngine(const UciEngine&) = delete;
  UciEngine& operator=(const UciEngine&) = delete;

  [[nodiscard]] const EngineConfig& config() const { return m_config; }
  [[nodiscard]] const std::string& name() const { return m_config.name; }
  /// The engine's "id name" (empty before start()).
  [[nodiscard]] const std::string& idName() const { return m_idName; }
  /// Problems found during the handshake (unknown options), for the report.
  [[nodiscard]] const std::vector<std::string>& warnings() const { return m_warnings; }

  /// Starts the process (stopping a previous one) and runs the handshake: uci -> uciok, setoption
  /// for each configured option (plus UCI_Chess960 and Ponder when needed), isready -> readyok,
  /// each within `timeout`. Throws janus::Error saying what failed (could not start, no uciok,
  /// no readyok, exited).
  void start(bool chess960, std::chrono::milliseconds timeout);
  /// True while the process is running and has not closed its output.
  [[nodiscard]] bool running();

  /// Sends one command line; false if the engine is gone or does not read its input.
  bool send(std::string_view line);
  /// isready -> readyok within `timeout` (info lines in between are skipped).
  [[nodiscard]] bool isReady(std::chrono::milliseconds timeout);
  /// ucinewgame, then isReady.
  [[nodiscard]] bool newGame(std::chrono::milliseconds timeout);

  struct SearchResult {
    enum class Status { kBestMove, kTimeout, kEof };
    Status status = Status::kTimeout;
    std::string bestMove;          ///< text after "bestmove" (may be anything the engine sent)
    std::string ponderMove;        ///< text after "ponder", empty if none
    SearchInfo info;
    Clock::time_point receivedAt;  ///< when the bestmove line was read
  };
  /// Reads until "bestmove", `deadline` or end of output, collecting info lines.
  [[nodiscard]] SearchResult waitBestMove(Clock::time_point deadline);

  /// Sends "quit", waits up to `grace` for the process to exit, then kills it.
  void quit(std::chrono::milliseconds grace);
  /// Kills the process at once (an engine that stalls).
  void kill();
  /// How the process ended ("exited with code 1", "killed by signal 11 (Segmentation fault)").
  [[nodiscard]] std::string exitDescription() { return m_process.exitDescription(); }

  /// Pondering state kept by the game loop: the move the engine ponders on (empty: not pondering).
  std::string ponderingOn;

 private:
  enum class Wait { kFound, kTimeout, kEof };
  Wait waitFor(std::string_view token, Clock::time_point deadline);
  bool readLine(std::string& line, Clock::time_point deadline, ChildProcess::ReadStatus& status);
  [[nodiscard]] bool hasOption(std::string_view name) const;

  EngineConfig m_config;
  std::string m_tag;
  TrafficLog* m_log;
  ChildProcess m_process;
  std::string m_idName;
  std::vector<std::string> m_optionNames;
  std::vector<std::string> m_warnings;
};

}  // namespace janus::match
