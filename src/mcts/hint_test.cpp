// Tests of the alpha-beta hints (hint.h, HintSearcher): the priors a hint gives, the scheduler's
// searches, node counts, rounds and TT hints, the weight of a hint cut short, and the search
// asking for one hint per node that reaches the visits, counting the hints' nodes in its own.

#include "mcts/hint.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>
#include <utility>

#include "core/movegen.h"
#include "core/notation.h"
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

/// The opening after 1. e4 e5 2. Nf3 Nc6.
const char* const kOpening = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";

/// Nodes an alpha-beta search may count past its node limit: each search on the stack that has a
/// re-search (PVS, ProbCut) to make enters it, counting one node, before it sees the stop.
constexpr u64 kAlphaBetaOvershoot = 16;

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

/// Hints at `visits` of `depth` plies, 1 MiB of TT per thread.
HintParams hintParams(int visits, int depth) {
  HintParams p;
  p.visits = visits;
  p.depth = depth;
  p.hashMiB = 1;
  return p;
}

/// A scheduler with the test network and room for `threads` threads.
std::unique_ptr<HintSearcher> scheduler(const HintParams& p, int threads = 1) {
  auto h = std::make_unique<HintSearcher>(p);
  h->setNetwork(testNetwork());
  h->prepare(threads);
  return h;
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

TEST(AlphaBetaHint, ACutShortHintWeighsTheShareOfThePliesItCompleted) {
  EXPECT_EQ(hintWeightFraction(10, 10, false), 1.0);
  EXPECT_EQ(hintWeightFraction(4, 10, false), 1.0);  // ended at its own node limit: complete
  EXPECT_EQ(hintWeightFraction(4, 10, true), 0.4);
  EXPECT_EQ(hintWeightFraction(10, 10, true), 1.0);
  EXPECT_EQ(hintWeightFraction(0, 10, true), 0.0);  // no iteration: nothing
  EXPECT_EQ(hintWeightFraction(0, 10, false), 0.0);
}

TEST(HintSearcher, NamesTheQuietMateAndCountsItsNodes) {
  HintParams p = hintParams(10, kQuietMateIn2Depth);
  p.weight = 7;
  auto h = scheduler(p);
  EXPECT_TRUE(h->enabled());
  EXPECT_NE(h->describe().find("alpha-beta hints of depth 6 (at most 10000 nodes) at 10 visits"), std::string::npos);
  // A quiet rook move (Rc1 or Ra7) mates in 2; the one-ply search does not see it.
  const Position pos = Position::fromFen(kQuietMateIn2);
  const HintResult r = h->search(0, pos, 0, 0, 0, nullptr);
  AlphaBetaSearch reference(std::make_unique<nnue::NnueEvaluator>(testNetwork()));
  reference.setHashMiB(1);
  const SearchResult mate = leafAlphaBeta(pos, reference, kQuietMateIn2Depth);
  EXPECT_EQ(mate.score, mateIn(3));
  EXPECT_EQ(r.best, mate.best);
  EXPECT_FLOAT_EQ(r.wdl.win, 1.0f);  // the search's mate score is the value
  EXPECT_EQ(r.requestedDepth, kQuietMateIn2Depth);
  EXPECT_EQ(r.completedDepth, kQuietMateIn2Depth);
  EXPECT_FALSE(r.cutShort);
  EXPECT_EQ(r.weight, 7.0);
  EXPECT_EQ(r.nodes, mate.nodes);
  EXPECT_EQ(h->nodes(), r.nodes);  // the scheduler's own count
  (void)h->search(0, pos, 0, 0, 0, nullptr);
  EXPECT_GT(h->nodes(), r.nodes);

  // Without a network, visits or depth there are no hints.
  HintSearcher none(p);
  EXPECT_FALSE(none.enabled());
  EXPECT_EQ(none.describe(), "");
  none.prepare(1);
  EXPECT_THROW((void)none.search(0, pos, 0, 0, 0, nullptr), Error);
  p.visits = -1;
  EXPECT_THROW(HintSearcher{p}, Error);
  p.visits = 10;
  p.nodes = 0;
  EXPECT_THROW(none.setParams(p), Error);
}

TEST(HintSearcher, TheHintsSearchStopsAtItsNodesAndIsComplete) {
  HintParams p = hintParams(1, 20);  // depth 20: millions of nodes in the opening
  p.nodes = 50;
  auto h = scheduler(p);
  const HintResult r = h->search(0, Position::fromFen(kOpening), 0, 0, 0, nullptr);
  EXPECT_GE(r.nodes, 50u);
  EXPECT_LT(r.nodes, 200u);
  EXPECT_TRUE(r.best);
  EXPECT_LT(r.completedDepth, 20);
  // Its own node limit is the size it was asked for: not cut short, its round's full weight.
  EXPECT_FALSE(r.cutShort);
  EXPECT_EQ(r.weight, 1.0);
}

TEST(HintSearcher, AHintCutShortByTheNodeBudgetWeighsLessThanAComplete) {
  HintParams p = hintParams(1, 20);
  p.nodes = 20000;
  p.weight = 100;
  auto h = scheduler(p);
  const Position pos = Position::fromFen(kOpening);
  const HintResult complete = h->search(0, pos, 0, 0, 0, nullptr);
  h->newGame();  // the same TT as the first search's
  const HintResult cut = h->search(0, pos, 0, 1500, 0, nullptr);  // what `go nodes` left
  EXPECT_FALSE(complete.cutShort);
  EXPECT_EQ(complete.weight, 100.0);
  EXPECT_TRUE(cut.cutShort);
  EXPECT_LE(cut.nodes, 1500u + kAlphaBetaOvershoot);
  ASSERT_GE(cut.completedDepth, 1);
  EXPECT_LT(cut.completedDepth, complete.completedDepth);
  EXPECT_DOUBLE_EQ(cut.weight, 100.0 * cut.completedDepth / 20.0);
  EXPECT_LT(cut.weight, complete.weight);
  EXPECT_TRUE(cut.best);  // a move from its last completed iteration: the prior is still raised
}

TEST(HintSearcher, AStopEndsTheHintsSearchAfterItsFirstIteration) {
  HintParams p = hintParams(1, 20);
  p.nodes = 100'000'000;  // minutes of search in this position without the stop
  auto h = scheduler(p);
  SearchSignals stopped;
  stopped.stop = true;  // the MCTS search was stopped (UCI stop) as the hint began
  const HintResult r = h->search(0, Position::fromFen(kOpening), 0, 0, 0, &stopped);
  EXPECT_TRUE(r.best);  // depth 1 named a move
  EXPECT_EQ(r.completedDepth, 1);
  EXPECT_TRUE(r.cutShort);
  EXPECT_DOUBLE_EQ(r.weight, 1.0 / 20.0);
  EXPECT_GT(r.nodes, 0u);
  EXPECT_LT(r.nodes, 5000u);  // depth 1 and its quiescence only
}

TEST(HintSearcher, RoundKSearchesGrowthToTheKTimesTheNodesAndWeighsWeightGrowthToTheK) {
  HintParams p = hintParams(1, 20);
  p.nodes = 50;
  p.growth = 8;
  p.weight = 3;
  p.weightGrowth = 4;
  const Position pos = Position::fromFen(kOpening);
  for (int round : {0, 1, 2}) {
    auto h = scheduler(p);  // a fresh TT
    const u64 budget = 50u << (3 * round);  // 50, 400, 3200
    EXPECT_EQ(h->roundNodes(round), budget);
    EXPECT_EQ(h->roundDepth(round), 20 + 2 * round);
    const HintResult r = h->search(0, pos, round, 0, 0, nullptr);
    EXPECT_GE(r.nodes, budget) << "round " << round;
    EXPECT_LT(r.nodes, 2 * budget + 100) << "round " << round;
    EXPECT_EQ(r.weight, 3.0 * std::pow(4.0, round));
  }
  auto h = scheduler(p);
  EXPECT_EQ(h->roundDepth(100), kMaxPly / 2);
  EXPECT_EQ(h->roundWeight(100), double(u64(1) << 31));
  p.growth = -1;
  EXPECT_THROW(h->setParams(p), Error);
}

/// The TT hints' tests: an opening position whose hint (depth 6, at most 20,000 nodes) the
/// scheduler searches first, and that search repeated on a fresh TT (`reference`).
struct TTHintSetup {
  HintParams params = hintParams(10, 6);
  Position pos = Position::fromFen(kOpening);
  AlphaBetaSearch reference{std::make_unique<nnue::NnueEvaluator>(testNetwork())};
  SearchResult hint;

  TTHintSetup() {
    params.nodes = 20000;
    reference.setHashMiB(1);
    hint = leafAlphaBeta(pos, reference, params.depth, u64(params.nodes));
  }
};

TEST(HintSearcher, ATTHintGivesANewLeafTheMoveTheHintsSearchStored) {
  TTHintSetup setup;
  auto& [params, pos, reference, hint] = setup;
  params.ttSharePercent = 70;
  params.ttDepth = 2;
  // The child after the hint's best move is in the reference search's TT.
  const auto [child, childMoves] = childAfter(pos, hint.best);
  TTData tte;
  ASSERT_TRUE(reference.tt().probe(child.key(), tte));
  ASSERT_GE(tte.depth, params.ttDepth);
  const size_t k = size_t(std::ranges::find(childMoves, tte.move) - childMoves.begin());
  ASSERT_LT(k, childMoves.size());

  auto h = scheduler(params, 2);
  EXPECT_NE(h->describe().find("TT hints at a draft of 2 plies (prior at least 70%)"), std::string::npos);
  EXPECT_FALSE(h->ttHint(0, child)) << "no hint searched yet";
  const HintResult r = h->search(0, pos, 0, 0, 0, nullptr);
  EXPECT_EQ(r.best, hint.best);
  const std::optional<TTHint> tt = h->ttHint(0, child);
  ASSERT_TRUE(tt);
  EXPECT_EQ(tt->move, tte.move);
  EXPECT_EQ(tt->bound, tte.bound);
  // The move's prior is raised to 70%, the others keep their ratios; the value stays the leaf's.
  std::vector<float> priors(childMoves.size(), 1.0f / float(childMoves.size()));
  std::vector<float> expected;
  appendHinted(priors, childMoves, tte.move, 0.7, expected);
  const Wdl leafWdl{0.3f, 0.4f, 0.3f};
  Wdl wdl = leafWdl;
  h->applyTTHint(*tt, childMoves, priors, wdl);
  EXPECT_FLOAT_EQ(priors[k], 0.7f);
  for (size_t i = 0; i < expected.size(); ++i) EXPECT_FLOAT_EQ(priors[i], expected[i]) << i;
  EXPECT_EQ(wdl, leafWdl);
  // A position the hint's search did not store, another thread's TT, a draft not reached: none.
  EXPECT_FALSE(h->ttHint(0, Position::fromFen(kQuietMateIn2)));
  EXPECT_FALSE(h->ttHint(1, child));
  params.ttDepth = 64;
  h->setParams(params);
  EXPECT_FALSE(h->ttHint(0, child));
  params.ttSharePercent = 101;
  EXPECT_THROW(h->setParams(params), Error);
}

TEST(HintSearcher, NewGameForgetsThePreviousGamesTTHints) {
  TTHintSetup setup;
  auto& [params, pos, reference, hint] = setup;
  params.ttSharePercent = 70;
  params.ttDepth = 2;
  const auto [child, childMoves] = childAfter(pos, hint.best);
  auto h = scheduler(params);
  (void)h->search(0, pos, 0, 0, 0, nullptr);
  EXPECT_TRUE(h->ttHint(0, child));
  EXPECT_TRUE(h->ttHint(0, child)) << "the TT outlives the hint (a later search of the game)";
  h->newGame();  // ucinewgame
  EXPECT_FALSE(h->ttHint(0, child));
}

TEST(HintSearcher, ATTHintValueMovesTheLeafsValueIntoTheEntrysBound) {
  TTHintSetup setup;
  auto& [params, pos, reference, hint] = setup;
  params.ttDepth = 1;
  params.ttValue = true;
  auto h = scheduler(params);
  EXPECT_NE(h->describe().find("TT hints at a draft of 1 plies (prior at least 0%, value within the bound)"),
            std::string::npos);
  (void)h->search(0, pos, 0, 0, 0, nullptr);
  nnue::NnueEvaluator eval(testNetwork());
  LeafSearchParams leaf;
  leaf.priorTemperature = 100;
  int hinted = 0, moved = 0;
  for (const Move m : legal(pos)) {  // every child: its one-ply value, moved into its TT entry's bound
    auto [child, childMoves] = childAfter(pos, m);
    std::vector<int> scores(childMoves.size());
    int cp = leafOnePly(child, eval, leaf, childMoves, scores);
    Wdl wdl = centipawnsToWdl(std::clamp(cp, -kMate, kMate), child);
    std::vector<float> priors(childMoves.size(), 1.0f / float(childMoves.size()));
    const std::vector<float> before = priors;
    if (const std::optional<TTHint> tt = h->ttHint(0, child)) h->applyTTHint(*tt, childMoves, priors, wdl);
    // The same by centipawns, from the reference search's TT.
    TTData tte;
    if (reference.tt().probe(child.key(), tte) && tte.move && tte.depth >= params.ttDepth) {
      ++hinted;
      const int original = cp;
      if ((u8(tte.bound) & u8(Bound::kLower)) && cp < tte.score) cp = tte.score;
      if ((u8(tte.bound) & u8(Bound::kUpper)) && cp > tte.score) cp = tte.score;
      moved += cp != original;
    }
    const Wdl expected = centipawnsToWdl(std::clamp(cp, -kMate, kMate), child);
    EXPECT_FLOAT_EQ(wdl.win, expected.win) << toUci(m, false);
    EXPECT_FLOAT_EQ(wdl.loss, expected.loss) << toUci(m, false);
    EXPECT_EQ(priors, before);  // no TT hint share: the priors stay
  }
  EXPECT_GT(hinted, 3);
  EXPECT_GT(moved, 0);  // otherwise the test would show nothing
}

/// Counts the hints of the expanded, non-terminal nodes below and including `n`, and checks
/// that each node has one per threshold visits * growth^k (k = 0, 1, ... with growth >= 2, else
/// k = 0) it has passed. The schedule counts selection visits (playouts plus the hints' prior
/// knowledge, HintSearcher::due). One thread, batch 1: the playout that finds a node at a
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

/// A one-thread, batch-1 search (no smart pruning) with one-ply NNUE leaves whose nodes ask for
/// a hint of `depth` plies at `visits` visits (and again at visits * growth^k with growth >= 2),
/// raising the hinted move to `sharePercent`, whose value counts as `weight` visits times
/// `weightGrowth` to the hint's round.
std::unique_ptr<Searcher> hintSearcher(int visits, int depth, int sharePercent = 50, int growth = 0, u32 weight = 1,
                                       u32 weightGrowth = 1) {
  LeafSearchParams leaf;
  leaf.priorTemperature = 100;
  MctsParams params = Searcher::deterministic();
  params.batchSize = 1;
  params.hints = hintParams(visits, depth);
  params.hints.growth = growth;
  params.hints.sharePercent = sharePercent;
  params.hints.weight = weight;
  params.hints.weightGrowth = weightGrowth;
  auto s = std::make_unique<Searcher>(
      params, std::make_shared<NnueValueBackend>(std::make_shared<UniformBackend>(), testNetwork(), leaf));
  s->search.setHintNetwork(testNetwork());
  return s;
}

TEST(MctsHints, EveryNodeIsHintedOnceWhenItReachesTheVisits) {
  auto s = hintSearcher(40, 2);
  const Position pos = Position::fromFen(kOpening);
  const SearchResult r = s->goPlayouts(pos, 800);
  EXPECT_TRUE(legalMoves(pos).contains(r.best));
  u64 hinted = 0;
  expectHintedIffVisited(*s->search.root(), 40, hinted);
  const MctsStats& st = s->search.lastStats();
  EXPECT_TRUE(s->search.root()->hinted());
  EXPECT_GT(hinted, 2u);
  EXPECT_EQ(st.hints, hinted);
  EXPECT_EQ(st.hintsCutShort, 0u);
  // A hint is no playout: the playouts are the evaluations and the terminal leaves.
  EXPECT_EQ(st.playouts, 800u);
  EXPECT_EQ(st.evaluations + st.terminals, st.playouts);
  // The priors stay a distribution.
  double sum = 0.0;
  for (const Node::Edge& e : s->search.root()->edges()) sum += e.prior;
  EXPECT_NEAR(sum, 1.0, 1e-5);
}

TEST(MctsHints, NodesAreThePlayoutsPlusTheSchedulersNodes) {
  // UCI nodes (SearchInfo::nodes, SearchResult::nodes) count the hints' alpha-beta nodes, which
  // the scheduler counts itself; the first line of a report gives the playouts apart.
  auto s = hintSearcher(20, 3, 50, 4);
  const Position pos = Position::fromFen(kOpening);
  const u64 before = s->search.hints().nodes();
  const SearchResult r = s->goPlayouts(pos, 600);
  const MctsStats& st = s->search.lastStats();
  ASSERT_GT(st.hints, 3u);
  EXPECT_EQ(st.hintNodes, s->search.hints().nodes() - before);
  EXPECT_GT(st.hintNodes, 0u);
  EXPECT_EQ(st.playouts, 600u);
  EXPECT_EQ(r.nodes, st.playouts + st.hintNodes);
  ASSERT_FALSE(s->infos.empty());
  const SearchInfo& last = s->infos.back();
  EXPECT_EQ(last.nodes, r.nodes);
  ASSERT_TRUE(last.playouts);
  EXPECT_EQ(*last.playouts, st.playouts);
  // A second search counts its own hints only.
  const u64 total = s->search.hints().nodes();
  s->goPlayouts(pos, 700);
  EXPECT_EQ(s->search.lastStats().hintNodes, s->search.hints().nodes() - total);
}

TEST(MctsHints, GoNodesBoundsThePlayoutsAndTheHintsNodes) {
  // A root hint that could search 20,000 nodes gets what is left of `go nodes` after the 10
  // playouts before it: it is cut short there, weighs its share of the plies it completed, and
  // the search ends at the limit (beyond it by one batch of one playout, or by the nodes its
  // alpha-beta search counts after it saw its limit).
  const Position pos = Position::fromFen(kOpening);
  auto budget = hintSearcher(10, 20, 50, 0, 100);
  MctsParams p = budget->search.params();
  p.hints.nodes = 20000;
  budget->search.setParams(p);
  constexpr u64 kNodes = 3000;
  const SearchResult r = budget->goNodes(pos, kNodes);
  const MctsStats& st = budget->search.lastStats();
  EXPECT_EQ(st.hints, 1u);
  EXPECT_EQ(st.hintsCutShort, 1u);
  EXPECT_LE(r.nodes, kNodes + 1 + kAlphaBetaOvershoot) << st.playouts << " playouts, " << st.hintNodes << " hint nodes";
  EXPECT_GE(r.nodes, kNodes - 1);
  EXPECT_EQ(r.nodes, st.playouts + st.hintNodes);
  const double cutWeight = budget->search.root()->priorVisits();
  EXPECT_GT(cutWeight, 0.0);
  EXPECT_LT(cutWeight, 100.0);
  // The same hint without a node limit completes (its own node limit) and weighs all 100.
  auto complete = hintSearcher(10, 20, 50, 0, 100);
  complete->search.setParams(p);
  complete->goPlayouts(pos, 11);
  EXPECT_EQ(complete->search.lastStats().hintsCutShort, 0u);
  EXPECT_GE(complete->search.lastStats().hintNodes, 20000u);
  EXPECT_DOUBLE_EQ(complete->search.root()->priorVisits(), 100.0);
  // N still counts playouts.
  testing_support::checkVisits(*budget->search.root());
  EXPECT_EQ(budget->search.root()->visits(), st.playouts);
}

TEST(MctsHints, AGrowingHintAsksAgainAtEachPowerOfTheGrowth) {
  auto s = hintSearcher(10, 2, 50, 4);  // hints at 10, 40, 160, 640 visits
  const Position pos = Position::fromFen(kOpening);
  const SearchResult r = s->goPlayouts(pos, 800);
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
  once->goPlayouts(mate, 2);
  auto heavy = hintSearcher(1, kQuietMateIn2Depth, 50, 0, 100);
  heavy->goPlayouts(mate, 2);
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
  s->goPlayouts(Position::fromFen(kOpening), 600);
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
  const Position pos = Position::fromFen(kOpening);
  auto s = hintSearcher(10, 2, 50, 4, 8, 4);
  s->goPlayouts(pos, 600);
  const MctsStats& st = s->search.lastStats();
  ASSERT_GE(s->search.root()->hints(), 2);  // the root's second round weighs 32
  const u64 prior = hintPriorVisits(*s->search.root(), 8, 4);
  EXPECT_EQ(s->search.root()->visits(), st.playouts);
  EXPECT_DOUBLE_EQ(s->search.root()->priorVisits(), double(prior));
  // The same search with a constant weight counts every round as 8 visits.
  EXPECT_GT(prior, 8 * st.hints);
  auto flat = hintSearcher(10, 2, 50, 4, 8, 1);
  flat->goPlayouts(pos, 600);
  EXPECT_DOUBLE_EQ(flat->search.root()->priorVisits(), double(hintPriorVisits(*flat->search.root(), 8, 1)));
}

TEST(MctsHints, SmartPruningCountsTheHintsWeightInWhatRemains) {
  // Smart pruning stops a playout-limited search when the runner-up cannot overtake the most
  // visited move, by selection visits (the move choice's: playouts plus prior knowledge). With
  // hints weighing 100 virtual visits a playout can add 100 to a root child, so the visits that
  // remain are the remaining playouts times the selection visits gained per playout.
  const char* fens[] = {kOpening, "rnbqkb1r/pp2pppp/3p1n2/8/3NP3/8/PPP2PPP/RNBQKB1R w KQkq - 1 5",
                        "r3k2r/ppp2ppp/2n1bn2/2bpp3/4P3/2NP1N2/PPP1BPPP/R1BQK2R w KQkq - 0 8", Position::kStartFen};
  constexpr u64 kLimit = 3000;
  int pruned = 0;
  for (const char* fen : fens) {
    auto s = hintSearcher(10, 2, 50, 4, 100);
    MctsParams p = s->search.params();
    p.smartPruning = true;
    s->search.setParams(p);
    s->goPlayouts(Position::fromFen(fen), kLimit);
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

/// Checks every edge below `n` whose child holds a hint value (HintParams::minimax): the edge's
/// implicit minimax value is the negated hint value (the child's own edges are ignored). Counts
/// those edges, and those whose value the child's own edges would have changed.
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
  off->goPlayouts(pos, 1500);
  int hinted = 0, differs = 0;
  expectHintedEdgesHoldTheHint(*off->search.root(), hinted, differs);
  EXPECT_EQ(hinted, 0) << "without HintParams::minimax no node keeps a hint value";
  EXPECT_FALSE(off->search.root()->hintValue());

  auto on = hintSearcher(10, 3, 50, 4);
  MctsParams p = on->search.params();
  p.hints.minimax = true;
  on->search.setParams(p);
  on->goPlayouts(pos, 1500);
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
  const SearchResult r = s->goPlayouts(pos, 60);
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

TEST(MctsHints, NoNetworkNoHints) {
  // MCTS Value net: the engine gives the search no hint network, and the hint settings do nothing.
  auto s = hintSearcher(1, 2);
  s->search.setHintNetwork(nullptr);
  s->goPlayouts(Position::fromFen(kOpening), 200);
  EXPECT_EQ(s->search.lastStats().hints, 0u);
  EXPECT_EQ(s->search.lastStats().hintNodes, 0u);
  EXPECT_EQ(s->search.root()->priorVisits(), 0.0);
}

}  // namespace
}  // namespace janus::mcts
