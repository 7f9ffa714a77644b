#include "match/stats.h"

#include <cmath>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "util/error.h"

using namespace janus::match;

// Reference values were computed independently in Python (see the final report of the match
// runner task): Elo by -400 log10(1/s - 1); error bars by the normal approximation; the trinomial
// LLR by maximising the constrained likelihood directly over p(draw) with golden-section search,
// the pentanomial LLR through the 1-D dual of the constrained maximum-likelihood problem.

TEST(Stats, EloFromScore) {
  EXPECT_NEAR(scoreToElo(0.75), 190.8485, 1e-3);
  EXPECT_NEAR(scoreToElo(0.25), -190.8485, 1e-3);
  EXPECT_DOUBLE_EQ(scoreToElo(0.5), 0.0);
  EXPECT_TRUE(std::isinf(scoreToElo(1.0)) && scoreToElo(1.0) > 0);
  EXPECT_TRUE(std::isinf(scoreToElo(0.0)) && scoreToElo(0.0) < 0);
  for (double e : {-400.0, -35.0, 0.0, 12.5, 300.0}) EXPECT_NEAR(scoreToElo(eloToScore(e)), e, 1e-9);
}

TEST(Stats, TrinomialErrorBar) {
  EloEstimate even = trinomialElo(30, 40, 30);
  EXPECT_DOUBLE_EQ(even.score, 0.5);
  EXPECT_NEAR(even.elo, 0.0, 1e-12);
  EXPECT_NEAR(even.errorMargin, 53.1580, 1e-3);
  EloEstimate ahead = trinomialElo(50, 30, 20);
  EXPECT_NEAR(ahead.score, 0.65, 1e-12);
  EXPECT_NEAR(ahead.elo, 107.5381, 1e-3);
  EXPECT_NEAR(ahead.errorMargin, 59.1637, 1e-3);
  EXPECT_NEAR(ahead.lower, 51.4180, 1e-3);
  EXPECT_NEAR(ahead.upper, 169.7454, 1e-3);
  EloEstimate none = trinomialElo(0, 0, 0);
  EXPECT_TRUE(std::isinf(none.errorMargin));
  EloEstimate allWins = trinomialElo(5, 0, 0);
  EXPECT_TRUE(std::isinf(allWins.elo));
}

TEST(Stats, LikelihoodOfSuperiority) {
  EXPECT_NEAR(likelihoodOfSuperiority(10, 5), 0.901647, 1e-6);
  EXPECT_DOUBLE_EQ(likelihoodOfSuperiority(0, 0), 0.5);
  EXPECT_NEAR(likelihoodOfSuperiority(5, 10), 1 - 0.901647, 1e-6);
}

TEST(Stats, PentanomialIndexAndVariance) {
  EXPECT_EQ(pentanomialIndex(0, 0), 0);
  EXPECT_EQ(pentanomialIndex(0, 0.5), 1);
  EXPECT_EQ(pentanomialIndex(1, 0), 2);
  EXPECT_EQ(pentanomialIndex(0.5, 0.5), 2);
  EXPECT_EQ(pentanomialIndex(1, 0.5), 3);
  EXPECT_EQ(pentanomialIndex(1, 1), 4);
  Pentanomial p = {1, 2, 3, 2, 2};
  MeanVariance mv = pentanomialMeanVariance(p);
  EXPECT_NEAR(mv.mean, 0.55, 1e-12);
  EXPECT_NEAR(mv.variance, 0.0975, 1e-12);
  EloEstimate e = pentanomialElo(p);
  EXPECT_NEAR(e.elo, 34.8601, 1e-3);
  EXPECT_NEAR(e.errorMargin, 143.7623, 1e-3);
}

TEST(Stats, SprtBoundsAndValidation) {
  SprtBounds b = sprtBounds({0, 5, 0.05, 0.05});
  EXPECT_NEAR(b.lower, -2.944439, 1e-6);
  EXPECT_NEAR(b.upper, 2.944439, 1e-6);
  EXPECT_THROW((void)sprtBounds({5, 0, 0.05, 0.05}), janus::Error);
  EXPECT_THROW((void)sprtBounds({0, 5, 0, 0.05}), janus::Error);
  EXPECT_THROW((void)sprtBounds({0, 5, 0.05, 1.5}), janus::Error);
}

TEST(Stats, TrinomialLlrMatchesDirectMaximisation) {
  std::array<int, 3> a = {30, 40, 40};  // losses, draws, wins
  EXPECT_NEAR(sprtLlr(a, 0, 10), 0.3810941, 1e-6);
  std::array<int, 3> b = {20, 50, 30};
  EXPECT_NEAR(sprtLlr(b, -5, 5), 0.5755319, 1e-6);
  std::array<int, 3> c = {100, 120, 80};
  EXPECT_NEAR(sprtLlr(c, 0, 5), -0.5311711, 1e-6);
}

TEST(Stats, PentanomialLlr) {
  Pentanomial a = {10, 30, 50, 40, 20};
  EXPECT_NEAR(sprtLlr(a, 0, 10), 1.1761465, 1e-6);
  // The Brownian approximation N (s1 - s0)(2 mean - s0 - s1) / (2 var) is close (1.20495).
  EXPECT_NEAR(sprtLlr(a, 0, 10), 1.20495, 0.05);
  Pentanomial b = {20, 40, 60, 30, 10};
  EXPECT_NEAR(sprtLlr(b, 0, 5), -0.7824335, 1e-6);
  Pentanomial withZero = {0, 3, 10, 8, 4};  // the empty class is regularised to 1e-3
  EXPECT_NEAR(sprtLlr(withZero, 0, 5), 0.3569657, 1e-6);
  Pentanomial empty{};
  EXPECT_EQ(sprtLlr(empty, 0, 5), 0.0);
}

TEST(Stats, SprtDecision) {
  SprtBounds b = sprtBounds({0, 5, 0.05, 0.05});
  EXPECT_EQ(sprtDecision(0.0, b), SprtDecision::kContinue);
  EXPECT_EQ(sprtDecision(3.0, b), SprtDecision::kAcceptH1);
  EXPECT_EQ(sprtDecision(-3.0, b), SprtDecision::kAcceptH0);
  // A clear winner is accepted, a clear loser rejected.
  Pentanomial strong = {0, 5, 40, 120, 200};
  EXPECT_EQ(sprtDecision(sprtLlr(strong, 0, 5), b), SprtDecision::kAcceptH1);
  Pentanomial weak = {200, 120, 40, 5, 0};
  EXPECT_EQ(sprtDecision(sprtLlr(weak, 0, 5), b), SprtDecision::kAcceptH0);
}

TEST(Stats, FormatElo) {
  EXPECT_EQ(formatElo(12.34), "+12.3");
  EXPECT_EQ(formatElo(-4.0), "-4.0");
  EXPECT_EQ(formatElo(std::numeric_limits<double>::infinity()), "+inf");
  EXPECT_EQ(formatEloEstimate(trinomialElo(0, 0, 0)), "+0.0 ± inf");
  EloEstimate e = trinomialElo(60, 20, 20);
  EXPECT_EQ(formatEloEstimate(e), fmt::format("{:+.1f} ± {:.1f}", e.elo, e.errorMargin));
  EXPECT_GT(e.elo, 0);
}
