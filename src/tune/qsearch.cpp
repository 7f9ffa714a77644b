#include "tune/qsearch.h"

#include <algorithm>
#include <array>

#include "core/movegen.h"

namespace janus::tune {

namespace {

constexpr int kInfinity = 32000;
constexpr int kOrderValue[6] = {1, 3, 3, 5, 9, 0};  // MVV-LVA piece values (pawn units)

struct Pv {
  std::array<Move, kMaxQsearchPly + 1> moves{};
  int length = 0;
};

int qsearch(Position& pos, HceEvaluator& eval, int alpha, int beta, int ply, Pv& pv) {
  pv.length = 0;
  const int standPat = eval.evaluate(pos);
  if (ply >= kMaxQsearchPly || standPat >= beta) return standPat;
  alpha = std::max(alpha, standPat);

  MoveList list;
  generateMoves(pos, list, GenType::kNoisy);
  std::array<std::pair<int, Move>, kMaxMoves> ordered;
  int n = 0;
  for (Move m : list) {
    const int victim = m.isEnPassant() ? kOrderValue[kPawn] : pos.empty(m.to()) ? 0 : kOrderValue[typeOf(pos.pieceOn(m.to()))];
    const int promo = m.isPromotion() ? kOrderValue[m.promotion()] : 0;
    ordered[n++] = {16 * (victim + promo) - kOrderValue[typeOf(pos.movedPiece(m))], m};
  }
  // Stable: equal keys keep generation order, so the result is deterministic.
  std::stable_sort(ordered.begin(), ordered.begin() + n, [](const auto& a, const auto& b) { return a.first > b.first; });

  Pv child;
  for (int i = 0; i < n; ++i) {
    const Move m = ordered[i].second;
    pos.makeMove(m);
    const int score = -qsearch(pos, eval, -beta, -alpha, ply + 1, child);
    pos.unmakeMove(m);
    if (score > alpha) {
      alpha = score;
      pv.moves[0] = m;
      std::copy(child.moves.begin(), child.moves.begin() + child.length, pv.moves.begin() + 1);
      pv.length = child.length + 1;
      if (alpha >= beta) break;
    }
  }
  return alpha;
}

}  // namespace

Position quiescenceLeaf(const Position& pos, HceEvaluator& evaluator) {
  Position work = pos;
  Pv pv;
  (void)qsearch(work, evaluator, -kInfinity, kInfinity, 0, pv);
  for (int i = 0; i < pv.length; ++i) work.makeMove(pv.moves[i]);
  return work;
}

}  // namespace janus::tune
