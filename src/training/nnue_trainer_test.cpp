// Tests of the NNUE trainer: sparse gradients against finite differences, AdamW, the learning-rate
// schedule, checkpoints (round trip and rejection), resume, export and outputs.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <sstream>

#include "nnue/format.h"
#include "nnue/network.h"
#include "records/janusdat.h"
#include "training/checkpoint.h"
#include "training/nnue_export.h"
#include "training/nnue_trainer.h"
#include "training/test_support.h"
#include "training/train_run.h"
#include "util/error.h"
#include "util/test_error.h"
#include "util/test_temp_dir.h"

namespace janus::training {
namespace {

namespace fs = std::filesystem;
using test::TempDir;

using janus::test::errorOf;

using janus::test::readRaw;

/// Parameter indices to check: rows of inputs that the samples use, biases, output weights of
/// every bucket, output biases.
std::vector<std::size_t> probeIndices(const NetworkShape& shape, std::span<const Sample> samples, std::mt19937_64& rng) {
  std::vector<std::size_t> out;
  for (int k = 0; k < 24; ++k) {
    const Sample& s = samples[rng() % samples.size()];
    u16 f[kMaxActiveInputs];
    const int n = activeInputs(shape, s, int(rng() % 2), f);
    out.push_back(std::size_t(f[rng() % u64(n)]) * shape.hidden + rng() % u64(shape.hidden));
  }
  for (int k = 0; k < 8; ++k) out.push_back(shape.ftBiasOffset() + rng() % u64(shape.hidden));
  for (int k = 0; k < 16; ++k) out.push_back(shape.outWeightsOffset() + rng() % (u64(shape.buckets) * 2 * shape.hidden));
  for (int k = 0; k < shape.buckets; ++k) out.push_back(shape.outBiasOffset() + k);
  return out;
}

class TrainingGradient : public ::testing::TestWithParam<nnue::Activation> {};

TEST_P(TrainingGradient, SparseBackendMatchesFiniteDifferences) {
  for (const NetworkShape shape : {NetworkShape{32, 3, GetParam(), 1}, NetworkShape{32, 3, GetParam(), 4},
                                   NetworkShape{32, 3, GetParam(), 4, true}}) {
  SCOPED_TRACE(describeShape(shape));
  std::mt19937_64 rng(2024);
  const FloatNetwork net = test::randomTrainedLikeNetwork(shape, rng, 0.5);
  const std::vector<Sample> samples = test::randomSamples(rng, 240);
  const LossConfig lc{0.3, 400.0};
  WorkerPool pool(2);
  SparseBackend backend(shape, pool);
  FloatVector grad(shape.paramCount(), 1.0f);
  const double loss = backend.gradient(net, samples, lc, grad);
  EXPECT_NEAR(loss, referenceLoss(net, samples, lc), 1e-6 * loss);
  EXPECT_NEAR(backend.loss(net, samples, lc), loss, 1e-9);

  int checked = 0;
  for (std::size_t i : probeIndices(shape, samples, rng)) {
    FloatNetwork plus = net, minus = net;
    plus.params[i] += 1e-5f;
    minus.params[i] -= 1e-5f;
    const double step = double(plus.params[i]) - double(minus.params[i]);
    const double fd = (referenceLoss(plus, samples, lc) - referenceLoss(minus, samples, lc)) / step;
    EXPECT_NEAR(grad[i], fd, 2e-3 * std::abs(fd) + 1e-8) << "parameter " << i;
    checked += std::abs(fd) > 1e-7;
  }
  EXPECT_GT(checked, 30);
  // Rows of inputs no sample uses have an exactly zero gradient.
  std::vector<char> used(std::size_t(shape.inputs()), 0);
  for (const Sample& s : samples)
    for (int p = 0; p < 2; ++p) {
      u16 f[kMaxActiveInputs];
      const int n = activeInputs(shape, s, p, f);
      for (int j = 0; j < n; ++j) used[f[j]] = 1;
    }
  int unused = 0;
  for (int f = 0; f < shape.inputs(); ++f)
    if (!used[std::size_t(f)]) {
      ++unused;
      for (int i = 0; i < shape.hidden; ++i) ASSERT_EQ(grad[std::size_t(f) * shape.hidden + i], 0.0f);
    }
  EXPECT_GT(unused, 0);
  }
}

TEST_P(TrainingGradient, ThreadCountChangesOnlyTheRounding) {
  const NetworkShape shape{48, 4, GetParam(), 8};
  std::mt19937_64 rng(5);
  const FloatNetwork net = test::randomTrainedLikeNetwork(shape, rng);
  const std::vector<Sample> samples = test::randomSamples(rng, 301);
  FloatVector one(shape.paramCount()), three(shape.paramCount()), again(shape.paramCount());
  WorkerPool pool1(1), pool3(3);
  SparseBackend b1(shape, pool1), b3(shape, pool3);
  const double l1 = b1.gradient(net, samples, {}, one);
  const double l3 = b3.gradient(net, samples, {}, three);
  EXPECT_NEAR(l1, l3, 1e-9);
  double maxAbs = 0;
  for (float g : one) maxAbs = std::max(maxAbs, double(std::abs(g)));
  for (std::size_t i = 0; i < one.size(); ++i) ASSERT_NEAR(one[i], three[i], 1e-5 * maxAbs) << i;
  // Buffers are left clean: a second call gives the same numbers bit for bit.
  b3.gradient(net, samples, {}, again);
  EXPECT_EQ(std::memcmp(three.data(), again.data(), three.size() * sizeof(float)), 0);
}

INSTANTIATE_TEST_SUITE_P(Activations, TrainingGradient,
                         ::testing::Values(nnue::Activation::kSCReLU, nnue::Activation::kCReLU),
                         [](const auto& tp) { return std::string(activationName(tp.param)); });

TEST(TrainingOptimiser, AdamWFollowsTheFormulaAndClips) {
  TrainConfig c;
  c.data = {"unused"};
  c.shape = {16, 1, nnue::Activation::kSCReLU};
  c.wd = 0.05;
  TrainState s;
  s.config = c;
  s.net = FloatNetwork(c.shape);
  const std::size_t n = c.shape.paramCount();
  s.adamM.assign(n, 0.0f);
  s.adamV.assign(n, 0.0f);
  std::mt19937_64 rng(1);
  for (auto& p : s.net.params) p = float(int(rng() % 2001) - 1000) / 1000.0f;
  s.net.params[0] = 1.97f;
  FloatVector grad(n);
  WorkerPool pool(2);
  std::vector<double> p(s.net.params.begin(), s.net.params.end()), m(n, 0), v(n, 0);
  for (int step = 1; step <= 3; ++step) {
    for (auto& g : grad) g = float(int(rng() % 2001) - 1000) / 1e5f;
    grad[0] = -1.0f;  // pushes parameter 0 above the clip
    const double lr = 0.01;
    adamwStep(s, grad, lr, pool);
    for (std::size_t i = 0; i < n; ++i) {
      m[i] = 0.9 * m[i] + 0.1 * grad[i];
      v[i] = 0.999 * v[i] + 0.001 * double(grad[i]) * grad[i];
      p[i] = p[i] * (1 - lr * c.wd) -
             lr / (1 - std::pow(0.9, step)) * m[i] / (std::sqrt(v[i]) / std::sqrt(1 - std::pow(0.999, step)) + 1e-8);
      p[i] = std::clamp(p[i], -double(nnue::kWeightClip), double(nnue::kWeightClip));
    }
    EXPECT_EQ(s.adamStep, u64(step));
  }
  for (std::size_t i = 0; i < n; ++i) ASSERT_NEAR(s.net.params[i], p[i], 2e-6) << i;
  EXPECT_EQ(s.net.params[0], nnue::kWeightClip);
}

/// Writes `count` random positions (test::randomMaterialPositions) with their material balance
/// as the score (White's view) and a result that follows it.
std::string writeMaterialData(const TempDir& dir, const std::string& name, std::size_t count, u64 seed) {
  std::mt19937_64 rng(seed);
  const int values[6] = {100, 300, 320, 500, 900, 0};
  records::DataWriter w(dir.file(name));
  for (const Position& pos : test::randomMaterialPositions(rng, count)) {
    if (pos.inCheck()) continue;
    int score = 0;
    for (int pt = 0; pt < 6; ++pt) score += values[pt] * (pos.count(kWhite, PieceType(pt)) - pos.count(kBlack, PieceType(pt)));
    const auto wdl = score > 150 ? records::kWhiteWin : score < -150 ? records::kBlackWin : records::kDraw;
    w.write(records::packRecord(pos, std::clamp(score, -2500, 2500), wdl));
  }
  w.commit();
  return dir.file(name);
}

RunOptions smallRun(const std::string& data, const std::string& outDir) {
  RunOptions o;
  o.config.data = {data};
  o.config.shape = {16, 2, nnue::Activation::kSCReLU};
  o.config.batch = 128;
  o.config.superbatchSize = 512;
  o.config.superbatches = 3;
  o.config.threads = 2;
  o.config.lr = 0.01;
  o.config.valFraction = 0.1;
  o.outDir = outDir;
  return o;
}

TEST(TrainingLearningRate, CosineAndStepDrops) {
  std::vector<Sample> train(1000);
  TrainConfig c;
  c.data = {"x"};
  c.batch = 100;
  c.superbatchSize = 500;  // 5 batches per superbatch
  c.superbatches = 4;
  c.lr = 0.01;
  c.lrFinal = 0.0001;
  TrainState s;
  s.config = c;
  s.net = FloatNetwork(c.shape);
  WorkerPool pool(1);
  SparseBackend backend(c.shape, pool);
  {
    Trainer t(s, train, {}, backend, pool);
    EXPECT_EQ(t.batchesPerSuperbatch(), 5);
    EXPECT_DOUBLE_EQ(t.learningRate(0), 0.01);
    EXPECT_NEAR(t.learningRate(19), 0.0001, 1e-12);
    for (u64 b = 1; b < 20; ++b) EXPECT_LT(t.learningRate(b), t.learningRate(b - 1));
  }
  s.config.lrSchedule = "constant";
  s.config.lrDropEvery = 2;
  s.config.lrGamma = 0.5;
  Trainer t(s, train, {}, backend, pool);
  EXPECT_DOUBLE_EQ(t.learningRate(9), 0.01);    // superbatch 2 of 4
  EXPECT_DOUBLE_EQ(t.learningRate(10), 0.005);  // superbatch 3
  EXPECT_DOUBLE_EQ(t.learningRate(19), 0.005);
  // A superbatch larger than the data is one pass over it.
  s.config.superbatchSize = 1'000'000;
  EXPECT_EQ(Trainer(s, train, {}, backend, pool).batchesPerSuperbatch(), 10);
}

TEST(TrainingCheckpoint, RoundTripKeepsEverything) {
  TrainConfig c;
  c.data = {"a.janusdat", "b.janusdat.zst"};
  c.shape = {32, 3, nnue::Activation::kCReLU, 4, true};  // king buckets and the factoriser are kept too
  c.lr = 0.0023;
  c.seed = 99;
  std::vector<Sample> train(10);
  TrainState s = initialState(c, train);
  std::mt19937_64 rng(4);
  for (auto& m : s.adamM) m = float(rng() % 1000) / 7.0f;
  for (auto& v : s.adamV) v = float(rng() % 1000) / 3.0f;
  s.adamStep = 1234;
  s.superbatch = 2;
  s.streamPos = 987654321;
  s.seconds = 12.5;
  s.metrics = {{1, 100, 0.05, std::nan(""), 0.001, 6.0}, {2, 200, 0.04, 0.045, 0.0009, 12.5}};
  const TrainState r = parseCheckpoint(checkpointBytes(s), "mem");
  EXPECT_EQ(configToMap(r.config), configToMap(c));
  EXPECT_EQ(r.net.shape, c.shape);
  EXPECT_EQ(std::memcmp(r.net.params.data(), s.net.params.data(), s.net.params.size() * 4), 0);
  EXPECT_EQ(std::memcmp(r.adamM.data(), s.adamM.data(), s.adamM.size() * 4), 0);
  EXPECT_EQ(std::memcmp(r.adamV.data(), s.adamV.data(), s.adamV.size() * 4), 0);
  EXPECT_EQ(r.adamStep, 1234u);
  EXPECT_EQ(r.superbatch, 2);
  EXPECT_EQ(r.streamPos, 987654321u);
  EXPECT_EQ(r.dataHash, s.dataHash);
  EXPECT_EQ(r.trainCount, 10u);
  ASSERT_EQ(r.metrics.size(), 2u);
  EXPECT_TRUE(std::isnan(r.metrics[0].valLoss));
  EXPECT_EQ(r.metrics[1].valLoss, 0.045);
  EXPECT_EQ(r.metrics[1].positions, 200u);
}

TEST(TrainingCheckpoint, RejectsTruncatedCorruptedAndMismatched) {
  TrainConfig c;
  c.data = {"a"};
  c.shape = {16, 1, nnue::Activation::kSCReLU};
  std::vector<Sample> train(3);
  TrainState s = initialState(c, train);
  const std::vector<unsigned char> good = checkpointBytes(s);

  auto truncated = good;
  truncated.resize(truncated.size() - 100);
  EXPECT_NE(errorOf([&] { (void)parseCheckpoint(truncated, "ck"); }).find("truncated"), std::string::npos);
  truncated.resize(20);
  EXPECT_NE(errorOf([&] { (void)parseCheckpoint(truncated, "ck"); }).find("truncated"), std::string::npos);
  auto corrupted = good;
  corrupted[good.size() / 2] ^= 0x40;
  EXPECT_NE(errorOf([&] { (void)parseCheckpoint(corrupted, "ck"); }).find("checksum"), std::string::npos);
  auto magic = good;
  magic[0] = 'X';
  EXPECT_NE(errorOf([&] { (void)parseCheckpoint(magic, "ck"); }).find("not a train-nnue checkpoint"), std::string::npos);
  auto version = good;
  version[8] = 2;
  EXPECT_NE(errorOf([&] { (void)parseCheckpoint(version, "ck"); }).find("version 2"), std::string::npos);
  // Weights of one shape under the configuration of another.
  TrainState mismatched = s;
  mismatched.config.shape.hidden = 32;
  const std::string e = errorOf([&] { (void)parseCheckpoint(checkpointBytes(mismatched), "ck"); });
  EXPECT_NE(e.find("does not match"), std::string::npos) << e;
  EXPECT_NE(errorOf([] { (void)readCheckpoint("/nonexistent/checkpoint.bin"); }).find("cannot open"), std::string::npos);
}

TEST(TrainingRun, ResumeContinuesBitIdenticallyAndWritesTheOutputs) {
  TempDir dir;
  const std::string data = writeMaterialData(dir, "d.janusdat", 1500, 1);
  std::ostringstream log, progress;
  const RunResult full = runTraining(smallRun(data, dir.file("full")), log, progress);
  ASSERT_EQ(full.state.superbatch, 3);
  ASSERT_FALSE(full.netPath.empty());
  EXPECT_EQ(full.state.metrics.size(), 3u);
  EXPECT_NE(progress.str().find("superbatch 3/3"), std::string::npos) << progress.str();
  EXPECT_NE(log.str().find("positions/s"), std::string::npos) << log.str();

  RunOptions first = smallRun(data, dir.file("split"));
  first.stopAfter = 1;
  const RunResult part = runTraining(first, log, progress);
  EXPECT_EQ(part.state.superbatch, 1);
  EXPECT_TRUE(part.netPath.empty());
  EXPECT_TRUE(fs::exists(dir.file("split/checkpoint.bin")));
  RunOptions resume;
  resume.resume = true;
  resume.outDir = dir.file("split");
  const RunResult rest = runTraining(resume, log, progress);
  ASSERT_EQ(rest.state.superbatch, 3);
  EXPECT_EQ(std::memcmp(rest.state.net.params.data(), full.state.net.params.data(), full.state.net.params.size() * 4), 0);
  EXPECT_EQ(rest.state.adamStep, full.state.adamStep);
  ASSERT_EQ(rest.state.metrics.size(), 3u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(rest.state.metrics[i].trainLoss, full.state.metrics[i].trainLoss);
    EXPECT_EQ(rest.state.metrics[i].valLoss, full.state.metrics[i].valLoss);
  }
  EXPECT_EQ(fs::path(rest.netPath).filename(), fs::path(full.netPath).filename());

  // Outputs.
  const std::string csv = readRaw(dir.file("split/metrics.csv"));
  EXPECT_EQ(csv.rfind("superbatch,positions,train_loss,val_loss,lr,seconds\n", 0), 0u) << csv;
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 4);
  const std::string svg = readRaw(dir.file("split/loss.svg"));
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_NE(svg.find(">superbatch<"), std::string::npos);
  EXPECT_NE(svg.find("loss (mean squared error)"), std::string::npos);
  EXPECT_NE(svg.find(">validation<"), std::string::npos);
  EXPECT_EQ(std::count(svg.begin(), svg.end(), '<') , std::count(svg.begin(), svg.end(), '>'));
}

TEST(TrainingRun, ResumeChecksTheOptionsAndTheData) {
  TempDir dir;
  const std::string data = writeMaterialData(dir, "d.janusdat", 800, 2);
  const std::string other = writeMaterialData(dir, "e.janusdat", 800, 3);
  std::ostringstream log;
  RunOptions resume;
  resume.resume = true;
  resume.outDir = dir.file("run");
  EXPECT_NE(errorOf([&] { runTraining(resume, log, log); }).find("no checkpoint"), std::string::npos);

  RunOptions first = smallRun(data, dir.file("run"));
  first.stopAfter = 1;
  runTraining(first, log, log);
  EXPECT_NE(errorOf([&] { runTraining(first, log, log); }).find("--resume"), std::string::npos);

  RunOptions changed = resume;
  changed.config.lr = 0.5;
  changed.config.shape.hidden = 32;
  changed.given = {"lr", "hidden"};
  const std::string e = errorOf([&] { runTraining(changed, log, log); });
  EXPECT_NE(e.find("--lr 0.5 (checkpoint: 0.01)"), std::string::npos) << e;
  EXPECT_NE(e.find("--hidden 32"), std::string::npos) << e;

  // King buckets are part of the architecture: a resume with another K is refused.
  RunOptions otherKing = resume;
  otherKing.config.shape.kingBuckets = 4;
  otherKing.given = {"king-buckets"};
  EXPECT_NE(errorOf([&] { runTraining(otherKing, log, log); }).find("--king-buckets 4"), std::string::npos);
  // --mirror with king buckets would only duplicate positions: refused before any work.
  RunOptions mirrorKing = smallRun(data, dir.file("run-kb"));
  mirrorKing.config.mirror = true;
  mirrorKing.config.shape.kingBuckets = 2;
  EXPECT_NE(errorOf([&] { runTraining(mirrorKing, log, log); }).find("--mirror with --king-buckets"), std::string::npos);

  RunOptions otherData = resume;
  otherData.config.data = {other};
  otherData.given = {"data"};
  EXPECT_NE(errorOf([&] { runTraining(otherData, log, log); }).find("training data differ"), std::string::npos);

  // More superbatches may be asked for; the run continues from the checkpoint.
  RunOptions longer = resume;
  longer.config.superbatches = 4;
  longer.given = {"superbatches"};
  longer.stopAfter = 1;
  EXPECT_EQ(runTraining(longer, log, log).state.superbatch, 2);
}

TEST(TrainingRun, LearnsMaterialAndExportsAValidNetwork) {
  TempDir dir;
  const std::string data = writeMaterialData(dir, "d.janusdat", 3000, 5);
  RunOptions o = smallRun(data, dir.file("run"));
  o.config.shape = {32, 1, nnue::Activation::kSCReLU};
  o.config.loss.lambda = 0.0;
  o.config.superbatches = 6;
  o.config.superbatchSize = 2048;
  o.config.batch = 256;
  o.config.lr = 0.02;
  o.config.lrFinal = 0.001;
  o.description = "unit-test-net-with-long-name";
  std::ostringstream log;
  const RunResult r = runTraining(o, log, log);
  ASSERT_EQ(r.state.metrics.size(), 6u);
  EXPECT_LT(r.state.metrics.back().valLoss, 0.5 * r.state.metrics.front().valLoss) << log.str();

  // The final network: named by its content hash, a header that validates, readable by the engine.
  const std::string bytes = readRaw(r.netPath);
  ASSERT_GT(bytes.size(), sizeof(nnue::NetHeader));
  nnue::NetHeader h;
  std::memcpy(&h, bytes.data(), sizeof h);
  EXPECT_EQ(std::memcmp(h.magic, nnue::kNetMagic, 8), 0);
  EXPECT_EQ(h.version, nnue::kNetVersion);
  EXPECT_EQ(h.hidden, 32);
  EXPECT_EQ(h.outputBuckets, 1);
  EXPECT_EQ(h.activation, u8(nnue::Activation::kSCReLU));
  EXPECT_TRUE(nnue::validQB(h.qb)) << h.qb;
  EXPECT_EQ(h.archId, nnue::architectureId(nnue::Activation::kSCReLU, 32, 1, 1, h.qb));
  EXPECT_EQ(h.payloadBytes, nnue::payloadBytes(32, 1));
  EXPECT_EQ(bytes.size(), sizeof h + h.payloadBytes);
  const auto* payload = reinterpret_cast<const unsigned char*>(bytes.data()) + sizeof h;
  EXPECT_EQ(h.contentHash, fnv1a64(std::span(payload, std::size_t(h.payloadBytes))));
  EXPECT_EQ(fs::path(r.netPath).filename().string(), netfile::fileName(nnue::kNetFormat, h.contentHash));
  EXPECT_EQ(std::string(h.description, 16), "unit-test-net-wi");
  const auto engineNet = nnue::Network::fromFile(r.netPath);
  EXPECT_EQ(engineNet->hidden(), 32);
  EXPECT_EQ(engineNet->contentHash(), h.contentHash);

  // The trained net knows that a queen is worth a lot (side to move's view).
  const Position upQueen = Position::fromFen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR b KQkq - 0 1");
  const Position downQueen = Position::fromFen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1");
  EXPECT_GT(evaluateFloat(r.state.net, sampleFromPosition(upQueen)), 200.0f);
  EXPECT_LT(evaluateFloat(r.state.net, sampleFromPosition(downQueen)), -200.0f);

  // --export of the checkpoint writes the same network.
  std::ostringstream out;
  const std::string exported = exportCheckpoint(dir.file("run/checkpoint.bin"), dir.file("exported.jnn"),
                                                "unit-test-net-with-long-name", out);
  EXPECT_EQ(readRaw(exported), bytes);
}

TEST(TrainingRun, EvaluateNetworksGivesEachNetworksLossOnTheData) {
  TempDir dir;
  const std::string data = writeMaterialData(dir, "d.janusdat", 2000, 11);
  const std::string heldOut = writeMaterialData(dir, "held-out.janusdat", 500, 12);
  RunOptions run = smallRun(data, dir.file("run"));
  run.config.loss.lambda = 0.0;  // the material score: learnable from 2000 positions
  run.config.superbatches = 6;
  run.config.superbatchSize = 2048;
  run.config.batch = 256;
  run.config.lr = 0.02;
  std::ostringstream log;
  const RunResult trained = runTraining(run, log, log);
  ASSERT_FALSE(trained.netPath.empty()) << log.str();
  const std::string untrained = writeNetFile(quantise(randomNetwork(run.config.shape, 3), "random"), dir.file("r.jnn"));

  TrainConfig c = run.config;
  c.data = {heldOut};
  std::ostringstream out;
  const std::vector<double> losses =
      evaluateNetworks(c, {trained.netPath, dir.file("run/checkpoint.bin"), untrained}, out);
  ASSERT_EQ(losses.size(), 3u);
  // The network file plays what the checkpoint learnt, up to its rounding; both beat random weights.
  EXPECT_NEAR(losses[0], losses[1], 0.05 * losses[1]);
  EXPECT_LT(losses[0], 0.8 * losses[2]);
  // The loss is the trainer's: the held-out file as a run's validation set gives the same number
  // for the trained network (its start loss with --init).
  RunOptions check = smallRun(data, dir.file("check"));
  check.config.init = trained.netPath;
  check.config.validation = {heldOut};
  check.config.superbatches = 1;
  check.config.loss = run.config.loss;
  std::ostringstream checkLog;
  runTraining(check, checkLog, checkLog);
  const std::string startLine = checkLog.str().substr(checkLog.str().find("start: validation loss"));
  EXPECT_NEAR(std::stod(startLine.substr(std::string("start: validation loss ").size())), losses[0], 1e-6);
  EXPECT_NE(out.str().find(trained.netPath + ": loss "), std::string::npos) << out.str();

  EXPECT_NE(errorOf([&] { (void)evaluateNetworks(c, {dir.file("missing.jnn")}, out); }).find("missing.jnn"),
            std::string::npos);
  EXPECT_NE(errorOf([&] { (void)evaluateNetworks(c, {}, out); }).find("no network"), std::string::npos);
}

TEST(TrainingRun, QuantisationAwareRunsReportTheLossOfTheExportedNetwork) {
  TempDir dir;
  const std::string data = writeMaterialData(dir, "d.janusdat", 2000, 21);
  const std::string heldOut = writeMaterialData(dir, "held-out.janusdat", 500, 22);
  auto run = [&](const std::string& name, bool qat, bool factoriser) {
    RunOptions o = smallRun(data, dir.file(name));
    if (factoriser) o.config.shape = {16, 2, nnue::Activation::kSCReLU, 2, true};
    o.config.validation = {heldOut};
    o.config.loss.lambda = 0.0;
    o.config.superbatchSize = 2048;
    o.config.batch = 256;
    o.config.qat = qat;
    o.stopAfter = 2;
    std::ostringstream log;
    RunResult r = runTraining(o, log, log);
    return std::pair(std::move(r), log.str());
  };
  TrainConfig evalConfig = smallRun(data, "").config;
  evalConfig.data = {heldOut};
  evalConfig.loss.lambda = 0.0;
  std::ostringstream out;
  // With --qat the validation loss after a superbatch is the loss of the network exported from
  // that checkpoint (also when export first adds the factoriser's shared rows into the king
  // buckets' rows); without it, the float network's, which rounding changes.
  for (const auto& [qat, factoriser] : {std::pair(true, false), std::pair(false, false), std::pair(true, true)}) {
    const std::string name = std::string(qat ? "qat" : "float") + (factoriser ? "-factoriser" : "");
    const auto [result, log] = run(name, qat, factoriser);
    ASSERT_EQ(result.state.metrics.size(), 2u) << log;
    EXPECT_EQ(log.find("quantisation-aware") != std::string::npos, qat) << log;
    const std::string exported =
        exportCheckpoint(dir.file(name + "/checkpoint.bin"), dir.file(name + ".jnn"), name, out);
    const double exportedLoss = evaluateNetworks(evalConfig, {exported}, out)[0];
    const double reported = result.state.metrics.back().valLoss;
    if (qat)
      EXPECT_NEAR(reported, exportedLoss, 1e-6 * exportedLoss);
    else
      EXPECT_GT(std::abs(reported - exportedLoss), 1e-6 * exportedLoss);
  }
  // --qat may be switched on when a run is resumed, and the checkpoint keeps it.
  RunOptions resume = smallRun(data, dir.file("float"));
  resume.resume = true;
  resume.config.qat = true;
  resume.config.superbatches = 3;
  resume.given = {"qat", "superbatches"};
  std::ostringstream log;
  const RunResult resumed = runTraining(resume, log, log);
  EXPECT_TRUE(resumed.state.config.qat) << log.str();
  EXPECT_TRUE(readCheckpoint(dir.file("float/checkpoint.bin")).config.qat);
}

TEST(TrainingRun, InitStartsFromANetworkFileOrACheckpoint) {
  TempDir dir;
  const std::string data = writeMaterialData(dir, "d.janusdat", 2000, 11);
  RunOptions first = smallRun(data, dir.file("first"));
  std::ostringstream log;
  const RunResult trained = runTraining(first, log, log);
  ASSERT_FALSE(trained.netPath.empty()) << log.str();
  const std::string fileBytes = readRaw(trained.netPath);

  // From the network file: the integers over their scales, so quantising again gives the same file.
  TrainConfig c = first.config;
  c.init = trained.netPath;
  const std::vector<Sample> none;
  const TrainState fromNet = initialState(c, none);
  EXPECT_EQ(fromNet.adamStep, 0u);
  EXPECT_EQ(fromNet.superbatch, 0);
  const std::vector<unsigned char> again = netPayload(quantise(fromNet.net, "again"));
  EXPECT_EQ(std::string(again.begin(), again.end()), fileBytes.substr(sizeof(nnue::NetHeader)));
  EXPECT_NE(fromNet.net.params, randomNetwork(c.shape, c.seed).params);

  // From a checkpoint: its float weights exactly, fresh moments.
  c.init = dir.file("first/checkpoint.bin");
  const TrainState fromCheckpoint = initialState(c, none);
  EXPECT_EQ(fromCheckpoint.net.params, trained.state.net.params);
  EXPECT_TRUE(std::all_of(fromCheckpoint.adamV.begin(), fromCheckpoint.adamV.end(), [](float v) { return v == 0.0f; }));

  // A fine-tuning run starts at the network's loss (not a random net's) and records --init, so
  // --resume keeps it and a resume with another --init is refused.
  RunOptions tune = smallRun(data, dir.file("tune"));
  tune.config.init = trained.netPath;
  tune.config.superbatches = 2;
  tune.stopAfter = 1;
  std::ostringstream tuneLog;
  runTraining(tune, tuneLog, tuneLog);
  const std::string startLine = tuneLog.str().substr(tuneLog.str().find("start: validation loss"));
  const double startLoss = std::stod(startLine.substr(std::string("start: validation loss ").size()));
  EXPECT_NEAR(startLoss, trained.state.metrics.back().valLoss, 0.1 * trained.state.metrics.back().valLoss) << tuneLog.str();
  RunOptions resume = tune;
  resume.resume = true;
  resume.stopAfter = 0;
  resume.config.init = dir.file("first/checkpoint.bin");
  resume.given = {"init"};
  EXPECT_NE(errorOf([&] { runTraining(resume, log, log); }).find("--init"), std::string::npos);
  resume.given.clear();
  resume.config.init.clear();
  const RunResult resumed = runTraining(resume, log, log);
  EXPECT_EQ(resumed.state.config.init, trained.netPath);
  EXPECT_EQ(resumed.state.superbatch, 2);

  // Errors name the file: missing, not a network, another shape.
  c.init = dir.file("missing.jnn");
  EXPECT_NE(errorOf([&] { (void)initialState(c, none); }).find("missing.jnn"), std::string::npos);
  c.init = data;
  EXPECT_NE(errorOf([&] { (void)initialState(c, none); }).find("d.janusdat"), std::string::npos);
  c.init = trained.netPath;
  c.shape.buckets = 4;
  const std::string shapeError = errorOf([&] { (void)initialState(c, none); });
  EXPECT_NE(shapeError.find("768x2->16->2"), std::string::npos) << shapeError;
  EXPECT_NE(shapeError.find("768x2->16->4"), std::string::npos) << shapeError;
  c.shape.buckets = trained.state.config.shape.buckets;
  // A wider hidden layer widens the file's network to the same function (withHidden).
  c.shape.hidden = 32;
  const TrainState wide = initialState(c, none);
  EXPECT_EQ(wide.net.shape.hidden, 32);
  const FloatNetwork narrow = readInitNetwork(trained.netPath);
  const Sample start = sampleFromPosition(Position::fromFen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"));
  EXPECT_NEAR(networkOutput(wide.net, start), networkOutput(narrow, start), 1e-5f);

  // A run with --init takes the shape options it was not given from the file; a given one that
  // differs is refused with both shapes named.
  RunOptions noShape = smallRun(data, dir.file("no-shape"));
  noShape.config.init = trained.netPath;
  noShape.config.shape = NetworkShape{};  // the defaults, 768x2->256->8
  noShape.config.superbatches = 1;
  std::ostringstream noShapeLog;
  const RunResult fromFileShape = runTraining(noShape, noShapeLog, noShapeLog);
  EXPECT_EQ(fromFileShape.state.config.shape, trained.state.config.shape);
  EXPECT_NE(noShapeLog.str().find("a 768x2->16->2 SCReLU network"), std::string::npos) << noShapeLog.str();
  RunOptions otherShape = smallRun(data, dir.file("other-shape"));
  otherShape.config.init = trained.netPath;
  otherShape.config.shape.buckets = 4;
  otherShape.given = {"buckets"};
  const std::string givenError = errorOf([&] { runTraining(otherShape, log, log); });
  EXPECT_NE(givenError.find("768x2->16->4"), std::string::npos) << givenError;
  EXPECT_NE(givenError.find("768x2->16->2"), std::string::npos) << givenError;

  // --king-buckets 4 --factoriser on a file without buckets: net expansion (every bucket starts
  // from the file's weights, zero shared rows).
  c.shape = trained.state.config.shape;
  c.shape.kingBuckets = 4;
  c.shape.factoriser = true;
  const TrainState expanded = initialState(c, none);
  EXPECT_EQ(describeShape(expanded.net.shape), "4kb+f x 768x2->16->2 SCReLU");
  const FloatNetwork file = readInitNetwork(trained.netPath);
  for (int b = 0; b < 4; ++b)
    for (int i = 0; i < 16; ++i) ASSERT_EQ(expanded.net.ftRow(b * nnue::kInputs + 5)[i], file.ftRow(5)[i]);
}

}  // namespace
}  // namespace janus::training
