#pragma once
// Quiet leaf of a position for tuning (`janus tune --qsearch`): the position at the end of the
// principal variation of a captures-and-promotions quiescence search with the static evaluation
// (stand pat, fail-hard alpha-beta, MVV-LVA order, at most kMaxQsearchPly plies; checks are not
// treated specially). Tuning on the leaf instead of the position itself removes pending capture
// sequences, as recommended for Texel tuning (chessprogramming wiki "Texel's Tuning Method";
// A. Grant, "Evaluation & Tuning in Chess Engines", 2020).

#include "core/position.h"
#include "eval/hce.h"

namespace janus::tune {

inline constexpr int kMaxQsearchPly = 32;

/// The quiet leaf of `pos` under `evaluator` (the position itself if standing pat is best).
[[nodiscard]] Position quiescenceLeaf(const Position& pos, HceEvaluator& evaluator);

}  // namespace janus::tune
