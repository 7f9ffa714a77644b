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
  /// How a leaf's centipawns become win/draw/loss (leafWdl): 0, the UCI_ShowWDL model
  /// (search/wdl.h); > 0, centipawns: the expected score sigmoid(cp / valueScale), the logistic
  /// of train-nnue's targets (`--sigmoid-scale`, 187 for Janus's networks), so that a network
  /// trained on game results (lambda 1) is read as the probability it was trained to predict.
  int valueScale = 0;

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

/// Win/draw/loss (side to move's view) for a centipawn score by search/wdl.h's model at the
/// material of `pos` (not rounded to per mille).
[[nodiscard]] Wdl centipawnsToWdl(int cp, const Position& pos);

/// Win/draw/loss (side to move's view) of a leaf score `cp` (centipawns or a mate score of
/// search/score.h) at `material` (wdlMaterial) by LeafSearchParams::valueScale: 0, the
/// UCI_ShowWDL model; s > 0, the expected score E = 1 / (1 + e^(-cp / s)) (the logistic of
/// Stockfish-style NNUE training, chessprogramming wiki "NNUE"), given as W - L = 2E - 1 with the
/// model's draw probability, capped at 2 min(E, 1 - E) so that W and L stay >= 0. Mate scores
/// are 1/0/0 and 0/0/1 either way.
[[nodiscard]] Wdl leafWdl(int cp, int material, int valueScale);

/// The decorator: priors from `policy`, values from `net` after leafQuiescence. Thread-safe
/// (each computation borrows an NnueEvaluator from a pool and returns it when destroyed).
class NnueValueBackend final : public Backend {
 public:
  /// Throws janus::Error if `policy` or `net` is null or the params are negative.
  NnueValueBackend(std::shared_ptr<Backend> policy, std::shared_ptr<const nnue::Network> net,
                   LeafSearchParams params = {});
  ~NnueValueBackend() override;

  [[nodiscard]] std::unique_ptr<BackendComputation> newComputation() override;
  /// The policy backend's attributes (history plies, halfmove clock) with this backend's
  /// description; cacheable when the policy is.
  [[nodiscard]] BackendAttributes attributes() const override;
  /// Clears the policy backend (a new game). Not during a search.
  void clear() override;

  [[nodiscard]] const LeafSearchParams& params() const { return m_params; }
  /// Leaf search nodes (quiescence and one-ply) so far by every computation (for speed reports;
  /// the alpha-beta hints' nodes are the MCTS search's: HintSearcher::nodes).
  [[nodiscard]] u64 leafNodes() const;

 private:
  class Computation;
  /// The evaluator of one computation's quiescence and one-ply searches, from the pool.
  std::unique_ptr<nnue::NnueEvaluator> borrow();
  void giveBack(std::unique_ptr<nnue::NnueEvaluator> eval, u64 nodes);

  std::shared_ptr<Backend> m_policy;
  std::shared_ptr<const nnue::Network> m_net;
  LeafSearchParams m_params;
  mutable std::mutex m_mutex;
  std::vector<std::unique_ptr<nnue::NnueEvaluator>> m_pool;  // guarded by m_mutex
  u64 m_leafNodes = 0;                                       // guarded by m_mutex
};

}  // namespace janus::mcts
