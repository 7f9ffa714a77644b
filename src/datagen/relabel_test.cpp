// Tests of relabelling with an external UCI engine: Debian's /usr/games/stockfish at depth 1
// (skipped if it is not installed), score conversion, order, atomic output and errors.

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "core/movegen.h"
#include "datagen/relabel.h"
#include "match/engine_config.h"
#include "records/janusdat.h"
#include "util/error.h"
#include "util/test_temp_dir.h"

namespace janus::datagen {
namespace {

namespace fs = std::filesystem;

constexpr const char* kStockfish = "/usr/games/stockfish";

std::string tempFile(const std::string& name) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  return (fs::temp_directory_path() / ("janus_relabel_" + std::to_string(::getpid()) + "_" + info->name() + "_" + name))
      .string();
}

using janus::test::readRaw;

TEST(Relabel, ScoreConversion) {
  EXPECT_EQ(relabelScore(false, 35, false), 35);
  EXPECT_EQ(relabelScore(false, 35, true), -35);
  EXPECT_EQ(relabelScore(true, 1, false), 31999);    // mate in 1 move = 1 ply
  EXPECT_EQ(relabelScore(true, 3, true), -31995);    // Black mates in 3 moves (5 plies)
  EXPECT_EQ(relabelScore(true, -2, false), -31996);  // White is mated in 2 moves (4 plies)
  EXPECT_EQ(relabelScore(true, 0, true), 32000);     // Black to move is mated
  EXPECT_EQ(relabelScore(false, 100000, false), 31999);
}

/// Positions with known signs (White's view) and a Chess960 one.
struct Case {
  const char* fen;
  bool chess960;
  int sign;  ///< expected sign of the score from White's view (0: any)
};
const Case kCases[] = {
    {"4k3/8/8/8/8/8/8/3QK3 b - - 0 1", false, +1},                       // White a queen up, Black to move
    {"3qk3/8/8/8/8/8/8/4K3 w - - 0 1", false, -1},                       // Black a queen up, White to move
    {"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", false, +1},                    // Ra8#: mate in 1
    {"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", false, 0},
    {"4k3/8/8/8/8/8/4r3/4K3 w - - 0 1", false, 0},                       // in check (KxR)
    {"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", true, 0},
    {"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", false, 0},
    {"4k3/8/8/8/8/8/8/3QK3 w - - 0 1", false, +1},
};

std::vector<records::PackedRecord> caseRecords() {
  std::vector<records::PackedRecord> out;
  int i = 0;
  for (const Case& c : kCases) {
    const Position pos = Position::fromFen(c.fen, c.chess960);
    // The move played is the last legal move and best the first: relabelling keeps played and
    // replaces best with the engine's choice.
    const MoveList moves = legalMoves(pos);
    records::PackedRecord r = records::packRecord(pos, 1000 + i, records::Wdl(i % 3), moves[moves.size() - 1], moves[0]);
    r.flags &= ~records::kFlagInCheck;  // relabelling sets it from the position
    if (i == 3) records::setGameEnd(r, GameEnd::kAdjudicatedDraw);
    out.push_back(r);
    ++i;
  }
  return out;
}

RelabelConfig stockfishConfig(const std::string& in, const std::string& out, int jobs) {
  RelabelConfig c;
  c.input = in;
  c.output = out;
  c.engine = match::parseEngineSpec(std::string("cmd=") + kStockfish + " option.Threads=1 option.Hash=8");
  c.depth = 1;
  c.jobs = jobs;
  c.timeout = std::chrono::milliseconds(20000);
  return c;
}

TEST(Relabel, StockfishDepthOneRescoresEveryRecordInOrder) {
  if (!fs::exists(kStockfish)) GTEST_SKIP() << kStockfish << " is not installed";
  const std::string in = tempFile("in.jdat"), out1 = tempFile("out1.jdat"), out3 = tempFile("out3.jdat.zst");
  const std::vector<records::PackedRecord> records = caseRecords();
  {
    records::DataWriter w(in);  // streaming header: the output keeps it
    // Three copies, so that 3 engines share the work and the order must be restored.
    for (int copy = 0; copy < 3; ++copy) w.write(records.data(), records.size());
    w.commit();
  }
  const RelabelProgress p1 = relabelFile(stockfishConfig(in, out1, 1));
  EXPECT_EQ(p1.done, 3 * records.size());
  EXPECT_FALSE(p1.total.has_value());
  EXPECT_EQ(p1.noScore, 0u);
  EXPECT_GE(p1.mates, 3u);  // the mate in 1, three times
  const RelabelProgress p3 = relabelFile(stockfishConfig(in, out3, 3));
  EXPECT_EQ(p3.done, p1.done);

  const std::vector<records::PackedRecord> a = records::readRecords(out1), b = records::readRecords(out3);
  ASSERT_EQ(a.size(), 3 * records.size());
  // The same scores with 1 and 3 engines (a cleared hash per position, fixed depth).
  ASSERT_EQ(b.size(), a.size());
  EXPECT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(records::PackedRecord)), 0);
  for (size_t i = 0; i < a.size(); ++i) {
    const records::PackedRecord& src = records[i % records.size()];
    const Case& c = kCases[i % records.size()];
    // Everything but the score, the check flag and the best move is the input's.
    EXPECT_EQ(a[i].occupancy, src.occupancy);
    EXPECT_EQ(std::memcmp(a[i].pieces, src.pieces, sizeof src.pieces), 0);
    EXPECT_EQ(a[i].stmEp, src.stmEp);
    EXPECT_EQ(a[i].wdl, src.wdl);
    EXPECT_EQ(a[i].flags & ~records::kFlagInCheck, src.flags);
    EXPECT_EQ(a[i].played, src.played);
    EXPECT_EQ(a[i].gameEnd, src.gameEnd);
    const records::TrainingPosition t = records::unpackRecord(a[i]);
    EXPECT_TRUE(t.best) << c.fen;  // legal (unpackRecord checks it): the engine's bestmove
    EXPECT_EQ(records::recordInCheck(a[i]), t.pos.inCheck()) << c.fen;
    EXPECT_NE(a[i].score, records::kNoScore) << c.fen;
    EXPECT_NE(a[i].score, src.score) << c.fen;
    if (c.sign > 0) {
      EXPECT_GT(a[i].score, 300) << c.fen;
    }
    if (c.sign < 0) {
      EXPECT_LT(a[i].score, -300) << c.fen;
    }
  }
  EXPECT_EQ(a[2].score, 31999);  // Ra8# found at depth 1: mate in 1 = 1 ply
  EXPECT_EQ(records::packedMoveString(a[2].best), "a1a8");
  for (const auto& f : {in, out1, out3}) fs::remove(f);
}

TEST(Relabel, ErrorsNameTheProblemAndLeaveNoOutput) {
  const std::string in = tempFile("in.jdat"), out = tempFile("out.jdat");
  {
    records::DataWriter w(in, 2);
    const auto records = caseRecords();
    w.write(records.data(), 2);
    w.commit();
  }
  auto expectError = [&](const RelabelConfig& c, const std::string& needle) {
    try {
      (void)relabelFile(c);
      ADD_FAILURE() << "no error, expected '" << needle << "'";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
    EXPECT_FALSE(fs::exists(out));
  };
  RelabelConfig c = stockfishConfig(in, out, 1);
  c.engine = match::parseEngineSpec("cmd=/nonexistent/engine");
  expectError(c, "/nonexistent/engine");
  c = stockfishConfig(in, out, 1);
  c.nodes = 100;  // depth and nodes
  expectError(c, "exactly one search limit");
  c.depth.reset();
  c.nodes.reset();
  expectError(c, "exactly one search limit");
  c = stockfishConfig(tempFile("missing.jdat"), out, 1);
  expectError(c, "missing.jdat");
  c = stockfishConfig(in, in, 1);
  expectError(c, "is the input file");

  // A record that does not decode is named by file and index (before any engine is needed).
  std::string raw = readRaw(in);
  raw[32 + 40 + 30] = 9;  // record 1: wdl 9
  std::ofstream(in, std::ios::binary | std::ios::trunc).write(raw.data(), std::streamsize(raw.size()));
  if (fs::exists(kStockfish)) expectError(stockfishConfig(in, out, 1), "record 1: result 9");
  fs::remove(in);
}

}  // namespace
}  // namespace janus::datagen
