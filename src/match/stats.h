#pragma once
// Match statistics: Elo from a score, error bars (trinomial per game, pentanomial per game pair),
// likelihood of superiority and the GSPRT used to stop a match early.
//
// Sources:
// - Logistic Elo: E(s) = -400 log10(1/s - 1), the inverse of s = 1 / (1 + 10^(-elo/400))
//   (chessprogramming wiki "Match Statistics", "Elo Rating System").
// - Error bars: normal approximation of the mean score, the 95% interval s +- 1.959964 sigma/sqrt(n)
//   mapped through E (as cutechess-cli and fastchess print it); the pentanomial version uses game
//   pairs (same opening, colours swapped) as the samples, which removes the opening's variance.
// - LOS = 1/2 (1 + erf((W - L) / sqrt(2 (W + L)))) (chessprogramming wiki "Match Statistics").
// - GSPRT: Michel Van den Bergh, "A practical introduction to the GSPRT" and "Computing the LLR of
//   a multinomial" (hardy.uhasselt.be/Fishtest/GSPRT.pdf, .../computeLLR.pdf): the log-likelihood
//   ratio of the maximum-likelihood distributions with expected score s0 = L(elo0) and
//   s1 = L(elo1), as fishtest's LLRcalc.LLR_logistic computes it; zero counts are regularised to
//   1e-3 as fishtest does. Bounds: Wald, A = ln(beta / (1 - alpha)), B = ln((1 - beta) / alpha)
//   (chessprogramming wiki "Sequential Probability Ratio Test").

#include <array>
#include <span>
#include <string>

#include "core/types.h"

namespace janus::match {

/// Logistic expected score (0..1) of a player `elo` points stronger than its opponent.
[[nodiscard]] double eloToScore(double elo);
/// Inverse of eloToScore; +-infinity for a score of 1 or 0.
[[nodiscard]] double scoreToElo(double score);

/// Elo estimate with a two-sided 95% interval.
struct EloEstimate {
  double score = 0.5;      ///< mean score per game, 0..1
  double elo = 0;          ///< scoreToElo(score) (may be +-inf)
  double errorMargin = 0;  ///< half the width of the 95% Elo interval (inf when undefined)
  double lower = 0;        ///< lower end of the 95% Elo interval
  double upper = 0;        ///< upper end of the 95% Elo interval
};

/// Elo and 95% error bar from single games (trinomial model: win 1, draw 1/2, loss 0).
/// With no games the estimate is 0 +- inf.
[[nodiscard]] EloEstimate trinomialElo(int wins, int draws, int losses);

/// Counts of game-pair outcomes, index = points the first engine scored in the pair times 2:
/// [0] = 0 (LL), [1] = 1/2 (LD), [2] = 1 (DD or WL), [3] = 3/2 (WD), [4] = 2 (WW).
using Pentanomial = std::array<int, 5>;

/// Index into Pentanomial of a pair whose two games scored `a` and `b` (each 0, 0.5 or 1).
[[nodiscard]] int pentanomialIndex(double a, double b);

/// Elo and 95% error bar from game pairs; the per-game score is the pair's points / 2.
[[nodiscard]] EloEstimate pentanomialElo(const Pentanomial& pairs);

/// Mean and variance of the per-game score of a pentanomial distribution (per pair, unregularised).
struct MeanVariance {
  double mean = 0;
  double variance = 0;
};
[[nodiscard]] MeanVariance pentanomialMeanVariance(const Pentanomial& pairs);

/// Likelihood of superiority (probability that the first engine is stronger), 0..1.
[[nodiscard]] double likelihoodOfSuperiority(int wins, int losses);

/// Sequential probability ratio test settings: H0 elo = elo0 against H1 elo = elo1 (logistic
/// Elo), false positive rate alpha, false negative rate beta.
struct SprtConfig {
  double elo0 = 0;
  double elo1 = 5;
  double alpha = 0.05;
  double beta = 0.05;
};

enum class SprtDecision { kContinue, kAcceptH0, kAcceptH1 };

/// Wald's bounds ln(beta / (1 - alpha)) and ln((1 - beta) / alpha). Throws janus::Error when
/// alpha or beta is not in (0, 1) or elo0 >= elo1.
struct SprtBounds {
  double lower = 0;
  double upper = 0;
};
[[nodiscard]] SprtBounds sprtBounds(const SprtConfig& config);

/// Generalised log-likelihood ratio of H1 against H0 for outcome counts over equally spaced
/// scores 0 .. 1: three counts (loss, draw, win per game; trinomial) or five counts (per game
/// pair; pentanomial). 0 when there are no results.
[[nodiscard]] double sprtLlr(std::span<const int> counts, double elo0, double elo1);

/// Continue, or which hypothesis the LLR has accepted.
[[nodiscard]] SprtDecision sprtDecision(double llr, const SprtBounds& bounds);

/// "+12.3" / "-4.0" / "+inf": an Elo value for reports.
[[nodiscard]] std::string formatElo(double elo);
/// "+12.3 ± 45.6" (or "± inf"): an estimate with its 95% error margin for reports.
[[nodiscard]] std::string formatEloEstimate(const EloEstimate& e);

}  // namespace janus::match
