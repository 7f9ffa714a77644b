#include "search/timeman.h"

#include <algorithm>

#include "search/tunables.h"

namespace janus {

i64 TimeManager::reserveMs(i64 incMs, i64 moveOverheadMs) {
  return std::max(std::max<i64>(0, incMs) * 3, 5 * moveOverheadMs);
}

void TimeManager::init(const SearchLimits& limits, Color us, i64 moveOverheadMs, Clock::time_point start) {
  m_start = limits.startTime ? *limits.startTime : start;
  m_enabled = false;
  if (limits.infinite) return;
  if (limits.moveTime >= 0) {
    m_enabled = true;
    m_optimum = m_maximum = std::max<i64>(1, limits.moveTime - moveOverheadMs);
    return;
  }
  if (limits.time[us] < 0) return;
  m_enabled = true;
  const i64 time = limits.time[us], inc = std::max<i64>(0, limits.inc[us]);
  const int mtg = limits.movesToGo > 0 ? std::min(limits.movesToGo, 50) : tunables::MovesToGoDefault;
  // The hard ceiling: what the clock holds after this move's overhead.
  const i64 avail = std::max<i64>(1, time - moveOverheadMs);
  // Plan only with the clock above the reserve. Below it a move is planned at three quarters of
  // the increment at most, so the clock grows back instead of sinking further.
  const i64 usable = std::max<i64>(0, avail - reserveMs(inc, moveOverheadMs));
  const i64 incShare = inc * 3 / 4;
  m_optimum = std::min<i64>((usable / mtg + incShare) * tunables::TimeOptimumX100 / 100, usable * 6 / 10 + incShare);
  m_maximum = std::min<i64>(m_optimum * tunables::TimeMaximumX100 / 100, usable * 8 / 10 + incShare);
  if (mtg == 1) m_maximum = std::max(m_maximum, usable * 7 / 10);
  m_maximum = std::min(m_maximum, avail * 8 / 10);
  m_optimum = std::clamp<i64>(m_optimum, 1, std::max<i64>(1, m_maximum));
  m_maximum = std::max<i64>(m_optimum, m_maximum);
}

void LagEstimator::onGo(Color us, int gamePly, i64 clockMs, i64 incMs, Clock::time_point receivedAt) {
  if (m_havePrevious && m_haveBestMove && us == m_color && gamePly == m_ply + 2) {
    const i64 charged = m_clockMs + m_incMs - clockMs;
    const i64 own = std::chrono::duration_cast<std::chrono::milliseconds>(m_sentAt - m_receivedAt).count();
    const i64 lag = charged - own;
    if (lag >= 0 && lag < 60000) m_lagMs = std::max(lag, m_lagMs * 9 / 10);
  }
  m_havePrevious = true;
  m_haveBestMove = false;
  m_color = us;
  m_ply = gamePly;
  m_clockMs = clockMs;
  m_incMs = std::max<i64>(0, incMs);
  m_receivedAt = receivedAt;
}

void LagEstimator::onBestMove(Clock::time_point sentAt) {
  m_sentAt = sentAt;
  m_haveBestMove = true;
}

}  // namespace janus
