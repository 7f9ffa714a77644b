#pragma once
// Time management (chessprogramming wiki "Time Management"): from the clock, increment and
// moves to go, an optimum time (the iterative deepening loop starts no new iteration beyond
// it, scaled by best-move stability) and a maximum time (the search is stopped there).
//
// A reserve of the clock is never planned with (reserveMs: three increments or five move
// overheads, where the overhead grows with the measured lag of a loaded machine). Without it
// Janus lived on the increment with about 0.2 s left at 10+0.1, and one move delayed by a
// loaded machine (0.23-0.44 s) lost on time (issue 15). Below the reserve a move is planned shorter than the increment, so the clock
// grows back instead of staying where one slow move flags.

#include <chrono>

#include "search/search.h"

namespace janus {

class TimeManager {
 public:
  using Clock = std::chrono::steady_clock;

  /// Computes the budget for side `us`. Call at the start of a search. Time is counted from
  /// limits.startTime when set (when the go command arrived), else from `start`.
  void init(const SearchLimits& limits, Color us, i64 moveOverheadMs, Clock::time_point start);

  /// Milliseconds of the clock that the plan never spends, for increment `incMs`:
  /// max(3 * incMs, 5 * moveOverheadMs). Below it a move is planned at 3/4 of the increment
  /// at most (sudden death: 1 ms). Ten increments measured -15.6 +- 17.0 Elo at 10+0.1
  /// against the build without a reserve (578 games, docs/time-management.md): the plan lost
  /// 7-23% of each move's time. Three increments keep 300 ms at 10+0.1.
  [[nodiscard]] static i64 reserveMs(i64 incMs, i64 moveOverheadMs);

  [[nodiscard]] i64 elapsedMs() const {
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - m_start).count();
  }
  /// True if a time limit applies at all (not for depth/nodes/infinite searches).
  [[nodiscard]] bool enabled() const { return m_enabled; }
  [[nodiscard]] i64 optimumMs() const { return m_optimum; }
  [[nodiscard]] i64 maximumMs() const { return m_maximum; }

 private:
  Clock::time_point m_start;
  bool m_enabled = false;
  i64 m_optimum = 0, m_maximum = 0;
};

/// Measures the lag between the engine and the clock that governs it: the time a GUI charged
/// for the engine's previous move beyond what the engine measured itself (from reading `go` to
/// writing `bestmove`): pipe latency, the GUI's own delays, and above all the scheduling delays
/// of a loaded machine, which no fixed Move Overhead anticipates. The engine plans with
/// max(Move Overhead, lagMs()). The estimate is a decaying maximum (x 0.9 per move) of the lags
/// of its own consecutive moves in one game; moves it cannot pair (a new game, a take-back, a
/// new time control adding base time) are skipped.
class LagEstimator {
 public:
  using Clock = std::chrono::steady_clock;
  /// A `go` with a clock for side `us` at game ply `gamePly`, read at `receivedAt`.
  void onGo(Color us, int gamePly, i64 clockMs, i64 incMs, Clock::time_point receivedAt);
  /// The bestmove of that search was written at `sentAt`.
  void onBestMove(Clock::time_point sentAt);
  /// Milliseconds of lag to plan with (0 until measured).
  [[nodiscard]] i64 lagMs() const { return m_lagMs; }
  /// Forgets the previous move (a new game) but keeps the estimate (the machine stays loaded).
  void newGame() { m_havePrevious = false; }

 private:
  bool m_havePrevious = false, m_haveBestMove = false;
  Color m_color = kWhite;
  int m_ply = 0;
  i64 m_clockMs = 0, m_incMs = 0;
  Clock::time_point m_receivedAt, m_sentAt;
  i64 m_lagMs = 0;
};

}  // namespace janus
