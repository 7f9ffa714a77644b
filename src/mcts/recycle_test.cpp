// Tree recycling (MctsSearch::recycleTree, Node::collapse): a search whose tree reaches its
// memory limit frees its least-visited subtrees and goes on.

#include <gtest/gtest.h>

#include "core/movegen.h"
#include "mcts/mcts.h"
#include "mcts/test_search.h"
#include "mcts/uniform_backend.h"

namespace janus::mcts {
namespace {

struct TreeCount {
  size_t nodes = 0;
  size_t bytes = 0;
  u64 inFlight = 0;
};

TreeCount countTree(const Node& root) {
  TreeCount t;
  std::vector<const Node*> stack{&root};
  while (!stack.empty()) {
    const Node* n = stack.back();
    stack.pop_back();
    ++t.nodes;
    t.bytes += n->ownBytes();
    t.inFlight += n->inFlight();
    for (const Node::Edge& e : n->edges())
      if (e.node) stack.push_back(e.node.get());
  }
  return t;
}

TEST(MctsRecycle, CollapseFreesTheSubtreeAndKeepsTheStatistics) {
  Node root;
  const Position pos;
  const MoveList list = legalMoves(pos);
  const std::vector<Move> moves(list.begin(), list.end());
  const std::vector<float> priors(moves.size(), 1.0f / float(moves.size()));
  root.expand(moves, priors);
  Node& child = root.getOrCreateChild(0);
  child.expand(moves, priors);  // any moves will do for the bookkeeping
  child.getOrCreateChild(3).expand(moves, priors);
  child.addVisits(7, 0.25, 0.5);
  child.markHinted();  // round 0 of its alpha-beta hints: asked, its value prior knowledge
  child.addPriorKnowledge(3.0, 0.5);
  child.setHintValue(0.5);
  size_t nodes = 0;
  const size_t bytes = child.collapse(nodes);
  EXPECT_EQ(nodes, 1u);
  EXPECT_EQ(bytes, 2 * moves.size() * sizeof(Node::Edge) + sizeof(Node));
  EXPECT_FALSE(child.expanded());
  EXPECT_EQ(child.visits(), 7u);
  EXPECT_DOUBLE_EQ(child.q(), 0.25);
  EXPECT_DOUBLE_EQ(child.d(), 0.5);
  // The hint rounds, their prior knowledge and value belong to the position: they survive.
  EXPECT_EQ(child.hints(), 1);
  EXPECT_DOUBLE_EQ(child.priorVisits(), 3.0);
  ASSERT_TRUE(child.hintValue());
  EXPECT_NEAR(*child.hintValue(), 0.5, 1e-4);
  child.expand(moves, priors);  // reached again: evaluated and expanded anew
  EXPECT_EQ(child.hints(), 1);
}

TEST(MctsRecycle, ARecycledNodeGoesOnWithItsNextHintRound) {
  // Hints at 5 selection visits, again at 20 (growth 4). A node with 10 that had its round 0
  // before it was collapsed is not due (its next round needs 20); had collapse forgotten the
  // round, it would replay round 0 at once.
  HintParams p;
  p.visits = 5;
  p.depth = 2;
  p.growth = 4;
  p.hashMiB = 1;
  HintSearcher hints(p);
  hints.setNetwork(testing_support::testNetwork());
  const Position pos;
  const MoveList list = legalMoves(pos);
  const std::vector<Move> moves(list.begin(), list.end());
  const std::vector<float> priors(moves.size(), 1.0f / float(moves.size()));
  Node hinted, fresh;
  for (Node* n : {&hinted, &fresh}) {
    n->expand(moves, priors);
    n->addVisits(10, 0.0, 0.0);
  }
  hinted.markHinted();
  size_t nodes = 0;
  (void)hinted.collapse(nodes);
  hinted.expand(moves, priors);
  EXPECT_TRUE(hints.due(fresh));
  EXPECT_FALSE(hints.due(hinted));
  hinted.addVisits(10, 0.0, 0.0);  // 20: round 1 is due
  EXPECT_TRUE(hints.due(hinted));
}

TEST(MctsRecycle, ASearchBeyondItsMemoryLimitGoesOnWithinIt) {
  MctsParams p;
  p.seed = 3;
  p.smartPruning = false;
  p.treeMemoryMiB = 1;  // about 2,000 expanded nodes of the middle game
  MctsSearch search(std::make_shared<UniformBackend>(), p);
  SearchLimits limits;
  limits.nodes = 60000;
  SearchConfig config;
  config.threads = 2;
  SearchSignals signals;
  const Position root =
      Position::fromFen("r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8");
  const SearchResult r = search.run(root, limits, config, {}, signals);
  EXPECT_TRUE(legalMoves(root).contains(r.best));
  EXPECT_EQ(r.nodes, 60000u) << "the search did not stop when its tree was full";
  const MctsStats& s = search.lastStats();
  EXPECT_GT(s.recycles, 0u);
  EXPECT_GT(s.recycledBytes, 0u);
  ASSERT_NE(search.root(), nullptr);
  const TreeCount t = countTree(*search.root());
  EXPECT_EQ(t.inFlight, 0u);
  EXPECT_EQ(t.nodes, s.treeNodes);
  EXPECT_EQ(t.bytes, s.treeBytes);
  EXPECT_LE(s.treeBytes, (size_t(1) << 20) + 64 * 1024) << "a batch may add a few nodes past the limit";
  EXPECT_GE(search.root()->visits(), 60000u);
}

}  // namespace
}  // namespace janus::mcts
