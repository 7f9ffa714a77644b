#pragma once
// AlphaZero-style Monte Carlo tree search (Silver et al., "A general reinforcement learning
// algorithm that masters chess, shogi and Go through self-play", Science 2018, and its
// pseudocode), organised like Leela Chess Zero's classic search (lc0 src/search/classic/):
// the second implementation of the Search seam (search/search.h), next to alpha-beta.
//
// One playout: (1) select a path from the root with PUCT (node.h) until a node that is not
// expanded or is terminal, (2) evaluate the leaf with the backend (priors for its moves, a
// win/draw/loss value) unless the rules, the tablebases or a repetition decide it, (3) expand it
// and (4) back the value up the path, negated at every ply. Playouts are batched: each search
// thread gathers up to MctsParams::batchSize leaves (virtual loss steers the later ones of a
// batch away from the earlier ones, which are still "in flight"), evaluates them in one backend
// computation without holding the tree lock, then backs them all up. See mcts.cpp for the
// step map.
//
// Threading: the engine calls run() on its search thread; run() starts config.threads - 1
// helper threads for the duration of the search and joins them before it returns. One
// std::mutex guards the tree: selection, expansion and backup hold it, the backend evaluation
// (the expensive part with a network) runs outside it. The other methods are not called
// during a search.

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <vector>

#include "core/movegen.h"
#include "mcts/backend.h"
#include "mcts/hint.h"
#include "mcts/node.h"
#include "search/search.h"
#include "search/timeman.h"
#include "tb/tablebases.h"
#include "util/task_thread.h"
#include "util/worker_pool.h"

namespace janus::mcts {

/// Settings of the MCTS search (the engine's MCTS options). Not changed during a search.
struct MctsParams {
  PuctParams puct;
  /// Leaves gathered per thread before one backend call (lc0 MinibatchSize; 1 = no batching;
  /// 0 = the backend's BackendAttributes::preferredBatch, 1 when it names none). Batching pays
  /// only for a backend whose calls cost more than their positions (libtorch); with a cheap
  /// backend the virtual loss of a batch only blurs the selection (measured for pvnet + NNUE
  /// value at 1000 playouts: batch 1 vs 16 +61.4 +- 40.7 Elo, docs/lab/mcts-log.md).
  int batchSize = 0;
  /// Dirichlet noise at the root, for self-play only (AlphaZero: alpha 0.3 for chess, epsilon 0.25).
  bool noise = false;
  double noiseAlpha = 0.3;
  double noiseEpsilon = 0.25;
  /// Seed of the noise generator (0: from std::random_device).
  u64 seed = 0;
  /// Keep the subtree of the moves played since the last search (lc0 does by default).
  bool treeReuse = true;
  /// Stop when the most visited root move cannot be overtaken in the visits that remain (lc0
  /// SmartPruningFactor 1.33: the time-based estimate of remaining playouts is divided by it);
  /// visits are selection visits (playouts plus hints' prior knowledge), so the remaining
  /// playouts count as many each as the root's children gained per playout so far. The
  /// playouts that remain are bounded by SearchLimits::playouts and by what the node limit leaves
  /// after the hints' nodes.
  bool smartPruning = true;
  double smartPruningFactor = 1.33;
  /// Time use with a clock (MctsSearch::softLimitMs): the soft limit is TimeManager's optimum
  /// times this, times a factor from the best move's visit share, its changes and a falling
  /// value (0.5..2.0), never beyond TimeManager's maximum. 1 with the factor fixed at 1 is the
  /// alpha-beta face's optimum, which MCTS, having no iterations to finish, undershoots. The
  /// engine's default is defaultFaceParams()'s (mcts/face.h).
  double timeScale = 1.6;
  /// Alpha-beta hints (hint.h): when a node asks for one, what it may search, what its value
  /// weighs and the TT hints of its searches. The defaults: none. The engine's: defaultFaceParams()'s
  /// (mcts/face.h). They need a network (MctsSearch::setHintNetwork).
  HintParams hints;
  /// Tree memory limit in MiB. When the tree reaches it, the least-visited subtrees are freed
  /// (their roots keep their statistics and are expanded again when reached: recycleTree), so
  /// an infinite analysis goes on within the limit.
  size_t treeMemoryMiB = 1024;
  /// Root moves listed in SearchInfo::moveStats (most visited first; 0: none).
  int moveStats = 5;
};

/// What the last search did (for tests, `janus bench --search mcts` and tuning).
struct MctsStats {
  u64 playouts = 0;       ///< visits (playouts) added by this search
  u64 hintNodes = 0;      ///< alpha-beta nodes of this search's hints (SearchResult::nodes = playouts + this)
  u64 reusedVisits = 0;   ///< visits of the root kept from the previous search
  u64 evaluations = 0;    ///< positions sent to the backend
  u64 hints = 0;          ///< alpha-beta hints applied (HintParams::visits)
  u64 hintsCutShort = 0;  ///< of them, hints stopped before their depth or own node limit (hintWeightFraction)
  u64 terminals = 0;      ///< playouts ended by a terminal node (rules, repetition, tablebase, proof)
  u64 collisions = 0;     ///< gathers that ran into a leaf already being evaluated
  u64 batches = 0;        ///< backend computations
  u64 tbHits = 0;
  int maxDepth = 0;       ///< deepest playout (plies from the root)
  double averageDepth = 0.0;
  size_t treeBytes = 0;   ///< memory of the tree at the end of the search
  size_t treeNodes = 0;   ///< nodes in the tree at the end of the search
  u64 recycles = 0;       ///< times the tree reached its memory limit and was thinned
  size_t recycledBytes = 0;  ///< bytes freed by them
};

/// What the rules (or the tablebases) say about a position without evaluating it.
struct LeafStatus {
  Terminal terminal = Terminal::kNone;
  TerminalKind kind = TerminalKind::kNone;
};

/// Decides a position `ply` plies below the root (ply >= 1; `legal` its legal moves):
/// checkmate is a loss, stalemate, the 50-move rule and insufficient material draws
/// (kRule); a repetition of a position after the root, or a third occurrence counting the game
/// before the root, a draw (kRepetition: Position::isSearchRepetition, lc0's two-fold rule); a
/// tablebase WDL result (Gaviota or Syzygy, tb/tablebases.h; Syzygy after Syzygy50MoveRule,
/// without the SyzygyProbeDepth limit) when `tb` is given, the halfmove clock is 0 (after a
/// capture or pawn move) and the position is in the tables (kTablebase). Else kNone: the
/// backend evaluates it.
[[nodiscard]] LeafStatus classifyLeaf(const Position& pos, int ply, const MoveList& legal, const Tablebases* tb);

class MctsSearch final : public Search {
 public:
  explicit MctsSearch(std::shared_ptr<Backend> backend, MctsParams params = {});
  ~MctsSearch() override;

  /// Blocks; see Search::run. `limits.nodes` bounds the nodes of this search: its playouts plus
  /// its alpha-beta hints' nodes (a hint gets at most what is left; the search stops past it by
  /// at most one batch of playouts, or by a hint's first iteration, which alpha-beta always
  /// completes); `limits.playouts` bounds its playouts alone; `limits.depth`
  /// stops the search when the average playout depth reaches it (what is reported as depth, as
  /// lc0 does); `limits.mate` stops it once a mate in that many moves is proven. With a clock the
  /// search stops at softLimitMs() (between half and twice the scaled optimum, never past
  /// TimeManager's maximum; earlier with smart pruning); with movetime at that time.
  SearchResult run(const Position& root, const SearchLimits& limits, const SearchConfig& config,
                   const InfoCallback& onInfo, const SearchSignals& signals) override;
  /// Drops the tree, the backend's cache and the hints' TTs. Not during a search.
  void newGame() override;
  /// MCTS has no hash table: the tree is bounded by MctsParams::treeMemoryMiB. Does nothing.
  void setHashMiB(size_t) override {}
  [[nodiscard]] std::string name() const override { return "mcts"; }

  /// Replaces the backend and drops the tree. Not during a search.
  void setBackend(std::shared_ptr<Backend> backend);
  [[nodiscard]] Backend& backend() { return *m_backend; }
  /// Not during a search. A new seed re-seeds the noise generator. Throws janus::Error for
  /// hint settings out of range (HintSearcher::setParams), keeping the old params.
  void setParams(const MctsParams& params);
  [[nodiscard]] const MctsParams& params() const { return m_params; }
  /// The NNUE network of the alpha-beta hints (the alpha-beta face's); null: no hints. Drops
  /// the hints' searchers and TTs. Not during a search.
  void setHintNetwork(std::shared_ptr<const nnue::Network> net) { m_hints.setNetwork(std::move(net)); }
  /// The hint scheduler (its node count, its description). Not during a search.
  [[nodiscard]] const HintSearcher& hints() const { return m_hints; }
  /// Gaviota tablebases for leaf WDL probes and root DTM moves, or nullptr. Not during a search.
  void setTablebases(const Tablebases* tb) { m_tb = tb; }

  /// The tree of the last search (its root is the position searched), or nullptr. Not during a
  /// search. For tests and tools.
  [[nodiscard]] const Node* root() const { return m_root.get(); }
  [[nodiscard]] const MctsStats& lastStats() const { return m_stats; }

 private:
  struct Playout;

  /// Makes m_root the tree of `root`: the reused subtree if `root` follows from the previous
  /// root by moves whose nodes exist, else a new node.
  void prepareTree(const Position& root);
  /// Evaluates and expands an unexpanded root (one playout), so that the root's priors are there
  /// before the noise and the threads.
  void expandRoot(const Position& root);
  /// Milliseconds a hint may search: on a clock the time left until the search's maximum; 5 s in
  /// an infinite analysis or while pondering; 0 (no limit) under a node, playout or depth limit,
  /// so that those searches stay deterministic.
  [[nodiscard]] i64 hintTimeMs() const;
  /// Nodes the node limit leaves (limits.nodes minus the playouts started, the hints' nodes and
  /// the nodes reserved by hints in flight); UINT64_MAX without a node limit. Tree lock held.
  [[nodiscard]] u64 nodeRoom() const;
  /// Playouts the search may still start: the smaller of the playout limit's remainder and
  /// nodeRoom(). Tree lock held.
  [[nodiscard]] u64 playoutRoom() const;
  /// Sum of the selection visits of the root's children (tree lock held).
  [[nodiscard]] double rootChildSelectionVisits() const;
  /// Root tablebase probe as in alpha-beta: a won or lost root is answered at once with a
  /// DTM-optimal move; a drawn root keeps only its drawing moves in `rootMoves`.
  std::optional<SearchResult> probeRootTablebases(const Position& root, std::vector<Move>& rootMoves,
                                                  const InfoCallback& onInfo);

  /// Frees about half of the tree: collapses (Node::collapse) every node not on a playout in
  /// flight whose visits are below the smallest power of two that frees enough, keeping the
  /// root and the nodes above that threshold (the principal lines). Tree lock held.
  void recycleTree();
  /// Frees discarded trees on a thread of their own: freeing hundreds of thousands of nodes
  /// takes milliseconds that the clock of the move being searched would otherwise pay (lc0
  /// frees released subtrees on a background thread too).
  void freeInBackground(std::vector<std::unique_ptr<Node>> trees);
  /// The loop of search thread `thread` (0: the main one, which checks the limits and reports).
  void workerLoop(int thread);
  int gather(std::vector<Playout>& batch);                              // tree lock held
  /// Classifies and evaluates the batch's new leaves (applying TT hints) and runs its hints, on
  /// thread `thread`'s hint searcher.
  void evaluate(std::vector<Playout>& batch, int count, Position& pos, int thread);  // no lock
  void backup(std::vector<Playout>& batch, int count);                  // tree lock held
  [[nodiscard]] bool shouldStop();                                      // tree lock held
  /// With a clock: milliseconds after which the search stops (see MctsParams::timeScale).
  [[nodiscard]] i64 softLimitMs(const Node* bestChild) const;          // tree lock held
  [[nodiscard]] std::vector<SearchInfo> makeReport() const;             // tree lock held
  /// The statistics of the first `count` root moves in the order of the move choice (all
  /// allowed ones when count < 0).
  [[nodiscard]] std::vector<MoveStat> rootMoveStats(int count) const;   // tree lock held
  /// Fills m_rootBackendPriors from one backend evaluation of the root (a reused or hinted
  /// root's edges hold search priors; expandRoot() fills them itself).
  void captureRootPriors(const Position& root);
  [[nodiscard]] int bestRootEdge() const;                               // tree lock held
  [[nodiscard]] bool pondering() const {
    return m_limits.ponder && !m_signals->ponderhit.load(std::memory_order_relaxed);
  }
  [[nodiscard]] bool stopRequested() const {
    return m_stop.load(std::memory_order_relaxed) || m_signals->stop.load(std::memory_order_relaxed);
  }

  std::shared_ptr<Backend> m_backend;
  int m_backendBatch = 1;  ///< the backend's preferred batch (MctsParams::batchSize 0)
  MctsParams m_params;
  HintSearcher m_hints;  ///< the alpha-beta hints (params: m_params.hints)
  const Tablebases* m_tb = nullptr;
  std::mt19937_64 m_rng;

  // The tree, kept between searches for reuse.
  std::unique_ptr<Node> m_root;
  TaskThread m_freer;  ///< frees freeInBackground's trees (waited for before the next ones and at destruction)
  std::unique_ptr<WorkerPool> m_threads;  ///< one thread per search thread (the main one's is the caller's)
  std::optional<Position> m_rootPos;  ///< the position of m_root
  std::vector<float> m_cleanRootPriors;  ///< m_root's priors before noise (empty: no noise applied)
  /// The backend's priors of m_root's edges (edge order) for the reports (MoveStat::prior):
  /// the tree's own may be raised by hints or noised.
  std::vector<float> m_rootBackendPriors;
  MctsStats m_stats;

  // State of the running search. Fields marked (lock) are guarded by m_mutex.
  mutable std::mutex m_mutex;
  SearchLimits m_limits;
  SearchConfig m_config;
  const SearchSignals* m_signals = nullptr;
  const InfoCallback* m_onInfo = nullptr;
  TimeManager m_time;
  std::vector<bool> m_allowed;  ///< root edges allowed by searchmoves / root tablebase probe
  int m_allowedCount = 0;
  std::atomic<bool> m_stop{false};
  u64 m_started = 0;            ///< (lock) playouts begun
  u64 m_hintReserved = 0;       ///< (lock) nodes of the node limit reserved by hints in flight
  double m_rootChildVisitsAtStart = 0;  ///< the root children's selection visits when this search began
  u64 m_cumDepth = 0;           ///< (lock) sum of playout depths
  size_t m_treeBytes = 0;       ///< (lock)
  size_t m_treeNodes = 0;       ///< (lock)
  size_t m_treeLimitBytes = 0;
  int m_rootMaterial = 0;       ///< wdlMaterial of the root: the Q -> centipawn mapping's material
  int m_lastBest = -1;          ///< (lock) the most visited root edge at the last check
  i64 m_lastBestChangeMs = 0;   ///< (lock) when it last changed
  double m_previousQ = 0.0;     ///< Q of the move played after the previous search (for a falling value)
  bool m_havePreviousQ = false;
  std::atomic<u64> m_tbHits{0};
};

}  // namespace janus::mcts
