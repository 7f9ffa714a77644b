// The sparse backend's gradients against libtorch autograd on the same batch and weights, for
// both activations, several output buckets and both torch input modes; and a short run of the
// trainer with the torch backend.

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <sstream>

#include "records/janusdat.h"
#include "training/nnue_trainer.h"
#include "training/test_support.h"
#include "training/torch/torch_gradient_backend.h"
#include "training/train_run.h"

namespace janus::training {
namespace {

struct Case {
  nnue::Activation activation;
  int buckets;
  const char* input;
  int kingBuckets = 1;
  bool factoriser = false;
};

void PrintTo(const Case& c, std::ostream* os) {
  *os << activationName(c.activation) << ", " << c.buckets << " buckets, " << c.input << " input, " << c.kingBuckets
      << " king buckets" << (c.factoriser ? " + factoriser" : "");
}

class TrainingTorch : public ::testing::TestWithParam<Case> {};

TEST_P(TrainingTorch, AutogradGradientsEqualTheSparseBackend) {
  const Case c = GetParam();
  const NetworkShape shape{32, c.buckets, c.activation, c.kingBuckets, c.factoriser};
  std::mt19937_64 rng(31);
  const FloatNetwork net = test::randomTrainedLikeNetwork(shape, rng, 0.7);
  const std::vector<Sample> batch = test::randomSamples(rng, 300);
  const LossConfig lc{0.4, 350.0};
  WorkerPool pool(2);
  SparseBackend sparse(shape, pool);
  const auto torch = makeTorchBackend(GradientBackendOptions{shape, 2, c.input});
  FloatVector gs(shape.paramCount()), gt(shape.paramCount());
  const double ls = sparse.gradient(net, batch, lc, gs);
  const double lt = torch->gradient(net, batch, lc, gt);
  EXPECT_NEAR(ls, lt, 1e-6 * ls);
  EXPECT_NEAR(torch->loss(net, batch, lc), lt, 1e-6 * lt);
  double maxAbs = 0;
  for (float g : gt) maxAbs = std::max(maxAbs, double(std::abs(g)));
  ASSERT_GT(maxAbs, 0.0);
  int nonZero = 0;
  for (std::size_t i = 0; i < gs.size(); ++i) {
    // Relative 1e-4, with a floor of 1e-6 of the largest gradient for values that cancel to ~0.
    ASSERT_NEAR(gs[i], gt[i], 1e-4 * std::abs(gt[i]) + 1e-6 * maxAbs) << "parameter " << i;
    nonZero += gt[i] != 0.0f;
  }
  EXPECT_GT(nonZero, int(shape.paramCount() / 10));
}

INSTANTIATE_TEST_SUITE_P(
    Cases, TrainingTorch,
    ::testing::Values(Case{nnue::Activation::kSCReLU, 1, "sparse"}, Case{nnue::Activation::kSCReLU, 4, "sparse"},
                      Case{nnue::Activation::kCReLU, 3, "sparse"}, Case{nnue::Activation::kSCReLU, 3, "dense"},
                      Case{nnue::Activation::kCReLU, 2, "dense"}, Case{nnue::Activation::kSCReLU, 4, "sparse", 4},
                      Case{nnue::Activation::kCReLU, 2, "dense", 2}, Case{nnue::Activation::kSCReLU, 4, "sparse", 4, true},
                      Case{nnue::Activation::kCReLU, 2, "dense", 2, true}),
    [](const auto& tp) {
      return std::string(activationName(tp.param.activation)) + "_" + std::to_string(tp.param.buckets) + "buckets_" +
             tp.param.input + (tp.param.kingBuckets > 1 ? "_kb" + std::to_string(tp.param.kingBuckets) : "") +
             (tp.param.factoriser ? "_factoriser" : "");
    });

TEST(TrainingTorchRun, TrainsLikeTheSparseBackend) {
  registerTorchBackend();
  test::TempDir dir;
  std::mt19937_64 rng(8);
  {
    records::DataWriter w(dir.file("d.janusdat"));
    for (const Position& pos : test::randomMaterialPositions(rng, 1200))
      w.write(records::packRecord(pos, int(rng() % 601) - 300, records::kDraw));
    w.commit();
  }
  auto options = [&](const std::string& backend) {
    RunOptions o;
    o.config.data = {dir.file("d.janusdat")};
    o.config.shape = {16, 2, nnue::Activation::kSCReLU};
    o.config.batch = 200;
    o.config.superbatchSize = 600;
    o.config.superbatches = 2;
    o.config.threads = 1;
    o.config.valFraction = 0.2;
    o.config.backend = backend;
    o.outDir = dir.file(backend);
    return o;
  };
  std::ostringstream log;
  const RunResult sparse = runTraining(options("sparse"), log, log);
  const RunResult torch = runTraining(options("torch"), log, log);
  ASSERT_EQ(torch.state.metrics.size(), 2u);
  // Same start, same batches, gradients equal to rounding: the runs stay close.
  for (int i = 0; i < 2; ++i) {
    EXPECT_NEAR(torch.state.metrics[i].trainLoss, sparse.state.metrics[i].trainLoss, 1e-4);
    EXPECT_NEAR(torch.state.metrics[i].valLoss, sparse.state.metrics[i].valLoss, 1e-4);
  }
  EXPECT_NE(log.str().find("backend torch"), std::string::npos) << log.str();
}

}  // namespace
}  // namespace janus::training
