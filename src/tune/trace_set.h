#pragma once
// Sparse evaluation traces of many positions and the HCE evaluation recomputed from them, in
// floating point (for the tuner's loss and gradient) and in integers (exactly as the engine).
//
// A dense EvalTrace is 2.3 KiB; a typical position has about 60 weights with a non-zero
// coefficient, so a sample is stored as
//   * linear terms  (u16 weight index, i16 White-minus-Black coefficient)       4 bytes each
//   * king terms    (u16 weight index, i16 White coefficient, i16 Black one)     6 bytes each
//   * phase, the two endgame scale factors and the result, score and target (Sample, 28 bytes)
// which is about 300 bytes per position.
//
// The floating-point evaluation is the continuous form of trace.h's formula, with the
// parameter vector p (p[2i] = middlegame, p[2i+1] = endgame value of weight i):
//   mg  = sum_linear p[2i] net_i    + ka_mg(uW.mg) - ka_mg(uB.mg),   u_c.mg = sum_king p[2i] c_i[c]
//   eg  = sum_linear p[2i+1] net_i  + ka_eg(uW.eg) - ka_eg(uB.eg),   u_c.eg = sum_king p[2i+1] c_i[c]
//   ka_mg(x) = clamp(x, 0, 1000)^2 / 720,  ka_eg(x) = max(x, 0) / 20
//   E   = (mg * phase + eg * (24 - phase) * scale / 128) / 24, clamped to [-15000, 15000]
// where scale = scale[White] if eg > 0 else scale[Black] (a scale of 0 gives E = 0), i.e.
// finalEvaluation() without the integer truncations. Its gradient follows by the chain rule
// (the choice of the scale side and the clamps are treated as locally constant).

#include <span>
#include <vector>

#include "eval/trace.h"
#include "eval/weights.h"

namespace janus::tune {

/// Number of doubles in a parameter vector: (mg, eg) for every weight.
inline constexpr int kParamCount = 2 * weight::kCount;
/// p[2i] = middlegame value, p[2i + 1] = endgame value of flat weight i (centipawns).
using Params = std::vector<double>;

[[nodiscard]] Params toParams(const EvalWeights& w);
/// Rounds to the nearest integer and clamps to [-30000, 30000] (EvalWeights::loadText's range).
[[nodiscard]] EvalWeights toWeights(const Params& p);

struct LinearTerm {
  u16 index;
  i16 net;  ///< coefficient of White minus that of Black
};
struct KingTerm {
  u16 index;
  i16 white;  ///< coefficient of White as the attacker
  i16 black;
};

/// Intermediate values of one evaluation, needed for its gradient.
struct EvalParts {
  double eval = 0;       ///< E, centipawns, White's view
  double dMg = 0;        ///< dE / d(total mg)
  double dEg = 0;        ///< dE / d(total eg)
  double kaMg[2] = {};   ///< ka_mg'(u_c.mg) for c = White, Black
  double kaEg[2] = {};   ///< ka_eg'(u_c.eg)
};

class TraceSet {
 public:
  /// Appends a position's trace. `result` is the game result for White (0, 0.5, 1); `score` is a
  /// search score in centipawns from White's view, or NaN if unknown (used only for blending
  /// targets, see setTargets).
  void add(const EvalTrace& trace, double result, double score);
  /// Appends all samples of `other`.
  void append(const TraceSet& other);

  [[nodiscard]] size_t size() const { return m_samples.size(); }
  [[nodiscard]] double result(size_t i) const { return m_samples[i].result; }
  [[nodiscard]] double score(size_t i) const { return m_samples[i].score; }
  [[nodiscard]] double target(size_t i) const { return m_samples[i].target; }
  /// Sets every target to (1 - lambda) * result + lambda * sigmoid(k * score) (the result alone
  /// where the score is unknown). Targets start equal to the results.
  void setTargets(double lambda, double k);

  /// The continuous evaluation (see the file comment) and the values its gradient needs.
  [[nodiscard]] EvalParts evaluate(size_t i, const Params& p) const;
  /// grad += factor * dE_i/dp, with `parts` = evaluate(i, p).
  void addGradient(size_t i, const EvalParts& parts, double factor, std::span<double> grad) const;
  /// The engine's integer evaluation (White's view) with weights `w`: equal to
  /// evaluateTrace(trace, w).white for the trace the sample was made from.
  [[nodiscard]] int evaluateExact(size_t i, const EvalWeights& w) const;

  /// Bytes held (for reports).
  [[nodiscard]] size_t memoryBytes() const;

 private:
  struct Sample {
    u32 linearBegin;
    u32 kingBegin;
    u16 linearCount;
    u8 kingCount;
    u8 phase;
    u8 scale[2];
    float result;
    float score;
    float target;
  };
  std::vector<Sample> m_samples;
  std::vector<LinearTerm> m_linear;
  std::vector<KingTerm> m_king;
};

/// Texel's win probability: 1 / (1 + 10^(-k * eval / 400)).
[[nodiscard]] double sigmoid(double eval, double k);

}  // namespace janus::tune
