#include "mcts/nnue_value.h"

#include <algorithm>
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
  PieceType victim = kNoPieceType;
  if (m.isEnPassant()) victim = kPawn;
  else if (!pos.empty(m.to()) && !m.isCastling()) victim = typeOf(pos.pieceOn(m.to()));
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
    MoveList moves;
    generateMoves(pos, moves, inCheck ? GenType::kAll : GenType::kNoisy);
    if (inCheck && moves.empty()) return matedIn(ply);
    int best = -kInfinite;
    if (!inCheck || frontier) {
      best = staticEval();  // stand pat (in check at the frontier: the evaluation as it is)
      if (best >= beta || frontier) return best;
      alpha = std::max(alpha, best);
    }
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

int leafQuiescence(Position& pos, nnue::NnueEvaluator& eval, const LeafSearchParams& params, u64* nodes) {
  eval.reset(pos);
  Quiescence q{pos, eval, params};
  const int score = q.search(-kInfinite, kInfinite, 0);
  if (nodes) *nodes += q.nodes;
  return score;
}

Wdl centipawnsToWdl(int cp, const Position& pos) {
  const WdlProbability p = scoreToWdlProbability(cp, wdlMaterial(pos));
  return Wdl{float(p.win), float(p.draw), float(p.loss)};
}

// ---- The backend ------------------------------------------------------------------------------

class NnueValueBackend::Computation final : public BackendComputation {
 public:
  explicit Computation(NnueValueBackend& owner)
      : m_owner(owner), m_policy(owner.m_policy->newComputation()), m_eval(owner.borrow()) {}
  ~Computation() override { m_owner.giveBack(std::move(m_eval), m_nodes); }

  int addInput(const Position& pos, std::span<const Move> legalMoves) override {
    const int i = m_policy->addInput(pos, legalMoves);
    Position scratch = pos;  // the quiescence search makes moves; `pos` is the caller's
    const int cp = leafQuiescence(scratch, *m_eval, m_owner.m_params, &m_nodes);
    m_wdl.push_back(centipawnsToWdl(cp, pos));
    return i;
  }
  [[nodiscard]] int size() const override { return m_policy->size(); }
  void compute() override { m_policy->compute(); }
  [[nodiscard]] Wdl wdl(int i) const override { return m_wdl[size_t(i)]; }
  [[nodiscard]] std::span<const float> priors(int i) const override { return m_policy->priors(i); }

 private:
  NnueValueBackend& m_owner;
  std::unique_ptr<BackendComputation> m_policy;
  std::unique_ptr<nnue::NnueEvaluator> m_eval;
  std::vector<Wdl> m_wdl;
  u64 m_nodes = 0;
};

NnueValueBackend::NnueValueBackend(std::shared_ptr<Backend> policy, std::shared_ptr<const nnue::Network> net,
                                   LeafSearchParams params)
    : m_policy(std::move(policy)), m_net(std::move(net)), m_params(params) {
  if (!m_policy) throw Error("nnue value backend: no policy backend");
  if (!m_net) throw Error("nnue value backend: no NNUE network (this build embeds none: set EvalFile)");
  if (m_params.maxPly < 0 || m_params.nodeLimit < 1)
    throw Error(fmt::format("nnue value backend: quiescence depth {} must be >= 0 and its node limit {} >= 1",
                            m_params.maxPly, m_params.nodeLimit));
}

NnueValueBackend::~NnueValueBackend() = default;

std::unique_ptr<BackendComputation> NnueValueBackend::newComputation() { return std::make_unique<Computation>(*this); }

BackendAttributes NnueValueBackend::attributes() const {
  BackendAttributes a = m_policy->attributes();
  a.description = fmt::format("NNUE {} value (quiescence {} plies) with {} priors", m_net->name(), m_params.maxPly,
                              a.description);
  return a;
}

u64 NnueValueBackend::leafNodes() const {
  std::lock_guard lock(m_mutex);
  return m_leafNodes;
}

std::unique_ptr<nnue::NnueEvaluator> NnueValueBackend::borrow() {
  {
    std::lock_guard lock(m_mutex);
    if (!m_pool.empty()) {
      auto e = std::move(m_pool.back());
      m_pool.pop_back();
      return e;
    }
  }
  return std::make_unique<nnue::NnueEvaluator>(m_net);
}

void NnueValueBackend::giveBack(std::unique_ptr<nnue::NnueEvaluator> e, u64 nodes) {
  std::lock_guard lock(m_mutex);
  m_leafNodes += nodes;
  if (e) m_pool.push_back(std::move(e));
}

}  // namespace janus::mcts
