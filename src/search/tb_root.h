#pragma once
// Root tablebase decision shared by both searches (alpha-beta and MCTS) and both table kinds
// (tb/tablebases.h): a won or lost root whose distance to mate the tables know (Gaviota DTM) is
// answered at once with the DTM-best move; otherwise (Syzygy, or a drawn root) the search is
// narrowed to the moves that keep the tables' value: in a won root the wins that still come in
// time for the 50-move rule (Syzygy DTZ rank), in a drawn root the drawing moves, in a lost root
// the moves that lose slowest.

#include <optional>
#include <vector>

#include "search/search.h"

namespace janus {

class Tablebases;

/// What probing the root gave.
struct TbRootDecision {
  std::optional<SearchResult> result;  ///< won/lost with a known mate distance: play result.best (mate score)
  SearchInfo info;                     ///< the info line to report with `result` (depth 1, pv, tbHits)
  u64 tbHits = 0;                      ///< positions probed (0 when the root was not probed)
  /// Root decided by tables that count the 50-move rule (Syzygy) without a mate distance: the
  /// score the search reports unless it finds a mate itself: tbWinIn(DTZ plies) for a win, its
  /// negation for a loss (score.h: the band below the mates), kDrawScore for a draw.
  std::optional<int> rootScore;
};

/// Probes `root` when `tb` covers it. When `result` is not set but the root was probed,
/// `rootMoves` becomes the moves that keep the tables' value (among those given). On a result its
/// move is the first DTM-best move allowed by `rootMoves`, its ponder move the reply's best move.
/// Nothing happens when `tb` is null, the position is not covered, or `rootMoves` excludes every
/// move the tables keep.
[[nodiscard]] TbRootDecision probeRootTablebases(const Tablebases* tb, const Position& root, std::vector<Move>& rootMoves);

}  // namespace janus
