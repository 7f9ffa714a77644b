// Tests of the NNUE trainer's data loader: record -> sample conversion (side to move's view),
// features, the filters and their counts, the validation split and errors naming the file.

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <optional>
#include <random>
#include <set>

#include "core/bitboard.h"
#include "nnue/format.h"
#include "records/janusdat.h"
#include "training/nnue_data.h"
#include "training/test_support.h"
#include "util/error.h"
#include "util/test_error.h"

namespace janus::training {
namespace {

using test::TempDir;

using janus::test::errorOf;

TEST(TrainingData, RecordToSampleIsFromTheSideToMove) {
  // Black to move; White's view score +120 and a White win become -120 and a loss for Black.
  const Position pos = Position::fromFen("r3k2r/pp3ppp/8/3q4/8/8/PP3PPP/R3K2R b KQkq - 3 17");
  Sample s;
  ASSERT_TRUE(sampleFromRecord(records::packRecord(pos, 120, records::kWhiteWin), s));
  EXPECT_EQ(s.stm, 1);
  EXPECT_EQ(s.score, -120);
  EXPECT_EQ(s.wdl, 0);
  EXPECT_EQ(s.pieceCount, popCount(pos.pieces()));
  // White to move keeps the signs.
  const Position white = Position::fromFen("r3k2r/pp3ppp/8/3q4/8/8/PP3PPP/R3K2R w KQkq - 3 17");
  ASSERT_TRUE(sampleFromRecord(records::packRecord(white, -75, records::kBlackWin), s));
  EXPECT_EQ(s.stm, 0);
  EXPECT_EQ(s.score, -75);
  EXPECT_EQ(s.wdl, 0);
  ASSERT_TRUE(sampleFromRecord(records::packRecord(white, records::kNoScore, records::kDraw), s));
  EXPECT_EQ(s.score, records::kNoScore);
  EXPECT_EQ(s.wdl, 1);
  // Castling rooks (code 6 in the record) are plain rooks in the sample.
  PieceSquare pieces[32];
  const int n = samplePieces(s, pieces);
  ASSERT_EQ(n, popCount(white.pieces()));
  for (int i = 0; i < n; ++i) {
    const Piece p = white.pieceOn(Square(pieces[i].square));
    EXPECT_EQ(pieces[i].color, colorOf(p));
    EXPECT_EQ(pieces[i].type, typeOf(p));
  }
}

TEST(TrainingData, FeaturesAndCheckAgreeWithThePosition) {
  std::mt19937_64 rng(7);
  int inCheck = 0;
  for (const Position& pos : test::randomPositions(rng, 600)) {
    Sample s;
    ASSERT_TRUE(sampleFromRecord(records::packRecord(pos, 0, records::kDraw), s));
    EXPECT_EQ(sampleInCheck(s), pos.inCheck()) << pos.fen();
    inCheck += pos.inCheck();
    for (int perspective = 0; perspective < 2; ++perspective)
      for (int kingBuckets : {1, 4, 16}) {
        u16 features[32];
        const int n = sampleFeatures(s, perspective, kingBuckets, features);
        std::multiset<int> got(features, features + n), want;
        for (Bitboard occ = pos.pieces(); occ;) {
          const Square sq = popLsb(occ);
          const Piece p = pos.pieceOn(sq);
          want.insert(nnue::featureIndex(perspective, colorOf(p), typeOf(p), sq, pos.kingSquare(Color(perspective)),
                                         kingBuckets));
        }
        EXPECT_EQ(got, want) << pos.fen() << " K " << kingBuckets;
      }
    // The same sample from the position directly.
    const Sample direct = sampleFromPosition(pos, 0, 1);
    EXPECT_EQ(direct.occupancy, s.occupancy);
    EXPECT_EQ(std::memcmp(direct.pieces, s.pieces, sizeof s.pieces), 0);
  }
  EXPECT_GT(inCheck, 5);  // the random games do give checks
}

TEST(TrainingData, LoaderFiltersAndCountsByReason) {
  TempDir dir;
  const std::string path = dir.file("mixed.janusdat.zst");
  const Position quiet = Position::fromFen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
  const Position check = Position::fromFen("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1");  // White king attacked
  {
    records::DataWriter w(path);
    for (int i = 0; i < 3; ++i) w.write(records::packRecord(quiet, records::kNoScore, records::kDraw));
    for (int score : {31990, -31995, 20000, -20000}) w.write(records::packRecord(quiet, score, records::kWhiteWin));
    for (int score : {3001, -3500}) w.write(records::packRecord(quiet, score, records::kDraw));
    for (int i = 0; i < 2; ++i) w.write(records::packRecord(check, 10, records::kBlackWin));
    for (int score : {3000, -3000, 0, 55, -7}) w.write(records::packRecord(quiet, score, records::kWhiteWin));
    for (int i = 0; i < 3; ++i) {
      records::PackedRecord noisy = records::packRecord(quiet, 20, records::kDraw);
      noisy.flags |= kRecordFlagNoisyMove;  // data format 2: a capture or promotion was played
      w.write(noisy);
    }
    w.commit();
  }
  LoadOptions o;
  o.files = {path};
  o.validationFraction = 0;
  const LoadedSamples d = loadSamples(o);
  EXPECT_EQ(d.stats.records, 19u);
  EXPECT_EQ(d.stats.dropped[size_t(DropReason::kNoScore)], 3u);
  EXPECT_EQ(d.stats.dropped[size_t(DropReason::kMateScore)], 4u);
  EXPECT_EQ(d.stats.dropped[size_t(DropReason::kLargeScore)], 2u);
  EXPECT_EQ(d.stats.dropped[size_t(DropReason::kInCheck)], 2u);
  EXPECT_EQ(d.stats.dropped[size_t(DropReason::kNoisyMove)], 3u);
  ASSERT_EQ(d.train.size(), 5u);
  EXPECT_TRUE(d.validation.empty());
  EXPECT_EQ(d.train[0].score, 3000);
  EXPECT_EQ(d.train[4].score, -7);
  EXPECT_EQ(d.stats.wdl[2], 5u);
  const std::string text = describeLoad(d.stats);
  EXPECT_NE(text.find("no score 3"), std::string::npos) << text;
  EXPECT_NE(text.find("mate/tablebase score 4"), std::string::npos) << text;
  EXPECT_NE(text.find("in check 2"), std::string::npos) << text;
  EXPECT_NE(text.find("noisy move 3"), std::string::npos) << text;
  o.keepNoisy = true;
  EXPECT_EQ(loadSamples(o).train.size(), 8u);
  o.keepNoisy = false;

  // A lower --max-score drops more.
  o.maxScore = 50;
  EXPECT_EQ(loadSamples(o).train.size(), 2u);  // 0 and -7
}

TEST(TrainingData, MirrorReflectsTheFilesAndKeepsTheLabels) {
  // Kings, a pawn, a knight and a rook of each side; no castling rights.
  const Position pos = Position::fromFen("3r2k1/5p2/8/1N6/8/8/6PP/R5K1 b - - 0 30");
  const Position mirror = Position::fromFen("1k2r3/2p5/8/6N1/8/8/PP6/1K5R b - - 0 30");
  const Sample s = sampleFromPosition(pos, -35, 0);
  EXPECT_EQ(s.flags & kSampleCastling, 0);
  const Sample m = mirroredSample(s);
  const Sample expected = sampleFromPosition(mirror, -35, 0);
  EXPECT_EQ(std::memcmp(&m, &expected, sizeof m), 0);
  const Sample back = mirroredSample(m);
  EXPECT_EQ(std::memcmp(&back, &s, sizeof s), 0);
  // The castling flag comes from the position and from a record's castling rooks.
  EXPECT_NE(sampleFromPosition(Position()).flags & kSampleCastling, 0);
  Sample fromRecord;
  ASSERT_TRUE(sampleFromRecord(records::packRecord(Position(), 0, records::kDraw), fromRecord));
  EXPECT_NE(fromRecord.flags & kSampleCastling, 0);
  ASSERT_TRUE(sampleFromRecord(records::packRecord(pos, 0, records::kDraw), fromRecord));
  EXPECT_EQ(fromRecord.flags & kSampleCastling, 0);
}

TEST(TrainingData, MirrorAddsTrainingPositionsWithoutCastlingRightsOnly) {
  TempDir dir;
  const std::string path = dir.file("mirror.janusdat");
  const Position castling = Position::fromFen("r3k2r/pppq1ppp/2n2n2/4p3/4P3/2N2N2/PPPQ1PPP/R3K2R w KQkq - 4 9");
  const Position plain = Position::fromFen("3r2k1/5p2/8/1N6/8/8/6PP/R5K1 w - - 0 30");
  {
    records::DataWriter w(path);
    for (int i = 0; i < 3; ++i) w.write(records::packRecord(castling, 10 + i, records::kDraw));
    for (int i = 0; i < 4; ++i) w.write(records::packRecord(plain, 20 + i, records::kWhiteWin));
    w.commit();
  }
  LoadOptions o;
  o.files = {path};
  o.validationFraction = 0;
  const LoadedSamples without = loadSamples(o);
  ASSERT_EQ(without.train.size(), 7u);
  EXPECT_EQ(without.stats.mirrored, 0u);
  o.mirror = true;
  const LoadedSamples with = loadSamples(o);
  ASSERT_EQ(with.train.size(), 11u);
  EXPECT_EQ(with.stats.mirrored, 4u);
  EXPECT_EQ(with.stats.train, 11u);
  for (size_t i = 0; i < 4; ++i) {
    const Sample& copy = with.train[7 + i];
    const Sample expected = mirroredSample(without.train[3 + i]);
    EXPECT_EQ(std::memcmp(&copy, &expected, sizeof copy), 0) << i;
    EXPECT_EQ(copy.score, 20 + int(i));
    EXPECT_EQ(copy.wdl, 2);
  }
  const std::string text = describeLoad(with.stats);
  EXPECT_NE(text.find("kept 7: 7 train"), std::string::npos) << text;
  EXPECT_NE(text.find("mirror: 4 training positions"), std::string::npos) << text;
}

TEST(TrainingData, LoaderReservesFromTheDeclaredCountsSoNoSampleIsCopiedByGrowth) {
  TempDir dir;
  const Position castling = Position::fromFen("r3k2r/pppq1ppp/2n2n2/4p3/4P3/2N2N2/PPPQ1PPP/R3K2R w KQkq - 4 9");
  const Position plain = Position::fromFen("3r2k1/5p2/8/1N6/8/8/6PP/R5K1 w - - 0 30");
  auto write = [&](const std::string& name, std::optional<u64> count) {
    const std::string path = dir.file(name);
    records::DataWriter w(path, count);
    for (int i = 0; i < 3; ++i) w.write(records::packRecord(castling, 10 + i, records::kDraw));
    for (int i = 0; i < 4; ++i) w.write(records::packRecord(plain, 20 + i, records::kWhiteWin));
    w.commit();
    return path;
  };
  LoadOptions o;
  o.validationFraction = 0;
  o.mirror = true;
  o.files = {write("declared.janusdat", 7), write("declared2.janusdat", 7)};
  const LoadedSamples declared = loadSamples(o);
  ASSERT_EQ(declared.train.size(), 22u);
  // One reservation of 2 x 14 records (the mirror's bound), never grown (doubling would give 32).
  EXPECT_EQ(declared.train.capacity(), 28u);
  // A streaming header declares no count: the loader grows as it reads, with the same samples.
  o.files = {write("streamed.janusdat", std::nullopt), write("streamed2.janusdat", std::nullopt)};
  const LoadedSamples streamed = loadSamples(o);
  EXPECT_EQ(hashSamples(streamed.train), hashSamples(declared.train));
  EXPECT_NE(streamed.train.capacity(), 28u);
  // --limit caps each file's share of the reservation.
  o.files = {write("limited.janusdat", 7)};
  o.limit = 5;
  const LoadedSamples limited = loadSamples(o);
  EXPECT_EQ(limited.stats.records, 5u);
  EXPECT_EQ(limited.train.capacity(), 10u);
}

/// A file of `games` games of positions with increasing plies; each record's score is its game.
std::string writeGames(const TempDir& dir, const std::string& name, int games, std::mt19937_64& rng) {
  const std::string path = dir.file(name);
  records::DataWriter w(path);
  for (int g = 0; g < games; ++g) {
    Position pos;
    const int plies = 6 + int(rng() % 20);
    for (int p = 0; p < plies; ++p) {
      MoveList moves = legalMoves(pos);
      if (moves.empty()) break;
      pos.makeMove(moves[int(rng() % u64(moves.size()))]);
      if (!pos.inCheck()) w.write(records::packRecord(pos, g, records::kDraw));
    }
  }
  w.commit();
  return path;
}

TEST(TrainingData, ValidationSplitTakesWholeGamesDeterministically) {
  TempDir dir;
  std::mt19937_64 rng(3);
  LoadOptions o;
  o.files = {writeGames(dir, "games.janusdat", 200, rng)};
  o.validationFraction = 0.25;
  o.seed = 11;
  const LoadedSamples a = loadSamples(o), b = loadSamples(o);
  EXPECT_EQ(a.stats.games, 200u);
  ASSERT_EQ(a.validation.size(), b.validation.size());
  EXPECT_EQ(hashSamples(a.train), hashSamples(b.train));
  std::set<int> trainGames, valGames;
  for (const Sample& s : a.train) trainGames.insert(std::abs(s.score));
  for (const Sample& s : a.validation) valGames.insert(std::abs(s.score));
  for (int g : valGames) EXPECT_FALSE(trainGames.contains(g)) << "game " << g << " is on both sides";
  EXPECT_GT(valGames.size(), 30u);
  EXPECT_LT(valGames.size(), 70u);
  o.seed = 12;
  EXPECT_NE(hashSamples(loadSamples(o).train), hashSamples(a.train));

  // Validation files replace the split.
  o.validationFiles = {writeGames(dir, "val.janusdat", 10, rng)};
  const LoadedSamples c = loadSamples(o);
  EXPECT_EQ(c.train.size(), a.train.size() + a.validation.size());
  EXPECT_GT(c.validation.size(), 0u);
  EXPECT_EQ(c.stats.validation, c.validation.size());
}

TEST(TrainingData, FitsTheSigmoidScaleOfSyntheticResults) {
  // Results drawn so that the expected score is sigmoid(score / 300) (draws: half the non-wins).
  std::mt19937_64 rng(21);
  std::vector<Sample> samples(200000);
  for (Sample& s : samples) {
    s.score = i16(int(rng() % 2001) - 1000);
    const double p = 1.0 / (1.0 + std::exp(-s.score / 300.0));
    const double u = double(rng() >> 11) * 0x1p-53;
    s.wdl = u < p ? 2 : 0;
  }
  EXPECT_NEAR(fitSigmoidScale(samples), 300.0, 15.0);
  EXPECT_EQ(fitSigmoidScale({}), 0.0);
}

TEST(TrainingData, BadFilesNameTheFile) {
  TempDir dir;
  LoadOptions o;
  EXPECT_NE(errorOf([&] { (void)loadSamples(o); }).find("--data"), std::string::npos);
  o.files = {dir.file("missing.janusdat")};
  EXPECT_NE(errorOf([&] { (void)loadSamples(o); }).find("missing.janusdat"), std::string::npos);
  {
    std::ofstream(dir.file("text.janusdat")) << "this is not a data file at all, no no no\n";
  }
  o.files = {dir.file("text.janusdat")};
  const std::string e = errorOf([&] { (void)loadSamples(o); });
  EXPECT_NE(e.find("text.janusdat"), std::string::npos) << e;
  EXPECT_NE(e.find("not a Janus data file"), std::string::npos) << e;
  // A record with an unknown piece code (nibble 7).
  {
    records::DataWriter w(dir.file("bad.janusdat"));
    records::PackedRecord r = records::packRecord(Position(), 0, records::kDraw);
    w.write(r);
    r.setPiece(3, 7);
    w.write(r);
    w.commit();
  }
  o.files = {dir.file("bad.janusdat")};
  const std::string bad = errorOf([&] { (void)loadSamples(o); });
  EXPECT_NE(bad.find("bad.janusdat"), std::string::npos) << bad;
  EXPECT_NE(bad.find("record 1"), std::string::npos) << bad;
}

}  // namespace
}  // namespace janus::training
