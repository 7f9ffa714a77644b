// When an MCTS search stops: node, playout, depth and time limits, the soft time limit and smart
// pruning (docs/mcts.md "Time" and "Smart pruning"), and what the limits leave to a hint.

#include <algorithm>
#include <limits>

#include "mcts/mcts.h"

namespace janus::mcts {

bool MctsSearch::shouldStop() {
  if (stopRequested()) return true;
  if (m_limits.playouts && m_stats.playouts >= m_limits.playouts) return true;
  if (m_limits.nodes && m_stats.playouts + m_stats.hintNodes >= m_limits.nodes) return true;
  const double averageDepth = m_stats.playouts ? double(m_cumDepth) / double(m_stats.playouts) : 0.0;
  if (m_limits.depth > 0 && averageDepth >= m_limits.depth) return true;

  const int best = bestRootEdge();
  const Node* bestChild = best >= 0 ? m_root->child(best) : nullptr;
  // The root is decided: the best move mates (or wins by tablebase), or every move loses. The
  // proven child is no longer searched below, so more playouts could not change the answer
  // (this also ends "go mate N").
  if (bestChild && bestChild->isTerminal() && bestChild->terminal() != Terminal::kDraw) return true;
  if (m_limits.infinite || pondering()) return false;

  const i64 elapsed = m_time.elapsedMs();
  if (best != m_lastBest) {
    m_lastBest = best;
    m_lastBestChangeMs = elapsed;
  }
  i64 deadline = 0;
  if (m_time.enabled()) {
    if (m_allowedCount == 1) return true;  // one legal move: no need to think
    deadline = softLimitMs(bestChild);
    if (elapsed >= deadline) return true;
  }
  if (!m_params.smartPruning || !bestChild) return false;
  // Smart pruning: can the runner-up still overtake the most visited move before the deadline?
  double remaining = 1e18;
  if (m_limits.nodes || m_limits.playouts) remaining = double(playoutRoom());
  if (m_time.enabled() && elapsed >= 100) {  // nps is only known after a while
    const double nps = double(m_stats.playouts) * 1000.0 / double(elapsed);
    remaining = std::min(remaining, nps * double(deadline - elapsed) / 1000.0 / m_params.smartPruningFactor);
  }
  if (remaining >= 1e18) return false;
  // The move choice counts selection visits (playouts plus prior knowledge, betterEdge): a
  // playout whose hint weighs W adds W to a root child, so the remaining selection visits are the
  // remaining playouts times the children's selection visits gained per playout so far.
  const double bestVisits = bestChild->selectionVisits();
  double second = 0.0;
  for (int i = 0; i < m_root->numEdges(); ++i)
    if (i != best && m_allowed[size_t(i)] && m_root->child(i)) second = std::max(second, m_root->child(i)->selectionVisits());
  const double childVisits = rootChildSelectionVisits();
  const double gained = std::max(0.0, childVisits - m_rootChildVisitsAtStart);
  if (m_stats.playouts > 0 && gained > double(m_stats.playouts)) remaining *= gained / double(m_stats.playouts);
  return second + remaining < bestVisits;
}

u64 MctsSearch::nodeRoom() const {
  if (!m_limits.nodes) return std::numeric_limits<u64>::max();
  const u64 used = m_started + m_stats.hintNodes + m_hintReserved;
  return m_limits.nodes - std::min(m_limits.nodes, used);
}

u64 MctsSearch::playoutRoom() const {
  u64 room = nodeRoom();
  if (m_limits.playouts) room = std::min(room, m_limits.playouts - std::min(m_limits.playouts, m_started));
  return room;
}

i64 MctsSearch::hintTimeMs() const {
  // A hint of a later round (MCTS Hint Growth) can be large. On a clock its search ends by the
  // search's own maximum time at the latest; in an infinite analysis or while pondering after
  // kMaxOpenHintMs, so that the playouts keep coming (one thread would wait for it); a node,
  // playout or depth limit sets no time (the search stays deterministic).
  constexpr i64 kMaxOpenHintMs = 5000;
  if (m_limits.infinite || pondering()) return kMaxOpenHintMs;
  if (m_time.enabled()) return std::max<i64>(1, m_time.maximumMs() - m_time.elapsedMs());
  return 0;
}

double MctsSearch::rootChildSelectionVisits() const {
  double sum = 0.0;
  for (int i = 0; i < m_root->numEdges(); ++i)
    if (const Node* c = m_root->child(i)) sum += c->selectionVisits();
  return sum;
}

i64 MctsSearch::softLimitMs(const Node* bestChild) const {
  const i64 hard = m_time.maximumMs();
  if (m_time.optimumMs() >= hard) return hard;  // movetime: one limit
  double factor = 1.0;
  if (bestChild && m_root->visits() > 1) {
    // Visit share of the best move (the more it dominates, the less there is to decide):
    // share 0.9 -> 0.6, 0.5 -> 1.0, 0.2 -> 1.3 (Monty's and lc0's time managers use the same
    // signal; the numbers are Janus's first choice, to be tuned by SPSA).
    const double share = bestChild->selectionVisits() / std::max(1.0, m_root->selectionVisits() - 1.0);
    factor *= std::clamp(1.5 - share, 0.5, 1.5);
    // A best move that changed in the second half of the time spent so far: not settled.
    const i64 elapsed = m_time.elapsedMs();
    if (elapsed > 0 && m_lastBestChangeMs * 2 > elapsed) factor *= 1.3;
    // A falling value: the position is worse than the previous search expected.
    if (m_havePreviousQ) {
      const double drop = m_previousQ - (-bestChild->selectionQ());
      if (drop > 0.02) factor *= 1.0 + std::min(0.6, 3.0 * drop);
    }
  }
  factor = std::clamp(factor, 0.5, 2.0);
  return std::min<i64>(hard, std::max<i64>(1, i64(double(m_time.optimumMs()) * m_params.timeScale * factor)));
}

}  // namespace janus::mcts
