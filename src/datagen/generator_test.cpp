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

#include "core/movegen.h"
#include "core/notation.h"
#include "datagen/generator.h"
#include "engine/engine.h"
#include "nnue/test_net.h"
#include "records/janusdat.h"
#include "util/error.h"
#include "util/test_temp_dir.h"

namespace janus::datagen {
namespace {

using test::TempDir;

namespace fs = std::filesystem;

std::string tempFile(const std::string& name) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  return (fs::temp_directory_path() /
          ("janus_datagen_" + std::to_string(::getpid()) + "_" + info->name() + "_" + name))
      .string();
}

using janus::test::readRaw;

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

/// Checks the records of a generated file: within a game, record i's position plus its played
/// move is record i + 1's position; the game's first records are its opening plies (flagged,
/// searched: a best move and a score), then engine moves with played = best; only the last record
/// of a game has a game end, and every record of a game has its result; flags agree with the
/// positions. `p` is the progress of the run that wrote `path`.
void expectGamesChain(const std::string& path, const DatagenProgress& p) {
  records::DataReader reader(path);
  EXPECT_EQ(reader.version(), records::kFormatVersion);
  records::PackedRecord r;
  std::vector<records::TrainingPosition> game;
  u64 games = 0, opening = 0, noisy = 0, linked = 0;
  u64 ends[kGameEndCount] = {};
  auto checkGame = [&] {
    ASSERT_FALSE(game.empty());
    ASSERT_TRUE(game.back().end.has_value());
    ++ends[int(*game.back().end)];
    bool inOpening = true;
    for (size_t i = 0; i < game.size(); ++i) {
      const records::TrainingPosition& t = game[i];
      EXPECT_EQ(t.result, game.back().result);
      EXPECT_EQ(t.end.has_value(), i + 1 == game.size());
      EXPECT_TRUE(t.played) << t.pos.fen();
      EXPECT_TRUE(t.best) << t.pos.fen();
      EXPECT_NE(t.score, records::kNoScore);
      if (!t.openingPly) inOpening = false;
      EXPECT_EQ(t.openingPly, inOpening) << "opening plies come first";
      if (!t.openingPly) {
        EXPECT_EQ(t.played, t.best);
      }
      opening += t.openingPly;
      if (i + 1 < game.size()) {
        Position next = t.pos;
        next.makeMove(t.played);
        EXPECT_EQ(next.fen(), game[i + 1].pos.fen()) << "record " << i << " of game " << games;
        EXPECT_EQ(next.key(), game[i + 1].pos.key());
        ++linked;
      }
    }
    ++games;
    game.clear();
  };
  while (reader.next(r)) {
    records::TrainingPosition t = reader.decode(r, reader.index() - 1);
    EXPECT_EQ(records::recordInCheck(r), t.pos.inCheck()) << t.pos.fen();
    EXPECT_EQ(records::recordNoisyMove(r), t.pos.isNoisy(t.played)) << t.pos.fen();
    noisy += records::recordNoisyMove(r);
    game.push_back(std::move(t));
    if (game.back().end) checkGame();
  }
  EXPECT_TRUE(game.empty()) << "the file ends inside a game";
  EXPECT_EQ(reader.index(), p.positions);
  EXPECT_EQ(games, u64(p.gamesDone));
  EXPECT_EQ(opening, p.openingPlies);
  EXPECT_EQ(p.positions, p.plies + p.openingPlies);  // one record per engine move and per opening ply
  EXPECT_EQ(linked + games, p.positions);
  EXPECT_GT(noisy, 0u);  // captures are recorded
  for (int e = 0; e < kGameEndCount; ++e) EXPECT_EQ(ends[e], p.ends[e]) << gameEndName(GameEnd(e));
}

TEST(Datagen, DeterministicAtTinySizes) {
  const std::string a = tempFile("a.jdat"), b = tempFile("b.jdat"), c = tempFile("c.jdat");
  DatagenProgress pa = generateData(tinyConfig(a, 1));
  DatagenProgress pb = generateData(tinyConfig(b, 1));
  DatagenProgress pc = generateData(tinyConfig(c, 2));  // order of writing does not depend on threads
  EXPECT_EQ(pa.gamesDone, 2);
  EXPECT_GT(pa.positions, 10u);
  EXPECT_GE(pa.openingPlies, 4u);  // 2 or 3 random plies per game
  EXPECT_EQ(pa.results[0] + pa.results[1] + pa.results[2], 2u);
  const std::string ra = readRaw(a);
  EXPECT_EQ(ra.size(), 32 + pa.positions * 40);
  EXPECT_EQ(ra, readRaw(b));
  EXPECT_EQ(ra, readRaw(c));
  EXPECT_EQ(pa.positions, pb.positions);
  EXPECT_EQ(pa.positions, pc.positions);

  // Another seed gives other games.
  DatagenConfig other = tinyConfig(b, 1);
  other.seed = 8;
  (void)generateData(other);
  EXPECT_NE(ra, readRaw(b));

  expectGamesChain(a, pa);
  for (const auto& f : {a, b, c}) fs::remove(f);
}

const StartRandomisation kNoRandomisation{.plies = 0, .scoreLimit = 0};

TEST(Datagen, GameEndsByTheRulesAndAdjudication) {
  Engine engine;
  engine.setOption("Hash", "1");
  Adjudication adj;
  // KQ vs K: White mates (or the win is adjudicated) and every record says White won.
  GameOutcome won = playGame(engine, Position::fromFen("7k/8/5K2/8/8/8/8/4Q3 w - - 0 1"), 1, kNoRandomisation, 2000, adj);
  EXPECT_EQ(won.result, records::kWhiteWin);
  EXPECT_TRUE(won.end == GameEnd::kCheckmate || won.end == GameEnd::kAdjudicatedWin) << gameEndName(won.end);
  for (const auto& r : won.records) EXPECT_EQ(r.wdl, records::kWhiteWin);
  // Only the last record carries the game end (1 + code).
  ASSERT_FALSE(won.records.empty());
  for (size_t i = 0; i + 1 < won.records.size(); ++i) EXPECT_EQ(won.records[i].gameEnd, 0);
  EXPECT_EQ(records::recordGameEnd(won.records.back()), won.end);
  EXPECT_EQ(won.openingPlies, 0);
  // Checkmate without adjudication.
  Adjudication noAdj;
  noAdj.winScore = 100000;
  GameOutcome mate = playGame(engine, Position::fromFen("7k/8/5K2/8/8/8/8/4Q3 w - - 0 1"), 1, kNoRandomisation, 2000, noAdj);
  EXPECT_EQ(mate.end, GameEnd::kCheckmate);
  EXPECT_EQ(mate.result, records::kWhiteWin);
  // The last record is the position before the mating move, which it holds.
  Position mated = records::unpackRecord(mate.records.back()).pos;
  mated.makeMove(records::unpackRecord(mate.records.back()).played);
  EXPECT_EQ(rulesGameEnd(mated), GameEnd::kCheckmate);
  EXPECT_EQ(mate.records.back().gameEnd, 1 + int(GameEnd::kCheckmate));
  // Already stalemated: no move, no record.
  GameOutcome stale = playGame(engine, Position::fromFen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"), 1, kNoRandomisation, 100, adj);
  EXPECT_EQ(stale.end, GameEnd::kStalemate);
  EXPECT_EQ(stale.plies, 0);
  EXPECT_TRUE(stale.records.empty());
  // KN vs K is insufficient material at once.
  GameOutcome insufficient = playGame(engine, Position::fromFen("7k/8/8/8/8/8/8/KN6 w - - 0 1"), 1, kNoRandomisation, 100, adj);
  EXPECT_EQ(insufficient.end, GameEnd::kInsufficientMaterial);
  EXPECT_EQ(insufficient.result, records::kDraw);
  // The length limit.
  Adjudication shortGames;
  shortGames.maxPlies = 20;
  GameOutcome capped = playGame(engine, Position(), 3, kNoRandomisation, 200, shortGames);
  EXPECT_LE(capped.plies, 20);
}

Position afterLine(const Position& base, const std::vector<Move>& line) {
  Position p = base;
  for (Move m : line) p.makeMove(m);
  return p;
}

TEST(Datagen, RandomOpeningPlaysROrRPlusOnePliesSoBothSidesGetToMove) {
  const Position base;  // White to move, like every line of the shipped book
  int whiteToMove = 0, blackToMove = 0;
  for (u64 seed = 1; seed <= 200; ++seed) {
    std::mt19937_64 rng(seed);
    const std::vector<Move> line = randomOpening(base, rng, 4);
    const Position p = afterLine(base, line);
    ASSERT_TRUE(line.size() == 4 || line.size() == 5) << "seed " << seed << ": " << line.size() << " plies";
    ASSERT_TRUE(hasLegalMove(p)) << p.fen();
    (p.sideToMove() == kWhite ? whiteToMove : blackToMove) += 1;
    std::mt19937_64 again(seed);
    EXPECT_EQ(randomOpening(base, again, 4), line) << "seed " << seed;
  }
  // An even count alone would leave White to move in all 200 games (the colour bias this avoids).
  EXPECT_GT(whiteToMove, 60);
  EXPECT_GT(blackToMove, 60);
}

TEST(Datagen, RandomOpeningKeepsTheBaseWhenNoRandomLineWorks) {
  std::mt19937_64 rng(3);
  EXPECT_TRUE(randomOpening(Position(), rng, 0).empty());
  EXPECT_EQ(rng(), std::mt19937_64(3)());  // nothing drawn for 0 plies
  // K+B v K: every random line ends in insufficient material, so all 8 attempts fail.
  const Position drawn = Position::fromFen("7k/8/8/8/8/8/8/KB6 w - - 0 1");
  EXPECT_TRUE(randomOpening(drawn, rng, 3).empty());
  // Here many White moves stalemate Black (Kb5, Ka6, ...) and Qb7 mates: such lines are retried, so
  // the start position never is a finished game.
  const Position p = Position::fromFen("k7/2Q5/1K6/8/8/8/8/8 w - - 0 1");
  for (u64 seed = 1; seed <= 50; ++seed) {
    std::mt19937_64 r(seed);
    const Position q = afterLine(p, randomOpening(p, r, 1));
    EXPECT_TRUE(hasLegalMove(q)) << "seed " << seed << ": " << q.fen();
  }
}

TEST(Datagen, OpeningPliesAreRecordedWithTheirSearch) {
  // The random plies after the book position are records too: each position searched with the
  // game's node limit (its score and best move), the random move as the move played.
  Engine engine;
  engine.setOption("Hash", "1");
  Adjudication shortGames;
  shortGames.maxPlies = 12;
  for (u64 seed = 1; seed <= 4; ++seed) {
    const GameOutcome g = playGame(engine, Position(), seed, {.plies = 3, .scoreLimit = 300}, 300, shortGames);
    const int random = g.start.gamePly();
    ASSERT_EQ(g.openingPlies, random) << "every random ply is recorded";
    ASSERT_EQ(int(g.records.size()), g.openingPlies + g.plies);
    Position pos;
    for (int i = 0; i < int(g.records.size()); ++i) {
      const records::TrainingPosition t = records::unpackRecord(g.records[size_t(i)]);
      EXPECT_EQ(t.pos.fen(), pos.fen());
      EXPECT_EQ(t.openingPly, i < random);
      EXPECT_TRUE(t.best);
      if (i >= random) {
        EXPECT_EQ(t.played, t.best);
      }
      pos.makeMove(t.played);
    }
    if (g.plies > 0) {
      EXPECT_EQ(records::unpackRecord(g.records[size_t(random)]).pos.fen(), g.start.fen());
    }
    // The same seed plays the same game (the searches come in a fixed order).
    const GameOutcome again = playGame(engine, Position(), seed, {.plies = 3, .scoreLimit = 300}, 300, shortGames);
    ASSERT_EQ(again.records.size(), g.records.size());
    EXPECT_EQ(std::memcmp(again.records.data(), g.records.data(), g.records.size() * sizeof(records::PackedRecord)), 0);
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

/// Short games (30 plies at most) so that a chunked run of several chunks stays fast.
DatagenConfig shortGames(int games) {
  DatagenConfig c = tinyConfig("", 2);
  c.games = games;
  c.nodes = 200;
  c.adjudication.maxPlies = 30;
  c.seed = 11;
  return c;
}

std::string expectChunkError(const DatagenConfig& c, const records::ChunkedRun& run, const std::string& needle) {
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
  records::ChunkedRun run{.dir = runDir, .chunkGames = 2, .shard = 1, .shards = 2, .resume = false};
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
  records::ChunkedRun all{.dir = runDir, .chunkGames = 2, .shard = 1, .shards = 1, .resume = false};
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
  std::vector<records::PackedRecord> joined;
  for (int k = 0; k < 3; ++k) {
    const std::string path = runDir + "/" + chunkFileName(u64(k));
    records::DataReader reader(path);
    ASSERT_TRUE(reader.declaredCount().has_value());
    EXPECT_EQ(*reader.declaredCount(), reports[size_t(k)].positions);
    for (const auto& r : records::readRecords(path)) joined.push_back(r);
  }
  const std::vector<records::PackedRecord> expected = records::readRecords(single);
  ASSERT_EQ(joined.size(), expected.size());
  EXPECT_EQ(std::memcmp(joined.data(), expected.data(), joined.size() * sizeof(records::PackedRecord)), 0);
  EXPECT_EQ(whole.positions, expected.size());
  expectGamesChain(single, whole);
  for (const auto& e : fs::directory_iterator(runDir))
    EXPECT_FALSE(e.path().string().ends_with(".tmp")) << e.path();
}

TEST(DatagenChunks, SettingsAndDirectoryAreChecked) {
  TempDir dir;
  const std::string runDir = dir.file("run");
  records::ChunkedRun run{.dir = runDir, .chunkGames = 1, .shard = 1, .shards = 3, .resume = false};
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
  records::ChunkedRun otherChunks = run;
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

  // A run of an older format (version 2 records) is not resumed in version 3.
  {
    const std::string manifest = runDir + "/" + kRunManifestName;
    std::ifstream in(manifest);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::string v3 = "\nformat 3\n";
    ASSERT_NE(text.find(v3), std::string::npos) << text;
    const std::string v2 = dir.file("v2run");
    fs::create_directories(v2);
    std::ofstream(v2 + "/" + kRunManifestName) << text.replace(text.find(v3), v3.size(), "\nformat 2\n");
    expectChunkError(c, {.dir = v2, .chunkGames = 1, .shard = 1, .shards = 3, .resume = true},
                     "made with format 2, this command has format 3");
  }

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
  records::ChunkedRun run{.dir = runDir, .chunkGames = 1, .shard = 1, .shards = 1, .resume = true};
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
  const auto ra = records::readRecords(a), rb = records::readRecords(b);
  ASSERT_FALSE(ra.empty());
  ASSERT_FALSE(rb.empty());
  // (The whole game's scores: one score may agree by chance.)
  bool differ = ra.size() != rb.size();
  for (size_t i = 0; i < std::min(ra.size(), rb.size()); ++i) differ |= ra[i].score != rb[i].score;
  EXPECT_TRUE(differ) << "the HCE and the network gave the same " << ra.size() << " scores";

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
  records::ChunkedRun run{.dir = runDir, .chunkGames = 1, .shard = 1, .shards = 1, .resume = false};
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

TEST(DatagenChunks, ChunkFileNames) {
  EXPECT_EQ(chunkFileName(7), "chunk-000007.janusdat.zst");
  EXPECT_EQ(chunkFileName(1234567), "chunk-1234567.janusdat.zst");
}

}  // namespace
}  // namespace janus::datagen
