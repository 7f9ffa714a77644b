#pragma once
// Human-readable breakdown of the HCE evaluation (`janus eval`).

#include <string>

#include "core/position.h"
#include "eval/weights.h"

namespace janus {

/// The evaluation of `pos` with weights `w`, term by term: for each term group (weights.h,
/// TermGroup) the White, Black and White-minus-Black values as mg/eg pairs and tapered
/// centipawns, then the king attack units, the game phase, the endgame scale factor and the total
/// in centipawns from White's and from the side to move's view. With `details`, also every weight
/// entry with a non-zero coefficient (entry name, coefficients for White and Black, weight).
/// Lines end in '\n'.
[[nodiscard]] std::string formatEvalReport(const Position& pos, const EvalWeights& w, bool details = false);

}  // namespace janus
