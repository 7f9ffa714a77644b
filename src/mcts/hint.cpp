// When an MCTS node asks for an alpha-beta hint and what the hint may spend (src/mcts/backend.h
// "Alpha-beta hints"; MCTS-IP-M of Baier and Winands, IEEE TCIAIG 2015).

#include <algorithm>
#include <limits>

#include "mcts/mcts.h"

namespace janus::mcts {

bool MctsSearch::hintDue(const Node& node) const {
  if (m_backendHintVisits == 0) return false;
  const int round = node.hints();
  if (round > 0 && m_backendHintGrowth < 2) return false;  // hinted once: done
  // hintVisits * growth^round, counted in playouts plus prior knowledge (Node::selectionVisits):
  // a node whose subtree's hints carry weight is one the tree relies on, and asks again sooner
  // (the schedule the hint weights were measured with; on playouts alone the face loses, see
  // docs/lab/mcts-log.md "N counts playouts").
  double threshold = m_backendHintVisits;
  for (int k = 0; k < round && threshold < 1e18; ++k) threshold *= m_backendHintGrowth;
  return node.selectionVisits() >= threshold;
}

HintRequest MctsSearch::hintRequest(int round) const {
  HintRequest r;
  r.round = round;
  r.signals = m_signals;
  // A hint of a later round (MCTS Hint Growth) can be large. On a clock its search ends by the
  // search's own maximum time at the latest; in an infinite analysis or while pondering after
  // kMaxOpenHintMs, so that the visits keep growing (one thread would wait for it); a node or
  // depth limit sets no time (the search stays deterministic).
  constexpr i64 kMaxOpenHintMs = 5000;
  if (m_limits.infinite || pondering())
    r.maxMs = kMaxOpenHintMs;
  else if (m_time.enabled())
    r.maxMs = std::max<i64>(1, m_time.maximumMs() - m_time.elapsedMs());
  return r;
}

u32 MctsSearch::hintVisitWeight(int round) const {
  constexpr u64 kMaxWeight = u64(1) << 31;
  u64 w = std::max<u32>(m_params.hintWeight, 1);
  for (int k = 0; k < round && w < kMaxWeight; ++k) w *= std::max<u32>(m_params.hintWeightGrowth, 1);
  return u32(std::min(w, kMaxWeight));
}
}  // namespace janus::mcts
