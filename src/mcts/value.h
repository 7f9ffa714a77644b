#pragma once
// Conversions between the MCTS value scale and the centipawns UCI expects.
//
// The search keeps values as Q = P(win) - P(loss) in [-1, 1] from the side to move's view. UCI
// "score cp" is shown through Leela Chess Zero's mapping (lc0 src/search/classic/search.cc,
// "cp = 111.714640912 * tan(1.5620688421 * q)"; the Lc0 FAQ "How does Lc0 calculate the cp
// eval?" tabulates it: Q 0.1 -> 18 cp, 0.5 -> 111 cp, 0.8 -> 336 cp, 0.9 -> 671 cp). It is clamped to
// the centipawn range of search/score.h so that it never collides with mate scores.

#include <algorithm>
#include <cmath>

#include "search/score.h"

namespace janus::mcts {

inline constexpr double kCpScale = 111.714640912;
inline constexpr double kCpSlope = 1.5620688421;

/// Centipawns for Q in [-1, 1] (side to move's view), clamped to +-kEvalMax.
[[nodiscard]] inline int qToCentipawns(double q) {
  q = std::clamp(q, -1.0, 1.0);
  const double cp = kCpScale * std::tan(kCpSlope * q);  // finite: kCpSlope < pi / 2
  return int(std::lround(std::clamp(cp, -double(kEvalMax), double(kEvalMax))));
}

/// The inverse: Q in (-1, 1) for a centipawn score.
[[nodiscard]] inline double centipawnsToQ(double cp) { return std::atan(cp / kCpScale) / kCpSlope; }

}  // namespace janus::mcts
