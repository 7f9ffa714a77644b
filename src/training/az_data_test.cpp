// Tests of train-az's samples (az_data.h): the score -> WDL model and the blended value target,
// the move played found from the next JANUSDAT record (random games with every kind of move,
// self-play games of `janus datagen`), PGN input, the deterministic split by game, and errors.

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>

#include "core/movegen.h"
#include "core/notation.h"
#include "datagen/generator.h"
#include "encoding/policy_map.h"
#include "engine/engine.h"
#include "mcts/pvnet.h"
#include "records/janusdat.h"
#include "selfplay/record.h"
#include "training/az_data.h"
#include "util/error.h"
#include "util/test_temp_dir.h"
#include "util/zstd_stream.h"

namespace janus::training::az {
namespace {

namespace fs = std::filesystem;

// Each test's files live in its own test::TempDir under fixed names: the validation split hashes the
// file name, so a name with the process id in it would make the split differ from run to run.

void writeRecords(const std::string& path, const std::vector<records::PackedRecord>& records) {
  records::DataWriter out(path, records.size());
  out.write(records.data(), records.size());
  out.commit();
}

/// A version 2 file (32-byte records without moves, as `janus datagen` wrote before version 3).
void writeVersion2Records(const std::string& path, const std::vector<records::PackedRecord>& records) {
  records::FileHeader h = records::makeFileHeader(records.size());
  h.version = 2;
  h.recordSize = sizeof(records::PackedPosition);
  OutputFile out(path, path.ends_with(".zst"));
  out.write(reinterpret_cast<const char*>(&h), sizeof h);
  for (const auto& r : records) out.write(reinterpret_cast<const char*>(&r), sizeof(records::PackedPosition));
  out.commit();
}

/// A game of uniformly random legal moves from `start` (at most `plies`), as records with the
/// moves played (no best move: not searched) and the last one marked as the game's end; the
/// result is written into every record.
struct RandomGame {
  std::vector<records::PackedRecord> records;
  std::vector<Move> moves;
  std::vector<Position> positions;
};

RandomGame randomGame(const Position& start, int plies, std::mt19937_64& rng, records::Wdl result) {
  RandomGame g;
  Position pos = start;
  for (int i = 0; i < plies; ++i) {
    const MoveList moves = legalMoves(pos);
    if (moves.empty() || pos.isInsufficientMaterial()) break;
    const Move m = moves[int(rng() % u64(moves.size()))];
    g.records.push_back(records::packRecord(pos, int(rng() % 401) - 200, result, m));
    g.moves.push_back(m);
    g.positions.push_back(pos);
    pos.makeMove(m);
  }
  if (!g.records.empty()) records::setGameEnd(g.records.back(), GameEnd::kAdjudicatedDraw);
  return g;
}

TEST(AzData, ScoreToWdlIsAProbabilitySymmetricAndCertainForMates) {
  for (int s : {-5000, -400, -120, -1, 0, 1, 50, 120, 400, 5000}) {
    const auto w = scoreToWdl(s, 120, 110);
    EXPECT_NEAR(w[0] + w[1] + w[2], 1.0f, 1e-6f) << s;
    const auto m = scoreToWdl(-s, 120, 110);
    EXPECT_NEAR(w[0], m[2], 1e-6f) << s;
    EXPECT_NEAR(w[1], m[1], 1e-6f) << s;
  }
  EXPECT_NEAR(scoreToWdl(120, 120, 110)[0], 0.5f, 1e-6f);  // score = a: an even chance to win
  EXPECT_GT(scoreToWdl(0, 120, 110)[1], scoreToWdl(0, 120, 110)[0]);  // level: a draw is the likeliest
  EXPECT_GT(scoreToWdl(300, 120, 110)[0], scoreToWdl(200, 120, 110)[0]);
  EXPECT_EQ(scoreToWdl(31990, 120, 110), (std::array<float, 3>{1, 0, 0}));
  EXPECT_EQ(scoreToWdl(-20000, 120, 110), (std::array<float, 3>{0, 0, 1}));
}

TEST(AzData, ValueTargetBlendsResultAndScore) {
  const ValueTargetConfig c{0.25, 120, 110};
  EXPECT_EQ(valueTarget(2, records::kNoScore, c), (std::array<float, 3>{1, 0, 0}));  // no score: the result
  EXPECT_EQ(valueTarget(0, records::kNoScore, c), (std::array<float, 3>{0, 0, 1}));
  const auto s = scoreToWdl(-80, 120, 110);
  const auto t = valueTarget(1, -80, c);
  EXPECT_NEAR(t[0], 0.75f * s[0], 1e-6f);
  EXPECT_NEAR(t[1], 0.25f + 0.75f * s[1], 1e-6f);
  EXPECT_NEAR(t[2], 0.75f * s[2], 1e-6f);
}

TEST(AzData, FitWdlModelRecoversTheModelThatMadeTheResults) {
  // Results drawn from the model with a = 150, b = 90.
  std::mt19937_64 rng(5);
  std::vector<std::pair<int, int>> pairs;
  for (int i = 0; i < 20000; ++i) {
    const int score = int(rng() % 1201) - 600;
    const auto w = scoreToWdl(score, 150, 90);
    const double u = double(rng() >> 11) * 0x1.0p-53;
    pairs.emplace_back(score, u < w[0] ? 2 : u < w[0] + w[1] ? 1 : 0);
  }
  const auto [a, b] = fitWdlModel(pairs);
  EXPECT_NEAR(a, 150, 15);
  EXPECT_NEAR(b, 90, 15);
}

TEST(AzData, MoveBetweenConsecutiveRecordsIsTheMovePlayed) {
  // Random games reach castling, en passant, captures, promotions (also under-promotions) and
  // checks; every move must be found, in standard chess and Chess960.
  std::mt19937_64 rng(11);
  int found = 0, castles = 0, promotions = 0, enPassant = 0;
  const Position starts[] = {Position(), Position::fromFen("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", true),
                             Position::fromFen("8/P1k5/8/8/8/8/5Kp1/8 w - - 0 1"),
                             Position::fromFen("r3k2r/pppq1ppp/2n2n2/3pp3/3PP3/2N2N2/PPPQ1PPP/R3K2R w KQkq - 0 1")};
  for (const Position& start : starts)
    for (int game = 0; game < 40; ++game) {
      const RandomGame g = randomGame(start, 120, rng, records::kDraw);
      for (std::size_t i = 0; i + 1 < g.records.size(); ++i) {
        const Move m = moveBetween(g.positions[i], g.records[i + 1]);
        ASSERT_EQ(m, g.moves[i]) << g.positions[i].fen();
        ++found;
        castles += m.isCastling();
        promotions += m.isPromotion();
        enPassant += m.isEnPassant();
      }
      // Two plies apart, or the start again: no move.
      if (g.records.size() >= 3) {
        EXPECT_FALSE(moveBetween(g.positions[0], g.records[2]));
      }
      if (g.records.size() >= 2) {
        EXPECT_FALSE(moveBetween(g.positions[1], g.records[0]));
      }
    }
  EXPECT_GT(found, 5000);
  EXPECT_GT(castles, 0);
  EXPECT_GT(promotions, 0);
  EXPECT_GT(enPassant, 0);
}

/// Two games of `janus datagen` one after the other, as a chunk holds them.
std::vector<datagen::GameOutcome> datagenGames() {
  Engine engine;
  engine.setOption("Hash", "1");
  datagen::Adjudication adj;
  adj.maxPlies = 60;
  std::vector<datagen::GameOutcome> games;
  for (u64 seed : {3, 4}) games.push_back(datagen::playGame(engine, Position(), seed, {.plies = 4, .scoreLimit = 0}, 300, adj));
  return games;
}

TEST(AzData, VersionTwoSelfPlayGamesGetEveryMoveButTheLastFromTheNextRecord) {
  test::TempDir dir;
  // Version 2 files have no moves: the loader finds them from the next record (moveBetween).
  std::vector<records::PackedRecord> all;
  const std::vector<datagen::GameOutcome> games = datagenGames();
  for (const auto& g : games) all.insert(all.end(), g.records.begin(), g.records.end());
  ASSERT_GT(games[0].records.size(), 10u);
  // Replaying the moves found from the game's start reproduces every record.
  for (const auto& g : games) {
    Position pos = records::unpackRecord(g.records[0]).pos;  // the book position: the opening plies are records
    for (std::size_t i = 0; i + 1 < g.records.size(); ++i) {
      const Move m = moveBetween(pos, g.records[i + 1]);
      ASSERT_TRUE(m) << "record " << i << " " << pos.fen();
      EXPECT_EQ(pos.isNoisy(m), records::recordNoisyMove(g.records[i]));
      EXPECT_EQ(records::encodeMove(m), g.records[i].played);
      pos.makeMove(m);
      const records::PackedRecord again = records::packRecord(pos, g.records[i + 1].score, records::kDraw);
      EXPECT_EQ(std::memcmp(&g.records[i + 1], &again, 28), 0);
    }
  }
  const std::string path = dir.file("selfplay.janusdat.zst");
  writeVersion2Records(path, all);
  LoadOptions o;
  o.files = {path};
  o.valFraction = 0;
  const LoadedData d = loadData(o);
  EXPECT_EQ(d.stats.records, all.size());
  EXPECT_EQ(d.stats.games, 2u);
  EXPECT_EQ(d.stats.lastOfGame, 2u);
  EXPECT_EQ(d.stats.gapInGame, 0u);
  EXPECT_EQ(d.stats.noisyMismatch, 0u);
  EXPECT_EQ(d.stats.recordsWithMove, all.size() - 2);
  EXPECT_EQ(d.stats.movesGiven, 0u);
  ASSERT_EQ(d.train.size(), all.size());
  EXPECT_EQ(d.train.withMove(), all.size() - 2);
  // Sample 0: the first record's position, its inputs, legal moves and the move found.
  const Position p0 = records::unpackRecord(all[0]).pos;
  const SampleView s0 = d.train[0];
  const Move m0 = moveBetween(p0, all[1]);
  EXPECT_EQ(s0.target, encoding::policyIndex(p0, m0));
  EXPECT_EQ(s0.legal.size(), std::size_t(legalMoves(p0).size()));
  std::array<int, mcts::pvnet::kMaxActive> f{};
  const int n = mcts::pvnet::sideToMoveFeatures(p0, f);
  ASSERT_EQ(s0.features.size(), std::size_t(n));
  for (int i = 0; i < n; ++i) EXPECT_EQ(s0.features[i], f[i]);
  EXPECT_EQ(d.train[games[0].records.size() - 1].target, -1);  // the last record of game 1
  EXPECT_EQ(d.train[all.size() - 1].target, -1);
}

TEST(AzData, VersionThreeRecordsGiveTheirOwnMovesAndGameEnds) {
  test::TempDir dir;
  // Version 3: the policy target is the record's best move (the search's choice, also on the
  // random opening plies), games end at the records marked so, and every record has a move
  // (the last one of a game too).
  std::vector<records::PackedRecord> all;
  const std::vector<datagen::GameOutcome> games = datagenGames();
  for (const auto& g : games) all.insert(all.end(), g.records.begin(), g.records.end());
  const std::string path = dir.file("selfplay3.janusdat.zst");
  writeRecords(path, all);
  LoadOptions o;
  o.files = {path};
  o.valFraction = 0;
  const LoadedData d = loadData(o);
  EXPECT_EQ(d.stats.records, all.size());
  EXPECT_EQ(d.stats.games, 2u);
  EXPECT_EQ(d.stats.movesGiven, all.size());
  EXPECT_EQ(d.stats.recordsWithMove, 0u);  // nothing was searched for
  EXPECT_EQ(d.stats.lastOfGame, 0u);
  ASSERT_EQ(d.train.size(), all.size());
  EXPECT_EQ(d.train.withMove(), all.size());
  int openingWithOtherBest = 0;
  for (std::size_t i = 0; i < all.size(); ++i) {
    const records::TrainingPosition t = records::unpackRecord(all[i]);
    EXPECT_EQ(d.train[i].target, encoding::policyIndex(t.pos, t.best)) << i;
    openingWithOtherBest += t.openingPly && t.played != t.best;
  }
  EXPECT_GT(openingWithOtherBest, 0) << "no random ply differed from the search's move: the test shows nothing";

  // The move in the record is used as is: record 5's played move is replaced by another legal
  // move (so the next record no longer follows from it, which a move search would notice); its
  // sample's target is that move, and the game still ends only at its marked record.
  std::mt19937_64 rng(5);
  RandomGame g = randomGame(Position(), 20, rng, records::kWhiteWin);
  ASSERT_EQ(g.records.size(), 20u);
  const MoveList legal = legalMoves(g.positions[5]);
  const Move other = legal[0] == g.moves[5] ? legal[1] : legal[0];
  g.records[5].played = records::encodeMove(other);
  const std::string given = dir.file("given.janusdat");
  writeRecords(given, g.records);
  o.files = {given};
  const LoadedData e = loadData(o);
  EXPECT_EQ(e.stats.games, 1u);
  ASSERT_EQ(e.train.size(), 20u);
  EXPECT_EQ(e.train[5].target, encoding::policyIndex(g.positions[5], other));
  EXPECT_NE(moveBetween(g.positions[5], g.records[6]), other);
}

TEST(AzData, PgnGamesGiveEveryMoveWithResultAndEval) {
  test::TempDir dir;
  const std::string path = dir.file("games.pgn");
  std::ofstream(path) << "[Event \"a\"]\n[Result \"1-0\"]\n\n"
                         "1. e4 { [%eval 0.3] } e5 { [%eval 0.25] } 2. Qh5 { [%eval 0.1] } Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n"
                         "[Event \"b\"]\n[Variant \"Atomic\"]\n[Result \"0-1\"]\n\n1. e4 d5 0-1\n\n"
                         "[Event \"c\"]\n[Result \"*\"]\n\n1. d4 *\n\n"
                         "[Event \"d\"]\n[Result \"1/2-1/2\"]\n\n1. d4 d5 1/2-1/2\n";
  LoadOptions o;
  o.files = {path};
  o.valFraction = 0;
  o.value = {0.5, 120, 110};
  const LoadedData d = loadData(o);
  EXPECT_EQ(d.stats.pgnFiles, 1u);
  EXPECT_EQ(d.stats.games, 2u);
  EXPECT_EQ(d.stats.pgnSkippedGames, 2u);
  ASSERT_EQ(d.train.size(), 9u);  // 7 plies of game a, 2 of game d
  EXPECT_EQ(d.train.withMove(), 9u);
  Position pos;
  EXPECT_EQ(d.train[0].target, encoding::policyIndex(pos, Move(kE2, kE4)));
  EXPECT_EQ(d.train[0].wdl, (std::array<float, 3>{1, 0, 0}));  // White won, no eval before the first move
  // After 1. e4 (eval +0.30 for White): Black to move lost the game.
  const auto s = scoreToWdl(-30, 120, 110);
  EXPECT_NEAR(d.train[1].wdl[2], 0.5f + 0.5f * s[2], 1e-6f);
  EXPECT_NEAR(d.train[1].wdl[0], 0.5f * s[0], 1e-6f);
  EXPECT_EQ(d.stats.withScore, 3u);
  // Game d is a draw; its first position is the start position again.
  EXPECT_EQ(d.train[7].wdl, (std::array<float, 3>{0, 1, 0}));
  EXPECT_EQ(d.train[7].target, encoding::policyIndex(pos, Move(kD2, kD4)));
  o.pgnSkipPlies = 2;
  EXPECT_EQ(loadData(o).train.size(), 5u);
}

TEST(AzData, SplitIsByGameAndDeterministic) {
  test::TempDir dir;
  std::mt19937_64 rng(2);
  std::vector<records::PackedRecord> all;
  std::vector<std::size_t> gameSizes;
  for (int g = 0; g < 60; ++g) {
    const RandomGame game = randomGame(Position(), 8 + int(rng() % 10), rng, records::Wdl(g % 3));
    all.insert(all.end(), game.records.begin(), game.records.end());
    gameSizes.push_back(game.records.size());
  }
  const std::string path = dir.file("games.janusdat");
  writeRecords(path, all);
  LoadOptions o;
  o.files = {path};
  o.valFraction = 0.3;
  o.threads = 2;
  const LoadedData a = loadData(o), b = loadData(o);
  EXPECT_EQ(a.stats.games, 60u);
  EXPECT_EQ(a.train.size() + a.validation.size(), all.size());
  EXPECT_EQ(a.train.hash(), b.train.hash());
  EXPECT_EQ(a.validation.hash(), b.validation.hash());
  EXPECT_GT(a.stats.validationGames, 8u);
  EXPECT_LT(a.stats.validationGames, 30u);
  // Version 3 records carry their moves: every sample has one, the last of a game too.
  EXPECT_EQ(a.validation.withMove(), a.validation.size());
  EXPECT_EQ(a.train.withMove(), a.train.size());
  EXPECT_EQ(a.stats.trainGames + a.stats.validationGames, 60u);
  o.seed = 9;
  EXPECT_NE(loadData(o).validation.hash(), a.validation.hash());
  // Explicit validation files replace the fraction.
  o.validationFiles = {path};
  const LoadedData c = loadData(o);
  EXPECT_EQ(c.train.size(), all.size());
  EXPECT_EQ(c.validation.size(), all.size());
  // --limit cuts the total.
  o.validationFiles.clear();
  o.limit = 100;
  const LoadedData l = loadData(o);
  EXPECT_EQ(l.train.size() + l.validation.size(), 100u);
  // The same games in version 2 under the same name (the split hashes it): the boundaries found
  // by moveBetween give the same split, and the last record of each game is value-only, so
  // value-only samples = games per side.
  writeVersion2Records(path, all);
  o.limit = 0;
  o.seed = LoadOptions().seed;
  const LoadedData a2 = loadData(o);
  EXPECT_EQ(a2.stats.validationGames, a.stats.validationGames);
  EXPECT_EQ(a2.validation.size(), a.validation.size());
  EXPECT_EQ(a2.validation.size() - a2.validation.withMove(), a2.stats.validationGames);
  EXPECT_EQ(a2.train.size() - a2.train.withMove(), a2.stats.trainGames);
}

TEST(AzData, BadInputIsAClearError) {
  test::TempDir dir;
  auto message = [](const LoadOptions& o) {
    try {
      (void)loadData(o);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  LoadOptions o;
  EXPECT_NE(message(o).find("no training files"), std::string::npos);
  o.files = {dir.file("missing.janusdat")};
  EXPECT_NE(message(o).find("does not exist"), std::string::npos);
  std::mt19937_64 rng(1);
  const std::string path = dir.file("g.janusdat");
  writeRecords(path, randomGame(Position(), 40, rng, records::kDraw).records);
  o.files = {path};
  o.memoryBudgetBytes = 2000;
  EXPECT_NE(message(o).find("memory budget"), std::string::npos);
  o.memoryBudgetBytes = u64(1) << 30;
  o.valFraction = 0.7;
  EXPECT_NE(message(o).find("--val-fraction"), std::string::npos);
  o.valFraction = 0.1;
  o.value.lambda = 1.5;
  EXPECT_NE(message(o).find("--lambda"), std::string::npos);

  Dataset d;
  const int f[] = {1, 2}, legal[] = {5, 6};
  EXPECT_THROW(d.add(f, legal, 7, {1, 0, 0}), Error);  // target not legal
  const int badF[] = {800};
  EXPECT_THROW(d.add(badF, legal, 5, {1, 0, 0}), Error);
  d.add(f, legal, 6, {0, 1, 0});
  EXPECT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].target, 6);
}

}  // namespace
}  // namespace janus::training::az

namespace janus::training::az {
namespace {

TEST(AzData, SelfplayRecordsGiveTheVisitDistributionsOfTheFullSearches) {
  test::TempDir dir;
  // 1. e4 (full search: e2e4 40000, d2d4 25535) e5 (fast) 2. Nf3 (full: g1f3 only); White won.
  selfplay::SelfplayGame g;
  Position pos;
  g.start = records::packPosition(pos, records::kNoScore, records::kWhiteWin);
  g.result = records::kWhiteWin;
  g.end = GameEnd::kResignation;
  const char* moves[] = {"e2e4", "e7e5", "g1f3"};
  for (int i = 0; i < 3; ++i) {
    const Move m = parseUci(pos, moves[i], false);
    selfplay::SelfplayPly ply;
    ply.move = u16(encoding::policyIndex(pos, m));
    if (i != 1) {
      ply.flags = selfplay::kPlyFullSearch;
      ply.visits.push_back({ply.move, u16(i == 0 ? 40000 : 65535)});
      if (i == 0) ply.visits.push_back({u16(encoding::policyIndex(pos, parseUci(pos, "d2d4", false))), 25535});
    }
    g.plies.push_back(ply);
    pos.makeMove(m);
  }
  const std::string path = dir.file("games.janussp.zst");
  {
    selfplay::SelfplayWriter w(path, 1);
    w.write(g);
    w.commit();
  }
  EXPECT_TRUE(isSelfplayFile(path));
  EXPECT_FALSE(isJanusdatFile(path));
  LoadOptions o;
  o.files = {path};
  o.valFraction = 0;
  const LoadedData d = loadData(o);
  EXPECT_EQ(d.stats.selfplayFiles, 1u);
  EXPECT_EQ(d.stats.selfplayPlies, 3u);
  ASSERT_EQ(d.train.size(), 2u);  // the fast search's position is not a sample
  const SampleView first = d.train[0];
  ASSERT_EQ(first.shares.size(), first.legal.size());
  const Position start;
  const int e4 = encoding::policyIndex(start, parseUci(start, "e2e4", false));
  const int d4 = encoding::policyIndex(start, parseUci(start, "d2d4", false));
  EXPECT_EQ(first.target, e4);  // the most visited move
  int sum = 0;
  for (std::size_t k = 0; k < first.legal.size(); ++k) {
    sum += first.shares[k];
    if (first.legal[k] == e4) EXPECT_EQ(first.shares[k], 40000);
    else if (first.legal[k] == d4) EXPECT_EQ(first.shares[k], 25535);
    else EXPECT_EQ(first.shares[k], 0);
  }
  EXPECT_EQ(sum, 65535);
  EXPECT_EQ(first.wdl, (std::array<float, 3>{1, 0, 0}));   // White to move, White won
  EXPECT_EQ(d.train[1].wdl, (std::array<float, 3>{1, 0, 0}));  // White again (ply 2)
  EXPECT_NE(describeLoad(d.stats, d.train.bytes()).find("JANUSSP: 3 plies"), std::string::npos);

  // A visit index that is not a legal move is an error naming the file and the game.
  g.plies[2].visits[0].policyIndex = 0;
  const std::string bad = dir.file("bad.janussp");
  {
    selfplay::SelfplayWriter w(bad, 1);
    w.write(g);
    w.commit();
  }
  o.files = {bad};
  try {
    (void)loadData(o);
    ADD_FAILURE() << "an illegal visit index was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("bad.janussp"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("ply 2"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace janus::training::az
