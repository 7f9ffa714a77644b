#include "mcts/nnue_value.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include <fmt/format.h>

#include "core/movegen.h"
#include "search/score.h"
#include "search/see.h"
#include "search/tunables.h"
#include "search/wdl.h"
#include "util/error.h"

namespace janus::mcts {

namespace {

/// Victim value * 8 - attacker type: MVV-LVA order (chessprogramming wiki "MVV-LVA").
int mvvLva(const Position& pos, Move m) {
  const PieceType victim = capturedType(pos, m);
  const int gain = (victim == kNoPieceType ? 0 : tunables::seeValue(victim)) +
                   (m.isPromotion() ? tunables::seeValue(m.promotion()) : 0);
  return gain * 8 - int(typeOf(pos.movedPiece(m)));
}

struct Quiescence {
  Position& pos;
  nnue::NnueEvaluator& eval;
  const LeafSearchParams& params;
  u64 nodes = 0;

  int staticEval() { return std::clamp(eval.evaluate(pos), -kEvalMax, kEvalMax); }

  int search(int alpha, int beta, int ply) {
    ++nodes;
    const bool inCheck = pos.inCheck();
    const bool frontier = ply >= params.maxPly || nodes >= u64(params.nodeLimit);
    int best = -kInfinite, standPat = -kInfinite;
    if (!inCheck) {  // stand pat before generating anything: most nodes end here
      best = standPat = staticEval();
      if (best >= beta || frontier) return best;
      alpha = std::max(alpha, best);
    }
    MoveList moves;
    generateMoves(pos, moves, inCheck ? GenType::kAll : GenType::kNoisy);
    if (inCheck && moves.empty()) return matedIn(ply);
    if (inCheck && frontier) return staticEval();  // in check at the frontier: the evaluation as it is
    // Order: best MVV-LVA first (selection sort: lists are short).
    int keys[kMaxMoves];
    for (int i = 0; i < moves.size(); ++i) keys[i] = mvvLva(pos, moves[i]);
    Move* list = moves.begin();
    for (int i = 0; i < moves.size(); ++i) {
      int top = i;
      for (int j = i + 1; j < moves.size(); ++j)
        if (keys[j] > keys[top]) top = j;
      std::swap(list[i], list[top]);
      std::swap(keys[i], keys[top]);
      const Move m = list[i];
      if (!inCheck) {
        if (m.isPromotion() && m.promotion() != kQueen) continue;
        if (params.deltaMargin > 0 && !m.isPromotion()) {
          // Delta pruning: even winning the victim outright cannot lift the score to alpha.
          const int bound = standPat + tunables::seeValue(capturedType(pos, m)) + params.deltaMargin;
          if (bound <= alpha) {
            best = std::max(best, bound);
            continue;
          }
        }
        if (!seeGe(pos, m, 0)) continue;
      }
      eval.onMakeMove(pos, m);
      pos.makeMove(m);
      const int score = -search(-beta, -alpha, ply + 1);
      pos.unmakeMove(m);
      eval.onUnmakeMove(pos, m);
      if (score > best) {
        best = score;
        if (score > alpha) {
          if (score >= beta) break;
          alpha = score;
        }
      }
    }
    return best;
  }
};

}  // namespace

int leafOnePly(Position& pos, nnue::NnueEvaluator& eval, const LeafSearchParams& params, std::span<const Move> moves,
               std::span<int> scores, u64* nodes) {
  eval.reset(pos);
  int best = -kInfinite;
  u64 searched = 0;
  // Moves far below the best get almost no prior: a window of a few temperatures (8: e^-8 <
  // 0.04%) lets the quiescence searches of the others fail low early.
  const int window = std::max(1, params.windowTemperatures) * std::max(1, params.priorTemperature);
  for (size_t i = 0; i < moves.size(); ++i) {
    const Move m = moves[i];
    eval.onMakeMove(pos, m);
    pos.makeMove(m);
    Quiescence q{pos, eval, params};
    const int alpha = best == -kInfinite ? -kInfinite : std::max(-kInfinite, best - window);
    scores[i] = -q.search(-kInfinite, -alpha, 1);
    searched += q.nodes;
    pos.unmakeMove(m);
    eval.onUnmakeMove(pos, m);
    best = std::max(best, scores[i]);
  }
  if (nodes) *nodes += searched;
  return best;
}

int leafQuiescence(Position& pos, nnue::NnueEvaluator& eval, const LeafSearchParams& params, u64* nodes) {
  eval.reset(pos);
  Quiescence q{pos, eval, params};
  const int score = q.search(-kInfinite, kInfinite, 0);
  if (nodes) *nodes += q.nodes;
  return score;
}

SearchResult leafAlphaBeta(const Position& pos, AlphaBetaSearch& search, int depth, u64* nodes, u64 maxNodes, i64 maxMs,
                           const SearchSignals* signals) {
  // Without the game history: a repetition of the game before the leaf must not change the
  // leaf's (cached) value.
  const Position leaf = Position::fromFen(pos.fen(), pos.isChess960());
  SearchLimits limits;
  limits.depth = depth;
  limits.nodes = maxNodes;
  if (maxMs > 0) limits.moveTime = maxMs;
  SearchConfig config;
  config.moveOverheadMs = 0;
  const SearchSignals none;
  const SearchResult r = search.run(leaf, limits, config, InfoCallback{}, signals ? *signals : none);
  if (nodes) *nodes += r.nodes;
  return r;
}

namespace {

/// Raises priors[k] to `share` if it is below, scaling the others from 1 - p[k] to 1 - share so
/// that they keep their ratios (appendHinted in place). k >= priors.size(): unchanged.
void raisePrior(std::span<float> priors, size_t k, double share) {
  if (k >= priors.size() || double(priors[k]) >= share) return;
  const double scale = (1.0 - share) / (1.0 - double(priors[k]));  // p[k] < share <= 1
  for (size_t i = 0; i < priors.size(); ++i) priors[i] = i == k ? float(share) : float(double(priors[i]) * scale);
}

}  // namespace

void appendHinted(std::span<const float> priors, std::span<const Move> moves, Move best, double share,
                  std::vector<float>& out) {
  const size_t first = out.size();
  out.insert(out.end(), priors.begin(), priors.end());
  raisePrior(std::span<float>(out).subspan(first), size_t(std::find(moves.begin(), moves.end(), best) - moves.begin()),
             share);
}

Wdl centipawnsToWdl(int cp, const Position& pos) {
  const WdlProbability p = scoreToWdlProbability(cp, wdlMaterial(pos));
  return Wdl{float(p.win), float(p.draw), float(p.loss)};
}

// ---- The backend ------------------------------------------------------------------------------

namespace {

/// Appends softmax(ln(p + 0.001) + (score - best) / t) over the moves to `out` (the
/// sharpening of LeafSearchParams::priorTemperature; t in centipawns).
void appendSharpened(std::span<const float> p, std::span<const int> scores, double t, std::vector<float>& out) {
  const int best = *std::max_element(scores.begin(), scores.end());
  const size_t first = out.size();
  double sum = 0.0;
  for (size_t k = 0; k < p.size(); ++k) {
    out.push_back(float(std::exp(std::log(double(p[k]) + 0.001) + double(scores[k] - best) / t)));
    sum += out.back();
  }
  for (size_t k = first; k < out.size(); ++k) out[k] = float(out[k] / sum);
}

}  // namespace

class NnueValueBackend::Computation final : public BackendComputation {
 public:
  explicit Computation(NnueValueBackend& owner)
      : m_owner(owner), m_policy(owner.m_policy->newComputation()), m_searchers(owner.borrow()) {}
  ~Computation() override { m_owner.giveBack(std::move(m_searchers), m_nodes); }

  int addInput(const Position& pos, std::span<const Move> legalMoves) override {
    Entry e;
    e.policyIndex = m_policy->addInput(pos, legalMoves);
    Position scratch = pos;  // the searches make moves; `pos` is the caller's
    const LeafSearchParams& params = m_owner.m_params;
    int cp = 0;
    if (params.priorTemperature > 0) {  // the priors' scores; their best is the value
      e.sharpen = true;
      e.scoreOffset = m_scores.size();
      cp = onePlyScores(scratch, legalMoves);
      appendMoveValues(e, pos, legalMoves.size());
    } else {
      cp = leafQuiescence(scratch, *m_searchers.eval, params, &m_nodes);
    }
    TTData tte;
    if (ttHint(pos, tte)) {
      const auto it = std::find(legalMoves.begin(), legalMoves.end(), tte.move);
      if (params.ttHintSharePercent > 0 && it != legalMoves.end()) e.ttIndex = int(it - legalMoves.begin());
      if (params.ttHintValue) {  // the value within the entry's bound
        const int score = scoreFromTT(tte.score, 0);
        if ((u8(tte.bound) & u8(Bound::kLower)) && cp < score) cp = score;
        if ((u8(tte.bound) & u8(Bound::kUpper)) && cp > score) cp = score;
      }
    }
    e.wdl = centipawnsToWdl(std::clamp(cp, -kMate, kMate), pos);
    m_entries.push_back(e);
    return int(m_entries.size()) - 1;
  }
  int addHint(const Position& pos, std::span<const Move> legalMoves, std::span<const float> priors,
              const HintRequest& request) override {
    const int round = request.round;
    const LeafSearchParams& params = m_owner.m_params;
    if (params.hintVisits <= 0 || params.hintDepth <= 0)
      throw Error("nnue value backend: hints need hint visits and a hint depth > 0");
    if (priors.size() != legalMoves.size() || legalMoves.empty())
      throw Error(fmt::format("nnue value backend: a hint needs one prior per move ({} priors, {} moves)",
                              priors.size(), legalMoves.size()));
    if (round < 0 || (round > 0 && params.hintGrowth < 2))
      throw Error(fmt::format("nnue value backend: hint round {} without a hint growth >= 2", round));
    // Round k: G^k times the nodes (at most 2^40) and 2k more plies (LeafSearchParams::hintGrowth).
    u64 nodes = u64(params.hintNodes);
    for (int k = 0; k < round && nodes < (u64(1) << 40); ++k) nodes *= u64(params.hintGrowth);
    const int depth = std::min(params.hintDepth + 2 * round, kMaxPly / 2);
    const SearchResult r =
        leafAlphaBeta(pos, *m_searchers.alphaBeta, depth, &m_nodes, nodes, request.maxMs, request.signals);
    // (A stopped alpha-beta search still finishes its first iteration: a best move and a score.)
    Entry e;
    e.wdl = centipawnsToWdl(std::clamp(r.score, -kMate, kMate), pos);
    e.priorOffset = m_priors.size();
    e.priorCount = legalMoves.size();
    appendHinted(priors, legalMoves, r.best, params.hintSharePercent / 100.0, m_priors);
    m_entries.push_back(e);
    return int(m_entries.size()) - 1;
  }
  [[nodiscard]] int size() const override { return int(m_entries.size()); }
  void compute() override {
    m_policy->compute();
    // Sharpen the policy's priors with the one-ply scores (LeafSearchParams::priorTemperature),
    // then raise a TT hint's move (LeafSearchParams::ttHintSharePercent).
    for (Entry& e : m_entries) {
      if (!e.sharpen && e.ttIndex < 0) continue;
      const std::span<const float> p = m_policy->priors(e.policyIndex);
      e.priorOffset = m_priors.size();
      e.priorCount = p.size();
      if (e.sharpen)
        appendSharpened(p, std::span<const int>(m_scores).subspan(e.scoreOffset, p.size()),
                        m_owner.m_params.priorTemperature, m_priors);
      else
        m_priors.insert(m_priors.end(), p.begin(), p.end());
      if (e.ttIndex >= 0)
        raisePrior(std::span<float>(m_priors).subspan(e.priorOffset, e.priorCount), size_t(e.ttIndex),
                   m_owner.m_params.ttHintSharePercent / 100.0);
    }
  }
  [[nodiscard]] Wdl wdl(int i) const override { return m_entries[size_t(i)].wdl; }
  [[nodiscard]] std::span<const float> priors(int i) const override {
    const Entry& e = m_entries[size_t(i)];
    if (e.priorCount == 0) return m_policy->priors(e.policyIndex);
    return std::span<const float>(m_priors).subspan(e.priorOffset, e.priorCount);
  }
  [[nodiscard]] std::span<const float> moveValues(int i) const override {
    const Entry& e = m_entries[size_t(i)];
    return std::span<const float>(m_values).subspan(e.valueOffset, e.valueCount);
  }

 private:
  /// One input: an evaluation (policyIndex >= 0) or a hint.
  struct Entry {
    int policyIndex = -1;
    bool sharpen = false;    ///< compute() sharpens the policy's priors with the one-ply scores
    size_t scoreOffset = 0;  ///< one-ply scores at m_scores[scoreOffset, + moves)
    size_t priorOffset = 0;  ///< own priors at m_priors[priorOffset, + priorCount); none: the policy's
    size_t priorCount = 0;
    size_t valueOffset = 0;  ///< move values at m_values[valueOffset, + valueCount); 0: none
    size_t valueCount = 0;
    int ttIndex = -1;  ///< the TT hint's move: legal move index (LeafSearchParams::ttHintSharePercent); -1: none
    Wdl wdl;
  };
  /// The TT hint of `pos` (LeafSearchParams::ttHintSharePercent, ttHintValue): true and `tte`
  /// filled when the computation's alpha-beta TT holds `pos` at a draft >= ttHintDepth with a
  /// move and a score.
  [[nodiscard]] bool ttHint(const Position& pos, TTData& tte) const {
    const LeafSearchParams& params = m_owner.m_params;
    if ((params.ttHintSharePercent <= 0 && !params.ttHintValue) || !m_searchers.alphaBeta) return false;
    return m_searchers.alphaBeta->tt().probe(pos.key(), tte) && tte.move && tte.score != kScoreNone &&
           tte.bound != Bound::kNone && tte.depth >= params.ttHintDepth;
  }
  /// Appends the one-ply scores of `moves` to m_scores; returns the best.
  int onePlyScores(Position& scratch, std::span<const Move> moves) {
    m_scores.resize(m_scores.size() + moves.size());
    return leafOnePly(scratch, *m_searchers.eval, m_owner.m_params, moves,
                      std::span<int>(m_scores).subspan(m_scores.size() - moves.size()), &m_nodes);
  }

  /// Appends the Q of the last `count` one-ply scores (BackendComputation::moveValues), by the
  /// same model as the value (centipawnsToWdl at the leaf's material).
  void appendMoveValues(Entry& e, const Position& pos, size_t count) {
    e.valueOffset = m_values.size();
    e.valueCount = count;
    const int material = wdlMaterial(pos);
    for (size_t k = m_scores.size() - count; k < m_scores.size(); ++k) {
      const WdlProbability p = scoreToWdlProbability(std::clamp(m_scores[k], -kMate, kMate), material);
      m_values.push_back(float(p.q()));
    }
  }

  NnueValueBackend& m_owner;
  std::unique_ptr<BackendComputation> m_policy;
  Searchers m_searchers;
  std::vector<Entry> m_entries;
  std::vector<int> m_scores;
  std::vector<float> m_priors;
  std::vector<float> m_values;
  u64 m_nodes = 0;
};

NnueValueBackend::NnueValueBackend(std::shared_ptr<Backend> policy, std::shared_ptr<const nnue::Network> net,
                                   LeafSearchParams params)
    : m_policy(std::move(policy)), m_net(std::move(net)), m_params(params) {
  if (!m_policy) throw Error("nnue value backend: no policy backend");
  if (!m_net) throw Error("nnue value backend: no NNUE network (this build embeds none: set EvalFile)");
  const LeafSearchParams& p = m_params;
  if (p.maxPly < 0 || p.nodeLimit < 1 || p.priorTemperature < 0 || p.hintVisits < 0 || p.hintDepth < 0 ||
      p.hintDepth > kMaxPly / 2 || p.hintNodes < 1 || p.hintGrowth < 0 || p.hintSharePercent < 0 ||
      p.hintSharePercent > 100 || p.hashMiB < 1 || p.hashMiB > 65536 || p.ttHintSharePercent < 0 ||
      p.ttHintSharePercent > 100 || p.ttHintDepth < 1)
    throw Error(fmt::format("nnue value backend: quiescence depth {} must be >= 0, its node limit {} >= 1, the prior "
                            "temperature {} >= 0, the hint depth {} 0..{}, the hint visits {} >= 0, its nodes {} >= 1, "
                            "its growth {} >= 0, the hint share {}% 0..100, the hash {} MiB 1..65536, the TT hint "
                            "share {}% 0..100 and its depth {} >= 1",
                            p.maxPly, p.nodeLimit, p.priorTemperature, p.hintDepth, kMaxPly / 2, p.hintVisits,
                            p.hintNodes, p.hintGrowth, p.hintSharePercent, p.hashMiB, p.ttHintSharePercent,
                            p.ttHintDepth));
}

NnueValueBackend::~NnueValueBackend() = default;

std::unique_ptr<BackendComputation> NnueValueBackend::newComputation() { return std::make_unique<Computation>(*this); }

BackendAttributes NnueValueBackend::attributes() const {
  BackendAttributes a = m_policy->attributes();
  a.hintVisits = hints() ? u32(m_params.hintVisits) : 0;
  a.hintGrowth = hints() && m_params.hintGrowth >= 2 ? u32(m_params.hintGrowth) : 0;
  if (m_params.priorTemperature > 0)
    a.description = fmt::format("NNUE {} one-ply search (quiescence {} plies, prior temperature {} cp) with {} priors",
                                m_net->name(), m_params.maxPly, m_params.priorTemperature, a.description);
  else
    a.description = fmt::format("NNUE {} value (quiescence {} plies) with {} priors", m_net->name(), m_params.maxPly,
                                a.description);
  if (hints())
    a.description += fmt::format("; alpha-beta hints of depth {} (at most {} nodes) at {} visits (best move's prior "
                                 "at least {}%)",
                                 m_params.hintDepth, m_params.hintNodes, m_params.hintVisits, m_params.hintSharePercent);
  if (a.hintGrowth)
    a.description += fmt::format(", again at {}x the visits with {}x the nodes", a.hintGrowth, a.hintGrowth);
  if ((m_params.ttHintSharePercent > 0 || m_params.ttHintValue) && hints())
    a.description += fmt::format("; TT hints at a draft of {} plies (prior at least {}%{})", m_params.ttHintDepth,
                                 m_params.ttHintSharePercent, m_params.ttHintValue ? ", value within the bound" : "");
  return a;
}

u64 NnueValueBackend::leafNodes() const {
  std::lock_guard lock(m_mutex);
  return m_leafNodes;
}

void NnueValueBackend::clear() {
  m_policy->clear();
  std::lock_guard lock(m_mutex);
  for (Searchers& s : m_pool)
    if (s.alphaBeta) s.alphaBeta->newGame();
}

NnueValueBackend::Searchers NnueValueBackend::borrow() {
  {
    std::lock_guard lock(m_mutex);
    if (!m_pool.empty()) {
      Searchers s = std::move(m_pool.back());
      m_pool.pop_back();
      return s;
    }
  }
  Searchers s;
  s.eval = std::make_unique<nnue::NnueEvaluator>(m_net);
  if (hints()) {
    s.alphaBeta = std::make_unique<AlphaBetaSearch>(std::make_unique<nnue::NnueEvaluator>(m_net));
    s.alphaBeta->setHashMiB(size_t(m_params.hashMiB));
  }
  return s;
}

void NnueValueBackend::giveBack(Searchers s, u64 nodes) {
  std::lock_guard lock(m_mutex);
  m_leafNodes += nodes;
  if (s.eval) m_pool.push_back(std::move(s));
}

}  // namespace janus::mcts
