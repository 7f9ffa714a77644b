// Tests of quantisation and the scalar quantised reference: the integer formula against exact
// arithmetic, quantised against float evaluations, the engine's inference against the reference,
// and network files (round trip, rejection of damaged files).

#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstring>
#include <filesystem>
#include <random>

#include "nnue/format.h"
#include "nnue/network.h"
#include "nnue/nnue_evaluator.h"
#include "training/nnue_export.h"
#include "training/quantised_reference.h"
#include "training/test_support.h"
#include "util/error.h"
#include "util/test_error.h"

namespace janus::training {
namespace {

using janus::test::errorOf;

/// The quantised network's value in exact (double) arithmetic, without the integer truncations.
double exactQuantisedEval(const QuantisedNetwork& q, std::span<const PieceSquare> pieces, int stm) {
  std::vector<std::int32_t> acc[2];
  quantisedAccumulators(q, pieces, stm, acc[0], acc[1]);
  const int bucket = nnue::outputBucket(int(pieces.size()), q.buckets);
  double out = double(q.outBias[bucket]) / (double(nnue::kQA) * q.qb);
  for (int side = 0; side < 2; ++side)
    for (int i = 0; i < q.hidden; ++i) {
      const double c = std::clamp(acc[side][i], 0, nnue::kQA) / double(nnue::kQA);
      const double a = q.activation == nnue::Activation::kSCReLU ? c * c : c;
      out += a * q.outWeights[std::size_t(bucket) * 2 * q.hidden + side * q.hidden + i] / q.qb;
    }
  return out * nnue::kEvalScale;
}

/// Standard deviation (centipawns) of float - quantised predicted from the rounding of the weights
/// to steps of 1/QA (feature transformer: each accumulator carries the error of pieces + 1 rows)
/// and 1/qb (output weights), each error uniform with variance step^2 / 12.
double predictedRoundingSigma(const FloatNetwork& net, std::span<const PieceSquare> pieces, int stm, int qb) {
  const int n = net.shape.hidden;
  std::vector<double> acc[2] = {std::vector<double>(net.ftBias(), net.ftBias() + n),
                                std::vector<double>(net.ftBias(), net.ftBias() + n)};
  for (const PieceSquare& p : pieces)
    for (int side = 0; side < 2; ++side) {
      const float* row = net.ftRow(nnue::featureIndex(side == 0 ? stm : stm ^ 1, p.color, p.type, p.square));
      for (int i = 0; i < n; ++i) acc[side][i] += row[i];
    }
  const bool screlu = net.shape.activation == nnue::Activation::kSCReLU;
  const float* w = net.outWeights(nnue::outputBucket(int(pieces.size()), net.shape.buckets));
  const double accVar = double(pieces.size() + 1) / (12.0 * nnue::kQA * nnue::kQA);
  const double outVar = 1.0 / (12.0 * qb * qb);
  double var = 0;
  for (int side = 0; side < 2; ++side)
    for (int i = 0; i < n; ++i) {
      const double x = acc[side][i], c = std::clamp(x, 0.0, 1.0);
      const double a = screlu ? c * c : c;
      const double slope = (x > 0 && x < 1) ? (screlu ? 2 * x : 1.0) : 0.0;
      var += a * a * outVar + slope * slope * w[side * n + i] * w[side * n + i] * accVar;
    }
  return nnue::kEvalScale * std::sqrt(var);
}

struct Case {
  int hidden, buckets;
  nnue::Activation activation;
  int kingBuckets = 1;
};

void PrintTo(const Case& c, std::ostream* os) {
  *os << c.kingBuckets << "kb " << c.hidden << "x" << c.buckets << " " << activationName(c.activation);
}

class TrainingQuantised : public ::testing::TestWithParam<Case> {};

TEST_P(TrainingQuantised, IntegerFormulaFloatAndEngineAgree) {
  const Case c = GetParam();
  const NetworkShape shape{c.hidden, c.buckets, c.activation, c.kingBuckets};
  std::mt19937_64 rng(77 + c.hidden);
  const FloatNetwork net = test::randomTrainedLikeNetwork(shape, rng, 4.0 / std::sqrt(double(c.hidden)));
  const QuantisedNetwork q = quantise(net, "test");
  const auto engine = nnue::Network::fromBytes(netFileBytes(q), "test net");
  ASSERT_EQ(engine->kingBuckets(), c.kingBuckets);
  const nnue::NnueEvaluator engineEval(engine);
  double sumDiff = 0, maxDiff = 0, sumRatio = 0, maxRatio = 0, sumSigma = 0;
  int n = 0;
  for (const Position& pos : test::randomPositions(rng, 300)) {
    const Sample s = sampleFromPosition(pos);
    PieceSquare pieces[32];
    const auto ps = std::span<const PieceSquare>(pieces, std::size_t(samplePieces(s, pieces)));
    const int quantised = evaluateQuantised(q, ps, s.stm);
    // 1. The integer formula only truncates: within 1 cp (final division) + 400 / (QA QB) of exact.
    EXPECT_NEAR(quantised, exactQuantisedEval(q, ps, s.stm), 1.0 + 400.0 / (255.0 * q.qb) + 1e-9) << pos.fen();
    // 2. The engine's SIMD output layer on int16 accumulators gives the same integer.
    std::vector<std::int32_t> acc[2];
    quantisedAccumulators(q, ps, s.stm, acc[0], acc[1]);
    std::vector<std::int16_t> a16[2];
    for (int side = 0; side < 2; ++side) a16[side].assign(acc[side].begin(), acc[side].end());
    EXPECT_EQ(engine->output(a16[0].data(), a16[1].data(), nnue::outputBucket(int(ps.size()), c.buckets)), quantised);
    // 2b. The engine's own evaluation (its feature indices from the Position, king buckets
    //     included) gives the trainer's integer too.
    EXPECT_EQ(engineEval.evaluateFromScratch(pos), quantised) << pos.fen();
    // 3. Float against quantised: within the rounding noise that the quantisation steps predict.
    const double d = std::abs(double(evaluateFloat(net, ps, s.stm)) - quantised);
    const double sigma = predictedRoundingSigma(net, ps, s.stm, q.qb);
    sumDiff += d;
    maxDiff = std::max(maxDiff, d);
    sumRatio += d / (sigma + 1.0);
    maxRatio = std::max(maxRatio, d / (sigma + 1.0));
    sumSigma += sigma;
    ++n;
  }
  std::cout << "  " << shape.hidden << "x" << shape.buckets << " " << activationName(shape.activation)
            << ", QB " << q.qb << ": |float - quantised| mean " << sumDiff / n << " cp, max " << maxDiff << " cp; predicted sigma mean "
            << sumSigma / n << " cp; |d| / (sigma + 1 cp) mean " << sumRatio / n << ", max " << maxRatio << "\n";
  // A normal error has E|d| = 0.8 sigma; the final integer division adds up to 1 cp.
  EXPECT_LT(sumRatio / n, 1.0);
  EXPECT_LT(maxRatio, 4.5);
}

INSTANTIATE_TEST_SUITE_P(Shapes, TrainingQuantised,
                         ::testing::Values(Case{32, 1, nnue::Activation::kSCReLU}, Case{64, 4, nnue::Activation::kCReLU},
                                           Case{256, 8, nnue::Activation::kSCReLU}, Case{128, 3, nnue::Activation::kCReLU},
                                           Case{64, 8, nnue::Activation::kSCReLU, 4},
                                           Case{32, 2, nnue::Activation::kCReLU, 16}),
                         [](const auto& tp) {
                           return std::to_string(tp.param.hidden) + "x" + std::to_string(tp.param.buckets) +
                                  activationName(tp.param.activation) +
                                  (tp.param.kingBuckets > 1 ? "_kb" + std::to_string(tp.param.kingBuckets) : "");
                         });

TEST(TrainingNetFile, OutputScaleIsTheLargestThatKeepsTheWeightsWithin127) {
  const auto qbOf = [](std::vector<float> w) { return outputScaleFor(w); };
  EXPECT_EQ(qbOf({0.2f, -0.1f}), 512);   // 0.2 * 512 = 102
  EXPECT_EQ(qbOf({0.3f, -0.49f}), 256);  // 0.49 * 256 = 125, * 512 = 251
  EXPECT_EQ(qbOf({-0.99f}), 128);        // 0.99 * 128 = 127
  EXPECT_EQ(qbOf({0.5f}), 128);          // 0.5 * 256 = 128 > 127
  EXPECT_EQ(qbOf({1.0f}), 64);
  EXPECT_EQ(qbOf({1.98f}), 64);          // the weight clip: 127 at QB 64
  EXPECT_EQ(qbOf({5.0f}), 64);           // beyond the clip: 64, and quantise clamps

  // A network whose output layer fits QB 256 is written with it, read back with it, and the
  // engine evaluates it as the reference does (the header's QB in the formula, not 64).
  std::mt19937_64 rng(5);
  const NetworkShape shape{32, 2, nnue::Activation::kSCReLU};
  FloatNetwork net = test::randomTrainedLikeNetwork(shape, rng);
  for (std::size_t i = shape.outWeightsOffset(); i < shape.outBiasOffset(); ++i)
    net.params[i] = std::clamp(net.params[i], -0.45f, 0.45f);
  const QuantisedNetwork q = quantise(net, "qb");
  ASSERT_EQ(q.qb, 256);
  const std::vector<unsigned char> bytes = netFileBytes(q);
  nnue::NetHeader h;
  std::memcpy(&h, bytes.data(), sizeof h);
  EXPECT_EQ(h.qb, 256);
  EXPECT_EQ(parseNetFile(bytes, "mem").qb, 256);
  const auto engine = nnue::Network::fromBytes(bytes, "qb net");
  EXPECT_EQ(engine->outputScale(), 256);
  const nnue::NnueEvaluator eval(engine);
  for (const Position& pos : test::randomPositions(rng, 50)) {
    const Sample s = sampleFromPosition(pos);
    PieceSquare pieces[32];
    const auto ps = std::span<const PieceSquare>(pieces, std::size_t(samplePieces(s, pieces)));
    EXPECT_EQ(eval.evaluateFromScratch(pos), evaluateQuantised(q, ps, s.stm)) << pos.fen();
    EXPECT_NEAR(evaluateQuantised(q, ps, s.stm), evaluateFloat(net, ps, s.stm), 40.0) << pos.fen();
  }
}

TEST(TrainingNetFile, RoundTripAndRejection) {
  std::mt19937_64 rng(9);
  const NetworkShape shape{32, 2, nnue::Activation::kCReLU};
  FloatNetwork net = test::randomTrainedLikeNetwork(shape, rng);
  net.params[0] = 500.0f;                         // saturates to int16
  net.params[shape.outWeightsOffset()] = -3.0f;   // outside the clip: clamped to -127
  const QuantisedNetwork q = quantise(net, "round\ntrip");
  EXPECT_EQ(q.ftWeights[0], 32767);
  EXPECT_EQ(q.qb, 64);  // |w| = 3 fits no scale: 64, clamped
  EXPECT_EQ(q.outWeights[0], -127);
  EXPECT_EQ(std::string(q.description, 10), "round?trip");
  const std::vector<unsigned char> bytes = netFileBytes(q);
  ASSERT_EQ(bytes.size(), sizeof(nnue::NetHeader) + nnue::payloadBytes(32, 2));
  const QuantisedNetwork back = parseNetFile(bytes, "mem");
  EXPECT_EQ(back.ftWeights, q.ftWeights);
  EXPECT_EQ(back.ftBias, q.ftBias);
  EXPECT_EQ(back.outWeights, q.outWeights);
  EXPECT_EQ(back.outBias, q.outBias);
  EXPECT_EQ(back.activation, q.activation);
  EXPECT_EQ(back.kingBuckets, 1);
  EXPECT_EQ(back.qb, 64);

  // A king-bucket net: 768 K inputs in the header, K in its byte, and back.
  const NetworkShape kbShape{32, 2, nnue::Activation::kSCReLU, 8};
  const QuantisedNetwork kb = quantise(test::randomTrainedLikeNetwork(kbShape, rng), "kb");
  const std::vector<unsigned char> kbBytes = netFileBytes(kb);
  ASSERT_EQ(kbBytes.size(), sizeof(nnue::NetHeader) + nnue::payloadBytes(32, 2, 8));
  nnue::NetHeader kbHeader;
  std::memcpy(&kbHeader, kbBytes.data(), sizeof kbHeader);
  EXPECT_EQ(kbHeader.kingBuckets, 8);
  EXPECT_EQ(kbHeader.inputs, 8 * 768);
  const QuantisedNetwork kbBack = parseNetFile(kbBytes, "mem");
  EXPECT_EQ(kbBack.kingBuckets, 8);
  EXPECT_EQ(kbBack.ftWeights, kb.ftWeights);
  EXPECT_EQ(dequantise(kbBack).shape, kbShape);
  auto kbDamaged = kbBytes;
  kbDamaged[offsetof(nnue::NetHeader, kingBuckets)] = 5;
  EXPECT_NE(errorOf([&] { (void)parseNetFile(kbDamaged, "mem"); }).find("5 king buckets"), std::string::npos);

  auto damaged = bytes;
  damaged[200] ^= 1;
  EXPECT_NE(errorOf([&] { (void)parseNetFile(damaged, "mem"); }).find("corrupted"), std::string::npos);
  damaged = bytes;
  damaged.resize(damaged.size() - 3);
  EXPECT_NE(errorOf([&] { (void)parseNetFile(damaged, "mem"); }).find("truncated"), std::string::npos);
  damaged = bytes;
  damaged[24] ^= 1;  // archId
  EXPECT_NE(errorOf([&] { (void)parseNetFile(damaged, "mem"); }).find("architecture id"), std::string::npos);
  damaged = bytes;
  damaged[20] = 100;  // QB 100: not a power of two in 64..512
  const std::string qbError = errorOf([&] { (void)parseNetFile(damaged, "mem"); });
  EXPECT_NE(qbError.find("QB 100"), std::string::npos) << qbError;
  damaged = bytes;
  damaged[1] = 'X';
  EXPECT_NE(errorOf([&] { (void)parseNetFile(damaged, "mem"); }).find("NNUE network 'mem': wrong magic"), std::string::npos);

  // dequantise(quantise(w)) is within half a quantisation step of w (inside the clip).
  const FloatNetwork original = test::randomTrainedLikeNetwork(shape, rng);
  const QuantisedNetwork qo = quantise(original, "");
  const FloatNetwork d = dequantise(qo);
  ASSERT_EQ(d.shape, shape);
  for (std::size_t i = 0; i < shape.paramCount(); ++i) {
    const double step = i < shape.outWeightsOffset() ? 1.0 / nnue::kQA
                        : i < shape.outBiasOffset()  ? 1.0 / qo.qb
                                                     : 1.0 / (double(nnue::kQA) * qo.qb);
    ASSERT_NEAR(d.params[i], original.params[i], 0.5 * step + 1e-6) << i;
  }
}

// Every network committed under nets/ is read (the engine's reader reads it too, nnue_test) and
// written back byte for byte.
TEST(TrainingNetFile, EveryCommittedNetIsWrittenBackByteForByte) {
  int nets = 0;
  for (const auto& entry : std::filesystem::directory_iterator(JANUS_NETS_DIR)) {
    if (entry.path().extension() != ".jnn") continue;
    const std::vector<unsigned char> file = netfile::readFile(nnue::kNetFormat, entry.path().string());
    EXPECT_TRUE(netFileBytes(readNetFile(entry.path().string())) == file) << entry.path();
    ++nets;
  }
  EXPECT_GT(nets, 0);
}

}  // namespace
}  // namespace janus::training
