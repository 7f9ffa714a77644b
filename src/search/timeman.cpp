#include "search/timeman.h"

#include <algorithm>

#include "search/tunables.h"

namespace janus {

void TimeManager::init(const SearchLimits& limits, Color us, i64 moveOverheadMs, Clock::time_point start) {
  m_start = start;
  m_enabled = false;
  if (limits.infinite) return;
  if (limits.moveTime >= 0) {
    m_enabled = true;
    m_optimum = m_maximum = std::max<i64>(1, limits.moveTime - moveOverheadMs);
    return;
  }
  if (limits.time[us] < 0) return;
  m_enabled = true;
  i64 time = limits.time[us], inc = std::max<i64>(0, limits.inc[us]);
  int mtg = limits.movesToGo > 0 ? std::min(limits.movesToGo, 50) : tunables::MovesToGoDefault;
  // Never plan with more than what is left after the overhead of the remaining moves.
  i64 usable = std::max<i64>(1, time - moveOverheadMs * std::min(mtg, 10));
  i64 base = usable / mtg + inc * 3 / 4;
  m_optimum = std::min<i64>(base * tunables::TimeOptimumX100 / 100, usable * 6 / 10);
  m_maximum = std::min<i64>(m_optimum * tunables::TimeMaximumX100 / 100, usable * 8 / 10);
  if (mtg == 1) m_maximum = std::min<i64>(std::max(m_maximum, usable * 7 / 10), usable * 8 / 10);
  m_optimum = std::max<i64>(1, m_optimum);
  m_maximum = std::max<i64>(m_optimum, m_maximum);
}

}  // namespace janus
