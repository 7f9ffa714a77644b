#include "tb/syzygy.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "core/movegen.h"
#include "core/notation.h"
#include "util/error.h"
#include "util/test_temp_dir.h"

namespace janus {
namespace {

using test::TempDir;

// The 3- and 4-piece Syzygy tables (WDL and DTZ) of the repository's test data (tests/data/syzygy).
const std::string kSyzygyDir = std::string(JANUS_TEST_DATA) + "/syzygy";

#define REQUIRE_SYZYGY() \
  ASSERT_TRUE(std::filesystem::exists(kSyzygyDir + "/KQvK.rtbw")) << "Syzygy test tables missing: " << kSyzygyDir

Position fen(const std::string& f) { return Position::fromFen(f); }

std::vector<std::string> uciList(const std::vector<Move>& moves) {
  std::vector<std::string> out;
  for (Move m : moves) out.push_back(toUci(m, false));
  std::sort(out.begin(), out.end());
  return out;
}

TEST(Syzygy, SplitPathsAtColons) {
  EXPECT_EQ(SyzygyTablebases::splitPaths(" /a : /b::/c "), (std::vector<std::string>{"/a", "/b", "/c"}));
  EXPECT_TRUE(SyzygyTablebases::splitPaths("").empty());
}

TEST(Syzygy, InitFindsTheThreeAndFourPieceTables) {
  REQUIRE_SYZYGY();
  SyzygyTablebases tb;
  EXPECT_FALSE(tb.initialised());
  const auto report = tb.init(kSyzygyDir);
  EXPECT_TRUE(tb.initialised());
  EXPECT_EQ(tb.maxPieces(), 4);
  EXPECT_EQ(report.maxPieces, 4);
  // The 23 of the 35 3-4 piece material signatures that the tests reach (tests/data/README.md),
  // each a WDL and a DTZ file.
  EXPECT_EQ(report.wdlFiles, 23);
  EXPECT_EQ(report.dtzFiles, 23);
  EXPECT_TRUE(report.problems.empty());
  EXPECT_NE(report.summary.find("up to 4 pieces"), std::string::npos) << report.summary;
  EXPECT_EQ(tb.paths(), std::vector<std::string>{kSyzygyDir});
  tb.release();
  EXPECT_FALSE(tb.initialised());
  EXPECT_FALSE(tb.probeWdl(fen("4k3/8/8/8/8/8/8/4KQ2 w - - 0 1")));
}

// Debian's Fathom reports every successful munmap of tb_init with perror ("munmap: Invalid
// argument", issue 75: six such lines when `janus gui` stopped); releasing or replacing mapped
// tables must print nothing.
TEST(Syzygy, ReleasingMappedTablesPrintsNothing) {
  REQUIRE_SYZYGY();
  SyzygyTablebases tb;
  tb.init(kSyzygyDir);
  for (const char* f : {"4k3/8/4K3/4P3/8/8/8/8 w - - 0 1", "8/8/8/8/8/2k5/8/K6R w - - 0 1", "1k6/8/K7/7b/8/8/8/5R2 w - - 0 1"})
    ASSERT_TRUE(tb.probeRoot(fen(f)));  // maps the WDL and DTZ files of KPvK, KRvK, KRvKB
  testing::internal::CaptureStderr();
  tb.init(kSyzygyDir);  // a new path (the same here) unmaps the old tables
  ASSERT_TRUE(tb.probeRoot(fen("4k3/8/4K3/4P3/8/8/8/8 w - - 0 1")));
  tb.release();
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
  // stdio's stderr is back: what the program writes there still arrives.
  testing::internal::CaptureStderr();
  std::fputs("still here\n", stderr);
  std::fflush(stderr);
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "still here\n");
}

TEST(Syzygy, LibraryErrorSaysWhetherFathomLoads) {
  // This build machine has libfathom1 (the tests above use it).
  EXPECT_FALSE(SyzygyTablebases::libraryError()) << *SyzygyTablebases::libraryError();
}

TEST(Syzygy, KnownWinsDrawsAndLosses) {
  REQUIRE_SYZYGY();
  SyzygyTablebases tb;
  tb.init(kSyzygyDir);
  // KQ v K: a win for the side with the queen, whoever is to move.
  EXPECT_EQ(tb.probeWdl(fen("4k3/8/8/8/8/8/8/4KQ2 w - - 0 1")), SyzygyWdl::kWin);
  EXPECT_EQ(tb.probeWdl(fen("4k3/8/8/8/8/8/8/4KQ2 b - - 0 1")), SyzygyWdl::kLoss);
  // Black to move takes the undefended queen: a draw.
  EXPECT_EQ(tb.probeWdl(fen("8/8/8/8/8/8/2kQ4/7K b - - 0 1")), SyzygyWdl::kDraw);
  // KN v K and KB v K: no mating material.
  EXPECT_EQ(tb.probeWdl(fen("4k3/8/8/8/8/8/8/4KN2 w - - 0 1")), SyzygyWdl::kDraw);
  EXPECT_EQ(tb.probeWdl(fen("4k3/8/8/8/8/8/8/4KB2 b - - 0 1")), SyzygyWdl::kDraw);
  // KP v K: the rook pawn with the defending king in front is a draw; a central pawn with the
  // king ahead of it a win.
  EXPECT_EQ(tb.probeWdl(fen("7k/8/8/8/8/8/7P/7K w - - 0 1")), SyzygyWdl::kDraw);
  EXPECT_EQ(tb.probeWdl(fen("8/8/4k3/8/8/3K4/3P4/8 w - - 0 1")), SyzygyWdl::kWin);
  // Black's pawn on the 2nd rank, white king far: Black (to move) wins, White loses.
  EXPECT_EQ(tb.probeWdl(fen("8/8/8/8/8/8/k1p5/7K b - - 0 1")), SyzygyWdl::kWin);
  EXPECT_EQ(tb.probeWdl(fen("8/8/8/8/8/8/k1p5/7K w - - 0 1")), SyzygyWdl::kLoss);
  // En passant: after ...d7d5 White's e5xd6 wins in KP v KP.
  const Position ep = fen("8/8/8/3pP3/8/8/k7/7K w - d6 0 1");
  EXPECT_TRUE(tb.probeWdl(ep).has_value());
  // Not covered: 5 pieces, castling rights.
  EXPECT_FALSE(tb.probeWdl(fen("4k3/8/8/8/8/8/8/R3KQ1R w - - 0 1")));
  EXPECT_FALSE(tb.covers(fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1")));
  EXPECT_FALSE(tb.probeWdl(fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1")));
  EXPECT_EQ(tb.probeWdl(fen("4k3/8/8/8/8/8/8/4K2R w - - 0 1")), SyzygyWdl::kWin);
}

TEST(Syzygy, WdlAgreesWithTheRootProbeOnRandomPositions) {
  REQUIRE_SYZYGY();
  SyzygyTablebases tb;
  tb.init(kSyzygyDir);
  // The WDL table value of a position equals the best of its moves' values in the DTZ probe
  // (halfmove clock 0 and no cursed results in 3-4 piece tables, so both agree exactly).
  std::mt19937 rng(7);
  const std::vector<std::string> materials = {"KQvKR", "KRvKB", "KBNvK", "KPvKP", "KRPvK", "KQvKP"};
  int checked = 0;
  for (int i = 0; i < 400; ++i) {
    const std::string& mat = materials[size_t(i) % materials.size()];
    char board[64] = {};
    const auto place = [&](char p) {
      for (;;) {
        const int s = int(rng() % 64);
        if (board[s] || ((p == 'P' || p == 'p') && (s < 8 || s >= 56))) continue;
        board[s] = p;
        return;
      }
    };
    bool black = false;
    for (char c : mat) {
      if (c == 'v') {
        black = true;
        continue;
      }
      place(black ? char(std::tolower(c)) : c);
    }
    std::string f;
    for (int r = 7; r >= 0; --r) {
      int empty = 0;
      for (int file = 0; file < 8; ++file) {
        const char c = board[r * 8 + file];
        if (!c) {
          ++empty;
          continue;
        }
        if (empty) f += char('0' + empty), empty = 0;
        f += c;
      }
      if (empty) f += char('0' + empty);
      if (r) f += '/';
    }
    f += (rng() & 1) ? " w - - 0 1" : " b - - 0 1";
    Position pos;
    try {
      pos = fen(f);
    } catch (const Error&) {
      continue;  // the side not to move is in check, pawns on impossible squares, ...
    }
    if (legalMoves(pos).empty()) continue;
    const auto wdl = tb.probeWdl(pos);
    const auto root = tb.probeRoot(pos);
    ASSERT_TRUE(wdl && root) << f;
    EXPECT_EQ(*wdl, root->wdl) << f;
    EXPECT_TRUE(root->dtzKnown);
    ++checked;
  }
  EXPECT_GT(checked, 150);
}

TEST(Syzygy, RootWithOnlyOneWinningMove) {
  REQUIRE_SYZYGY();
  SyzygyTablebases tb;
  tb.init(kSyzygyDir);
  // K+R v K+N: of White's 20 moves only Kd2xe2, taking the knight, keeps the win (found by
  // sampling the tables).
  const Position pos = fen("8/8/7R/8/8/8/3Kn1k1/8 w - - 0 1");
  const auto probe = tb.probeRoot(pos);
  ASSERT_TRUE(probe);
  EXPECT_EQ(probe->moves.size(), 20u);
  EXPECT_EQ(probe->wdl, SyzygyWdl::kWin);
  EXPECT_EQ(toUci(probe->moves.front().move, false), "d2e2");
  EXPECT_EQ(probe->moves.front().rank, 1000);
  EXPECT_GT(probe->dtz, 0);
  const long wins = std::count_if(probe->moves.begin(), probe->moves.end(),
                                  [](const SyzygyRootMove& m) { return m.wdl == SyzygyWdl::kWin; });
  EXPECT_EQ(wins, 1);
  for (size_t i = 1; i < probe->moves.size(); ++i) EXPECT_LE(probe->moves[i].rank, 0) << toUci(probe->moves[i].move, false);
  // Every other move's own value agrees: the position after it is not lost for Black.
  for (size_t i = 1; i < probe->moves.size(); ++i) {
    Position after = pos;
    after.makeMove(probe->moves[i].move);
    const auto reply = tb.probeWdl(after);
    ASSERT_TRUE(reply);
    EXPECT_NE(*reply, SyzygyWdl::kLoss) << toUci(probe->moves[i].move, false);
  }
  // K+R v K+B: only the quiet Rf1-c1 of 17 moves keeps the win.
  const auto krkb = tb.rootVerdict(fen("1k6/8/K7/7b/8/8/8/5R2 w - - 0 1"));
  ASSERT_TRUE(krkb);
  EXPECT_EQ(uciList(krkb->moves), std::vector<std::string>{"f1c1"});
  EXPECT_EQ(krkb->probes, 17u);
  EXPECT_EQ(krkb->dtzPlies, 16);

  const auto verdict = tb.rootVerdict(pos);
  ASSERT_TRUE(verdict);
  EXPECT_EQ(verdict->wdl, TbWdl::kWin);
  EXPECT_EQ(uciList(verdict->moves), std::vector<std::string>{"d2e2"});
  EXPECT_EQ(verdict->dtzPlies, probe->dtz);
  EXPECT_EQ(verdict->probes, 20u);
  EXPECT_TRUE(verdict->countsFiftyMoveRule);
  EXPECT_FALSE(verdict->matePlies);
}

TEST(Syzygy, DrawnRootKeepsOnlyDrawingMoves) {
  REQUIRE_SYZYGY();
  SyzygyTablebases tb;
  tb.init(kSyzygyDir);
  // Black to move must take the queen on d2 (Kc2xd2 is the only drawing move; the rest lose).
  const auto verdict = tb.rootVerdict(fen("8/8/8/8/8/8/2kQ4/7K b - - 0 1"));
  ASSERT_TRUE(verdict);
  EXPECT_EQ(verdict->wdl, TbWdl::kDraw);
  EXPECT_EQ(uciList(verdict->moves), std::vector<std::string>{"c2d2"});
  EXPECT_EQ(verdict->dtzPlies, 0);
}

TEST(Syzygy, NoCursedResultsInThreeAndFourPieceTables) {
  REQUIRE_SYZYGY();
  // No 3-4 piece position needs more than 50 moves to a zeroing move, so no WDL probe is a cursed
  // win or a blessed loss (sampling all 35 tables, 300000 random positions each, found none).
  // Checked here on 20000 random KBNvK, KQvKR and KRvKB positions.
  SyzygyTablebases tb;
  tb.init(kSyzygyDir);
  std::mt19937 rng(11);
  int probed = 0;
  for (int i = 0; i < 20000; ++i) {
    const int sq[4] = {int(rng() % 64), int(rng() % 64), int(rng() % 64), int(rng() % 64)};
    if (sq[0] == sq[1] || sq[0] == sq[2] || sq[0] == sq[3] || sq[1] == sq[2] || sq[1] == sq[3] || sq[2] == sq[3]) continue;
    static const char* kSets[3][4] = {{"K", "B", "N", "k"}, {"K", "Q", "k", "r"}, {"K", "R", "k", "b"}};
    const auto& set = kSets[i % 3];
    char board[64] = {};
    for (int k = 0; k < 4; ++k) board[sq[k]] = set[k][0];
    std::string f;
    for (int r = 7; r >= 0; --r) {
      int empty = 0;
      for (int file = 0; file < 8; ++file) {
        const char c = board[r * 8 + file];
        if (!c) {
          ++empty;
          continue;
        }
        if (empty) f += char('0' + empty), empty = 0;
        f += c;
      }
      if (empty) f += char('0' + empty);
      if (r) f += '/';
    }
    f += (i & 1) ? " w - - 0 1" : " b - - 0 1";
    Position pos;
    try {
      pos = fen(f);
    } catch (const Error&) {
      continue;
    }
    const auto wdl = tb.probeWdl(pos);
    ASSERT_TRUE(wdl) << f;
    EXPECT_NE(*wdl, SyzygyWdl::kCursedWin) << f;
    EXPECT_NE(*wdl, SyzygyWdl::kBlessedLoss) << f;
    ++probed;
  }
  EXPECT_GT(probed, 10000);
}

// No 3-4 piece position is cursed by itself, so the 50-move rule is tested through the halfmove
// clock: K+B+N v K with 56 plies to the next zeroing move wins with a fresh clock, but with 50 plies
// already on the clock the zeroing move comes after ply 100: a cursed win (a draw under the rule).
TEST(Syzygy, HalfmoveClockTurnsAWinIntoACursedWin) {
  REQUIRE_SYZYGY();
  SyzygyTablebases tb;
  tb.init(kSyzygyDir);
  const auto fresh = tb.probeRoot(fen("8/4k3/8/8/2B5/8/K7/7N w - - 0 1"));
  ASSERT_TRUE(fresh);
  EXPECT_EQ(fresh->wdl, SyzygyWdl::kWin);
  EXPECT_EQ(fresh->dtz, 56);
  // 56 + 39 = 95: still a safe win.
  EXPECT_EQ(tb.probeRoot(fen("8/4k3/8/8/2B5/8/K7/7N w - - 39 60"))->wdl, SyzygyWdl::kWin);
  const Position late = fen("8/4k3/8/8/2B5/8/K7/7N w - - 50 60");
  const auto cursed = tb.probeRoot(late);
  ASSERT_TRUE(cursed);
  EXPECT_EQ(cursed->wdl, SyzygyWdl::kCursedWin);
  EXPECT_GT(cursed->moves.front().rank, 0);
  EXPECT_LT(cursed->moves.front().rank, 900);
  // The WDL table knows nothing of the clock.
  EXPECT_EQ(tb.probeWdl(late), SyzygyWdl::kWin);

  ASSERT_TRUE(tb.rule50());  // Syzygy50MoveRule's default
  auto verdict = tb.rootVerdict(late);
  ASSERT_TRUE(verdict);
  EXPECT_EQ(verdict->wdl, TbWdl::kDraw);
  EXPECT_EQ(tb.toTbWdl(SyzygyWdl::kCursedWin), TbWdl::kDraw);
  EXPECT_EQ(tb.toTbWdl(SyzygyWdl::kBlessedLoss), TbWdl::kDraw);
  tb.setRule50(false);
  verdict = tb.rootVerdict(late);
  ASSERT_TRUE(verdict);
  EXPECT_EQ(verdict->wdl, TbWdl::kWin);
  EXPECT_EQ(verdict->dtzPlies, 56);
  EXPECT_EQ(tb.toTbWdl(SyzygyWdl::kCursedWin), TbWdl::kWin);
  EXPECT_EQ(tb.toTbWdl(SyzygyWdl::kBlessedLoss), TbWdl::kLoss);
  // Whatever the rule, the moves kept are those of the best rank (the fastest to zeroing).
  for (const SyzygyRootMove& m : cursed->moves) {
    const bool kept = std::find(verdict->moves.begin(), verdict->moves.end(), m.move) != verdict->moves.end();
    EXPECT_EQ(kept, m.rank == cursed->moves.front().rank) << toUci(m.move, false);
  }
}

TEST(Syzygy, HalfmoveClockTurnsALossIntoABlessedLoss) {
  REQUIRE_SYZYGY();
  SyzygyTablebases tb;
  tb.init(kSyzygyDir);
  // The same ending after White's Ka2-a1 (60 plies from zeroing, not the fastest): Black to move
  // loses, 59 plies from zeroing.
  const auto fresh = tb.probeRoot(fen("8/4k3/8/8/2B5/8/8/K6N b - - 1 60"));
  ASSERT_TRUE(fresh);
  EXPECT_EQ(fresh->wdl, SyzygyWdl::kLoss);
  EXPECT_EQ(fresh->dtz, -59);
  const Position late = fen("8/4k3/8/8/2B5/8/8/K6N b - - 51 60");
  const auto blessed = tb.probeRoot(late);
  ASSERT_TRUE(blessed);
  EXPECT_EQ(blessed->wdl, SyzygyWdl::kBlessedLoss);
  tb.setRule50(true);
  EXPECT_EQ(tb.rootVerdict(late)->wdl, TbWdl::kDraw);
  tb.setRule50(false);
  EXPECT_EQ(tb.rootVerdict(late)->wdl, TbWdl::kLoss);
}

TEST(Syzygy, SearchWdlHonoursProbeDepthAndLimit) {
  REQUIRE_SYZYGY();
  SyzygyTablebases tb;
  tb.init(kSyzygyDir);
  const Position pos = fen("4k3/8/8/8/8/8/8/4KQ2 w - - 0 1");
  EXPECT_EQ(tb.searchWdl(pos, 1), TbWdl::kWin);
  tb.setProbeDepth(5);
  EXPECT_FALSE(tb.searchWdl(pos, 4));
  EXPECT_EQ(tb.searchWdl(pos, 5), TbWdl::kWin);
  tb.setProbeDepth(SyzygyTablebases::kDefaultProbeDepth);
  EXPECT_EQ(tb.probeLimit(), 4);
  tb.setProbeLimit(2);
  EXPECT_FALSE(tb.covers(pos));
  EXPECT_FALSE(tb.searchWdl(pos, 10));
  tb.setProbeLimit(SyzygyTablebases::kMaxProbeLimit);
  EXPECT_TRUE(tb.covers(pos));
}

TEST(Syzygy, BadPathIsAnErrorAndChangesNothing) {
  REQUIRE_SYZYGY();
  SyzygyTablebases tb;
  tb.init(kSyzygyDir);
  try {
    tb.init("/nonexistent/syzygy");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("'/nonexistent/syzygy' is not a directory (it does not exist)"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(tb.init(kSyzygyDir + ":/nonexistent"), Error);
  TempDir empty;
  EXPECT_THROW(tb.init(empty.path()), Error);  // a directory without tables
  // The tables loaded before are still in use.
  EXPECT_EQ(tb.paths(), std::vector<std::string>{kSyzygyDir});
  EXPECT_EQ(tb.probeWdl(fen("4k3/8/8/8/8/8/8/4KQ2 w - - 0 1")), SyzygyWdl::kWin);
  // "<empty>" (the UCI convention) releases them.
  EXPECT_TRUE(tb.init("<empty>").summary.empty());
  EXPECT_FALSE(tb.initialised());
}

TEST(Syzygy, OneObjectHoldsFathomAtATime) {
  REQUIRE_SYZYGY();
  SyzygyTablebases a, b;
  a.init(kSyzygyDir);
  EXPECT_THROW(b.init(kSyzygyDir), Error);
  a.release();
  b.init(kSyzygyDir);
  EXPECT_TRUE(b.initialised());
}

TEST(Syzygy, CorruptAndTruncatedTablesAreReportedAndLeftOut) {
  REQUIRE_SYZYGY();
  TempDir dir;
  for (const auto& e : std::filesystem::directory_iterator(kSyzygyDir))
    if (e.path().extension() == ".rtbw" || e.path().extension() == ".rtbz")
      std::filesystem::copy_file(e.path(), dir.dir() / e.path().filename());
  // KQvK.rtbw cut to 1000 bytes (a partial download); KRvK.rtbz overwritten at the start.
  std::filesystem::permissions(dir.dir() / "KQvK.rtbw", std::filesystem::perms::owner_write, std::filesystem::perm_options::add);
  std::filesystem::resize_file(dir.dir() / "KQvK.rtbw", 1000);
  std::filesystem::permissions(dir.dir() / "KRvK.rtbz", std::filesystem::perms::owner_write, std::filesystem::perm_options::add);
  {
    std::fstream f(dir.dir() / "KRvK.rtbz", std::ios::in | std::ios::out | std::ios::binary);
    f.write("JUNKJUNK", 8);
  }
  EXPECT_EQ(SyzygyTablebases::checkTableFile((dir.dir() / "KQvK.rtbw").string()),
            "truncated or corrupt: 1000 bytes (a Syzygy table is 16 bytes more than a multiple of 64)");
  EXPECT_EQ(SyzygyTablebases::checkTableFile((dir.dir() / "KRvK.rtbz").string()),
            "corrupt: not a Syzygy DTZ table (wrong magic number)");
  EXPECT_FALSE(SyzygyTablebases::checkTableFile(kSyzygyDir + "/KQvK.rtbw"));

  SyzygyTablebases tb;
  const auto report = tb.init(dir.path());
  ASSERT_EQ(report.problems.size(), 2u);
  EXPECT_NE(report.problems[0].find("KQvK.rtbw: truncated or corrupt"), std::string::npos) << report.problems[0];
  EXPECT_NE(report.problems[1].find("KRvK.rtbz: corrupt"), std::string::npos) << report.problems[1];
  EXPECT_EQ(report.wdlFiles, 22);
  EXPECT_EQ(report.dtzFiles, 22);
  EXPECT_EQ(tb.maxPieces(), 4);
  // KQ v K is unknown now; everything else still answers.
  EXPECT_FALSE(tb.probeWdl(fen("4k3/8/8/8/8/8/8/4KQ2 w - - 0 1")));
  EXPECT_FALSE(tb.rootVerdict(fen("4k3/8/8/8/8/8/8/4KQ2 w - - 0 1")));
  EXPECT_EQ(tb.probeWdl(fen("4k3/8/8/8/8/8/8/4KR2 w - - 0 1")), SyzygyWdl::kWin);
  EXPECT_EQ(tb.probeWdl(fen("8/4k3/8/8/2B5/8/K7/7N w - - 0 1")), SyzygyWdl::kWin);
  // K+R v K with a corrupt DTZ table: Fathom drops the whole material signature at the first probe
  // that needs the DTZ file; from then on K+R v K is unknown and the search goes on without it.
  EXPECT_FALSE(tb.probeRoot(fen("4k3/8/8/8/8/8/8/4KR2 w - - 0 1")));
  EXPECT_FALSE(tb.probeWdl(fen("4k3/8/8/8/8/8/8/4KR2 w - - 0 1")));
  // Probes of the intact K+B+N v K DTZ table still work.
  const auto kbn = tb.probeRoot(fen("8/4k3/8/8/2B5/8/K7/7N w - - 0 1"));
  ASSERT_TRUE(kbn);
  EXPECT_TRUE(kbn->dtzKnown);
  EXPECT_EQ(kbn->dtz, 56);
}

TEST(Syzygy, ProbesFromSeveralThreadsAgree) {
  REQUIRE_SYZYGY();
  SyzygyTablebases tb;
  tb.init(kSyzygyDir);
  const std::vector<std::pair<std::string, SyzygyWdl>> cases = {
      {"4k3/8/8/8/8/8/8/4KQ2 w - - 0 1", SyzygyWdl::kWin},    {"4k3/8/8/8/8/8/8/4KQ2 b - - 0 1", SyzygyWdl::kLoss},
      {"8/8/4k3/8/8/3K4/3P4/8 w - - 0 1", SyzygyWdl::kWin},   {"7k/8/8/8/8/8/7P/7K w - - 0 1", SyzygyWdl::kDraw},
      {"8/4k3/8/8/2B5/8/K7/7N w - - 0 1", SyzygyWdl::kWin},   {"4k3/8/8/8/8/8/8/4KN2 w - - 0 1", SyzygyWdl::kDraw}};
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 300; ++i) {
        const auto& [f, expected] = cases[size_t(i + t) % cases.size()];
        if (tb.probeWdl(fen(f)) != expected) ++wrong;
      }
    });
  for (auto& th : threads) th.join();
  EXPECT_EQ(wrong.load(), 0);
}

}  // namespace
}  // namespace janus
