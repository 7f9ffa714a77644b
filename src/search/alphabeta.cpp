#include "search/alphabeta.h"

#include <algorithm>
#include <cmath>
#include <mutex>
#include <optional>

#include "core/movegen.h"
#include "search/movepick.h"
#include "search/see.h"
#include "search/tb_root.h"
#include "search/tunables.h"

namespace janus {

namespace {

/// Late move reduction table [depth][move number] = base + ln(depth) * ln(moveNumber) / divisor
/// (chessprogramming wiki "Late Move Reductions"; the logarithmic formula is common practice).
int gLmr[64][64];

void initLmr() {
  for (int d = 1; d < 64; ++d)
    for (int m = 1; m < 64; ++m)
      gLmr[d][m] = int(tunables::LmrBaseX100 / 100.0 +
                       std::log(double(d)) * std::log(double(m)) / (tunables::LmrDivisorX100 / 100.0));
}

int reduction(int depth, int moveCount) { return gLmr[std::min(depth, 63)][std::min(moveCount, 63)]; }

enum class NodeType { kRoot, kPV, kNonPV };

constexpr int kStackOffset = 4;  ///< entries below the root, so that (ss - 4) is always valid

struct StackEntry {
  int ply = 0;
  Move currentMove;
  Move excludedMove;
  Move killers[2];
  int staticEval = kScoreNone;
  PieceToHistory* contHist = nullptr;
  Piece movedPiece = kNoPiece;  ///< piece that made currentMove (the king for castling)
  bool inCheck = false;
  bool ttPv = false;
  int doubleExtensions = 0;
};

/// A root move with the result of its latest search. `score` is -kInfinite until the move is
/// searched in the current iteration with a score above alpha (or as the first move of an
/// aspiration pass); `bound` says whether that score is exact or a fail-high/fail-low bound.
struct RootMove {
  Move move;
  int score = -kInfinite;
  int previousScore = -kInfinite;  ///< score of the previous iteration
  Bound bound = Bound::kExact;
  int selDepth = 0;
  std::vector<Move> pv;
};

/// Type of the piece `m` captures, or kNoPieceType for a non-capture.
PieceType capturedType(const Position& pos, Move m) {
  if (m.isEnPassant()) return kPawn;
  if (m.isCastling() || pos.empty(m.to())) return kNoPieceType;
  return typeOf(pos.pieceOn(m.to()));
}

int historyBonus(int depth) {
  return std::min(tunables::HistoryBonusPerDepth * depth * depth, tunables::HistoryBonusMax);
}

}  // namespace

// ------------------------------------------------------------------------------------------------
// Worker: one search thread with its own position, evaluator, histories and stack.
// ------------------------------------------------------------------------------------------------

class AlphaBetaSearch::Worker {
 public:
  Worker(AlphaBetaSearch& owner, int id)
      : m_owner(owner), m_id(id), m_eval(owner.m_evalPrototype->clone()), m_hist(std::make_unique<Histories>()) {
    m_hist->clear();
  }

  void newGame() { m_hist->clear(); }
  void setEvaluator(std::unique_ptr<Evaluator> e) { m_eval = std::move(e); }

  void prepare(const Position& root, const std::vector<Move>& rootMoves) {
    m_pos = root;
    m_eval->reset(m_pos);
    m_rootMoves.clear();
    for (Move m : rootMoves) m_rootMoves.push_back({m, -kInfinite, -kInfinite, Bound::kExact, 0, {m}});
    m_nodes.store(0, std::memory_order_relaxed);
    m_tbHits.store(0, std::memory_order_relaxed);
    m_completedDepth = 0;
    m_selDepth = 0;
    m_bestMoveChanges = 0;
    m_nmpMinPly = 0;
    for (auto& e : m_stack) e = StackEntry{};
    for (int i = 0; i < kStackOffset; ++i) m_stack[i].contHist = m_hist->sentinel();
    for (int i = 0; i < kMaxPly + 2; ++i) m_stack[kStackOffset + i].ply = i;
  }

  void iterativeDeepening();

  [[nodiscard]] u64 nodes() const { return m_nodes.load(std::memory_order_relaxed); }
  [[nodiscard]] u64 tbHits() const { return m_tbHits.load(std::memory_order_relaxed); }
  [[nodiscard]] const std::vector<RootMove>& rootMoves() const { return m_rootMoves; }
  [[nodiscard]] int completedDepth() const { return m_completedDepth; }

 private:
  [[nodiscard]] bool isMain() const { return m_id == 0; }
  /// True once the search must unwind. Depth 1 always completes, so that there is a move.
  [[nodiscard]] bool aborted() const { return m_rootDepth > 1 && m_owner.stopRequested(); }
  void checkLimits();
  /// Reports the first MultiPV root moves of iteration `depth` (lines not searched in it yet
  /// with the previous iteration's score and depth).
  void report(int depth);

  template <NodeType NT>
  int search(StackEntry* ss, int alpha, int beta, int depth, bool cutNode);
  template <NodeType NT>
  int qsearch(StackEntry* ss, int alpha, int beta);

  int evaluate() { return std::clamp(m_eval->evaluate(m_pos), -kEvalMax, kEvalMax); }
  void makeMove(StackEntry* ss, Move m) {
    ss->currentMove = m;
    ss->movedPiece = m_pos.movedPiece(m);
    ss->contHist = &m_hist->continuation[ss->movedPiece][m.to()];
    m_owner.m_tt.prefetch(m_pos.keyAfter(m));
    m_eval->onMakeMove(m_pos, m);
    m_pos.makeMove(m);
  }
  void unmakeMove(Move m) {
    m_pos.unmakeMove(m);
    m_eval->onUnmakeMove(m_pos, m);
  }
  void updatePv(int ply, Move m) {
    Move* dst = m_pvTable[ply];
    const Move* src = m_pvTable[ply + 1];
    *dst++ = m;
    while (*src) *dst++ = *src++;
    *dst = Move::none();
  }
  void updateQuietStats(StackEntry* ss, Move best, int bonus, const Move* quiets, int quietCount);
  void updateContinuation(StackEntry* ss, Piece p, Square to, int bonus);

  AlphaBetaSearch& m_owner;
  int m_id;
  Position m_pos;
  std::unique_ptr<Evaluator> m_eval;
  std::unique_ptr<Histories> m_hist;
  std::atomic<u64> m_nodes{0};
  std::atomic<u64> m_tbHits{0};
  std::vector<RootMove> m_rootMoves;
  int m_rootDepth = 0;
  int m_pvIdx = 0;
  int m_selDepth = 0;
  int m_completedDepth = 0;
  double m_bestMoveChanges = 0;
  int m_nmpMinPly = 0;
  StackEntry m_stack[kMaxPly + kStackOffset + 4];
  Move m_pvTable[kMaxPly + 2][kMaxPly + 2];
};

void AlphaBetaSearch::Worker::checkLimits() {
  const SearchLimits& lim = m_owner.m_limits;
  if (lim.nodes && m_owner.totalNodes() >= lim.nodes) m_owner.stopInternally();
  if ((m_nodes.load(std::memory_order_relaxed) & 1023) != 0) return;
  if (m_owner.pondering()) return;
  if (m_owner.m_time.enabled() && m_owner.m_time.elapsedMs() >= m_owner.m_time.maximumMs()) m_owner.stopInternally();
}

void AlphaBetaSearch::Worker::report(int depth) {
  if (!m_owner.m_onInfo || !*m_owner.m_onInfo) return;
  i64 elapsed = m_owner.m_time.elapsedMs();
  u64 nodes = m_owner.totalNodes();
  int lines = std::min<int>(m_owner.m_config.multiPv, int(m_rootMoves.size()));
  for (int i = 0; i < lines; ++i) {
    const RootMove& rm = m_rootMoves[i];
    bool updated = rm.score != -kInfinite;
    if (!updated && depth == 1) continue;
    SearchInfo info;
    info.depth = updated ? depth : depth - 1;
    info.selDepth = std::max(rm.selDepth, 1);
    info.multiPv = i + 1;
    info.score = updated ? rm.score : rm.previousScore;
    info.bound = updated ? rm.bound : Bound::kExact;
    info.nodes = nodes;
    info.timeMs = elapsed;
    info.nps = elapsed > 0 ? nodes * 1000 / u64(elapsed) : nodes * 1000;
    info.hashfull = m_owner.m_tt.hashfull();
    info.tbHits = m_owner.totalTbHits();
    info.pv = rm.pv;
    (*m_owner.m_onInfo)(info);
  }
}

// ------------------------------------------------------------------------------------------------
// Iterative deepening with aspiration windows and MultiPV.
// ------------------------------------------------------------------------------------------------

void AlphaBetaSearch::Worker::iterativeDeepening() {
  const SearchLimits& lim = m_owner.m_limits;
  const int maxDepth = lim.depth > 0 ? std::min(lim.depth, kMaxPly - 1) : kMaxPly - 1;
  const int multiPv = std::min<int>(m_owner.m_config.multiPv, int(m_rootMoves.size()));
  StackEntry* ss = m_stack + kStackOffset;
  Move lastBest = Move::none();
  int stableIterations = 0;
  int previousBestScore = kScoreNone;

  for (m_rootDepth = 1; m_rootDepth <= maxDepth; ++m_rootDepth) {
    // Lazy SMP: helpers skip some depths so that threads spread over several depths.
    if (!isMain() && m_rootDepth > 1 && ((m_rootDepth + m_id) % 4 == 0)) continue;
    m_bestMoveChanges *= 0.5;
    for (auto& rm : m_rootMoves) {
      rm.previousScore = rm.score;
      rm.score = -kInfinite;  // not searched in this iteration yet
    }

    for (m_pvIdx = 0; m_pvIdx < multiPv; ++m_pvIdx) {
      m_selDepth = 0;
      int prev = m_rootMoves[m_pvIdx].previousScore;
      int delta = tunables::AspirationDelta;
      int alpha = -kInfinite, beta = kInfinite;
      if (m_rootDepth >= tunables::AspirationMinDepth && prev != -kInfinite) {
        alpha = std::max(prev - delta, -kInfinite);
        beta = std::min(prev + delta, kInfinite);
      }
      while (true) {
        m_pvTable[0][0] = Move::none();
        int score = search<NodeType::kRoot>(ss, alpha, beta, m_rootDepth, false);
        std::stable_sort(m_rootMoves.begin() + m_pvIdx, m_rootMoves.end(),
                         [](const RootMove& a, const RootMove& b) { return a.score > b.score; });
        if (aborted()) break;
        if (isMain() && (score <= alpha || score >= beta) && m_owner.m_time.elapsedMs() > 3000) report(m_rootDepth);
        if (score <= alpha) {
          beta = (alpha + beta) / 2;
          alpha = std::max(score - delta, -kInfinite);
        } else if (score >= beta) {
          beta = std::min(score + delta, kInfinite);
        } else {
          break;
        }
        delta += delta / 2;
        if (delta > 1000) alpha = -kInfinite, beta = kInfinite;
      }
      std::stable_sort(m_rootMoves.begin(), m_rootMoves.begin() + m_pvIdx + 1,
                       [](const RootMove& a, const RootMove& b) { return a.score > b.score; });
      if (aborted()) break;
    }
    if (aborted()) {
      // The move played is the best one of this unfinished iteration (a move that beat the
      // first one is better), so the last info line must show it. If not even the first move
      // was searched, the order is the previous iteration's, which was reported.
      if (isMain() && m_rootMoves[0].score != -kInfinite) report(m_rootDepth);
      break;
    }
    m_completedDepth = m_rootDepth;
    if (!isMain()) continue;

    report(m_rootDepth);

    // Stop conditions that only the main thread decides.
    const RootMove& best = m_rootMoves[0];
    if (lim.mate > 0 && best.score >= mateIn(2 * lim.mate)) break;
    if (lim.depth > 0 && m_rootDepth >= lim.depth) break;
    stableIterations = best.move == lastBest ? stableIterations + 1 : 0;
    lastBest = best.move;
    const TimeManager& tm = m_owner.m_time;
    if (tm.enabled() && !m_owner.pondering()) {
      double instability = 1.0 + 1.5 * m_bestMoveChanges;
      double stability = 1.25 - 0.06 * std::min(stableIterations, 7);
      double falling = 1.0;
      if (previousBestScore != kScoreNone)
        falling = std::clamp(1.0 + double(previousBestScore - best.score) / 200.0, 0.8, 1.5);
      if (double(tm.elapsedMs()) > double(tm.optimumMs()) * instability * stability * falling) break;
    }
    previousBestScore = best.score;
  }
}

// ------------------------------------------------------------------------------------------------
// Main search. Step map:
//   1. node bookkeeping, stop check      7. null move pruning
//   2. draws, mate distance pruning      8. probcut
//   3. transposition table probe         9. internal iterative reduction
//   4. static evaluation, improving     10. move loop: pruning, extensions, LMR/PVS
//   5. razoring                          11. mate/stalemate, history updates
//   6. reverse futility pruning          12. transposition table store
// ------------------------------------------------------------------------------------------------

template <NodeType NT>
int AlphaBetaSearch::Worker::search(StackEntry* ss, int alpha, int beta, int depth, bool cutNode) {
  constexpr bool kRoot = NT == NodeType::kRoot;
  constexpr bool kPvNode = NT != NodeType::kNonPV;
  const int ply = ss->ply;

  if (depth <= 0) return qsearch<kPvNode ? NodeType::kPV : NodeType::kNonPV>(ss, alpha, beta);

  // Step 1. Bookkeeping.
  if (kPvNode) m_pvTable[ply][0] = Move::none();
  m_nodes.fetch_add(1, std::memory_order_relaxed);
  if (isMain()) checkLimits();
  if (aborted()) return 0;
  if (kPvNode) m_selDepth = std::max(m_selDepth, ply + 1);
  const bool inCheck = m_pos.inCheck();
  ss->inCheck = inCheck;
  (ss + 1)->killers[0] = (ss + 1)->killers[1] = Move::none();
  (ss + 1)->excludedMove = Move::none();
  (ss + 2)->killers[0] = (ss + 2)->killers[1] = Move::none();

  // Step 2. Draws and mate distance pruning.
  if (!kRoot) {
    if (m_pos.isSearchRepetition(ply) || m_pos.isInsufficientMaterial()) return kDrawScore;
    if (m_pos.isFiftyMoveDraw()) return (inCheck && !hasLegalMove(m_pos)) ? matedIn(ply) : kDrawScore;
    if (ply >= kMaxPly - 1) return inCheck ? kDrawScore : evaluate();
    alpha = std::max(matedIn(ply), alpha);
    beta = std::min(mateIn(ply + 1), beta);
    if (alpha >= beta) return alpha;
  }

  // Step 3. Transposition table.
  const Move excluded = ss->excludedMove;
  const u64 key = m_pos.key();
  TTData tte;
  const bool ttHit = !excluded && m_owner.m_tt.probe(key, tte);
  const int ttScore = ttHit && tte.score != kScoreNone ? scoreFromTT(tte.score, ply) : kScoreNone;
  const Move ttMove = kRoot ? m_rootMoves[m_pvIdx].move : ttHit ? tte.move : Move::none();
  ss->ttPv = excluded ? ss->ttPv : (kPvNode || (ttHit && tte.pv));

  if (!kPvNode && ttHit && tte.depth >= depth && ttScore != kScoreNone &&
      (u8(tte.bound) & u8(ttScore >= beta ? Bound::kLower : Bound::kUpper))) {
    if (ttMove && ttScore >= beta && !m_pos.isNoisy(ttMove) && m_pos.isLegal(ttMove))
      updateQuietStats(ss, ttMove, historyBonus(depth), nullptr, 0);
    if (m_pos.halfmoveClock() < 90) return ttScore;
  }

  int tbFloor = -kInfinite, tbCeiling = kInfinite;  // PV nodes: range proven by the tablebases

  // Step 3b. Endgame tablebases (WDL), probed right after a capture or pawn move, where the
  // material just changed and the 50-move counter is zero (so the 50-move rule cannot spoil a
  // tablebase win). Near the leaves only cached blocks are used.
  if (!kRoot && !excluded && m_owner.m_tb && m_pos.halfmoveClock() == 0 &&
      popCount(m_pos.pieces()) <= m_owner.m_tb->maxPieces() && m_owner.m_tb->available(m_pos)) {
    if (auto wdl = m_owner.m_tb->probeWdl(m_pos, depth < 3)) {
      m_tbHits.fetch_add(1, std::memory_order_relaxed);
      int v = *wdl == TbWdl::kWin ? tbWinIn(ply) : *wdl == TbWdl::kLoss ? -tbWinIn(ply) : kDrawScore;
      Bound b = *wdl == TbWdl::kWin ? Bound::kLower : *wdl == TbWdl::kLoss ? Bound::kUpper : Bound::kExact;
      if (b == Bound::kExact || (b == Bound::kLower ? v >= beta : v <= alpha)) {
        m_owner.m_tt.store(key, scoreToTT(v, ply), kScoreNone, Move::none(), std::min(depth + 6, kMaxPly - 1), b,
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
    }
  }

  // Step 4. Static evaluation.
  int staticEval, eval;
  bool improving = false;
  if (inCheck) {
    staticEval = eval = ss->staticEval = kScoreNone;
  } else if (excluded) {
    staticEval = eval = ss->staticEval;  // same position as the parent call
  } else {
    if (ttHit && tte.eval != kScoreNone)
      staticEval = tte.eval;
    else
      staticEval = evaluate();
    if (!ttHit) m_owner.m_tt.store(key, kScoreNone, staticEval, Move::none(), -TranspositionTable::kDepthOffset,
                                   Bound::kNone, ss->ttPv);
    eval = ss->staticEval = staticEval;
    // A TT score is a better estimate than the static evaluation when its bound allows.
    if (ttScore != kScoreNone && (u8(tte.bound) & u8(ttScore > eval ? Bound::kLower : Bound::kUpper))) eval = ttScore;
  }
  if (!inCheck) {
    int past = (ss - 2)->staticEval != kScoreNone ? (ss - 2)->staticEval : (ss - 4)->staticEval;
    improving = past == kScoreNone || staticEval > past;
  }

  if (!kPvNode && !inCheck && !excluded) {
    // Step 5. Razoring: hopeless positions at low depth go straight to quiescence.
    if (depth <= 3 && eval + tunables::RazorBase + tunables::RazorPerDepthSq * depth * depth < alpha) {
      int v = qsearch<NodeType::kNonPV>(ss, alpha - 1, alpha);
      if (v < alpha) return v;
    }

    // Step 6. Reverse futility pruning.
    if (depth <= tunables::RfpMaxDepth && eval < kTbWinInMaxPly &&
        eval - tunables::RfpMargin * depth + (improving ? tunables::RfpImprovingMargin : 0) >= beta)
      return (eval + beta) / 2;

    // Step 7. Null move pruning with a zugzwang guard (only with pieces) and verification.
    if (depth >= tunables::NmpMinDepth && eval >= beta && staticEval >= beta && (ss - 1)->currentMove != Move::null() &&
        ply >= m_nmpMinPly && m_pos.hasNonPawnMaterial(m_pos.sideToMove()) && beta > -kTbWinInMaxPly) {
      int r = tunables::NmpBaseReduction + depth / tunables::NmpDepthDivisor +
              std::min((eval - beta) / tunables::NmpEvalDivisor, 3);
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
        !(ttHit && tte.depth >= depth - 3 && ttScore != kScoreNone && ttScore < probBeta)) {
      MovePicker mp(m_pos, ttMove, probBeta - staticEval, *m_hist);
      while (Move m = mp.next()) {
        makeMove(ss, m);
        int v = -qsearch<NodeType::kNonPV>(ss + 1, -probBeta, -probBeta + 1);
        if (v >= probBeta) v = -search<NodeType::kNonPV>(ss + 1, -probBeta, -probBeta + 1, depth - 4, !cutNode);
        unmakeMove(m);
        if (aborted()) return 0;
        if (v >= probBeta) {
          m_owner.m_tt.store(key, scoreToTT(v, ply), staticEval, m, depth - 3, Bound::kLower, ss->ttPv);
          return v;
        }
      }
    }
  }

  // Step 9. Internal iterative reduction: no TT move, so this node was not searched before.
  if (!kRoot && !excluded && !ttMove && depth >= tunables::IirMinDepth && (kPvNode || cutNode)) --depth;

  // Step 10. The move loop.
  const PieceToHistory* contHist[3] = {(ss - 1)->contHist, (ss - 2)->contHist, (ss - 4)->contHist};
  Move counter = Move::none();
  if (Move prev = (ss - 1)->currentMove; prev && prev != Move::null())
    counter = m_hist->counter[(ss - 1)->movedPiece][prev.to()];
  MovePicker mp(m_pos, ttMove, ss->killers, counter, *m_hist, contHist);

  const Color us = m_pos.sideToMove();
  int bestScore = tbFloor, moveCount = 0, quietCount = 0, captureCount = 0;
  Move bestMove = Move::none();
  Move quiets[64], captures[32];
  const bool ttNoisy = ttMove && m_pos.isNoisy(ttMove);
  const CheckInfo checkInfo = m_pos.checkInfo();

  while (Move m = mp.next()) {
    if (m == excluded) continue;
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
    if (!kRoot && bestScore > -kTbWinInMaxPly && m_pos.hasNonPawnMaterial(us)) {
      int lmrDepth = std::max(0, depth - 1 - reduction(depth, moveCount));
      if (!noisy && !givesCheck) {
        // Late move pruning and futility pruning skip quiet moves one at a time rather than
        // telling the move picker to drop all quiets: quiet checks (often mates) still come.
        if (depth <= tunables::LmpMaxDepth && moveCount >= (tunables::LmpBase + depth * depth) / (improving ? 1 : 2))
          continue;
        if (lmrDepth <= tunables::HistoryPruneMaxDepth && history < -tunables::HistoryPruneMargin * depth) continue;
        if (!inCheck && lmrDepth <= tunables::FutilityMaxDepth &&
            staticEval + tunables::FutilityBase + tunables::FutilityPerDepth * lmrDepth <= alpha)
          continue;
        if (!seeGe(m_pos, m, -tunables::SeeQuietMargin * lmrDepth)) continue;
      } else if (depth <= tunables::SeePruneMaxDepth && !seeGe(m_pos, m, -tunables::SeeNoisyMargin * depth)) {
        continue;
      }
    }

    // Extensions: singular extension (the TT move is much better than every alternative) and
    // check extension.
    int extension = 0;
    if (!kRoot && m == ttMove && !excluded && depth >= tunables::SingularMinDepth && ttHit &&
        (u8(tte.bound) & u8(Bound::kLower)) && tte.depth >= depth - 3 && std::abs(ttScore) < kTbWinInMaxPly &&
        ply < 2 * m_rootDepth) {
      int singularBeta = ttScore - tunables::SingularMarginX10 * depth / 10;
      ss->excludedMove = m;
      int v = search<NodeType::kNonPV>(ss, singularBeta - 1, singularBeta, (depth - 1) / 2, cutNode);
      ss->excludedMove = Move::none();
      if (aborted()) return 0;
      if (v < singularBeta) {
        extension = 1;
        if (!kPvNode && v < singularBeta - tunables::DoubleExtMargin && ss->doubleExtensions <= 6) extension = 2;
      } else if (singularBeta >= beta) {
        return singularBeta;  // multi-cut: several moves beat beta
      } else if (ttScore >= beta) {
        extension = -1;
      }
    } else if (givesCheck && ply < 2 * m_rootDepth && (depth > 6 || seeGe(m_pos, m, 0))) {
      extension = 1;
    }
    (ss + 1)->doubleExtensions = ss->doubleExtensions + (extension >= 2);
    const int newDepth = depth - 1 + extension;

    makeMove(ss, m);
    int score = -kInfinite;
    // A child searched only with a null window (a fail high) leaves no PV of its own: without
    // this, updatePv would copy a sibling's stale line (illegal here, or running past a mate).
    if (kPvNode) m_pvTable[ply + 1][0] = Move::none();

    // Late move reductions, then principal variation search.
    if (depth >= 2 && moveCount > 1 + (kRoot ? 1 : 0) && (!noisy || !ss->ttPv)) {
      int r = reduction(depth, moveCount);
      r -= kPvNode;
      r -= ss->ttPv && !kPvNode;
      r += cutNode;
      r += !improving;
      r += ttNoisy && !noisy;
      r -= givesCheck;
      if (!noisy) r -= history / tunables::LmrHistoryDivisor;
      int d = std::clamp(newDepth - r, 1, newDepth + 1);
      score = -search<NodeType::kNonPV>(ss + 1, -(alpha + 1), -alpha, d, true);
      if (score > alpha && d < newDepth)
        score = -search<NodeType::kNonPV>(ss + 1, -(alpha + 1), -alpha, newDepth, !cutNode);
    } else if (!kPvNode || moveCount > 1) {
      score = -search<NodeType::kNonPV>(ss + 1, -(alpha + 1), -alpha, newDepth, !cutNode);
    }
    if (kPvNode && (moveCount == 1 || (score > alpha && (kRoot || score < beta))))
      score = -search<NodeType::kPV>(ss + 1, -beta, -alpha, newDepth, false);

    unmakeMove(m);
    if (aborted()) return 0;

    if (kRoot) {
      RootMove& rm = *std::find_if(m_rootMoves.begin(), m_rootMoves.end(),
                                   [m](const RootMove& r) { return r.move == m; });
      if (moveCount == 1 || score > alpha) {
        rm.score = score;
        rm.bound = score >= beta ? Bound::kLower : score <= alpha ? Bound::kUpper : Bound::kExact;
        rm.selDepth = m_selDepth;
        rm.pv.assign(1, m);
        for (const Move* p = m_pvTable[ply + 1]; *p; ++p) rm.pv.push_back(*p);
        if (moveCount > 1) m_bestMoveChanges += 1;
      } else {
        rm.score = -kInfinite;
      }
    }

    if (score > bestScore) {
      bestScore = score;
      if (score > alpha) {
        bestMove = m;
        if (kPvNode && !kRoot) updatePv(ply, m);
        if (score >= beta) break;
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
  if (moveCount == 0) {
    bestScore = excluded ? alpha : inCheck ? matedIn(ply) : kDrawScore;
  } else if (bestMove && bestScore >= beta) {
    int bonus = historyBonus(depth);
    if (!m_pos.isNoisy(bestMove)) {
      updateQuietStats(ss, bestMove, bonus, quiets, quietCount);
    } else if (PieceType cap = capturedType(m_pos, bestMove); cap != kNoPieceType) {
      applyGravity(m_hist->capture[m_pos.movedPiece(bestMove)][bestMove.to()][cap], bonus);
    }
    for (int i = 0; i < captureCount; ++i)
      if (PieceType cap = capturedType(m_pos, captures[i]); cap != kNoPieceType)
        applyGravity(m_hist->capture[m_pos.movedPiece(captures[i])][captures[i].to()][cap], -bonus);
  }

  if (kPvNode) bestScore = std::min(bestScore, tbCeiling);

  // Step 12. Store.
  if (!excluded) {
    Bound bound = bestScore >= beta ? Bound::kLower : (kPvNode && bestMove) ? Bound::kExact : Bound::kUpper;
    m_owner.m_tt.store(key, scoreToTT(bestScore, ply), ss->staticEval, bestMove, depth, bound, ss->ttPv);
  }
  return bestScore;
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
  Color us = m_pos.sideToMove();
  if (ss->killers[0] != best) {
    ss->killers[1] = ss->killers[0];
    ss->killers[0] = best;
  }
  applyGravity(m_hist->main[us][best.from() * 64 + best.to()], bonus);
  updateContinuation(ss, m_pos.movedPiece(best), best.to(), bonus);
  if (Move prev = (ss - 1)->currentMove; prev && prev != Move::null())
    m_hist->counter[(ss - 1)->movedPiece][prev.to()] = best;
  for (int i = 0; i < quietCount; ++i) {
    applyGravity(m_hist->main[us][quiets[i].from() * 64 + quiets[i].to()], -bonus);
    updateContinuation(ss, m_pos.movedPiece(quiets[i]), quiets[i].to(), -bonus);
  }
}

// ------------------------------------------------------------------------------------------------
// Quiescence search: captures and promotions (SEE-pruned, delta-pruned) until the position is
// quiet; every evasion when in check.
// ------------------------------------------------------------------------------------------------

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

  int bestScore, staticEval = kScoreNone, futilityBase = -kInfinite;
  if (inCheck) {
    bestScore = -kInfinite;
    ss->staticEval = kScoreNone;
  } else {
    staticEval = (ttHit && tte.eval != kScoreNone) ? tte.eval : evaluate();
    ss->staticEval = staticEval;
    bestScore = staticEval;
    if (ttScore != kScoreNone && (u8(tte.bound) & u8(ttScore > bestScore ? Bound::kLower : Bound::kUpper)))
      bestScore = ttScore;
    if (bestScore >= beta) {
      if (!ttHit)
        m_owner.m_tt.store(key, scoreToTT(bestScore, ply), staticEval, Move::none(), -1, Bound::kLower, false);
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
  m_owner.m_tt.store(key, scoreToTT(bestScore, ply), staticEval, bestMove, 0, bound, ttPv);
  return bestScore;
}

// ------------------------------------------------------------------------------------------------
// AlphaBetaSearch
// ------------------------------------------------------------------------------------------------

AlphaBetaSearch::AlphaBetaSearch(std::unique_ptr<Evaluator> evaluator) : m_evalPrototype(std::move(evaluator)) {
  static std::once_flag once;  // the table is shared by every search of the process
  std::call_once(once, initLmr);
}

AlphaBetaSearch::~AlphaBetaSearch() = default;

void AlphaBetaSearch::newGame() {
  m_tt.clear(std::max<int>(1, int(m_workers.size())));
  for (auto& w : m_workers) w->newGame();
}

void AlphaBetaSearch::setHashMiB(size_t mib) { m_tt.resize(mib); }

void AlphaBetaSearch::setEvaluator(std::unique_ptr<Evaluator> evaluator) {
  m_evalPrototype = std::move(evaluator);
  for (auto& w : m_workers) w->setEvaluator(m_evalPrototype->clone());
}

u64 AlphaBetaSearch::totalTbHits() const {
  u64 n = 0;
  for (const auto& w : m_workers) n += w->tbHits();
  return n;
}

std::optional<SearchResult> AlphaBetaSearch::probeRootTablebases(const Position& root, std::vector<Move>& rootMoves,
                                                                 const InfoCallback& onInfo) {
  TbRootDecision d = janus::probeRootTablebases(m_tb, root, rootMoves);
  if (!d.result) return std::nullopt;
  d.info.timeMs = m_time.elapsedMs();
  if (onInfo) onInfo(d.info);
  return d.result;
}

u64 AlphaBetaSearch::totalNodes() const {
  u64 n = 0;
  for (const auto& w : m_workers) n += w->nodes();
  return n;
}

SearchResult AlphaBetaSearch::run(const Position& root, const SearchLimits& limits, const SearchConfig& config,
                                  const InfoCallback& onInfo, const SearchSignals& signals) {
  auto start = TimeManager::Clock::now();
  m_limits = limits;
  m_config = config;
  m_config.threads = std::max(1, config.threads);
  m_config.multiPv = std::max(1, config.multiPv);
  m_onInfo = &onInfo;
  m_stop.store(false);
  m_signals = &signals;
  m_time.init(limits, root.sideToMove(), config.moveOverheadMs, start);
  m_tt.newSearch();
#ifdef JANUS_TUNE
  initLmr();  // the LMR tunables may have changed through UCI options (tune builds only)
#endif

  while (int(m_workers.size()) < m_config.threads) m_workers.push_back(std::make_unique<Worker>(*this, int(m_workers.size())));
  while (int(m_workers.size()) > m_config.threads) m_workers.pop_back();

  std::vector<Move> rootMoves;
  for (Move m : legalMoves(root))
    if (limits.searchMoves.empty() ||
        std::find(limits.searchMoves.begin(), limits.searchMoves.end(), m) != limits.searchMoves.end())
      rootMoves.push_back(m);

  SearchResult result;
  if (rootMoves.empty()) {
    // Mate or stalemate at the root (or no searchmove is legal): report and return no move.
    SearchInfo info;
    info.score = root.inCheck() ? matedIn(0) : kDrawScore;
    if (onInfo) onInfo(info);
    result.score = info.score;
    return result;
  }

  if (limits.searchMoves.empty() || rootMoves.size() > 1)
    if (auto tbResult = probeRootTablebases(root, rootMoves, onInfo)) {
      m_onInfo = nullptr;
      return *tbResult;
    }

  for (auto& w : m_workers) w->prepare(root, rootMoves);
  std::vector<std::thread> helpers;
  for (size_t i = 1; i < m_workers.size(); ++i) helpers.emplace_back([w = m_workers[i].get()] { w->iterativeDeepening(); });
  m_workers[0]->iterativeDeepening();
  stopInternally();
  for (auto& t : helpers) t.join();

  const Worker& main = *m_workers[0];
  const RootMove& best = main.rootMoves()[0];
  result.best = best.move;
  result.score = best.score != -kInfinite ? best.score : best.previousScore;
  result.depth = main.completedDepth();
  result.nodes = totalNodes();
  result.timeMs = m_time.elapsedMs();
  if (best.pv.size() > 1) {
    result.ponder = best.pv[1];
  } else {
    // No second PV move (e.g. stopped early): try the TT for the position after the best move.
    Position after = root;
    after.makeMove(best.move);
    TTData tte;
    if (m_tt.probe(after.key(), tte) && tte.move && after.isLegal(tte.move)) result.ponder = tte.move;
  }
  m_onInfo = nullptr;
  return result;
}

}  // namespace janus
