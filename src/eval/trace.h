#pragma once
// Feature coefficients of one position (the "trace") and the evaluation recomputed from them.
//
// For every weight i the trace holds integer coefficients c_i[White], c_i[Black]. With any
// weight vector w the HCE evaluation of the traced position is
//
//   linear     = sum over kLinear weights      w_i * (c_i[White] - c_i[Black])      (mg, eg pairs)
//   units[c]   = sum over kKingAttack weights  w_i * c_i[c]                          (attacker c)
//   total      = linear + kingAttackScore(units[White]) - kingAttackScore(units[Black])
//   evaluation = finalEvaluation(total, phase, scale[stronger side of total.eg()])
//
// so a tuner (Texel's method; A. Grant, "Evaluation & Tuning in Chess Engines", 2020) can store
// traces once and evaluate them for any w without the position. The only non-linear parts are
// kingAttackScore() and finalEvaluation() (tapering, endgame scaling, clamping), both defined here
// and used by HceEvaluator itself, so evaluateTrace(trace(pos), w) == HceEvaluator(w).evaluate(pos)
// exactly (tested in eval_test.cpp).

#include <algorithm>
#include <array>

#include "core/types.h"
#include "eval/evaluator.h"
#include "eval/weights.h"

namespace janus {

/// Endgame scale factor denominator: a scale of 128 leaves the evaluation unchanged.
constexpr int kScaleNormal = 128;

/// Coefficients of one position. Size: weight::kCount * 4 bytes + a few ints (about 2.3 KiB).
struct EvalTrace {
  /// [weight][colour]: how often the feature of weight i occurs for that colour (for kKingAttack
  /// weights: for that colour as the attacker of the enemy king).
  std::array<std::array<i16, 2>, weight::kCount> coeff{};
  int phase = 0;                                   ///< 0 (bare kings) .. kPhaseMax (24)
  int scale[2] = {kScaleNormal, kScaleNormal};     ///< scale factor if White / Black is the stronger side
  Color sideToMove = kWhite;

  /// White-minus-Black coefficient of weight i: the linear part is sum_i w_i * net(i).
  [[nodiscard]] int net(int i) const { return coeff[i][kWhite] - coeff[i][kBlack]; }
};

/// King attack score of one attacker from its units (kKingAttack weights times coefficients):
/// mg = max(u.mg, 0)^2 / 720, eg = max(u.eg, 0) / 20, with u.mg capped at 1000 (1388 cp) so that
/// the result fits a TaperedScore. Shape and divisors as in Grant (2020) / Ethereal.
constexpr TaperedScore kingAttackScore(TaperedScore units) {
  int mg = std::clamp(units.mg(), 0, 1000), eg = std::max(units.eg(), 0);
  return TaperedScore(mg * mg / 720, eg / 20);
}

/// Tapered, scaled and clamped evaluation in centipawns (White's view) from the White-minus-Black
/// total. `scale` (0..128) multiplies the endgame half: (mg * phase + eg * (24 - phase) * scale /
/// 128) / 24, truncated toward zero. A scale of 0 means the stronger side cannot win: the result
/// is 0 (the middlegame half is dropped as well). Clamped to [-kEvalMax, kEvalMax].
constexpr int finalEvaluation(TaperedScore total, int phase, int scale) {
  if (scale == 0) return 0;
  int v = (total.mg() * phase + total.eg() * (kPhaseMax - phase) * scale / kScaleNormal) / kPhaseMax;
  return std::clamp(v, -kEvalMax, kEvalMax);
}

/// The side whose endgame score is positive (Black if it is <= 0).
constexpr Color strongerSide(TaperedScore total) { return total.eg() > 0 ? kWhite : kBlack; }

/// Everything `janus eval` prints, recomputed from a trace and weights.
struct EvalBreakdown {
  /// [group][colour]: the colour's share of each term (sum of w_i * c_i[colour]; for the king
  /// attack group the non-linear kingAttackScore of that colour's units).
  TaperedScore term[kTermGroupCount][2] = {};
  TaperedScore units[2] = {};  ///< king attack units of each attacker, before kingAttackScore
  TaperedScore total;          ///< White minus Black, before tapering and scaling
  int phase = 0;
  int scale = kScaleNormal;    ///< the scale factor that applied (that of the stronger side)
  int white = 0;               ///< final evaluation, White's view (cp)
  int sideToMove = 0;          ///< final evaluation, side to move's view (cp)
};

/// Evaluates a trace with weights `w` (see the formula at the top of this file).
[[nodiscard]] EvalBreakdown evaluateTrace(const EvalTrace& trace, const EvalWeights& w);

}  // namespace janus
