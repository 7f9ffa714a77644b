// Quiescence search of AlphaBetaSearch::Worker (chessprogramming wiki "Quiescence Search"):
// captures and promotions (SEE-pruned, delta-pruned) until the position is quiet; every
// evasion when in check.

#include <optional>

#include "core/movegen.h"
#include "search/alphabeta_worker.h"
#include "search/movepick.h"
#include "search/see.h"

namespace janus {

using namespace alphabeta;

template <NodeType NT>
int AlphaBetaSearch::Worker::qsearch(StackEntry* ss, int alpha, int beta) {
  constexpr bool kPvNode = NT == NodeType::kPV;
  const int ply = ss->ply;
  if (kPvNode) {
    m_pvTable[ply][0] = Move::none();
    m_selDepth = std::max(m_selDepth, ply + 1);
  }
  m_nodes.fetch_add(1, std::memory_order_relaxed);
  if (isMain()) checkLimits();
  if (aborted()) return 0;

  if (m_pos.isSearchRepetition(ply) || m_pos.isInsufficientMaterial()) return kDrawScore;
  const bool inCheck = m_pos.inCheck();
  ss->inCheck = inCheck;
  if (m_pos.isFiftyMoveDraw()) return (inCheck && !hasLegalMove(m_pos)) ? matedIn(ply) : kDrawScore;
  if (ply >= kMaxPly - 1) return inCheck ? kDrawScore : evaluate();

  const u64 key = m_pos.key();
  TTData tte;
  const bool ttHit = m_owner.m_tt.probe(key, tte);
  const int ttScore = ttHit && tte.score != kScoreNone ? scoreFromTT(tte.score, ply) : kScoreNone;
  const bool ttPv = kPvNode || (ttHit && tte.pv);
  if (!kPvNode && ttHit && ttScore != kScoreNone &&
      (u8(tte.bound) & u8(ttScore >= beta ? Bound::kLower : Bound::kUpper)))
    return ttScore;

  int bestScore, rawEval = kScoreNone, staticEval = kScoreNone, futilityBase = -kInfinite;
  if (inCheck) {
    bestScore = -kInfinite;
    ss->staticEval = kScoreNone;
  } else {
    rawEval = (ttHit && tte.eval != kScoreNone) ? tte.eval : evaluate();
    staticEval = correctedEval(rawEval);
    ss->staticEval = staticEval;
    bestScore = staticEval;
    if (ttScore != kScoreNone && (u8(tte.bound) & u8(ttScore > bestScore ? Bound::kLower : Bound::kUpper)))
      bestScore = ttScore;
    if (bestScore >= beta) {
      if (!ttHit)
        m_owner.m_tt.store(key, scoreToTT(bestScore, ply), rawEval, Move::none(), -1, Bound::kLower, false);
      return bestScore;
    }
    alpha = std::max(alpha, bestScore);
    futilityBase = staticEval + tunables::QsFutilityMargin;
  }

  const PieceToHistory* contHist[3] = {(ss - 1)->contHist, (ss - 2)->contHist, (ss - 4)->contHist};
  MovePicker mp(m_pos, ttHit ? tte.move : Move::none(), *m_hist, contHist);
  Move bestMove = Move::none();
  int moveCount = 0;
  std::optional<CheckInfo> checkInfo;  // made for the first move that needs it
  while (Move m = mp.next()) {
    ++moveCount;
    if (bestScore > -kTbWinInMaxPly) {
      if (!inCheck) {
        if (m.isPromotion() && m.promotion() != kQueen) continue;
        // Delta pruning: even winning the captured piece cannot lift the score to alpha.
        if (!m.isPromotion() && !m_pos.givesCheck(m, checkInfo ? *checkInfo : *(checkInfo = m_pos.checkInfo()))) {
          int gain = tunables::seeValue(capturedType(m_pos, m));
          if (futilityBase + gain <= alpha) {
            bestScore = std::max(bestScore, futilityBase + gain);
            continue;
          }
        }
        if (!seeGe(m_pos, m, 0)) continue;
      } else if (moveCount > 2 && !m_pos.isNoisy(m)) {
        break;  // in check with a non-losing evasion found: skip the remaining quiet evasions
      }
    }
    makeMove(ss, m);
    int score = -qsearch<NT>(ss + 1, -beta, -alpha);
    unmakeMove(m);
    if (aborted()) return 0;
    if (score > bestScore) {
      bestScore = score;
      if (score > alpha) {
        bestMove = m;
        if (kPvNode) updatePv(ply, m);
        if (score >= beta) break;
        alpha = score;
      }
    }
  }
  if (inCheck && moveCount == 0) return matedIn(ply);

  Bound bound = bestScore >= beta ? Bound::kLower : Bound::kUpper;
  m_owner.m_tt.store(key, scoreToTT(bestScore, ply), rawEval, bestMove, 0, bound, ttPv);
  return bestScore;
}

// search() (alphabeta_search.cpp) calls both.
template int AlphaBetaSearch::Worker::qsearch<NodeType::kPV>(StackEntry*, int, int);
template int AlphaBetaSearch::Worker::qsearch<NodeType::kNonPV>(StackEntry*, int, int);

}  // namespace janus
