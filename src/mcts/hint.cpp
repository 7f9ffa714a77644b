// The alpha-beta hints' scheduler and searches (hint.h; MCTS-IP-M of Baier and Winands, IEEE
// TCIAIG 2015).

#include "mcts/hint.h"

#include <algorithm>

#include <fmt/format.h>

#include "mcts/nnue_value.h"
#include "nnue/nnue_evaluator.h"
#include "search/score.h"
#include "util/error.h"

namespace janus::mcts {

double hintWeightFraction(int completedDepth, int requestedDepth, bool cutShort) {
  if (completedDepth <= 0 || requestedDepth <= 0) return 0.0;
  if (!cutShort || completedDepth >= requestedDepth) return 1.0;
  return double(completedDepth) / double(requestedDepth);
}

SearchResult leafAlphaBeta(const Position& pos, AlphaBetaSearch& search, int depth, u64 maxNodes, i64 maxMs,
                           const SearchSignals* signals) {
  // Without the game history: a repetition of the game before the node must not change its hint.
  const Position leaf = Position::fromFen(pos.fen(), pos.isChess960());
  SearchLimits limits;
  limits.depth = depth;
  limits.nodes = maxNodes;
  if (maxMs > 0) limits.moveTime = maxMs;
  SearchConfig config;
  config.moveOverheadMs = 0;
  const SearchSignals none;
  return search.run(leaf, limits, config, InfoCallback{}, signals ? *signals : none);
}

namespace {

/// Raises priors[k] to `share` if it is below, scaling the others from 1 - p[k] to 1 - share so
/// that they keep their ratios (appendHinted in place). k >= priors.size(): unchanged.
void raisePrior(std::span<float> priors, size_t k, double share) {
  if (k >= priors.size() || double(priors[k]) >= share) return;
  const double scale = (1.0 - share) / (1.0 - double(priors[k]));  // p[k] < share <= 1
  for (size_t i = 0; i < priors.size(); ++i) priors[i] = i == k ? float(share) : float(double(priors[i]) * scale);
}

size_t indexOf(std::span<const Move> moves, Move m) { return size_t(std::find(moves.begin(), moves.end(), m) - moves.begin()); }

}  // namespace

void appendHinted(std::span<const float> priors, std::span<const Move> moves, Move best, double share,
                  std::vector<float>& out) {
  const size_t first = out.size();
  out.insert(out.end(), priors.begin(), priors.end());
  raisePrior(std::span<float>(out).subspan(first), indexOf(moves, best), share);
}

HintSearcher::HintSearcher(HintParams params) { setParams(params); }

HintSearcher::~HintSearcher() = default;

void HintSearcher::setParams(const HintParams& p) {
  if (p.visits < 0 || p.depth < 0 || p.depth > kMaxPly / 2 || p.nodes < 1 || p.growth < 0 || p.sharePercent < 0 ||
      p.sharePercent > 100 || p.hashMiB < 1 || p.hashMiB > 65536 || p.ttSharePercent < 0 || p.ttSharePercent > 100 ||
      p.ttDepth < 1)
    throw Error(fmt::format("alpha-beta hints: the visits {} must be >= 0, the depth {} 0..{}, the nodes {} >= 1, the "
                            "growth {} >= 0, the share {}% 0..100, the hash {} MiB 1..65536, the TT hint share {}% "
                            "0..100 and its depth {} >= 1",
                            p.visits, p.depth, kMaxPly / 2, p.nodes, p.growth, p.sharePercent, p.hashMiB,
                            p.ttSharePercent, p.ttDepth));
  if (p.hashMiB != m_params.hashMiB) m_searchers.clear();
  m_params = p;
}

void HintSearcher::setNetwork(std::shared_ptr<const nnue::Network> net) {
  m_net = std::move(net);
  m_searchers.clear();
}

void HintSearcher::prepare(int threads) {
  if (int(m_searchers.size()) < threads) m_searchers.resize(size_t(threads));
}

void HintSearcher::newGame() {
  for (const auto& s : m_searchers)
    if (s) s->newGame();
}

bool HintSearcher::due(const Node& node) const {
  if (!enabled()) return false;
  const int round = node.hints();
  if (round > 0 && m_params.growth < 2) return false;  // hinted once: done
  // visits * growth^round, counted in playouts plus prior knowledge (Node::selectionVisits): a
  // node whose subtree's hints carry weight is one the tree relies on, and asks again sooner
  // (the schedule the hint weights were measured with; on playouts alone the face loses, see
  // docs/lab/mcts-log.md "N counts playouts").
  double threshold = m_params.visits;
  for (int k = 0; k < round && threshold < 1e18; ++k) threshold *= m_params.growth;
  return node.selectionVisits() >= threshold;
}

u64 HintSearcher::roundNodes(int round) const {
  u64 nodes = u64(m_params.nodes);
  for (int k = 0; k < round && nodes < (u64(1) << 40); ++k) nodes *= u64(std::max(1, m_params.growth));
  return nodes;
}

int HintSearcher::roundDepth(int round) const { return std::min(m_params.depth + 2 * round, kMaxPly / 2); }

double HintSearcher::roundWeight(int round) const {
  constexpr u64 kMaxWeight = u64(1) << 31;
  u64 w = std::max<u32>(m_params.weight, 1);
  for (int k = 0; k < round && w < kMaxWeight; ++k) w *= std::max<u32>(m_params.weightGrowth, 1);
  return double(std::min(w, kMaxWeight));
}

HintResult HintSearcher::search(int thread, const Position& pos, int round, u64 maxNodes, i64 maxMs,
                                const SearchSignals* signals) {
  if (!enabled()) throw Error("alpha-beta hints: a hint was asked for without a network, hint visits and depth");
  std::unique_ptr<AlphaBetaSearch>& searcher = m_searchers.at(size_t(thread));
  if (!searcher) {
    searcher = std::make_unique<AlphaBetaSearch>(std::make_unique<nnue::NnueEvaluator>(m_net));
    searcher->setHashMiB(size_t(m_params.hashMiB));
  }
  const u64 own = roundNodes(round);
  HintResult h;
  h.requestedDepth = roundDepth(round);
  const SearchResult r =
      leafAlphaBeta(pos, *searcher, h.requestedDepth, maxNodes ? std::min(maxNodes, own) : own, maxMs, signals);
  m_nodes.fetch_add(r.nodes, std::memory_order_relaxed);
  h.nodes = r.nodes;
  h.completedDepth = r.depth;
  // Its own end: the depth asked for, or its own node limit (alpha-beta stops at >= the limit).
  h.cutShort = r.depth < h.requestedDepth && r.nodes < own;
  const double fraction = hintWeightFraction(r.depth, h.requestedDepth, h.cutShort);
  if (fraction > 0) {
    h.best = r.best;
    h.wdl = centipawnsToWdl(std::clamp(r.score, -kMate, kMate), pos);
    h.weight = roundWeight(round) * fraction;
  }
  return h;
}

std::optional<TTHint> HintSearcher::ttHint(int thread, const Position& pos) {
  if ((m_params.ttSharePercent <= 0 && !m_params.ttValue) || !enabled() || size_t(thread) >= m_searchers.size())
    return std::nullopt;
  AlphaBetaSearch* searcher = m_searchers[size_t(thread)].get();
  TTData tte;
  if (!searcher || !searcher->tt().probe(pos.key(), tte) || !tte.move ||
      tte.score == kScoreNone || tte.bound == Bound::kNone || tte.depth < m_params.ttDepth)
    return std::nullopt;
  return TTHint{tte.move, tte.bound, centipawnsToWdl(std::clamp(scoreFromTT(tte.score, 0), -kMate, kMate), pos)};
}

void HintSearcher::applyTTHint(const TTHint& hint, std::span<const Move> moves, std::span<float> priors,
                               Wdl& wdl) const {
  if (m_params.ttSharePercent > 0) raisePrior(priors, indexOf(moves, hint.move), m_params.ttSharePercent / 100.0);
  if (!m_params.ttValue) return;
  if ((u8(hint.bound) & u8(Bound::kLower)) && wdl.q() < hint.wdl.q()) wdl = hint.wdl;
  if ((u8(hint.bound) & u8(Bound::kUpper)) && wdl.q() > hint.wdl.q()) wdl = hint.wdl;
}

std::string HintSearcher::describe() const {
  if (!enabled()) return "";
  const HintParams& p = m_params;
  std::string s = fmt::format("; alpha-beta hints of depth {} (at most {} nodes) at {} visits (best move's prior at "
                              "least {}%)",
                              p.depth, p.nodes, p.visits, p.sharePercent);
  if (p.growth >= 2) s += fmt::format(", again at {}x the visits with {}x the nodes", p.growth, p.growth);
  s += fmt::format(", by NNUE {}", m_net->name());
  if (p.ttSharePercent > 0 || p.ttValue)
    s += fmt::format("; TT hints at a draft of {} plies (prior at least {}%{})", p.ttDepth, p.ttSharePercent,
                     p.ttValue ? ", value within the bound" : "");
  return s;
}

}  // namespace janus::mcts
