#include "book/polyglot.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <functional>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "core/movegen.h"
#include "core/notation.h"
#include "util/error.h"

namespace janus {
namespace {

const std::string kData = JANUS_TEST_DATA;
const std::string kPerformance = kData + "/books/performance.bin";
const std::string kLasker = kData + "/books/lasker-trap.bin";
const std::string kGnuChess = "/usr/share/games/gnuchess/book.bin";  // Debian package gnuchess-book

/// Applies UCI moves (standard castling notation) to the start position.
Position afterMoves(const std::vector<std::string>& moves) {
  Position pos;
  for (const std::string& m : moves) pos.makeMove(parseUci(pos, m, false));
  return pos;
}

/// One 16-byte big-endian Polyglot entry.
std::string entry(u64 key, u16 move, u16 weight, u32 learn = 0) {
  std::string out;
  for (int i = 7; i >= 0; --i) out += char((key >> (8 * i)) & 0xFF);
  out += char(move >> 8);
  out += char(move & 0xFF);
  out += char(weight >> 8);
  out += char(weight & 0xFF);
  for (int i = 3; i >= 0; --i) out += char((learn >> (8 * i)) & 0xFF);
  return out;
}

/// Polyglot move field from square names, promotion 0 none .. 4 queen.
u16 pgMove(const std::string& from, const std::string& to, int promo = 0) {
  const Square f = *parseSquare(from), t = *parseSquare(to);
  return u16(fileOf(t) | rankOf(t) << 3 | fileOf(f) << 6 | rankOf(f) << 9 | promo << 12);
}

std::string writeTemp(const std::string& name, const std::string& bytes) {
  const std::string path = testing::TempDir() + "/" + name;
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

std::string errorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

// The test keys of the spec ("Test data"), computed from moves played on a Position so the
// en passant term comes from the double push, and from the FENs given in the spec.
TEST(PolyglotKey, SpecTestPositions) {
  struct Case {
    std::vector<std::string> moves;
    const char* fen;
    u64 key;
  };
  const Case cases[] = {
      {{}, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 0x463b96181691fc9cULL},
      {{"e2e4"}, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", 0x823c9b50fd114196ULL},
      {{"e2e4", "d7d5"}, "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2", 0x0756b94461c50fb0ULL},
      {{"e2e4", "d7d5", "e4e5"}, "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2", 0x662fafb965db29d4ULL},
      {{"e2e4", "d7d5", "e4e5", "f7f5"}, "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
       0x22a48b5a8e47ff78ULL},
      {{"e2e4", "d7d5", "e4e5", "f7f5", "e1e2"}, "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR b kq - 0 3",
       0x652a607ca3f242c1ULL},
      {{"e2e4", "d7d5", "e4e5", "f7f5", "e1e2", "e8f7"}, "rnbq1bnr/ppp1pkpp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR w - - 0 4",
       0x00fdd303c946bdd9ULL},
      {{"a2a4", "b7b5", "h2h4", "b5b4", "c2c4"}, "rnbqkbnr/p1pppppp/8/8/PpP4P/8/1P1PPPP1/RNBQKBNR b KQkq c3 0 3",
       0x3c8123ea7b067637ULL},
      {{"a2a4", "b7b5", "h2h4", "b5b4", "c2c4", "b4c3", "a1a3"},
       "rnbqkbnr/p1pppppp/8/8/P6P/R1p5/1P1PPPP1/1NBQKBNR b Kkq - 0 4", 0x5c3f9b829b279560ULL},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(polyglotKey(afterMoves(c.moves)), c.key) << c.fen;
    EXPECT_EQ(polyglotKey(Position::fromFen(c.fen)), c.key) << c.fen;
  }
}

// Polyglot counts a double push next to an enemy pawn even when the capture is illegal; Janus
// then has no en passant square, so the key must come from the last move.
TEST(PolyglotKey, EnPassantWithPinnedCapturer) {
  Position pos = Position::fromFen("4k3/3p4/8/r3P2K/8/8/8/8 b - - 0 1");
  pos.makeMove(parseUci(pos, "d7d5", false));
  ASSERT_EQ(pos.epSquare(), kNoSquare);  // exd6 would expose the king on h5 to the rook on a5
  const Position sameBoard = Position::fromFen(pos.fen());
  const u64 randomEnPassantD = 0x1C99DED33CB890A1ULL;  // Random64[772 + 3] in the spec
  EXPECT_EQ(polyglotKey(pos), polyglotKey(sameBoard) ^ randomEnPassantD);
  // No pawn beside the pushed one: no en passant term.
  Position quiet = Position::fromFen("4k3/3p4/8/8/8/8/8/4K3 b - - 0 1");
  quiet.makeMove(parseUci(quiet, "d7d5", false));
  EXPECT_EQ(polyglotKey(quiet), polyglotKey(Position::fromFen(quiet.fen())));
}

TEST(PolyglotBook, PerformanceBookStartPosition) {
  const PolyglotBook book = PolyglotBook::open(kPerformance);
  EXPECT_EQ(book.size(), 1487264u / 16);
  EXPECT_EQ(book.path(), kPerformance);
  std::vector<std::string> moves;
  for (const BookEntry& e : book.probe(Position())) moves.push_back(toUci(e.move, false));
  std::sort(moves.begin(), moves.end());
  EXPECT_EQ(moves, (std::vector<std::string>{"c2c4", "d2d4", "e2e4"}));
}

TEST(PolyglotBook, GnuChessBookWeights) {
  if (!std::filesystem::exists(kGnuChess)) GTEST_SKIP() << "apt-get install gnuchess-book: " << kGnuChess;
  const PolyglotBook book = PolyglotBook::open(kGnuChess);
  EXPECT_EQ(book.size(), 2885728u / 16);
  const std::vector<BookEntry> entries = book.probe(Position());
  ASSERT_GE(entries.size(), 4u);
  EXPECT_EQ(toUci(entries[0].move, false), "e2e4");
  EXPECT_EQ(entries[0].weight, 12135);
  EXPECT_EQ(toUci(entries[1].move, false), "d2d4");
  EXPECT_EQ(entries[1].weight, 11257);
  for (std::size_t i = 1; i < entries.size(); ++i) EXPECT_GE(entries[i - 1].weight, entries[i].weight);
  EXPECT_EQ(book.pick(Position(), BookPickMode::kBest, u64(1)), entries[0].move);
  // Deeper: every probed move is legal in its position along a book line.
  Position pos;
  for (int ply = 0; ply < 12; ++ply) {
    const Move m = book.pick(pos, BookPickMode::kBest, u64(0));
    if (!m) break;
    ASSERT_TRUE(legalMoves(pos).contains(m));
    pos.makeMove(m);
  }
  EXPECT_GE(pos.movesMade(), 6);
}

TEST(PolyglotBook, WeightedRandomFollowsWeights) {
  if (!std::filesystem::exists(kGnuChess)) GTEST_SKIP() << "apt-get install gnuchess-book: " << kGnuChess;
  const PolyglotBook book = PolyglotBook::open(kGnuChess);
  const std::vector<BookEntry> entries = book.probe(Position());
  double total = 0;
  for (const BookEntry& e : entries) total += e.weight;
  PolyglotBook::Rng rng(20240601);
  std::map<u16, int> counts;
  const int n = 20000;
  for (int i = 0; i < n; ++i) ++counts[book.pick(Position(), BookPickMode::kWeightedRandom, rng).raw()];
  for (const BookEntry& e : entries) {
    const double expected = e.weight / total;
    // 4 standard deviations of a binomial proportion, at least 0.005.
    const double tolerance = std::max(0.005, 4 * std::sqrt(expected * (1 - expected) / n));
    EXPECT_NEAR(counts[e.move.raw()] / double(n), expected, tolerance) << toUci(e.move, false);
  }
  // Reproducible with a seed.
  for (u64 seed : {1ULL, 2ULL, 99ULL})
    EXPECT_EQ(book.pick(Position(), BookPickMode::kWeightedRandom, seed),
              book.pick(Position(), BookPickMode::kWeightedRandom, seed));
}

TEST(PolyglotBook, SyntheticWeightsBestAndRandom) {
  const u64 start = polyglotKey(Position());
  const std::string bytes = entry(start, pgMove("g1", "f3"), 1) + entry(start, pgMove("d2", "d4"), 3) +
                            entry(start, pgMove("e2", "e4"), 6) + entry(start, pgMove("b2", "b3"), 0);
  const PolyglotBook book = PolyglotBook::fromBytes(bytes, "synthetic");
  EXPECT_EQ(book.size(), 4u);
  const std::vector<BookEntry> entries = book.probe(Position());
  ASSERT_EQ(entries.size(), 4u);
  EXPECT_EQ(toUci(entries[0].move, false), "e2e4");
  EXPECT_EQ(toUci(entries[3].move, false), "b2b3");  // zero weight: listed, never picked
  EXPECT_EQ(toUci(book.pick(Position(), BookPickMode::kBest, u64(0)), false), "e2e4");
  std::map<std::string, int> counts;
  PolyglotBook::Rng rng(7);
  for (int i = 0; i < 10000; ++i) ++counts[toUci(book.pick(Position(), BookPickMode::kWeightedRandom, rng), false)];
  EXPECT_EQ(counts.count("b2b3"), 0u);
  EXPECT_NEAR(counts["e2e4"] / 10000.0, 0.6, 0.02);
  EXPECT_NEAR(counts["d2d4"] / 10000.0, 0.3, 0.02);
  EXPECT_NEAR(counts["g1f3"] / 10000.0, 0.1, 0.02);
  // Only zero weights: nothing to play.
  const PolyglotBook zero = PolyglotBook::fromBytes(entry(start, pgMove("e2", "e4"), 0), "zero");
  EXPECT_EQ(zero.probe(Position()).size(), 1u);
  EXPECT_EQ(zero.pick(Position(), BookPickMode::kBest, u64(0)), Move::none());
  EXPECT_EQ(zero.pick(Position(), BookPickMode::kWeightedRandom, u64(0)), Move::none());
  // Position not in the book.
  EXPECT_TRUE(book.probe(afterMoves({"a2a3"})).empty());
  EXPECT_EQ(book.pick(afterMoves({"a2a3"}), BookPickMode::kBest, u64(0)), Move::none());
  // Empty book object.
  EXPECT_TRUE(PolyglotBook().probe(Position()).empty());
}

TEST(PolyglotBook, IllegalAndMalformedMovesAreSkipped) {
  const u64 start = polyglotKey(Position());
  const std::string bytes = entry(start, 0, 50)                           // a1a1: "ignore"
                            + entry(start, pgMove("e2", "e5"), 40)        // illegal
                            + entry(start, pgMove("e1", "h1"), 30)        // castling, not legal here
                            + entry(start, pgMove("e2", "e4", 4), 20)     // promotion flag on a pawn push
                            + entry(start, pgMove("e2", "e4"), 10)        // legal
                            + entry(start, pgMove("e2", "e4"), 5);        // duplicate
  const PolyglotBook book = PolyglotBook::fromBytes(bytes, "bad-moves");
  const std::vector<BookEntry> entries = book.probe(Position());
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(toUci(entries[0].move, false), "e2e4");
  EXPECT_EQ(entries[0].weight, 10);
}

TEST(PolyglotBook, CastlingAndPromotionMoves) {
  const Position castle = Position::fromFen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
  const u64 key = polyglotKey(castle);
  const PolyglotBook book = PolyglotBook::fromBytes(
      entry(key, pgMove("e1", "h1"), 3) + entry(key, pgMove("e1", "a1"), 2) + entry(key, pgMove("e1", "g1"), 1),
      "castling");
  const std::vector<BookEntry> entries = book.probe(castle);
  ASSERT_EQ(entries.size(), 2u);  // e1g1 (accepted as castling) duplicates e1h1
  EXPECT_EQ(entries[0].move, Move(kE1, kH1, Move::kCastling));
  EXPECT_EQ(entries[1].move, Move(kE1, kA1, Move::kCastling));
  EXPECT_EQ(toUci(entries[0].move, false), "e1g1");

  const Position promo = Position::fromFen("1n5k/P7/8/8/8/8/8/K7 w - - 0 1");
  const u64 pk = polyglotKey(promo);
  const PolyglotBook pb = PolyglotBook::fromBytes(
      entry(pk, pgMove("a7", "b8", 4), 5) + entry(pk, pgMove("a7", "b8", 1), 4) + entry(pk, pgMove("a7", "a8", 3), 3),
      "promotions");
  std::vector<std::string> moves;
  for (const BookEntry& e : pb.probe(promo)) moves.push_back(toUci(e.move, false));
  EXPECT_EQ(moves, (std::vector<std::string>{"a7b8q", "a7b8n", "a7a8r"}));
}

// python-chess's fixture: Black's moves of the Lasker trap in the Albin Countergambit, ending in
// the under-promotion 7...fxg1=N+.
TEST(PolyglotBook, LaskerTrapBook) {
  const PolyglotBook book = PolyglotBook::open(kLasker);
  EXPECT_EQ(book.size(), 7u);
  EXPECT_TRUE(book.probe(Position()).empty());
  const std::vector<std::string> line = {"d4", "d5", "c4", "e5", "dxe5", "d4", "e3", "Bb4+", "Bd2", "dxe3", "Bxb4",
                                         "exf2+", "Ke2", "fxg1=N+"};
  Position pos;
  int found = 0;
  for (const std::string& san : line) {
    const Move m = parseSan(pos, san);
    const std::vector<BookEntry> entries = book.probe(pos);
    if (pos.sideToMove() == kBlack) {
      ASSERT_EQ(entries.size(), 1u) << san << " in " << pos.fen();
      EXPECT_EQ(entries[0].move, m) << san;
      EXPECT_EQ(book.pick(pos, BookPickMode::kWeightedRandom, u64(found)), m);
      ++found;
    } else {
      EXPECT_TRUE(entries.empty()) << pos.fen();
    }
    pos.makeMove(m);
  }
  EXPECT_EQ(found, 7);
  EXPECT_TRUE(book.probe(pos).empty());
}

TEST(PolyglotBook, MalformedFilesGiveClearErrors) {
  EXPECT_NE(errorOf([] { (void)PolyglotBook::open("/nonexistent/janus/book.bin"); }).find("cannot open"),
            std::string::npos);
  const std::string good = entry(1, pgMove("e2", "e4"), 1) + entry(2, pgMove("d2", "d4"), 1);
  // Truncated: a partial last entry.
  const std::string truncated = writeTemp("janus_truncated.bin", good.substr(0, 27));
  const std::string msg = errorOf([&] { (void)PolyglotBook::open(truncated); });
  EXPECT_NE(msg.find("not a multiple of 16"), std::string::npos) << msg;
  EXPECT_NE(msg.find(truncated), std::string::npos) << msg;
  EXPECT_NE(errorOf([] { (void)PolyglotBook::fromBytes(std::string(17, 'x'), "odd"); }).find("size 17 bytes"),
            std::string::npos);
  const std::string empty = writeTemp("janus_empty.bin", "");
  EXPECT_NE(errorOf([&] { (void)PolyglotBook::open(empty); }).find("empty"), std::string::npos);
  const std::string unsorted = entry(2, pgMove("d2", "d4"), 1) + entry(1, pgMove("e2", "e4"), 1);
  const std::string unsortedMsg = errorOf([&] { (void)PolyglotBook::fromBytes(unsorted, "unsorted"); });
  EXPECT_NE(unsortedMsg.find("not sorted"), std::string::npos) << unsortedMsg;
  EXPECT_NE(unsortedMsg.find("entry 1"), std::string::npos) << unsortedMsg;
  // The good bytes load.
  EXPECT_EQ(PolyglotBook::open(writeTemp("janus_good.bin", good)).size(), 2u);
}

}  // namespace
}  // namespace janus
