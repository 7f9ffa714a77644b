// Tests of the sparse policy/value network (pvnet.h, pvnet_format.h) and its MCTS backend
// (pvnet_backend.h): input features, the file format (round trip, rejection of bad files),
// inference against a plain double-precision reference, priors, and searches through the
// backend.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <random>
#include <set>

#include "core/movegen.h"
#include "core/notation.h"
#include "encoding/policy_map.h"
#include "mcts/mcts.h"
#include "mcts/pvnet.h"
#include "mcts/pvnet_backend.h"
#include "util/error.h"
#include "util/zstd_stream.h"

namespace janus::mcts::pvnet {
namespace {

namespace fs = std::filesystem;

/// Weights drawn uniformly from [-scale, scale] with a fixed seed.
PvWeights randomWeights(int hidden, int valueHidden, unsigned seed, float scale = 0.1f) {
  PvWeights w = PvWeights::zeros(hidden, valueHidden);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-scale, scale);
  for (auto* v : {&w.trunkW, &w.trunkB, &w.valueW1, &w.valueB1, &w.valueW2, &w.valueB2, &w.policyW, &w.policyB})
    for (float& x : *v) x = u(rng);
  return w;
}

std::vector<Move> legal(const Position& pos) {
  const MoveList list = legalMoves(pos);
  return {list.begin(), list.end()};
}

std::set<int> featureSet(const Position& pos) {
  std::array<int, kMaxActive> f;
  const int n = sideToMoveFeatures(pos, f);
  return {f.begin(), f.begin() + n};
}

/// The network's definition (pvnet_format.h) written out plainly in double precision.
void reference(const PvWeights& w, const Position& pos, std::span<const Move> moves, std::array<double, 3>& value,
               std::vector<double>& policy) {
  std::vector<double> h(std::size_t(w.hidden));
  for (int i = 0; i < w.hidden; ++i) h[std::size_t(i)] = w.trunkB[std::size_t(i)];
  for (int f : featureSet(pos))
    for (int i = 0; i < w.hidden; ++i) h[std::size_t(i)] += w.trunkW[std::size_t(f * w.hidden + i)];
  for (double& x : h) x = std::max(x, 0.0);
  std::vector<double> v(std::size_t(w.valueHidden));
  for (int j = 0; j < w.valueHidden; ++j) {
    double s = w.valueB1[std::size_t(j)];
    for (int i = 0; i < w.hidden; ++i) s += double(w.valueW1[std::size_t(j * w.hidden + i)]) * h[std::size_t(i)];
    v[std::size_t(j)] = std::max(s, 0.0);
  }
  for (int k = 0; k < 3; ++k) {
    double s = w.valueB2[std::size_t(k)];
    for (int j = 0; j < w.valueHidden; ++j) s += double(w.valueW2[std::size_t(k * w.valueHidden + j)]) * v[std::size_t(j)];
    value[std::size_t(k)] = s;
  }
  policy.clear();
  for (Move m : moves) {
    const int idx = encoding::policyIndex(pos, m);
    double s = w.policyB[std::size_t(idx)];
    for (int i = 0; i < w.hidden; ++i) s += double(w.policyW[std::size_t(idx * w.hidden + i)]) * h[std::size_t(i)];
    policy.push_back(s);
  }
}

const char* kPositions[] = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b Kq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
};

// ---- Features ----------------------------------------------------------------------------------

TEST(PvNetFeatures, StartPositionHasEveryPieceAndCastlingRight) {
  const std::set<int> f = featureSet(Position());
  EXPECT_EQ(f.size(), 36u);
  EXPECT_TRUE(f.count(pieceInput(0, 0, 4, 3)));     // own queen on d1
  EXPECT_TRUE(f.count(384 + 5 * 64 + 60));          // their king on e8
  for (bool own : {true, false})
    for (bool ks : {true, false}) EXPECT_TRUE(f.count(castlingInput(own, ks)));
}

TEST(PvNetFeatures, ColourFlippedPositionsHaveTheSameInputs) {
  const std::pair<const char*, const char*> pairs[] = {
      {"r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/3P1N2/PPP2PPP/RNBQK2R w Kkq - 3 5",
       "rnbqk2r/ppp2ppp/3p1n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQK2R b KQk - 3 5"},
      {"8/5k2/3p4/1p1Pp2p/pP2Pp1P/P4P1K/8/8 b - - 12 60", "8/8/p4p1k/Pp2pP1p/1P1pP2P/3P4/5K2/8 w - - 12 60"},
  };
  for (const auto& [a, b] : pairs) EXPECT_EQ(featureSet(Position::fromFen(a)), featureSet(Position::fromFen(b))) << a;
  // Only one side may castle queen side in the first pair: own vs their rights are told apart.
  EXPECT_FALSE(featureSet(Position::fromFen(pairs[0].first)).count(castlingInput(true, false)));
  EXPECT_TRUE(featureSet(Position::fromFen(pairs[0].first)).count(castlingInput(false, false)));
}

// ---- File format -------------------------------------------------------------------------------

TEST(PvNetFile, RoundTripKeepsEveryWeightAndNamesTheFileByHash) {
  const PvWeights w = randomWeights(32, 8, 1);
  const auto bytes = pvFileBytes(w, "round trip");
  EXPECT_EQ(bytes.size(), sizeof(PvHeader) + payloadBytes(32, 8));
  const auto net = PvNetwork::fromBytes(bytes, "memory");
  EXPECT_EQ(net->weights().trunkW, w.trunkW);
  EXPECT_EQ(net->weights().policyB, w.policyB);
  EXPECT_EQ(net->weights().valueW2, w.valueW2);
  EXPECT_EQ(net->contentHash(), netfile::contentHash(kPvFormat, bytes));
  EXPECT_EQ(net->description(), "round trip");
  EXPECT_NE(net->describe().find("round trip"), std::string::npos);

  const fs::path dir = fs::temp_directory_path() / ("janus-pvnet-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string path = writePvFile(w, dir.string(), "round trip");
  EXPECT_EQ(fs::path(path).filename().string(), netfile::fileName(kPvFormat, net->contentHash()));
  EXPECT_EQ(PvNetwork::fromFile(path)->weights().valueW1, w.valueW1);
  // A different weight, a different name.
  PvWeights w2 = w;
  w2.policyB[7] += 0.5f;
  EXPECT_NE(netfile::contentHash(kPvFormat, pvFileBytes(w2, "")), net->contentHash());
  fs::remove_all(dir);
}

/// The message of the error fromBytes throws for `bytes` ("" if it does not throw).
std::string loadError(const std::vector<unsigned char>& bytes) {
  try {
    (void)PvNetwork::fromBytes(bytes, "bad.jpv");
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(PvNetFile, RejectsBadFilesWithAClearMessage) {
  const auto good = pvFileBytes(randomWeights(16, 8, 2), "");
  auto withHeader = [&](auto edit) {
    auto b = good;
    PvHeader h;
    std::memcpy(&h, b.data(), sizeof h);
    edit(h);
    std::memcpy(b.data(), &h, sizeof h);
    return b;
  };
  auto expectError = [](const std::vector<unsigned char>& bytes, const std::string& part) {
    const std::string error = loadError(bytes);
    EXPECT_NE(error.find("policy/value network 'bad.jpv': "), std::string::npos) << error;  // names the file
    EXPECT_NE(error.find(part), std::string::npos) << error;
  };
  // The shared fields (netfile.h).
  expectError({good.begin(), good.begin() + 10}, "shorter than the 64-byte header");
  expectError(withHeader([](PvHeader& h) { h.magic[0] = 'X'; }), "wrong magic (not a JANUSPV file)");
  expectError(withHeader([](PvHeader& h) { h.version = 9; }), "version 9");
  expectError(withHeader([](PvHeader& h) { h.reserved0 = 1; }), "reserved header field");
  expectError(withHeader([](PvHeader& h) { h.archId ^= 1; }), "architecture id");
  expectError(withHeader([](PvHeader& h) { h.hidden = 32; h.archId = architectureId(32, 8); }), "payload bytes");
  expectError({good.begin(), good.end() - 4}, "truncated");
  auto longer = good;
  longer.push_back(0);
  expectError(longer, "1 trailing bytes");
  auto corrupted = good;
  corrupted[100] ^= 0x40;
  expectError(corrupted, "corrupted");
  // This format's own fields.
  expectError(withHeader([](PvHeader& h) { h.hidden = 17; }), "invalid sizes");
  expectError(withHeader([](PvHeader& h) { h.inputs = 768; }), "768 inputs");
  expectError(withHeader([](PvHeader& h) { h.policySize = 1000; }), "policy size 1000");
  EXPECT_EQ(loadError(good), "");

  PvWeights nan = randomWeights(16, 8, 3);
  nan.valueB1[2] = std::nanf("");
  EXPECT_THROW((void)pvFileBytes(nan, ""), Error);
  PvWeights wrong = randomWeights(16, 8, 3);
  wrong.policyW.pop_back();
  try {
    wrong.checkSizes();
    ADD_FAILURE() << "checkSizes accepted a short policyW";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("policyW"), std::string::npos);
  }
  EXPECT_THROW((void)PvWeights::zeros(20, 8), Error);
  EXPECT_THROW((void)PvNetwork::fromFile("/nonexistent/net.jpv"), Error);
}

// Every network committed under nets/ loads, is named by its content hash, and is written back
// byte for byte from its weights and description.
TEST(PvNetFile, EveryCommittedNetLoadsAndIsWrittenBackByteForByte) {
  int nets = 0;
  for (const auto& entry : fs::directory_iterator(JANUS_NETS_DIR)) {
    if (entry.path().extension() != ".jpv") continue;
    const std::vector<unsigned char> bytes = netfile::readFile(kPvFormat, entry.path().string());
    const auto net = PvNetwork::fromBytes(bytes, entry.path().string());
    EXPECT_EQ(netfile::fileName(kPvFormat, net->contentHash()), entry.path().filename().string());
    EXPECT_TRUE(pvFileBytes(net->weights(), net->description()) == bytes) << entry.path();
    ++nets;
  }
  EXPECT_GT(nets, 0);
}

// ---- Inference ---------------------------------------------------------------------------------

TEST(PvNetInference, MatchesThePlainDefinition) {
  for (int hidden : {16, 48, 256}) {
    const PvWeights w = randomWeights(hidden, hidden == 16 ? 8 : 24, unsigned(hidden), 0.2f);
    const auto net = PvNetwork::fromWeights(w);
    for (const char* fen : kPositions) {
      const Position pos = Position::fromFen(fen);
      const auto moves = legal(pos);
      std::array<float, 3> value;
      std::vector<float> policy(moves.size());
      net->logits(pos, moves, value, policy);
      std::array<double, 3> refValue;
      std::vector<double> refPolicy;
      reference(w, pos, moves, refValue, refPolicy);
      for (int k = 0; k < 3; ++k) EXPECT_NEAR(value[std::size_t(k)], refValue[std::size_t(k)], 1e-4) << fen;
      for (std::size_t i = 0; i < moves.size(); ++i) EXPECT_NEAR(policy[i], refPolicy[i], 1e-4) << fen << " " << i;
    }
  }
}

TEST(PvNetInference, PriorsAreASoftmaxOverTheLegalMovesAndTemperatureFlattensThem) {
  const auto net = PvNetwork::fromWeights(randomWeights(32, 8, 4, 0.5f));
  const Position pos = Position::fromFen(kPositions[1]);
  const auto moves = legal(pos);
  std::vector<float> p1(moves.size()), p3(moves.size()), logits(moves.size());
  const Wdl wdl = net->evaluate(pos, moves, p1);
  EXPECT_NEAR(wdl.win + wdl.draw + wdl.loss, 1.0f, 1e-5f);
  EXPECT_NEAR(std::accumulate(p1.begin(), p1.end(), 0.0), 1.0, 1e-5);
  std::array<float, 3> v;
  net->logits(pos, moves, v, logits);
  // The prior order follows the logit order.
  const auto best = std::max_element(logits.begin(), logits.end()) - logits.begin();
  EXPECT_EQ(std::max_element(p1.begin(), p1.end()) - p1.begin(), best);
  EXPECT_NEAR(p1[0] / p1[1], std::exp(logits[0] - logits[1]), 1e-3);
  (void)net->evaluate(pos, moves, p3, 3.0f);
  EXPECT_LT(*std::max_element(p3.begin(), p3.end()), *std::max_element(p1.begin(), p1.end()));
  EXPECT_NEAR(std::accumulate(p3.begin(), p3.end(), 0.0), 1.0, 1e-5);
}

// ---- Backend -----------------------------------------------------------------------------------

TEST(PvNetBackendTest, SearchFollowsAStrongPolicyPrior) {
  // A net whose policy bias strongly prefers g1f3 (in White's view; for Black, g8f6) and whose
  // value is a draw: the search spends its visits there.
  PvWeights w = randomWeights(16, 8, 5, 0.01f);
  Position start;
  w.policyB[std::size_t(encoding::policyIndex(start, parseUci(start, "g1f3", false)))] = 8.0f;
  w.valueB2 = {0.0f, 5.0f, 0.0f};
  auto backend = std::make_shared<PvNetBackend>(PvNetwork::fromWeights(w), 1.0f);
  MctsParams params;
  params.smartPruning = false;
  params.seed = 1;
  MctsSearch search(backend, params);
  SearchSignals signals;
  SearchLimits limits;
  limits.nodes = 200;
  SearchResult r = search.run(start, limits, {}, [](const SearchInfo&) {}, signals);
  EXPECT_EQ(toUci(r.best, false), "g1f3");
  Position black = Position::fromFen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
  r = search.run(black, limits, {}, [](const SearchInfo&) {}, signals);
  EXPECT_EQ(toUci(r.best, false), "g8f6");  // the same entry, mirrored
  EXPECT_EQ(backend->attributes().historyPlies, 0);
  EXPECT_NE(backend->attributes().description.find("pvnet pv-"), std::string::npos);
}

// A second reader of JANUSPV files, below every built-in backend, to test the registry's choice.
JANUS_REGISTER_BACKEND(
    otherPvReader, "pvnet-test-reader", -20,
    [](const BackendOptions& o) -> std::unique_ptr<Backend> { return std::make_unique<PvNetBackend>(o); },
    [](const std::string& path) { return netfile::hasMagic(kPvFormat, path); });

TEST(PvNetBackendTest, TheRegistryPicksTheBackendThatReadsAWeightsFile) {
  auto& registry = BackendRegistry::instance();
  const fs::path dir = fs::temp_directory_path() / ("janus-pvnet-claims-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string path = writePvFile(randomWeights(16, 8, 7), dir.string(), "claims");
  // The claiming backend with the highest priority, unless the preferred one claims the file too.
  EXPECT_EQ(registry.forWeightsFile(path), "pvnet");
  EXPECT_EQ(registry.forWeightsFile(path, "uniform"), "pvnet");
  EXPECT_EQ(registry.forWeightsFile(path, "pvnet-test-reader"), "pvnet-test-reader");
  // A compressed network file is claimed as well (its magic is read through zstd).
  const std::vector<unsigned char> bytes = netfile::readFile(kPvFormat, path);
  {
    OutputFile out((dir / "net.jpv.zst").string(), /*compress=*/true);
    out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    out.commit();
  }
  EXPECT_EQ(registry.forWeightsFile((dir / "net.jpv.zst").string()), "pvnet");
  EXPECT_EQ(PvNetwork::fromFile((dir / "net.jpv.zst").string())->contentHash(), netfile::contentHash(kPvFormat, bytes));
  // A file nobody reads, and a missing file: errors naming the file.
  { std::ofstream((dir / "other.bin").string()) << "JANUSXX\nmore"; }
  try {
    (void)registry.forWeightsFile((dir / "other.bin").string());
    ADD_FAILURE() << "a file without a known magic was claimed";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("no MCTS backend of this binary reads the network file '" + (dir / "other.bin").string() + "'"),
              std::string::npos)
        << what;
    EXPECT_NE(what.find("starts with \"JANUSXX.\""), std::string::npos) << what;
    EXPECT_NE(what.find("pvnet"), std::string::npos) << what;
  }
  try {
    (void)registry.forWeightsFile((dir / "missing.jpv").string());
    ADD_FAILURE() << "a missing file was claimed";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("cannot open '" + (dir / "missing.jpv").string() + "'"), std::string::npos)
        << e.what();
  }
  fs::remove_all(dir);
}

TEST(PvNetBackendTest, RegistryLoadsAWeightsFileAndReportsBadOnes) {
  auto& registry = BackendRegistry::instance();
  ASSERT_TRUE(registry.contains("pvnet"));
  EXPECT_EQ(registry.defaultName(), defaultPvNetworkFile().empty() ? "uniform" : "pvnet");
  const fs::path dir = fs::temp_directory_path() / ("janus-pvnet-backend-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string path = writePvFile(randomWeights(16, 8, 6), dir.string(), "registry");
  auto backend = registry.create("pvnet", {path, {{"policy-temperature", "1.5"}}});
  EXPECT_NE(backend->attributes().description.find("policy temperature 1.5"), std::string::npos);
  auto c = backend->newComputation();
  Position pos;
  const auto moves = legal(pos);
  EXPECT_EQ(c->addInput(pos, moves), 0);
  c->compute();
  const auto priors = c->priors(0);
  EXPECT_EQ(priors.size(), moves.size());
  EXPECT_NEAR(std::accumulate(priors.begin(), priors.end(), 0.0), 1.0, 1e-5);

  EXPECT_THROW((void)registry.create("pvnet", {path, {{"policy-temperature", "-1"}}}), Error);
  try {
    (void)registry.create("pvnet", {(dir / "missing.jpv").string(), {}});
    ADD_FAILURE() << "a missing weights file was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("missing.jpv"), std::string::npos) << e.what();
  }
  if (defaultPvNetworkFile().empty()) {
    try {
      (void)registry.create("pvnet", {});
      ADD_FAILURE() << "no weights and no embedded network were accepted";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("embeds no policy/value network"), std::string::npos) << e.what();
    }
  } else {
    EXPECT_NE(registry.create("pvnet", {})->attributes().description.find("pv-"), std::string::npos);
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace janus::mcts::pvnet
