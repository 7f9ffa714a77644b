// Tests of janus selfplay (selfplay.h) with the deterministic uniform backend: one game's
// records, determinism by seed, resignation and its false-resignation bookkeeping, and chunked
// runs (files, resume, settings check).

#include "selfplay/selfplay.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <numeric>

#include "mcts/uniform_backend.h"
#include "nnue/network.h"
#include "nnue/test_net.h"
#include "util/error.h"
#include "util/test_temp_dir.h"

namespace janus::selfplay {
namespace {

namespace fs = std::filesystem;

SelfplayConfig smallConfig() {
  SelfplayConfig c;
  c.backend = "uniform";
  c.visits = 24;
  c.fastVisits = 6;
  c.fullFraction = 0.5;
  c.temperaturePlies = 6;
  c.maxPlies = 40;
  c.resignQ = 0.0;  // never
  return c;
}

mcts::MctsSearch makeSearch() { return mcts::MctsSearch(std::make_shared<mcts::UniformBackend>()); }

TEST(Selfplay, GameRecordsFullSearchesWithVisitsAndReplays) {
  auto search = makeSearch();
  const SelfplayGame g = playGame(search, Position(), 7, smallConfig());
  // With seed 7 the material-only uniform backend mates after 21 plies (White moved last).
  ASSERT_EQ(g.plies.size(), 21u) << gameEndName(g.end);
  EXPECT_EQ(g.end, GameEnd::kCheckmate);
  EXPECT_EQ(g.result, records::kWhiteWin);
  int full = 0, sampled = 0;
  for (const SelfplayPly& p : g.plies) {
    full += p.fullSearch();
    sampled += (p.flags & kPlySampled) != 0;
    if (p.fullSearch()) {
      ASSERT_FALSE(p.visits.empty());
      int sum = 0;
      for (const VisitShare& v : p.visits) sum += v.share;
      EXPECT_NEAR(sum, 65535, int(p.visits.size()));  // rounding of each share
    } else {
      EXPECT_TRUE(p.visits.empty());
    }
  }
  EXPECT_GT(full, 3);   // about half of the 21 moves
  EXPECT_LT(full, 18);
  EXPECT_EQ(sampled, 6);
  int replayed = 0;
  replayGame(g, "test", [&](const Position&, Move, const SelfplayPly&) { ++replayed; });
  EXPECT_EQ(replayed, 21);
}

TEST(Selfplay, SameSeedSameGameOtherSeedOtherGame) {
  auto s1 = makeSearch(), s2 = makeSearch();
  const SelfplayGame a = playGame(s1, Position(), 11, smallConfig());
  const SelfplayGame b = playGame(s2, Position(), 11, smallConfig());
  const SelfplayGame c = playGame(s1, Position(), 12, smallConfig());
  ASSERT_EQ(a.plies.size(), b.plies.size());
  for (size_t i = 0; i < a.plies.size(); ++i) EXPECT_EQ(a.plies[i].move, b.plies[i].move) << i;
  bool differs = a.plies.size() != c.plies.size();
  for (size_t i = 0; !differs && i < a.plies.size(); ++i) differs = a.plies[i].move != c.plies[i].move;
  EXPECT_TRUE(differs);
}

TEST(Selfplay, ALostSideResignsUnlessResignationIsOffThenItIsRecorded) {
  // Black to move, a queen down: the uniform backend's Q is -0.93 for Black.
  const Position pos = Position::fromFen("4k3/8/8/8/8/8/8/3QK3 b - - 0 1");
  SelfplayConfig c = smallConfig();
  c.resignQ = 0.5;
  c.resignPlies = 1;
  c.noResignFraction = 0.0;
  auto search = makeSearch();
  const SelfplayGame resigned = playGame(search, pos, 3, c);
  EXPECT_EQ(resigned.end, GameEnd::kResignation);
  EXPECT_EQ(resigned.result, records::kWhiteWin);
  EXPECT_TRUE(resigned.plies.empty());
  c.noResignFraction = 1.0;
  c.maxPlies = 10;
  const SelfplayGame played = playGame(search, pos, 3, c);
  EXPECT_EQ(played.plies.size(), 10u);
  EXPECT_TRUE(played.flags & kGameNoResign);
  EXPECT_TRUE(played.flags & kGameBlackWouldResign);
  EXPECT_FALSE(played.flags & kGameWhiteWouldResign);
}

TEST(Selfplay, ChunkedRunWritesResumesAndChecksSettings) {
  const fs::path dir = fs::temp_directory_path() / ("janus-selfplay-run-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  SelfplayConfig c = smallConfig();
  c.games = 4;
  c.threads = 2;
  c.maxPlies = 12;
  records::ChunkedRun run{dir.string(), 2, 1, 1, false};
  std::vector<SelfplayChunk> chunks;
  const SelfplayProgress p = generateSelfplay(c, run, {}, [&](const SelfplayChunk& ch) { chunks.push_back(ch); });
  EXPECT_EQ(p.gamesDone, 4u);
  EXPECT_EQ(p.chunksDone, 2u);
  ASSERT_EQ(chunks.size(), 2u);
  EXPECT_EQ(p.plies, 48u);
  EXPECT_EQ(chunks[0].plies + chunks[1].plies, 48u);
  const auto games = readSelfplayFile((dir / chunkFileName(1)).string());
  ASSERT_EQ(games.size(), 2u);
  EXPECT_TRUE(fs::exists(dir / kRunManifestName));

  // The same games whatever the thread count: chunk 1 again, one thread, in another directory.
  const fs::path other = dir.string() + "-1t";
  fs::remove_all(other);
  c.threads = 1;
  (void)generateSelfplay(c, {other.string(), 2, 1, 1, false});
  const auto again = readSelfplayFile((other / chunkFileName(1)).string());
  ASSERT_EQ(again.size(), 2u);
  for (size_t g = 0; g < 2; ++g) {
    ASSERT_EQ(again[g].plies.size(), games[g].plies.size());
    for (size_t i = 0; i < games[g].plies.size(); ++i) EXPECT_EQ(again[g].plies[i].move, games[g].plies[i].move);
  }
  fs::remove_all(other);

  // Without --resume an existing chunk is an error; with it nothing is left to play.
  EXPECT_THROW((void)generateSelfplay(c, run), Error);
  run.resume = true;
  const SelfplayProgress resumed = generateSelfplay(c, run);
  EXPECT_EQ(resumed.chunksSkipped, 2u);
  EXPECT_EQ(resumed.gamesDone, 0u);
  // Other settings are rejected, naming the setting.
  c.visits = 25;
  try {
    (void)generateSelfplay(c, run);
    ADD_FAILURE() << "a run with other settings was extended";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("visits 24"), std::string::npos) << e.what();
  }
  fs::remove_all(dir);
}

TEST(Selfplay, BadConfigurationIsAnError) {
  SelfplayConfig c = smallConfig();
  c.fullFraction = 0;
  EXPECT_THROW(checkConfig(c), Error);
  c = smallConfig();
  c.temperature = 0;
  EXPECT_THROW(checkConfig(c), Error);
  c = smallConfig();
  c.maxPlies = 5000;
  EXPECT_THROW(checkConfig(c), Error);
  c = smallConfig();
  c.backend = "no-such-backend";
  c.games = 1;
  EXPECT_THROW((void)generateSelfplay(c, {(fs::temp_directory_path() / "janus-selfplay-never").string(), 1, 1, 1, false}),
               Error);
  EXPECT_FALSE(fs::exists(fs::temp_directory_path() / "janus-selfplay-never"));
}

TEST(Selfplay, NnueValueRunsTheEnginesLeafSearchesAndNamesThemInTheManifest) {
  test::TempDir dir;
  // A small random NNUE network in a file, as --eval-file takes it.
  const auto bytes = nnue::testing::quantise(nnue::testing::randomFloatNet(32, 8, nnue::Activation::kSCReLU, 5));
  const std::string netFile = dir.file("nn-test.jnn");
  std::ofstream(netFile, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  SelfplayConfig c = smallConfig();
  c.games = 2;
  c.maxPlies = 10;
  c.value = "nnue";
  c.evalFile = netFile;
  c.face.leaf.maxPly = 4;
  c.face.leaf.priorTemperature = 50;
  const SelfplayProgress nnue = generateSelfplay(c, {dir.file("nnue"), 2, 1, 1, false});
  EXPECT_EQ(nnue.gamesDone, 2u);
  EXPECT_EQ(nnue.plies, 20u);
  std::ifstream manifest(dir.dir() / "nnue" / kRunManifestName);
  const std::string text((std::istreambuf_iterator<char>(manifest)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("value nnue\n"), std::string::npos) << text;
  EXPECT_NE(text.find("one-ply search (quiescence 4 plies, prior temperature 50 cp)"), std::string::npos) << text;
  // The other leaf settings are the engine's default face (mcts/face.h), alpha-beta hints included.
  EXPECT_NE(text.find("alpha-beta hints of depth 10 (at most 10000 nodes) at 300 visits"), std::string::npos) << text;
  c.face.params.hints.visits = 0;
  (void)generateSelfplay(c, {dir.file("nohints"), 2, 1, 1, false});
  std::ifstream manifest2(dir.dir() / "nohints" / kRunManifestName);
  const std::string text2((std::istreambuf_iterator<char>(manifest2)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text2.find("alpha-beta hints"), std::string::npos) << text2;

  // The same seed with the uniform backend's own values plays other games: the values and the
  // one-ply priors of the NNUE changed the search.
  c.value = "net";
  (void)generateSelfplay(c, {dir.file("net"), 2, 1, 1, false});
  const auto a = readSelfplayFile((dir.dir() / "nnue" / chunkFileName(0)).string());
  const auto b = readSelfplayFile((dir.dir() / "net" / chunkFileName(0)).string());
  ASSERT_EQ(a.size(), 2u);
  ASSERT_EQ(b.size(), 2u);
  bool differs = false;
  for (size_t g = 0; g < 2; ++g)
    for (size_t i = 0; i < std::min(a[g].plies.size(), b[g].plies.size()); ++i)
      differs = differs || a[g].plies[i].move != b[g].plies[i].move;
  EXPECT_TRUE(differs);

  // A bad value name, or a network file that does not exist, is an error before the run
  // directory is made.
  c.value = "nnue2";
  EXPECT_THROW(checkConfig(c), Error);
  c.value = "nnue";
  c.evalFile = dir.file("missing.jnn");
  EXPECT_THROW((void)generateSelfplay(c, {dir.file("never"), 2, 1, 1, false}), Error);
  EXPECT_FALSE(fs::exists(dir.dir() / "never"));

  // A value network (--value-file) values the leaves and the manifest names it; the hints keep
  // --eval-file's network.
  const auto valueBytes = nnue::testing::quantise(nnue::testing::randomFloatNet(32, 8, nnue::Activation::kSCReLU, 6));
  const std::string valueFile = dir.file("nn-value.jnn");
  std::ofstream(valueFile, std::ios::binary)
      .write(reinterpret_cast<const char*>(valueBytes.data()), std::streamsize(valueBytes.size()));
  c.evalFile = netFile;
  c.valueFile = valueFile;
  c.face.params.hints.visits = 300;
  (void)generateSelfplay(c, {dir.file("valued"), 2, 1, 1, false});
  std::ifstream manifest3(dir.dir() / "valued" / kRunManifestName);
  const std::string text3((std::istreambuf_iterator<char>(manifest3)), std::istreambuf_iterator<char>());
  const std::string valueName = nnue::Network::fromFile(valueFile)->name(), evalName = nnue::Network::fromFile(netFile)->name();
  EXPECT_NE(text3.find("NNUE " + valueName + " one-ply search"), std::string::npos) << text3;
  EXPECT_NE(text3.find("by NNUE " + evalName), std::string::npos) << text3;
  // It values the leaves of --value nnue only.
  c.value = "net";
  EXPECT_THROW(checkConfig(c), Error);
}

}  // namespace
}  // namespace janus::selfplay
