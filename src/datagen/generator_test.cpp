// Tests of self-play generation: determinism, every position recorded with its flags, game
// ends, random starts, and chunked runs (shards, resume, settings checks, kept chunks).

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/file.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <random>
#include <set>

#include "core/movegen.h"
#include "core/notation.h"
#include "datagen/generator.h"
#include "datagen/record.h"
#include "engine/engine.h"
#include "nnue/test_net.h"
#include "util/error.h"

namespace janus::datagen {
namespace {

namespace fs = std::filesystem;

std::string tempFile(const std::string& name) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  return (fs::temp_directory_path() /
          ("janus_datagen_" + std::to_string(::getpid()) + "_" + info->name() + "_" + name))
      .string();
}

std::string readRaw(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

DatagenConfig tinyConfig(const std::string& output, int threads) {
  DatagenConfig c;
  c.games = 2;
  c.nodes = 300;
  c.threads = threads;
  c.output = output;
  c.randomisation.plies = 2;
  c.seed = 7;
  c.hashMiB = 1;
  return c;
}

TEST(Datagen, DeterministicAtTinySizes) {
  const std::string a = tempFile("a.jdat"), b = tempFile("b.jdat"), c = tempFile("c.jdat");
  DatagenProgress pa = generateData(tinyConfig(a, 1));
  DatagenProgress pb = generateData(tinyConfig(b, 1));
  DatagenProgress pc = generateData(tinyConfig(c, 2));  // order of writing does not depend on threads
  EXPECT_EQ(pa.gamesDone, 2);
  EXPECT_GT(pa.positions, 10u);
  EXPECT_EQ(pa.results[0] + pa.results[1] + pa.results[2], 2u);
  const std::string ra = readRaw(a);
  EXPECT_EQ(ra.size(), 32 + pa.positions * 32);
  EXPECT_EQ(ra, readRaw(b));
  EXPECT_EQ(ra, readRaw(c));
  EXPECT_EQ(pa.positions, pb.positions);
  EXPECT_EQ(pa.positions, pc.positions);

  // Another seed gives other games.
  DatagenConfig other = tinyConfig(b, 1);
  other.seed = 8;
  (void)generateData(other);
  EXPECT_NE(ra, readRaw(b));

  // Every position an engine moved from is recorded: consecutive records of a game are one move
  // apart, and that move's kind is what the noisy flag says. The check flag is the position's.
  DataReader reader(a);
  EXPECT_EQ(reader.version(), kFormatVersion);
  PackedRecord r;
  u64 whiteRecords = 0, noisy = 0, checks = 0, linked = 0, gameBreaks = 0;
  std::optional<std::pair<Position, bool>> previous;  // position and noisy flag of the last record
  while (reader.next(r)) {
    TrainingPosition t = reader.decode(r, reader.index() - 1);
    EXPECT_EQ(recordInCheck(r), t.pos.inCheck()) << t.pos.fen();
    EXPECT_NE(t.score, kNoScore);
    whiteRecords += t.result == kWhiteWin;
    noisy += recordNoisyMove(r);
    checks += recordInCheck(r);
    if (previous) {
      bool found = false;
      for (Move m : legalMoves(previous->first)) {
        Position next = previous->first;
        next.makeMove(m);
        if (next.key() == t.pos.key() && next.fen() == t.pos.fen()) {
          EXPECT_EQ(previous->second, previous->first.isNoisy(m)) << previous->first.fen() << " " << toUci(m, false);
          found = true;
          break;
        }
      }
      (found ? linked : gameBreaks) += 1;
    }
    previous = std::make_pair(t.pos, recordNoisyMove(r));
  }
  EXPECT_EQ(reader.index(), pa.positions);
  EXPECT_EQ(whiteRecords > 0, pa.results[kWhiteWin] > 0);
  EXPECT_GT(noisy, 0u);            // captures are no longer dropped
  EXPECT_LE(gameBreaks, 1u);       // 2 games: one break between them, every other pair linked
  EXPECT_EQ(linked + gameBreaks + 1, pa.positions);
  EXPECT_EQ(pa.plies, pa.positions);  // one record per engine move
  (void)checks;
  for (const auto& f : {a, b, c}) fs::remove(f);
}

TEST(Datagen, RunsWithDifferentSeedsPlayDifferentGames) {
  // Seeds 1 and 2 must not play the same games shifted by one index (as splitmix64(seed + g) would).
  std::set<u64> seen;
  for (u64 seed = 1; seed <= 64; ++seed)
    for (int g = 0; g < 256; ++g) EXPECT_TRUE(seen.insert(gameSeed(seed, g)).second) << seed << " " << g;
}

const StartRandomisation kNoRandomisation{.plies = 0, .scoreLimit = 0};

TEST(Datagen, GameEndsByTheRulesAndAdjudication) {
  Engine engine;
  engine.setOption("Hash", "1");
  Adjudication adj;
  // KQ vs K: White mates (or the win is adjudicated) and every record says White won.
  GameOutcome won = playGame(engine, Position::fromFen("7k/8/5K2/8/8/8/8/4Q3 w - - 0 1"), 1, kNoRandomisation, 2000, adj);
  EXPECT_EQ(won.result, kWhiteWin);
  EXPECT_TRUE(won.end == GameEnd::kCheckmate || won.end == GameEnd::kAdjudicatedWin) << gameEndName(won.end);
  for (const auto& r : won.records) EXPECT_EQ(r.wdl, kWhiteWin);
  // Checkmate without adjudication.
  Adjudication noAdj;
  noAdj.winScore = 100000;
  GameOutcome mate = playGame(engine, Position::fromFen("7k/8/5K2/8/8/8/8/4Q3 w - - 0 1"), 1, kNoRandomisation, 2000, noAdj);
  EXPECT_EQ(mate.end, GameEnd::kCheckmate);
  EXPECT_EQ(mate.result, kWhiteWin);
  // Already stalemated: no move, no record.
  GameOutcome stale = playGame(engine, Position::fromFen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"), 1, kNoRandomisation, 100, adj);
  EXPECT_EQ(stale.end, GameEnd::kStalemate);
  EXPECT_EQ(stale.plies, 0);
  EXPECT_TRUE(stale.records.empty());
  // KN vs K is insufficient material at once.
  GameOutcome insufficient = playGame(engine, Position::fromFen("7k/8/8/8/8/8/8/KN6 w - - 0 1"), 1, kNoRandomisation, 100, adj);
  EXPECT_EQ(insufficient.end, GameEnd::kInsufficientMaterial);
  EXPECT_EQ(insufficient.result, kDraw);
  // The length limit.
  Adjudication shortGames;
  shortGames.maxPlies = 20;
  GameOutcome capped = playGame(engine, Position(), 3, kNoRandomisation, 200, shortGames);
  EXPECT_LE(capped.plies, 20);
}

TEST(Datagen, RandomStartPlaysROrRPlusOnePliesSoBothSidesGetToMove) {
  const Position base;  // White to move, like every line of the shipped book
  int whiteToMove = 0, blackToMove = 0;
  for (u64 seed = 1; seed <= 200; ++seed) {
    std::mt19937_64 rng(seed);
    const Position p = randomStart(base, rng, 4);
    const int plies = p.gamePly() - base.gamePly();
    ASSERT_TRUE(plies == 4 || plies == 5) << "seed " << seed << ": " << plies << " plies";
    ASSERT_TRUE(hasLegalMove(p)) << p.fen();
    (p.sideToMove() == kWhite ? whiteToMove : blackToMove) += 1;
    std::mt19937_64 again(seed);
    EXPECT_EQ(randomStart(base, again, 4).fen(), p.fen()) << "seed " << seed;
  }
  // An even count alone would leave White to move in all 200 games (the colour bias this avoids).
  EXPECT_GT(whiteToMove, 60);
  EXPECT_GT(blackToMove, 60);
}

TEST(Datagen, RandomStartKeepsTheBaseWhenNoRandomLineWorks) {
  std::mt19937_64 rng(3);
  EXPECT_EQ(randomStart(Position(), rng, 0).fen(), Position().fen());
  EXPECT_EQ(rng(), std::mt19937_64(3)());  // nothing drawn for 0 plies
  // K+B v K: every random line ends in insufficient material, so all 8 attempts fail.
  const Position drawn = Position::fromFen("7k/8/8/8/8/8/8/KB6 w - - 0 1");
  EXPECT_EQ(randomStart(drawn, rng, 3).fen(), drawn.fen());
  // Here many White moves stalemate Black (Kb5, Ka6, ...) and Qb7 mates: such lines are retried, so
  // the start position never is a finished game.
  const Position p = Position::fromFen("k7/2Q5/1K6/8/8/8/8/8 w - - 0 1");
  for (u64 seed = 1; seed <= 50; ++seed) {
    std::mt19937_64 r(seed);
    const Position q = randomStart(p, r, 1);
    EXPECT_TRUE(hasLegalMove(q)) << "seed " << seed << ": " << q.fen();
  }
}

TEST(Datagen, RandomLinesBeyondTheScoreLimitAreRedrawn) {
  constexpr u64 kNodes = 400;
  Engine engine, judge;
  engine.setOption("Hash", "1");
  judge.setOption("Hash", "1");
  SearchResult judged;
  judge.onBestMove([&judged](const SearchResult& r) { judged = r; });
  auto score = [&](const Position& p) {
    judge.newGame();
    judge.setPosition(p);
    SearchLimits limits;
    limits.nodes = kNodes;
    judge.go(limits);
    judge.wait();
    return judged.score;
  };
  Adjudication shortGames;
  shortGames.maxPlies = 4;  // only the start matters here
  const Position base;
  int beyond = 0;
  for (u64 seed = 1; seed <= 12; ++seed) {
    // Without the check, 10 random plies often leave a lost position (a piece en prise or gone).
    const GameOutcome unchecked = playGame(engine, base, seed, {.plies = 10, .scoreLimit = 0}, kNodes, shortGames);
    const int plies = unchecked.start.gamePly() - base.gamePly();
    EXPECT_TRUE(plies == 10 || plies == 11) << plies;
    if (std::abs(score(unchecked.start)) > 100) ++beyond;
    // With it, the start either scores within the limit (the same search as the check: fresh hash,
    // fixed nodes) or, after 8 rejected lines, is the book position itself.
    const GameOutcome checked = playGame(engine, base, seed, {.plies = 10, .scoreLimit = 100}, kNodes, shortGames);
    if (checked.start.fen() != base.fen()) {
      EXPECT_LE(std::abs(score(checked.start)), 100) << checked.start.fen();
    }
  }
  EXPECT_GT(beyond, 0) << "no unbalanced random line in 12 games: the test shows nothing";
}

TEST(Datagen, BadConfigurationIsAnError) {
  DatagenConfig c = tinyConfig(tempFile("x.jdat"), 1);
  c.games = 0;
  EXPECT_THROW((void)generateData(c), Error);
  c = tinyConfig(tempFile("x.jdat"), 1);
  c.openings = "/nonexistent/book.epd";
  EXPECT_THROW((void)generateData(c), Error);
  c = tinyConfig(tempFile("x.jdat"), 1);
  c.randomisation.scoreLimit = -1;
  EXPECT_THROW((void)generateData(c), Error);
  EXPECT_FALSE(fs::exists(tempFile("x.jdat")));
}

// ---- Chunked runs ---------------------------------------------------------------------------------

class TempDir {
 public:
  TempDir() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    m_path = fs::temp_directory_path() / ("janus_chunks_" + std::to_string(::getpid()) + "_" + info->name());
    fs::remove_all(m_path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(m_path, ec);
  }
  [[nodiscard]] std::string path() const { return m_path.string(); }
  [[nodiscard]] std::string file(const std::string& name) const { return (m_path / name).string(); }

 private:
  fs::path m_path;
};

/// Short games (30 plies at most) so that a chunked run of several chunks stays fast.
DatagenConfig shortGames(int games) {
  DatagenConfig c = tinyConfig("", 2);
  c.games = games;
  c.nodes = 200;
  c.adjudication.maxPlies = 30;
  c.seed = 11;
  return c;
}

std::string expectChunkError(const DatagenConfig& c, const ChunkedRun& run, const std::string& needle) {
  try {
    (void)generateChunks(c, run);
    ADD_FAILURE() << "no error, expected one containing '" << needle << "'";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    return e.what();
  }
  return {};
}

TEST(DatagenChunks, ShardsAndResumeMakeTheSameGamesAsOneFile) {
  TempDir dir;
  fs::create_directories(dir.path());
  // Reference: 6 games into one file.
  const std::string single = dir.file("single.jdat");
  DatagenConfig ref = shortGames(6);
  ref.output = single;
  const DatagenProgress whole = generateData(ref);

  // The same run as 3 chunks of 2 games. Shards 1/2 and 2/2 of the first 4 games: chunk 0 and 1.
  const std::string runDir = dir.file("run");
  ChunkedRun run{.dir = runDir, .chunkGames = 2, .shard = 1, .shards = 2, .resume = false};
  std::vector<ChunkReport> reports;
  auto onChunk = [&](const ChunkReport& r) { reports.push_back(r); };
  DatagenProgress p1 = generateChunks(shortGames(4), run, {}, onChunk);
  EXPECT_EQ(p1.chunksDone, 1u);
  EXPECT_EQ(p1.gamesDone, 2);
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_EQ(reports[0].chunk, 0u);
  EXPECT_EQ(reports[0].path, runDir + "/chunk-000000.janusdat.zst");
  EXPECT_TRUE(fs::exists(runDir + "/chunk-000000.janusdat.zst"));
  EXPECT_FALSE(fs::exists(runDir + "/chunk-000001.janusdat.zst"));
  EXPECT_TRUE(fs::exists(runDir + "/" + kRunManifestName));
  run.shard = 2;
  DatagenProgress p2 = generateChunks(shortGames(4), run, {}, onChunk);
  EXPECT_EQ(p2.chunksDone, 1u);
  ASSERT_EQ(reports.size(), 2u);
  EXPECT_EQ(reports[1].chunk, 1u);

  // Without --resume an existing chunk of the shard is an error; with it only chunk 2 is played.
  ChunkedRun all{.dir = runDir, .chunkGames = 2, .shard = 1, .shards = 1, .resume = false};
  expectChunkError(shortGames(6), all, "chunk-000000.janusdat.zst' exists: pass --resume");
  all.resume = true;
  DatagenProgress p3 = generateChunks(shortGames(6), all, {}, onChunk);
  EXPECT_EQ(p3.chunksSkipped, 2u);
  EXPECT_EQ(p3.chunksDone, 1u);
  EXPECT_EQ(p3.gamesDone, 2);
  ASSERT_EQ(reports.size(), 3u);
  EXPECT_EQ(reports[2].chunk, 2u);
  // Nothing left to do.
  DatagenProgress p4 = generateChunks(shortGames(6), all);
  EXPECT_EQ(p4.chunksSkipped, 3u);
  EXPECT_EQ(p4.gamesDone, 0);

  // The chunks in order hold exactly the single file's records (same game seeds), each file
  // declaring its count.
  std::vector<PackedRecord> joined;
  for (int k = 0; k < 3; ++k) {
    const std::string path = runDir + "/" + chunkFileName(u64(k));
    DataReader reader(path);
    ASSERT_TRUE(reader.declaredCount().has_value());
    EXPECT_EQ(*reader.declaredCount(), reports[size_t(k)].positions);
    for (const auto& r : readRecords(path)) joined.push_back(r);
  }
  const std::vector<PackedRecord> expected = readRecords(single);
  ASSERT_EQ(joined.size(), expected.size());
  EXPECT_EQ(std::memcmp(joined.data(), expected.data(), joined.size() * sizeof(PackedRecord)), 0);
  EXPECT_EQ(whole.positions, expected.size());
  for (const auto& e : fs::directory_iterator(runDir))
    EXPECT_FALSE(e.path().string().ends_with(".tmp")) << e.path();
}

TEST(DatagenChunks, SettingsAndDirectoryAreChecked) {
  TempDir dir;
  const std::string runDir = dir.file("run");
  ChunkedRun run{.dir = runDir, .chunkGames = 1, .shard = 1, .shards = 3, .resume = false};
  DatagenConfig c = shortGames(3);
  c.adjudication.maxPlies = 6;
  (void)generateChunks(c, run);
  EXPECT_TRUE(fs::exists(runDir + "/chunk-000000.janusdat.zst"));

  // Another shard or a resume with other game settings is refused, naming the setting.
  run.shard = 2;
  DatagenConfig other = c;
  other.nodes = 201;
  expectChunkError(other, run, "made with nodes 200, this command has nodes 201");
  other = c;
  other.seed = 12;
  expectChunkError(other, run, "seed 11");
  ChunkedRun otherChunks = run;
  otherChunks.chunkGames = 3;
  expectChunkError(c, otherChunks, "chunk-games 1");
  // Threads and the total number of games are not settings of the games: a run can grow.
  DatagenConfig more = c;
  more.games = 6;
  more.threads = 1;
  run.shards = 6;
  run.shard = 6;
  EXPECT_EQ(generateChunks(more, run).chunksDone, 1u);
  EXPECT_TRUE(fs::exists(runDir + "/chunk-000005.janusdat.zst"));

  // Bad shapes of a run.
  run.shard = 1;
  run.shards = 1;
  run.resume = true;
  DatagenConfig odd = c;
  odd.games = 4;
  run.chunkGames = 3;
  expectChunkError(odd, run, "--games 4 is not a multiple of --chunk-games 3");
  run.chunkGames = 1;
  run.shard = 4;
  run.shards = 3;
  expectChunkError(c, run, "bad shard 4/3");

  // A directory with chunk files but no settings file (e.g. the old tools/gen-nnue-data.sh).
  const std::string old = dir.file("old");
  fs::create_directories(old);
  std::ofstream(old + "/chunk-000001.janusdat.zst") << "x";
  expectChunkError(c, {.dir = old, .chunkGames = 1, .shard = 1, .shards = 1, .resume = true},
                   "holds chunk files but no datagen-run.txt");

  // The same shard running twice at once: the second one finds the lock taken.
  run = {.dir = runDir, .chunkGames = 1, .shard = 1, .shards = 3, .resume = true};
  const int fd = ::open((runDir + "/shard-1-of-3.lock").c_str(), O_RDWR | O_CREAT, 0644);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::flock(fd, LOCK_EX | LOCK_NB), 0);
  expectChunkError(c, run, "already running");
  ::close(fd);
  EXPECT_EQ(generateChunks(c, run).chunksSkipped, 1u);
}

// The evaluation is a setting of a run: recorded as "eval hce" / "eval nnue nn-<hash>", checked on
// resume (a manifest from before the setting counts as hce), and applied to the games.
TEST(DatagenChunks, EvaluationIsASettingOfTheRunAndChangesTheGames) {
  TempDir dir;
  fs::create_directories(dir.path());
  const std::string netPath = dir.file("tiny.jnn");
  {
    const auto bytes = nnue::testing::quantise(nnue::testing::randomFloatNet(32, 1, nnue::Activation::kSCReLU, 5), "dg");
    std::ofstream(netPath, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  }
  const std::string netSetting = evaluationSetting(netPath);
  EXPECT_EQ(netSetting.rfind("nnue nn-", 0), 0u) << netSetting;
  EXPECT_EQ(netSetting.size(), 5u + 3u + 16u) << netSetting;
  EXPECT_EQ(evaluationSetting("hce"), "hce");

  const std::string runDir = dir.file("run");
  ChunkedRun run{.dir = runDir, .chunkGames = 1, .shard = 1, .shards = 1, .resume = true};
  DatagenConfig hce = shortGames(2);
  hce.evaluation = "hce";
  (void)generateChunks(hce, run);
  const std::string manifest = runDir + "/" + kRunManifestName;
  std::ifstream manifestIn(manifest);
  std::string text{std::istreambuf_iterator<char>(manifestIn), std::istreambuf_iterator<char>()};
  manifestIn.close();
  EXPECT_NE(text.find("\neval hce\n"), std::string::npos) << text;
  DatagenConfig withNet = hce;
  withNet.evaluation = netPath;
  expectChunkError(withNet, run, "made with eval hce, this command has eval " + netSetting);

  // A run made before the setting existed (no eval line) was made with the HCE.
  text.erase(text.find("eval hce\n"), 9);
  std::ofstream(manifest) << text;
  hce.games = 3;
  EXPECT_EQ(generateChunks(hce, run).chunksDone, 1u);
  expectChunkError(withNet, run, "made with eval hce");

  // The evaluation is applied: the same games' scores differ between the HCE and the network.
  const std::string a = dir.file("a.janusdat"), b = dir.file("b.janusdat");
  DatagenConfig one = shortGames(1);
  one.evaluation = "hce";
  one.output = a;
  (void)generateData(one);
  one.evaluation = netPath;
  one.output = b;
  (void)generateData(one);
  const auto ra = readRecords(a), rb = readRecords(b);
  ASSERT_FALSE(ra.empty());
  ASSERT_FALSE(rb.empty());
  EXPECT_NE(ra[0].score, rb[0].score);

  // A file that is not a network fails before any game, naming the file.
  DatagenConfig bad = shortGames(1);
  bad.evaluation = dir.file("missing.jnn");
  bad.output = dir.file("c.janusdat");
  try {
    (void)generateData(bad);
    ADD_FAILURE() << "no error for a missing network";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("missing.jnn"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(fs::exists(dir.file("c.janusdat")));
}

TEST(DatagenChunks, AnInterruptedRunKeepsItsFinishedChunks) {
  TempDir dir;
  const std::string runDir = dir.file("run");
  DatagenConfig c = shortGames(3);
  c.adjudication.maxPlies = 8;
  ChunkedRun run{.dir = runDir, .chunkGames = 1, .shard = 1, .shards = 1, .resume = false};
  // The run stops (here: an exception from the chunk callback) after its first chunk.
  EXPECT_THROW((void)generateChunks(c, run, {}, [](const ChunkReport&) { throw Error("stop"); }), Error);
  EXPECT_TRUE(fs::exists(runDir + "/chunk-000000.janusdat.zst"));
  EXPECT_FALSE(fs::exists(runDir + "/chunk-000001.janusdat.zst"));
  const std::string first = readRaw(runDir + "/chunk-000000.janusdat.zst");
  run.resume = true;
  DatagenProgress p = generateChunks(c, run);
  EXPECT_EQ(p.chunksSkipped, 1u);
  EXPECT_EQ(p.chunksDone, 2u);
  EXPECT_EQ(readRaw(runDir + "/chunk-000000.janusdat.zst"), first);  // kept, not rewritten
  EXPECT_TRUE(fs::exists(runDir + "/chunk-000002.janusdat.zst"));
}

TEST(DatagenChunks, ShardParsingAndAssignment) {
  EXPECT_EQ(parseShard("3/8"), std::make_pair(3, 8));
  EXPECT_EQ(parseShard("1/1"), std::make_pair(1, 1));
  for (const char* bad : {"0/4", "5/4", "4", "a/4", "1/", "/4", "1/0", "1/4x", "-1/4"}) {
    try {
      (void)parseShard(bad);
      ADD_FAILURE() << bad;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(std::string("bad --shard '") + bad + "'"), std::string::npos) << e.what();
    }
  }
  EXPECT_EQ(shardChunks(10, 2, 4), (std::vector<u64>{1, 5, 9}));
  // Every chunk belongs to exactly one shard, whatever the number of shards.
  for (int shards : {1, 3, 7}) {
    std::vector<int> owners(20, 0);
    for (int s = 1; s <= shards; ++s)
      for (u64 k : shardChunks(20, s, shards)) ++owners[k];
    for (int n : owners) EXPECT_EQ(n, 1);
  }
  EXPECT_EQ(chunkFileName(7), "chunk-000007.janusdat.zst");
  EXPECT_EQ(chunkFileName(1234567), "chunk-1234567.janusdat.zst");
}

}  // namespace
}  // namespace janus::datagen
