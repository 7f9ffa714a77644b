#include "match/stats.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include <fmt/format.h>

#include "util/error.h"

namespace janus::match {

namespace {
constexpr double kZ95 = 1.959963984540054;  // two-sided 95% quantile of the standard normal
constexpr double kInf = std::numeric_limits<double>::infinity();

EloEstimate estimateFromMean(double mean, double stddevOfMean) {
  EloEstimate e;
  e.score = mean;
  e.elo = scoreToElo(mean);
  double lo = mean - kZ95 * stddevOfMean;
  double hi = mean + kZ95 * stddevOfMean;
  e.lower = lo <= 0 ? -kInf : scoreToElo(lo);
  e.upper = hi >= 1 ? kInf : scoreToElo(hi);
  e.errorMargin = (e.upper - e.lower) / 2;
  return e;
}
}  // namespace

double eloToScore(double elo) { return 1.0 / (1.0 + std::pow(10.0, -elo / 400.0)); }

double scoreToElo(double score) {
  if (score <= 0) return -kInf;
  if (score >= 1) return kInf;
  return -400.0 * std::log10(1.0 / score - 1.0);
}

EloEstimate trinomialElo(int wins, int draws, int losses) {
  int n = wins + draws + losses;
  if (n <= 0) return {0.5, 0, kInf, -kInf, kInf};
  double s = (wins + 0.5 * draws) / n;
  double var = (wins * (1 - s) * (1 - s) + draws * (0.5 - s) * (0.5 - s) + losses * s * s) / n;
  return estimateFromMean(s, std::sqrt(var / n));
}

int pentanomialIndex(double a, double b) { return std::clamp(int(std::lround(2 * (a + b))), 0, 4); }

MeanVariance pentanomialMeanVariance(const Pentanomial& pairs) {
  double n = 0, sum = 0;
  for (int i = 0; i < 5; ++i) {
    n += pairs[i];
    sum += pairs[i] * (i / 4.0);
  }
  if (n <= 0) return {};
  MeanVariance mv;
  mv.mean = sum / n;
  for (int i = 0; i < 5; ++i) mv.variance += pairs[i] * (i / 4.0 - mv.mean) * (i / 4.0 - mv.mean);
  mv.variance /= n;
  return mv;
}

EloEstimate pentanomialElo(const Pentanomial& pairs) {
  int n = 0;
  for (int c : pairs) n += c;
  if (n <= 0) return {0.5, 0, kInf, -kInf, kInf};
  MeanVariance mv = pentanomialMeanVariance(pairs);
  return estimateFromMean(mv.mean, std::sqrt(mv.variance / n));
}

double likelihoodOfSuperiority(int wins, int losses) {
  if (wins + losses == 0) return 0.5;
  return 0.5 * (1.0 + std::erf((wins - losses) / std::sqrt(2.0 * (wins + losses))));
}

SprtBounds sprtBounds(const SprtConfig& c) {
  if (!(c.alpha > 0 && c.alpha < 1) || !(c.beta > 0 && c.beta < 1))
    throw Error(fmt::format("SPRT: alpha ({}) and beta ({}) must be between 0 and 1", c.alpha, c.beta));
  if (!(c.elo0 < c.elo1)) throw Error(fmt::format("SPRT: elo0 ({}) must be below elo1 ({})", c.elo0, c.elo1));
  return {std::log(c.beta / (1 - c.alpha)), std::log((1 - c.beta) / c.alpha)};
}

namespace {
struct Outcome {
  double value;  // score of the outcome, 0..1
  double prob;   // empirical probability
};

// Maximum-likelihood distribution on the same support with expectation `s` (Van den Bergh,
// computeLLR.pdf, Proposition 1.1): p_i' = p_i / (1 + x (a_i - s)) where x solves the secular
// equation sum_i p_i (a_i - s) / (1 + x (a_i - s)) = 0. The left side is strictly decreasing in
// x on (-1 / max(a_i - s), -1 / min(a_i - s)), so bisection finds the root.
std::vector<double> mleWithExpectation(const std::vector<Outcome>& pdf, double s) {
  double lo = -kInf, hi = kInf;
  for (const auto& o : pdf) {
    double a = o.value - s;
    if (a > 0) lo = std::max(lo, -1.0 / a);
    if (a < 0) hi = std::min(hi, -1.0 / a);
  }
  auto f = [&](double x) {
    double sum = 0;
    for (const auto& o : pdf) sum += o.prob * (o.value - s) / (1 + x * (o.value - s));
    return sum;
  };
  double width = hi - lo;
  lo += width * 1e-12;
  hi -= width * 1e-12;
  for (int i = 0; i < 200 && hi - lo > 1e-15 * std::max(1.0, std::abs(lo)); ++i) {
    double mid = (lo + hi) / 2;
    (f(mid) > 0 ? lo : hi) = mid;
  }
  double x = (lo + hi) / 2;
  std::vector<double> out;
  for (const auto& o : pdf) out.push_back(o.prob / (1 + x * (o.value - s)));
  return out;
}
}  // namespace

double sprtLlr(std::span<const int> counts, double elo0, double elo1) {
  if (counts.size() < 2) throw Error("SPRT: need at least two outcome classes");
  double total = 0;
  for (int c : counts) total += c;
  if (total <= 0) return 0;
  // Regularise empty classes (fishtest LLRcalc.regularize) so that the support spans 0..1.
  std::vector<Outcome> pdf;
  double n = 0;
  for (int c : counts) n += c == 0 ? 1e-3 : c;
  for (size_t i = 0; i < counts.size(); ++i)
    pdf.push_back({double(i) / double(counts.size() - 1), (counts[i] == 0 ? 1e-3 : counts[i]) / n});
  double s0 = eloToScore(elo0), s1 = eloToScore(elo1);
  std::vector<double> p0 = mleWithExpectation(pdf, s0), p1 = mleWithExpectation(pdf, s1);
  double llr = 0;
  for (size_t i = 0; i < pdf.size(); ++i) llr += pdf[i].prob * (std::log(p1[i]) - std::log(p0[i]));
  return n * llr;
}

SprtDecision sprtDecision(double llr, const SprtBounds& b) {
  if (llr >= b.upper) return SprtDecision::kAcceptH1;
  if (llr <= b.lower) return SprtDecision::kAcceptH0;
  return SprtDecision::kContinue;
}

std::string formatElo(double elo) {
  if (std::isinf(elo)) return elo > 0 ? "+inf" : "-inf";
  if (std::isnan(elo)) return "nan";
  return fmt::format("{:+.1f}", elo);
}

std::string formatEloEstimate(const EloEstimate& e) {
  return fmt::format("{} ± {}", formatElo(e.elo),
                     std::isfinite(e.errorMargin) ? fmt::format("{:.1f}", e.errorMargin) : std::string("inf"));
}

}  // namespace janus::match
