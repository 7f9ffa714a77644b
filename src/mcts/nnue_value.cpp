#include "mcts/nnue_value.h"

#include <algorithm>
#include <cmath>
#include <string>
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

Wdl centipawnsToWdl(int cp, const Position& pos) { return leafWdl(cp, wdlMaterial(pos), 0); }

namespace {

/// The expected score of leafWdl's logistic (valueScale > 0, not a mate score).
double expectedScore(int cp, int valueScale) { return 1.0 / (1.0 + std::exp(-double(cp) / valueScale)); }

/// W - L of leafWdl in double precision (the one-ply move values).
double leafQ(int cp, int material, int valueScale) {
  if (valueScale <= 0 || isMateScore(cp)) return scoreToWdlProbability(cp, material).q();
  return 2.0 * expectedScore(cp, valueScale) - 1.0;
}

}  // namespace

Wdl leafWdl(int cp, int material, int valueScale) {
  const WdlProbability p = scoreToWdlProbability(cp, material);
  if (valueScale <= 0 || isMateScore(cp)) return Wdl{float(p.win), float(p.draw), float(p.loss)};
  const double e = expectedScore(cp, valueScale);
  const double draw = std::min(p.draw, 2.0 * std::min(e, 1.0 - e));
  return Wdl{float(e - draw / 2), float(draw), float(1.0 - e - draw / 2)};
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
      : m_owner(owner), m_policy(owner.m_policy->newComputation()), m_eval(owner.borrow()) {}
  ~Computation() override { m_owner.giveBack(std::move(m_eval), m_nodes); }

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
      cp = leafQuiescence(scratch, *m_eval, params, &m_nodes);
    }
    e.wdl = leafWdl(std::clamp(cp, -kMate, kMate), wdlMaterial(pos), params.valueScale);
    m_entries.push_back(e);
    return int(m_entries.size()) - 1;
  }
  [[nodiscard]] int size() const override { return int(m_entries.size()); }
  void compute() override {
    m_policy->compute();
    // Sharpen the policy's priors with the one-ply scores (LeafSearchParams::priorTemperature).
    for (Entry& e : m_entries) {
      if (!e.sharpen) continue;
      const std::span<const float> p = m_policy->priors(e.policyIndex);
      e.priorOffset = m_priors.size();
      e.priorCount = p.size();
      appendSharpened(p, std::span<const int>(m_scores).subspan(e.scoreOffset, p.size()),
                      m_owner.m_params.priorTemperature, m_priors);
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
  /// One input.
  struct Entry {
    int policyIndex = -1;
    bool sharpen = false;    ///< compute() sharpens the policy's priors with the one-ply scores
    size_t scoreOffset = 0;  ///< one-ply scores at m_scores[scoreOffset, + moves)
    size_t priorOffset = 0;  ///< own priors at m_priors[priorOffset, + priorCount); none: the policy's
    size_t priorCount = 0;
    size_t valueOffset = 0;  ///< move values at m_values[valueOffset, + valueCount); 0: none
    size_t valueCount = 0;
    Wdl wdl;
  };
  /// Appends the one-ply scores of `moves` to m_scores; returns the best.
  int onePlyScores(Position& scratch, std::span<const Move> moves) {
    m_scores.resize(m_scores.size() + moves.size());
    return leafOnePly(scratch, *m_eval, m_owner.m_params, moves,
                      std::span<int>(m_scores).subspan(m_scores.size() - moves.size()), &m_nodes);
  }

  /// Appends the Q of the last `count` one-ply scores (BackendComputation::moveValues), by the
  /// same mapping as the value (leafWdl at the leaf's material).
  void appendMoveValues(Entry& e, const Position& pos, size_t count) {
    e.valueOffset = m_values.size();
    e.valueCount = count;
    const int material = wdlMaterial(pos);
    for (size_t k = m_scores.size() - count; k < m_scores.size(); ++k) {
      m_values.push_back(float(leafQ(std::clamp(m_scores[k], -kMate, kMate), material, m_owner.m_params.valueScale)));
    }
  }

  NnueValueBackend& m_owner;
  std::unique_ptr<BackendComputation> m_policy;
  std::unique_ptr<nnue::NnueEvaluator> m_eval;
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
  if (p.maxPly < 0 || p.nodeLimit < 1 || p.priorTemperature < 0 || p.valueScale < 0)
    throw Error(fmt::format("nnue value backend: quiescence depth {} must be >= 0, its node limit {} >= 1, the prior "
                            "temperature {} >= 0 and the value scale {} >= 0",
                            p.maxPly, p.nodeLimit, p.priorTemperature, p.valueScale));
}

NnueValueBackend::~NnueValueBackend() = default;

std::unique_ptr<BackendComputation> NnueValueBackend::newComputation() { return std::make_unique<Computation>(*this); }

BackendAttributes NnueValueBackend::attributes() const {
  BackendAttributes a = m_policy->attributes();
  const std::string mapping =
      m_params.valueScale > 0 ? fmt::format(", expected score sigmoid(cp / {})", m_params.valueScale) : "";
  if (m_params.priorTemperature > 0)
    a.description = fmt::format("NNUE {} one-ply search (quiescence {} plies, prior temperature {} cp{}) with {} priors",
                                m_net->name(), m_params.maxPly, m_params.priorTemperature, mapping, a.description);
  else
    a.description = fmt::format("NNUE {} value (quiescence {} plies{}) with {} priors", m_net->name(), m_params.maxPly,
                                mapping, a.description);
  return a;
}

u64 NnueValueBackend::leafNodes() const {
  std::lock_guard lock(m_mutex);
  return m_leafNodes;
}

void NnueValueBackend::clear() { m_policy->clear(); }

std::unique_ptr<nnue::NnueEvaluator> NnueValueBackend::borrow() {
  {
    std::lock_guard lock(m_mutex);
    if (!m_pool.empty()) {
      std::unique_ptr<nnue::NnueEvaluator> eval = std::move(m_pool.back());
      m_pool.pop_back();
      return eval;
    }
  }
  return std::make_unique<nnue::NnueEvaluator>(m_net);
}

void NnueValueBackend::giveBack(std::unique_ptr<nnue::NnueEvaluator> eval, u64 nodes) {
  std::lock_guard lock(m_mutex);
  m_leafNodes += nodes;
  if (eval) m_pool.push_back(std::move(eval));
}

}  // namespace janus::mcts
