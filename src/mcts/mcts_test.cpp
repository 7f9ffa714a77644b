// Tests of the MCTS face's search (src/mcts) with the uniform backend: terminal positions and
// whole searches (mates, reuse, threads, limits); backends, cache, PUCT and noise are in
// node_backend_test.cpp, implicit minimax backups in minimax_test.cpp; the shared set-up in
// test_search.h. The multi-threaded tests are in suite MctsThreads, which dev.sh also runs under TSan.

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <thread>

#include "core/movegen.h"
#include "core/notation.h"
#include "mcts/caching_backend.h"
#include "mcts/mcts.h"
#include "mcts/test_search.h"
#include "mcts/uniform_backend.h"
#include "tb/gaviota.h"
#include "tb/syzygy.h"
#include "util/error.h"

namespace janus::mcts {
namespace {

using namespace std::chrono_literals;
using namespace testing_support;

// ---- Backends ----------------------------------------------------------------------------------

TEST(MctsNoise, NoiseOnlyAtTheRootAndOnlyWhenEnabled) {
  for (bool noise : {false, true}) {
    MctsParams p = Searcher::deterministic();
    p.noise = noise;
    Searcher s(p);
    s.goNodes(Position(), 400);
    const Node& root = *s.search.root();
    double sum = 0;
    int uniform = 0;
    for (const Node::Edge& e : root.edges()) {
      sum += e.prior;
      uniform += std::abs(e.prior - 0.05f) < 1e-6f;
    }
    EXPECT_NEAR(sum, 1.0, 1e-5);
    EXPECT_EQ(uniform == 20, !noise) << "noise " << noise;
    for (const Node::Edge& e : root.edges())  // one level down the priors are the backend's
      if (e.node && e.node->expanded()) {
        for (const Node::Edge& g : e.node->edges()) EXPECT_FLOAT_EQ(g.prior, 1.0f / float(e.node->numEdges()));
      }
  }
}

// ---- Terminal positions ------------------------------------------------------------------------

LeafStatus classify(const Position& pos, int ply) { return classifyLeaf(pos, ply, legalMoves(pos), nullptr); }

TEST(MctsTerminal, RulesDecideLeaves) {
  const auto mated = classify(positionAfter("6k1/5ppp/8/8/8/8/8/K2R4 w - - 0 1", {"d1d8"}), 1);
  EXPECT_EQ(mated.terminal, Terminal::kLoss);
  EXPECT_EQ(mated.kind, TerminalKind::kRule);
  EXPECT_EQ(classify(Position::fromFen("k7/2Q5/1K6/8/8/8/8/8 b - - 0 1"), 1).terminal, Terminal::kDraw);  // stalemate
  EXPECT_EQ(classify(Position::fromFen("8/8/4k3/8/8/3NK3/8/8 b - - 0 1"), 1).terminal, Terminal::kDraw);  // K+N v K
  const auto fifty = classify(Position::fromFen("7k/8/8/8/8/8/R7/K7 b - - 100 80"), 1);
  EXPECT_EQ(fifty.terminal, Terminal::kDraw);
  EXPECT_EQ(fifty.kind, TerminalKind::kRule);
  EXPECT_EQ(classify(Position::fromFen("7k/8/8/8/8/8/R7/K7 b - - 99 80"), 1).terminal, Terminal::kNone);
  // Checkmate takes precedence over the 50-move rule.
  EXPECT_EQ(classify(positionAfter("6k1/5ppp/8/8/8/8/8/K2R4 w - - 99 80", {"d1d8"}), 1).terminal, Terminal::kLoss);
}

TEST(MctsTerminal, RepetitionInsideTheTreeIsADraw) {
  // Root: the start position. Nf3 Nf6 Ng1 Ng8 comes back to the root (not yet a draw: the root
  // counts like a game position); one more Nf3 repeats a position inside the tree.
  const std::vector<std::string> line = {"g1f3", "g8f6", "f3g1", "f6g8", "g1f3"};
  Position pos;
  for (size_t i = 0; i < line.size(); ++i) {
    pos.makeMove(parseUci(pos, line[i], false));
    const auto s = classify(pos, int(i) + 1);
    EXPECT_EQ(s.terminal, i == 4 ? Terminal::kDraw : Terminal::kNone) << i;
    if (i == 4) { EXPECT_EQ(s.kind, TerminalKind::kRepetition); }
  }
  // With the game history: the start position twice before the root, a third time in the tree.
  Position root = positionAfter("startpos", {"g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6"});
  Searcher s;
  SearchLimits l;
  l.nodes = 300;
  l.searchMoves = {parseUci(root, "f3g1", false)};
  const SearchResult r = s.go(root, l);
  EXPECT_EQ(toUci(r.best, false), "f3g1");
  const Node* afterNg1 = s.search.root()->child(s.search.root()->findEdge(r.best));
  ASSERT_NE(afterNg1, nullptr);
  Position p = root;
  p.makeMove(r.best);
  const int back = afterNg1->findEdge(parseUci(p, "f6g8", false));
  ASSERT_GE(back, 0);
  ASSERT_NE(afterNg1->child(back), nullptr) << "every reply is visited in 300 playouts";
  EXPECT_EQ(afterNg1->child(back)->terminal(), Terminal::kDraw);
  EXPECT_EQ(afterNg1->child(back)->terminalKind(), TerminalKind::kRepetition);
  for (int i = 0; i < afterNg1->numEdges(); ++i)
    if (i != back && afterNg1->child(i)) { EXPECT_NE(afterNg1->child(i)->terminalKind(), TerminalKind::kRepetition); }
}

TEST(MctsTerminal, FiftyMoveRuleMakesEveryQuietMoveADraw) {
  // White is a rook up, but any move (none captures or moves a pawn) reaches 100 plies.
  Searcher s;
  const SearchResult r = s.goNodes(Position::fromFen("7k/8/8/8/8/8/R7/K7 w - - 99 80"), 200);
  ASSERT_TRUE(r.best);
  EXPECT_EQ(r.score, 0);
  for (const Node::Edge& e : s.search.root()->edges())
    if (e.node) { EXPECT_EQ(e.node->terminal(), Terminal::kDraw); }
  ASSERT_FALSE(s.infos.empty());
  ASSERT_TRUE(s.infos.back().wdl);
  EXPECT_EQ(s.infos.back().wdl->draw, 1000);
}

// ---- Searches ----------------------------------------------------------------------------------

/// Reads "<fen> bm #N; ..." lines of a tests/data/mates file (a test failure if it is missing).
std::vector<std::pair<std::string, int>> readMates(const std::string& file, int mateIn, size_t count) {
  std::vector<std::pair<std::string, int>> out;
  std::ifstream in(std::string(JANUS_TEST_DATA) + "/mates/" + file);
  EXPECT_TRUE(in) << "cannot open " << JANUS_TEST_DATA << "/mates/" << file;
  std::string line;
  const std::string tag = " bm #" + std::to_string(mateIn) + ";";
  while (out.size() < count && std::getline(in, line)) {
    const size_t at = line.find(tag);
    if (at != std::string::npos) out.emplace_back(line.substr(0, at), mateIn);
  }
  return out;
}

TEST(MctsSearch, FindsMateInOne) {
  // The four mates in one of the matetrack suite (each an en-passant capture), and a back-rank mate.
  auto mates = readMates("matetrackpv-mate-in-1.epd", 1, 8);
  ASSERT_EQ(mates.size(), 4u);
  mates.emplace_back("6k1/5ppp/8/8/8/8/8/K2R4 w - -", 1);
  for (const auto& [fen, n] : mates) {
    Searcher s;
    const Position pos = Position::fromFen(fen);
    const SearchResult r = s.goNodes(pos, 5000);
    Position after = pos;
    after.makeMove(r.best);
    EXPECT_TRUE(isCheckmate(after)) << fen << " played " << toUci(r.best, false);
    EXPECT_EQ(r.score, mateIn(1)) << fen;
    EXPECT_LT(r.nodes, 5000u) << "a proven mate ends the search";
  }
}

/// True if `m` mates at once or leaves the opponent only replies after which a move mates.
bool matesInTwo(const Position& pos, Move m) {
  Position after = pos;
  after.makeMove(m);
  if (isCheckmate(after)) return true;
  const MoveList replies = legalMoves(after);
  if (replies.empty()) return false;  // stalemate
  for (Move reply : replies) {
    Position p = after;
    p.makeMove(reply);
    bool mates = false;
    for (Move k : legalMoves(p)) {
      Position q = p;
      q.makeMove(k);
      mates = mates || isCheckmate(q);
    }
    if (!mates) return false;
  }
  return true;
}

TEST(MctsSearch, FindsMateInTwo) {
  // The first problems of the mate-in-2 suite. The uniform backend knows only material, so a
  // quiet key move among 50 is sometimes out of reach; the search stops at the first forced
  // mate it proves, which may take three moves where two were possible (it shortens as the
  // game goes on: the proof is in the reused tree).
  auto mates = readMates("mate-in-2-first100.epd", 2, 8);
  ASSERT_EQ(mates.size(), 8u);
  int proven = 0;
  for (const auto& [fen, n] : mates) {
    Searcher s;
    const Position pos = Position::fromFen(fen);
    const SearchResult r = s.goNodes(pos, 20000);
    if (!isMateScore(r.score)) continue;
    EXPECT_GT(r.score, 0) << fen;
    EXPECT_LE(mateInMoves(r.score), 3) << fen;
    EXPECT_LT(r.nodes, 20000u) << "a proven mate ends the search";
    if (mateInMoves(r.score) == 2) {
      EXPECT_TRUE(matesInTwo(pos, r.best)) << fen << " " << toUci(r.best, false);
    }
    ++proven;
  }
  EXPECT_GE(proven, 5) << "of 8 mates in two, with 20000 playouts each (6 when written)";
}

TEST(MctsSearch, AvoidsStalemateWhenWinning) {
  // Each position has a stalemating queen move; material values make the search avoid it.
  for (const char* fen : {"7k/8/6K1/8/8/8/8/5Q2 w - - 0 1", "k7/8/1K6/8/8/8/8/2Q5 w - - 0 1",
                          "8/8/8/8/8/5K2/3Q4/7k w - - 0 1", "k7/8/2K5/8/8/8/8/1Q6 w - - 0 1"}) {
    Searcher s;
    const Position pos = Position::fromFen(fen);
    const SearchResult r = s.goNodes(pos, 3000);
    Position after = pos;
    after.makeMove(r.best);
    EXPECT_FALSE(isStalemate(after)) << fen << " played " << toUci(r.best, false);
    EXPECT_GT(r.score, 300) << fen;
  }
}

TEST(MctsSearch, VisitsAddUpToTheNodeCount) {
  Searcher s;
  const SearchResult r = s.goNodes(Position(), 700);
  EXPECT_EQ(r.nodes, 700u);
  const Node& root = *s.search.root();
  EXPECT_EQ(root.visits(), 700u);
  EXPECT_EQ(s.search.lastStats().playouts, 700u);
  const int nodes = checkVisits(root);
  EXPECT_EQ(size_t(nodes), s.search.lastStats().treeNodes);
  ASSERT_FALSE(s.infos.empty());
  EXPECT_EQ(s.infos.back().nodes, 700u);
  // The best move is the most visited, and the report lists it first.
  u32 most = 0;
  for (const Node::Edge& e : root.edges())
    if (e.node) most = std::max(most, e.node->visits());
  EXPECT_EQ(root.child(root.findEdge(r.best))->visits(), most);
  EXPECT_EQ(s.infos.back().pv.front(), r.best);
}

TEST(MctsSearch, SameSearchTwiceGivesTheSameTree) {
  MctsParams p = Searcher::deterministic();
  p.treeReuse = false;
  Searcher a(p), b(p);
  const Position pos = positionAfter("startpos", {"e2e4", "c7c5"});
  const SearchResult ra = a.goNodes(pos, 1500), rb = b.goNodes(pos, 1500);
  EXPECT_EQ(ra.best, rb.best);
  EXPECT_EQ(ra.score, rb.score);
  EXPECT_EQ(a.infos.back().pv, b.infos.back().pv);
  EXPECT_EQ(a.search.lastStats().maxDepth, b.search.lastStats().maxDepth);
}

TEST(MctsSearch, TreeReuseKeepsTheVisitsOfThePlayedMoves) {
  Searcher s;
  const Position start;
  const SearchResult first = s.goNodes(start, 3000);
  const Node* kept = s.search.root()->child(s.search.root()->findEdge(first.best));
  ASSERT_NE(kept, nullptr);
  ASSERT_TRUE(first.ponder);
  const Node* keptReply = kept->child(kept->findEdge(first.ponder));
  ASSERT_NE(keptReply, nullptr);
  const u32 replyVisits = keptReply->visits();
  ASSERT_GT(replyVisits, 1u);

  // Two plies later (our move and the expected reply), the subtree becomes the new root.
  Position next = start;
  next.makeMove(first.best);
  next.makeMove(first.ponder);
  s.goNodes(next, 200);
  EXPECT_EQ(s.search.root(), keptReply) << "the same node object";
  EXPECT_EQ(s.search.lastStats().reusedVisits, replyVisits);
  EXPECT_EQ(s.search.root()->visits(), replyVisits + 200);
  checkVisits(*s.search.root());

  // A position that does not follow from the tree: a new tree.
  s.goNodes(positionAfter("startpos", {"a2a3"}), 100);
  EXPECT_EQ(s.search.lastStats().reusedVisits, 0u);
  EXPECT_EQ(s.search.root()->visits(), 100u);

  // newGame() forgets the tree.
  const Position again = positionAfter("startpos", {"a2a3"});
  s.search.newGame();
  s.goNodes(again, 50);
  EXPECT_EQ(s.search.lastStats().reusedVisits, 0u);
}

TEST(MctsSearch, CachingBackendServesARepeatedSearch) {
  MctsParams p = Searcher::deterministic();
  p.treeReuse = false;
  auto cache = std::make_shared<CachingBackend>(std::make_shared<UniformBackend>(), 100000);
  Searcher s(p, cache);
  const Position pos = positionAfter("startpos", {"d2d4", "d7d5", "c2c4"});
  s.goNodes(pos, 800);
  const u64 firstEvaluations = s.search.lastStats().evaluations;
  const CacheStats afterFirst = cache->stats();
  EXPECT_EQ(afterFirst.hits + afterFirst.misses, firstEvaluations);
  s.goNodes(pos, 800);  // the same tree again, from a new root: every evaluation is a hit
  const CacheStats afterSecond = cache->stats();
  EXPECT_EQ(afterSecond.misses, afterFirst.misses);
  EXPECT_EQ(afterSecond.hits - afterFirst.hits, s.search.lastStats().evaluations);
  EXPECT_EQ(s.search.lastStats().evaluations, firstEvaluations);
}

TEST(MctsThreads, VisitCountsStayConsistent) {
  for (int threads : {2, 3}) {
    MctsParams p = Searcher::deterministic();
    p.batchSize = 8;
    Searcher s(p);
    const Position pos = Position::fromFen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    const SearchResult r = s.goNodes(pos, 4000, threads);
    EXPECT_TRUE(legalMoves(pos).contains(r.best));
    EXPECT_EQ(r.nodes, 4000u);
    EXPECT_EQ(s.search.root()->visits(), 4000u);
    checkVisits(*s.search.root());
    if (r.ponder) {
      Position after = pos;
      after.makeMove(r.best);
      EXPECT_TRUE(legalMoves(after).contains(r.ponder));
    }
  }
}

TEST(MctsSearch, BatchingWithVirtualLossSpreadsTheBatch) {
  MctsParams p = Searcher::deterministic();
  p.batchSize = 32;
  Searcher s(p);
  // The root, then one batch: virtual loss sends its playouts to 20 different moves; the 21st
  // would run into a leaf in flight (a collision), which ends the batch.
  s.goNodes(Position(), 1 + 32);
  int visited = 0;
  for (const Node::Edge& e : s.search.root()->edges()) visited += e.node && e.node->visits() > 0;
  EXPECT_EQ(visited, 20);
  const MctsStats& st = s.search.lastStats();
  EXPECT_EQ(st.batches, 3u);  // root, 20 leaves, 12 leaves
  EXPECT_GE(st.collisions, 1u);
  EXPECT_EQ(st.evaluations, 33u);
}

/// The uniform backend claiming a preferred batch size (as the libtorch backend does).
class BatchingBackend final : public Backend {
 public:
  explicit BatchingBackend(int preferred) : m_preferred(preferred) {}
  [[nodiscard]] std::unique_ptr<BackendComputation> newComputation() override { return m_inner.newComputation(); }
  [[nodiscard]] BackendAttributes attributes() const override {
    BackendAttributes a = m_inner.attributes();
    a.preferredBatch = m_preferred;
    return a;
  }

 private:
  UniformBackend m_inner;
  int m_preferred;
};

TEST(MctsSearch, BatchZeroTakesTheBackendsPreferredBatch) {
  MctsParams p = Searcher::deterministic();
  ASSERT_EQ(p.batchSize, 0);  // the default
  {
    Searcher s(p);  // the uniform backend names no batch: one leaf per call, no virtual loss
    s.goNodes(Position(), 1 + 32);
    EXPECT_EQ(s.search.lastStats().batches, 33u);
    EXPECT_EQ(s.search.lastStats().collisions, 0u);
  }
  {
    Searcher s(p, std::make_shared<BatchingBackend>(32));  // as MctsSearch.BatchingWithVirtualLoss...
    s.goNodes(Position(), 1 + 32);
    EXPECT_EQ(s.search.lastStats().batches, 3u);
    EXPECT_GE(s.search.lastStats().collisions, 1u);
    // A backend installed later brings its own preference.
    s.search.setBackend(std::make_shared<UniformBackend>());
    s.goNodes(Position(), 1 + 32);
    EXPECT_EQ(s.search.lastStats().batches, 33u);
  }
  {
    p.batchSize = 4;  // an explicit batch wins over the backend's
    Searcher s(p, std::make_shared<BatchingBackend>(32));
    s.goNodes(Position(), 1 + 32);
    EXPECT_EQ(s.search.lastStats().batches, 9u);  // root, then 8 batches of 4
  }
}

TEST(MctsSearch, SearchMovesRestrictTheRoot) {
  Searcher s;
  SearchLimits l;
  l.nodes = 300;
  const Position pos;
  l.searchMoves = {parseUci(pos, "a2a3", false), parseUci(pos, "h2h4", false)};
  const SearchResult r = s.go(pos, l);
  EXPECT_TRUE(r.best == l.searchMoves[0] || r.best == l.searchMoves[1]);
  for (const Node::Edge& e : s.search.root()->edges())
    if (e.move != l.searchMoves[0] && e.move != l.searchMoves[1]) { EXPECT_EQ(e.node, nullptr); }
}

TEST(MctsSearch, MultiPvLinesAndMoveStatsFollowVisits) {
  Searcher s;
  SearchLimits l;
  l.nodes = 1000;
  SearchConfig c;
  c.multiPv = 3;
  s.go(Position(), l, c);
  ASSERT_GE(s.infos.size(), 3u);
  const std::vector<SearchInfo> last(s.infos.end() - 3, s.infos.end());
  const Node& root = *s.search.root();
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(last[size_t(i)].multiPv, i + 1);
    ASSERT_TRUE(last[size_t(i)].wdl);
    EXPECT_EQ(last[size_t(i)].wdl->win + last[size_t(i)].wdl->draw + last[size_t(i)].wdl->loss, 1000);
    if (i > 0) {
      const u32 prev = root.child(root.findEdge(last[size_t(i) - 1].pv[0]))->visits();
      EXPECT_GE(prev, root.child(root.findEdge(last[size_t(i)].pv[0]))->visits());
    }
  }
  const auto& stats = last[0].moveStats;
  ASSERT_EQ(stats.size(), 5u);
  EXPECT_TRUE(last[1].moveStats.empty());
  EXPECT_EQ(stats[0].move, last[0].pv[0]);
  for (size_t i = 1; i < stats.size(); ++i) EXPECT_GE(stats[i - 1].visits, stats[i].visits);
  EXPECT_FLOAT_EQ(stats[0].prior, 0.05f);
  EXPECT_EQ(stats[0].visits, root.child(root.findEdge(stats[0].move))->visits());
}

TEST(MctsSearch, StopsAtTheMoveTimeAndTheClock) {
  Searcher s(MctsParams{});  // smart pruning on, as in games
  SearchLimits l;
  l.moveTime = 300;
  auto t0 = std::chrono::steady_clock::now();
  const SearchResult r = s.go(Position(), l);
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_TRUE(r.best);
  EXPECT_LT(ms, 300 + 1500) << "generous: machines here are shared";
  SearchLimits clock;
  clock.time[kWhite] = clock.time[kBlack] = 2000;
  t0 = std::chrono::steady_clock::now();
  EXPECT_TRUE(s.go(positionAfter("startpos", {"e2e4"}), clock).best);
  const auto ms2 = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_LT(ms2, 2000) << "never more than the clock holds";
}

TEST(MctsThreads, StopSignalEndsAnInfiniteSearch) {
  MctsParams p = Searcher::deterministic();
  Searcher s(p);
  SearchLimits l;
  l.infinite = true;
  SearchConfig c;
  c.threads = 2;
  SearchResult r;
  std::thread t([&] { r = s.search.run(Position(), l, c, {}, s.signals); });
  std::this_thread::sleep_for(100ms);
  const auto t0 = std::chrono::steady_clock::now();
  s.signals.stop = true;
  t.join();
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_LT(ms, 2000);
  EXPECT_TRUE(r.best);
  EXPECT_GT(r.nodes, 0u);
  checkVisits(*s.search.root());
}

TEST(MctsThreads, PonderIgnoresTheClockUntilPonderhit) {
  Searcher s(MctsParams{});
  SearchLimits l;
  l.ponder = true;
  l.moveTime = 50;
  SearchResult r;
  std::atomic<bool> done{false};
  std::thread t([&] {
    r = s.search.run(positionAfter("startpos", {"e2e4"}), l, {}, {}, s.signals);
    done = true;
  });
  std::this_thread::sleep_for(300ms);
  EXPECT_FALSE(done) << "still pondering after 6 times the move time";
  s.signals.ponderhit = true;
  t.join();
  EXPECT_TRUE(r.best);
}

TEST(MctsSearch, StopBeforeTheFirstPlayoutStillAnswers) {
  Searcher s;
  s.signals.stop = true;  // e.g. "stop" right after "go": only the root gets evaluated
  const SearchResult r = s.goNodes(Position(), 1000);
  EXPECT_TRUE(legalMoves(Position()).contains(r.best));
  EXPECT_EQ(r.nodes, 1u);
  ASSERT_EQ(s.infos.size(), 1u);
  EXPECT_EQ(s.infos[0].pv, std::vector<Move>{r.best});
  ASSERT_TRUE(s.infos[0].wdl);
  EXPECT_EQ(s.infos[0].wdl->draw, 1000);
}

TEST(MctsSearch, NoLegalMoveGivesNoMove) {
  Searcher s;
  const SearchResult mated = s.goNodes(positionAfter("6k1/5ppp/8/8/8/8/8/K2R4 w - - 0 1", {"d1d8"}), 100);
  EXPECT_FALSE(mated.best);
  EXPECT_EQ(mated.score, matedIn(0));
  const SearchResult stalemate = s.goNodes(Position::fromFen("k7/2Q5/1K6/8/8/8/8/8 b - - 0 1"), 100);
  EXPECT_FALSE(stalemate.best);
  EXPECT_EQ(stalemate.score, 0);
}

TEST(MctsSearch, TablebaseLeavesAndRoot) {
  const std::string dir = "/usr/share/gaviotatb/gtb4";
  if (!std::filesystem::exists(dir + "/kqk.gtb.cp4")) GTEST_SKIP() << "Gaviota 3-piece tables missing (gaviotatb)";
  GaviotaTablebases tb;
  ASSERT_TRUE(tb.init(dir, 8));
  Searcher s;
  s.search.setTablebases(&tb);
  // Queen takes rook: K+Q v K, a tablebase win at the leaf; the search stops on the proof.
  const Position pos = Position::fromFen("4k3/8/8/8/3r4/8/3Q4/4K3 w - - 0 1");
  const SearchResult r = s.goNodes(pos, 20000);
  EXPECT_EQ(toUci(r.best, false), "d2d4");
  EXPECT_EQ(r.score, tbWinIn(1));
  EXPECT_LT(r.nodes, 20000u);
  EXPECT_GT(s.search.lastStats().tbHits, 0u);
  const Node* c = s.search.root()->child(s.search.root()->findEdge(r.best));
  EXPECT_EQ(c->terminalKind(), TerminalKind::kTablebase);
  // A root in the tables: the DTM-best move at once.
  const SearchResult root = s.goNodes(Position::fromFen("4k3/8/8/8/8/8/3Q4/4K3 w - - 0 1"), 20000);
  EXPECT_TRUE(isMateScore(root.score));
  EXPECT_LE(root.nodes, 1u);
  s.search.setTablebases(nullptr);
}

TEST(MctsSearch, SyzygyLeavesAndRoot) {
  const std::string dir = std::string(JANUS_TEST_DATA) + "/syzygy";
  ASSERT_TRUE(std::filesystem::exists(dir + "/KQvK.rtbw")) << "Syzygy test tables missing: " << dir;
  SyzygyTablebases tb;
  tb.init(dir);
  Searcher s;
  s.search.setTablebases(&tb);
  // Five pieces at the root; the queen takes the rook: K+Q+N v K, a Syzygy win at the leaf.
  const SearchResult r = s.goNodes(Position::fromFen("4k3/8/8/8/3r4/8/3Q4/4K2N w - - 0 1"), 20000);
  EXPECT_EQ(toUci(r.best, false), "d2d4");
  EXPECT_EQ(r.score, tbWinIn(1));
  EXPECT_GT(s.search.lastStats().tbHits, 0u);
  const Node* c = s.search.root()->child(s.search.root()->findEdge(r.best));
  EXPECT_EQ(c->terminalKind(), TerminalKind::kTablebase);
  // A root in the tables where only Kd2xe2 keeps the win: the root is narrowed to it.
  const SearchResult root = s.goNodes(Position::fromFen("8/8/7R/8/8/8/3Kn1k1/8 w - - 0 1"), 2000);
  EXPECT_EQ(toUci(root.best, false), "d2e2");
  EXPECT_GE(s.search.lastStats().tbHits, 20u);
  s.search.setTablebases(nullptr);
}

}  // namespace
}  // namespace janus::mcts
