#pragma once
// The MCTS tree: nodes, edges and the PUCT selection rule.
//
//   Node (one position)                         Edge i (one legal move of that position)
//   +-----------------------------------+       +---------------------------------------+
//   | visits N, in-flight (virtual loss)|  ---> | move, prior P, unique_ptr<Node> child |
//   | sum of WL, sum of D (own view)    |       |   child == nullptr until first visited|
//   | prior knowledge: count, sum of WL |       |                                       |
//   | terminal status (+ kind, plies)   |       | implicit minimax value (or none)      |
//   | edges[0..n) sorted by prior desc  |       +---------------------------------------+
//   +-----------------------------------+
//
// Values: every node keeps W - L and D sums from the view of ITS side to move, so Q(node) is
// the expected score for the player to move there. The parent sees a child's Q negated.
// Edges are created when the node is expanded (its evaluation came back); child nodes only
// when first selected, so a node costs 64 bytes plus 16 per legal move once expanded.
//
// N counts playouts: every finished playout through a node adds one visit to it and nothing
// else does, so N(s) = 1 + the sum of its children's N + the playouts in flight for a node that
// was expanded once and never recycled. What an alpha-beta hint knows is "prior knowledge"
// (Gelly and Silver, "Combining Online and Offline Knowledge in UCT", ICML 2007, section 4: a
// heuristic value counted as n_prior visits of equivalent experience): a separate virtual count
// and value sum that the search's own decisions read as selection statistics (selectionVisits,
// selectionQ: PUCT's Q and N, the move preference betterEdge, the time manager's share, smart
// pruning and the hint schedule, as they read the visits the hints' weight used to be added to)
// and that is never reported or trained on as playouts (the UCI and GUI counts, self-play's
// targets). Deciding by playouts alone lost at 10+0.1 (docs/lab/mcts-log.md "N counts playouts").
//
// Not thread-safe: the search holds its tree mutex around every access (mcts.cpp).

#include <algorithm>
#include <climits>
#include <cmath>
#include <memory>
#include <optional>
#include <random>
#include <span>
#include <vector>

#include "core/types.h"
#include "mcts/backend.h"

namespace janus::mcts {

/// Game-theoretic value of a node known without evaluating it, side to move's view.
enum class Terminal : u8 { kNone, kWin, kDraw, kLoss };

/// Why a node is terminal.
enum class TerminalKind : u8 {
  kNone,
  kRule,        ///< checkmate (loss), stalemate, 50-move rule, insufficient material (draws)
  kRepetition,  ///< draw by repetition: two-fold inside the tree, three-fold with the game
  kTablebase,   ///< tablebase WDL, Gaviota or Syzygy (no distance known)
  kProven,      ///< from its children: a move to a lost child (win), or all children won (loss)
};

class Node {
 public:
  struct Edge {
    /// Edge::value when the backend gave no move value.
    static constexpr i16 kNoValue = INT16_MIN;
    /// Fixed-point scale of Edge::value (Q 1.0 = 32000).
    static constexpr double kValueScale = 32000.0;

    Move move;
    /// Implicit minimax value of the move (Lanctot, Winands, Pepels and Sturtevant, "Monte Carlo
    /// Tree Search with Heuristic Evaluations using Implicit Minimax Backups", IEEE CIG 2014):
    /// Q in [-1, 1] from this node's side to move's view, times kValueScale. The backend's move
    /// value (BackendComputation::moveValues) until the child is expanded, then the negated best
    /// value among the child's own edges (backupMinimax), the exact value once the child is
    /// terminal. kNoValue: unknown. 16 bits, so the edge stays 16 bytes.
    i16 value = kNoValue;
    float prior = 0.0f;          ///< P(s, a), 0..1
    std::unique_ptr<Node> node;  ///< the child, created on its first visit

    [[nodiscard]] bool hasValue() const { return value != kNoValue; }
    /// The value as Q in [-1, 1] (only if hasValue()).
    [[nodiscard]] double minimax() const { return value / kValueScale; }
    /// Stores `q` (clamped to [-1, 1]); returns true if the stored value changed.
    bool setMinimax(double q);
  };

  // ---- Statistics (own side to move's view) --------------------------------------------------
  [[nodiscard]] u32 visits() const { return m_visits; }
  [[nodiscard]] u32 inFlight() const { return m_inFlight; }
  /// Visits including those still being evaluated (used for the exploration term).
  [[nodiscard]] u32 startedVisits() const { return m_visits + m_inFlight; }
  /// Mean W - L of the finished visits, in [-1, 1] (0 without visits). For terminal nodes the
  /// exact value (+1 / 0 / -1) instead.
  [[nodiscard]] double q() const;
  /// Mean draw probability (1 for terminal draws, 0 for wins and losses).
  [[nodiscard]] double d() const;
  /// q() and d() as win/draw/loss.
  [[nodiscard]] Wdl wdl() const;
  /// Variance of the finished visits' W - L values around q(), in [0, 1] (0 with fewer than
  /// two visits and for terminal nodes, whose value is exact).
  [[nodiscard]] double qVariance() const;

  // ---- Selection's value: playouts plus prior knowledge (PUCT's Q reads these) ----------------
  /// Virtual visits of prior knowledge (alpha-beta hints, HintParams::weight): not playouts.
  [[nodiscard]] double priorVisits() const { return m_pkVisits; }
  /// visits() + priorVisits(): the weight of selectionQ()'s average and the N of PUCT.
  [[nodiscard]] double selectionVisits() const { return double(m_visits) + m_pkVisits; }
  /// selectionVisits() + inFlight(): the N of PUCT's exploration term.
  [[nodiscard]] double selectionStartedVisits() const { return selectionVisits() + double(m_inFlight); }
  /// (W + W_prior) / (N + N_prior) in [-1, 1]; the exact value for terminal nodes; 0 without either.
  [[nodiscard]] double selectionQ() const;
  /// The variance around selectionQ() of the visits and the prior knowledge (each prior visit
  /// counts as one sample of its value), in [0, 1]; 0 below two (virtual) visits and for terminals.
  [[nodiscard]] double selectionQVariance() const;
  /// Adds `n` (> 0) virtual visits of value `q` (W - L, own side to move's view) as prior
  /// knowledge: a hint's value weighted by HintResult::weight.
  void addPriorKnowledge(double n, double q) {
    m_pkVisits += float(n);
    m_pkWl += float(q * n);
    m_pkWl2 += float(q * q * n);
  }

  // ---- Children ------------------------------------------------------------------------------
  [[nodiscard]] bool expanded() const { return m_numEdges > 0; }
  [[nodiscard]] int numEdges() const { return m_numEdges; }
  [[nodiscard]] Edge& edge(int i) { return m_edges[size_t(i)]; }
  [[nodiscard]] const Edge& edge(int i) const { return m_edges[size_t(i)]; }
  [[nodiscard]] std::span<Edge> edges() { return {m_edges.get(), size_t(m_numEdges)}; }
  [[nodiscard]] std::span<const Edge> edges() const { return {m_edges.get(), size_t(m_numEdges)}; }
  /// The child of edge i, or nullptr if never visited.
  [[nodiscard]] Node* child(int i) const { return m_edges[size_t(i)].node.get(); }
  /// The child of edge i, created if needed. `created` is set when it was.
  Node& getOrCreateChild(int i, bool* created = nullptr);
  /// Index of the edge of `m`, or -1.
  [[nodiscard]] int findEdge(Move m) const;
  /// Creates one edge per move with its prior (same length, at least one), sorted by prior,
  /// highest first (stable: equal priors keep the given order). Replaces existing edges (and
  /// the child nodes under them). `values`: the backend's move values (Q, this node's view;
  /// same length as `moves`, or empty: none), which become the edges' implicit minimax values.
  void expand(std::span<const Move> moves, std::span<const float> priors, std::span<const float> values = {});
  /// The best implicit minimax value among the edges (Q, own view), or nullopt if no edge has
  /// one.
  [[nodiscard]] std::optional<double> bestEdgeValue() const;
  /// Replaces `moves` and `priors` by the edges' moves and priors, in edge order.
  void copyEdges(std::vector<Move>& moves, std::vector<float>& priors) const;
  /// True once an alpha-beta hint (HintSearcher::due) was asked for this node.
  [[nodiscard]] bool hinted() const { return m_hints > 0; }
  /// Hints asked for this node so far (at most 255; HintParams::growth). The rounds
  /// belong to the position, like hintValue() and the prior knowledge: they survive collapse()
  /// and a later expand(), so a recycled node goes on with its next round instead of replaying
  /// the rounds it had (their value is already in its prior knowledge).
  [[nodiscard]] int hints() const { return m_hints; }
  void markHinted() { m_hints = u8(std::min(255, m_hints + 1)); }
  /// The value of this node's latest alpha-beta hint (Q in [-1, 1], own side to move's view),
  /// kept only with HintParams::minimax; nullopt without one. It outlives collapse() (it is
  /// the position's value, not its edges').
  [[nodiscard]] std::optional<double> hintValue() const {
    if (m_hintValue == Edge::kNoValue) return std::nullopt;
    return m_hintValue / Edge::kValueScale;
  }
  /// Stores `q` (clamped to [-1, 1]) as hintValue().
  void setHintValue(double q) { m_hintValue = i16(std::lround(std::clamp(q, -1.0, 1.0) * Edge::kValueScale)); }
  /// Replaces the edges' priors in place, in edge order (`priors`: one per edge); the edges keep
  /// their order, children and values (selectEdge does not need the priors sorted).
  void setPriors(std::span<const float> priors);
  /// Frees the edges and every node below them, keeping this node's own statistics (visits,
  /// prior knowledge, hint rounds and value) and terminal status: the node becomes a leaf again, and is evaluated and expanded anew when a playout
  /// reaches it (tree recycling). Returns the bytes freed (edges of this node and of every node
  /// below, plus those nodes) and adds the number of nodes freed to `nodesFreed`.
  size_t collapse(size_t& nodesFreed);
  /// Detaches the subtree of edge i (for tree reuse).
  [[nodiscard]] std::unique_ptr<Node> releaseChild(int i) { return std::move(m_edges[size_t(i)].node); }
  /// Bytes used by this node and its edges (not its children).
  [[nodiscard]] size_t ownBytes() const { return sizeof(Node) + size_t(m_numEdges) * sizeof(Edge); }

  // ---- Terminal status -----------------------------------------------------------------------
  [[nodiscard]] bool isTerminal() const { return m_terminal != Terminal::kNone; }
  [[nodiscard]] Terminal terminal() const { return m_terminal; }
  [[nodiscard]] TerminalKind terminalKind() const { return m_kind; }
  /// Plies to the end with best play: for kRule/kProven wins and losses the mate distance
  /// (0: checkmated here, 1: mates in one). Otherwise 0.
  [[nodiscard]] int terminalPlies() const { return m_plies; }
  /// +1, 0, -1 for kWin, kDraw, kLoss (side to move's view); 0 when not terminal.
  [[nodiscard]] double terminalValue() const;
  /// `plies`: see terminalPlies(). A tablebase-based proof keeps kind kTablebase.
  void makeTerminal(Terminal t, TerminalKind kind, int plies = 0);
  /// Forgets the terminal status (statistics and edges stay).
  void makeNonTerminal();

  // ---- Updates -------------------------------------------------------------------------------
  /// A playout passes through this node: one more visit in flight (virtual loss).
  void addVirtualLoss() { ++m_inFlight; }
  /// A playout that passed through was abandoned (collision).
  void revertVirtualLoss() { --m_inFlight; }
  /// A playout through this node finished with value `wl` (W - L) and draw probability `d`,
  /// both from this node's side to move's view: the in-flight visit becomes a visit.
  void finishVisit(double wl, double d) {
    --m_inFlight;
    ++m_visits;
    m_wl += wl;
    m_wl2 += wl * wl;
    m_d += d;
  }
  /// Adds `n` finished visits of mean `q` and draw rate `d` (hand-built trees in tests).
  void addVisits(u32 n, double q, double d = 0.0) {
    m_visits += n;
    m_wl += q * n;
    m_wl2 += q * q * n;
    m_d += d * n;
  }

 private:
  std::unique_ptr<Edge[]> m_edges;
  double m_wl = 0.0;   // sum of W - L over the finished visits
  double m_wl2 = 0.0;  // sum of (W - L)^2 (qVariance)
  double m_d = 0.0;   // sum of D
  u32 m_visits = 0;
  u32 m_inFlight = 0;
  u16 m_numEdges = 0;
  Terminal m_terminal = Terminal::kNone;
  TerminalKind m_kind = TerminalKind::kNone;
  u16 m_plies = 0;
  u8 m_hints = 0;
  i16 m_hintValue = Edge::kNoValue;  // hintValue(), fixed point as Edge::value
  float m_pkVisits = 0.0f;  // prior knowledge: virtual visits (selectionVisits)
  float m_pkWl = 0.0f;      // their sum of W - L
  float m_pkWl2 = 0.0f;     // their sum of (W - L)^2 (selectionQVariance)
};

// ---- PUCT ----------------------------------------------------------------------------------------

/// Parameters of the selection rule. Values are on the Q scale [-1, 1].
struct PuctParams {
  /// c(s) = cpuctInit + cpuctFactor * ln((N(s) + cpuctBase) / cpuctBase). AlphaZero's
  /// pseudocode (Silver et al. 2018, supplementary "pseudocode.py": pb_c_init 1.25,
  /// pb_c_base 19652, pb_c = log((N + base + 1) / base) + init) uses values in [0, 1]; on the
  /// [-1, 1] scale the same search needs twice the constant: init 2.5 and factor 2. lc0 writes
  /// the formula as here, without the +1 (CPuct, CPuctBase, CPuctFactor).
  double cpuctInit = 2.5;
  double cpuctBase = 19652.0;
  double cpuctFactor = 2.0;
  /// First-play urgency by reduction (lc0 FpuStrategy "reduction", FpuValue 0.443 in lc0
  /// v0.25-0.28, 0.330 later): an unvisited child is valued at
  /// Q(parent) - fpuReduction * sqrt(sum of the priors of the visited children).
  double fpuReduction = 0.44;
  /// The same at the root (lc0's FpuStrategyAtRoot "same").
  double fpuReductionRoot = 0.44;
  /// Each in-flight visit counts as this much loss for the player choosing the child.
  double virtualLoss = 1.0;
  /// Implicit minimax backups (Lanctot et al., IEEE CIG 2014; Node::Edge::value): a visited,
  /// non-terminal child is selected by (1 - minimaxWeight) * Q + minimaxWeight * its edge's
  /// minimax value (where the edge has one) + U. The minimax value is the best leaf evaluation
  /// below the edge backed up as in minimax, so a refutation found deep in the tree counts at
  /// once instead of being averaged in over many visits. 0: plain PUCT. Unvisited children are
  /// valued by fpuValueWeight below. The engine's default (UCI "MCTS Minimax Weight") was 0.3
  /// (+40.5 +- 28.5 Elo over 0 at 10+0.1, SPRT(0, 20) H1), 0.43 since the SPSA of 2026-11-28
  /// (docs/lab/mcts-log.md); PuctParams keeps 0 so that the formula tests stay plain PUCT.
  double minimaxWeight = 0.0;
  /// First-play urgency from the move values: an unvisited child whose edge has a value
  /// (Node::Edge::value, the backend's one-ply score of the move) is valued at
  /// (1 - fpuValueWeight) * FPU + fpuValueWeight * that value instead of the FPU value alone, so
  /// the next new move tried is the one the one-ply search rates best for its prior, not the
  /// highest prior alone (heuristic Q initialisation; Gelly and Silver, "Combining Online and
  /// Offline Knowledge in UCT", ICML 2007, section 4: a child's value starts at a heuristic
  /// estimate). 0: plain FPU. The engine's default (UCI "MCTS FPU Value Weight") is 0.66, from
  /// the SPSA of 2026-11-28 (0.5 vs 0: +65.0 +- 46.9 Elo at 1000 playouts per move, docs/lab/mcts-log.md).
  double fpuValueWeight = 0.0;
  /// Variance-scaled exploration (the idea of Monty's "CPUCT variance scaling", J. Wells et
  /// al., github.com/official-monty/Monty): where the values seen below a node spread widely
  /// the search explores more, where they agree it trusts Q. c(s) is multiplied by
  /// 1 + cpuctVarWeight * (f - 1), f = sigma / cpuctVarScale blended towards 1 for few visits:
  /// f += (1 - f) / (1 + cpuctVarWarmup * N(s)), sigma = sqrt(Node::qVariance()) on the
  /// [-1, 1] scale. Weight 0 turns it off. The engine's default (UCI "MCTS CPuct Var Weight")
  /// was 0.85 (+52.5 +- 45.6 Elo over 0 at 1000 playouts per move, SPRT(0, 30) H1), 0.88 since
  /// the SPSA of 2026-11-27, 0.93 since the one of 2026-11-28 (docs/lab/mcts-log.md), which also set the
  /// engine's CPuct 1.86, factor 1.30, base 19230 and FPU reduction 0.06;
  /// PuctParams itself defaults to 0 so that the formula tests and self-play stay plain PUCT.
  double cpuctVarWeight = 0.0;
  double cpuctVarScale = 0.4;
  double cpuctVarWarmup = 0.5;
};

// The selection rule reads the nodes' selection statistics (Node::selectionVisits, selectionQ:
// playouts plus prior knowledge) in Q and in the exploration term.

/// Exploration constant c(s) for a node with `parentVisits` (started, selection) visits.
[[nodiscard]] double cpuct(const PuctParams& p, double parentVisits);

/// c(s) of `node`: cpuct() times the variance factor of PuctParams::cpuctVarWeight (>= 0).
[[nodiscard]] double cpuct(const PuctParams& p, const Node& node);

/// Q given to unvisited children of `node` (its side to move's view): see fpuReduction.
[[nodiscard]] double fpuValue(const Node& node, double reduction);

/// Q(s, a) of edge i from `node`'s side to move's view: the exact value for a terminal child,
/// else (-W(child) - virtualLoss * inFlight) / (N + inFlight) with W and N the child's playouts
/// plus prior knowledge (selectionVisits), else `fpu` if never started.
[[nodiscard]] double edgeQ(const Node& node, int i, double fpu, double virtualLoss);

/// U(s, a) = c(s) * P(s, a) * sqrt(N(s)) / (1 + N(s, a)), N the selection visits counting
/// playouts in flight.
[[nodiscard]] double edgeU(const Node& node, int i, double c);

/// The edge maximising Q + U (AlphaZero's PUCT; ties: the lower index, i.e. the higher prior).
/// `allowed` (root only, may be null) masks edges excluded by "go searchmoves". -1 if no edge.
[[nodiscard]] int selectEdge(const Node& node, const PuctParams& p, bool isRoot, const std::vector<bool>* allowed = nullptr);

/// Mixes Dirichlet(alpha) noise into the priors of `node`'s edges:
/// P' = (1 - epsilon) * P + epsilon * eta (AlphaZero: alpha 0.3 for chess, epsilon 0.25).
/// The priors keep summing to what they summed to (1). Deterministic for a given `rng` state.
void applyDirichletNoise(Node& node, double alpha, double epsilon, std::mt19937_64& rng);

/// Implicit minimax backup of edge i of `parent` from its child: the exact value of a terminal
/// child, else the negated value of the child's latest alpha-beta hint (Node::hintValue(): a
/// search of thousands of nodes knows more than the minimax of the subtree's one-ply leaves),
/// else the negated Node::bestEdgeValue() of an expanded child; unchanged when the child has
/// none of them. Returns true if the edge's value changed (then the parent's best value may have
/// changed too: the search repeats this up the path and stops at the first edge that keeps its
/// value).
bool backupMinimax(Node& parent, int i);

/// Mate propagation: makes `node` a proven win if a child is a (rule, proven or tablebase) loss,
/// or a proven loss if every edge has a child that is a win. Returns true if it changed.
bool updateProof(Node& node);

/// Order of root moves for play and reporting: proven wins first (shortest mate first), then
/// by selection visits (playouts plus prior knowledge), then by selection Q; proven losses last
/// (longest resistance first). True if edge a of `node` comes before edge b.
[[nodiscard]] bool betterEdge(const Node& node, int a, int b);

}  // namespace janus::mcts
