// Tests of the JANUSDAT record and file format: pack/unpack round trips (standard and Chess960),
// the flags (noisy move, in check), the version 3 move fields (played, best, game end, opening
// ply), version 1 and 2 files, malformed records, header validation and atomic writing.

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <sstream>

#include "core/movegen.h"
#include "records/janusdat.h"
#include "util/error.h"
#include "util/test_temp_dir.h"

namespace janus::records {
namespace {

using test::TempDir;

namespace fs = std::filesystem;

using janus::test::readRaw;
using janus::test::writeRaw;

/// Positions along seeded random games from `start` (every ply), stopping at game ends.
std::vector<Position> randomPositions(const Position& start, std::mt19937_64& rng, int plies) {
  std::vector<Position> out;
  Position pos = start;
  for (int i = 0; i < plies; ++i) {
    MoveList moves = legalMoves(pos);
    if (moves.empty()) break;
    pos.makeMove(moves[int(rng() % u64(moves.size()))]);
    out.push_back(pos);
  }
  return out;
}

/// Expects that `back` is exactly `pos` in every field a record stores.
void expectSamePosition(const Position& pos, const Position& back) {
  EXPECT_EQ(back.fen(), pos.fen());
  EXPECT_EQ(back.key(), pos.key());
  EXPECT_EQ(back.sideToMove(), pos.sideToMove());
  EXPECT_EQ(back.castlingRights(), pos.castlingRights());
  for (int i = 0; i < 4; ++i) {
    if (pos.castlingRights() & CastlingRights(1 << i)) {
      EXPECT_EQ(back.castling().rookFrom[i], pos.castling().rookFrom[i]) << pos.fen();
    }
  }
  EXPECT_EQ(back.epSquare(), pos.epSquare());
  EXPECT_EQ(back.halfmoveClock(), pos.halfmoveClock());
  EXPECT_EQ(back.fullmoveNumber(), pos.fullmoveNumber());
  EXPECT_EQ(back.isChess960(), pos.isChess960());
  for (int s = 0; s < 64; ++s) EXPECT_EQ(back.pieceOn(Square(s)), pos.pieceOn(Square(s)));
}

void expectRecordError(const PackedRecord& r, const std::string& needle) {
  try {
    (void)unpackRecord(r);
    ADD_FAILURE() << "no error, expected one containing '" << needle << "'";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
}

TEST(Record, LayoutIsTheDocumentedOne) {
  Position pos = Position::fromFen("r3k2r/8/8/3pP3/8/8/8/R3K2R w Kq d6 7 42");
  PackedRecord r = packRecord(pos, -123, kWhiteWin);
  unsigned char bytes[32];
  std::memcpy(bytes, &r, 32);
  // occupancy: a1 e1 h1 d5 e5 a8 e8 h8
  u64 occ = 0;
  std::memcpy(&occ, bytes, 8);
  EXPECT_EQ(occ, squareBB(kA1) | squareBB(kE1) | squareBB(kH1) | squareBB(kD5) | squareBB(kE5) | squareBB(kA8) |
                     squareBB(kE8) | squareBB(kH8));
  // Pieces in square order: a1 R (no right: only K kept) = 3, e1 K = 5, h1 castling rook = 6, d5 black pawn = 8,
  // e5 white pawn = 0, a8 black castling rook = 14, e8 black king = 13, h8 black rook = 11.
  EXPECT_EQ(bytes[8], 0x53);
  EXPECT_EQ(bytes[9], 0x86);
  EXPECT_EQ(bytes[10], 0xE0);
  EXPECT_EQ(bytes[11], 0xBD);
  for (int i = 12; i < 24; ++i) EXPECT_EQ(bytes[i], 0) << i;
  EXPECT_EQ(bytes[24], kD6);  // White to move (bit 7 clear), en passant d6 (the capture exd6 is legal)
  EXPECT_EQ(bytes[25], 7);
  EXPECT_EQ(bytes[26] | bytes[27] << 8, 42);
  EXPECT_EQ(i16(u16(bytes[28] | bytes[29] << 8)), -123);
  EXPECT_EQ(bytes[30], 2);
  EXPECT_EQ(bytes[31], 0);
  expectSamePosition(pos, unpackRecord(r).pos);

  // The move fields: played O-O (e1 to the h1 rook), best exd6 e.p., the game's last record
  // (adjudicated win: code 8), an opening ply.
  r = packRecord(pos, -123, kWhiteWin, Move(kE1, kH1, Move::kCastling), Move(kE5, kD6, Move::kEnPassant));
  setGameEnd(r, GameEnd::kAdjudicatedWin);
  r.flags2 = kFlag2OpeningPly;
  unsigned char all[40];
  static_assert(sizeof(PackedRecord) == 40);
  std::memcpy(all, &r, 40);
  EXPECT_EQ(all[32] | all[33] << 8, kE1 | kH1 << 6);
  EXPECT_EQ(all[34] | all[35] << 8, kE5 | kD6 << 6);
  EXPECT_EQ(all[36], 9);
  EXPECT_EQ(all[37], 1);
  EXPECT_EQ(all[38], 0);
  EXPECT_EQ(all[39], 0);
  // A promotion: bits 12-14 hold 1 (knight) .. 4 (queen).
  const Position promo = Position::fromFen("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
  EXPECT_EQ(packRecord(promo, 0, kDraw, Move(kB7, kB8, Move::kPromotion, kKnight)).played, kB7 | kB8 << 6 | 1 << 12);
  EXPECT_EQ(packRecord(promo, 0, kDraw, Move(kB7, kB8, Move::kPromotion, kQueen)).played, kB7 | kB8 << 6 | 4 << 12);
}

TEST(Record, MoveFieldsRoundTripAlongRandomGames) {
  // Every legal move of positions along random games (standard and Chess960, so castling,
  // promotions and en passant occur) encodes to a PackedMove that decodes to the same move.
  std::mt19937_64 rng(33);
  int castles = 0, promotions = 0, enPassant = 0, moves = 0;
  auto check = [&](const Position& pos) {
    for (Move m : legalMoves(pos)) {
      const u16 packed = encodeMove(m);
      ASSERT_EQ(packedMoveError(packed), nullptr) << pos.fen();
      ASSERT_EQ(decodeMove(pos, packed), m) << pos.fen() << " " << packedMoveString(packed);
      castles += m.isCastling();
      promotions += m.isPromotion();
      enPassant += m.isEnPassant();
      ++moves;
      PackedRecord r = packRecord(pos, 5, kDraw, m, legalMoves(pos)[0]);
      setGameEnd(r, GameEnd(moves % kGameEndCount));
      r.flags2 = u8(moves & 1);
      const TrainingPosition t = unpackRecord(r);
      ASSERT_EQ(t.played, m);
      ASSERT_EQ(t.best, legalMoves(pos)[0]);
      ASSERT_EQ(t.end, GameEnd(moves % kGameEndCount));
      ASSERT_EQ(t.openingPly, bool(moves & 1));
    }
  };
  for (int game = 0; game < 40; ++game)
    for (const Position& pos : randomPositions(Position(), rng, 120)) check(pos);
  std::ifstream in(std::string(JANUS_TEST_DATA) + "/perft/chess960.epd");
  ASSERT_TRUE(in);
  std::string line;
  for (int i = 0; i < 30 && std::getline(in, line); ++i) {
    const Position start = Position::fromFen(line.substr(0, line.find(';')), true);
    check(start);
    for (const Position& pos : randomPositions(start, rng, 60)) check(pos);
  }
  EXPECT_GT(castles, 50);
  EXPECT_GT(promotions, 10);
  EXPECT_GT(enPassant, 5);
  // No move: 0 both ways, and a record without moves decodes to Move::none().
  EXPECT_EQ(encodeMove(Move::none()), 0);
  EXPECT_EQ(decodeMove(Position(), 0), Move::none());
  const TrainingPosition none = unpackRecord(packRecord(Position(), 0, kDraw));
  EXPECT_FALSE(none.played);
  EXPECT_FALSE(none.best);
  EXPECT_FALSE(none.end.has_value());
  EXPECT_FALSE(none.openingPly);
  EXPECT_EQ(packedMoveString(encodeMove(Move(kE1, kH1, Move::kCastling))), "e1h1");
  EXPECT_EQ(packedMoveString(makePackedMove(kA7, kA8, kPromoRook)), "a7a8r");
  EXPECT_EQ(packedMoveString(0), "0000");
}

TEST(Record, IllegalOrMalformedMoveFieldsAreErrors) {
  const Position start;
  const PackedRecord good = packRecord(start, 0, kDraw, Move(kE2, kE4), Move(kD2, kD4));
  PackedRecord r = good;
  r.played = makePackedMove(kE2, kE5);
  expectRecordError(r, "played move e2e5 is not legal in rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
  r = good;
  r.best = makePackedMove(kE1, kG1);  // castling is written king to rook (e1h1), and illegal here anyway
  expectRecordError(r, "best move e1g1 is not legal");
  r = good;
  r.played = makePackedMove(kE2, kE4, kPromoQueen);  // a promotion code on a non-promotion
  expectRecordError(r, "played move e2e4q is not legal");
  r = good;
  r.played = makePackedMove(kE2, kE2);
  expectRecordError(r, "played move 0x030c is malformed (from and to squares are the same)");
  r = good;
  r.best = makePackedMove(kA7, kA8, 5);
  expectRecordError(r, "best move 0x5e30 is malformed (promotion code above 4)");
  r = good;
  r.played = u16(good.played | 0x8000);
  expectRecordError(r, "played move 0x870c is malformed (bit 15 is set)");
  r = good;
  r.gameEnd = kMaxGameEnd + 1;
  expectRecordError(r, "game end 16 is above 15");
  r = good;
  r.gameEnd = kMaxGameEnd;  // the last code is fine
  EXPECT_EQ(unpackRecord(r).end, GameEnd(kGameEndCount - 1));
  r = good;
  r.flags2 = 0x03;
  expectRecordError(r, "flags2 bits 0x02 are not defined");
  r = good;
  r.reserved = 1;
  expectRecordError(r, "reserved field 0x0001 is not 0");
}

TEST(Record, RoundTripRandomStandardPositions) {
  std::mt19937_64 rng(12345);
  int n = 0, withEp = 0, withCastling = 0;
  for (int game = 0; game < 60; ++game) {
    for (const Position& pos : randomPositions(Position(), rng, 200)) {
      const int score = int(rng() % 20001) - 10000;
      const Wdl wdl = Wdl(rng() % 3);
      PackedRecord r = packRecord(pos, score, wdl);
      TrainingPosition t = unpackRecord(r);
      expectSamePosition(pos, t.pos);
      EXPECT_EQ(t.score, score);
      EXPECT_EQ(t.result, wdl);
      EXPECT_EQ(recordFen(r), recordFen(packRecord(t.pos, score, wdl)));
      ++n;
      withEp += pos.epSquare() != kNoSquare;
      withCastling += pos.castlingRights() != kNoCastling;
    }
  }
  EXPECT_GT(n, 5000);
  EXPECT_GT(withEp, 10);
  EXPECT_GT(withCastling, 500);
}

TEST(Record, RoundTripChess960) {
  std::ifstream in(std::string(JANUS_TEST_DATA) + "/perft/chess960.epd");
  ASSERT_TRUE(in);
  std::mt19937_64 rng(960);
  int n = 0;
  std::string line;
  for (int i = 0; i < 120 && std::getline(in, line); ++i) {
    std::string fen = line.substr(0, line.find(';'));
    Position start = Position::fromFen(fen, true);
    ASSERT_TRUE(start.isChess960());
    std::vector<Position> positions = randomPositions(start, rng, 40);
    positions.insert(positions.begin(), start);
    for (const Position& pos : positions) {
      TrainingPosition t = unpackRecord(packRecord(pos, 17, kDraw));
      expectSamePosition(pos, t.pos);
      ++n;
    }
  }
  EXPECT_GT(n, 2000);
}

TEST(Record, FlagsSayNoisyMoveAndCheck) {
  // Quiet: no move given, or a quiet move, not in check.
  const Position start;
  EXPECT_EQ(packRecord(start, 0, kDraw).flags, 0);
  EXPECT_EQ(packRecord(start, 0, kDraw, Move(kE2, kE4)).flags, 0);
  EXPECT_TRUE(recordQuiet(packRecord(start, 0, kDraw, Move(kG1, kF3))));
  // A capture, an en passant capture and a promotion are noisy.
  const Position capture = Position::fromFen("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1");
  PackedRecord r = packRecord(capture, 10, kWhiteWin, Move(kE4, kD5));
  EXPECT_TRUE(recordNoisyMove(r));
  EXPECT_FALSE(recordInCheck(r));
  EXPECT_FALSE(recordQuiet(r));
  EXPECT_EQ(r.flags, kFlagNoisyMove);
  const Position ep = Position::fromFen("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
  EXPECT_TRUE(recordNoisyMove(packRecord(ep, 0, kDraw, Move(kE5, kD6, Move::kEnPassant))));
  const Position promo = Position::fromFen("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
  EXPECT_TRUE(recordNoisyMove(packRecord(promo, 0, kDraw, Move(kB7, kB8, Move::kPromotion, kQueen))));
  // In check (the move played does not matter).
  const Position check = Position::fromFen("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1");
  r = packRecord(check, -300, kBlackWin);
  EXPECT_TRUE(recordInCheck(r));
  EXPECT_FALSE(recordNoisyMove(r));
  EXPECT_EQ(r.flags, kFlagInCheck);
  r = packRecord(check, -300, kBlackWin, Move(kE1, kE2));  // KxR: in check and noisy
  EXPECT_EQ(r.flags, kFlagInCheck | kFlagNoisyMove);
  EXPECT_EQ(unpackRecord(r).pos.fen(), check.fen());  // flags do not disturb decoding
  // Chess960 and the new bits together.
  const Position c960 = Position::fromFen("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", true);
  EXPECT_EQ(packRecord(c960, 0, kDraw).flags, kFlagChess960);
  EXPECT_TRUE(recordFlagsValid(packRecord(c960, 0, kDraw), 1));
  EXPECT_FALSE(recordFlagsValid(r, 1));  // bits 1 and 2 do not exist in version 1
  EXPECT_TRUE(recordFlagsValid(r, 2));
  EXPECT_TRUE(recordFlagsValid(r, 3));  // version 3 has the flags of version 2
  EXPECT_FALSE(recordFlagsValid(r, 4));
}

TEST(Record, SaturatedAndSpecialFields) {
  Position pos = Position::fromFen("8/8/8/4k3/8/8/4K3/8 b - - 300 70000");
  PackedRecord r = packRecord(pos, 40000, kBlackWin);
  EXPECT_EQ(r.halfmove, 255);
  EXPECT_EQ(r.fullmove, 65535);
  EXPECT_EQ(r.score, 32767);
  EXPECT_TRUE(r.blackToMove());
  EXPECT_EQ(packRecord(pos, -40000, kDraw).score, -32767);
  PackedRecord none = packRecord(pos, kNoScore, kDraw);
  EXPECT_FALSE(none.hasScore());
  EXPECT_EQ(unpackRecord(none).score, kNoScore);
  EXPECT_EQ(unpackRecord(r).pos.halfmoveClock(), 255);
}

TEST(Record, MalformedRecordsAreErrors) {
  const PackedRecord good = packRecord(Position(), 0, kDraw);
  PackedRecord r = good;
  r.setPiece(3, 7);
  expectRecordError(r, "unknown piece code 7");
  r = good;
  r.wdl = 3;
  expectRecordError(r, "result 3");
  r = good;
  r.flags = 0x80;
  expectRecordError(r, "reserved flag bits");
  r = good;
  r.flags = 0x08;  // bit 3: the first one version 2 does not define
  expectRecordError(r, "reserved flag bits set (flags 0x08)");
  r = good;
  r.stmEp = 70;
  expectRecordError(r, "en passant field 70");
  r = good;
  r.stmEp = kE3;  // White to move, e3 impossible
  expectRecordError(r, "en passant");
  r = good;
  r.setPiece(3, kCodeKing);  // d1 queen -> king: two white kings
  expectRecordError(r, "king");
  r = good;
  r.setPiece(28, kBlackBit | kCodeQueen);  // e8 king -> queen: no black king
  expectRecordError(r, "decoded FEN");
  r = good;
  r.setPiece(10, kCodeCastlingRook);  // c2 pawn marked as a castling rook: not on the back rank
  expectRecordError(r, "castling rook on c2");
  r = good;
  r.occupancy &= ~squareBB(kD2);  // 31 occupied squares, but nibble 31 (the h8 rook) is still set
  expectRecordError(r, "nibble 31 is set");
}

// ---- Files ----------------------------------------------------------------------------------------

std::vector<PackedRecord> sampleRecords(int n) {
  std::mt19937_64 rng(99);
  std::vector<PackedRecord> out;
  while (int(out.size()) < n)
    for (const Position& p : randomPositions(Position(), rng, 100)) {
      if (int(out.size()) == n) break;
      out.push_back(packRecord(p, int(out.size()), Wdl(out.size() % 3)));
    }
  return out;
}

bool sameRecords(const std::vector<PackedRecord>& a, const std::vector<PackedRecord>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(PackedRecord)) == 0);
}

void writeFile(const std::string& path, const std::vector<PackedRecord>& records, bool declareCount) {
  DataWriter out(path, declareCount ? std::optional<u64>(records.size()) : std::nullopt);
  out.write(records.data(), records.size());
  out.commit();
}

TEST(DataFile, WriteAndReadPlainCompressedCountedStreaming) {
  TempDir dir;
  const auto records = sampleRecords(10000);  // more than one read batch
  for (bool counted : {false, true})
    for (std::string name : {"a.jdat", "a.jdat.zst"}) {
      const std::string path = dir.file(std::string(counted ? "c_" : "s_") + name);
      writeFile(path, records, counted);
      const std::string raw = readRaw(path);
      if (name.ends_with(".zst")) {
        EXPECT_EQ(static_cast<unsigned char>(raw[0]), 0x28);
        EXPECT_LT(raw.size(), 32 + records.size() * 40);
      } else {
        ASSERT_EQ(raw.size(), 32 + records.size() * 40);
        FileHeader h;
        std::memcpy(&h, raw.data(), 32);
        EXPECT_EQ(std::string(h.magic, 8), "JANUSDAT");
        EXPECT_EQ(h.version, 3);
        EXPECT_EQ(h.recordSize, 40);
        EXPECT_EQ(h.recordCount, counted ? records.size() : kStreamingCount);
      }
      DataReader reader(path);
      EXPECT_EQ(reader.declaredCount().has_value(), counted);
      EXPECT_TRUE(sameRecords(readRecords(path), records)) << path;
      EXPECT_EQ(readRecords(path, 17).size(), 17u);
    }
  // An empty file (header only) is valid.
  writeFile(dir.file("empty.jdat"), {}, true);
  EXPECT_TRUE(readRecords(dir.file("empty.jdat")).empty());
}

void expectFileError(const std::string& path, const std::vector<std::string>& needles) {
  try {
    (void)readRecords(path);
    ADD_FAILURE() << "no error reading " << path;
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("'" + path + "'"), std::string::npos) << what;  // names the file
    for (const auto& n : needles) EXPECT_NE(what.find(n), std::string::npos) << "'" << n << "' not in: " << what;
  }
}

TEST(DataFile, HeaderErrorsNameTheFile) {
  TempDir dir;
  const auto records = sampleRecords(5);
  const std::string good = dir.file("good.jdat");
  writeFile(good, records, true);
  const std::string raw = readRaw(good);

  auto variant = [&](const std::string& name, std::string bytes) {
    const std::string p = dir.file(name);
    writeRaw(p, bytes);
    return p;
  };
  std::string b = raw;
  b.replace(0, 8, "JANUSDAX");
  expectFileError(variant("magic.jdat", b), {"bad magic 'JANUSDAX'", "not a Janus data file"});
  expectFileError(variant("text.jdat", "[Event \"x\"]\n1. e4 e5 *\n"), {"not a Janus data file"});
  expectFileError(variant("tiny.jdat", "JANU"), {"truncated header (4 of 32 bytes)"});
  expectFileError(variant("short.jdat", raw.substr(0, 20)), {"truncated header (20 of 32 bytes)"});
  b = raw;
  b[8] = 4;
  expectFileError(variant("version4.jdat", b), {"format version 4 is not supported", "versions 1 to 3"});
  b = raw;
  b[8] = 0;
  expectFileError(variant("version0.jdat", b), {"format version 0 is not supported"});
  b = raw;
  b[10] = 32;
  expectFileError(variant("size.jdat", b), {"record size 32 in the header, but version 3 records are 40 bytes"});
  b = raw;
  b[8] = 2;  // a version 2 header must say 32
  expectFileError(variant("size2.jdat", b), {"record size 40 in the header, but version 2 records are 32 bytes"});
  b = raw;
  b[24] = 1;
  expectFileError(variant("reserved.jdat", b), {"reserved header fields"});
  // Truncated inside record 2 (0-based): 2 whole records and 12 bytes.
  expectFileError(variant("trunc.jdat", raw.substr(0, 32 + 2 * 40 + 12)), {"record 2 is truncated (12 of 40 bytes"});
  // Counted header, whole records missing.
  expectFileError(variant("missing.jdat", raw.substr(0, 32 + 3 * 40)),
                  {"declares 5 records but the file ends after 3", "record 3 is missing"});
  // Counted header, extra bytes after the declared records.
  expectFileError(variant("extra.jdat", raw + std::string(40, '\0')), {"data after the 5 records"});
  // Streaming header, truncated last record.
  const std::string stream = dir.file("stream.jdat");
  writeFile(stream, records, false);
  expectFileError(variant("stream_trunc.jdat", readRaw(stream).substr(0, 32 + 4 * 40 + 31)),
                  {"record 4 is truncated (31 of 40 bytes"});
  // A missing file.
  expectFileError(dir.file("nope.jdat"), {"cannot open"});
}

TEST(DataFile, FlagsRoundTripThroughFiles) {
  // Records along random games with the move played from each position: the flags survive a
  // plain and a compressed file and agree with the position.
  TempDir dir;
  std::mt19937_64 rng(2);
  std::vector<PackedRecord> records;
  int noisy = 0, inCheck = 0;
  for (int game = 0; game < 30; ++game) {
    Position pos;
    for (int ply = 0; ply < 150; ++ply) {
      MoveList moves = legalMoves(pos);
      if (moves.empty()) break;
      const Move m = moves[int(rng() % u64(moves.size()))];
      records.push_back(packRecord(pos, ply, kDraw, m, m));
      noisy += pos.isNoisy(m);
      inCheck += pos.inCheck();
      pos.makeMove(m);
    }
  }
  ASSERT_GT(noisy, 100);
  ASSERT_GT(inCheck, 20);
  for (const std::string name : {"flags.jdat", "flags.jdat.zst"}) {
    const std::string path = dir.file(name);
    writeFile(path, records, true);
    DataReader reader(path);
    EXPECT_EQ(reader.version(), 3);
    PackedRecord r;
    int n = 0, seenNoisy = 0, seenCheck = 0;
    while (reader.next(r)) {
      ASSERT_EQ(std::memcmp(&r, &records[size_t(n)], sizeof r), 0) << n;
      const TrainingPosition t = reader.decode(r, reader.index() - 1);
      EXPECT_EQ(recordInCheck(r), t.pos.inCheck());
      EXPECT_EQ(recordNoisyMove(r), t.pos.isNoisy(t.played));  // the played move came through
      seenNoisy += recordNoisyMove(r);
      seenCheck += recordInCheck(r);
      ++n;
    }
    EXPECT_EQ(n, int(records.size()));
    EXPECT_EQ(seenNoisy, noisy);
    EXPECT_EQ(seenCheck, inCheck);
  }
}

/// The bytes of a version 1 or 2 file (32-byte records: the position part of `records`).
std::string oldFileBytes(u16 version, const std::vector<PackedRecord>& records) {
  FileHeader h = makeFileHeader(records.size());
  h.version = version;
  h.recordSize = sizeof(PackedPosition);
  std::string raw(reinterpret_cast<const char*>(&h), sizeof h);
  for (const PackedRecord& r : records) raw.append(reinterpret_cast<const char*>(&r), sizeof(PackedPosition));
  return raw;
}

TEST(DataFile, VersionOneAndTwoFilesAreStillRead) {
  // Version 1 and 2 files: 32-byte records, read with the move fields 0; in version 1 flag bits 1
  // and 2 are always 0.
  TempDir dir;
  std::vector<PackedRecord> records = sampleRecords(300);
  for (size_t i = 0; i < records.size(); i += 7) records[i].flags |= kFlagInCheck;
  const std::string v2 = dir.file("v2.jdat");
  writeRaw(v2, oldFileBytes(2, records));
  EXPECT_EQ(DataReader(v2).version(), 2);
  EXPECT_TRUE(sameRecords(readRecords(v2), records));
  for (size_t i = 0; i < records.size(); ++i) {
    const TrainingPosition t = decodeRecord(readRecords(v2)[i], v2, i);
    EXPECT_FALSE(t.played);
    EXPECT_FALSE(t.end.has_value());
  }
  for (auto& r : records) r.flags &= kRecordFlagsV1;
  const std::string raw = oldFileBytes(1, records);
  const std::string v1 = dir.file("v1.jdat");
  writeRaw(v1, raw);
  DataReader reader(v1);
  EXPECT_EQ(reader.version(), 1);
  EXPECT_TRUE(sameRecords(readRecords(v1), records));
  for (const auto& r : readRecords(v1)) {
    EXPECT_FALSE(recordNoisyMove(r));
    EXPECT_FALSE(recordInCheck(r));
    EXPECT_EQ(r.played, 0);
    EXPECT_EQ(r.gameEnd, 0);
  }
  // Compressed version 1 too.
  {
    OutputFile out(dir.file("v1.jdat.zst"), true);
    out.write(raw.data(), std::streamsize(raw.size()));
    out.commit();
  }
  EXPECT_TRUE(sameRecords(readRecords(dir.file("v1.jdat.zst")), records));
  // Truncation is measured in 32-byte records.
  writeRaw(dir.file("v1trunc.jdat"), raw.substr(0, 32 + 5 * 32 + 20));
  expectFileError(dir.file("v1trunc.jdat"), {"record 5 is truncated (20 of 32 bytes present)"});

  // A version 1 record with bit 1 or 2 set is malformed (those bits were reserved), named by index.
  std::string bad = raw;
  bad[32 + 7 * 32 + 31] = char(kFlagNoisyMove);
  writeRaw(dir.file("v1bad.jdat"), bad);
  expectFileError(dir.file("v1bad.jdat"), {"record 7: reserved flag bits set (flags 0x02: bits 0x02 are not defined in version 1)"});
  bad = raw;
  bad[32 + 9 * 32 + 31] = char(kFlagInCheck | kFlagChess960);
  writeRaw(dir.file("v1bad2.jdat"), bad);
  expectFileError(dir.file("v1bad2.jdat"), {"record 9: reserved flag bits set (flags 0x05: bits 0x04 are not defined in version 1)"});
  // In version 2 they are fine, bits 3-7 are not.
  bad = oldFileBytes(2, records);
  bad[32 + 7 * 32 + 31] = char(kFlagNoisyMove | kFlagInCheck);
  writeRaw(dir.file("v2ok.jdat"), bad);
  EXPECT_EQ(readRecords(dir.file("v2ok.jdat")).size(), records.size());
  bad[32 + 8 * 32 + 31] = char(0x10);
  writeRaw(dir.file("v2bad.jdat"), bad);
  expectFileError(dir.file("v2bad.jdat"), {"record 8: reserved flag bits set (flags 0x10: bits 0x10 are not defined in version 2)"});
}

TEST(DataFile, MalformedMoveFieldsAreNamedByFileAndIndex) {
  // next() checks the structure of the version 3 move fields; decode() checks legality.
  TempDir dir;
  std::vector<PackedRecord> records;
  Position pos;
  for (Move m : {Move(kE2, kE4), Move(kE7, kE5), Move(kG1, kF3), Move(kB8, kC6)}) {
    records.push_back(packRecord(pos, 0, kDraw, m, m));
    pos.makeMove(m);
  }
  setGameEnd(records.back(), GameEnd::kAdjudicatedDraw);
  const std::string good = dir.file("good.jdat");
  writeFile(good, records, true);
  EXPECT_TRUE(sameRecords(readRecords(good), records));
  const std::string raw = readRaw(good);
  auto expectBad = [&](const std::string& name, size_t offset, std::vector<u8> bytes, const std::string& needle) {
    std::string b = raw;
    for (size_t i = 0; i < bytes.size(); ++i) b[offset + i] = char(bytes[i]);
    writeRaw(dir.file(name), b);
    expectFileError(dir.file(name), {needle});
  };
  const size_t rec2 = 32 + 2 * 40;  // record 2
  expectBad("same.jdat", rec2 + 32, {0x0c, 0x03}, "record 2: played move 0x030c is malformed (from and to squares are the same)");
  expectBad("promo.jdat", rec2 + 34, {0x30, 0x5e}, "record 2: best move 0x5e30 is malformed (promotion code above 4)");
  expectBad("bit15.jdat", rec2 + 33, {0x86}, "record 2: played move 0x8646 is malformed (bit 15 is set)");
  expectBad("end.jdat", rec2 + 36, {16}, "record 2: game end 16 is above 15");
  expectBad("flags2.jdat", rec2 + 37, {0x80}, "record 2: flags2 bits 0x80 are not defined");
  expectBad("reserved.jdat", rec2 + 39, {0x01}, "record 2: reserved field 0x0100 is not 0");
  // Well formed but illegal in its position: found when the record is decoded.
  std::string b = raw;
  const u16 illegal = makePackedMove(kE2, kE4);  // record 2 is White's Nf3 position: e2 is empty
  std::memcpy(&b[rec2 + 32], &illegal, 2);
  writeRaw(dir.file("illegal.jdat"), b);
  DataReader reader(dir.file("illegal.jdat"));
  PackedRecord r;
  u64 i = 0;
  try {
    for (; reader.next(r); ++i) (void)reader.decode(r, i);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(i, 2u);
    EXPECT_NE(std::string(e.what()).find("illegal.jdat': record 2: played move e2e4 is not legal in"), std::string::npos)
        << e.what();
  }
}

TEST(DataFile, BadRecordIsNamedByFileAndIndex) {
  TempDir dir;
  auto records = sampleRecords(8);
  records[5].wdl = 7;
  const std::string path = dir.file("bad.jdat");
  writeFile(path, records, false);
  DataReader reader(path);
  PackedRecord r;
  u64 i = 0;
  try {
    for (; reader.next(r); ++i) (void)reader.decode(r, i);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(i, 5u);
    EXPECT_NE(std::string(e.what()).find("'" + path + "': record 5: result 7"), std::string::npos) << e.what();
  }
}

TEST(DataFile, WritesAreAtomic) {
  TempDir dir;
  const auto records = sampleRecords(50);
  const std::string path = dir.file("atomic.jdat");
  {
    DataWriter out(path);
    out.write(records.data(), records.size());
    EXPECT_FALSE(fs::exists(path));  // only the .tmp exists while writing
    EXPECT_TRUE(fs::exists(path + ".tmp"));
  }  // abandoned without commit
  EXPECT_FALSE(fs::exists(path));
  EXPECT_FALSE(fs::exists(path + ".tmp"));

  writeFile(path, records, false);
  const std::string before = readRaw(path);
  {
    DataWriter out(path);  // a second, abandoned write leaves the first file intact
    out.write(records.data(), 10);
  }
  EXPECT_EQ(readRaw(path), before);
  {
    DataWriter out(path, 20);  // declared 20, wrote 10: commit fails, old file kept
    out.write(records.data(), 10);
    EXPECT_THROW(out.commit(), Error);
  }
  EXPECT_EQ(readRaw(path), before);
  EXPECT_FALSE(fs::exists(path + ".tmp"));
  EXPECT_THROW(DataWriter(dir.file("no/such/dir/x.jdat")), Error);
}

}  // namespace
}  // namespace janus::records
