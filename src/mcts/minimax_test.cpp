// Implicit minimax backups in whole searches (PuctParams::minimaxWeight, backupMinimax,
// BackendComputation::moveValues): the tree invariant, the cache's move values, two threads.
// The node-level rules (expand, backupMinimax, the blend in selectEdge) are in
// node_backend_test.cpp. MctsThreads.* also runs under TSan (dev.sh).

#include <gtest/gtest.h>

#include <algorithm>
#include <climits>

#include "core/movegen.h"
#include "core/notation.h"
#include "mcts/caching_backend.h"
#include "mcts/mcts.h"
#include "mcts/test_search.h"
#include "mcts/uniform_backend.h"

namespace janus::mcts {
namespace {

using namespace testing_support;

/// Uniform priors, and for each move the material Q after it (the mover's view, the uniform
/// backend's model); the value is the best of them: a one-ply material search with move values.
class OnePlyMaterialBackend final : public Backend {
 public:
  std::unique_ptr<BackendComputation> newComputation() override {
    class C final : public BackendComputation {
     public:
      int addInput(const Position& pos, std::span<const Move> moves) override {
        Entry e;
        Position p = pos;
        float best = -1.0f;
        for (Move m : moves) {
          p.makeMove(m);
          e.values.push_back(-UniformBackend::evaluate(p, UniformValue::kMaterial).q());
          p.unmakeMove(m);
          best = std::max(best, e.values.back());
        }
        e.priors.assign(moves.size(), 1.0f / float(moves.size()));
        e.wdl = Wdl{(1.0f + best) / 2, 0.0f, (1.0f - best) / 2};
        m_entries.push_back(std::move(e));
        return int(m_entries.size()) - 1;
      }
      int size() const override { return int(m_entries.size()); }
      void compute() override {}
      Wdl wdl(int i) const override { return m_entries[size_t(i)].wdl; }
      std::span<const float> priors(int i) const override { return m_entries[size_t(i)].priors; }
      std::span<const float> moveValues(int i) const override { return m_entries[size_t(i)].values; }

     private:
      struct Entry {
        std::vector<float> priors, values;
        Wdl wdl;
      };
      std::vector<Entry> m_entries;
    };
    return std::make_unique<C>();
  }
  BackendAttributes attributes() const override { return {.description = "one-ply material"}; }
};

/// Checks the implicit minimax values below `node`: every edge has one; an edge to a terminal
/// child holds the child's exact value, an edge to an expanded child the negated best of the
/// child's edges. Returns the number of edges checked against a child.
int checkMinimax(const Node& node) {
  int checked = 0;
  for (const Node::Edge& e : node.edges()) {
    EXPECT_TRUE(e.hasValue());
    const Node* c = e.node.get();
    if (!c) continue;
    if (c->isTerminal()) {
      EXPECT_EQ(e.minimax(), -c->terminalValue());
      ++checked;
    } else if (c->expanded()) {
      int best = INT16_MIN;
      for (const Node::Edge& g : c->edges()) best = std::max(best, int(g.value));
      EXPECT_EQ(int(e.value), -best) << toUci(e.move, false);
      ++checked;
    }
    checked += checkMinimax(*c);
  }
  return checked;
}

/// The Italian game after 4. Qh5?: Black to move can blunder into Qxf7# (the tree finds mates).
Position minimaxPosition() {
  return Position::fromFen("r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 3 3");
}

TEST(MctsMinimax, EveryEdgeHoldsTheMinimaxOfTheLeafValuesBelowIt) {
  for (double weight : {0.0, 0.4}) {
    MctsParams p = Searcher::deterministic();
    p.puct.minimaxWeight = weight;
    Searcher s(p, std::make_shared<OnePlyMaterialBackend>());
    s.goNodes(minimaxPosition(), 3000);
    const Node& root = *s.search.root();
    checkVisits(root);
    EXPECT_GT(checkMinimax(root), 500) << "weight " << weight;
    // The tree saw Qxf7# after the moves that allow it: their edges are worth -1 at the root.
    const int g8f6 = root.findEdge(parseUci(minimaxPosition(), "g8f6", false));
    ASSERT_GE(g8f6, 0);
    ASSERT_NE(root.child(g8f6), nullptr);
    EXPECT_EQ(root.edge(g8f6).minimax(), -1.0) << "weight " << weight;
  }
}

TEST(MctsMinimax, TheCacheKeepsTheMoveValuesInTheOrderOfTheLookup) {
  auto cache = std::make_shared<CachingBackend>(std::make_shared<OnePlyMaterialBackend>(), 1000);
  const Position pos = minimaxPosition();
  const MoveList list = legalMoves(pos);
  std::vector<Move> moves(list.begin(), list.end());
  auto first = cache->newComputation();
  first->addInput(pos, moves);
  first->compute();
  const std::vector<float> values(first->moveValues(0).begin(), first->moveValues(0).end());
  ASSERT_EQ(values.size(), moves.size());
  std::reverse(moves.begin(), moves.end());
  auto second = cache->newComputation();
  second->addInput(pos, moves);
  second->compute();
  EXPECT_EQ(cache->stats().hits, 1u);
  const auto cached = second->moveValues(0);
  ASSERT_EQ(cached.size(), moves.size());
  for (size_t i = 0; i < moves.size(); ++i) EXPECT_EQ(cached[i], values[moves.size() - 1 - i]);
  // A backend without move values: the cache answers none either.
  CachingBackend plain(std::make_shared<UniformBackend>(), 1000);
  for (int pass = 0; pass < 2; ++pass) {
    auto c = plain.newComputation();
    c->addInput(pos, moves);
    c->compute();
    EXPECT_TRUE(c->moveValues(0).empty()) << "pass " << pass;
  }
}

TEST(MctsThreads, MinimaxValuesStayConsistent) {
  MctsParams p = Searcher::deterministic();
  p.puct.minimaxWeight = 0.4;
  p.batchSize = 4;
  Searcher s(p, std::make_shared<OnePlyMaterialBackend>());
  s.goNodes(minimaxPosition(), 4000, 2);
  checkVisits(*s.search.root());
  EXPECT_GT(checkMinimax(*s.search.root()), 500);
}

}  // namespace
}  // namespace janus::mcts
