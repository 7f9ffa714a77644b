#pragma once
// The search thread of AlphaBetaSearch (alphabeta.h), internal to the search library:
// alphabeta.cpp holds iterative deepening and the AlphaBetaSearch facade, alphabeta_search.cpp
// the main search (search() and its phases) and alphabeta_qsearch.cpp the quiescence search.

#include <algorithm>
#include <optional>
#include <vector>

#include "search/alphabeta.h"
#include "search/see.h"
#include "search/tunables.h"

namespace janus {

namespace alphabeta {

/// Fills the late move reduction table from the tunables (once per process; again in tune
/// builds, where UCI options may change them).
void initLmr();
/// Late move reduction in plies for a move searched `moveCount`-th at `depth`.
int reduction(int depth, int moveCount);

enum class NodeType { kRoot, kPV, kNonPV };

constexpr int kStackOffset = 4;  ///< entries below the root, so that (ss - 4) is always valid

/// Per-ply search state (the "search stack").
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
  int cutoffCount = 0;  ///< beta cutoffs at this ply since the grandparent began (2 without a TT move)
  int moveCount = 0;  ///< moves searched so far at this node (counting currentMove)
  bool ttHit = false;  ///< the node's TT probe found its key (a singular search keeps the node's value)
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

/// What search() learns about its node before the move loop (steps 1-4), shared by its phases.
struct NodeState {
  int ply = 0;
  bool inCheck = false;
  Move excluded;  ///< the move a singular extension search leaves out, or none
  u64 key = 0;
  bool ttHit = false;
  TTData tte;
  int ttScore = kScoreNone;  ///< tte.score adjusted to this ply, or kScoreNone
  Move ttMove;
  int rawEval = kScoreNone;     ///< the evaluator's score (what the TT stores); kScoreNone in check
  int staticEval = kScoreNone;  ///< rawEval + the correction history's correction; kScoreNone in check
  int eval = kScoreNone;        ///< staticEval, or the TT score where its bound allows
  bool improving = false;       ///< static evaluation above that of two plies before
};

inline int historyBonus(int depth) {
  return std::min(tunables::HistoryBonusPerDepth * depth * depth, tunables::HistoryBonusMax);
}

}  // namespace alphabeta

/// One search thread with its own position, evaluator, histories and stack (Lazy SMP: the
/// threads share only the transposition table).
class AlphaBetaSearch::Worker {
 public:
  using NodeType = alphabeta::NodeType;
  using StackEntry = alphabeta::StackEntry;
  using RootMove = alphabeta::RootMove;
  using NodeState = alphabeta::NodeState;

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
    for (int i = 0; i < alphabeta::kStackOffset; ++i) m_stack[i].contHist = m_hist->sentinel();
    for (int i = 0; i < kMaxPly + 2; ++i) m_stack[alphabeta::kStackOffset + i].ply = i;
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

  // ---- The main search (alphabeta_search.cpp) ----
  /// Negamax alpha-beta search of the position at `ss` to `depth` plies; returns its score
  /// from the side to move's view (fail-soft). See alphabeta_search.cpp for its step map.
  template <NodeType NT>
  int search(StackEntry* ss, int alpha, int beta, int depth, bool cutNode);
  /// Step 3: the transposition table probe. Returns the node's score on a TT cutoff.
  template <NodeType NT>
  std::optional<int> probeTranspositionTable(StackEntry* ss, NodeState& n, int beta, int depth);
  /// Step 3b: the WDL tablebase probe. Returns the node's score when the probe decides it;
  /// else in PV nodes narrows [tbFloor, tbCeiling] (and alpha) to the proven range.
  template <NodeType NT>
  std::optional<int> probeTablebases(StackEntry* ss, const NodeState& n, int& alpha, int beta, int depth,
                                     int& tbFloor, int& tbCeiling);
  /// Step 4: static evaluation (from the TT when it has one) and the improving flag.
  void evaluateNode(StackEntry* ss, NodeState& n);
  /// Steps 5-8 in non-PV nodes not in check: razoring, reverse futility pruning, null move
  /// pruning and ProbCut. Returns the node's score when one of them prunes it.
  std::optional<int> pruneNode(StackEntry* ss, const NodeState& n, int alpha, int beta, int depth, bool cutNode);
  /// Shallow-depth pruning of move `m` (late move, history, futility and SEE pruning).
  bool pruneMove(const NodeState& n, Move m, int depth, int moveCount, int alpha, bool noisy, bool givesCheck,
                 int history);
  /// Singular and check extensions of move `m` in plies (-2 .. 2). Sets `cutoff` when the node
  /// is decided instead (multi-cut, or the search was stopped), `singular` when `m` is the TT
  /// move and the singular search proved it singular.
  template <NodeType NT>
  int extension(StackEntry* ss, const NodeState& n, Move m, int depth, int beta, bool cutNode, bool givesCheck,
                std::optional<int>& cutoff, bool& singular);
  /// Records the result of root move `m` (score, bound and PV) in m_rootMoves.
  void updateRootMove(Move m, int score, int alpha, int beta, int moveCount);
  /// Step 11: history updates for a beta cutoff by `best`.
  void rewardPriorQuietMove(StackEntry* ss, const NodeState& n, int depth, int alpha, bool cutNode, bool pvNode);
  void updateCutoffStats(StackEntry* ss, Move best, int depth, const Move* quiets, int quietCount,
                         const Move* captures, int captureCount);
  void updateQuietStats(StackEntry* ss, Move best, int bonus, const Move* quiets, int quietCount);
  void updateContinuation(StackEntry* ss, Piece p, Square to, int bonus);
  /// Butterfly and continuation history of the quiet move `m` of the side to move, moved by
  /// `bonus` (negative: a malus) with the gravity formula.
  void updateQuietHistory(StackEntry* ss, Move m, int bonus);
  /// Continuation-history malus of the previous ply's quiet move (none when it was a capture,
  /// a promotion or a null move).
  void penalisePriorQuietMove(StackEntry* ss, int malus);

  // ---- Quiescence search (alphabeta_qsearch.cpp) ----
  /// Captures and promotions until the position is quiet; every evasion when in check.
  template <NodeType NT>
  int qsearch(StackEntry* ss, int alpha, int beta);

  int evaluate() { return std::clamp(m_eval->evaluate(m_pos), -kEvalMax, kEvalMax); }
  /// `raw` (an evaluate() result) plus the correction history's correction of this position.
  int correctedEval(int raw) const {
    return std::clamp(raw + m_hist->correction.correction(m_pos), -kEvalMax, kEvalMax);
  }
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
  StackEntry m_stack[kMaxPly + alphabeta::kStackOffset + 4];
  Move m_pvTable[kMaxPly + 2][kMaxPly + 2];
};

}  // namespace janus
