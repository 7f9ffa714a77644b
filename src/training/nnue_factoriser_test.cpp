// Tests of the factoriser (nnue_model.h): shared rows that export adds into every king bucket.

#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <random>

#include "core/position.h"
#include "nnue/network.h"
#include "nnue/nnue_evaluator.h"
#include "training/nnue_export.h"
#include "training/nnue_model.h"
#include "training/quantised_reference.h"
#include "training/test_support.h"
#include "util/test_error.h"

namespace janus::training {
namespace {

using janus::test::errorOf;

TEST(Factoriser, ActiveInputsAreTheBucketInputsThenTheirSharedRows) {
  const NetworkShape shape{32, 2, nnue::Activation::kSCReLU, 4, true};
  // White king on g1 (files e-h: mirrored), Black king on e8.
  const Sample s = sampleFromPosition(Position::fromFen("4k3/pp6/8/8/8/8/5PPP/6K1 w - - 0 1"));
  for (int perspective = 0; perspective < 2; ++perspective) {
    u16 bucketOnly[32], withShared[kMaxActiveInputs];
    const int n = sampleFeatures(s, perspective, 4, bucketOnly);
    ASSERT_EQ(activeInputs(shape, s, perspective, withShared), 2 * n);
    for (int j = 0; j < n; ++j) {
      EXPECT_EQ(withShared[j], bucketOnly[j]);
      EXPECT_EQ(withShared[n + j], nnue::kInputs * 4 + bucketOnly[j] % nnue::kInputs);
    }
  }
  NetworkShape plain = shape;
  plain.factoriser = false;
  u16 f[kMaxActiveInputs];
  EXPECT_EQ(activeInputs(plain, s, 0, f), 7);
}

TEST(Factoriser, RemovingItAddsTheSharedRowsIntoEveryBucketAndKeepsTheFunction) {
  const NetworkShape shape{32, 3, nnue::Activation::kSCReLU, 4, true};
  EXPECT_EQ(shape.inputs(), 5 * nnue::kInputs);
  std::mt19937_64 rng(12);
  const FloatNetwork net = test::randomTrainedLikeNetwork(shape, rng, 0.8);
  const FloatNetwork folded = withFactoriser(net, false);
  EXPECT_FALSE(folded.shape.factoriser);
  EXPECT_EQ(folded.params.size(), net.params.size() - std::size_t(nnue::kInputs) * shape.hidden);
  // Bucket 2's row of input 100 is its own row plus the shared row of input 100.
  const int row = 2 * nnue::kInputs + 100;
  for (int i = 0; i < shape.hidden; ++i)
    EXPECT_FLOAT_EQ(folded.ftRow(row)[i], net.ftRow(row)[i] + net.ftRow(4 * nnue::kInputs + 100)[i]);
  const FloatNetwork again = withFactoriser(folded, true);
  for (int f = 4 * nnue::kInputs; f < 5 * nnue::kInputs; ++f)
    for (int i = 0; i < shape.hidden; ++i) ASSERT_EQ(again.ftRow(f)[i], 0.0f);
  int checked = 0;
  for (const Sample& s : test::randomSamples(rng, 200)) {
    const float want = networkOutput(net, s);
    EXPECT_NEAR(networkOutput(folded, s), want, 1e-5f * (1.0f + std::abs(want)));
    EXPECT_NEAR(networkOutput(again, s), want, 1e-5f * (1.0f + std::abs(want)));
    checked += std::abs(want) > 0.05f;
  }
  EXPECT_GT(checked, 100);  // the outputs are not all ~0
  // Export is of the folded network: the same file.
  EXPECT_EQ(netFileBytes(quantise(net, "f")), netFileBytes(quantise(folded, "f")));
}

TEST(Factoriser, TheEngineEvaluatesTheExportedNetworkAsTheFactorisedFloatNetwork) {
  const NetworkShape shape{64, 8, nnue::Activation::kSCReLU, 8, true};
  std::mt19937_64 rng(3);
  const FloatNetwork net = test::randomTrainedLikeNetwork(shape, rng, 0.5);
  const auto engine = nnue::Network::fromBytes(netFileBytes(quantise(net, "f")), "factorised net");
  ASSERT_EQ(engine->kingBuckets(), 8);
  const nnue::NnueEvaluator eval(engine);
  double sumDiff = 0, sumEval = 0;
  int n = 0;
  for (const Position& pos : test::randomPositions(rng, 200)) {
    const double want = evaluateFloat(net, sampleFromPosition(pos));
    const double d = std::abs(double(eval.evaluateFromScratch(pos)) - want);
    EXPECT_LT(d, 30.0) << pos.fen();
    sumDiff += d;
    sumEval += std::abs(want);
    ++n;
  }
  std::cout << "  |engine - float| mean " << sumDiff / n << " cp, |float| mean " << sumEval / n << " cp\n";
  // Rounding noise only: without the shared rows in the export the evaluations would differ by
  // about their own size.
  EXPECT_LT(sumDiff / n, 8.0);
  EXPECT_LT(sumDiff, 0.05 * sumEval);
}

TEST(Factoriser, StartsAsTheNetworkWithoutItAndNeedsKingBuckets) {
  const NetworkShape plain{32, 2, nnue::Activation::kCReLU, 4};
  NetworkShape factorised = plain;
  factorised.factoriser = true;
  const FloatNetwork a = randomNetwork(plain, 9);
  const FloatNetwork b = withFactoriser(randomNetwork(factorised, 9), false);
  EXPECT_EQ(a.params, b.params);
  EXPECT_EQ(describeShape(factorised), "4kb+f x 768x2->32->2 CReLU");
  const std::string e = errorOf([] { validateShape(NetworkShape{32, 2, nnue::Activation::kCReLU, 1, true}); });
  EXPECT_NE(e.find("factoriser needs king buckets"), std::string::npos) << e;
  EXPECT_NE(errorOf([&] { (void)withFactoriser(randomNetwork({32, 2, nnue::Activation::kCReLU, 1}, 1), true); })
                .find("factoriser needs king buckets"),
            std::string::npos);
}

TEST(NetExpansion, EveryBucketStartsAsTheNetworkWithoutKingBuckets) {
  const NetworkShape plain{32, 4, nnue::Activation::kSCReLU, 1};
  std::mt19937_64 rng(21);
  const FloatNetwork net = test::randomTrainedLikeNetwork(plain, rng, 0.8);
  const FloatNetwork expanded = withKingBuckets(net, 4, true);
  EXPECT_EQ(describeShape(expanded.shape), "4kb+f x 768x2->32->4 SCReLU");
  for (int f = 4 * nnue::kInputs; f < 5 * nnue::kInputs; ++f)
    for (int i = 0; i < plain.hidden; ++i) ASSERT_EQ(expanded.ftRow(f)[i], 0.0f);
  // Both kings on files a-d: no perspective is mirrored, so the function is the same.
  const Sample west = sampleFromPosition(Position::fromFen("2k5/pp1r4/2n5/8/4P3/2N5/PPP2PPP/1K1R4 w - - 0 1"));
  EXPECT_NEAR(networkOutput(expanded, west), networkOutput(net, west), 1e-5f);
  // Both kings on files e-h: each perspective sees the mirrored position.
  const Sample east = sampleFromPosition(Position::fromFen("6k1/5ppp/4r3/8/3P4/5N2/PPP2PPP/5RK1 b - - 0 1"));
  EXPECT_NEAR(networkOutput(expanded, east), networkOutput(net, mirroredSample(east)), 1e-5f);
  EXPECT_GT(std::abs(networkOutput(net, east) - networkOutput(net, mirroredSample(east))), 1e-4f);  // not trivially equal
  // The factoriser folded back in: the same function, now an exportable K = 4 network.
  const FloatNetwork folded = withFactoriser(expanded, false);
  EXPECT_NEAR(networkOutput(folded, east), networkOutput(expanded, east), 1e-5f);
  EXPECT_NE(errorOf([&] { (void)withKingBuckets(expanded, 4, true); }).find("not one without king buckets"),
            std::string::npos);
  EXPECT_NE(errorOf([&] { (void)withKingBuckets(net, 3, false); }), "");
}

TEST(NetExpansion, AWiderNetworkComputesTheSameFunction) {
  const NetworkShape plain{32, 4, nnue::Activation::kSCReLU, 1};
  std::mt19937_64 rng(33);
  const FloatNetwork net = test::randomTrainedLikeNetwork(plain, rng, 0.8);
  const FloatNetwork wide = withHidden(net, 64, 5);
  EXPECT_EQ(describeShape(wide.shape), "768x2->64->4 SCReLU");
  // New neurons: random feature-transformer weights (so their activations give their output
  // weights a gradient), zero bias and zero output weights; old neurons unchanged.
  double newRows = 0;
  for (int f = 0; f < nnue::kInputs; ++f) {
    for (int j = 0; j < 32; ++j) ASSERT_EQ(wide.ftRow(f)[j], net.ftRow(f)[j]);
    for (int j = 32; j < 64; ++j) newRows += std::abs(wide.ftRow(f)[j]);
  }
  EXPECT_GT(newRows, 0.0);
  for (int b = 0; b < 4; ++b)
    for (int j = 32; j < 64; ++j) {
      ASSERT_EQ(wide.outWeights(b)[j], 0.0f);
      ASSERT_EQ(wide.outWeights(b)[64 + j], 0.0f);
    }
  const QuantisedNetwork qNet = quantise(net, "narrow"), qWide = quantise(wide, "wide");
  for (const char* fen : {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                          "2k5/pp1r4/2n5/8/4P3/2N5/PPP2PPP/1K1R4 w - - 0 1", "6k1/5ppp/4r3/8/3P4/5N2/PPP2PPP/5RK1 b - - 0 1",
                          "8/8/4k3/8/8/3K4/6Q1/8 b - - 0 1"}) {
    const Sample s = sampleFromPosition(Position::fromFen(fen));
    EXPECT_NEAR(networkOutput(wide, s), networkOutput(net, s), 1e-5f) << fen;
    PieceSquare pieces[32];
    const int n = samplePieces(s, pieces);
    const std::span<const PieceSquare> ps(pieces, std::size_t(n));
    EXPECT_EQ(evaluateQuantised(qWide, ps, s.stm), evaluateQuantised(qNet, ps, s.stm)) << fen;  // the engine's eval too
  }
  // With king buckets and the factoriser: the same function as the narrower expanded net.
  const FloatNetwork expanded = withKingBuckets(net, 4, true);
  const FloatNetwork wideExpanded = withHidden(expanded, 48, 5);
  const Sample east = sampleFromPosition(Position::fromFen("6k1/5ppp/4r3/8/3P4/5N2/PPP2PPP/5RK1 b - - 0 1"));
  EXPECT_NEAR(networkOutput(wideExpanded, east), networkOutput(expanded, east), 1e-5f);
  for (int f = 4 * nnue::kInputs; f < 5 * nnue::kInputs; ++f)
    for (int j = 32; j < 48; ++j) ASSERT_EQ(wideExpanded.ftRow(f)[j], 0.0f);  // factoriser rows of new neurons
  EXPECT_NE(errorOf([&] { (void)withHidden(net, 32, 1); }).find("not wider"), std::string::npos);
  EXPECT_NE(errorOf([&] { (void)withHidden(net, 40, 1); }), "");  // not a multiple of 16
}

}  // namespace
}  // namespace janus::training
