// Tests of positions from PGN games: the quiet filter (janus tune) and every position with its
// flags (janus datagen --pgn), plain and zstd-compressed input, and skipped games by reason
// (variants, unfinished, malformed) with the file's line numbers kept.

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>

#include "core/movegen.h"
#include "core/pgn.h"
#include "datagen/pgn_source.h"
#include "records/janusdat.h"
#include "util/error.h"
#include "util/zstd_stream.h"
#include "util/test_temp_dir.h"

namespace janus::datagen {
namespace {

namespace fs = std::filesystem;

const std::string kShared = std::string(JANUS_TEST_DATA) + "/pgn/";

std::string tempFile(const std::string& name) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  return (fs::temp_directory_path() / ("janus_pgnsrc_" + std::to_string(::getpid()) + "_" + info->name() + "_" + name))
      .string();
}

using janus::test::readRaw;

std::vector<records::PackedRecord> extract(const std::string& path, const PgnExtractOptions& options, PgnExtractStats* stats = nullptr) {
  std::vector<records::PackedRecord> out;
  PgnExtractStats s = extractPgnPositions(path, options, [&](const records::PackedRecord& r) { out.push_back(r); });
  if (stats) *stats = s;
  return out;
}

bool sameRecords(const std::vector<records::PackedRecord>& a, const std::vector<records::PackedRecord>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(records::PackedRecord)) == 0);
}

TEST(PgnSource, QuietPositionsWithResultsFromSharedGames) {
  PgnExtractStats s;
  const auto records = extract(kShared + "kasparov-deep-blue-1997.pgn", {}, &s);
  EXPECT_EQ(s.games, 6u);
  EXPECT_EQ(s.results[0] + s.results[1] + s.results[2], 6u);
  EXPECT_EQ(s.positions, records.size());
  EXPECT_GT(records.size(), 200u);
  for (const auto& r : records) {
    records::TrainingPosition t = records::unpackRecord(r);
    EXPECT_FALSE(t.pos.inCheck());
    EXPECT_TRUE(records::recordQuiet(r));
    EXPECT_EQ(t.score, records::kNoScore);  // no [%eval] in these games
    EXPECT_GE(t.pos.gamePly(), 8);
  }
  EXPECT_EQ(s.skippedSummary(), "none");

  // Lichess masters games carry [%eval]: their scores are kept (White's view).
  u64 scored = 0;
  const auto masters = extract(kShared + "matetrack_masters.pgn", {}, &s);
  for (const auto& r : masters) scored += r.hasScore();
  EXPECT_GE(s.games, 40u);
  EXPECT_GT(scored, masters.size() / 2);
}

TEST(PgnSource, EveryPositionWithItsFlags) {
  // Without the quiet filter: every position from ply 8 on that a move was played from, with
  // the flags of that move; the quiet ones are exactly what the filter takes.
  const std::string path = kShared + "kasparov-deep-blue-1997.pgn";
  PgnExtractOptions all;
  all.quietOnly = false;
  PgnExtractStats s;
  const auto records = extract(path, all, &s);
  u64 expected = 0, noisyMoves = 0, checks = 0;
  auto reader = PgnReader::open(path);
  PgnGame game;
  while (reader->next(game)) {
    Position pos = game.startPosition();
    for (size_t i = 0; i < game.moves.size(); ++i) {
      if (i >= 8) {
        ++expected;
        noisyMoves += pos.isNoisy(game.moves[i]);
        checks += pos.inCheck();
      }
      pos.makeMove(game.moves[i]);
    }
  }
  EXPECT_EQ(records.size(), expected);
  EXPECT_EQ(s.positions, expected);
  u64 flaggedNoisy = 0, flaggedCheck = 0, lastOfGame = 0;
  std::vector<records::PackedRecord> quiet;
  for (size_t i = 0; i < records.size(); ++i) {
    const records::PackedRecord& r = records[i];
    flaggedNoisy += records::recordNoisyMove(r);
    flaggedCheck += records::recordInCheck(r);
    const records::TrainingPosition t = records::unpackRecord(r);
    EXPECT_EQ(records::recordInCheck(r), t.pos.inCheck());
    // Version 3: the move played (no search: best 0); within a game it leads to the next record.
    EXPECT_TRUE(t.played);
    EXPECT_FALSE(t.best);
    lastOfGame += t.end.has_value();
    if (!t.end && i + 1 < records.size()) {
      Position next = t.pos;
      next.makeMove(t.played);
      EXPECT_EQ(next.fen(), records::unpackRecord(records[i + 1]).pos.fen());
    }
    if (records::recordQuiet(r)) quiet.push_back(r);
  }
  EXPECT_EQ(lastOfGame, s.games);
  EXPECT_TRUE(records.back().lastOfGame());
  EXPECT_EQ(flaggedNoisy, noisyMoves);
  EXPECT_EQ(flaggedCheck, checks);
  EXPECT_GT(noisyMoves, 30u);
  // The quiet filter takes the same records; the game end sits on the last one taken.
  std::vector<records::PackedRecord> filtered = extract(path, {});
  for (auto* v : {&quiet, &filtered})
    for (records::PackedRecord& r : *v) r.gameEnd = 0;
  EXPECT_TRUE(sameRecords(quiet, filtered));
}

TEST(PgnSource, GameEndsFromTheFinalPositionOrTheTerminationTag) {
  const std::string path = tempFile("ends.pgn");
  std::ofstream(path) << "[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n"
                         "[Result \"1-0\"]\n[Termination \"time forfeit\"]\n\n1. e4 e5 2. Nf3 1-0\n\n"
                         "[Result \"1/2-1/2\"]\n\n1. d4 d5 2. c4 1/2-1/2\n\n"
                         "[Result \"0-1\"]\n[Termination \"Normal\"]\n\n1. e4 f5 2. d4 0-1\n\n"
                         "[Result \"1-0\"]\n[Termination \"adjudication\"]\n\n1. c4 c5 1-0\n\n"
                         "[Result \"1/2-1/2\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 1/2-1/2\n";
  PgnExtractOptions all;
  all.quietOnly = false;
  all.skipPlies = 0;
  std::vector<std::optional<GameEnd>> ends;
  for (const records::PackedRecord& r : extract(path, all))
    if (r.lastOfGame()) ends.push_back(records::recordGameEnd(r));
  const std::vector<std::optional<GameEnd>> expected = {GameEnd::kCheckmate,  GameEnd::kTimeForfeit,
                                                        GameEnd::kAgreedDraw, GameEnd::kResignation,
                                                        GameEnd::kAdjudicatedWin, GameEnd::kRepetition};
  EXPECT_EQ(ends, expected);
  fs::remove(path);
}

TEST(PgnSource, CompressedInputGivesTheSamePositions) {
  const std::string plain = kShared + "matetrack_masters.pgn";
  const std::string zst = tempFile("masters.pgn.zst");
  {
    OutputFile out(zst, true);
    const std::string text = readRaw(plain);
    out.write(text.data(), std::streamsize(text.size()));
    out.commit();
  }
  ASSERT_TRUE(isZstdFile(zst));
  EXPECT_LT(fs::file_size(zst), fs::file_size(plain));
  for (bool quietOnly : {true, false}) {
    PgnExtractOptions o;
    o.quietOnly = quietOnly;
    PgnExtractStats a, b;
    const auto fromPlain = extract(plain, o, &a);
    const auto fromZst = extract(zst, o, &b);
    EXPECT_GT(fromPlain.size(), 1000u);
    EXPECT_TRUE(sameRecords(fromPlain, fromZst));
    EXPECT_EQ(a.games, b.games);
    EXPECT_EQ(a.skippedSummary(), b.skippedSummary());
  }
  fs::remove(zst);

  // Corrupt compressed data is an error naming the file, not a silent short read.
  const std::string bad = tempFile("bad.pgn.zst");
  {
    OutputFile out(bad, true);
    const std::string text = readRaw(plain);
    out.write(text.data(), std::streamsize(text.size()));
    out.commit();
  }
  std::string raw = readRaw(bad);
  raw.resize(raw.size() / 2);
  std::ofstream(bad, std::ios::binary | std::ios::trunc).write(raw.data(), std::streamsize(raw.size()));
  try {
    (void)extract(bad, {});
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(bad), std::string::npos) << e.what();
  }
  fs::remove(bad);
  EXPECT_THROW((void)extract(tempFile("missing.pgn"), {}), Error);
}

TEST(PgnSource, VariantGamesAreSkippedAndCountedByReason) {
  const std::string path = tempFile("mixed.pgn");
  const std::string text =
      "[Event \"standard\"]\n"                                         // 1
      "[Variant \"Standard\"]\n"                                       // 2
      "[Result \"1-0\"]\n"                                             // 3
      "\n"                                                             // 4
      "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 1-0\n"      // 5
      "\n"                                                             // 6
      "[Event \"zh\"]\n"                                               // 7
      "[Variant \"Crazyhouse\"]\n"                                     // 8
      "[Result \"0-1\"]\n"                                             // 9
      "\n"                                                             // 10
      "1. e4 e5 2. Nf3 Nc6 3. N@d5 { a comment\n"                      // 11
      "[%clk 0:03:00] } Bc5 0-1\n"                                     // 12
      "\n"                                                             // 13
      "[Event \"atomic\"] [Variant \"Atomic\"]\n"                      // 14: two tags on one line
      "[Result \"1-0\"]\n"                                             // 15
      "\n"                                                             // 16
      "1. e4 d5 2. exd5 1-0\n"                                         // 17
      "\n"                                                             // 18
      "[Event \"zh again\"]\n"                                         // 19
      "[Variant \"Crazyhouse\"]\n"                                     // 20
      "[Result \"1-0\"]\n"                                             // 21
      "\n"                                                             // 22
      "1. e4 P@e5 1-0\n"                                               // 23
      "\n"                                                             // 24
      "[Event \"960\"]\n"                                              // 25
      "[Variant \"Chess960\"]\n"                                       // 26
      "[FEN \"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9\"]\n"  // 27
      "[Result \"1/2-1/2\"]\n"                                         // 28
      "\n"                                                             // 29
      "9. a4 a5 10. b3 b6 11. c4 Ne7 1/2-1/2\n"                        // 30
      "\n"                                                             // 31
      "[Event \"broken\"]\n"                                           // 32
      "[Result \"1-0\"]\n"                                             // 33
      "\n"                                                             // 34
      "1. e4 e5 2. Qxf7 1-0\n"                                         // 35: illegal move
      "\n"                                                             // 36
      "[Event \"unfinished\"]\n"                                       // 37
      "[Result \"*\"]\n"                                               // 38
      "\n"                                                             // 39
      "1. d4 d5 *\n"                                                   // 40
      "\n"                                                             // 41
      "[Event \"last\"]\n"                                             // 42
      "[Variant \"From Position\"]\n"                                  // 43
      "[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n"                    // 44
      "[Result \"1/2-1/2\"]\n"                                         // 45
      "\n"                                                             // 46
      "1. e4 Kd7 2. Kd2 Kd6 3. Kd3 Ke5 4. Ke3 Kd6 5. Kf4 Ke6 1/2-1/2\n";  // 47
  std::ofstream(path) << text;
  PgnExtractOptions o;
  o.skipPlies = 0;
  o.quietOnly = false;
  PgnExtractStats s;
  const auto records = extract(path, o, &s);
  EXPECT_EQ(s.games, 3u);  // standard, Chess960, from position
  EXPECT_EQ(s.variantGames, 3u);
  EXPECT_EQ(s.variants, (std::map<std::string, u64>{{"Atomic", 1}, {"Crazyhouse", 2}}));
  EXPECT_EQ(s.unfinished, 1u);
  EXPECT_EQ(s.malformed, 1u);
  ASSERT_EQ(s.errors.size(), 1u);
  EXPECT_NE(s.errors[0].find(path + ":35: "), std::string::npos) << s.errors[0];  // the file's line number
  EXPECT_EQ(s.skippedSummary(), "1 variant 'Atomic', 2 variant 'Crazyhouse', 1 unfinished (*), 1 malformed");
  EXPECT_EQ(records.size(), 10u + 6u + 10u);
  int chess960 = 0;
  for (const auto& r : records) chess960 += r.chess960();
  EXPECT_EQ(chess960, 6);

  // Variant tags in other spellings PgnReader accepts: several tags on a line, blanks after '['.
  const std::string spaced = tempFile("spaced.pgn");
  std::ofstream(spaced) << "[Event \"x\"] [ Variant \"Atomic\" ]\n[Result \"1-0\"]\n\n1. e4 1-0\n"
                        << "\n[Event \"y\"]\n[Variant\t\"King of the Hill\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n"
                        << "\n[Event \"z\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n";
  const auto spacedRecords = extract(spaced, o, &s);
  EXPECT_EQ(s.variants, (std::map<std::string, u64>{{"Atomic", 1}, {"King of the Hill", 1}}));
  EXPECT_EQ(s.malformed, 0u);
  EXPECT_EQ(s.games, 1u);
  EXPECT_EQ(spacedRecords.size(), 4u);

  // Lichess's Crazyhouse file in the shared data.
  (void)extract(kShared + "knightvuillaume-jannlee-zh-lichess.pgn", {}, &s);
  EXPECT_EQ(s.games, 0u);
  EXPECT_EQ(s.malformed, 0u);
  EXPECT_EQ(s.variants, (std::map<std::string, u64>{{"Crazyhouse", 1}}));
  fs::remove(path);
  fs::remove(spaced);
}

TEST(PgnSource, LongLinesAndOddInputDoNotConfuseTheFilter) {
  // A variant game with a line longer than the reader's limit, then a standard game: the long
  // line is dropped with its game and the next game is read.
  const std::string path = tempFile("long.pgn");
  {
    std::ofstream out(path);
    out << "[Event \"zh\"]\n[Variant \"Crazyhouse\"]\n[Result \"1-0\"]\n\n1. e4 {" << std::string(3 << 20, 'x')
        << "} 1-0\n\n";
    out << "[Event \"ok\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n";
    // A standard game with an over-long line: the reader reports it (malformed), nothing is lost after it.
    out << "\n[Event \"long\"]\n[Result \"1-0\"]\n\n1. e4 {" << std::string(3 << 20, 'y') << "} 1-0\n";
    out << "\n[Event \"after\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n";
  }
  PgnExtractOptions o;
  o.skipPlies = 0;
  o.quietOnly = false;
  PgnExtractStats s;
  const auto records = extract(path, o, &s);
  EXPECT_EQ(s.variants, (std::map<std::string, u64>{{"Crazyhouse", 1}}));
  EXPECT_EQ(s.games, 2u);
  EXPECT_EQ(s.malformed, 1u);
  EXPECT_EQ(records.size(), 7u + 4u);
  fs::remove(path);
  // An empty file and one without games.
  std::ofstream(path) << "";
  EXPECT_TRUE(extract(path, o).empty());
  std::ofstream(path) << "\n\n% escape line\n\n";
  EXPECT_TRUE(extract(path, o).empty());
  fs::remove(path);
}

}  // namespace
}  // namespace janus::datagen
