#include "match/openings.h"

#include <algorithm>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "core/notation.h"
#include "util/error.h"
#include "util/zstd_stream.h"

using namespace janus;
using namespace janus::match;

namespace {
std::string writeTemp(const std::string& name, const std::string& text) {
  auto path = std::filesystem::temp_directory_path() / ("janus_match_test_" + std::to_string(::getpid()) + "_" + name);
  std::ofstream(path) << text;
  return path.string();
}
}  // namespace

TEST(Openings, EpdLinesWithOperationsAndBadLines) {
  std::string path = writeTemp("book.epd",
                               "# comment\n"
                               "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n"
                               "\n"
                               "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - bm Bb5; id \"ruy\";\r\n"
                               "not a fen at all\n"
                               "8/8/8/8/8/8/8/8 w - - 0 1\n"
                               "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1\n");  // stalemate: nothing to play
  OpeningBook book = loadOpenings(path, false);
  ASSERT_EQ(book.openings.size(), 2u);
  EXPECT_EQ(book.openings[0].line, 2);
  EXPECT_EQ(book.openings[1].line, 4);
  EXPECT_EQ(book.openings[1].name, "ruy");
  EXPECT_TRUE(book.openings[1].moves.empty());
  EXPECT_EQ(book.openings[1].startPosition().sideToMove(), kWhite);
  ASSERT_EQ(book.errors.size(), 3u);
  EXPECT_NE(book.errors[0].find(":5:"), std::string::npos) << book.errors[0];
  EXPECT_NE(book.errors[1].find(":6:"), std::string::npos) << book.errors[1];
  EXPECT_NE(book.errors[2].find(":7:"), std::string::npos) << book.errors[2];
  std::filesystem::remove(path);
}

TEST(Openings, EmptyOrMissingFileIsAnError) {
  std::string path = writeTemp("empty.epd", "garbage\n");
  EXPECT_THROW((void)loadOpenings(path, false), Error);
  std::filesystem::remove(path);
  EXPECT_THROW((void)loadOpenings("/nonexistent/book.epd", false), Error);
}

TEST(Openings, ShippedPgnBook) {
  OpeningBook book = loadOpenings(defaultOpeningBook(), false);
  EXPECT_TRUE(book.errors.empty());
  ASSERT_EQ(book.openings.size(), 300u);
  for (const auto& o : book.openings) {
    EXPECT_TRUE(o.fen.empty());
    EXPECT_EQ(o.moves.size(), 16u);
    EXPECT_FALSE(o.chess960);
  }
  EXPECT_EQ(book.openings[0].name, "A07");
  Position pos = book.openings[0].startPosition();
  EXPECT_EQ(toSan(pos, book.openings[0].moves[0]), "Nf3");
}

TEST(Openings, ShippedFullEpdBookReadsCompressed) {
  // data/openings/8moves_v3.epd.zst: Stockfish's whole 8moves_v3 book (34,700 positions) as
  // zstd-compressed EPD, the data recipes' book; read as it is, without unpacking.
  const std::filesystem::path full = std::filesystem::path(defaultOpeningBook()).parent_path() / "8moves_v3.epd.zst";
  OpeningBook book = loadOpenings(full.string(), false);
  EXPECT_TRUE(book.errors.empty());
  ASSERT_EQ(book.openings.size(), 34700u);
  EXPECT_EQ(book.openings[0].line, 1);
  EXPECT_FALSE(book.openings[0].fen.empty());
  EXPECT_EQ(book.openings[34699].line, 34700);
}

TEST(Openings, CompressedEpdEqualsPlain) {
  const std::string text = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\nnot a fen\n"
                           "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - bm Bb5; id \"ruy\";\n";
  const std::string plain = writeTemp("plain.epd", text);
  const std::string packed = writeTemp("packed.epd.zst", "");
  {
    OutputFile out(packed, /*compress=*/true);
    out << text;
    out.commit();
  }
  const OpeningBook a = loadOpenings(plain, false), b = loadOpenings(packed, false);
  ASSERT_EQ(b.openings.size(), 2u);
  ASSERT_EQ(a.openings.size(), b.openings.size());
  for (size_t i = 0; i < a.openings.size(); ++i) {
    EXPECT_EQ(a.openings[i].fen, b.openings[i].fen);
    EXPECT_EQ(a.openings[i].line, b.openings[i].line);
    EXPECT_EQ(a.openings[i].name, b.openings[i].name);
  }
  ASSERT_EQ(b.errors.size(), 1u);
  EXPECT_NE(b.errors[0].find(":2:"), std::string::npos) << b.errors[0];
  std::filesystem::remove(plain);
  std::filesystem::remove(packed);
}

TEST(Openings, PgnWithFenAndBadGame) {
  std::string path = writeTemp("book.pgn",
                               "[Event \"a\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\n"
                               "1. e4 Kd7 *\n\n"
                               "[Event \"b\"]\n\n1. e4 e5 2. Ke3 *\n\n"
                               "[Event \"c\"]\n\n1. d4 d5 *\n");
  OpeningBook book = loadOpenings(path, false);
  ASSERT_EQ(book.openings.size(), 2u);
  EXPECT_EQ(book.openings[0].fen, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
  EXPECT_EQ(book.openings[0].moves.size(), 2u);
  EXPECT_TRUE(book.openings[1].fen.empty());
  ASSERT_EQ(book.errors.size(), 1u);  // Ke3 is illegal
  std::filesystem::remove(path);
}

TEST(Openings, Chess960Detection) {
  std::string path = writeTemp("960.epd", "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9\n");
  OpeningBook book = loadOpenings(path, false);
  ASSERT_EQ(book.openings.size(), 1u);
  EXPECT_TRUE(book.openings[0].chess960);
  std::filesystem::remove(path);
}

TEST(Openings, OrderIsAPermutationAndReproducible) {
  auto seq = openingOrder(5, 2, false, 0);
  EXPECT_EQ(seq, (std::vector<int>{2, 3, 4, 0, 1}));
  auto r1 = openingOrder(300, 0, true, 42);
  auto r2 = openingOrder(300, 0, true, 42);
  auto r3 = openingOrder(300, 0, true, 43);
  EXPECT_EQ(r1, r2);
  EXPECT_NE(r1, r3);
  auto sorted = r1;
  std::sort(sorted.begin(), sorted.end());
  for (int i = 0; i < 300; ++i) EXPECT_EQ(sorted[size_t(i)], i);
  EXPECT_TRUE(openingOrder(0, 0, true, 1).empty());
}

TEST(Openings, DefaultBookIsFound) {
  std::string path = defaultOpeningBook();
  EXPECT_NE(path.find("janus-8moves-300.pgn"), std::string::npos);
}
