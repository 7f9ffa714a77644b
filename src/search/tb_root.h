#pragma once
// Root tablebase decision shared by both searches (alpha-beta and MCTS): with a won or lost
// position in the Gaviota tablebases the DTM-best move is played without searching; with a
// drawn one the search is narrowed to the drawing moves.

#include <optional>
#include <vector>

#include "search/search.h"

namespace janus {

class GaviotaTablebases;

/// What probing the root gave.
struct TbRootDecision {
  std::optional<SearchResult> result;  ///< a win or a loss: play result.best (mate score by DTM)
  SearchInfo info;                     ///< the info line to report with `result` (depth 1, pv, tbHits)
  u64 tbHits = 0;                      ///< positions probed (0 when the root was not probed)
};

/// Probes `root` when `tb` covers it. On a draw, `rootMoves` becomes the drawing moves (among
/// those given) and no result is returned; on a win or loss the result's move is the first
/// DTM-best move allowed by `rootMoves`, its ponder move the reply's best move. Nothing happens
/// when `tb` is null, the position is not covered, or `rootMoves` excludes every best move.
[[nodiscard]] TbRootDecision probeRootTablebases(const GaviotaTablebases* tb, const Position& root,
                                                 std::vector<Move>& rootMoves);

}  // namespace janus
