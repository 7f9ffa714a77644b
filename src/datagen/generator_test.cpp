// Tests of self-play generation (determinism, the quiet filter, game ends) and PGN extraction.

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>

#include "core/movegen.h"
#include "datagen/generator.h"
#include "datagen/pgn_source.h"
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
  c.randomPlies = 2;
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

TEST(Datagen, GameEndsByTheRulesAndAdjudication) {
  Engine engine;
  engine.setOption("Hash", "1");
  Adjudication adj;
  // KQ vs K: White mates (or the win is adjudicated) and every record says White won.
  GameOutcome won = playGame(engine, Position::fromFen("7k/8/5K2/8/8/8/8/4Q3 w - - 0 1"), 1, 0, 2000, adj);
  EXPECT_EQ(won.result, kWhiteWin);
  EXPECT_TRUE(won.end == GameEnd::kCheckmate || won.end == GameEnd::kAdjudicatedWin) << gameEndName(won.end);
  for (const auto& r : won.records) EXPECT_EQ(r.wdl, kWhiteWin);
  // Checkmate without adjudication.
  Adjudication noAdj;
  noAdj.winScore = 100000;
  GameOutcome mate = playGame(engine, Position::fromFen("7k/8/5K2/8/8/8/8/4Q3 w - - 0 1"), 1, 0, 2000, noAdj);
  EXPECT_EQ(mate.end, GameEnd::kCheckmate);
  EXPECT_EQ(mate.result, kWhiteWin);
  // Already stalemated: no move, no record.
  GameOutcome stale = playGame(engine, Position::fromFen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"), 1, 0, 100, adj);
  EXPECT_EQ(stale.end, GameEnd::kStalemate);
  EXPECT_EQ(stale.plies, 0);
  EXPECT_TRUE(stale.records.empty());
  // KN vs K is insufficient material at once.
  GameOutcome insufficient = playGame(engine, Position::fromFen("7k/8/8/8/8/8/8/KN6 w - - 0 1"), 1, 0, 100, adj);
  EXPECT_EQ(insufficient.end, GameEnd::kInsufficientMaterial);
  EXPECT_EQ(insufficient.result, kDraw);
  // The length limit.
  Adjudication shortGames;
  shortGames.maxPlies = 20;
  GameOutcome capped = playGame(engine, Position(), 3, 0, 200, shortGames);
  EXPECT_LE(capped.plies, 20);
}

TEST(Datagen, BadConfigurationIsAnError) {
  DatagenConfig c = tinyConfig(tempFile("x.jdat"), 1);
  c.games = 0;
  EXPECT_THROW((void)generateData(c), Error);
  c = tinyConfig(tempFile("x.jdat"), 1);
  c.openings = "/nonexistent/book.epd";
  EXPECT_THROW((void)generateData(c), Error);
  EXPECT_FALSE(fs::exists(tempFile("x.jdat")));
}

TEST(PgnSource, PositionsWithResultsFromSharedGames) {
  std::vector<PackedRecord> records;
  PgnExtractStats s = extractPgnPositions(std::string(JANUS_SHARED_DATA) + "/pgn/kasparov-deep-blue-1997.pgn", {},
                                          [&](const PackedRecord& r) { records.push_back(r); });
  EXPECT_EQ(s.games, 6u);
  EXPECT_EQ(s.results[0] + s.results[1] + s.results[2], 6u);
  EXPECT_EQ(s.positions, records.size());
  EXPECT_GT(records.size(), 200u);
  for (const auto& r : records) {
    TrainingPosition t = unpackRecord(r);
    EXPECT_FALSE(t.pos.inCheck());
    EXPECT_EQ(t.score, kNoScore);  // no [%eval] in these games
    EXPECT_GE(t.pos.gamePly(), 8);
  }

  // Lichess masters games carry [%eval]: their scores are kept (White's view).
  u64 scored = 0, n = 0;
  PgnExtractStats m = extractPgnPositions(std::string(JANUS_SHARED_DATA) + "/pgn/matetrack_masters.pgn", {},
                                          [&](const PackedRecord& r) {
                                            ++n;
                                            scored += r.hasScore();
                                          });
  EXPECT_GE(m.games, 40u);
  EXPECT_GT(scored, n / 2);

  // The Crazyhouse game is malformed for standard chess and reported, not fatal.
  PgnExtractStats zh = extractPgnPositions(
      std::string(JANUS_SHARED_DATA) + "/pgn/knightvuillaume-jannlee-zh-lichess.pgn", {}, [](const PackedRecord&) {});
  EXPECT_EQ(zh.games, 0u);
  EXPECT_EQ(zh.malformed, 1u);
  EXPECT_FALSE(zh.errors.empty());
}

}  // namespace
}  // namespace janus::datagen
