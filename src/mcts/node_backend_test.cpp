// Tests of the MCTS face's building blocks (src/mcts) without whole searches: the uniform
// backend, the backend registry, the caching decorator, the PUCT rule on hand-built nodes and
// Dirichlet noise. Whole searches are in mcts_test.cpp.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

#include "core/movegen.h"
#include "core/notation.h"
#include "mcts/caching_backend.h"
#include "mcts/mcts.h"
#include "mcts/pvnet_backend.h"
#include "mcts/test_search.h"
#include "mcts/uniform_backend.h"
#include "util/error.h"

namespace janus::mcts {
namespace {

using testing_support::positionAfter;


TEST(MctsBackend, UniformGivesEqualPriorsAndTheMaterialValue) {
  UniformBackend backend;
  auto c = backend.newComputation();
  const Position start;
  const MoveList startMoves = legalMoves(start);
  const Position queenUp = Position::fromFen("4k3/8/8/8/8/8/8/3QK3 b - - 0 1");  // Black to move, a queen down
  const MoveList qMoves = legalMoves(queenUp);
  EXPECT_EQ(c->addInput(start, std::vector<Move>(startMoves.begin(), startMoves.end())), 0);
  EXPECT_EQ(c->addInput(queenUp, std::vector<Move>(qMoves.begin(), qMoves.end())), 1);
  EXPECT_EQ(c->size(), 2);
  c->compute();
  ASSERT_EQ(c->priors(0).size(), 20u);
  for (float p : c->priors(0)) EXPECT_FLOAT_EQ(p, 1.0f / 20);
  EXPECT_EQ(c->wdl(0), (Wdl{0, 1, 0}));
  const Wdl w = c->wdl(1);
  EXPECT_NEAR(w.q(), -std::atan(900 / 111.714640912) / 1.5620688421, 1e-6);
  EXPECT_NEAR(w.win + w.draw + w.loss, 1.0f, 1e-6);
  EXPECT_NEAR(std::accumulate(c->priors(1).begin(), c->priors(1).end(), 0.0f), 1.0f, 1e-6);

  EXPECT_EQ(UniformBackend::evaluate(queenUp, UniformValue::kDraw), (Wdl{0, 1, 0}));
}

class ConstantBackend final : public Backend {
 public:
  std::unique_ptr<BackendComputation> newComputation() override { return UniformBackend(UniformValue::kDraw).newComputation(); }
  BackendAttributes attributes() const override { return {"constant", 0, false, true, 0}; }
};
JANUS_REGISTER_BACKEND(testConstant, "test-constant", -5, [](const BackendOptions&) { return std::make_unique<ConstantBackend>(); });

TEST(MctsBackend, RegistryCreatesBackendsByNameAndPriority) {
  auto& r = BackendRegistry::instance();
  EXPECT_TRUE(r.contains("uniform"));
  EXPECT_TRUE(r.contains("test-constant"));
  auto names = r.names();
  ASSERT_GE(names.size(), 2u);
  // uniform (priority 0) beats test-constant (-5); pvnet (100) beats both when the build
  // embeds a policy/value network.
  EXPECT_EQ(r.defaultName(), defaultPvNetworkFile().empty() ? "uniform" : "pvnet");
  EXPECT_LT(std::find(names.begin(), names.end(), "uniform"), std::find(names.begin(), names.end(), "test-constant"));
  EXPECT_EQ(r.create("test-constant")->attributes().description, "constant");
  EXPECT_NE(r.create("uniform")->attributes().description.find("material"), std::string::npos);
  EXPECT_NE(r.create("uniform", {"", {{"value", "draw"}}})->attributes().description.find("draw"), std::string::npos);
  EXPECT_THROW((void)r.create("uniform", {"", {{"value", "magic"}}}), Error);
  try {
    (void)r.create("tensor-of-doom");
    FAIL() << "no exception";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("uniform"), std::string::npos) << e.what();
  }
}

/// Counts the positions that reach the inner backend.
class CountingBackend final : public Backend {
 public:
  explicit CountingBackend(BackendAttributes a = {}) : m_attributes(std::move(a)) {}
  std::unique_ptr<BackendComputation> newComputation() override {
    class C final : public BackendComputation {
     public:
      C(std::unique_ptr<BackendComputation> inner, std::atomic<int>& n) : m_inner(std::move(inner)), m_n(n) {}
      int addInput(const Position& pos, std::span<const Move> moves) override {
        ++m_n;
        return m_inner->addInput(pos, moves);
      }
      int size() const override { return m_inner->size(); }
      void compute() override { m_inner->compute(); }
      Wdl wdl(int i) const override { return m_inner->wdl(i); }
      std::span<const float> priors(int i) const override { return m_inner->priors(i); }

     private:
      std::unique_ptr<BackendComputation> m_inner;
      std::atomic<int>& m_n;
    };
    return std::make_unique<C>(m_uniform.newComputation(), inputs);
  }
  BackendAttributes attributes() const override { return m_attributes; }
  std::atomic<int> inputs{0};

 private:
  UniformBackend m_uniform;
  BackendAttributes m_attributes;
};

std::vector<Move> movesOf(const Position& pos) {
  const MoveList l = legalMoves(pos);
  return {l.begin(), l.end()};
}

TEST(MctsBackend, CachingBackendAnswersRepeatsFromTheCache) {
  auto inner = std::make_shared<CountingBackend>();
  CachingBackend cache(inner, 1000);
  const Position a, b = positionAfter("startpos", {"e2e4"});
  {
    auto c = cache.newComputation();
    c->addInput(a, movesOf(a));
    c->addInput(b, movesOf(b));
    c->compute();
  }
  EXPECT_EQ(inner->inputs, 2);
  EXPECT_EQ(cache.stats().misses, 2u);
  EXPECT_EQ(cache.stats().hits, 0u);
  EXPECT_EQ(cache.stats().entries, 2u);
  auto c = cache.newComputation();
  std::vector<Move> reversed = movesOf(b);
  std::reverse(reversed.begin(), reversed.end());
  EXPECT_EQ(c->addInput(b, reversed), 0);  // same position, moves in another order: still a hit
  EXPECT_EQ(c->addInput(a, movesOf(a)), 1);
  c->compute();
  EXPECT_EQ(inner->inputs, 2) << "both came from the cache";
  const CacheStats s = cache.stats();
  EXPECT_EQ(s.hits, 2u);
  EXPECT_EQ(s.misses, 2u);
  EXPECT_DOUBLE_EQ(s.hitRate(), 0.5);
  EXPECT_EQ(c->priors(0).size(), reversed.size());
  EXPECT_EQ(c->wdl(1), (Wdl{0, 1, 0}));

  cache.clear();
  EXPECT_EQ(cache.stats().entries, 0u);
  cache.resetStats();
  EXPECT_EQ(cache.stats().hits + cache.stats().misses, 0u);
}

TEST(MctsBackend, CachingBackendEvictsBeyondItsCapacity) {
  auto inner = std::make_shared<CountingBackend>();
  CachingBackend cache(inner, CachingBackend::kShards);  // one entry per shard
  Position pos;
  int added = 0;
  for (Move m : legalMoves(pos)) {
    Position after = pos;
    after.makeMove(m);
    auto c = cache.newComputation();
    c->addInput(after, movesOf(after));
    c->compute();
    ++added;
  }
  EXPECT_EQ(added, 20);
  EXPECT_LE(cache.stats().entries, u64(CachingBackend::kShards));
  EXPECT_EQ(cache.stats().misses, 20u);
}

TEST(MctsBackend, CacheKeyIncludesHistoryOnlyWhenTheBackendUsesIt) {
  // The same position reached by two move orders.
  const Position x = positionAfter("startpos", {"g1f3", "g8f6", "b1c3", "b8c6"});
  const Position y = positionAfter("startpos", {"b1c3", "b8c6", "g1f3", "g8f6"});
  ASSERT_EQ(x.key(), y.key());
  BackendAttributes none, history, rule50;
  history.historyPlies = 3;
  rule50.usesHalfmoveClock = true;
  EXPECT_EQ(CachingBackend::cacheKey(x, none), CachingBackend::cacheKey(y, none));
  EXPECT_NE(CachingBackend::cacheKey(x, history), CachingBackend::cacheKey(y, history));
  EXPECT_EQ(CachingBackend::cacheKey(x, rule50), CachingBackend::cacheKey(y, rule50));  // both clocks 4
  const Position z = Position::fromFen(x.fen().replace(x.fen().find(" 4 "), 3, " 9 "));
  EXPECT_EQ(CachingBackend::cacheKey(z, none), CachingBackend::cacheKey(x, none));
  EXPECT_NE(CachingBackend::cacheKey(z, rule50), CachingBackend::cacheKey(x, rule50));
}

// ---- PUCT on hand-built nodes ------------------------------------------------------------------

/// A node with three moves (priors 0.5, 0.3, 0.2) and 10 visits of mean 0.1; child 0 has 6
/// visits of Q -0.2 (its own view), child 1 has 3 of Q +0.1, child 2 none.
Node handBuilt() {
  Node n;
  const Position pos;
  const std::vector<Move> moves = {parseUci(pos, "e2e4", false), parseUci(pos, "d2d4", false), parseUci(pos, "g1f3", false)};
  const std::vector<float> priors = {0.3f, 0.5f, 0.2f};  // expand sorts them: d2d4, e2e4, g1f3
  n.expand(moves, priors);
  n.addVisits(10, 0.1);
  n.getOrCreateChild(0).addVisits(6, -0.2);
  n.getOrCreateChild(1).addVisits(3, 0.1);
  return n;
}

TEST(MctsPuct, SelectionFollowsTheAlphaZeroFormula) {
  Node n = handBuilt();
  ASSERT_EQ(n.numEdges(), 3);
  EXPECT_EQ(toUci(n.edge(0).move, false), "d2d4");
  EXPECT_FLOAT_EQ(n.edge(0).prior, 0.5f);
  EXPECT_FLOAT_EQ(n.edge(2).prior, 0.2f);
  PuctParams p;
  const double c = 2.5 + 2.0 * std::log((10.0 + 19652.0) / 19652.0);
  EXPECT_NEAR(cpuct(p, 10), c, 1e-12);
  const double fpu = 0.1 - 0.44 * std::sqrt(0.5 + 0.3);
  EXPECT_NEAR(fpuValue(n, 0.44), fpu, 1e-6);  // priors are floats
  const double q[3] = {0.2, -0.1, fpu};  // the parent sees the children's values negated
  const double u[3] = {c * 0.5 * std::sqrt(10.0) / 7, c * 0.3 * std::sqrt(10.0) / 4, c * 0.2 * std::sqrt(10.0) / 1};
  int expected = 0;
  for (int i = 0; i < 3; ++i) {
    EXPECT_NEAR(edgeQ(n, i, fpu, 1.0), q[i], 1e-6) << i;
    EXPECT_NEAR(edgeU(n, i, c), u[i], 1e-6) << i;
    if (q[i] + u[i] > q[expected] + u[expected]) expected = i;
  }
  EXPECT_EQ(selectEdge(n, p, false), expected);
  // More exploration (c_init 10) makes the unvisited move win; none makes the best Q win.
  p.cpuctInit = 10.0;
  EXPECT_EQ(selectEdge(n, p, false), 2);
  p.cpuctInit = 0.0;
  p.cpuctFactor = 0.0;
  EXPECT_EQ(selectEdge(n, p, false), 0);
  // searchmoves mask at the root.
  std::vector<bool> allowed = {false, true, false};
  EXPECT_EQ(selectEdge(n, p, true, &allowed), 1);
}

TEST(MctsMinimax, EdgesKeepTheMoveValuesInPriorOrderAndBackUpTheChildsBest) {
  Node n;
  const Position pos;
  const std::vector<Move> moves = {parseUci(pos, "e2e4", false), parseUci(pos, "d2d4", false), parseUci(pos, "g1f3", false)};
  n.expand(moves, std::vector<float>{0.3f, 0.5f, 0.2f}, std::vector<float>{0.25f, -0.5f, 2.0f});
  ASSERT_EQ(toUci(n.edge(0).move, false), "d2d4");  // sorted by prior; the values go with their moves
  EXPECT_NEAR(n.edge(0).minimax(), -0.5, 1e-4);
  EXPECT_NEAR(n.edge(1).minimax(), 0.25, 1e-4);
  EXPECT_NEAR(n.edge(2).minimax(), 1.0, 1e-4) << "clamped to [-1, 1]";
  EXPECT_NEAR(*n.bestEdgeValue(), 1.0, 1e-4);

  // No child yet, or a child not expanded: nothing to back up.
  EXPECT_FALSE(backupMinimax(n, 0));
  Node& child = n.getOrCreateChild(0);
  EXPECT_FALSE(backupMinimax(n, 0));
  EXPECT_NEAR(n.edge(0).minimax(), -0.5, 1e-4);
  // The child's best reply is worth 0.6 to its side: the move is worth -0.6 to the parent.
  Position after = pos;
  after.makeMove(n.edge(0).move);
  const MoveList replies = legalMoves(after);
  std::vector<float> replyValues(replies.size(), -0.3f);
  replyValues[3] = 0.6f;
  child.expand(std::vector<Move>(replies.begin(), replies.end()), std::vector<float>(replies.size(), 0.05f),
               replyValues);
  EXPECT_TRUE(backupMinimax(n, 0));
  EXPECT_NEAR(n.edge(0).minimax(), -0.6, 1e-4);
  EXPECT_FALSE(backupMinimax(n, 0)) << "unchanged the second time";
  // A terminal child gives its exact value.
  child.makeTerminal(Terminal::kLoss, TerminalKind::kRule);
  EXPECT_TRUE(backupMinimax(n, 0));
  EXPECT_EQ(n.edge(0).minimax(), 1.0);

  // Without move values the edges have none.
  Node plain;
  plain.expand(moves, std::vector<float>{0.3f, 0.5f, 0.2f});
  for (const Node::Edge& e : plain.edges()) EXPECT_FALSE(e.hasValue());
  EXPECT_FALSE(plain.bestEdgeValue().has_value());
}

TEST(MctsMinimax, TheWeightBlendsTheMinimaxValueIntoQOfVisitedChildren) {
  Node n = handBuilt();  // d2d4 Q 0.2 over 6 visits, e2e4 Q -0.1 over 3, g1f3 unvisited
  PuctParams p;
  p.cpuctInit = 0.0;
  p.cpuctFactor = 0.0;  // no exploration: the best (blended) Q wins
  p.minimaxWeight = 0.5;
  EXPECT_EQ(selectEdge(n, p, false), 0) << "no edge has a value: plain Q";
  n.edge(0).setMinimax(-0.8);  // a refutation of d2d4 found below it
  n.edge(1).setMinimax(0.1);
  // d2d4: 0.5 * 0.2 + 0.5 * -0.8 = -0.3; e2e4: 0.5 * -0.1 + 0.5 * 0.1 = 0; g1f3: FPU 0.1 - 0.44 sqrt(0.8).
  EXPECT_EQ(selectEdge(n, p, false), 1);
  p.minimaxWeight = 0.0;
  EXPECT_EQ(selectEdge(n, p, false), 0) << "weight 0: plain PUCT";
  // A blend of 0.2 leaves d2d4 at 0.8 * 0.2 + 0.2 * -0.8 = 0 against e2e4's -0.06.
  p.minimaxWeight = 0.2;
  EXPECT_EQ(selectEdge(n, p, false), 0);
}

TEST(MctsPuct, FpuValueWeightBlendsTheMoveValueIntoUnvisitedChildren) {
  Node n = handBuilt();  // d2d4 Q 0.2 over 6 visits, e2e4 Q -0.1 over 3, g1f3 unvisited (prior 0.2)
  n.edge(2).setMinimax(0.9);  // g1f3's one-ply value
  PuctParams p;
  p.cpuctInit = 0.0;
  p.cpuctFactor = 0.0;  // no exploration: the best Q wins
  // g1f3 plain: FPU 0.1 - 0.44 sqrt(0.8) = -0.29 < d2d4's 0.2.
  EXPECT_EQ(selectEdge(n, p, false), 0);
  // Half its one-ply value 0.9: 0.5 * -0.29 + 0.5 * 0.9 = 0.30 > 0.2.
  p.fpuValueWeight = 0.5;
  EXPECT_EQ(selectEdge(n, p, false), 2);
  // A quarter: 0.75 * -0.29 + 0.25 * 0.9 = 0.005 < 0.2.
  p.fpuValueWeight = 0.25;
  EXPECT_EQ(selectEdge(n, p, false), 0);
  // Between two fresh moves the value decides, not the prior alone.
  Node fresh;
  fresh.expand(std::vector<Move>{n.edge(0).move, n.edge(1).move, n.edge(2).move}, std::vector<float>{0.5f, 0.3f, 0.2f},
               std::vector<float>{-0.6f, 0.0f, 0.4f});
  fresh.addVisits(1, 0.0);
  p.cpuctInit = 1.0;  // U = P: d2d4 0.5, e2e4 0.3, g1f3 0.2
  p.fpuValueWeight = 0.0;
  EXPECT_EQ(selectEdge(fresh, p, false), 0) << "plain FPU: the highest prior";
  p.fpuValueWeight = 1.0;  // Q = the move value: d2d4 -0.1, e2e4 0.3, g1f3 0.6
  EXPECT_EQ(selectEdge(fresh, p, false), 2);
}

TEST(MctsPuct, FirstPlayUrgencyReducesTheParentValue) {
  Node n = handBuilt();
  EXPECT_NEAR(fpuValue(n, 0.0), 0.1, 1e-12);
  EXPECT_NEAR(fpuValue(n, 1.0), 0.1 - std::sqrt(0.8), 1e-6);
  // Nothing visited: the parent's Q.
  Node fresh;
  const Position pos;
  const std::vector<Move> moves = movesOf(pos);
  fresh.expand(moves, std::vector<float>(moves.size(), 1.0f / float(moves.size())));
  fresh.addVisits(1, 0.25);
  EXPECT_NEAR(fpuValue(fresh, 0.44), 0.25, 1e-12);
  // The root uses its own reduction: a large one there leaves the visited child preferred.
  // With c = 1: Q + U is 0.2 + 0.226 for the first move and 0.1 + 0.632 for the unvisited one
  // without reduction, but 0.1 - 2 sqrt(0.8) + 0.632 with a reduction of 2 at the root.
  PuctParams p;
  p.cpuctInit = 1.0;
  p.cpuctFactor = 0;
  p.fpuReduction = 0.0;
  p.fpuReductionRoot = 2.0;
  EXPECT_EQ(selectEdge(n, p, false), 2);
  EXPECT_EQ(selectEdge(n, p, true), 0);
}

TEST(MctsPuct, VarianceScalesTheExplorationConstant) {
  // Two nodes with the same mean Q (0.2 over 10 visits) but different spreads.
  Node calm, wild;
  calm.addVisits(10, 0.2);   // every visit 0.2: variance 0
  wild.addVisits(5, 0.9);    // half 0.9, half -0.5: variance 0.49 (sigma 0.7)
  wild.addVisits(5, -0.5);
  EXPECT_NEAR(calm.q(), 0.2, 1e-12);
  EXPECT_NEAR(wild.q(), 0.2, 1e-12);
  EXPECT_NEAR(calm.qVariance(), 0.0, 1e-12);
  EXPECT_NEAR(wild.qVariance(), 0.49, 1e-12);
  Node one;
  one.addVisits(1, 0.7);
  EXPECT_EQ(one.qVariance(), 0.0) << "one visit has no spread";

  PuctParams p;
  EXPECT_DOUBLE_EQ(cpuct(p, wild), cpuct(p, 10)) << "weight 0: off";
  p.cpuctVarWeight = 0.5;
  p.cpuctVarScale = 0.35;
  p.cpuctVarWarmup = 0.5;
  // f = sigma / scale = 2, blended towards 1 by 1 / (1 + 0.5 * 10): f = 2 - 1/6.
  const double fWild = 2.0 + (1.0 - 2.0) / 6.0;
  EXPECT_NEAR(cpuct(p, wild), cpuct(p, 10) * (1.0 + 0.5 * (fWild - 1.0)), 1e-12);
  // sigma 0: f = 1/6, the constant shrinks; never below 0 with a large weight.
  EXPECT_NEAR(cpuct(p, calm), cpuct(p, 10) * (1.0 + 0.5 * (1.0 / 6.0 - 1.0)), 1e-7);  // rounding: variance ~1e-17
  EXPECT_LT(cpuct(p, calm), cpuct(p, 10));
  EXPECT_GT(cpuct(p, wild), cpuct(p, 10));
  p.cpuctVarWeight = 5.0;
  EXPECT_EQ(cpuct(p, calm), 0.0);

  // In selection: the same tree explores the unvisited move only when its values spread.
  Node n = handBuilt();
  n.addVisits(1, 1.0);  // two more visits of spread values: Q stays 0.1, sigma about 0.37
  n.addVisits(1, -0.8);
  ASSERT_NEAR(n.q(), 0.1, 1e-12);
  PuctParams q;
  q.cpuctInit = 0.2;
  q.cpuctFactor = 0.0;
  q.fpuReduction = 0.0;
  const int plain = selectEdge(n, q, false);
  EXPECT_EQ(plain, 0) << "Q + U: 0.2 + 0.05 for the visited move, 0.1 + 0.14 for the unvisited one";
  q.cpuctVarWeight = 1.0;
  q.cpuctVarScale = 0.01;  // any spread is large: c grows
  EXPECT_NE(selectEdge(n, q, false), plain);
  EXPECT_EQ(selectEdge(n, q, false), 2) << "more exploration picks the unvisited move";
}

/// The PUCT choice by its definition: the first edge with the highest edgeQ + edgeU, with the
/// FPU value of fpuValue, the edge's minimax value blended into Q by minimaxWeight (a visited,
/// non-terminal child) or fpuValueWeight (a child without started visits), where it has one:
/// the reference selectEdge's one pass must agree with.
int selectByDefinition(const Node& n, const PuctParams& p, bool isRoot, const std::vector<bool>* allowed) {
  const double c = cpuct(p, n);
  const double fpu = fpuValue(n, isRoot ? p.fpuReductionRoot : p.fpuReduction);
  int best = -1;
  double bestScore = -1e300;
  for (int i = 0; i < n.numEdges(); ++i) {
    if (allowed && !(*allowed)[size_t(i)]) continue;
    const Node* child = n.child(i);
    double q = edgeQ(n, i, fpu, p.virtualLoss);
    if (n.edge(i).hasValue() && !(child && child->isTerminal())) {
      const double w = child && child->startedVisits() > 0 ? p.minimaxWeight : p.fpuValueWeight;
      q = (1.0 - w) * q + w * n.edge(i).minimax();
    }
    const double score = q + edgeU(n, i, c);
    if (score > bestScore) bestScore = score, best = i;
  }
  return best;
}

TEST(MctsPuct, OnePassSelectionEqualsTheDefinitionOnRandomNodes) {
  // Random nodes: equal and noisy (unsorted) priors, children absent, created but unvisited,
  // visited, in flight or terminal, searchmoves masks, and exploration constants of 0 (every
  // fresh edge ties) up to large ones.
  std::mt19937_64 rng(7);
  const Position pos = Position::fromFen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
  const std::vector<Move> moves = movesOf(pos);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  int checked = 0, freshChosen = 0, visitedChosen = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    Node n;
    std::vector<float> priors(moves.size());
    const bool coarse = trial % 3 == 0;  // few distinct priors: many ties
    for (float& x : priors) x = coarse ? float(1 + rng() % 3) : float(unit(rng));
    const float sum = std::accumulate(priors.begin(), priors.end(), 0.0f);
    for (float& x : priors) x /= sum;
    n.expand(moves, priors);
    if (trial % 4 == 1) applyDirichletNoise(n, 0.3, 0.25, rng);
    u32 total = 0;
    for (int i = 0; i < n.numEdges(); ++i) {
      const u64 kind = rng() % 8;
      if (kind < 3) continue;  // no child
      Node& child = n.getOrCreateChild(i);
      if (kind == 3) continue;  // created, never visited
      if (kind == 7 && trial % 2 == 0) {
        child.makeTerminal(rng() % 2 ? Terminal::kLoss : Terminal::kDraw, TerminalKind::kRule);
        continue;
      }
      const u32 v = kind == 4 ? 0u : u32(1 + rng() % 50);
      if (v) child.addVisits(v, 2 * unit(rng) - 1);
      if (kind == 4 || rng() % 5 == 0) child.addVirtualLoss();
      total += v;
    }
    if (total + rng() % 3) n.addVisits(total + 1, 2 * unit(rng) - 1);
    PuctParams p;
    p.cpuctInit = trial % 5 == 0 ? 0.0 : 4 * unit(rng);
    p.cpuctFactor = trial % 5 == 0 ? 0.0 : 2 * unit(rng);
    p.fpuReduction = unit(rng);
    p.fpuReductionRoot = unit(rng);
    p.cpuctVarWeight = trial % 2 ? 0.0 : unit(rng);
    if (trial % 7 < 3) {  // move values on some edges, blended into visited and fresh children
      for (int i = 0; i < n.numEdges(); ++i)
        if (rng() % 3) n.edge(i).setMinimax(trial % 7 == 0 ? 0.0 : 2 * unit(rng) - 1);
      p.minimaxWeight = trial % 7 == 2 ? 0.0 : unit(rng);
      p.fpuValueWeight = trial % 7 == 1 ? 0.0 : unit(rng);
    }
    std::vector<bool> allowed(size_t(n.numEdges()));
    for (size_t i = 0; i < allowed.size(); ++i) allowed[i] = rng() % 3 != 0;
    const bool masked = trial % 3 == 2 && std::find(allowed.begin(), allowed.end(), true) != allowed.end();
    const bool root = trial % 2 == 1;
    const int expected = selectByDefinition(n, p, root, masked ? &allowed : nullptr);
    ASSERT_EQ(selectEdge(n, p, root, masked ? &allowed : nullptr), expected) << "trial " << trial;
    ++checked;
    (n.child(expected) && n.child(expected)->startedVisits() > 0 ? visitedChosen : freshChosen)++;
  }
  EXPECT_EQ(checked, 3000);
  EXPECT_GT(freshChosen, 100);  // both kinds of choice were exercised
  EXPECT_GT(visitedChosen, 100);
}

TEST(MctsPuct, VirtualLossAndTerminalChildren) {
  Node n = handBuilt();
  n.child(0)->addVirtualLoss();  // one playout in flight through child 0: counted as a loss
  EXPECT_NEAR(edgeQ(n, 0, 0.0, 1.0), (0.2 * 6 - 1.0) / 7, 1e-12);
  n.child(0)->revertVirtualLoss();
  EXPECT_NEAR(edgeQ(n, 0, 0.0, 1.0), 0.2, 1e-12);
  n.child(1)->makeTerminal(Terminal::kLoss, TerminalKind::kRule);  // child 1 is checkmated: we win
  EXPECT_DOUBLE_EQ(edgeQ(n, 1, 0.0, 1.0), 1.0);
  EXPECT_EQ(selectEdge(n, PuctParams{}, false), 1);
  EXPECT_TRUE(betterEdge(n, 1, 0)) << "a mate before any number of visits";
  EXPECT_TRUE(updateProof(n));
  EXPECT_EQ(n.terminal(), Terminal::kWin);
  EXPECT_EQ(n.terminalPlies(), 1);
}

TEST(MctsPuct, AllMovesLosingProvesALoss) {
  Node n = handBuilt();
  n.getOrCreateChild(2);
  for (int i = 0; i < 3; ++i) n.child(i)->makeTerminal(Terminal::kWin, TerminalKind::kProven, 2 * i + 1);
  EXPECT_TRUE(updateProof(n));
  EXPECT_EQ(n.terminal(), Terminal::kLoss);
  EXPECT_EQ(n.terminalPlies(), 6);  // the longest resistance: 5 plies after our move
  EXPECT_TRUE(betterEdge(n, 2, 0));
}

TEST(MctsNoise, DirichletNoiseKeepsPriorsNormalised) {
  Node n;
  const Position pos;
  const std::vector<Move> moves = movesOf(pos);
  n.expand(moves, std::vector<float>(moves.size(), 1.0f / 20));
  std::mt19937_64 rng(42);
  applyDirichletNoise(n, 0.3, 0.25, rng);
  double sum = 0;
  int changed = 0;
  for (const Node::Edge& e : n.edges()) {
    sum += e.prior;
    EXPECT_GE(e.prior, 0.75f / 20 - 1e-6f);  // (1 - epsilon) of the prior stays
    changed += std::abs(e.prior - 0.05f) > 1e-4f;
  }
  EXPECT_NEAR(sum, 1.0, 1e-5);
  EXPECT_GT(changed, 10);
}

}  // namespace
}  // namespace janus::mcts
