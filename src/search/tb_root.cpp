#include "search/tb_root.h"

#include <algorithm>

#include "tb/tablebases.h"

namespace janus {

TbRootDecision probeRootTablebases(const Tablebases* tb, const Position& root, std::vector<Move>& rootMoves) {
  TbRootDecision d;
  if (!tb || !tb->covers(root)) return d;
  auto verdict = tb->rootVerdict(root);
  if (!verdict || verdict->moves.empty()) return d;
  std::vector<Move> allowed;
  for (Move m : verdict->moves)
    if (std::find(rootMoves.begin(), rootMoves.end(), m) != rootMoves.end()) allowed.push_back(m);
  if (allowed.empty()) return d;  // searchmoves excluded every move the tables keep
  d.tbHits = verdict->probes;
  if (verdict->wdl == TbWdl::kDraw || !verdict->matePlies) {
    // Search among the moves that keep the value for the one that keeps most chances (draws)
    // or makes progress (wins without a mate distance).
    rootMoves = allowed;
    if (verdict->countsFiftyMoveRule) {
      const int score = tbWinIn(std::min(verdict->dtzPlies, kMaxPly - 1));
      d.rootScore = verdict->wdl == TbWdl::kWin ? score : verdict->wdl == TbWdl::kLoss ? -score : kDrawScore;
    }
    return d;
  }
  const int plies = *verdict->matePlies;
  SearchResult result;
  result.best = allowed.front();
  result.score = verdict->wdl == TbWdl::kWin ? mateIn(plies) : matedIn(plies);
  result.depth = 1;
  Position after = root;
  after.makeMove(result.best);
  if (auto reply = tb->rootVerdict(after); reply && !reply->moves.empty()) result.ponder = reply->moves.front();
  d.info.depth = d.info.selDepth = 1;
  d.info.score = result.score;
  d.info.tbHits = d.tbHits;
  d.info.pv = {result.best};
  if (result.ponder) d.info.pv.push_back(result.ponder);
  d.result = result;
  return d;
}

}  // namespace janus
