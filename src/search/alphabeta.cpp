// AlphaBetaSearch: the threads, iterative deepening with aspiration windows and MultiPV, and
// the reports. The main search is in alphabeta_search.cpp, the quiescence search in
// alphabeta_qsearch.cpp.

#include "search/alphabeta.h"

#include <algorithm>
#include <cmath>
#include <mutex>
#include <optional>

#include "core/movegen.h"
#include "search/alphabeta_worker.h"
#include "search/tb_root.h"
#include "search/tunables.h"

namespace janus {

namespace alphabeta {

namespace {
/// Late move reduction table [depth][move number] = base + ln(depth) * ln(moveNumber) / divisor
/// (chessprogramming wiki "Late Move Reductions"; the logarithmic formula is common practice).
int gLmr[64][64];
}  // namespace

void initLmr() {
  for (int d = 1; d < 64; ++d)
    for (int m = 1; m < 64; ++m)
      gLmr[d][m] = int(tunables::LmrBaseX100 / 100.0 +
                       std::log(double(d)) * std::log(double(m)) / (tunables::LmrDivisorX100 / 100.0));
}

int reduction(int depth, int moveCount) { return gLmr[std::min(depth, 63)][std::min(moveCount, 63)]; }

}  // namespace alphabeta

using namespace alphabeta;

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
    // A root the tables decided (Syzygy) shows their verdict until the search finds a mate.
    if (m_owner.m_rootTbScore && !isMateScore(info.score) && i == 0) {
      info.score = *m_owner.m_rootTbScore;
      info.bound = Bound::kExact;
    }
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
// AlphaBetaSearch
// ------------------------------------------------------------------------------------------------

AlphaBetaSearch::AlphaBetaSearch(std::unique_ptr<Evaluator> evaluator) : m_evalPrototype(std::move(evaluator)) {
  static std::once_flag once;  // the table is shared by every search of the process
  std::call_once(once, initLmr);
}

AlphaBetaSearch::~AlphaBetaSearch() = default;

void AlphaBetaSearch::newGame() {
  m_tt.clear(&ensurePool(m_threads, int(m_workers.size())));
  for (auto& w : m_workers) w->newGame();
}

void AlphaBetaSearch::setHashMiB(size_t mib) { m_tt.resize(mib); }

void AlphaBetaSearch::setEvaluator(std::unique_ptr<Evaluator> evaluator) {
  m_evalPrototype = std::move(evaluator);
  for (auto& w : m_workers) w->setEvaluator(m_evalPrototype->clone());
}

u64 AlphaBetaSearch::totalTbHits() const {
  u64 n = m_rootTbHits;
  for (const auto& w : m_workers) n += w->tbHits();
  return n;
}

std::optional<SearchResult> AlphaBetaSearch::probeRootTablebases(const Position& root, std::vector<Move>& rootMoves,
                                                                 const InfoCallback& onInfo) {
  TbRootDecision d = janus::probeRootTablebases(m_tb, root, rootMoves);
  m_rootTbHits = d.tbHits;
  m_rootTbScore = d.rootScore;
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
  m_tbLimit = m_tb ? m_tb->probeLimit() : 0;
  m_rootTbHits = 0;
  m_rootTbScore.reset();
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
  // Worker 0 searches on this thread, the helpers on the pool's threads (kept between searches);
  // when worker 0 is done, it stops the helpers.
  ensurePool(m_threads, int(m_workers.size())).run([this](int t) {
    m_workers[size_t(t)]->iterativeDeepening();
    if (t == 0) stopInternally();
  });

  const Worker& main = *m_workers[0];
  const RootMove& best = main.rootMoves()[0];
  result.best = best.move;
  result.score = best.score != -kInfinite ? best.score : best.previousScore;
  if (m_rootTbScore && !isMateScore(result.score)) result.score = *m_rootTbScore;
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
