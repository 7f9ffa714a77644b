#pragma once
// Time management (chessprogramming wiki "Time Management"): from the clock, increment and
// moves to go, an optimum time (the iterative deepening loop starts no new iteration beyond
// it, scaled by best-move stability) and a maximum time (the search is stopped there).

#include <chrono>

#include "search/search.h"

namespace janus {

class TimeManager {
 public:
  using Clock = std::chrono::steady_clock;

  /// Computes the budget for side `us`. Call at the start of a search.
  void init(const SearchLimits& limits, Color us, i64 moveOverheadMs, Clock::time_point start);

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

}  // namespace janus
