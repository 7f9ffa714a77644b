#include "tune/spsa.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <random>

#include "util/error.h"
#include "util/test_error.h"
#include "util/test_temp_dir.h"

namespace janus::tune {
namespace {

using janus::test::errorOf;

const char* kParams =
    "# MCTS search constants\n"
    "\n"
    "MCTS CPuct, float, 2.5, 0.5, 6, 0.25, 0.002\n"
    "  MCTS QS Depth , int, 8, 0, 16, 1, 0.002\r\n";

TEST(Spsa, ParsesOpenBenchInput) {
  const auto params = parseSpsaParams(kParams, "p.txt");
  ASSERT_EQ(params.size(), 2u);
  EXPECT_EQ(params[0].name, "MCTS CPuct");
  EXPECT_FALSE(params[0].integer);
  EXPECT_DOUBLE_EQ(params[0].value, 2.5);
  EXPECT_DOUBLE_EQ(params[0].min, 0.5);
  EXPECT_DOUBLE_EQ(params[0].max, 6);
  EXPECT_DOUBLE_EQ(params[0].cEnd, 0.25);
  EXPECT_DOUBLE_EQ(params[0].rEnd, 0.002);
  EXPECT_EQ(params[1].name, "MCTS QS Depth");
  EXPECT_TRUE(params[1].integer);
  EXPECT_DOUBLE_EQ(params[1].value, 8);
}

TEST(Spsa, BadInputNamesTheLineAndTheField) {
  const auto parse = [](const std::string& text) { return errorOf([&] { (void)parseSpsaParams(text, "p.txt"); }); };
  EXPECT_EQ(parse("A, int, 1, 0, 2, 1\n"), "p.txt: line 1: 6 fields, expected 7 (NAME, int|float, VALUE, MIN, MAX, C_END, R_END)");
  EXPECT_EQ(parse("\nA, double, 1, 0, 2, 1, 0.002\n"), "p.txt: line 2: type 'double' is neither int nor float");
  EXPECT_EQ(parse("A, int, one, 0, 2, 1, 0.002"), "p.txt: line 1: value 'one' is not a number");
  EXPECT_EQ(parse("A, int, 1, 0, 2, 1, 0.002x"), "p.txt: line 1: R_END '0.002x' is not a number");
  EXPECT_EQ(parse("A, int, 1, 3, 2, 1, 0.002"), "p.txt: line 1: min 3 is above max 2");
  EXPECT_EQ(parse("A, int, 5, 0, 2, 1, 0.002"), "p.txt: line 1: value 5 is outside [0, 2]");
  EXPECT_EQ(parse("A, int, 1, 0, 2, 0, 0.002"), "p.txt: line 1: C_END 0 must be above 0");
  EXPECT_EQ(parse("A, int, 1, 0, 2, 1, -1"), "p.txt: line 1: R_END -1 must be above 0");
  EXPECT_EQ(parse(", int, 1, 0, 2, 1, 0.002"), "p.txt: line 1: the name is empty");
  EXPECT_EQ(parse("A, int, 1, 0, 2, 1, 0.002\nA, int, 1, 0, 2, 1, 0.002"), "p.txt: line 2: parameter 'A' is given twice");
  EXPECT_EQ(parse("# only a comment\n"),
            "p.txt: no parameter (one per line: NAME, int|float, VALUE, MIN, MAX, C_END, R_END)");
}

TEST(Spsa, GainsDecayToTheirEndValues) {
  const SpsaParam p{"X", false, 1, 0, 10, 0.5, 0.002};
  const SpsaSchedule s{.iterations = 500};
  const SpsaGains first = spsaGains(p, s, 1), last = spsaGains(p, s, 500);
  EXPECT_NEAR(last.c, 0.5, 1e-12);
  EXPECT_NEAR(last.r, 0.002, 1e-12);
  // c_1 = cEnd N^gamma; a_1 / a_N = ((A + N) / (A + 1))^alpha with A = 50.
  EXPECT_NEAR(first.c, 0.5 * std::pow(500.0, 0.101), 1e-12);
  const double a1 = first.r * first.c * first.c, aN = last.r * last.c * last.c;
  EXPECT_NEAR(a1 / aN, std::pow(550.0 / 51.0, 0.602), 1e-9);
  EXPECT_GT(first.c, spsaGains(p, s, 100).c);
}

TEST(Spsa, ProbesAreSymmetricClampedAndDeterministic) {
  std::vector<SpsaParam> params = parseSpsaParams(kParams, "p.txt");
  params[1].value = 16;  // at its max: the "+" side cannot go above it
  const SpsaTuner a(params, {.iterations = 100}, 7), b(params, {.iterations = 100}, 7), c(params, {.iterations = 100}, 8);
  const SpsaProbe p = a.probe();
  EXPECT_EQ(p.iteration, 1);
  const double c1 = spsaGains(params[0], a.schedule(), 1).c;
  EXPECT_NEAR(p.plus[0] - 2.5, c1 * p.flip[0], 1e-12);
  EXPECT_NEAR(2.5 - p.minus[0], c1 * p.flip[0], 1e-12);
  EXPECT_EQ(std::max(p.plus[1], p.minus[1]), 16);
  EXPECT_LT(std::min(p.plus[1], p.minus[1]), 16);
  EXPECT_EQ(b.probe().flip, p.flip);
  EXPECT_EQ(b.probe().plus, p.plus);
  // The flips are fair coins: over 400 iterations of another seed each sign comes up 35-65%.
  SpsaTuner t(params, {.iterations = 400}, 8);
  int plus = 0, differ = 0;
  for (int k = 0; k < 400; ++k) {
    const SpsaProbe q = t.probe();
    plus += q.flip[0] > 0;
    differ += q.flip[0] != q.flip[1];
    t.update(q, {});
  }
  EXPECT_GT(plus, 140);
  EXPECT_LT(plus, 260);
  EXPECT_GT(differ, 140);
  EXPECT_LT(differ, 260);
  EXPECT_EQ(c.seed(), 8u);
}

TEST(Spsa, UpdateMovesThetaTowardTheWinningSide) {
  const std::vector<SpsaParam> params = parseSpsaParams(kParams, "p.txt");
  SpsaTuner t(params, {.iterations = 100}, 3);
  const SpsaProbe p = t.probe();
  t.update(p, {2, 0, 0});
  for (size_t i = 0; i < params.size(); ++i) {
    const SpsaGains g = spsaGains(params[i], t.schedule(), 1);
    EXPECT_NEAR(t.params()[i].value, params[i].value + g.r * g.c * 2 * p.flip[i], 1e-12) << i;
    EXPECT_EQ(t.history()[0].theta[i], t.params()[i].value);
  }
  // A draw or an even pair leaves theta where it is.
  const std::vector<SpsaParam> before = t.params();
  t.update(t.probe(), {1, 0, 1});
  EXPECT_EQ(t.params()[0].value, before[0].value);
  EXPECT_EQ(t.total().wins, 3);
  EXPECT_EQ(t.total().losses, 1);
  // A result for another iteration is refused.
  EXPECT_EQ(errorOf([&] { t.update(p, {}); }), "spsa: the result is for iteration 1, the tuner is at iteration 3");
}

/// A synthetic match: a side's Elo is -400 (x - 3)^2 - 400 (y + 1)^2 for parameters x, y; two
/// games per probe, each won with the logistic probability of the Elo difference (no draws).
SpsaResult syntheticPair(const SpsaProbe& p, std::mt19937_64& rng) {
  const auto elo = [](const std::vector<double>& v) { return -400 * (v[0] - 3) * (v[0] - 3) - 400 * (v[1] + 1) * (v[1] + 1); };
  const double win = 1 / (1 + std::pow(10.0, -(elo(p.plus) - elo(p.minus)) / 400));
  SpsaResult r;
  for (int g = 0; g < 2; ++g) (std::uniform_real_distribution<double>(0, 1)(rng) < win ? r.wins : r.losses)++;
  return r;
}

TEST(Spsa, FindsTheOptimumOfANoisySyntheticMatch) {
  const auto params = parseSpsaParams("X, float, 0, -5, 5, 0.3, 0.004\nY, float, 2, -5, 5, 0.3, 0.004\n", "p.txt");
  SpsaTuner t(params, {.iterations = 3000}, 11);
  std::mt19937_64 rng(5);
  while (!t.finished()) {
    const SpsaProbe p = t.probe();
    t.update(p, syntheticPair(p, rng));
  }
  EXPECT_NEAR(t.params()[0].value, 3, 0.35);
  EXPECT_NEAR(t.params()[1].value, -1, 0.35);
}

TEST(Spsa, AStoppedRunResumesFromItsStateAsIfNeverStopped) {
  const auto params = parseSpsaParams(kParams, "p.txt");
  const SpsaSchedule schedule{.iterations = 40};
  // Each iteration's games depend on the iteration only, as a real match's openings do.
  const auto play = [](const SpsaProbe& p) {
    std::mt19937_64 rng(u64(p.iteration));
    return syntheticPair({p.iteration, p.flip, {p.plus[0] / 2, p.plus[1] / 8}, {p.minus[0] / 2, p.minus[1] / 8}}, rng);
  };
  test::TempDir dir;
  SpsaTuner straight(params, schedule, 4);
  int progressCalls = 0;
  runSpsa(straight, dir.file("a.json"), play, [&](const SpsaTuner&) { ++progressCalls; }, [] { return false; });
  EXPECT_EQ(progressCalls, 40);

  SpsaTuner first(params, schedule, 4);
  runSpsa(first, dir.file("b.json"), play, [](const SpsaTuner&) {}, [&] { return first.nextIteration() > 15; });
  EXPECT_EQ(first.history().size(), 15u);
  SpsaTuner resumed = SpsaTuner::load(dir.file("b.json"), params, schedule, 4);
  EXPECT_EQ(resumed.nextIteration(), 16);
  runSpsa(resumed, dir.file("b.json"), play, [](const SpsaTuner&) {}, [] { return false; });
  ASSERT_EQ(resumed.history().size(), 40u);
  for (size_t i = 0; i < params.size(); ++i) EXPECT_EQ(resumed.params()[i].value, straight.params()[i].value);
  EXPECT_EQ(resumed.total().wins, straight.total().wins);
  EXPECT_EQ(SpsaTuner::load(dir.file("a.json"), params, schedule, 4).history().back().theta,
            straight.history().back().theta);
}

TEST(Spsa, LoadRefusesAnotherRunAndMalformedFiles) {
  const auto params = parseSpsaParams(kParams, "p.txt");
  test::TempDir dir;
  const std::string path = dir.file("s.json");
  SpsaTuner(params, {.iterations = 10}, 1).save(path);
  const auto load = [&](const std::vector<SpsaParam>& p, int iterations, u64 seed) {
    return errorOf([&] { (void)SpsaTuner::load(path, p, {.iterations = iterations}, seed); });
  };
  EXPECT_EQ(load(params, 10, 1), "");
  const std::string where = "spsa state '" + path + "'";
  EXPECT_EQ(load(params, 20, 1), where + ": it was started with 10 iterations, not 20");
  EXPECT_EQ(load(params, 10, 2), where + ": it was started with seed 1, not 2");
  auto other = params;
  other[1].max = 20;
  EXPECT_EQ(load(other, 10, 1), where + ": parameter 2 ('MCTS QS Depth') differs from the parameter file's 'MCTS QS "
                                        "Depth' (name, type, bounds, C_END and R_END must be the same)");
  other.pop_back();
  EXPECT_EQ(load(other, 10, 1), where + ": it tunes 2 parameters, the parameter file 1");
  std::ofstream(path) << "{\"format\": \"janus-spsa-state\", \"version\": 1";
  EXPECT_TRUE(load(params, 10, 1).starts_with(where + ": not JSON")) << load(params, 10, 1);
  std::ofstream(path) << "{\"format\": \"janus-spsa-state\", \"version\": 1}";
  EXPECT_TRUE(load(params, 10, 1).starts_with(where + ": malformed")) << load(params, 10, 1);
  EXPECT_EQ(errorOf([&] { (void)SpsaTuner::load(dir.file("none.json"), params, {.iterations = 10}, 1); }),
            "spsa state '" + dir.file("none.json") + "': cannot be read");
}

TEST(Spsa, OptionValuesAndTexts) {
  const auto params = parseSpsaParams(kParams, "p.txt");
  EXPECT_EQ(spsaOptionValue(params[1], 7.5), "8");
  EXPECT_EQ(spsaOptionValue(params[1], 7.49), "7");
  EXPECT_EQ(spsaOptionValue(params[0], 2.625), "2.625");
  const SpsaTuner t(params, {.iterations = 10}, 1);
  EXPECT_EQ(t.valuesText(), "MCTS CPuct = 2.5\nMCTS QS Depth = 8\n");
  EXPECT_EQ(t.paramsText(), "MCTS CPuct, float, 2.5, 0.5, 6, 0.25, 0.002\nMCTS QS Depth, int, 8, 0, 16, 1, 0.002\n");
  EXPECT_EQ(parseSpsaParams(t.paramsText(), "again").size(), 2u);
}

}  // namespace
}  // namespace janus::tune
