#include "search/tb_root.h"

#include <algorithm>

#include "tb/gaviota.h"

namespace janus {

TbRootDecision probeRootTablebases(const GaviotaTablebases* tb, const Position& root, std::vector<Move>& rootMoves) {
  TbRootDecision d;
  if (!tb || !tb->available(root)) return d;
  auto probe = tb->probeRoot(root);
  if (!probe || probe->bestMoves.empty()) return d;
  std::vector<Move> allowed;
  for (Move m : probe->bestMoves)
    if (std::find(rootMoves.begin(), rootMoves.end(), m) != rootMoves.end()) allowed.push_back(m);
  if (allowed.empty()) return d;  // searchmoves excluded every tablebase-best move
  d.tbHits = probe->moves.size();
  if (probe->dtm.wdl == TbWdl::kDraw) {
    rootMoves = allowed;  // search among the drawing moves for the one that keeps most chances
    return d;
  }
  SearchResult result;
  result.best = allowed.front();
  result.score = probe->dtm.wdl == TbWdl::kWin ? mateIn(probe->dtm.plies) : matedIn(probe->dtm.plies);
  result.depth = 1;
  Position after = root;
  after.makeMove(result.best);
  if (auto reply = tb->probeRoot(after); reply && !reply->bestMoves.empty()) result.ponder = reply->bestMoves.front();
  d.info.depth = d.info.selDepth = 1;
  d.info.score = result.score;
  d.info.tbHits = d.tbHits;
  d.info.pv = {result.best};
  if (result.ponder) d.info.pv.push_back(result.ponder);
  d.result = result;
  return d;
}

}  // namespace janus
