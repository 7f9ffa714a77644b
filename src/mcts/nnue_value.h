#pragma once
// NNUE leaf values for MCTS ("MCTS Value" = nnue): the alpha-beta face's network evaluates each
// leaf after a short quiescence search, and the centipawn result becomes win/draw/loss through
// the same score model as UCI_ShowWDL and the training targets (search/wdl.h).
//
// Why: an MCTS whose value head is weak plays weak chess however good its policy is. Monty
// (Jamie Whiting's MCTS engine, https://github.com/official-monty/Monty, its progression
// tests) measured +270 +- 76 Elo for replacing its own value network with an alpha-beta
// engine's NNUE and +134 +- 43 for a quiescence search at the leaves; Janus's NNUE is +181 over
// its hand-crafted evaluation in direct matches (docs/nnue.md).
//
// NnueValueBackend is a decorator, like CachingBackend: priors come from the wrapped backend
// (pvnet, torch, or uniform), only the value is replaced. The quiescence search is a plain
// fail-hard-free (fail-soft) negamax over captures and promotions (chessprogramming wiki
// "Quiescence Search"): stand pat on the static evaluation, moves ordered by MVV-LVA, captures
// that lose material by SEE skipped (search/see.h), under-promotions skipped, all evasions when
// in check (checkmate found there is a loss). It stops at LeafSearchParams::maxPly plies below
// the leaf or after `nodeLimit` nodes, where the static evaluation is returned. It knows no
// repetitions or 50-move rule: the tree decides those (mcts.cpp classifyLeaf), so a leaf's
// value depends on the position alone and can be cached.

#include <memory>
#include <mutex>
#include <span>
#include <vector>

#include "mcts/backend.h"
#include "nnue/network.h"
#include "nnue/nnue_evaluator.h"
#include "search/alphabeta.h"

namespace janus::mcts {

/// The search at MCTS leaves.
struct LeafSearchParams {
  /// Plies of captures below the leaf (0: the static evaluation only, no quiescence).
  int maxPly = 8;
  /// Nodes per quiescence search at most (its root counts); past it every node stands pat.
  int nodeLimit = 256;
  /// Delta pruning in the quiescence search (chessprogramming wiki "Delta Pruning"): a capture
  /// is skipped when the stand-pat score plus the victim's value plus this margin (centipawns)
  /// cannot reach alpha; the fail-soft score is raised to that bound. 0: off.
  int deltaMargin = 0;
  /// One-ply priors: every legal move of the leaf is searched (made, then the quiescence
  /// search above), the leaf's value is the best of them (a depth-1 search instead of the
  /// leaf's own quiescence), and the priors become softmax(ln(policy prior + 0.001) + score /
  /// priorTemperature): the policy network's opinion sharpened by the tactics a one-ply search
  /// sees (MCTS-minimax hybrids: Baier and Winands, "Monte-Carlo Tree Search and Minimax
  /// Hybrids", IEEE CIG 2013). 0: priors from the policy alone, the leaf's quiescence value.
  int priorTemperature = 0;  ///< centipawns; the engine's default: defaultFaceLeaf() (mcts/face.h)
  /// The one-ply search's window below the best score so far, in prior temperatures: a move
  /// whose score falls below it gets that upper bound (and a prior of at most e^-window of the
  /// best's). Narrower windows cut the quiescence searches of bad moves short.
  int windowTemperatures = 8;
  /// Alpha-beta hints (src/mcts/backend.h): a node with this many visits asks once for the
  /// best move of a full alpha-beta search of `hintDepth` plies (BackendComputation::addHint),
  /// whose prior is raised to `hintSharePercent`; 0 (or hintDepth 0): no hints.
  int hintVisits = 0;
  int hintDepth = 10;
  /// Nodes of a hint's search at most (it stops there with its best move so far): a search of
  /// a fixed depth can take a second in a queen ending, which a clock of 10+0.1 cannot afford.
  int hintNodes = 10000;
  /// Repeated hints: >= 2 asks again at hintVisits * G^k visits (k = 1, 2, ...), hint k with
  /// G^k times the nodes and 2k more plies (at most kMaxPly / 2), so the nodes the tree relies
  /// on most get ever deeper searches while their cost stays a fixed share of the playouts
  /// (about hintNodes / hintVisits alpha-beta nodes per visit). 0 or 1: once.
  int hintGrowth = 0;
  /// The prior (percent) a hinted move gets at least; the other moves' priors shrink in
  /// proportion.
  int hintSharePercent = 50;
  /// TT hints: a new leaf whose position the hints' alpha-beta searches stored in their TT with
  /// a move, at a draft of at least ttHintDepth plies, gets that move's prior raised to ttHintSharePercent (after the one-ply sharpening; appendHinted).
  /// A hint's search visits the subtree below its node, so the tree's later expansions there
  /// inherit its best and refutation moves for one TT probe each, without a search of their own
  /// (the TT move as a prior: Baier and Winands, "MCTS-minimax hybrids", IEEE TCIAIG 2015,
  /// knowledge from the minimax searches reused in the tree). 0: off.
  int ttHintSharePercent = 0;
  int ttHintDepth = 3;
  /// With a TT hint (above, at a draft >= ttHintDepth): the new leaf's value (centipawns of its
  /// quiescence or one-ply search) is moved into the entry's bound: raised to a lower bound's
  /// score, lowered to an upper bound's, the score of an exact entry. The deeper search's verdict
  /// replaces the leaf's static view where it has one. false: the leaf's own value.
  bool ttHintValue = false;
  /// Transposition table of the hints' alpha-beta search (MiB; one per search thread).
  int hashMiB = 16;

  bool operator==(const LeafSearchParams&) const = default;
};

/// Centipawns (side to move's view, within +-kEvalMax, or matedIn(ply) when a checkmate is
/// found in check) of `pos` by the quiescence search above with `eval` (whose accumulators
/// follow the moves it makes; reset() is called first). `pos` is restored before returning.
/// `nodes` (if not null) is increased by the nodes searched.
[[nodiscard]] int leafQuiescence(Position& pos, nnue::NnueEvaluator& eval, const LeafSearchParams& params,
                                 u64* nodes = nullptr);

/// The one-ply search of LeafSearchParams::priorTemperature: scores[i] (centipawns, side to move
/// of `pos`) of each of `moves` (legal in `pos`, same length as `scores`) by the quiescence
/// search of the position after it, with a window of LeafSearchParams::windowTemperatures
/// temperatures below the best so far (a score below the window is an upper bound). Returns the best score. `pos` is restored.
int leafOnePly(Position& pos, nnue::NnueEvaluator& eval, const LeafSearchParams& params, std::span<const Move> moves,
               std::span<int> scores, u64* nodes = nullptr);

/// The search of `pos` by `search` to `depth` plies (an alpha-beta hint, LeafSearchParams::hintDepth),
/// without its game history: its score (centipawns, side to move's view; a mate score when it
/// finds one) and best move (legal in `pos`). `nodes` (if not null) is increased by the nodes
/// searched.
/// `maxNodes` > 0 stops the search there, `maxMs` > 0 after that many milliseconds, and a stop
/// of `signals` (if not null) at once (its best move and score so far).
[[nodiscard]] SearchResult leafAlphaBeta(const Position& pos, AlphaBetaSearch& search, int depth, u64* nodes = nullptr,
                                         u64 maxNodes = 0, i64 maxMs = 0, const SearchSignals* signals = nullptr);

/// The priors of an alpha-beta hint (BackendComputation::addHint): `priors` (summing to 1) with
/// the prior of `moves[k] == best` raised to `share` (0..1) if it is below, the others scaled
/// by the same factor so that the sum stays 1; appended to `out` in the same order. `best` not
/// among `moves`: the priors unchanged.
void appendHinted(std::span<const float> priors, std::span<const Move> moves, Move best, double share,
                  std::vector<float>& out);

/// Win/draw/loss (side to move's view) for a centipawn score by search/wdl.h's model at the
/// material of `pos` (not rounded to per mille).
[[nodiscard]] Wdl centipawnsToWdl(int cp, const Position& pos);

/// The decorator: priors from `policy`, values from `net` after leafQuiescence. Thread-safe
/// (each computation borrows an NnueEvaluator from a pool and returns it when destroyed).
class NnueValueBackend final : public Backend {
 public:
  /// Throws janus::Error if `policy` or `net` is null, the params are negative or the leaf
  /// search's hash is not 1..65536 MiB.
  NnueValueBackend(std::shared_ptr<Backend> policy, std::shared_ptr<const nnue::Network> net,
                   LeafSearchParams params = {});
  ~NnueValueBackend() override;

  [[nodiscard]] std::unique_ptr<BackendComputation> newComputation() override;
  /// The policy backend's attributes (history plies, halfmove clock) with this backend's
  /// description; cacheable when the policy is.
  [[nodiscard]] BackendAttributes attributes() const override;
  /// Clears the policy backend and the pooled alpha-beta searches' TTs and histories (a new
  /// game: the next game's TT hints and leaf searches do not depend on the previous game's).
  /// Not during a search.
  void clear() override;

  [[nodiscard]] const LeafSearchParams& params() const { return m_params; }
  /// Leaf search nodes (quiescence, one-ply and alpha-beta) so far by every computation (for
  /// speed reports).
  [[nodiscard]] u64 leafNodes() const;

 private:
  class Computation;
  /// What one computation searches with: the evaluator of the quiescence and one-ply searches
  /// and, with hints(), an alpha-beta search with its TT.
  struct Searchers {
    std::unique_ptr<nnue::NnueEvaluator> eval;
    std::unique_ptr<AlphaBetaSearch> alphaBeta;
  };
  /// True when LeafSearchParams asks for alpha-beta hints (visits and depth > 0).
  [[nodiscard]] bool hints() const { return m_params.hintVisits > 0 && m_params.hintDepth > 0; }
  Searchers borrow();
  void giveBack(Searchers s, u64 nodes);

  std::shared_ptr<Backend> m_policy;
  std::shared_ptr<const nnue::Network> m_net;
  LeafSearchParams m_params;
  mutable std::mutex m_mutex;
  std::vector<Searchers> m_pool;  // guarded by m_mutex
  u64 m_leafNodes = 0;                                       // guarded by m_mutex
};

}  // namespace janus::mcts
