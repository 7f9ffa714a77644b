#include "tb/gaviota.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "core/fen.h"
#include "core/movegen.h"
#include "core/notation.h"
#include "util/error.h"

namespace janus {
namespace {

// 3-piece tables of Debian's gaviotatb package, in four compression schemes.
const std::string kGtbRoot = "/usr/share/gaviotatb";
const std::string kGtb4 = kGtbRoot + "/gtb4";  // *.gtb.cp4
const std::string kGtb1 = kGtbRoot + "/gtb1";  // *.gtb.cp1

#define SKIP_WITHOUT_TABLES()                                                                 \
  if (!std::filesystem::exists(kGtb4 + "/kqk.gtb.cp4"))                                         \
    GTEST_SKIP() << "Gaviota 3-piece tables missing (apt-get install gaviotatb): " << kGtb4

Position fen(const std::string& f) { return Position::fromFen(f); }

std::vector<std::string> uciList(const std::vector<Move>& moves) {
  std::vector<std::string> out;
  for (Move m : moves) out.push_back(toUci(m, false));
  std::sort(out.begin(), out.end());
  return out;
}

// ---- Independent brute-force mate search with Janus's move generator -----------------------------

bool lostWithin(Position& pos, int plies);

/// Side to move mates within `plies` plies (an odd number counts its own moves and the replies).
bool mateWithin(Position& pos, int plies) {
  if (plies < 1) return false;
  for (Move m : legalMoves(pos)) {
    pos.makeMove(m);
    const bool win = isCheckmate(pos) || (plies >= 3 && lostWithin(pos, plies - 1));
    pos.unmakeMove(m);
    if (win) return true;
  }
  return false;
}

/// Side to move is checkmated now or within `plies` plies whatever it does.
bool lostWithin(Position& pos, int plies) {
  const MoveList moves = legalMoves(pos);
  if (moves.empty()) return pos.inCheck();
  if (plies < 2) return false;
  for (Move m : moves) {
    pos.makeMove(m);
    const bool mated = mateWithin(pos, plies - 1);
    pos.unmakeMove(m);
    if (!mated) return false;
  }
  return true;
}

/// Exact DTM in plies when it is at most `limit`, by iterative deepening; -1 if longer.
int bruteDtm(Position pos, bool winner, int limit) {
  for (int d = winner ? 1 : 0; d <= limit; d += 2)
    if (winner ? mateWithin(pos, d) : lostWithin(pos, d)) return d;
  return -1;
}

/// Random legal positions of kings plus the given white pieces, side to move at random.
std::vector<Position> randomPositions(const std::string& whitePieces, int count, u64 seed) {
  std::mt19937_64 rng(seed);
  std::vector<Position> out;
  while (int(out.size()) < count) {
    char board[64];
    std::fill(std::begin(board), std::end(board), '.');
    std::string pieces = "Kk" + whitePieces;
    bool ok = true;
    for (char p : pieces) {
      int s = int(rng() % 64);
      if (board[s] != '.' || (p == 'P' && (s < 8 || s >= 56))) {
        ok = false;
        break;
      }
      board[s] = p;
    }
    if (!ok) continue;
    std::string f = fenPlacement(board);
    f += (rng() & 1) ? " w - - 0 1" : " b - - 0 1";
    try {
      out.push_back(Position::fromFen(f));
    } catch (const Error&) {  // adjacent kings, side not to move in check
    }
  }
  return out;
}

// ---- Tests -------------------------------------------------------------------------------------------

TEST(Gaviota, InitFindsDebianThreePieceTables) {
  SKIP_WITHOUT_TABLES();
  GaviotaTablebases tb;
  EXPECT_FALSE(tb.initialised());
  EXPECT_EQ(tb.maxPieces(), 0);
  ASSERT_TRUE(tb.init(kGtb4, 4));
  EXPECT_TRUE(tb.initialised());
  EXPECT_EQ(tb.maxPieces(), 3);
  EXPECT_EQ(tb.compressionScheme(), 4);
  EXPECT_EQ(tb.paths(), std::vector<std::string>{kGtb4});
  EXPECT_NE(tb.summary().find("3-piece complete"), std::string::npos) << tb.summary();
  EXPECT_NE(tb.summary().find("cp4"), std::string::npos) << tb.summary();
}

TEST(Gaviota, SplitPaths) {
  EXPECT_EQ(GaviotaTablebases::splitPaths("/a;/b:/c"), (std::vector<std::string>{"/a", "/b", "/c"}));
  EXPECT_EQ(GaviotaTablebases::splitPaths(" /a ; ;/b/c d: "), (std::vector<std::string>{"/a", "/b/c d"}));
  EXPECT_TRUE(GaviotaTablebases::splitPaths("").empty());
  EXPECT_TRUE(GaviotaTablebases::splitPaths(" ; : ").empty());
}

TEST(Gaviota, MateInOneAndMatedPositions) {
  SKIP_WITHOUT_TABLES();
  GaviotaTablebases tb;
  ASSERT_TRUE(tb.init(kGtb4, 4));
  // White: Kg6, Qb1; Black: Kh8. Qb8 mates.
  const Position mateIn1 = fen("7k/8/6K1/8/8/8/8/1Q6 w - - 0 1");
  EXPECT_EQ(tb.probeDtm(mateIn1), (TbDtm{TbWdl::kWin, 1}));
  EXPECT_EQ(tb.probeWdl(mateIn1), TbWdl::kWin);
  // Same squares, Black to move: any king move, then mate: lost in 2 plies.
  const Position matedIn2 = fen("7k/8/6K1/8/8/8/8/1Q6 b - - 0 1");
  EXPECT_EQ(tb.probeDtm(matedIn2), (TbDtm{TbWdl::kLoss, 2}));
  EXPECT_EQ(tb.probeDtm(matedIn2)->signedPlies(), -2);
  EXPECT_EQ(tb.probeWdl(matedIn2), TbWdl::kLoss);
  // Checkmated now: a loss at distance 0 (not a draw).
  const Position mated = fen("1Q5k/8/6K1/8/8/8/8/8 b - - 0 1");
  ASSERT_TRUE(isCheckmate(mated));
  EXPECT_EQ(tb.probeDtm(mated), (TbDtm{TbWdl::kLoss, 0}));
  EXPECT_EQ(tb.probeWdl(mated), TbWdl::kLoss);
  // The brute-force search agrees.
  EXPECT_EQ(bruteDtm(mateIn1, true, 5), 1);
  EXPECT_EQ(bruteDtm(matedIn2, false, 4), 2);
}

TEST(Gaviota, SideToMoveSign) {
  SKIP_WITHOUT_TABLES();
  GaviotaTablebases tb;
  ASSERT_TRUE(tb.init(kGtb4, 4));
  // KRvK from the library's example program, both sides to move.
  const auto white = tb.probeDtm(fen("8/8/8/4k3/8/8/8/KR6 w - - 0 1"));
  const auto black = tb.probeDtm(fen("8/8/8/4k3/8/8/8/KR6 b - - 0 1"));
  ASSERT_TRUE(white && black);
  EXPECT_EQ(white->wdl, TbWdl::kWin);
  EXPECT_EQ(white->plies % 2, 1);
  EXPECT_GT(white->signedPlies(), 0);
  EXPECT_EQ(black->wdl, TbWdl::kLoss);
  EXPECT_EQ(black->plies % 2, 0);
  EXPECT_LT(black->signedPlies(), 0);
  // Colours swapped (Black has the rook): the signs follow the side to move, not the colour.
  EXPECT_EQ(tb.probeWdl(fen("kr6/8/8/8/4K3/8/8/8 b - - 0 1")), TbWdl::kWin);
  EXPECT_EQ(tb.probeWdl(fen("kr6/8/8/8/4K3/8/8/8 w - - 0 1")), TbWdl::kLoss);
  EXPECT_EQ(tb.probeDtm(fen("kr6/8/8/8/4K3/8/8/8 b - - 0 1")), white);  // mirror image of the first
}

TEST(Gaviota, DrawnMaterial) {
  SKIP_WITHOUT_TABLES();
  GaviotaTablebases tb;
  ASSERT_TRUE(tb.init(kGtb4, 4));
  for (const char* f : {"8/8/8/8/8/8/8/K1k5 w - - 0 1", "8/8/8/3k4/8/8/8/K7 b - - 0 1",  // KvK
                        "8/8/8/8/8/2B5/8/K1k5 w - - 0 1", "8/8/3k4/8/8/2B5/8/K7 b - - 0 1",  // KBvK
                        "8/8/8/8/8/2n5/8/K1k5 w - - 0 1"}) {                                // KvKN
    EXPECT_EQ(tb.probeWdl(fen(f)), TbWdl::kDraw) << f;
    EXPECT_EQ(tb.probeDtm(fen(f)), (TbDtm{TbWdl::kDraw, 0})) << f;
  }
  // KRvK where the king takes the rook at once.
  EXPECT_EQ(tb.probeWdl(fen("8/8/8/8/8/8/1k6/R3K3 b - - 0 1")), TbWdl::kDraw);
}

TEST(Gaviota, KingAndPawnOpposition) {
  SKIP_WITHOUT_TABLES();
  GaviotaTablebases tb;
  ASSERT_TRUE(tb.init(kGtb4, 4));
  // White Ke4, Pe3; Black Ke6. White to move: Black keeps the opposition, a draw.
  // Black to move: it must give way and White wins.
  EXPECT_EQ(tb.probeWdl(fen("8/8/4k3/8/4K3/4P3/8/8 w - - 0 1")), TbWdl::kDraw);
  EXPECT_EQ(tb.probeWdl(fen("8/8/4k3/8/4K3/4P3/8/8 b - - 0 1")), TbWdl::kLoss);
  // White king on the sixth rank in front of its pawn: a win whoever moves.
  EXPECT_EQ(tb.probeWdl(fen("4k3/8/4K3/4P3/8/8/8/8 w - - 0 1")), TbWdl::kWin);
  EXPECT_EQ(tb.probeWdl(fen("4k3/8/4K3/4P3/8/8/8/8 b - - 0 1")), TbWdl::kLoss);
  // Stalemate: Black to move has no move and is not in check.
  const Position stalemate = fen("4k3/4P3/4K3/8/8/8/8/8 b - - 0 1");
  ASSERT_TRUE(isStalemate(stalemate));
  EXPECT_EQ(tb.probeWdl(stalemate), TbWdl::kDraw);
  // Rook pawn, defending king in the corner: a draw even with White to move.
  EXPECT_EQ(tb.probeWdl(fen("k7/8/8/8/8/8/P7/K7 w - - 0 1")), TbWdl::kDraw);
}

// DTM values of random KQvK and KRvK positions against an independent brute-force search: exact
// for mates within 5 plies (wins) / 4 plies (losses); longer TB values must not be found shorter.
TEST(Gaviota, ShortMatesAgreeWithBruteForce) {
  SKIP_WITHOUT_TABLES();
  GaviotaTablebases tb;
  ASSERT_TRUE(tb.init(kGtb4, 4));
  int exact = 0;
  for (const std::string pieces : {"Q", "R"}) {
    for (const Position& pos : randomPositions(pieces, 150, pieces == "Q" ? 11 : 12)) {
      const auto dtm = tb.probeDtm(pos);
      ASSERT_TRUE(dtm) << pos.fen();
      if (dtm->wdl == TbWdl::kDraw) continue;  // the defender can take the piece or is stalemated
      const bool winner = dtm->wdl == TbWdl::kWin;
      const int limit = winner ? 5 : 4;
      const int brute = bruteDtm(pos, winner, limit);
      if (dtm->plies <= limit) {
        EXPECT_EQ(brute, dtm->plies) << pos.fen();
        ++exact;
      } else {
        EXPECT_EQ(brute, -1) << pos.fen() << " TB DTM " << dtm->plies;
      }
    }
  }
  EXPECT_GE(exact, 10) << "too few short mates sampled";
}

// Retrograde consistency across tables: the value of a position is the best over its moves, each
// probed in its own table (KPvK promotions land in KQvK/KRvK/KBvK/KNvK, captures in KvK).
TEST(Gaviota, RootValueMatchesPositionValue) {
  SKIP_WITHOUT_TABLES();
  GaviotaTablebases tb;
  ASSERT_TRUE(tb.init(kGtb4, 4));
  int checked = 0;
  for (const std::string pieces : {"Q", "R", "P", "B"}) {
    for (const Position& pos : randomPositions(pieces, 60, 100 + pieces[0])) {
      const auto dtm = tb.probeDtm(pos);
      ASSERT_TRUE(dtm) << pos.fen();
      const auto root = tb.probeRoot(pos);
      if (legalMoves(pos).empty()) {
        EXPECT_FALSE(root);
        continue;
      }
      ASSERT_TRUE(root) << pos.fen();
      EXPECT_EQ(root->dtm, *dtm) << pos.fen();
      ++checked;
    }
  }
  EXPECT_GE(checked, 200);
}

TEST(Gaviota, ProbeRootChoosesFastestMate) {
  SKIP_WITHOUT_TABLES();
  GaviotaTablebases tb;
  ASSERT_TRUE(tb.init(kGtb4, 4));
  // Every queen move keeps the win; only the mating moves are best.
  const Position pos = fen("7k/8/6K1/8/8/8/8/1Q6 w - - 0 1");
  std::vector<Move> mates;
  for (Move m : legalMoves(pos)) {
    Position child = pos;
    child.makeMove(m);
    if (isCheckmate(child)) mates.push_back(m);
  }
  const auto root = tb.probeRoot(pos);
  ASSERT_TRUE(root);
  EXPECT_EQ(root->dtm, (TbDtm{TbWdl::kWin, 1}));
  EXPECT_EQ(uciList(root->bestMoves), uciList(mates));
  EXPECT_EQ(root->moves.size(), size_t(legalMoves(pos).size()));
  EXPECT_EQ(root->moves.front().dtm.plies, 1);
  for (std::size_t i = 1; i < root->moves.size(); ++i) {  // sorted: wins by increasing DTM, then the rest
    if (root->moves[i].dtm.wdl == TbWdl::kWin && root->moves[i - 1].dtm.wdl == TbWdl::kWin) {
      EXPECT_LE(root->moves[i - 1].dtm.plies, root->moves[i].dtm.plies);
    }
  }

  // Promotion: queening mates fastest (the king move Kd2 ties); a knight or bishop only draws.
  const Position promo = fen("8/4P3/8/8/8/8/k7/4K3 w - - 0 1");
  const auto pr = tb.probeRoot(promo);
  ASSERT_TRUE(pr);
  EXPECT_EQ(pr->dtm.wdl, TbWdl::kWin);
  const auto best = uciList(pr->bestMoves);
  EXPECT_NE(std::find(best.begin(), best.end(), "e7e8q"), best.end());
  for (const TbRootMove& rm : pr->moves) {
    const std::string uci = toUci(rm.move, false);
    if (uci == "e7e8n" || uci == "e7e8b") {
      EXPECT_EQ(rm.dtm.wdl, TbWdl::kDraw) << uci;
    }
    if (uci == "e7e8r") {
      EXPECT_GT(rm.dtm.plies, pr->dtm.plies);
    }
  }

  // Losing side: the longest resistance. KRvK, Black to move: Kc2 lasts longest, Kxa1 draws.
  const Position defend = fen("8/8/8/8/8/8/1k6/R3K3 b - - 0 1");
  const auto dr = tb.probeRoot(defend);
  ASSERT_TRUE(dr);
  EXPECT_EQ(dr->dtm.wdl, TbWdl::kDraw);
  EXPECT_EQ(uciList(dr->bestMoves), std::vector<std::string>{"b2a1"});
}

TEST(Gaviota, LosingRootMaximisesDistance) {
  SKIP_WITHOUT_TABLES();
  GaviotaTablebases tb;
  ASSERT_TRUE(tb.init(kGtb4, 4));
  const Position pos = fen("8/8/4k3/8/4K3/4P3/8/8 b - - 0 1");  // lost for Black (opposition)
  const auto root = tb.probeRoot(pos);
  ASSERT_TRUE(root);
  EXPECT_EQ(root->dtm.wdl, TbWdl::kLoss);
  int longest = 0;
  for (const TbRootMove& rm : root->moves) {
    EXPECT_EQ(rm.dtm.wdl, TbWdl::kLoss);
    longest = std::max(longest, rm.dtm.plies);
  }
  EXPECT_EQ(root->dtm.plies, longest);
  for (Move m : root->bestMoves)
    EXPECT_EQ(std::find_if(root->moves.begin(), root->moves.end(), [m](const TbRootMove& r) { return r.move == m; })
                  ->dtm.plies,
              longest);
}

TEST(Gaviota, NotProbedWhenUnavailable) {
  SKIP_WITHOUT_TABLES();
  GaviotaTablebases tb;
  const Position krk = fen("8/8/8/4k3/8/8/8/KR6 w - - 0 1");
  EXPECT_FALSE(tb.available(krk));  // not initialised
  EXPECT_FALSE(tb.probeWdl(krk));
  ASSERT_TRUE(tb.init(kGtb4, 4));
  EXPECT_TRUE(tb.available(krk));
  // Castling rights: Gaviota has no castling, never probed.
  const Position castle = fen("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1");
  EXPECT_FALSE(tb.available(castle));
  EXPECT_FALSE(tb.probeWdl(castle));
  EXPECT_FALSE(tb.probeDtm(castle));
  EXPECT_FALSE(tb.probeRoot(castle));
  // Too many pieces for the 3-piece set.
  const Position four = fen("4k3/8/8/8/8/8/1q6/R3K3 w - - 0 1");
  EXPECT_FALSE(tb.available(four));
  EXPECT_FALSE(tb.probeWdl(four));
  EXPECT_FALSE(tb.probeDtm(four));
  EXPECT_FALSE(tb.probeRoot(Position()));
  // No legal move: nothing to choose at the root, but the position itself is probed.
  const Position mated = fen("1Q5k/8/6K1/8/8/8/8/8 b - - 0 1");
  EXPECT_FALSE(tb.probeRoot(mated));
  EXPECT_TRUE(tb.probeDtm(mated));
}

TEST(Gaviota, MissingTableFileGivesNoResult) {
  SKIP_WITHOUT_TABLES();
  const std::filesystem::path dir = std::filesystem::path(testing::TempDir()) / "janus_gtb_partial";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::filesystem::copy_file(kGtb4 + "/kqk.gtb.cp4", dir / "kqk.gtb.cp4");
  {
    GaviotaTablebases tb;
    ASSERT_TRUE(tb.init(dir.string(), 1));
    EXPECT_EQ(tb.maxPieces(), 3);
    EXPECT_NE(tb.summary().find("3-piece partial"), std::string::npos) << tb.summary();
    EXPECT_EQ(tb.probeWdl(fen("7k/8/6K1/8/8/8/8/1Q6 w - - 0 1")), TbWdl::kWin);
    EXPECT_FALSE(tb.probeWdl(fen("8/8/8/4k3/8/8/8/KR6 w - - 0 1")));  // krk missing
    EXPECT_FALSE(tb.probeDtm(fen("8/8/8/4k3/8/8/8/KR6 w - - 0 1")));
    EXPECT_FALSE(tb.probeRoot(fen("8/4P3/8/8/8/8/k7/4K3 w - - 0 1")));  // e8=R leads to krk
  }
  std::filesystem::remove_all(dir);
}

TEST(Gaviota, ReinitWithOtherPathsAndRelease) {
  SKIP_WITHOUT_TABLES();
  const Position krk = fen("8/8/8/4k3/8/8/8/KR6 w - - 0 1");
  GaviotaTablebases tb;
  ASSERT_TRUE(tb.init(kGtb4, 4));
  const auto expected = tb.probeDtm(krk);
  ASSERT_TRUE(expected);
  // Another directory with another compression scheme (cp1): restarted, same values.
  ASSERT_TRUE(tb.init(kGtb1, 4));
  EXPECT_EQ(tb.compressionScheme(), 1);
  EXPECT_EQ(tb.paths(), std::vector<std::string>{kGtb1});
  EXPECT_EQ(tb.probeDtm(krk), expected);
  // Only the cache size changes.
  ASSERT_TRUE(tb.init(kGtb1, 2));
  EXPECT_NE(tb.summary().find("cache 2 MiB"), std::string::npos) << tb.summary();
  EXPECT_EQ(tb.probeDtm(krk), expected);
  // Two directories, ':' separated: 5 files each, cp4 wins the tie.
  ASSERT_TRUE(tb.init(kGtb1 + ":" + kGtb4, 4));
  EXPECT_EQ(tb.compressionScheme(), 4);
  EXPECT_EQ(tb.paths(), (std::vector<std::string>{kGtb1, kGtb4}));
  EXPECT_EQ(tb.probeDtm(krk), expected);
  // "<empty>" releases; a directory without tables fails and leaves it released.
  EXPECT_FALSE(tb.init("<empty>", 4));
  EXPECT_FALSE(tb.initialised());
  EXPECT_FALSE(tb.probeDtm(krk));
  EXPECT_EQ(tb.summary(), "Gaviota tablebases: not loaded");
  EXPECT_FALSE(tb.init("/nonexistent/janus-gtb", 4));
  EXPECT_FALSE(tb.initialised());
  EXPECT_EQ(tb.maxPieces(), 0);
  ASSERT_TRUE(tb.init(kGtb4 + ";", 4));
  EXPECT_EQ(tb.probeDtm(krk), expected);
  tb.release();
  EXPECT_FALSE(tb.probeDtm(krk));
  tb.release();  // twice is fine
}

TEST(Gaviota, OneLibraryOwnerAtATime) {
  SKIP_WITHOUT_TABLES();
  GaviotaTablebases first;
  ASSERT_TRUE(first.init(kGtb4, 1));
  {
    GaviotaTablebases second;
    EXPECT_THROW((void)second.init(kGtb4, 1), Error);
    EXPECT_FALSE(second.initialised());
  }  // destroying a non-owner leaves the owner working
  EXPECT_EQ(first.probeWdl(fen("8/8/8/4k3/8/8/8/KR6 w - - 0 1")), TbWdl::kWin);
  first.release();
  GaviotaTablebases third;
  EXPECT_TRUE(third.init(kGtb4, 1));
}

TEST(Gaviota, CacheOnlyProbeReadsNoDisk) {
  SKIP_WITHOUT_TABLES();
  GaviotaTablebases tb;
  ASSERT_TRUE(tb.init(kGtb4, 1));
  const Position pos = fen("8/8/4k3/8/4K3/4P3/8/8 b - - 0 1");
  // Fresh cache: a soft probe fails instead of reading the file.
  EXPECT_FALSE(tb.probeDtm(pos, true));
  EXPECT_FALSE(tb.probeWdl(pos, true));
  const auto dtm = tb.probeDtm(pos);
  ASSERT_TRUE(dtm);
  EXPECT_EQ(dtm->wdl, TbWdl::kLoss);
  EXPECT_EQ(tb.probeDtm(pos, true), dtm);  // the block is cached now
  EXPECT_EQ(tb.probeWdl(pos), TbWdl::kLoss);
  EXPECT_EQ(tb.probeWdl(pos, true), TbWdl::kLoss);
}

TEST(Gaviota, ConcurrentProbesGiveSequentialResults) {
  SKIP_WITHOUT_TABLES();
  GaviotaTablebases tb;
  ASSERT_TRUE(tb.init(kGtb4, 1));  // small cache: blocks are evicted and re-read while threads race
  std::vector<Position> positions;
  for (const std::string pieces : {"Q", "R", "P", "N"})
    for (const Position& p : randomPositions(pieces, 100, 7 + pieces[0])) positions.push_back(p);
  std::vector<int> expected;
  for (const Position& p : positions) {
    const auto d = tb.probeDtm(p);
    ASSERT_TRUE(d);
    expected.push_back(d->signedPlies() * 4 + int(d->wdl));
  }
  std::vector<int> mismatches(4, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < 1; ++round)
        for (std::size_t i = 0; i < positions.size(); ++i) {
          const std::size_t k = (i * 7 + t * 13 + round) % positions.size();
          const auto w = tb.probeWdl(positions[k]);
          const auto d = tb.probeDtm(positions[k]);
          if (!w || !d || d->signedPlies() * 4 + int(d->wdl) != expected[k] || *w != d->wdl) ++mismatches[t];
        }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(mismatches, std::vector<int>(4, 0));
}

}  // namespace
}  // namespace janus
