#pragma once
// The match runner: N worker threads, each with its own pair of engine processes (kept across
// games, "ucinewgame" between them, restarted after a crash or stall), playing games from an
// opening book with colours swapped per opening, writing PGN, printing progress after every
// game and a final summary, and stopping early when an SPRT decides.
//
// Game numbering is deterministic: game i (0-based) uses opening order[i / 2] (with repeat; else
// order[i]) and the first engine plays White in even games. Games finish, are written to the PGN
// file and reported in completion order.
//
// Threading: run() blocks; requestStop() may be called from any thread (finishes the games in
// progress, then returns).

#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "match/engine_config.h"
#include "match/game.h"
#include "match/openings.h"
#include "match/pgn_output.h"
#include "match/stats.h"

namespace janus::match {

struct MatchConfig {
  std::array<EngineConfig, 2> engines;
  TimeControl timeControl;            ///< default for both engines (engine specs may override)
  int games = 2;                      ///< games to play (the maximum with an SPRT)
  int concurrency = 1;                ///< games played at once
  std::string openingsPath;           ///< EPD or PGN; "" = the shipped default book
  bool randomOpenings = false;        ///< shuffle the book with `seed`
  u64 seed = 0;
  int openingStart = 1;               ///< 1-based index of the first opening used
  bool repeat = true;                 ///< every opening twice, colours swapped (game pairs)
  std::string pgnOut;                 ///< "" = no PGN file
  /// Continue the match in pgnOut: the games already there (by their Round tag, the 1-based
  /// game number) are counted as played (score, pairs, SPRT, endings, incidents) and only the
  /// missing numbers up to `games` are played. The other settings must be the ones of the
  /// first run (same openings and order), which the runner cannot check beyond the names.
  bool resume = false;
  std::string debugLog;               ///< "" = no UCI traffic log
  std::string event = "Janus match";
  std::string site = "?";
  bool showMoves = false;             ///< print every move as played and each game's PGN
  bool quiet = false;                 ///< no progress lines (summary only)
  AdjudicationConfig adjudication;
  std::optional<SprtConfig> sprt;
  bool chess960 = false;              ///< force Chess960 (also switched on by Chess960 openings)
  std::chrono::milliseconds timeMargin{0};
  std::chrono::milliseconds stopGrace{1000};
  std::chrono::milliseconds stallTimeout{10000};
  std::chrono::milliseconds startTimeout{10000};  ///< uci -> uciok and the first readyok
  std::chrono::milliseconds readyTimeout{10000};  ///< ucinewgame -> readyok
  int maxRestartFailures = 3;         ///< consecutive failed restarts of one engine that abort the match
};

struct MatchResult {
  int gamesPlanned = 0;
  int gamesPlayed = 0;
  int wins = 0, draws = 0, losses = 0;  ///< from the first engine's point of view
  int whiteWins = 0, blackWins = 0;     ///< by colour (draws = draws)
  Pentanomial pairs{};                  ///< completed game pairs, first engine's points
  std::map<std::string, int> endings;   ///< count by reason ("White mates", ...)
  std::vector<Incident> incidents;      ///< in completion order
  /// Clock left (ms) when each engine's move arrived, before the increment, by engine slot:
  /// how close an engine came to losing on time (formatSummary prints min and percentiles).
  std::array<std::vector<i64>, 2> clockLeftMs;
  /// Thinking time (ms, wall clock, MoveRecord::timeUs) of each engine move, book moves left
  /// out, by engine slot: how much of its clock an engine spends (formatSummary prints mean,
  /// median, 95th percentile and maximum).
  std::array<std::vector<i64>, 2> moveTimeMs;
  std::vector<std::string> warnings;    ///< skipped openings, unknown UCI options, PV problems
  /// Moves whose last PV did not fit the move played (MoveRecord::pvProblem), by engine slot.
  std::array<int, 2> pvProblems{};
  std::optional<double> llr;           ///< the SPRT's log-likelihood ratio over every finished game
  std::optional<SprtBounds> sprtBounds;
  /// The SPRT's verdict when the LLR first crossed a bound (kept: games that were already being
  /// played then still finish and count in `llr`, which may drift back inside the bounds).
  SprtDecision decision = SprtDecision::kContinue;
  int decisionGames = 0;                ///< games finished when the verdict was reached
  std::string stopReason;               ///< why the match ended before gamesPlanned ("" if it did not)
  int gamesRestored = 0;                ///< games counted from the PGN file by --resume
  double seconds = 0;                   ///< wall time of this run (restored games not included)
  double runnerCpuSeconds = 0;          ///< CPU seconds of the runner process during run() (all threads, no engines)
  u64 seed = 0;                         ///< seed used for the opening order
  int openingCount = 0;
};

class Match {
 public:
  /// Validates the configuration (throws janus::Error naming the problem: no time limit for an
  /// engine, games < 1, concurrency < 1, bad SPRT, --resume without a PGN file) and loads the
  /// opening book (throws if it cannot be read or is empty; skipped entries become warnings).
  /// With `resume`, reads the PGN file (if it exists) and throws janus::Error naming the game
  /// (its line) if a game's Round is not a number in 1..games or appears twice, or its players
  /// are not the two engines with the colours that its number gives. Games the PGN reader
  /// skips (e.g. one cut off by a kill while it was written) are played again. Writes to `out`.
  Match(MatchConfig config, std::ostream& out);
  ~Match();

  /// Plays the match and prints progress and the final summary. Throws janus::Error if an
  /// engine cannot be started at all or keeps failing to restart, or the PGN file cannot be written.
  MatchResult run();

  /// Asks run() to stop after the games in progress.
  void requestStop() { m_stop = true; }

  [[nodiscard]] const MatchConfig& config() const { return m_config; }

 private:
  void worker(int id);
  void gameFinished(const GameRecord& game);
  /// Counts one finished game (score, colours, pairs, endings, incident, SPRT); m_mutex held.
  void tally(int number, GameResult result, const std::string& reason, const std::optional<Incident>& incident);
  /// Reads m_config.pgnOut for resume: tallies its games, returns the game numbers they cover.
  std::vector<bool> restoreFromPgn();
  void fail(const std::string& message);
  [[nodiscard]] std::string progressLine(const GameRecord& game) const;
  void printMove(const GameRecord& game, const MoveRecord& move);

  MatchConfig m_config;
  std::ostream& m_out;
  OpeningBook m_book;
  std::vector<int> m_order;
  GameSettings m_settings;
  PgnContext m_pgnContext;
  std::unique_ptr<PgnFile> m_pgnFile;
  std::unique_ptr<TrafficLog> m_log;
  bool m_chess960 = false;

  std::vector<int> m_pending;          // 0-based game indices still to play, ascending
  std::atomic<size_t> m_nextGame{0};   // next entry of m_pending
  std::atomic<bool> m_stop{false};
  std::chrono::steady_clock::time_point m_start;
  double m_cpuStart = 0;  ///< the process's CPU seconds when run() started (runnerCpuSeconds counts from it)

  std::mutex m_mutex;  // guards everything below and the output stream
  MatchResult m_result;
  std::map<int, double> m_openPairs;  // pair index -> first engine's points in the finished game
  std::array<int, 2> m_restartFailures{};
  std::array<bool, 2> m_everStarted{};
  std::array<bool, 2> m_warned{};
  std::optional<std::string> m_fatal;
};

/// Final report: score, Elo with error bars (per game and per pair), LOS, draw ratio, SPRT state,
/// how games ended, and every time forfeit / illegal move / crash / stall per engine ("none").
[[nodiscard]] std::string formatSummary(const MatchConfig& config, const MatchResult& result);

}  // namespace janus::match
