// Tests of the alpha-beta hints (backend.h "Alpha-beta hints", LeafSearchParams::hintVisits):
// the priors a hint gives, the backend's hint and its pass through the cache, and the search
// asking for one hint per node that reaches the visits.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>
#include <utility>

#include "core/movegen.h"
#include "mcts/caching_backend.h"
#include "mcts/mcts.h"
#include "mcts/nnue_value.h"
#include "mcts/test_search.h"
#include "mcts/uniform_backend.h"
#include "search/score.h"
#include "util/error.h"

namespace janus::mcts {
namespace {

using testing_support::kQuietMateIn2;
using testing_support::kQuietMateIn2Depth;
using testing_support::Searcher;
using testing_support::testNetwork;

std::vector<Move> legal(const Position& pos) {
  const MoveList list = legalMoves(pos);
  return {list.begin(), list.end()};
}

/// The position after `m` and its legal moves.
std::pair<Position, std::vector<Move>> childAfter(const Position& pos, Move m) {
  Position child = pos;
  child.makeMove(m);
  return {child, legal(child)};
}

TEST(AlphaBetaHint, RaisesTheBestMovesPriorAndKeepsTheOthersRatios) {
  const Position pos;
  const std::vector<Move> all = legal(pos);
  const std::vector<Move> moves(all.begin(), all.begin() + 4);
  const std::vector<float> priors = {0.5f, 0.3f, 0.15f, 0.05f};
  std::vector<float> out;
  appendHinted(priors, moves, moves[3], 0.5, out);
  ASSERT_EQ(out.size(), 4u);
  EXPECT_FLOAT_EQ(out[3], 0.5f);
  EXPECT_NEAR(std::accumulate(out.begin(), out.end(), 0.0), 1.0, 1e-6);
  EXPECT_NEAR(out[0] / out[1], 0.5 / 0.3, 1e-5);
  EXPECT_NEAR(out[1] / out[2], 0.3 / 0.15, 1e-5);
  // A best move already above the share, or not among the moves: the priors as they were.
  out.clear();
  appendHinted(priors, moves, moves[0], 0.4, out);
  EXPECT_EQ(out, priors);
  out.clear();
  appendHinted(priors, moves, all.back(), 0.5, out);
  EXPECT_EQ(out, priors);
  // A share of 1 gives the hinted move everything.
  out.clear();
  appendHinted(priors, moves, moves[2], 1.0, out);
  EXPECT_EQ(out, (std::vector<float>{0.0f, 0.0f, 1.0f, 0.0f}));
}

TEST(AlphaBetaHint, TheBackendNamesTheQuietMateAndTheCachePassesItOn) {
  LeafSearchParams params;
  params.priorTemperature = 100;
  params.hintVisits = 10;
  params.hintDepth = kQuietMateIn2Depth;
  params.hintSharePercent = 60;
  params.hashMiB = 1;
  auto inner = std::make_shared<NnueValueBackend>(std::make_shared<UniformBackend>(), testNetwork(), params);
  auto cache = std::make_shared<CachingBackend>(inner, 100);
  EXPECT_EQ(cache->attributes().hintVisits, 10u);
  EXPECT_NE(cache->attributes().description.find("alpha-beta hints of depth 6 (at most 10000 nodes) at 10 visits"),
            std::string::npos);
  // A quiet rook move (Rc1 or Ra7) mates in 2; the one-ply search does not see it.
  const Position pos = Position::fromFen(kQuietMateIn2);
  const std::vector<Move> moves = legal(pos);
  const std::vector<float> uniform(moves.size(), 1.0f / float(moves.size()));
  auto c = cache->newComputation();
  ASSERT_EQ(c->addHint(pos, moves, uniform, {}), 0);
  c->compute();
  EXPECT_FLOAT_EQ(c->wdl(0).win, 1.0f);  // the search's mate score is the value
  AlphaBetaSearch reference(std::make_unique<nnue::NnueEvaluator>(testNetwork()));
  reference.setHashMiB(1);
  const SearchResult r = leafAlphaBeta(pos, reference, kQuietMateIn2Depth);
  EXPECT_EQ(r.score, mateIn(3));
  const auto priors = c->priors(0);
  ASSERT_EQ(priors.size(), moves.size());
  const size_t k = size_t(std::ranges::find(moves, r.best) - moves.begin());
  ASSERT_LT(k, moves.size());
  EXPECT_FLOAT_EQ(priors[k], 0.6f);
  EXPECT_NEAR(std::accumulate(priors.begin(), priors.end(), 0.0), 1.0, 1e-5);
  EXPECT_EQ(cache->stats().entries, 0u);  // hints depend on the node's priors: never cached

  // Without hint visits (or depth) the backend gives none.
  params.hintVisits = 0;
  NnueValueBackend none(std::make_shared<UniformBackend>(), testNetwork(), params);
  EXPECT_EQ(none.attributes().hintVisits, 0u);
  auto n = none.newComputation();
  EXPECT_THROW((void)n->addHint(pos, moves, uniform, {}), Error);
  params.hintVisits = -1;
  EXPECT_THROW(NnueValueBackend(std::make_shared<UniformBackend>(), testNetwork(), params), Error);
}

/// The TT hints' tests: an opening position whose hint (depth 6, at most 20,000 nodes) each
/// backend searches first, and that search repeated on a fresh TT (`reference`).
struct TTHintSetup {
  LeafSearchParams params;
  Position pos = Position::fromFen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
  std::vector<Move> moves = legal(pos);
  std::vector<float> uniform = std::vector<float>(moves.size(), 1.0f / float(moves.size()));
  AlphaBetaSearch reference{std::make_unique<nnue::NnueEvaluator>(testNetwork())};
  SearchResult hint;

  TTHintSetup() {
    params.priorTemperature = 100;
    params.hintVisits = 10;
    params.hintDepth = 6;
    params.hintNodes = 20000;
    params.hashMiB = 1;
    reference.setHashMiB(1);
    hint = leafAlphaBeta(pos, reference, params.hintDepth, nullptr, u64(params.hintNodes));
  }
};

TEST(AlphaBetaHint, ATTHintGivesANewLeafTheMoveTheHintsSearchStored) {
  TTHintSetup setup;
  auto& [params, pos, moves, uniform, reference, hint] = setup;
  params.ttHintSharePercent = 70;
  params.ttHintDepth = 2;
  // The child after the hint's best move is in the reference search's TT.
  const auto [child, childMoves] = childAfter(pos, hint.best);
  TTData tte;
  ASSERT_TRUE(reference.tt().probe(child.key(), tte));
  ASSERT_GE(tte.depth, params.ttHintDepth);
  const size_t k = size_t(std::ranges::find(childMoves, tte.move) - childMoves.begin());
  ASSERT_LT(k, childMoves.size());
  // The child's priors without TT hints (the one-ply sharpening), and the same raised to 70%.
  LeafSearchParams off = params;
  off.ttHintSharePercent = 0;
  NnueValueBackend plain(std::make_shared<UniformBackend>(), testNetwork(), off);
  auto p = plain.newComputation();
  p->addHint(pos, moves, uniform, {});
  p->addInput(child, childMoves);
  const Position unrelated = Position::fromFen(kQuietMateIn2);
  const std::vector<Move> unrelatedMoves = legal(unrelated);
  p->addInput(unrelated, unrelatedMoves);
  p->compute();
  const auto before = p->priors(1);
  ASSERT_LT(before[k], 0.7f);  // otherwise the test would show nothing
  std::vector<float> expected;
  appendHinted(before, childMoves, tte.move, 0.7, expected);

  NnueValueBackend backend(std::make_shared<UniformBackend>(), testNetwork(), params);
  EXPECT_NE(backend.attributes().description.find("TT hints at a draft of 2 plies (prior at least 70%)"),
            std::string::npos);
  auto c = backend.newComputation();
  c->addHint(pos, moves, uniform, {});
  c->addInput(child, childMoves);
  c->addInput(unrelated, unrelatedMoves);  // not in the hint's TT: the priors as they were
  c->compute();
  const auto after = c->priors(1);
  ASSERT_EQ(after.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) EXPECT_FLOAT_EQ(after[i], expected[i]) << i;
  EXPECT_FLOAT_EQ(after[k], 0.7f);
  const auto unrelatedBefore = p->priors(2), unrelatedAfter = c->priors(2);
  EXPECT_TRUE(std::ranges::equal(unrelatedBefore, unrelatedAfter));
  EXPECT_FLOAT_EQ(c->wdl(1).win, p->wdl(1).win);  // the value stays the leaf's own

  // A draft the hint's search did not reach gives no TT hint.
  params.ttHintDepth = 64;
  NnueValueBackend deep(std::make_shared<UniformBackend>(), testNetwork(), params);
  auto d = deep.newComputation();
  d->addHint(pos, moves, uniform, {});
  d->addInput(child, childMoves);
  d->compute();
  EXPECT_TRUE(std::ranges::equal(d->priors(1), before));
  params.ttHintSharePercent = 101;
  EXPECT_THROW(NnueValueBackend(std::make_shared<UniformBackend>(), testNetwork(), params), Error);
}

TEST(AlphaBetaHint, ClearForgetsThePreviousGamesTTHints) {
  TTHintSetup setup;
  auto& [params, pos, moves, uniform, reference, hint] = setup;
  params.ttHintSharePercent = 70;
  params.ttHintDepth = 2;
  const auto [child, childMoves] = childAfter(pos, hint.best);
  NnueValueBackend backend(std::make_shared<UniformBackend>(), testNetwork(), params);
  // The child's priors in a fresh backend: no hint searched yet, so no TT hint.
  const auto childPriors = [&](bool hintFirst) {
    auto c = backend.newComputation();  // borrows the pool's searchers of the computation before
    if (hintFirst) c->addHint(pos, moves, uniform, {});
    c->addInput(child, childMoves);
    c->compute();
    const auto p = c->priors(hintFirst ? 1 : 0);
    return std::vector<float>(p.begin(), p.end());
  };
  const auto fresh = childPriors(false);
  const auto hinted = childPriors(true);
  ASSERT_LT(*std::ranges::max_element(fresh), 0.7f);
  ASSERT_FLOAT_EQ(*std::ranges::max_element(hinted), 0.7f);  // the TT hint of the hint's search
  // Without a hint in this computation, the pooled TT still gives the child its TT hint...
  const auto kept = childPriors(false);
  EXPECT_FLOAT_EQ(*std::ranges::max_element(kept), 0.7f);
  // ...until clear() (ucinewgame): then the child's priors are a fresh backend's again.
  backend.clear();
  EXPECT_TRUE(std::ranges::equal(childPriors(false), fresh));
}

TEST(AlphaBetaHint, ATTHintValueMovesTheLeafsValueIntoTheEntrysBound) {
  TTHintSetup setup;
  auto& [params, pos, moves, uniform, reference, hint] = setup;
  params.ttHintDepth = 1;
  params.ttHintValue = true;
  NnueValueBackend backend(std::make_shared<UniformBackend>(), testNetwork(), params);
  EXPECT_NE(backend.attributes().description.find("TT hints at a draft of 1 plies (prior at least 0%, value within "
                                                  "the bound)"),
            std::string::npos);
  auto c = backend.newComputation();
  c->addHint(pos, moves, uniform, {});
  nnue::NnueEvaluator eval(testNetwork());
  int hinted = 0, moved = 0;
  std::vector<std::vector<Move>> childMoves;
  std::vector<Wdl> expected;
  for (const Move m : moves) {  // every child: its one-ply value, moved into its TT entry's bound
    Position child = pos;
    child.makeMove(m);
    childMoves.push_back(legal(child));
    std::vector<int> scores(childMoves.back().size());
    int cp = leafOnePly(child, eval, params, childMoves.back(), scores);
    TTData tte;
    if (reference.tt().probe(child.key(), tte) && tte.move && tte.depth >= params.ttHintDepth) {
      ++hinted;
      const int before = cp;
      if ((u8(tte.bound) & u8(Bound::kLower)) && cp < tte.score) cp = tte.score;
      if ((u8(tte.bound) & u8(Bound::kUpper)) && cp > tte.score) cp = tte.score;
      moved += cp != before;
    }
    expected.push_back(centipawnsToWdl(std::clamp(cp, -kMate, kMate), child));
    c->addInput(child, childMoves.back());
  }
  c->compute();
  EXPECT_GT(hinted, 3);
  EXPECT_GT(moved, 0);  // otherwise the test would show nothing
  for (size_t i = 0; i < moves.size(); ++i) {
    EXPECT_FLOAT_EQ(c->wdl(int(i) + 1).win, expected[i].win) << i;
    EXPECT_FLOAT_EQ(c->wdl(int(i) + 1).loss, expected[i].loss) << i;
    // No TT hint share: the priors stay the one-ply sharpening's.
    EXPECT_LT(*std::ranges::max_element(c->priors(int(i) + 1)), 1.0f);
  }
}

TEST(AlphaBetaHint, TheHintsSearchStopsAtItsNodes) {
  LeafSearchParams params;
  params.hintVisits = 1;
  params.hintDepth = 20;  // unbounded, millions of nodes in the opening
  params.hintNodes = 50;
  params.hashMiB = 1;
  NnueValueBackend backend(std::make_shared<UniformBackend>(), testNetwork(), params);
  const Position pos = Position::fromFen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
  const std::vector<Move> moves = legal(pos);
  const std::vector<float> uniform(moves.size(), 1.0f / float(moves.size()));
  {
    auto c = backend.newComputation();
    c->addHint(pos, moves, uniform, {});
    c->compute();
    const auto priors = c->priors(0);
    EXPECT_FLOAT_EQ(*std::ranges::max_element(priors), 0.5f);  // a best move so far was named
  }
  EXPECT_GE(backend.leafNodes(), 50u);
  EXPECT_LT(backend.leafNodes(), 200u);
  // A later round needs a hint growth.
  EXPECT_THROW((void)backend.newComputation()->addHint(pos, moves, uniform, {.round = 1}), Error);
}

TEST(AlphaBetaHint, AStopEndsTheHintsSearchAfterItsFirstIteration) {
  LeafSearchParams params;
  params.hintVisits = 1;
  params.hintDepth = 20;
  params.hintNodes = 100'000'000;  // minutes of search in this position without the stop
  params.hashMiB = 1;
  NnueValueBackend backend(std::make_shared<UniformBackend>(), testNetwork(), params);
  const Position pos = Position::fromFen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
  const std::vector<Move> moves = legal(pos);
  const std::vector<float> uniform(moves.size(), 1.0f / float(moves.size()));
  SearchSignals stopped;
  stopped.stop = true;  // the MCTS search was stopped (UCI stop) as the hint began
  {
    auto c = backend.newComputation();
    c->addHint(pos, moves, uniform, {.signals = &stopped});
    c->compute();
    const auto priors = c->priors(0);
    EXPECT_FLOAT_EQ(*std::ranges::max_element(priors), 0.5f);  // depth 1 named a move
  }
  EXPECT_GT(backend.leafNodes(), 0u);
  EXPECT_LT(backend.leafNodes(), 5000u);  // depth 1 and its quiescence only
}

TEST(AlphaBetaHint, RoundKOfAGrowingHintSearchesGrowthToTheKTimesTheNodes) {
  LeafSearchParams params;
  params.hintVisits = 1;
  params.hintDepth = 20;
  params.hintNodes = 50;
  params.hintGrowth = 8;
  params.hashMiB = 1;
  const Position pos = Position::fromFen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
  const std::vector<Move> moves = legal(pos);
  const std::vector<float> uniform(moves.size(), 1.0f / float(moves.size()));
  for (int round : {0, 1, 2}) {
    NnueValueBackend backend(std::make_shared<UniformBackend>(), testNetwork(), params);  // a fresh TT
    EXPECT_EQ(backend.attributes().hintGrowth, 8u);
    {
      auto c = backend.newComputation();  // counted in leafNodes() when it is gone
      c->addHint(pos, moves, uniform, {.round = round});
      c->compute();
    }
    const u64 budget = 50u << (3 * round);  // 50, 400, 3200
    EXPECT_GE(backend.leafNodes(), budget) << "round " << round;
    EXPECT_LT(backend.leafNodes(), 2 * budget + 100) << "round " << round;
  }
  params.hintGrowth = -1;
  EXPECT_THROW(NnueValueBackend(std::make_shared<UniformBackend>(), testNetwork(), params), Error);
}

/// Counts the hints of the expanded, non-terminal nodes below and including `n`, and checks
/// that each node has one per threshold visits * growth^k (k = 0, 1, ... with growth >= 2, else
/// k = 0) it has passed. The schedule counts selection visits (playouts plus the hints' prior
/// knowledge, MctsSearch::hintDue). One thread, batch 1: the playout that finds a node at a
/// threshold asks for its hint and ends there, adding no playout; the next one passes on. So a
/// node whose playouts passed a threshold was hinted for it, and one whose selection visits
/// reached it (a descendant's hint can add them) was if a playout came by since.
void expectHintedIffVisited(const Node& n, u32 visits, u64& hints, u32 growth = 0) {
  if (n.expanded() && !n.isTerminal()) {
    int passed = 0, reached = 0;
    for (u64 t = visits; double(t) <= n.selectionVisits(); t *= growth) {
      ++reached;
      if (t < n.visits()) ++passed;
      if (growth < 2) break;
    }
    EXPECT_GE(n.hints(), passed) << "visits " << n.visits() << " selection visits " << n.selectionVisits();
    EXPECT_LE(n.hints(), reached) << "visits " << n.visits() << " selection visits " << n.selectionVisits();
    hints += u64(n.hints());
  }
  for (const Node::Edge& e : n.edges())
    if (e.node) expectHintedIffVisited(*e.node, visits, hints, growth);
}

/// A one-thread, batch-1 search (no smart pruning) whose nodes ask for a hint of `depth` plies
/// at `visits` visits (and again at visits * growth^k with growth >= 2), raising the hinted
/// move to `sharePercent`, whose value counts as `weight` visits (MctsParams::hintWeight), times
/// `weightGrowth` to the hint's round (MctsParams::hintWeightGrowth).
std::unique_ptr<Searcher> hintSearcher(int visits, int depth, int sharePercent = 50, int growth = 0, u32 weight = 1,
                                       u32 weightGrowth = 1) {
  LeafSearchParams leaf;
  leaf.priorTemperature = 100;
  leaf.hintVisits = visits;
  leaf.hintDepth = depth;
  leaf.hintGrowth = growth;
  leaf.hintSharePercent = sharePercent;
  leaf.hashMiB = 1;
  MctsParams params = Searcher::deterministic();
  params.batchSize = 1;
  params.hintWeight = weight;
  params.hintWeightGrowth = weightGrowth;
  return std::make_unique<Searcher>(
      params, std::make_shared<NnueValueBackend>(std::make_shared<UniformBackend>(), testNetwork(), leaf));
}

TEST(MctsHints, EveryNodeIsHintedOnceWhenItReachesTheVisits) {
  auto s = hintSearcher(40, 2);
  const Position pos = Position::fromFen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
  const SearchResult r = s->goNodes(pos, 800);
  EXPECT_TRUE(legalMoves(pos).contains(r.best));
  u64 hinted = 0;
  expectHintedIffVisited(*s->search.root(), 40, hinted);
  const MctsStats& st = s->search.lastStats();
  EXPECT_TRUE(s->search.root()->hinted());
  EXPECT_GT(hinted, 2u);
  EXPECT_EQ(st.hints, hinted);
  // A hint is no playout: the playouts are the evaluations and the terminal leaves.
  EXPECT_EQ(st.evaluations + st.terminals, st.playouts);
  // The priors stay a distribution.
  double sum = 0.0;
  for (const Node::Edge& e : s->search.root()->edges()) sum += e.prior;
  EXPECT_NEAR(sum, 1.0, 1e-5);
}

TEST(MctsHints, AGrowingHintAsksAgainAtEachPowerOfTheGrowth) {
  auto s = hintSearcher(10, 2, 50, 4);  // hints at 10, 40, 160, 640 visits
  const Position pos = Position::fromFen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
  const SearchResult r = s->goNodes(pos, 800);
  EXPECT_TRUE(legalMoves(pos).contains(r.best));
  u64 hints = 0;
  expectHintedIffVisited(*s->search.root(), 10, hints, 4);
  EXPECT_EQ(s->search.root()->hints(), 4);
  const MctsStats& st = s->search.lastStats();
  EXPECT_EQ(st.hints, hints);
  EXPECT_EQ(st.evaluations + st.terminals, st.playouts);
}

TEST(MctsHints, AWeightedHintsValueIsPriorKnowledgeNotVisits) {
  // kQuietMateIn2: the hint's search returns a mate score (win 1). Playout 1 expands the root;
  // then the root asks for its hint (at 1 visit), which is no playout; playout 2 goes on below.
  const Position mate = Position::fromFen(kQuietMateIn2);
  auto once = hintSearcher(1, kQuietMateIn2Depth, 50, 0, 1);
  once->goNodes(mate, 2);
  auto heavy = hintSearcher(1, kQuietMateIn2Depth, 50, 0, 100);
  heavy->goNodes(mate, 2);
  ASSERT_EQ(once->search.lastStats().hints, 1u);
  ASSERT_EQ(heavy->search.lastStats().hints, 1u);
  for (const auto* s : {once.get(), heavy.get()}) {
    EXPECT_EQ(s->search.lastStats().playouts, 2u);
    EXPECT_EQ(s->search.root()->visits(), 2u);  // N counts playouts, whatever the hint weighs
  }
  EXPECT_DOUBLE_EQ(once->search.root()->priorVisits(), 1.0);
  EXPECT_DOUBLE_EQ(heavy->search.root()->priorVisits(), 100.0);
  // Selection sees the hint's value 1 as 100 visits beside the two playouts' values; the reported
  // Q is the playouts' alone.
  const Node& root = *heavy->search.root();
  EXPECT_NEAR(root.selectionQ(), (2.0 * root.q() + 100.0) / 102.0, 1e-5);
  EXPECT_GT(root.selectionQ(), 0.95);
  EXPECT_DOUBLE_EQ(root.selectionVisits(), 102.0);

  // In a longer search every hint adds `weight` virtual visits to its node and to each ancestor.
  auto s = hintSearcher(10, 2, 50, 4, 8);
  const Position pos = Position::fromFen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
  s->goNodes(pos, 600);
  const MctsStats& st = s->search.lastStats();
  EXPECT_GT(st.hints, 3u);
  EXPECT_EQ(s->search.root()->visits(), st.playouts);
  EXPECT_DOUBLE_EQ(s->search.root()->priorVisits(), 8.0 * double(st.hints));
}

/// Sum over the nodes of `n`'s tree of the virtual visits their hints added: a node asked hints
/// of rounds 0 .. hints() - 1, each counting weight * weightGrowth^round visits.
u64 hintPriorVisits(const Node& n, u64 weight, u64 weightGrowth) {
  u64 sum = 0, w = weight;
  for (int k = 0; k < n.hints(); ++k, w *= weightGrowth) sum += w;
  for (const Node::Edge& e : n.edges())
    if (e.node) sum += hintPriorVisits(*e.node, weight, weightGrowth);
  return sum;
}

TEST(MctsHints, AGrowingWeightCountsEachRoundAsItsPowerOfTheGrowth) {
  // Hints at 10, 40, 160 visits (growth 4), weighing 8, 32, 128 visits (weight growth 4).
  const Position pos = Position::fromFen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
  auto s = hintSearcher(10, 2, 50, 4, 8, 4);
  s->goNodes(pos, 600);
  const MctsStats& st = s->search.lastStats();
  ASSERT_GE(s->search.root()->hints(), 2);  // the root's second round weighs 32
  const u64 prior = hintPriorVisits(*s->search.root(), 8, 4);
  EXPECT_EQ(s->search.root()->visits(), st.playouts);
  EXPECT_DOUBLE_EQ(s->search.root()->priorVisits(), double(prior));
  // The same search with a constant weight counts every round as 8 visits.
  EXPECT_GT(prior, 8 * st.hints);
  auto flat = hintSearcher(10, 2, 50, 4, 8, 1);
  flat->goNodes(pos, 600);
  EXPECT_DOUBLE_EQ(flat->search.root()->priorVisits(), double(hintPriorVisits(*flat->search.root(), 8, 1)));
}

TEST(MctsHints, SmartPruningCountsTheHintsWeightInWhatRemains) {
  // Smart pruning stops a node-limited search when the runner-up cannot overtake the most
  // visited move, by selection visits (the move choice's: playouts plus prior knowledge). With
  // hints weighing 100 virtual visits a playout can add 100 to a root child, so the visits that
  // remain are the remaining playouts times the selection visits gained per playout.
  const char* fens[] = {"r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
                        "rnbqkb1r/pp2pppp/3p1n2/8/3NP3/8/PPP2PPP/RNBQKB1R w KQkq - 1 5",
                        "r3k2r/ppp2ppp/2n1bn2/2bpp3/4P3/2NP1N2/PPP1BPPP/R1BQK2R w KQkq - 0 8", Position::kStartFen};
  constexpr u64 kLimit = 3000;
  int pruned = 0;
  for (const char* fen : fens) {
    auto s = hintSearcher(10, 2, 50, 4, 100);
    MctsParams p = s->search.params();
    p.smartPruning = true;
    s->search.setParams(p);
    s->goNodes(Position::fromFen(fen), kLimit);
    const u64 playouts = s->search.lastStats().playouts;
    ASSERT_LE(playouts, kLimit);
    if (playouts == kLimit) continue;
    ++pruned;
    u64 children = 0;
    double gained = 0, best = 0, second = 0;
    for (const Node::Edge& e : s->search.root()->edges()) {
      if (!e.node) continue;
      children += e.node->visits();
      gained += e.node->selectionVisits();
      second = std::max(second, std::min(best, e.node->selectionVisits()));
      best = std::max(best, e.node->selectionVisits());
    }
    EXPECT_EQ(children + 1, playouts);  // N counts playouts: the root's evaluation and one per playout below
    const double perPlayout = std::max(1.0, gained / double(playouts));
    EXPECT_LT(second + double(kLimit - playouts) * perPlayout, best)
        << fen << ": stopped at " << playouts << " playouts, best " << best << " second " << second;
  }
  EXPECT_GT(pruned, 0) << "no search stopped early: the test does not reach smart pruning";
}

/// Checks every edge below `n` whose child holds a hint value (MctsParams::hintMinimax): the
/// edge's implicit minimax value is the negated hint value (the child's own edges are ignored).
/// Counts those edges, and those whose value the child's own edges would have changed.
void expectHintedEdgesHoldTheHint(const Node& n, int& hinted, int& differs) {
  for (const Node::Edge& e : n.edges()) {
    const Node* c = e.node.get();
    if (!c) continue;
    if (const std::optional<double> hint = c->hintValue(); hint && !c->isTerminal()) {
      ++hinted;
      ASSERT_TRUE(e.hasValue());
      EXPECT_NEAR(e.minimax(), -*hint, 1e-9) << "visits " << c->visits();
      const std::optional<double> below = c->bestEdgeValue();
      if (below && std::abs(-*below - e.minimax()) > 0.01) ++differs;
    }
    expectHintedEdgesHoldTheHint(*c, hinted, differs);
  }
}

TEST(MctsHints, HintMinimaxBacksUpTheHintsValueInsteadOfTheSubtrees) {
  const Position pos = Position::fromFen("r3k2r/ppp2ppp/2n1bn2/2bpp3/4P3/2NP1N2/PPP1BPPP/R1BQK2R w KQkq - 0 8");
  auto off = hintSearcher(10, 3, 50, 4);
  off->goNodes(pos, 1500);
  int hinted = 0, differs = 0;
  expectHintedEdgesHoldTheHint(*off->search.root(), hinted, differs);
  EXPECT_EQ(hinted, 0) << "without hintMinimax no node keeps a hint value";
  EXPECT_FALSE(off->search.root()->hintValue());

  auto on = hintSearcher(10, 3, 50, 4);
  MctsParams p = on->search.params();
  p.hintMinimax = true;
  on->search.setParams(p);
  on->goNodes(pos, 1500);
  ASSERT_TRUE(on->search.root()->hintValue());  // the root keeps one too (it has no edge above)
  expectHintedEdgesHoldTheHint(*on->search.root(), hinted, differs);
  EXPECT_GT(hinted, 5);
  // The hints' searches (3+ plies) disagree with the minimax of one-ply leaves somewhere: else
  // the test would not tell the two backups apart.
  EXPECT_GT(differs, 0);
  // Above the hinted nodes the tree stays a minimax tree: an expanded, unhinted child's edge
  // holds the negated best value of its own edges.
  std::vector<const Node*> stack{on->search.root()};
  int checked = 0;
  while (!stack.empty()) {
    const Node* n = stack.back();
    stack.pop_back();
    for (const Node::Edge& e : n->edges()) {
      const Node* c = e.node.get();
      if (!c) continue;
      stack.push_back(c);
      if (c->isTerminal() || !c->expanded() || c->hintValue() || c->inFlight() > 0) continue;
      const std::optional<double> below = c->bestEdgeValue();
      if (!below) continue;
      EXPECT_NEAR(e.minimax(), -*below, 1.0 / Node::Edge::kValueScale);
      ++checked;
    }
  }
  EXPECT_GT(checked, 10);
}

TEST(MctsHints, AFullShareHintMakesTheSearchPlayTheQuietMate) {
  auto s = hintSearcher(1, kQuietMateIn2Depth, 100);  // the root at once, with all of the prior
  const Position pos = Position::fromFen(kQuietMateIn2);
  const SearchResult r = s->goNodes(pos, 60);
  AlphaBetaSearch reference(std::make_unique<nnue::NnueEvaluator>(testNetwork()));
  reference.setHashMiB(1);
  const SearchResult mate = leafAlphaBeta(pos, reference, kQuietMateIn2Depth);
  ASSERT_EQ(mate.score, mateIn(3));
  EXPECT_EQ(r.best, mate.best);
  EXPECT_GE(s->search.lastStats().hints, 1u);
  // The hint gave the root's mating move every bit of the prior.
  const int e = s->search.root()->findEdge(r.best);
  ASSERT_GE(e, 0);
  EXPECT_FLOAT_EQ(s->search.root()->edge(e).prior, 1.0f);
}

}  // namespace
}  // namespace janus::mcts
