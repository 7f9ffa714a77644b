#pragma once
// Alpha-beta search: iterative deepening negamax with principal variation search,
// aspiration windows, a shared transposition table, quiescence search, null-move pruning,
// late move reductions, futility/reverse-futility pruning, singular and check extensions,
// killer/history/countermove ordering and Lazy SMP (several threads searching the same
// tree and sharing only the TT). See alphabeta_search.cpp for the step-by-step map of search().

#include <atomic>
#include <memory>
#include <optional>
#include <thread>
#include <vector>

#include "eval/evaluator.h"
#include "search/history.h"
#include "search/search.h"
#include "search/timeman.h"
#include "search/tt.h"
#include "tb/tablebases.h"
#include "util/worker_pool.h"

namespace janus {

class AlphaBetaSearch final : public Search {
 public:
  /// `evaluator` is the prototype cloned for every search thread.
  explicit AlphaBetaSearch(std::unique_ptr<Evaluator> evaluator);
  ~AlphaBetaSearch() override;

  SearchResult run(const Position& root, const SearchLimits& limits, const SearchConfig& config,
                   const InfoCallback& onInfo, const SearchSignals& signals) override;
  void newGame() override;
  void setHashMiB(size_t mib) override;
  [[nodiscard]] std::string name() const override { return "alphabeta"; }

  /// Endgame tablebases to probe (root: search/tb_root.h; search: WDL after captures and pawn
  /// moves), or nullptr. The object must outlive the searches. Not during a search.
  void setTablebases(const Tablebases* tb) { m_tb = tb; }

  /// Replaces the evaluator prototype (e.g. switching HCE <-> NNUE). Not during a search.
  void setEvaluator(std::unique_ptr<Evaluator> evaluator);
  [[nodiscard]] TranspositionTable& tt() { return m_tt; }

 private:
  friend class Worker;
  class Worker;

  [[nodiscard]] u64 totalNodes() const;
  [[nodiscard]] u64 totalTbHits() const;
  /// Root tablebase probe (search/tb_root.h): answers won/lost positions with a known mate
  /// distance at once (Gaviota: DTM-optimal move, mate score) and otherwise narrows `rootMoves`
  /// to the moves that keep the tables' value. Returns a result if the search is not needed.
  std::optional<SearchResult> probeRootTablebases(const Position& root, std::vector<Move>& rootMoves,
                                                  const InfoCallback& onInfo);
  /// True when the client asked to stop or the limits ended the search.
  [[nodiscard]] bool stopRequested() const {
    return m_stop.load(std::memory_order_relaxed) || m_signals->stop.load(std::memory_order_relaxed);
  }
  /// True while pondering (ponder search without ponderhit yet): no time limits apply.
  [[nodiscard]] bool pondering() const {
    return m_limits.ponder && !m_signals->ponderhit.load(std::memory_order_relaxed);
  }
  void stopInternally() { m_stop.store(true, std::memory_order_relaxed); }

  TranspositionTable m_tt;
  const Tablebases* m_tb = nullptr;
  int m_tbLimit = 0;                 ///< m_tb->probeLimit() for this search (0: no probes)
  u64 m_rootTbHits = 0;              ///< probes of the root decision of this search
  std::optional<int> m_rootTbScore;  ///< Syzygy-decided root: the score shown unless a mate is found
  std::unique_ptr<Evaluator> m_evalPrototype;
  std::vector<std::unique_ptr<Worker>> m_workers;
  std::unique_ptr<WorkerPool> m_threads;  ///< one thread per worker (worker 0's is the caller's)
  std::atomic<bool> m_stop{false};  ///< set by the search itself (limits reached)
  const SearchSignals* m_signals = nullptr;
  SearchLimits m_limits;
  SearchConfig m_config;
  TimeManager m_time;
  const InfoCallback* m_onInfo = nullptr;
};

}  // namespace janus
