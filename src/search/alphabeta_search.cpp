// The main alpha-beta search of AlphaBetaSearch::Worker: search() and its phases, and the
// history updates. Step map of search():
//   1. node bookkeeping, stop check      7. null move pruning
//   2. draws, mate distance pruning      8. probcut
//   3. transposition table probe         9. internal iterative reduction
//      (3b. tablebase WDL probe)        10. move loop: pruning, extensions, LMR/PVS
//   4. static evaluation, improving     11. mate/stalemate, history updates
//   5. razoring                         12. transposition table store
//   6. reverse futility pruning
// Steps 3, 3b, 4, 5-8, the per-move pruning and extensions of step 10, and step 11 are functions
// of their own (alphabeta_worker.h). Techniques: chessprogramming wiki pages of the same names.

#include "core/movegen.h"
#include "search/alphabeta_worker.h"
#include "search/movepick.h"
#include "search/see.h"

namespace janus {

using namespace alphabeta;

template <NodeType NT>
int AlphaBetaSearch::Worker::search(StackEntry* ss, int alpha, int beta, int depth, bool cutNode) {
  constexpr bool kRoot = NT == NodeType::kRoot;
  constexpr bool kPvNode = NT != NodeType::kNonPV;
  NodeState n;
  n.ply = ss->ply;
  const int ply = n.ply;

  if (depth <= 0) return qsearch<kPvNode ? NodeType::kPV : NodeType::kNonPV>(ss, alpha, beta);

  // Step 1. Bookkeeping.
  if (kPvNode) m_pvTable[ply][0] = Move::none();
  m_nodes.fetch_add(1, std::memory_order_relaxed);
  if (isMain()) checkLimits();
  if (aborted()) return 0;
  if (kPvNode) m_selDepth = std::max(m_selDepth, ply + 1);
  n.inCheck = m_pos.inCheck();
  ss->inCheck = n.inCheck;
  (ss + 1)->killers[0] = (ss + 1)->killers[1] = Move::none();
  (ss + 1)->excludedMove = Move::none();
  (ss + 2)->killers[0] = (ss + 2)->killers[1] = Move::none();
  (ss + 2)->cutoffCount = 0;
  ss->moveCount = 0;  // ProbCut's and the null move's children see no move count

  // Step 2. Draws and mate distance pruning.
  if (!kRoot) {
    if (m_pos.isSearchRepetition(ply) || m_pos.isInsufficientMaterial()) return kDrawScore;
    if (m_pos.isFiftyMoveDraw()) return (n.inCheck && !hasLegalMove(m_pos)) ? matedIn(ply) : kDrawScore;
    if (ply >= kMaxPly - 1) return n.inCheck ? kDrawScore : evaluate();
    alpha = std::max(matedIn(ply), alpha);
    beta = std::min(mateIn(ply + 1), beta);
    if (alpha >= beta) return alpha;
  }

  // Step 3. Transposition table.
  if (auto v = probeTranspositionTable<NT>(ss, n, beta, depth)) return *v;

  // Step 3b. Endgame tablebases.
  int tbFloor = -kInfinite, tbCeiling = kInfinite;  // PV nodes: range proven by the tablebases
  if (!kRoot && !n.excluded)
    if (auto v = probeTablebases<NT>(ss, n, alpha, beta, depth, tbFloor, tbCeiling)) return *v;

  // Step 4. Static evaluation.
  evaluateNode(ss, n);

  // Steps 5-8. Node pruning.
  if (!kPvNode && !n.inCheck && !n.excluded)
    if (auto v = pruneNode(ss, n, alpha, beta, depth, cutNode)) return *v;

  // Step 9. Internal iterative reduction: no TT move, so this node was not searched before. A PV
  // node loses three plies and drops into quiescence when none is left (Stockfish 15.1); a cut
  // node loses one.
  if (!kRoot && !n.excluded && !n.ttMove) {
    if (kPvNode) {
      depth -= 3;
      if (depth <= 0) return qsearch<NodeType::kPV>(ss, alpha, beta);
    } else if (cutNode && depth >= tunables::IirMinDepth) {
      --depth;
    }
  }

  // Step 10. The move loop.
  const PieceToHistory* contHist[3] = {(ss - 1)->contHist, (ss - 2)->contHist, (ss - 4)->contHist};
  Move counter = Move::none();
  if (Move prev = (ss - 1)->currentMove; prev && prev != Move::null())
    counter = m_hist->counter[(ss - 1)->movedPiece][prev.to()];
  MovePicker mp(m_pos, n.ttMove, ss->killers, counter, *m_hist, contHist);

  const Color us = m_pos.sideToMove();
  int bestScore = tbFloor, moveCount = 0, quietCount = 0, captureCount = 0;
  Move bestMove = Move::none();
  Move quiets[64], captures[32];
  const bool ttNoisy = n.ttMove && m_pos.isNoisy(n.ttMove);
  const CheckInfo checkInfo = m_pos.checkInfo();
  // A PV node whose TT entry is an upper bound from this depth or deeper will likely fail low
  // (Stockfish 15.1's likelyFailLow).
  const bool likelyFailLow = kPvNode && n.ttMove && n.ttHit && (u8(n.tte.bound) & u8(Bound::kUpper)) &&
                             n.tte.depth >= depth;
  bool singularQuietLmr = false;  // the quiet TT move was singular: reduce the others one ply less

  while (Move m = mp.next()) {
    if (m == n.excluded) continue;
    if (kRoot && std::find_if(m_rootMoves.begin() + m_pvIdx, m_rootMoves.end(),
                              [m](const RootMove& rm) { return rm.move == m; }) == m_rootMoves.end())
      continue;
    ++moveCount;
    const bool noisy = m_pos.isNoisy(m);
    const bool givesCheck = m_pos.givesCheck(m, checkInfo);
    const Piece moved = m_pos.movedPiece(m);
    const int history = noisy ? 0
                              : m_hist->main[us][m.from() * 64 + m.to()] + contHist[0]->get(moved, m.to()) +
                                    contHist[1]->get(moved, m.to());

    // Shallow-depth pruning (never before a move has proved we are not getting mated).
    if (!kRoot && bestScore > -kTbWinInMaxPly && m_pos.hasNonPawnMaterial(us) &&
        pruneMove(n, m, depth, moveCount, alpha, noisy, givesCheck, history))
      continue;

    std::optional<int> cutoff;
    bool singular = false;
    const int ext = extension<NT>(ss, n, m, depth, beta, cutNode, givesCheck, cutoff, singular);
    if (cutoff) return *cutoff;
    if (singular) singularQuietLmr = !ttNoisy && !likelyFailLow;
    (ss + 1)->doubleExtensions = ss->doubleExtensions + (ext >= 2);
    const int newDepth = depth - 1 + ext;

    ss->moveCount = moveCount;  // after extension(): its singular search reuses this entry
    makeMove(ss, m);
    int score = -kInfinite;
    // A child searched only with a null window (a fail high) leaves no PV of its own: without
    // this, updatePv would copy a sibling's stale line (illegal here, or running past a mate).
    if (kPvNode) m_pvTable[ply + 1][0] = Move::none();

    // Late move reductions, then principal variation search. One more ply when the replies at
    // the next ply have failed high often (Stockfish 16's cutoffCnt); one less when the
    // opponent's move that led here was a late one of its node (Stockfish 15.1: that node is
    // likely to fail low, so this one is likely to fail high and needs its moves searched well);
    // one less for the other moves when the quiet TT move was singular and the node is not
    // likely to fail low (Stockfish 15.1's singularQuietLMR).
    if (depth >= 2 && moveCount > 1 + (kRoot ? 1 : 0) && (!noisy || !ss->ttPv)) {
      int r = reduction(depth, moveCount) - kPvNode - (ss->ttPv && !kPvNode) + cutNode + !n.improving +
              (ttNoisy && !noisy) - givesCheck - (noisy ? 0 : history / tunables::LmrHistoryDivisor) +
              ((ss + 1)->cutoffCount > 3) -  // the replies keep failing high: this node will fail low
              ((ss - 1)->moveCount > tunables::LmrPrevMoveCount) -
              singularQuietLmr;
      int d = std::clamp(newDepth - r, 1, newDepth + 1);
      score = -search<NodeType::kNonPV>(ss + 1, -(alpha + 1), -alpha, d, true);
      if (score > alpha && d < newDepth) {
        // The reduced search failed high: re-search at full depth, one ply deeper when it beat
        // alpha by far, one ply shallower when it barely beat the best so far; the result
        // grades the move in the continuation history (Stockfish 15.1's LMR re-search).
        const int full = newDepth +
                         (score > alpha + tunables::LmrDeeperBase + tunables::LmrDeeperPerDepth * (newDepth - d)) -
                         (score < bestScore + newDepth);
        if (full > d) score = -search<NodeType::kNonPV>(ss + 1, -(alpha + 1), -alpha, full, !cutNode);
        const int bonus = (score > alpha ? 1 : -1) * historyBonus(full) / (noisy ? 6 : 1);
        updateContinuation(ss, moved, m.to(), bonus);
      }
    } else if (!kPvNode || moveCount > 1) {
      score = -search<NodeType::kNonPV>(ss + 1, -(alpha + 1), -alpha, newDepth, !cutNode);
    }
    if (kPvNode && (moveCount == 1 || (score > alpha && (kRoot || score < beta))))
      score = -search<NodeType::kPV>(ss + 1, -beta, -alpha, newDepth, false);

    unmakeMove(m);
    if (aborted()) return 0;
    if (kRoot) updateRootMove(m, score, alpha, beta, moveCount);

    if (score > bestScore) {
      bestScore = score;
      if (score > alpha) {
        bestMove = m;
        if (kPvNode && !kRoot) updatePv(ply, m);
        if (score >= beta) {
          ss->cutoffCount += 1 + !n.ttMove;
          break;
        }
        alpha = score;
      }
    }
    if (m != bestMove) {
      if (noisy && captureCount < 32)
        captures[captureCount++] = m;
      else if (!noisy && quietCount < 64)
        quiets[quietCount++] = m;
    }
  }

  // Step 11. No legal move: mate or stalemate. Otherwise reward the move that cut off.
  if (moveCount == 0)
    bestScore = n.excluded ? alpha : n.inCheck ? matedIn(ply) : kDrawScore;
  else if (bestMove && bestScore >= beta)
    updateCutoffStats(ss, bestMove, depth, quiets, quietCount, captures, captureCount);
  else if (!bestMove && !kRoot && (depth >= 5 || kPvNode))
    rewardPriorQuietMove(ss, n, depth, alpha, cutNode, kPvNode);

  if (kPvNode) bestScore = std::min(bestScore, tbCeiling);

  // Step 12. Store, and teach the correction history how far the search moved from the static
  // evaluation: only when the best move is quiet (a capture's gain is not the evaluation's
  // error) and the bound says the true score lies on the side of the difference.
  if (!n.excluded) {
    Bound bound = bestScore >= beta ? Bound::kLower : (kPvNode && bestMove) ? Bound::kExact : Bound::kUpper;
    m_owner.m_tt.store(n.key, scoreToTT(bestScore, ply), n.rawEval, bestMove, depth, bound, ss->ttPv);
    if (!n.inCheck && (!bestMove || !m_pos.isNoisy(bestMove)) &&
        !(bound == Bound::kLower && bestScore <= n.staticEval) && !(bound == Bound::kUpper && bestScore >= n.staticEval))
      m_hist->correction.update(m_pos, bestScore - n.staticEval, depth);
  }
  return bestScore;
}

// Step 3. The transposition table probe: fills the TT fields of `n`; returns the TT score when
// it decides a non-PV node (a deep enough entry whose bound allows a cutoff).
template <NodeType NT>
std::optional<int> AlphaBetaSearch::Worker::probeTranspositionTable(StackEntry* ss, NodeState& n, int beta,
                                                                    int depth) {
  constexpr bool kPvNode = NT != NodeType::kNonPV;
  n.excluded = ss->excludedMove;
  n.key = m_pos.key();
  n.ttHit = !n.excluded && m_owner.m_tt.probe(n.key, n.tte);
  n.ttScore = n.ttHit && n.tte.score != kScoreNone ? scoreFromTT(n.tte.score, n.ply) : kScoreNone;
  n.ttMove = NT == NodeType::kRoot ? m_rootMoves[m_pvIdx].move : n.ttHit ? n.tte.move : Move::none();
  ss->ttPv = n.excluded ? ss->ttPv : (kPvNode || (n.ttHit && n.tte.pv));
  if (!n.excluded) ss->ttHit = n.ttHit;  // a singular search keeps the node's own

  if (!kPvNode && n.ttHit && n.tte.depth >= depth && n.ttScore != kScoreNone &&
      (u8(n.tte.bound) & u8(n.ttScore >= beta ? Bound::kLower : Bound::kUpper))) {
    // History updates of a TT cutoff (Stockfish 15.1): a quiet TT move that fails high gets the
    // cutoff bonus, and the previous ply's quiet move, when it was one of the first two tried,
    // an extra malus; a quiet TT move that fails low gets a malus.
    if (n.ttMove && !m_pos.isNoisy(n.ttMove) && m_pos.isLegal(n.ttMove)) {
      if (n.ttScore >= beta) {
        updateQuietStats(ss, n.ttMove, historyBonus(depth), nullptr, 0);
        if ((ss - 1)->moveCount <= 2) penalisePriorQuietMove(ss, historyBonus(depth + 1));
      } else {
        updateQuietHistory(ss, n.ttMove, -historyBonus(depth));
      }
    }
    if (m_pos.halfmoveClock() < 90) return n.ttScore;
  }
  return std::nullopt;
}

// Step 3b. Endgame tablebases (WDL), probed right after a capture or pawn move, where the
// material just changed and the 50-move counter is zero (Syzygy WDL tables assume a fresh
// counter; with Syzygy50MoveRule a cursed win is a draw). The backend may decline shallow nodes
// (Gaviota reads only cached blocks below depth 3; Syzygy probes from SyzygyProbeDepth on).
// Wins and losses score in the tablebase band below the mates (score.h: kTbWin - ply).
template <NodeType NT>
std::optional<int> AlphaBetaSearch::Worker::probeTablebases(StackEntry* ss, const NodeState& n, int& alpha, int beta,
                                                            int depth, int& tbFloor, int& tbCeiling) {
  constexpr bool kPvNode = NT != NodeType::kNonPV;
  const Tablebases* tb = m_owner.m_tb;
  if (!tb || m_pos.halfmoveClock() != 0 || popCount(m_pos.pieces()) > m_owner.m_tbLimit || !tb->covers(m_pos))
    return std::nullopt;
  auto wdl = tb->searchWdl(m_pos, depth);
  if (!wdl) return std::nullopt;
  m_tbHits.fetch_add(1, std::memory_order_relaxed);
  int v = *wdl == TbWdl::kWin ? tbWinIn(n.ply) : *wdl == TbWdl::kLoss ? -tbWinIn(n.ply) : kDrawScore;
  Bound b = *wdl == TbWdl::kWin ? Bound::kLower : *wdl == TbWdl::kLoss ? Bound::kUpper : Bound::kExact;
  if (b == Bound::kExact || (b == Bound::kLower ? v >= beta : v <= alpha)) {
    m_owner.m_tt.store(n.key, scoreToTT(v, n.ply), kScoreNone, Move::none(), std::min(depth + 6, kMaxPly - 1), b,
                       ss->ttPv);
    return v;
  }
  // In PV nodes the search goes on for a PV, but its score cannot leave the proven range.
  if (kPvNode) {
    if (b == Bound::kLower) {
      tbFloor = v;
      alpha = std::max(alpha, v);
    } else {
      tbCeiling = v;
    }
  }
  return std::nullopt;
}

void AlphaBetaSearch::Worker::evaluateNode(StackEntry* ss, NodeState& n) {
  if (n.inCheck) {
    n.staticEval = n.eval = ss->staticEval = kScoreNone;
  } else if (n.excluded) {
    n.staticEval = n.eval = ss->staticEval;  // same position as the parent call
  } else {
    n.rawEval = n.ttHit && n.tte.eval != kScoreNone ? n.tte.eval : evaluate();
    if (!n.ttHit)
      m_owner.m_tt.store(n.key, kScoreNone, n.rawEval, Move::none(), -TranspositionTable::kDepthOffset,
                         Bound::kNone, ss->ttPv);
    n.staticEval = correctedEval(n.rawEval);
    n.eval = ss->staticEval = n.staticEval;
    // A TT score is a better estimate than the static evaluation when its bound allows.
    if (n.ttScore != kScoreNone && (u8(n.tte.bound) & u8(n.ttScore > n.eval ? Bound::kLower : Bound::kUpper)))
      n.eval = n.ttScore;
  }
  if (!n.inCheck) {
    int past = (ss - 2)->staticEval != kScoreNone ? (ss - 2)->staticEval : (ss - 4)->staticEval;
    n.improving = past == kScoreNone || n.staticEval > past;
  }
}

std::optional<int> AlphaBetaSearch::Worker::pruneNode(StackEntry* ss, const NodeState& n, int alpha, int beta,
                                                      int depth, bool cutNode) {
  const int eval = n.eval, staticEval = n.staticEval, ply = n.ply;

  // Step 5. Razoring: hopeless positions at low depth go straight to quiescence.
  if (depth <= 3 && eval + tunables::RazorBase + tunables::RazorPerDepthSq * depth * depth < alpha) {
    int v = qsearch<NodeType::kNonPV>(ss, alpha - 1, alpha);
    if (v < alpha) return v;
  }

  // Step 6. Reverse futility pruning.
  if (depth <= tunables::RfpMaxDepth && eval < kTbWinInMaxPly &&
      eval - tunables::RfpMargin * depth + (n.improving ? tunables::RfpImprovingMargin : 0) >= beta)
    return (eval + beta) / 2;

  // Step 7. Null move pruning with a zugzwang guard (only with pieces) and verification.
  // R = 4 + depth / 3 + min((eval - beta) / 137, 6): Stockfish's `std::min(int(eval - beta) / 173,
  // 6) + depth / 3 + 4` (its 2022-23 source), the divisor scaled to 100 cp a pawn from its 126.
  if (depth >= tunables::NmpMinDepth && eval >= beta && staticEval >= beta && (ss - 1)->currentMove != Move::null() &&
      ply >= m_nmpMinPly && m_pos.hasNonPawnMaterial(m_pos.sideToMove()) && beta > -kTbWinInMaxPly) {
    int r = tunables::NmpBaseReduction + depth / tunables::NmpDepthDivisor +
            std::min((eval - beta) / tunables::NmpEvalDivisor, tunables::NmpEvalMaxReduction);
    ss->currentMove = Move::null();
    ss->contHist = m_hist->sentinel();
    m_eval->onMakeMove(m_pos, Move::null());
    m_pos.makeNullMove();
    int v = -search<NodeType::kNonPV>(ss + 1, -beta, -beta + 1, depth - r, !cutNode);
    m_pos.unmakeNullMove();
    m_eval->onUnmakeMove(m_pos, Move::null());
    if (aborted()) return 0;
    if (v >= beta) {
      if (v >= kTbWinInMaxPly) v = beta;
      if (depth < tunables::NmpVerifyDepth) return v;
      m_nmpMinPly = ply + 3 * (depth - r) / 4;
      int verified = search<NodeType::kNonPV>(ss, beta - 1, beta, depth - r, false);
      m_nmpMinPly = 0;
      if (verified >= beta) return v;
    }
  }

  // Step 8. ProbCut: a capture that beats beta by a margin in a reduced search cuts.
  const int probBeta = beta + tunables::ProbCutMargin;
  if (depth >= tunables::ProbCutMinDepth && std::abs(beta) < kTbWinInMaxPly &&
      !(n.ttHit && n.tte.depth >= depth - 3 && n.ttScore != kScoreNone && n.ttScore < probBeta)) {
    MovePicker mp(m_pos, n.ttMove, probBeta - staticEval, *m_hist);
    while (Move m = mp.next()) {
      makeMove(ss, m);
      int v = -qsearch<NodeType::kNonPV>(ss + 1, -probBeta, -probBeta + 1);
      if (v >= probBeta) v = -search<NodeType::kNonPV>(ss + 1, -probBeta, -probBeta + 1, depth - 4, !cutNode);
      unmakeMove(m);
      if (aborted()) return 0;
      if (v >= probBeta) {
        m_owner.m_tt.store(n.key, scoreToTT(v, ply), n.rawEval, m, depth - 3, Bound::kLower, ss->ttPv);
        return v;
      }
    }
  }
  return std::nullopt;
}

bool AlphaBetaSearch::Worker::pruneMove(const NodeState& n, Move m, int depth, int moveCount, int alpha, bool noisy,
                                        bool givesCheck, int history) {
  const int lmrDepth = std::max(0, depth - 1 - reduction(depth, moveCount));
  if (noisy || givesCheck) return depth <= tunables::SeePruneMaxDepth && !seeGe(m_pos, m, -tunables::SeeNoisyMargin * depth);
  // Late move pruning and futility pruning skip quiet moves one at a time rather than telling
  // the move picker to drop all quiets: quiet checks (often mates) still come.
  if (depth <= tunables::LmpMaxDepth && moveCount >= (tunables::LmpBase + depth * depth) / (n.improving ? 1 : 2))
    return true;
  if (lmrDepth <= tunables::HistoryPruneMaxDepth && history < -tunables::HistoryPruneMargin * depth) return true;
  if (!n.inCheck && lmrDepth <= tunables::FutilityMaxDepth &&
      n.staticEval + tunables::FutilityBase + tunables::FutilityPerDepth * lmrDepth <= alpha)
    return true;
  return !seeGe(m_pos, m, -(tunables::SeeQuietQuad * lmrDepth + tunables::SeeQuietLin) * lmrDepth);
}

// Singular extension (not at the root): the TT move is much better than every alternative (a
// reduced search without it fails low); check extension otherwise. When the TT move is not
// singular but its TT score beats beta, another move will likely cut too: the TT move is searched
// two plies shallower (Stockfish 15.1's negative extension, -2).
template <NodeType NT>
int AlphaBetaSearch::Worker::extension(StackEntry* ss, const NodeState& n, Move m, int depth, int beta, bool cutNode,
                                       bool givesCheck, std::optional<int>& cutoff, bool& singular) {
  constexpr bool kPvNode = NT != NodeType::kNonPV;
  if (NT != NodeType::kRoot && m == n.ttMove && !n.excluded && depth >= tunables::SingularMinDepth && n.ttHit &&
      (u8(n.tte.bound) & u8(Bound::kLower)) && n.tte.depth >= depth - 3 && std::abs(n.ttScore) < kTbWinInMaxPly &&
      n.ply < 2 * m_rootDepth) {
    int singularBeta = n.ttScore - tunables::SingularMarginX10 * depth / 10;
    ss->excludedMove = m;
    int v = search<NodeType::kNonPV>(ss, singularBeta - 1, singularBeta, (depth - 1) / 2, cutNode);
    ss->excludedMove = Move::none();
    if (aborted()) {
      cutoff = 0;
      return 0;
    }
    singular = v < singularBeta;
    if (singular)
      return !kPvNode && v < singularBeta - tunables::DoubleExtMargin && ss->doubleExtensions <= 6 ? 2 : 1;
    if (singularBeta >= beta) {
      cutoff = singularBeta;  // multi-cut: several moves beat beta
      return 0;
    }
    return n.ttScore >= beta ? -2 : 0;
  }
  // Checks only at high depth and out of quiet, balanced positions (Stockfish 15.1's
  // `givesCheck && depth > 9 && abs(ss->staticEval) > 82`; in check its static eval is none).
  return givesCheck && n.ply < 2 * m_rootDepth && depth > tunables::CheckExtMinDepth &&
                 (n.inCheck || std::abs(n.staticEval) > tunables::CheckExtMinEval)
             ? 1
             : 0;
}

void AlphaBetaSearch::Worker::updateRootMove(Move m, int score, int alpha, int beta, int moveCount) {
  RootMove& rm = *std::find_if(m_rootMoves.begin(), m_rootMoves.end(), [m](const RootMove& r) { return r.move == m; });
  if (moveCount == 1 || score > alpha) {
    rm.score = score;
    rm.bound = score >= beta ? Bound::kLower : score <= alpha ? Bound::kUpper : Bound::kExact;
    rm.selDepth = m_selDepth;
    rm.pv.assign(1, m);
    for (const Move* p = m_pvTable[1]; *p; ++p) rm.pv.push_back(*p);
    if (moveCount > 1) m_bestMoveChanges += 1;
  } else {
    rm.score = -kInfinite;
  }
}

void AlphaBetaSearch::Worker::updateCutoffStats(StackEntry* ss, Move best, int depth, const Move* quiets,
                                                int quietCount, const Move* captures, int captureCount) {
  int bonus = historyBonus(depth);
  if (!m_pos.isNoisy(best)) {
    updateQuietStats(ss, best, bonus, quiets, quietCount);
  } else if (PieceType cap = capturedType(m_pos, best); cap != kNoPieceType) {
    applyGravity(m_hist->capture[m_pos.movedPiece(best)][best.to()][cap], bonus);
  }
  for (int i = 0; i < captureCount; ++i)
    if (PieceType cap = capturedType(m_pos, captures[i]); cap != kNoPieceType)
      applyGravity(m_hist->capture[m_pos.movedPiece(captures[i])][captures[i].to()][cap], -bonus);
  // The previous ply's quiet move was refuted although it came early, right after its TT move,
  // or was its first killer: an extra malus (Stockfish 15.1).
  if ((ss - 1)->moveCount == 1 + (ss - 1)->ttHit || (ss - 1)->currentMove == (ss - 1)->killers[0])
    penalisePriorQuietMove(ss, bonus);
}

void AlphaBetaSearch::Worker::penalisePriorQuietMove(StackEntry* ss, int malus) {
  const Move prev = (ss - 1)->currentMove;
  if (!prev || prev == Move::null() || m_pos.capturedPiece() != kNoPiece || prev.isPromotion()) return;
  updateContinuation(ss - 1, (ss - 1)->movedPiece, prev.to(), -malus);
}

// Every move failed low here, so the opponent's quiet move that led here was good: its
// continuation history gets a bonus, doubled at PV and cut nodes or when the fail low was deep
// (Stockfish 15.1, "Bonus for prior countermove that caused the fail low").
void AlphaBetaSearch::Worker::rewardPriorQuietMove(StackEntry* ss, const NodeState& n, int depth, int alpha,
                                                   bool cutNode, bool pvNode) {
  const Move prev = (ss - 1)->currentMove;
  if (!prev || prev == Move::null() || m_pos.capturedPiece() != kNoPiece || prev.isPromotion() || n.excluded) return;
  const bool extra =
      pvNode || cutNode || n.staticEval == kScoreNone || n.staticEval < alpha - tunables::PriorFailLowMargin * depth;
  updateContinuation(ss - 1, (ss - 1)->movedPiece, prev.to(), historyBonus(depth) * (extra ? 2 : 1));
}

void AlphaBetaSearch::Worker::updateContinuation(StackEntry* ss, Piece p, Square to, int bonus) {
  for (int back : {1, 2, 4}) {
    StackEntry* prev = ss - back;
    if (back > 1 && ss->inCheck) break;
    if (prev->currentMove && prev->currentMove != Move::null()) prev->contHist->update(p, to, bonus);
  }
}

void AlphaBetaSearch::Worker::updateQuietStats(StackEntry* ss, Move best, int bonus, const Move* quiets,
                                               int quietCount) {
  if (ss->killers[0] != best) {
    ss->killers[1] = ss->killers[0];
    ss->killers[0] = best;
  }
  updateQuietHistory(ss, best, bonus);
  if (Move prev = (ss - 1)->currentMove; prev && prev != Move::null())
    m_hist->counter[(ss - 1)->movedPiece][prev.to()] = best;
  for (int i = 0; i < quietCount; ++i) updateQuietHistory(ss, quiets[i], -bonus);
}

void AlphaBetaSearch::Worker::updateQuietHistory(StackEntry* ss, Move m, int bonus) {
  applyGravity(m_hist->main[m_pos.sideToMove()][m.from() * 64 + m.to()], bonus);
  updateContinuation(ss, m_pos.movedPiece(m), m.to(), bonus);
}

// iterativeDeepening (alphabeta.cpp) enters at the root.
template int AlphaBetaSearch::Worker::search<NodeType::kRoot>(StackEntry*, int, int, int, bool);

}  // namespace janus
