// N counts playouts (node.h): the default face's search with alpha-beta hints, tree recycling
// and tree reuse keeps N(s) = 1 + the sum of its children's N at every node (>= below the root
// after recycling), the root's N = the reused visits + this search's playouts, and the hints'
// weight only in the prior knowledge that selection reads.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "core/movegen.h"
#include "core/notation.h"
#include "mcts/caching_backend.h"
#include "mcts/face.h"
#include "mcts/nnue_value.h"
#include "mcts/test_search.h"

namespace janus::mcts {
namespace {

using testing_support::checkVisits;
using testing_support::Searcher;
using testing_support::testNetwork;

/// The default face (face.h) with the test network behind the engine's evaluation cache, one
/// thread and batch 1 so it is deterministic, hints from 30 playouts (the face's 300 would need
/// long searches) with a tenth of its nodes and a tenth of its weight (the schedule counts the
/// prior knowledge: a hint weighing more than the next round's threshold would call the next
/// round at once, and so on), and `treeMiB` of tree memory.
std::unique_ptr<Searcher> defaultFace(size_t treeMiB) {
  MctsParams p = defaultFaceParams();
  p.hints.visits = 30;
  p.hints.nodes = 1000;
  p.hints.hashMiB = 1;
  p.hints.weight = 20;
  p.seed = 1;
  p.batchSize = 1;
  p.smartPruning = false;
  p.treeMemoryMiB = treeMiB;
  auto s = std::make_unique<Searcher>(
      p, std::make_shared<CachingBackend>(
             std::make_shared<NnueValueBackend>(std::make_shared<UniformBackend>(), testNetwork(), defaultFaceLeaf()),
             1u << 16));
  s->search.setHintNetwork(testNetwork());
  return s;
}

/// Sum of the prior knowledge of the root's children (virtual visits).
double childPriorVisits(const Node& root) {
  double sum = 0;
  for (const Node::Edge& e : root.edges())
    if (e.node) sum += e.node->priorVisits();
  return sum;
}

TEST(MctsPlayouts, NCountsPlayoutsWithHintsAndTreeReuse) {
  auto s = defaultFace(64);
  const char* twoKnights = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
  Position pos = Position::fromFen(twoKnights);
  const SearchResult first = s->goPlayouts(pos, 1500);
  const MctsStats& st = s->search.lastStats();
  ASSERT_GT(st.hints, 5u) << "the test needs hints";
  EXPECT_EQ(st.recycles, 0u);
  const Node& root = *s->search.root();
  EXPECT_EQ(root.visits(), st.playouts);
  EXPECT_EQ(st.playouts, 1500u);
  EXPECT_EQ(first.nodes, st.playouts + st.hintNodes);
  checkVisits(root);
  // The hints' weight (20, 80, ... virtual visits a round) is prior knowledge: more than the
  // playouts, and none of it in N.
  EXPECT_GT(root.priorVisits(), double(root.visits()));
  EXPECT_GT(childPriorVisits(root), 0.0);
  // The reported statistics are playouts: the shares sum to 100%.
  u64 sum = 0;
  for (const MoveStat& m : first.rootStats) sum += m.visits;
  EXPECT_EQ(sum + 1, root.visits());
  ASSERT_FALSE(first.rootStats.empty());
  EXPECT_EQ(first.rootStats.front().move, first.best);
  // The value the search chose with: Q where no hint reached the move, Q blended with the hints'
  // values where one did.
  int blended = 0;
  for (const MoveStat& m : first.rootStats) {
    const Node* child = nullptr;
    for (const Node::Edge& e : root.edges())
      if (e.move == m.move) child = e.node.get();
    if (m.visits) {
      ASSERT_TRUE(m.searchQ) << toUci(m.move, false);
    }
    if (!child || !m.searchQ) continue;
    if (child->priorVisits() == 0) EXPECT_NEAR(*m.searchQ, m.q, 1e-6) << toUci(m.move, false);
    else blended += std::abs(*m.searchQ - m.q) > 1e-4f;
  }
  EXPECT_GT(blended, 0) << "hints reached some root move";

  // Tree reuse: the best move and the reply the tree expects; the subtree keeps its playouts.
  ASSERT_TRUE(first.ponder);
  pos.makeMove(first.best);
  pos.makeMove(first.ponder);
  const SearchResult second = s->goPlayouts(pos, 1500);
  const MctsStats& st2 = s->search.lastStats();
  EXPECT_GT(st2.reusedVisits, 0u);
  EXPECT_EQ(s->search.root()->visits(), st2.reusedVisits + st2.playouts);
  EXPECT_EQ(second.nodes, st2.playouts + st2.hintNodes);
  checkVisits(*s->search.root());

  // A node limit bounds the playouts and the hints' nodes together; N still counts playouts.
  ASSERT_TRUE(second.ponder);
  pos.makeMove(second.best);
  pos.makeMove(second.ponder);
  const SearchResult third = s->goNodes(pos, 20000);
  const MctsStats& st3 = s->search.lastStats();
  ASSERT_GT(st3.hints, 0u);
  EXPECT_EQ(third.nodes, st3.playouts + st3.hintNodes);
  EXPECT_LE(third.nodes, 20000u + 1);
  EXPECT_LT(st3.playouts, 20000u - 1000);  // the hints took a good share
  EXPECT_EQ(s->search.root()->visits(), st3.reusedVisits + st3.playouts);
  checkVisits(*s->search.root());
}

TEST(MctsPlayouts, NCountsPlayoutsThroughTreeRecycling) {
  auto s = defaultFace(1);  // 1 MiB: about 2,000 expanded nodes, recycled many times in 6,000 playouts
  const Position pos = Position::fromFen("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
  const SearchResult r = s->goPlayouts(pos, 6000);
  const MctsStats& st = s->search.lastStats();
  ASSERT_GT(st.recycles, 0u) << "the test needs tree recycling";
  ASSERT_GT(st.hints, 5u);
  EXPECT_EQ(s->search.root()->visits(), st.playouts);
  EXPECT_EQ(st.playouts, 6000u);
  EXPECT_EQ(r.nodes, 6000u + st.hintNodes);
  checkVisits(*s->search.root(), /*recycled=*/true);
}

TEST(MctsPlayouts, PriorsOfTwoIdenticalSearchesAreTheSame) {
  // The reported prior is the backend's, not the one hints raised: two identical searches (the
  // second from scratch) report the same priors, and a hinted move shows its raised prior apart.
  const Position pos = Position::fromFen("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
  auto a = defaultFace(64);
  auto b = defaultFace(64);
  const SearchResult ra = a->goPlayouts(pos, 400);
  const SearchResult rb = b->goPlayouts(pos, 1500);
  ASSERT_EQ(ra.rootStats.size(), legalMoves(pos).size());
  ASSERT_EQ(rb.rootStats.size(), ra.rootStats.size());
  bool raised = false;
  for (const MoveStat& m : ra.rootStats) {
    const auto it = std::find_if(rb.rootStats.begin(), rb.rootStats.end(), [&](const MoveStat& o) { return o.move == m.move; });
    ASSERT_NE(it, rb.rootStats.end());
    EXPECT_FLOAT_EQ(m.prior, it->prior) << toUci(m.move, false);
    raised = raised || it->searchPrior > it->prior + 0.01f;
  }
  EXPECT_TRUE(raised) << "a root hint raises its best move's search prior";
  // A search that reuses its tree reports the same backend priors.
  const SearchResult again = b->goPlayouts(pos, 1600);
  for (const MoveStat& m : again.rootStats) {
    const auto it = std::find_if(ra.rootStats.begin(), ra.rootStats.end(), [&](const MoveStat& o) { return o.move == m.move; });
    ASSERT_NE(it, ra.rootStats.end());
    EXPECT_FLOAT_EQ(m.prior, it->prior) << toUci(m.move, false);
  }
}

}  // namespace
}  // namespace janus::mcts
