// Tests of self-play generation (determinism, the quiet filter, game ends); PGN extraction is in
// pgn_source_test.cpp.

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <set>

#include "core/movegen.h"
#include "datagen/generator.h"
#include "datagen/record.h"
#include "engine/engine.h"
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

  // Every record decodes, is quiet in the filter's sense and carries its game's result.
  DataReader reader(a);
  PackedRecord r;
  u64 whiteRecords = 0;
  while (reader.next(r)) {
    TrainingPosition t = reader.decode(r, reader.index() - 1);
    EXPECT_FALSE(t.pos.inCheck()) << t.pos.fen();
    EXPECT_NE(t.score, kNoScore);
    whiteRecords += t.result == kWhiteWin;
  }
  EXPECT_EQ(reader.index(), pa.positions);
  EXPECT_EQ(whiteRecords > 0, pa.results[kWhiteWin] > 0);
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

}  // namespace
}  // namespace janus::datagen
