#include "mcts/uniform_backend.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "util/error.h"

namespace janus::mcts {

namespace {

class UniformComputation final : public BackendComputation {
 public:
  explicit UniformComputation(UniformValue value) : m_value(value) {}

  int addInput(const Position& pos, std::span<const Move> legalMoves) override {
    m_wdl.push_back(UniformBackend::evaluate(pos, m_value));
    m_offsets.push_back(m_priors.size());
    const float p = legalMoves.empty() ? 0.0f : 1.0f / float(legalMoves.size());
    m_priors.insert(m_priors.end(), legalMoves.size(), p);
    return int(m_wdl.size()) - 1;
  }
  [[nodiscard]] int size() const override { return int(m_wdl.size()); }
  void compute() override { m_offsets.push_back(m_priors.size()); }  // results are ready at once
  [[nodiscard]] Wdl wdl(int i) const override { return m_wdl[size_t(i)]; }
  [[nodiscard]] std::span<const float> priors(int i) const override {
    return std::span<const float>(m_priors).subspan(m_offsets[size_t(i)], m_offsets[size_t(i) + 1] - m_offsets[size_t(i)]);
  }

 private:
  UniformValue m_value;
  std::vector<Wdl> m_wdl;
  std::vector<float> m_priors;
  std::vector<size_t> m_offsets;  // input i's priors: [m_offsets[i], m_offsets[i + 1]) after compute()
};

/// The registered factory: params "value" = material (default) or draw.
std::unique_ptr<Backend> makeUniform(const BackendOptions& o) {
  const auto it = o.params.find("value");
  if (it != o.params.end() && it->second != "material" && it->second != "draw")
    throw Error("backend uniform: value must be material or draw, not '" + it->second + "'");
  return std::make_unique<UniformBackend>(it != o.params.end() && it->second == "draw" ? UniformValue::kDraw
                                                                                       : UniformValue::kMaterial);
}

}  // namespace

JANUS_REGISTER_BACKEND(uniform, "uniform", 0, makeUniform);

std::unique_ptr<BackendComputation> UniformBackend::newComputation() {
  return std::make_unique<UniformComputation>(m_value);
}

BackendAttributes UniformBackend::attributes() const {
  BackendAttributes a;
  a.description = m_value == UniformValue::kMaterial ? "uniform priors, material value" : "uniform priors, draw value";
  return a;
}

Wdl UniformBackend::evaluate(const Position& pos, UniformValue value) {
  if (value == UniformValue::kDraw) return {};
  static constexpr int kValue[] = {1, 3, 3, 5, 9};  // pawn .. queen
  const Color us = pos.sideToMove();
  int balance = 0;
  for (int pt = kPawn; pt <= kQueen; ++pt)
    balance += kValue[pt] * (pos.count(us, PieceType(pt)) - pos.count(~us, PieceType(pt)));
  // A test double's value: the balance (in pawns) squashed into [-1, 1] by
  // atan(100 balance / 111.7) / 1.5621 (lc0's cp <-> Q curve, which keeps a queen and a pawn
  // apart better than the game-result model of search/wdl.h that the real values use), as the
  // win/draw/loss with the most draws that has that Q (a level position is a sure draw).
  const float q = float(std::atan(100.0 * balance / 111.714640912) / 1.5620688421);
  Wdl w;
  w.win = std::max(q, 0.0f);
  w.loss = std::max(-q, 0.0f);
  w.draw = 1.0f - std::abs(q);
  return w;
}

}  // namespace janus::mcts
