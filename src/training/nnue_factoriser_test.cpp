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

}  // namespace
}  // namespace janus::training
