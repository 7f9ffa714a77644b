// Tests of the libtorch policy/value trainer (az_model.h, az_train.h): the two policy-head
// computations agree, a tiny run lowers the loss, the exported file gives the torch model's
// logits in the engine (mcts::pvnet::PvNetwork), resume after a stop continues the same run,
// and bad options are clear errors; the value-only baselines (value-mlp, value-cnn): shapes, MSE,
// a tiny run, resume and bad option combinations.

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <numeric>
#include <random>
#include <sstream>

#include "core/movegen.h"
#include "core/game_end.h"
#include "core/notation.h"
#include "encoding/planes.h"
#include "encoding/policy_map.h"
#include "mcts/pvnet.h"
#include "records/janusdat.h"
#include "training/az/az_model.h"
#include "training/az/az_train.h"
#include "util/error.h"

namespace janus::training::az {
namespace {

namespace fs = std::filesystem;

/// A path named `name` in a directory of this process and test. The file name itself is the
/// same in every run: the validation split hashes it (az_data.h), so a name with the process id
/// in it would hold out different games in each run and make the tests' figures vary.
std::string tempPath(const std::string& name) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const fs::path dir = fs::temp_directory_path() / ("janus_aztrain_" + std::to_string(::getpid()) + "_" + info->name());
  fs::create_directories(dir);
  return (dir / name).string();
}

/// Removes this process's test directories (tempPath) when the tests end.
class TempDirCleanup : public ::testing::Environment {
 public:
  void TearDown() override {
    const std::string prefix = "janus_aztrain_" + std::to_string(::getpid()) + "_";
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(fs::temp_directory_path(), ec))
      if (entry.path().filename().string().starts_with(prefix)) fs::remove_all(entry.path(), ec);
  }
};
[[maybe_unused]] ::testing::Environment* const kTempDirCleanup = ::testing::AddGlobalTestEnvironment(new TempDirCleanup);

/// Games in which the side to move plays the legal move with the highest policy index 80% of
/// the time (a rule a network can learn) and a random one otherwise; the result follows the
/// material balance at the end, the score the material balance in centipawns.
std::string writeLearnableGames(const std::string& path, int games, u64 seed) {
  std::mt19937_64 rng(seed);
  records::DataWriter out(path);
  for (int g = 0; g < games; ++g) {
    Position pos;
    std::vector<Position> seen;
    std::vector<Move> played;
    for (int ply = 0; ply < 40; ++ply) {
      const MoveList moves = legalMoves(pos);
      if (moves.empty() || pos.isInsufficientMaterial()) break;
      Move m = moves[0];
      if (rng() % 10 < 8) {
        int best = -1;
        for (Move c : moves)
          if (const int i = encoding::policyIndex(pos, c); i > best) best = i, m = c;
      } else {
        m = moves[int(rng() % u64(moves.size()))];
      }
      seen.push_back(pos);
      played.push_back(m);
      pos.makeMove(m);
    }
    auto material = [](const Position& p) {
      int s = 0;
      const int value[] = {100, 300, 300, 500, 900};
      for (int t = 0; t < 5; ++t)
        s += value[t] * (p.count(kWhite, PieceType(kPawn + t)) - p.count(kBlack, PieceType(kPawn + t)));
      return s;
    };
    const int end = material(pos);
    const records::Wdl result = end > 150 ? records::kWhiteWin : end < -150 ? records::kBlackWin : records::kDraw;
    for (std::size_t i = 0; i < seen.size(); ++i) {
      records::PackedRecord r = records::packRecord(seen[i], material(seen[i]), result, played[i]);
      if (i + 1 == seen.size()) records::setGameEnd(r, GameEnd::kMaxPlies);  // version 3: games end where marked
      out.write(r);
    }
  }
  out.commit();
  return path;
}

AzRunOptions tinyRun(const std::string& data, const std::string& outDir) {
  AzRunOptions o;
  o.config.data = {data};
  o.config.valFraction = 0.2;
  o.config.hidden = 32;
  o.config.valueHidden = 8;
  o.config.batch = 128;
  o.config.epochs = 5;
  o.config.lr = 0.01;
  o.config.lrFinal = 0.001;
  o.config.threads = 1;
  o.outDir = outDir;
  return o;
}

TEST(TrainAz, DenseAndGatherPolicyHeadsGiveTheSameLossAndGradients) {
  const std::string path = writeLearnableGames(tempPath("g.janusdat"), 6, 3);
  LoadOptions lo;
  lo.files = {path};
  lo.valFraction = 0;
  const LoadedData d = loadData(lo);
  std::vector<std::uint32_t> idx(std::min<std::size_t>(d.train.size(), 100));
  std::iota(idx.begin(), idx.end(), 0u);
  torch::manual_seed(4);
  PvModel model(32, 8);
  std::vector<double> losses;
  std::vector<torch::Tensor> grads;
  for (PolicyHead head : {PolicyHead::kDense, PolicyHead::kGather}) {
    model->zero_grad();
    const LossParts p = computeLoss(model, makeBatch(d.train, idx, head), head, 1.0, 0.7, true);
    p.loss.backward();
    losses.push_back(p.loss.item<double>());
    std::vector<torch::Tensor> g;
    for (const auto& param : model->parameters()) g.push_back(param.grad().clone());
    grads.push_back(torch::cat([&] {
      std::vector<torch::Tensor> flat;
      for (auto& t : g) flat.push_back(t.reshape({-1}));
      return flat;
    }()));
  }
  EXPECT_NEAR(losses[0], losses[1], 1e-5 * std::abs(losses[0]));
  const double diff = (grads[0] - grads[1]).abs().max().item<double>();
  const double scale = grads[0].abs().max().item<double>();
  EXPECT_LT(diff, 1e-4 * scale);
  EXPECT_GT(scale, 0);
  fs::remove(path);
}

TEST(TrainAz, TinyRunLowersTheLossAndExportsTheSameNetwork) {
  const std::string data = writeLearnableGames(tempPath("g.janusdat.zst"), 60, 1);
  const std::string dir = tempPath("run");
  std::ostringstream out, progress;
  const AzRunResult r = runAzTraining(tinyRun(data, dir), out, progress);
  ASSERT_EQ(r.metrics.size(), 5u) << out.str();
  EXPECT_LT(r.metrics.back().trainLoss, 0.8 * r.metrics.front().trainLoss) << out.str() << progress.str();
  // Validation loss of the random network, as the run printed it, against the trained one (after
  // the first epoch the tiny net has learnt the rule; later epochs may overfit a little).
  const std::string text = out.str();
  const std::size_t at = text.find("start: validation loss ");
  ASSERT_NE(at, std::string::npos) << text;
  EXPECT_LT(r.metrics.back().valLoss, 0.8 * std::stod(text.substr(at + 23))) << text;
  EXPECT_GT(r.metrics.back().valAccuracy, 0.4);  // the rule is followed 80% of the time
  EXPECT_TRUE(fs::exists(dir + "/metrics.csv"));
  EXPECT_TRUE(fs::exists(dir + "/loss.svg"));
  EXPECT_TRUE(fs::exists(dir + "/checkpoint.pt"));
  ASSERT_FALSE(r.netPath.empty());
  EXPECT_TRUE(fs::path(r.netPath).filename().string().starts_with("pv-"));
  EXPECT_LT(r.maxExportDifference, 1e-4);

  // The engine's network from the file against the torch model of the checkpoint.
  const auto net = mcts::pvnet::PvNetwork::fromFile(r.netPath);
  EXPECT_EQ(net->hidden(), 32);
  EXPECT_EQ(net->valueHidden(), 8);
  torch::manual_seed(0);
  PvModel model(32, 8);
  torch::serialize::InputArchive archive;
  archive.load_from(dir + "/checkpoint.pt");
  model->load(archive);
  for (const char* fen : {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                          "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
                          "8/P1k5/8/8/8/8/5Kp1/8 w - - 0 1"}) {
    const Position pos = Position::fromFen(fen);
    const MoveList moves = legalMoves(pos);
    const std::vector<Move> list(moves.begin(), moves.end());
    std::array<float, 3> vt{}, ve{};
    std::vector<float> pt(list.size()), pe(list.size());
    modelLogits(model, pos, list, vt, pt);
    net->logits(pos, list, ve, pe);
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(vt[std::size_t(k)], ve[std::size_t(k)], 1e-4) << fen;
    for (std::size_t i = 0; i < list.size(); ++i) EXPECT_NEAR(pt[i], pe[i], 1e-4) << fen;
  }
  // --export of the checkpoint writes the same file.
  std::ostringstream exportOut;
  EXPECT_EQ(fs::path(exportAzCheckpoint(dir + "/checkpoint.pt", dir + "/exported/", "", exportOut)).filename(),
            fs::path(r.netPath).filename());
  fs::remove_all(dir);
  fs::remove(data);
}

TEST(TrainAz, EvaluateGivesTheValidationFiguresOfTheTrainingRun) {
  // A run validated on its own file; --evaluate of the exported network (and of a random one)
  // on that file must give the figures of the run's last epoch and of a worse network.
  const std::string train = writeLearnableGames(tempPath("train.janusdat.zst"), 40, 11);
  const std::string held = writeLearnableGames(tempPath("held.janusdat.zst"), 10, 12);
  const std::string dir = tempPath("run");
  std::ostringstream out, progress;
  AzRunOptions o = tinyRun(train, dir);
  o.config.validation = {held};
  o.config.epochs = 3;
  const AzRunResult r = runAzTraining(o, out, progress);
  ASSERT_FALSE(r.netPath.empty()) << out.str();

  AzRunOptions random = tinyRun(train, tempPath("random"));
  random.config.epochs = 1;
  random.config.lr = random.config.lrFinal = 1e-12;  // a random network, exported
  random.config.epochPositions = 128;
  const AzRunResult rr = runAzTraining(random, out, progress);

  AzConfig c;
  c.data = {held};
  c.threads = 1;
  std::ostringstream evalOut;
  const std::vector<AzEvaluation> e = evaluateAzNetworks(c, {r.netPath, rr.netPath}, evalOut);
  ASSERT_EQ(e.size(), 2u);
  const AzMetrics& last = r.metrics.back();
  EXPECT_EQ(e[0].positions, r.validationPositions);
  EXPECT_NEAR(e[0].metrics.valPolicyCe, last.valPolicyCe, 1e-4);
  EXPECT_NEAR(e[0].metrics.valValueCe, last.valValueCe, 1e-4);
  EXPECT_NEAR(e[0].metrics.valAccuracy, last.valAccuracy, 1e-9);
  EXPECT_NEAR(e[0].metrics.valValueMse, last.valValueMse, 1e-5);
  EXPECT_GT(e[1].metrics.valPolicyCe, e[0].metrics.valPolicyCe + 0.1);
  EXPECT_NE(evalOut.str().find(fs::path(r.netPath).filename().string()), std::string::npos) << evalOut.str();

  // A file that is not a network is an error naming it; so is an empty list.
  const std::string bad = tempPath("bad.jpv");
  std::ofstream(bad) << "not a network";
  try {
    (void)evaluateAzNetworks(c, {bad}, evalOut);
    ADD_FAILURE() << "no error for a bad network file";
  } catch (const Error& err) {
    EXPECT_NE(std::string(err.what()).find("bad.jpv"), std::string::npos) << err.what();
  }
  EXPECT_THROW((void)evaluateAzNetworks(c, {}, evalOut), Error);
  fs::remove_all(dir);
}

TEST(TrainAz, ResumeAfterAStopContinuesTheSameRun) {
  const std::string data = writeLearnableGames(tempPath("g.janusdat"), 30, 2);
  const std::string whole = tempPath("whole"), parts = tempPath("parts");
  std::ostringstream out, progress;
  AzRunOptions o = tinyRun(data, whole);
  o.config.epochs = 3;
  const AzRunResult a = runAzTraining(o, out, progress);
  AzRunOptions first = tinyRun(data, parts);
  first.config.epochs = 3;
  first.stopAfter = 1;
  const AzRunResult b1 = runAzTraining(first, out, progress);
  EXPECT_EQ(b1.metrics.size(), 1u);
  EXPECT_TRUE(b1.netPath.empty());
  // Without --resume the directory is refused.
  EXPECT_THROW(runAzTraining(first, out, progress), Error);
  AzRunOptions second;
  second.outDir = parts;
  second.resume = true;
  const AzRunResult b2 = runAzTraining(second, out, progress);
  ASSERT_EQ(b2.metrics.size(), 3u);
  EXPECT_NEAR(b2.metrics.back().valLoss, a.metrics.back().valLoss, 1e-5);
  EXPECT_EQ(fs::path(b2.netPath).filename(), fs::path(a.netPath).filename());
  // An option that decides the result may not change.
  AzRunOptions conflict;
  conflict.outDir = parts;
  conflict.resume = true;
  conflict.config.hidden = 64;
  conflict.given = {"hidden"};
  try {
    runAzTraining(conflict, out, progress);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("--hidden 64 (checkpoint: 32)"), std::string::npos) << e.what();
  }
  fs::remove_all(whole);
  fs::remove_all(parts);
  fs::remove(data);
}

TEST(TrainAz, BadOptionsAndMetricsText) {
  std::ostringstream out, progress;
  AzRunOptions o = tinyRun("unused", tempPath("bad"));
  o.config.hidden = 20;
  EXPECT_THROW(runAzTraining(o, out, progress), Error);
  o.config.hidden = 32;
  o.config.lrSchedule = "linear";
  EXPECT_THROW(runAzTraining(o, out, progress), Error);
  o.config.lrSchedule = "cosine";
  o.config.policyHead = "sparse";
  EXPECT_THROW(runAzTraining(o, out, progress), Error);
  EXPECT_THROW((void)exportAzCheckpoint(tempPath("none.pt"), "./", "", out), Error);
  fs::remove_all(tempPath("bad"));

  AzMetrics m;
  m.epoch = 2;
  m.positions = 1000;
  m.trainLoss = 2.5;
  m.valLoss = std::numeric_limits<double>::quiet_NaN();
  m.valAccuracy = 0.25;
  const auto rows = parseMetricsCsv(metricsCsv({m, m}));
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[1].positions, 1000u);
  EXPECT_DOUBLE_EQ(rows[1].trainLoss, 2.5);
  EXPECT_TRUE(std::isnan(rows[1].valLoss));
  EXPECT_DOUBLE_EQ(rows[1].valAccuracy, 0.25);
  EXPECT_EQ(configFromMap(configToMap(AzConfig{})).hidden, 256);
}

}  // namespace
}  // namespace janus::training::az

namespace janus::training::az {
namespace {

TEST(TrainAz, SoftTargetsGiveTheCrossEntropyOfTheVisitDistribution) {
  // One sample of the start position whose target is e2e4 3/4, d2d4 1/4 (visit shares).
  const Position pos;
  Dataset d;
  std::array<int, mcts::pvnet::kMaxActive> f{};
  const int nf = mcts::pvnet::sideToMoveFeatures(pos, f);
  const MoveList moves = legalMoves(pos);
  std::vector<int> legal;
  std::vector<u16> shares;
  const int e4 = encoding::policyIndex(pos, parseUci(pos, "e2e4", false));
  const int d4 = encoding::policyIndex(pos, parseUci(pos, "d2d4", false));
  for (Move m : moves) {
    legal.push_back(encoding::policyIndex(pos, m));
    shares.push_back(legal.back() == e4 ? 3000 : legal.back() == d4 ? 1000 : 0);
  }
  d.add(std::span<const int>(f.data(), std::size_t(nf)), legal, e4, {0, 1, 0}, shares);
  torch::manual_seed(9);
  PvModel model(32, 8);
  std::vector<Move> list(moves.begin(), moves.end());
  std::array<float, 3> v{};
  std::vector<float> logits(list.size());
  modelLogits(model, pos, list, v, logits);
  double maxLogit = *std::max_element(logits.begin(), logits.end()), z = 0;
  for (float x : logits) z += std::exp(x - maxLogit);
  auto logp = [&](int index) {
    for (std::size_t i = 0; i < list.size(); ++i)
      if (legal[i] == index) return logits[i] - maxLogit - std::log(z);
    return 0.0;
  };
  const double expected = -(0.75 * logp(e4) + 0.25 * logp(d4));
  const std::uint32_t idx[] = {0};
  for (PolicyHead head : {PolicyHead::kDense, PolicyHead::kGather}) {
    const LossParts p = computeLoss(model, makeBatch(d, idx, head), head, 1.0, 0.0, true);
    EXPECT_NEAR(p.policyCe.item<double>(), expected, 1e-4) << policyHeadName(head);
    EXPECT_TRUE(std::isfinite(p.loss.item<double>()));
  }
}

TEST(TrainAz, ImportWeightsIsTheInverseOfExport) {
  torch::manual_seed(1);
  PvModel a(32, 8);
  torch::manual_seed(2);
  PvModel b(32, 8);
  const mcts::pvnet::PvWeights wa = exportWeights(a);
  EXPECT_NE(exportWeights(b).trunkW, wa.trunkW);
  importWeights(b, wa);
  const mcts::pvnet::PvWeights wb = exportWeights(b);
  EXPECT_EQ(wb.trunkW, wa.trunkW);
  EXPECT_EQ(wb.policyW, wa.policyW);
  EXPECT_EQ(wb.valueB2, wa.valueB2);
  PvModel c(48, 8);
  EXPECT_THROW(importWeights(c, wa), Error);
}

}  // namespace
}  // namespace janus::training::az

namespace janus::training::az {
namespace {

TEST(TrainAzResnet, BatchPlanesEqualTheEnginesEncodingWithOneHistoryStep) {
  // The planes rebuilt from a sample (features, side to move, halfmove clock) are what the
  // engine's torch backend gives a network with historySteps = 1.
  Dataset d;
  std::vector<Position> positions;
  for (const char* fen : {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b Kq - 7 30",
                          "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
                          "8/P1k5/8/8/8/8/5Kp1/8 w - - 45 80"}) {
    positions.push_back(Position::fromFen(fen));
    addSample(d, positions.back(), Move::none(), {0.2f, 0.5f, 0.3f});
  }
  const std::vector<std::uint32_t> idx = {0, 1, 2};
  const Batch b = makeBatch(d, idx, PolicyHead::kGather, true);
  ASSERT_EQ(b.planes.sizes(), (std::vector<std::int64_t>{3, 119, 8, 8}));
  const mcts::rn::ResNetArch arch = resnetArch(2, 8, false);
  EXPECT_EQ(arch.historySteps, 1);
  for (std::size_t i = 0; i < positions.size(); ++i) {
    std::vector<float> expected(119 * 64);
    encoding::encodePlanes(positions[i], mcts::rn::encoderOptions(arch), expected);
    const torch::Tensor row = b.planes[std::int64_t(i)].contiguous();
    const std::vector<float> got(row.data_ptr<float>(), row.data_ptr<float>() + 119 * 64);
    for (std::size_t k = 0; k < got.size(); ++k) ASSERT_EQ(got[k], expected[k]) << "position " << i << " plane " << k / 64;
  }
  EXPECT_FALSE(makeBatch(d, idx, PolicyHead::kGather).planes.defined());
}

TEST(TrainAzResnet, TinyRunLowersTheLossAndExportsTheSameNetwork) {
  const std::string data = writeLearnableGames(tempPath("g.janusdat"), 20, 5);
  const std::string dir = tempPath("run");
  AzRunOptions o = tinyRun(data, dir);
  o.config.arch = "resnet";
  o.config.blocks = 2;
  o.config.filters = 8;
  o.config.se = true;
  o.config.batch = 64;
  o.config.epochs = 3;
  o.config.lr = 0.002;  // the heads hold 4M weights for 640 positions: a higher rate overfits at once
  std::ostringstream out, progress;
  const AzRunResult r = runAzTraining(o, out, progress);
  ASSERT_EQ(r.metrics.size(), 3u);
  EXPECT_GT(r.trainPositions, 300u);
  EXPECT_LT(r.metrics.back().trainLoss, r.metrics.front().trainLoss - 0.1) << out.str();
  // Validation loss of the random network, as the run printed it, against the trained one.
  const std::string text = out.str();
  const std::size_t at = text.find("start: validation loss ");
  ASSERT_NE(at, std::string::npos) << text;
  const double startLoss = std::stod(text.substr(at + 23));
  EXPECT_LT(r.metrics.back().valLoss, startLoss) << text;
  EXPECT_EQ(fs::path(r.netPath).extension(), ".jrn");
  EXPECT_EQ(fs::path(r.netPath).filename().string().rfind("rn-", 0), 0u);
  // Batch normalisation folded in float32: about 1e-4 on these logits (the run itself fails above 1e-3).
  EXPECT_LT(r.maxExportDifference, 5e-4);
  const mcts::rn::ResNetFile file = mcts::rn::ResNetFile::fromFile(r.netPath);
  EXPECT_EQ(file.weights.arch, resnetArch(2, 8, true));
  EXPECT_NE(out.str().find("2 blocks x 8 filters, SE 2"), std::string::npos) << out.str();

  // The checkpoint's network (eval mode) and the file's give the same logits on new positions.
  mcts::rn::ResNet model(resnetArch(2, 8, true), true);
  torch::serialize::InputArchive archive;
  archive.load_from(dir + "/checkpoint.pt");
  model->load(archive);
  model->eval();
  mcts::rn::ResNet loaded = mcts::rn::makeInferenceNetwork(file.weights);
  std::vector<float> planes;
  for (const char* fen : {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
                          "8/P1k5/8/8/8/8/5Kp1/8 w - - 0 1"}) {
    std::vector<float> one(119 * 64);
    encoding::encodePlanes(Position::fromFen(fen), mcts::rn::encoderOptions(file.weights.arch), one);
    planes.insert(planes.end(), one.begin(), one.end());
  }
  torch::NoGradGuard g;
  const torch::Tensor x = torch::from_blob(planes.data(), {2, 119, 8, 8});
  const mcts::rn::ResNetOutput a = model->forward(x), c = loaded->forward(x);
  EXPECT_LT((a.policy - c.policy).abs().max().item<double>(), 5e-4);
  EXPECT_LT((a.value - c.value).abs().max().item<double>(), 5e-4);

  // --export of the checkpoint writes the same file; --resume may not change the architecture.
  std::ostringstream exportOut;
  EXPECT_EQ(fs::path(exportAzCheckpoint(dir + "/checkpoint.pt", dir + "/exported/", "", exportOut)).filename(),
            fs::path(r.netPath).filename());
  AzRunOptions conflict;
  conflict.outDir = dir;
  conflict.resume = true;
  conflict.config.filters = 16;
  conflict.given = {"filters"};
  EXPECT_THROW(runAzTraining(conflict, out, progress), Error);
  // Bad architectures are clear errors.
  AzRunOptions bad = tinyRun(data, tempPath("bad"));
  bad.config.arch = "resnet";
  bad.config.filters = 12;
  try {
    runAzTraining(bad, out, progress);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("multiple of 8"), std::string::npos) << e.what();
  }
  bad.config.filters = 8;
  bad.config.arch = "transformer";
  EXPECT_THROW(runAzTraining(bad, out, progress), Error);
  fs::remove_all(dir);
  fs::remove(data);
}

}  // namespace
}  // namespace janus::training::az

namespace janus::training::az {
namespace {

/// A tiny value-only run (--arch value-mlp or value-cnn) on `data`, validated on `validation`
/// (explicit files: the split by game hashes the file name, which holds the test's pid, and would
/// leave a validation set of 0-2 games that changes from run to run).
AzRunOptions tinyValueRun(const std::string& data, const std::string& outDir, const std::string& arch,
                          const std::string& validation = "") {
  AzRunOptions o = tinyRun(data, outDir);
  if (!validation.empty()) o.config.validation = {validation};
  o.config.arch = arch;
  o.config.hiddenLayers = {64, 16};
  if (arch == "value-cnn") o.config.convFilters = {8, 8};
  o.config.batch = 64;
  o.config.epochs = 4;
  o.config.lr = 0.003;
  o.config.lrFinal = 0.0003;
  o.config.value.lambda = 0;  // the target is the squashed material score: learnable from the pieces
  return o;
}

TEST(TrainAzValue, BothArchitecturesGiveOneExpectedScorePerPositionAndTheMse) {
  Dataset d;
  for (const char* fen : {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b Kq - 7 30",
                          "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
                          "8/P1k5/8/8/8/8/5Kp1/8 w - - 45 80"})
    addSample(d, Position::fromFen(fen), Move::none(), {0.2f, 0.5f, 0.3f});
  const std::vector<std::uint32_t> idx = {0, 1, 2};
  const Batch b = makeBatch(d, idx, PolicyHead::kGather, true);
  torch::manual_seed(3);
  ValueNet mlp(valueArch("value-mlp", {1048, 500, 50}, {}, 3, "relu"));
  ValueNet cnn(valueArch("value-cnn", {32}, {16, 8}, 5, "elu"));
  auto count = [](ValueNet& m) {
    std::int64_t n = 0;
    for (const auto& p : m->parameters()) n += p.numel();
    return n;
  };
  // 19 planes x 64 squares = 1216 inputs.
  EXPECT_EQ(count(mlp), (1216 * 1048 + 1048) + (1048 * 500 + 500) + (500 * 50 + 50) + (50 + 1));
  EXPECT_EQ(count(cnn), (19 * 16 * 25 + 16) + (16 * 8 * 25 + 8) + (8 * 64 * 32 + 32) + (32 + 1));
  for (ValueNet* m : {&mlp, &cnn}) {
    const torch::Tensor x = b.planes.index_select(1, torch::tensor(std::vector<std::int64_t>(kValuePlanes.begin(),
                                                                                             kValuePlanes.end())));
    ASSERT_EQ(x.sizes(), (std::vector<std::int64_t>{3, 19, 8, 8}));
    const torch::Tensor y = (*m)->forward(x);
    ASSERT_EQ(y.sizes(), (std::vector<std::int64_t>{3}));
    EXPECT_GT(y.min().item<double>(), 0.0);
    EXPECT_LT(y.max().item<double>(), 1.0);
    // The loss is the MSE against W + D/2 = 0.45.
    const LossParts p = computeLoss(*m, b, true);
    const double mse = (y - 0.45).pow(2).mean().item<double>();
    EXPECT_NEAR(p.loss.item<double>(), mse, 1e-6);
    EXPECT_NEAR(p.sqErrorSum, 3 * mse, 1e-5);
    EXPECT_TRUE(std::isnan(p.policyCe.item<double>()));
    EXPECT_TRUE(std::isnan(p.valueCe.item<double>()));
  }
  // The planes the baselines see are the ones the samples fill (kValuePlanes); the rest are zero.
  torch::Tensor rest = b.planes.clone();
  for (int plane : kValuePlanes) rest.select(1, plane).zero_();
  EXPECT_EQ(rest.abs().sum().item<double>(), 0.0);
  EXPECT_THROW((void)computeLoss(mlp, makeBatch(d, idx, PolicyHead::kGather), false), Error);
}

TEST(TrainAzValue, TinyRunsLowerTheMseAndWriteNoNetworkFile) {
  const std::string data = writeLearnableGames(tempPath("g.janusdat"), 30, 7);
  const std::string validation = writeLearnableGames(tempPath("v.janusdat"), 10, 17);
  for (const std::string arch : {"value-mlp", "value-cnn"}) {
    const std::string dir = tempPath(arch);
    std::ostringstream out, progress;
    const AzRunResult r = runAzTraining(tinyValueRun(data, dir, arch, validation), out, progress);
    ASSERT_EQ(r.metrics.size(), 4u) << arch;
    EXPECT_GT(r.trainPositions, 300u);
    EXPECT_LT(r.metrics.back().trainLoss, 0.7 * r.metrics.front().trainLoss) << arch << "\n" << out.str() << progress.str();
    // Better than predicting the mean on the positions it trained on.
    EXPECT_LT(r.metrics.back().trainLoss, r.meanBaselineTrainMse) << arch << "\n" << out.str() << progress.str();
    const std::string text = out.str();
    const std::size_t at = text.find("start: validation MSE ");
    ASSERT_NE(at, std::string::npos) << text;
    EXPECT_LT(r.metrics.back().valValueMse, std::stod(text.substr(at + 22))) << arch << "\n" << text << progress.str();
    EXPECT_DOUBLE_EQ(r.metrics.back().valLoss, r.metrics.back().valValueMse);
    EXPECT_TRUE(std::isnan(r.metrics.back().valPolicyCe));
    EXPECT_TRUE(std::isnan(r.metrics.back().trainValueCe));
    EXPECT_NE(text.find("trivial baseline"), std::string::npos);
    EXPECT_NE(text.find(arch == "value-mlp" ? "value-only MLP 19 planes" : "value-only CNN 19 planes"), std::string::npos)
        << text;
    EXPECT_TRUE(r.netPath.empty());
    EXPECT_GT(r.parameters, 0u);
    EXPECT_TRUE(fs::exists(dir + "/checkpoint.pt"));
    EXPECT_TRUE(fs::exists(dir + "/metrics.csv"));
    EXPECT_TRUE(fs::exists(dir + "/loss.svg"));
    // No network file to export.
    try {
      (void)exportAzCheckpoint(dir + "/checkpoint.pt", dir + "/exported/", "", out);
      ADD_FAILURE() << "no error";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("value-only"), std::string::npos) << e.what();
    }
    fs::remove_all(dir);
  }
  fs::remove(data);
  fs::remove(validation);
}

TEST(TrainAzValue, ResumeAfterAStopContinuesTheSameRun) {
  const std::string data = writeLearnableGames(tempPath("g.janusdat"), 12, 8);
  const std::string validation = writeLearnableGames(tempPath("v.janusdat"), 4, 18);
  for (const std::string arch : {"value-mlp", "value-cnn"}) {
    const std::string whole = tempPath(arch + "_whole"), parts = tempPath(arch + "_parts");
    std::ostringstream out, progress;
    AzRunOptions o = tinyValueRun(data, whole, arch, validation);
    o.config.epochs = 3;
    const AzRunResult a = runAzTraining(o, out, progress);
    AzRunOptions first = tinyValueRun(data, parts, arch, validation);
    first.config.epochs = 3;
    first.stopAfter = 1;
    EXPECT_EQ(runAzTraining(first, out, progress).metrics.size(), 1u);
    AzRunOptions second;
    second.outDir = parts;
    second.resume = true;
    const AzRunResult b = runAzTraining(second, out, progress);
    ASSERT_EQ(b.metrics.size(), 3u) << arch;
    ASSERT_TRUE(std::isfinite(a.metrics.back().valValueMse));
    EXPECT_NEAR(b.metrics.back().valValueMse, a.metrics.back().valValueMse, 1e-6) << arch;
    EXPECT_NEAR(b.metrics.back().trainLoss, a.metrics.back().trainLoss, 1e-6) << arch;
    // The architecture may not change on resume.
    AzRunOptions conflict;
    conflict.outDir = parts;
    conflict.resume = true;
    conflict.config.hiddenLayers = {32};
    conflict.given = {"hidden-layers"};
    try {
      runAzTraining(conflict, out, progress);
      ADD_FAILURE() << "no error";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("--hidden-layers 32 (checkpoint: 64,16)"), std::string::npos) << e.what();
    }
    fs::remove_all(whole);
    fs::remove_all(parts);
  }
  fs::remove(data);
  fs::remove(validation);
}

TEST(TrainAzValue, BadOptionCombinationsAreClearErrors) {
  std::ostringstream out, progress;
  const std::string dir = tempPath("bad");
  auto expectError = [&](const AzRunOptions& o, const std::string& part) {
    try {
      runAzTraining(o, out, progress);
      ADD_FAILURE() << "no error, expected one with '" << part << "'";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
    }
  };
  AzRunOptions o = tinyValueRun("unused", dir, "value-cnn");
  o.config.convFilters.clear();
  expectError(o, "needs --conv-filters");
  o = tinyValueRun("unused", dir, "value-mlp");
  o.config.convFilters = {8};
  expectError(o, "--conv-filters goes with --arch value-cnn");
  o = tinyValueRun("unused", dir, "value-cnn");
  o.config.convKernel = 4;
  expectError(o, "--conv-kernel 4 must be odd");
  o = tinyValueRun("unused", dir, "value-mlp");
  o.config.activation = "tanh";
  expectError(o, "--activation 'tanh'");
  o = tinyValueRun("unused", dir, "value-mlp");
  o.config.hiddenLayers = {64, 0};
  expectError(o, "width 0");
  // Options of other architectures, given on the command line.
  o = tinyValueRun("unused", dir, "value-mlp");
  o.given = {"blocks", "policy-weight"};
  expectError(o, "--blocks, --policy-weight do not apply to --arch value-mlp");
  o = tinyValueRun("unused", dir, "value-mlp");
  o.given = {"conv-kernel"};
  expectError(o, "--conv-kernel does not apply to --arch value-mlp");
  o = tinyRun("unused", dir);
  o.given = {"hidden-layers"};
  expectError(o, "--hidden-layers does not apply to --arch pvnet");
  o = tinyValueRun("unused", dir, "value-cnn");
  o.init = "some.jpv";
  expectError(o, "--init takes a pvnet network");
  o = tinyValueRun("unused", dir, "value-rnn");
  expectError(o, "--arch 'value-rnn' is not one of");
  EXPECT_FALSE(fs::exists(dir));
  // The configuration round-trips through the checkpoint's text.
  AzConfig c;
  c.arch = "value-cnn";
  c.hiddenLayers = {128};
  c.convFilters = {16, 32};
  c.convKernel = 5;
  c.activation = "elu";
  const AzConfig back = configFromMap(configToMap(c));
  EXPECT_EQ(back.hiddenLayers, c.hiddenLayers);
  EXPECT_EQ(back.convFilters, c.convFilters);
  EXPECT_EQ(back.convKernel, 5);
  EXPECT_EQ(back.activation, "elu");
}

}  // namespace
}  // namespace janus::training::az
