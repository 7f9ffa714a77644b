#pragma once
// Alpha-beta hints: the MCTS search's own alpha-beta searches at the nodes the tree relies on
// most, and the TT hints their transposition tables give the leaves the tree expands later (the
// informed priors and backups of MCTS-IP-M: Baier and Winands, "MCTS-Minimax Hybrids", IEEE
// TCIAIG 7(2), 2015; a hint's value enters as Gelly and Silver's "prior knowledge", ICML 2007).
//
// HintSearcher is a component of MctsSearch, not of the evaluation backend: it owns one
// alpha-beta search (Janus's NNUE, its own TT of HintParams::hashMiB) per MCTS search thread
// and counts the nodes they search, which the MCTS search adds to its UCI `nodes` and bounds by
// `go nodes`. The search asks it when a node is due for a hint (due), runs the hint outside the
// tree lock (search), and probes its TTs when it expands a leaf (ttHint, applyTTHint). See
// docs/mcts.md "Alpha-beta hints".

#include <atomic>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "mcts/backend.h"
#include "mcts/node.h"
#include "nnue/network.h"
#include "search/alphabeta.h"

namespace janus::mcts {

/// Settings of the alpha-beta hints (the hidden "MCTS Hint *" and "MCTS TT Hint *" options;
/// the engine's defaults: defaultFaceParams(), mcts/face.h). The defaults here are no hints.
struct HintParams {
  /// A node (the root included) with this many selection visits (playouts plus prior
  /// knowledge, Node::selectionVisits) asks once for the best move of an alpha-beta search of
  /// `depth` plies, whose prior is raised to `sharePercent`; 0 (or depth 0): no hints.
  int visits = 0;
  int depth = 10;
  /// Nodes of a hint's search at most (it stops there with its best move so far): a search of
  /// a fixed depth can take a second in a queen ending, which a clock of 10+0.1 cannot afford.
  int nodes = 10000;
  /// Repeated hints: >= 2 asks again at visits * growth^k (k = 1, 2, ...), hint k with growth^k
  /// times the nodes and 2k more plies (at most kMaxPly / 2), so that the nodes the tree relies on
  /// most get ever deeper searches while their cost stays a fixed share of the playouts (about
  /// nodes / visits alpha-beta nodes per playout). 0 or 1: once.
  int growth = 0;
  /// The prior (percent) a hinted move gets at least; the other moves' priors shrink in proportion.
  int sharePercent = 50;
  /// Virtual visits a hint's value counts for: the hinted node and its ancestors get the hint's
  /// score as this many visits of prior knowledge (Node::addPriorKnowledge), never as visits.
  u32 weight = 1;
  /// Hint round k (0 for a node's first) counts weight * weightGrowth^k visits (at most 2^31);
  /// a growth equal to `growth` keeps each round's share of its node's visits. 1: constant.
  u32 weightGrowth = 1;
  /// A hinted node's implicit minimax value (PuctParams::minimaxWeight) becomes its latest
  /// hint's value (Node::hintValue) instead of the minimax of its subtree's one-ply leaves.
  bool minimax = false;
  /// TT hints: a new leaf whose position a hint's search stored in its TT with a move, at a
  /// draft of at least ttDepth plies, gets that move's prior raised to ttSharePercent (after
  /// the backend's priors: the one-ply sharpening). 0: off.
  int ttSharePercent = 0;
  int ttDepth = 3;
  /// With a TT hint: the new leaf's value is moved into the entry's bound (raised to a lower
  /// bound's score, lowered to an upper bound's, an exact entry's score). false: the leaf's own.
  bool ttValue = false;
  /// Transposition table of each hint search (MiB; one per MCTS search thread).
  int hashMiB = 16;

  bool operator==(const HintParams&) const = default;
};

/// What one hint found (HintSearcher::search).
struct HintResult {
  Move best;                ///< the search's best move; Move::none() when no iteration completed
  Wdl wdl;                  ///< its score as win/draw/loss for the side to move (centipawnsToWdl)
  int requestedDepth = 0;   ///< plies the round asked for (HintSearcher::roundDepth)
  int completedDepth = 0;   ///< plies of the last iteration the search completed
  u64 nodes = 0;            ///< alpha-beta nodes searched
  bool cutShort = false;    ///< stopped by time, a stop or the node budget (hintWeightFraction)
  double weight = 0;        ///< virtual visits of prior knowledge it adds (roundWeight * fraction)
};

/// The fraction of its round's weight that a hint adds: 1 for a hint that completed the depth it
/// was asked for or stopped at its own node limit (HintParams::nodes; the default face's hints
/// usually end there, and their weights were measured that way); a hint cut short before either
/// (by the clock, a UCI stop or what was left of `go nodes`) weighs completed / requested plies,
/// since its best move and value are those of a shallower search, whose error grows as its depth
/// falls (a linear discount: the simplest rule that is 1 for a complete hint and 0 for none); 0
/// when no iteration completed: such a hint adds no prior knowledge and raises no prior.
[[nodiscard]] double hintWeightFraction(int completedDepth, int requestedDepth, bool cutShort);

/// The search of `pos` by `search` to `depth` plies, without the game history (a repetition
/// before the node must not change its hint): its score (centipawns, side to move's view; a mate
/// score when it finds one), best move and completed depth. `maxNodes` > 0 stops it there,
/// `maxMs` > 0 after that many milliseconds, and a stop of `signals` (if not null) at once; the
/// first iteration always completes (AlphaBetaSearch never aborts depth 1).
[[nodiscard]] SearchResult leafAlphaBeta(const Position& pos, AlphaBetaSearch& search, int depth, u64 maxNodes = 0,
                                         i64 maxMs = 0, const SearchSignals* signals = nullptr);

/// The priors of a hint: `priors` (summing to 1) with the prior of `moves[k] == best` raised to
/// `share` (0..1) if it is below, the others scaled by the same factor so that the sum stays 1;
/// appended to `out` in the same order. `best` not among `moves`: the priors unchanged.
void appendHinted(std::span<const float> priors, std::span<const Move> moves, Move best, double share,
                  std::vector<float>& out);

/// What a hint search's TT holds for a position (HintSearcher::ttHint).
struct TTHint {
  Move move;                  ///< the entry's move (legal in the position)
  Bound bound = Bound::kNone; ///< what its score is: a lower or upper bound, or exact
  Wdl wdl;                    ///< its score as win/draw/loss at the position's material
};

/// The hint scheduler and its alpha-beta searches. One per MctsSearch. due(), the round helpers
/// and params() are called with the tree lock held; search() and ttHint() by thread `thread`
/// only, each thread with its own searcher, outside the lock; the rest not during a search.
class HintSearcher {
 public:
  /// Throws janus::Error for settings out of range (see setParams).
  explicit HintSearcher(HintParams params = {});
  ~HintSearcher();

  /// New settings. Throws janus::Error if visits, depth (0..kMaxPly / 2), growth or the TT hint
  /// share/depth are out of range, nodes < 1, a share is not 0..100 or the hash not 1..65536 MiB.
  /// A new hash size drops the searchers (and their TTs). Not during a search.
  void setParams(const HintParams& params);
  [[nodiscard]] const HintParams& params() const { return m_params; }
  /// The NNUE network the hints search with; null: no hints (MCTS Value net). Drops the
  /// searchers. Not during a search.
  void setNetwork(std::shared_ptr<const nnue::Network> net);
  /// True when hints are on: a network, visits > 0 and depth > 0.
  [[nodiscard]] bool enabled() const { return m_net && m_params.visits > 0 && m_params.depth > 0; }
  /// Makes room for `threads` searchers (created at their thread's first hint). Not during a search.
  void prepare(int threads);
  /// Clears every searcher's TT and histories (a new game: the next game's TT hints do not
  /// depend on the previous game's). Not during a search.
  void newGame();

  /// True when `node` is to ask for its next hint: hints are on and its selection visits reached
  /// visits * growth^k for its round k = node.hints() (only k = 0 without a growth >= 2).
  [[nodiscard]] bool due(const Node& node) const;
  /// Nodes of round k's search: nodes * growth^k (at most 2^40).
  [[nodiscard]] u64 roundNodes(int round) const;
  /// Plies of round k's search: depth + 2k, at most kMaxPly / 2.
  [[nodiscard]] int roundDepth(int round) const;
  /// Virtual visits round k counts for when complete: weight * weightGrowth^k, 1..2^31.
  [[nodiscard]] double roundWeight(int round) const;

  /// Runs the hint of `round` for `pos` on thread `thread`'s searcher (0 <= thread < prepare()'s
  /// threads): at most min(roundNodes(round), maxNodes) nodes (maxNodes 0: roundNodes), `maxMs`
  /// milliseconds (0: no limit), until a stop of `signals` (may be null). Adds its nodes to
  /// nodes(). Requires enabled().
  [[nodiscard]] HintResult search(int thread, const Position& pos, int round, u64 maxNodes, i64 maxMs,
                                  const SearchSignals* signals);
  /// The TT hint of `pos` from thread `thread`'s TT: its entry when TT hints are on (a TT hint
  /// share or value), the TT holds `pos` at a draft >= ttDepth with a move and a score; else
  /// nullopt (also before the thread's first hint).
  [[nodiscard]] std::optional<TTHint> ttHint(int thread, const Position& pos);
  /// Applies `hint` to a new leaf's evaluation: raises the prior of its move among `moves` to
  /// ttSharePercent (priors: one per move, summing to 1) and, with ttValue, moves `wdl` into
  /// the entry's bound (compared by Q = win - loss, which the score model orders as centipawns).
  void applyTTHint(const TTHint& hint, std::span<const Move> moves, std::span<float> priors, Wdl& wdl) const;

  /// Alpha-beta nodes of every hint so far (all threads, all searches).
  [[nodiscard]] u64 nodes() const { return m_nodes.load(std::memory_order_relaxed); }
  /// One line for reports: "" without hints, else "; alpha-beta hints of depth ... (...), by NNUE
  /// <network name>; TT hints ...".
  [[nodiscard]] std::string describe() const;

 private:
  HintParams m_params;
  std::shared_ptr<const nnue::Network> m_net;
  std::vector<std::unique_ptr<AlphaBetaSearch>> m_searchers;  ///< per thread, created at its first hint
  std::atomic<u64> m_nodes{0};
};

}  // namespace janus::mcts
