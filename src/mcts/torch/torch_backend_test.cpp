// Tests of the libtorch residual network (resnet.h) and the "torch" MCTS backend
// (torch_backend.h): the backend's outputs against a direct forward pass of the network, priors
// over the legal moves, batch independence, the colour-flip symmetry of the encoding, export of
// a batch-normalised network to a file and back, registration, and searches on 2 threads.

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <random>

#include <unistd.h>

#include "core/movegen.h"
#include "core/notation.h"
#include "encoding/planes.h"
#include "encoding/policy_map.h"
#include "engine/engine.h"
#include "mcts/mcts.h"
#include "mcts/torch/torch_backend.h"
#include "util/error.h"

namespace janus::mcts {
namespace {

namespace fs = std::filesystem;

rn::ResNetArch tinyArch(int se) {
  rn::ResNetArch a;
  a.blocks = 2;
  a.filters = 8;
  a.seChannels = se;
  a.policyChannels = 4;
  a.valueChannels = 2;
  a.valueHidden = 16;
  return a;
}

rn::ResNetWeights randomWeights(const rn::ResNetArch& a, unsigned seed, float scale = 0.2f) {
  rn::ResNetWeights w = rn::ResNetWeights::zeros(a);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-scale, scale);
  for (float& x : w.data) x = u(rng);
  return w;
}

std::vector<Move> legal(const Position& pos) {
  const MoveList list = legalMoves(pos);
  return {list.begin(), list.end()};
}

const char* kFens[] = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 3 17",
    "8/2P5/8/8/8/8/5k1K/8 w - - 0 60",
    "4k3/8/8/8/8/3p4/8/4K3 b - - 12 70",
};

/// Direct forward pass of `net` on one position: WDL and the legal-move softmax.
void direct(rn::ResNet& net, const rn::ResNetArch& a, const Position& pos, std::span<const Move> moves, Wdl& wdl,
            std::vector<float>& priors) {
  std::vector<float> planes(std::size_t(a.inputPlanes) * 64);
  encoding::encodePlanes(pos, rn::encoderOptions(a), planes);
  torch::NoGradGuard g;
  const rn::ResNetOutput out = net->forward(torch::from_blob(planes.data(), {1, a.inputPlanes, 8, 8}));
  const torch::Tensor v = torch::softmax(out.value, 1).contiguous();
  wdl = Wdl{v[0][0].item<float>(), v[0][1].item<float>(), v[0][2].item<float>()};
  const torch::Tensor p = out.policy.contiguous();
  std::vector<float> logits(p.data_ptr<float>(), p.data_ptr<float>() + rn::kPolicySize);
  priors.assign(moves.size(), 0.0f);
  encoding::legalPolicy(pos, logits, moves, priors);
}

TEST(TorchBackend, OutputsEqualADirectForwardAndPriorsSumToOne) {
  for (int se : {0, 4}) {
    const rn::ResNetWeights w = randomWeights(tinyArch(se), 10 + unsigned(se));
    TorchBackend backend(w);
    rn::ResNet net = rn::makeInferenceNetwork(w);
    auto c = backend.newComputation();
    std::vector<Position> positions;
    std::vector<std::vector<Move>> moves;
    for (const char* fen : kFens) {
      positions.push_back(Position::fromFen(fen));
      moves.push_back(legal(positions.back()));
    }
    // A position with history: a few moves from the start.
    Position played = Position::fromFen(kFens[0]);
    for (const char* m : {"e2e4", "c7c5", "g1f3", "d7d6"}) played.makeMove(parseUci(played, m, false));
    positions.push_back(played);
    moves.push_back(legal(played));
    for (std::size_t i = 0; i < positions.size(); ++i) EXPECT_EQ(c->addInput(positions[i], moves[i]), int(i));
    EXPECT_EQ(c->size(), int(positions.size()));
    c->compute();
    for (std::size_t i = 0; i < positions.size(); ++i) {
      Wdl wdl;
      std::vector<float> priors;
      direct(net, w.arch, positions[i], moves[i], wdl, priors);
      const Wdl got = c->wdl(int(i));
      EXPECT_NEAR(got.win, wdl.win, 1e-5);
      EXPECT_NEAR(got.draw, wdl.draw, 1e-5);
      EXPECT_NEAR(got.loss, wdl.loss, 1e-5);
      EXPECT_NEAR(got.win + got.draw + got.loss, 1.0, 1e-5);
      const auto p = c->priors(int(i));
      ASSERT_EQ(p.size(), moves[i].size());
      for (std::size_t k = 0; k < p.size(); ++k) {
        EXPECT_NEAR(p[k], priors[k], 1e-5) << kFens[std::min<std::size_t>(i, 4)] << " move " << k;
        EXPECT_GE(p[k], 0.0f);
      }
      EXPECT_NEAR(std::accumulate(p.begin(), p.end(), 0.0), 1.0, 1e-5);
    }
    // Not all priors equal: the network's policy reaches the output.
    const auto p0 = c->priors(0);
    EXPECT_GT(*std::max_element(p0.begin(), p0.end()) - *std::min_element(p0.begin(), p0.end()), 1e-4);

    // Batch independence: one position alone gives the same as in the batch.
    auto single = backend.newComputation();
    single->addInput(positions[2], moves[2]);
    single->compute();
    EXPECT_NEAR(single->wdl(0).win, c->wdl(2).win, 1e-5);
    for (std::size_t k = 0; k < moves[2].size(); ++k) EXPECT_NEAR(single->priors(0)[k], c->priors(2)[k], 1e-5);
    auto empty = backend.newComputation();
    empty->compute();  // no input: returns at once
    EXPECT_EQ(empty->size(), 0);
  }
}

TEST(TorchBackend, ColourFlippedPositionsGiveTheSameOutputs) {
  // The planes are oriented to the side to move, so a position and its colour-flipped mirror
  // differ only in plane 112 ("Black to move"). With that plane's input weights zeroed, the
  // network must give the same WDL, and the same prior to each move and its mirror image.
  rn::ResNetWeights w = randomWeights(tinyArch(4), 21);
  const std::vector<rn::ResNetTensor> layout = rn::tensorLayout(w.arch);
  const std::span<float> inputW = w.tensor(layout[0]);  // [F][C][3][3]
  for (int f = 0; f < w.arch.filters; ++f)
    for (int k = 0; k < 9; ++k) inputW[std::size_t((f * w.arch.inputPlanes + 112) * 9 + k)] = 0.0f;
  TorchBackend backend(w);
  const std::pair<const char*, const char*> pairs[] = {
      {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
       "r3k2r/pppbbppp/2n2q1P/1P2p3/3pn3/BN2PNP1/P1PPQPB1/R3K2R b KQkq - 0 1"},
      {"8/2P5/8/8/8/8/5k1K/8 w - - 0 60", "8/5K1k/8/8/8/8/2p5/8 b - - 0 60"},
  };
  for (const auto& [fen, flippedFen] : pairs) {
    const Position a = Position::fromFen(fen), b = Position::fromFen(flippedFen);
    const auto ma = legal(a), mb = legal(b);
    ASSERT_EQ(ma.size(), mb.size());
    auto c = backend.newComputation();
    c->addInput(a, ma);
    c->addInput(b, mb);
    c->compute();
    EXPECT_NEAR(c->wdl(0).win, c->wdl(1).win, 1e-5);
    EXPECT_NEAR(c->wdl(0).loss, c->wdl(1).loss, 1e-5);
    for (std::size_t i = 0; i < ma.size(); ++i) {
      const int idx = encoding::policyIndex(a, ma[i]);
      std::size_t j = 0;
      while (j < mb.size() && encoding::policyIndex(b, mb[j]) != idx) ++j;
      ASSERT_LT(j, mb.size()) << toUci(ma[i], false) << " has no mirror image";
      EXPECT_NEAR(c->priors(0)[i], c->priors(1)[j], 1e-5) << toUci(ma[i], false);
    }
  }
}

TEST(TorchBackend, ABatchNormalisedNetworkSurvivesExportAndLoading) {
  // The trainer's network (batch normalisation with non-trivial running statistics) in eval
  // mode against the inference network of its exported file.
  for (int se : {0, 4}) {
    torch::manual_seed(7);
    rn::ResNet model(tinyArch(se), true);
    {
      torch::NoGradGuard g;
      for (auto& item : model->named_buffers()) {
        const std::string& name = item.key();
        if (name.find("running_mean") != std::string::npos) item.value().uniform_(-0.5, 0.5);
        if (name.find("running_var") != std::string::npos) item.value().uniform_(0.5, 2.0);
      }
      for (auto& item : model->named_parameters()) {
        const std::string& name = item.key();
        const bool bn = name.find("Bn.") != std::string::npos || name.find(".bn") != std::string::npos;
        if (bn && name.ends_with("weight")) item.value().uniform_(0.5, 1.5);
        if (bn && name.ends_with("bias")) item.value().uniform_(-0.2, 0.2);
      }
    }
    model->eval();
    const rn::ResNetWeights w = rn::exportWeights(model);
    const std::vector<unsigned char> bytes = rn::rnFileBytes(w, "bn test");
    const rn::ResNetFile file = rn::ResNetFile::fromBytes(bytes, "bn test");
    rn::ResNet loaded = rn::makeInferenceNetwork(file.weights);
    std::vector<float> planes;
    for (const char* fen : kFens) {
      const Position pos = Position::fromFen(fen);
      const std::vector<float> one = encoding::encodePlanes(pos);
      planes.insert(planes.end(), one.begin(), one.end());
    }
    const auto n = std::int64_t(std::size(kFens));
    torch::NoGradGuard g;
    const torch::Tensor x = torch::from_blob(planes.data(), {n, 119, 8, 8});
    const rn::ResNetOutput expected = model->forward(x), got = loaded->forward(x);
    EXPECT_LT((expected.policy - got.policy).abs().max().item<double>(), 1e-4);
    EXPECT_LT((expected.value - got.value).abs().max().item<double>(), 1e-4);
    // The policy logits are not trivially equal (the test would be empty with a dead network).
    EXPECT_GT(expected.policy.std().item<double>(), 1e-3);
    // Exporting the loaded network gives the file's weights back.
    EXPECT_EQ(rn::exportWeights(loaded).data, file.weights.data);
  }
  rn::ResNet bn(tinyArch(0), true);
  EXPECT_THROW(rn::importWeights(bn, randomWeights(tinyArch(0), 1)), Error);
  rn::ResNet plain(tinyArch(0), false);
  EXPECT_THROW(rn::importWeights(plain, randomWeights(tinyArch(4), 1)), Error);
}

TEST(TorchBackend, RegistryCreatesItFromAFileAndReportsBadOnes) {
  auto& registry = BackendRegistry::instance();
  ASSERT_TRUE(registry.contains("torch"));
  EXPECT_NE(registry.defaultName(), "torch");  // never the default: it has no network of its own
  const auto names = registry.names();
  EXPECT_EQ(names.back(), "torch");
  const fs::path dir = fs::temp_directory_path() / ("janus-torch-backend-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string path = rn::writeResNetFile(randomWeights(tinyArch(0), 3), dir.string(), "registry");
  auto backend = registry.create("torch", {path, {{"policy-temperature", "1.5"}, {"torch-threads", "1"}}});
  const BackendAttributes a = backend->attributes();
  EXPECT_NE(a.description.find("torch rn-"), std::string::npos) << a.description;
  EXPECT_NE(a.description.find("policy temperature 1.5"), std::string::npos) << a.description;
  EXPECT_EQ(a.historyPlies, 7);
  EXPECT_TRUE(a.usesHalfmoveClock);

  auto expectError = [&](const BackendOptions& o, const std::string& part) {
    try {
      (void)registry.create("torch", o);
      ADD_FAILURE() << "accepted; expected an error with '" << part << "'";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
    }
  };
  expectError({}, "no network");
  expectError({(dir / "missing.jrn").string(), {}}, "cannot open '" + (dir / "missing.jrn").string() + "'");
  expectError({path, {{"torch-threads", "0"}}}, "torch-threads");
  expectError({path, {{"policy-temperature", "x"}}}, "policy-temperature");
  std::ofstream(dir / "pv.jpv") << std::string(100, 'x');
  expectError({(dir / "pv.jpv").string(), {}}, "pv.jpv': wrong magic");
  fs::remove_all(dir);
}

TEST(TorchBackend, SearchesOnTwoThreadsFollowAStrongPrior) {
  // A network whose policy strongly prefers g1f3 (for Black the mirrored g8f6) and whose value
  // is a draw; two search threads share the backend.
  rn::ResNetWeights w = randomWeights(tinyArch(0), 5, 0.01f);
  const std::vector<rn::ResNetTensor> layout = rn::tensorLayout(w.arch);
  const Position start;
  const std::size_t g1f3 = std::size_t(encoding::policyIndex(start, parseUci(start, "g1f3", false)));
  for (const rn::ResNetTensor& t : layout)
    if (t.name == "policyB") w.tensor(t)[g1f3] = 8.0f;
    else if (t.name == "value2B") w.tensor(t)[1] = 5.0f;
  auto backend = std::make_shared<TorchBackend>(w);
  MctsParams params;
  params.smartPruning = false;
  params.seed = 1;
  params.batchSize = 8;
  MctsSearch search(backend, params);
  SearchSignals signals;
  SearchLimits limits;
  limits.nodes = 300;
  SearchConfig config;
  config.threads = 2;
  SearchResult r = search.run(start, limits, config, [](const SearchInfo&) {}, signals);
  EXPECT_EQ(toUci(r.best, false), "g1f3");
  Position black = Position::fromFen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
  r = search.run(black, limits, config, [](const SearchInfo&) {}, signals);
  EXPECT_EQ(toUci(r.best, false), "g8f6");
  EXPECT_GE(search.lastStats().playouts, 300u);
}

}  // namespace
}  // namespace janus::mcts

namespace janus {
namespace {

TEST(TorchBackendEngine, OptionsSelectTheTorchBackendAndABadFileKeepsThePrevious) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("janus-torch-engine-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string path = mcts::rn::writeResNetFile(mcts::randomWeights(mcts::tinyArch(0), 8), dir.string(), "engine");
  {
    // UCI order: backend first (only the name is checked before the MCTS face is used), then the file.
    Engine e;
    e.setOption("MCTS Backend", "torch");
    e.setOption("MCTS WeightsFile", path);
    e.setOption("Search", "mcts");
    EXPECT_EQ(e.options().value("MCTS Backend"), "torch");
    EXPECT_NE(e.evaluationName().find("torch rn-"), std::string::npos) << e.evaluationName();
    const std::string before = e.evaluationName();
    { std::ofstream((dir / "bad.jrn").string()) << "JANUSRN"; }
    try {
      e.setOption("MCTS WeightsFile", (dir / "bad.jrn").string());
      ADD_FAILURE() << "a truncated network was accepted";
    } catch (const Error& err) {
      EXPECT_NE(std::string(err.what()).find("bad.jrn"), std::string::npos) << err.what();
    }
    EXPECT_EQ(e.options().value("MCTS WeightsFile"), path);
    EXPECT_EQ(e.evaluationName(), before);
    e.setPosition("startpos", {});
    SearchLimits l;
    l.nodes = 100;
    SearchResult result;
    e.onBestMove([&](const SearchResult& r) { result = r; });
    e.go(l);
    e.wait();
    EXPECT_TRUE(legalMoves(e.position()).contains(result.best));
  }
  {
    // MCTS face first, with pvnet or uniform selected: the .jrn file selects torch.
    Engine e;
    e.setOption("MCTS Backend", "uniform");
    e.setOption("Search", "mcts");
    e.setOption("MCTS WeightsFile", path);
    EXPECT_EQ(e.options().value("MCTS Backend"), "torch");
    // Selecting torch without a file is an error that keeps the backend.
    Engine f;
    f.setOption("Search", "mcts");
    const std::string backend = f.options().value("MCTS Backend");
    EXPECT_THROW(f.setOption("MCTS Backend", "torch"), Error);
    EXPECT_EQ(f.options().value("MCTS Backend"), backend);
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace janus
