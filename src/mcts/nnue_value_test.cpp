// Tests of the NNUE leaf value (nnue_value.h) and of the one Q <-> centipawn mapping (search/wdl.h)
// that MCTS reports its values through.

#include "mcts/nnue_value.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <thread>

#include "core/movegen.h"
#include "core/notation.h"
#include "mcts/caching_backend.h"
#include "mcts/mcts.h"
#include "mcts/test_search.h"
#include "mcts/uniform_backend.h"
#include "nnue/test_net.h"
#include "search/score.h"
#include "search/wdl.h"
#include "util/error.h"

namespace janus::mcts {
namespace {

using testing_support::testNetwork;

TEST(ValueMapping, CentipawnsRoundTripThroughQ) {
  for (int material : {10, 30, 50, 78})
    for (int cp : {-1200, -600, -250, -100, -20, 0, 20, 100, 250, 600, 1200}) {
      const WdlProbability p = scoreToWdlProbability(cp, material);
      EXPECT_NEAR(p.win + p.draw + p.loss, 1.0, 1e-9);
      EXPECT_NEAR(qToCentipawns(p.q(), material), cp, 1) << "material " << material << " cp " << cp;
    }
  EXPECT_EQ(qToCentipawns(0.0, 40), 0);
  // Monotonic, and saturating at the model's range for certain results.
  EXPECT_LT(qToCentipawns(0.3, 40), qToCentipawns(0.31, 40));
  EXPECT_EQ(qToCentipawns(1.0, 40), 4000);
  EXPECT_EQ(qToCentipawns(-1.0, 40), -4000);
  // Mate scores are certain results.
  EXPECT_DOUBLE_EQ(scoreToWdlProbability(mateIn(3), 40).win, 1.0);
  EXPECT_DOUBLE_EQ(scoreToWdlProbability(matedIn(2), 40).loss, 1.0);
}

TEST(ValueMapping, PermilleIsTheRoundedProbability) {
  for (int cp : {-400, -50, 0, 75, 300}) {
    const WdlPermille w = scoreToWdl(cp, 60);
    const WdlProbability p = scoreToWdlProbability(cp, 60);
    EXPECT_EQ(w.win + w.draw + w.loss, 1000);
    EXPECT_NEAR(w.win, 1000 * p.win, 1.0);
    EXPECT_NEAR(w.loss, 1000 * p.loss, 1.0);
  }
}

TEST(ValueMapping, LeafWdlIsTheModelOrTheLogisticOfTheValueScale) {
  for (int material : {6, 30, 78})
    for (int cp : {-3000, -600, -187, -40, 0, 40, 187, 600, 3000}) {
      // Scale 0: the UCI_ShowWDL model, as centipawnsToWdl.
      const WdlProbability m = scoreToWdlProbability(cp, material);
      const Wdl model = leafWdl(cp, material, 0);
      EXPECT_FLOAT_EQ(model.win, float(m.win));
      EXPECT_FLOAT_EQ(model.draw, float(m.draw));
      EXPECT_FLOAT_EQ(model.loss, float(m.loss));
      // Scale 187: W - L = 2 sigmoid(cp / 187) - 1, probabilities that sum to 1, the model's draw
      // share where the expected score leaves room for it.
      const Wdl w = leafWdl(cp, material, 187);
      const double e = 1.0 / (1.0 + std::exp(-cp / 187.0));
      EXPECT_NEAR(w.q(), 2 * e - 1, 1e-6) << "cp " << cp << " material " << material;
      EXPECT_GE(w.win, 0.0f);
      EXPECT_GE(w.loss, 0.0f);
      EXPECT_NEAR(w.win + w.draw + w.loss, 1.0, 1e-6);
      EXPECT_LE(w.draw, float(m.draw) + 1e-6f);
      if (cp == 0) {
        EXPECT_FLOAT_EQ(w.draw, float(m.draw));
      }
    }
  // 187 cp is the logistic's unit: an expected score of 1 / (1 + e^-1) = 0.731.
  EXPECT_NEAR((leafWdl(187, 40, 187).q() + 1) / 2, 0.7310586, 1e-6);
  // A larger scale reads the same centipawns as less certain.
  EXPECT_LT(leafWdl(300, 40, 400).q(), leafWdl(300, 40, 187).q());
  // Mate scores are certain results at any scale.
  EXPECT_EQ(leafWdl(mateIn(5), 40, 187), (Wdl{1, 0, 0}));
  EXPECT_EQ(leafWdl(matedIn(4), 40, 187), (Wdl{0, 0, 1}));
}

TEST(LeafQuiescence, SeesTheCaptureTheStaticEvaluationMisses) {
  const auto net = testNetwork();
  nnue::NnueEvaluator eval(net);
  // White to move can take the undefended black queen on d5 (Rd1xd5, no check; Black has no
  // capture after it). The network is random, so the test compares the search with the
  // network's own numbers: the better of standing pat and the value after the capture.
  Position pos = Position::fromFen("k7/8/8/3q4/8/8/8/3RK3 w - - 0 1");
  const Move capture = parseUci(pos, "d1d5", false);
  Position after = pos;
  after.makeMove(capture);
  nnue::NnueEvaluator e2(net);
  const int afterCapture = -e2.evaluateFromScratch(after);  // White's view; Black has no capture back
  const int standPat = eval.evaluateFromScratch(pos);
  LeafSearchParams params;
  u64 nodes = 0;
  const Position before = pos;
  const int q = leafQuiescence(pos, eval, params, &nodes);
  EXPECT_EQ(pos.fen(), before.fen()) << "the position is restored";
  EXPECT_EQ(pos.key(), before.key());
  EXPECT_EQ(q, std::max(standPat, afterCapture)) << "stand pat " << standPat << ", after Rxd5 " << afterCapture;
  EXPECT_GE(nodes, 2u);
  // Depth 0: the static evaluation alone.
  params.maxPly = 0;
  u64 oneNode = 0;
  EXPECT_EQ(leafQuiescence(pos, eval, params, &oneNode), std::clamp(standPat, -kEvalMax, kEvalMax));
  EXPECT_EQ(oneNode, 1u);
}

TEST(LeafQuiescence, FindsMateWhenInCheckWithoutEvasions) {
  const auto net = testNetwork();
  nnue::NnueEvaluator eval(net);
  // Black is checkmated (back-rank mate): the quiescence search returns a mated score.
  Position mated = Position::fromFen("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1");
  ASSERT_TRUE(legalMoves(mated).empty());
  EXPECT_EQ(leafQuiescence(mated, eval, {}), matedIn(0));
  // The node limit bounds the work.
  Position busy = Position::fromFen("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
  LeafSearchParams tight;
  tight.nodeLimit = 3;
  u64 nodes = 0;
  (void)leafQuiescence(busy, eval, tight, &nodes);
  EXPECT_LE(nodes, 3u + 64u);  // past the limit every node stands pat without children
}

TEST(NnueValueBackend, PriorsFromThePolicyAndValuesFromTheNetwork) {
  const auto net = testNetwork();
  NnueValueBackend backend(std::make_shared<UniformBackend>(), net, LeafSearchParams{0, 1});
  EXPECT_NE(backend.attributes().description.find("NNUE"), std::string::npos);
  auto c = backend.newComputation();
  const Position start;
  const MoveList moves = legalMoves(start);
  const std::vector<Move> list(moves.begin(), moves.end());
  EXPECT_EQ(c->addInput(start, list), 0);
  const Position other = Position::fromFen("4k3/8/8/8/8/8/4P3/3QK3 w - - 0 1");
  const MoveList otherMoves = legalMoves(other);
  EXPECT_EQ(c->addInput(other, std::vector<Move>(otherMoves.begin(), otherMoves.end())), 1);
  c->compute();
  ASSERT_EQ(c->priors(0).size(), 20u);
  for (float p : c->priors(0)) EXPECT_FLOAT_EQ(p, 1.0f / 20);
  // The value is the network's static evaluation (depth 0) through the score model.
  nnue::NnueEvaluator eval(net);
  for (int i = 0; i < 2; ++i) {
    const Position& p = i == 0 ? start : other;
    const int cp = std::clamp(eval.evaluateFromScratch(p), -kEvalMax, kEvalMax);
    const Wdl w = c->wdl(i);
    const WdlProbability expected = scoreToWdlProbability(cp, wdlMaterial(p));
    EXPECT_NEAR(w.win, expected.win, 1e-6);
    EXPECT_NEAR(w.loss, expected.loss, 1e-6);
    EXPECT_NEAR(w.win + w.draw + w.loss, 1.0f, 1e-5);
  }
  c.reset();
  EXPECT_EQ(backend.leafNodes(), 2u);
  EXPECT_THROW(NnueValueBackend(nullptr, net), Error);
  EXPECT_THROW(NnueValueBackend(std::make_shared<UniformBackend>(), nullptr), Error);
  EXPECT_THROW(NnueValueBackend(std::make_shared<UniformBackend>(), net, LeafSearchParams{-1, 10}), Error);
  LeafSearchParams negativeScale;
  negativeScale.valueScale = -1;
  EXPECT_THROW(NnueValueBackend(std::make_shared<UniformBackend>(), net, negativeScale), Error);
}

TEST(NnueValueBackend, AValueScaleReadsTheScoreAsAnExpectedScore) {
  const auto net = testNetwork();
  LeafSearchParams params;
  params.valueScale = 187;
  NnueValueBackend backend(std::make_shared<UniformBackend>(), net, params);
  EXPECT_NE(backend.attributes().description.find("expected score sigmoid(cp / 187)"), std::string::npos)
      << backend.attributes().description;
  Position pos = Position::fromFen("k7/8/8/3q4/8/8/8/3RK3 w - - 0 1");
  const MoveList list = legalMoves(pos);
  auto c = backend.newComputation();
  c->addInput(pos, std::vector<Move>(list.begin(), list.end()));
  c->compute();
  nnue::NnueEvaluator eval(net);
  const int cp = leafQuiescence(pos, eval, params);
  EXPECT_NEAR(c->wdl(0).q(), 2.0 / (1.0 + std::exp(-cp / 187.0)) - 1.0, 1e-6) << "cp " << cp;
  // The one-ply move values follow the same mapping.
  params.priorTemperature = 100000;
  NnueValueBackend onePly(std::make_shared<UniformBackend>(), net, params);
  auto c1 = onePly.newComputation();
  const std::vector<Move> moves(list.begin(), list.end());
  c1->addInput(pos, moves);
  c1->compute();
  std::vector<int> scores(moves.size());
  leafOnePly(pos, eval, params, moves, scores);
  const auto values = c1->moveValues(0);
  ASSERT_EQ(values.size(), moves.size());
  for (size_t i = 0; i < moves.size(); ++i)
    EXPECT_NEAR(values[i], 2.0 / (1.0 + std::exp(-scores[i] / 187.0)) - 1.0, 1e-6) << toUci(moves[i], false);
}

TEST(LeafOnePly, ScoresEveryMoveByTheQuiescenceSearchAfterIt) {
  const auto net = testNetwork();
  nnue::NnueEvaluator eval(net);
  Position pos = Position::fromFen("k7/8/8/3q4/8/8/8/3RK3 w - - 0 1");
  const Position before = pos;
  const MoveList list = legalMoves(pos);
  const std::vector<Move> moves(list.begin(), list.end());
  std::vector<int> scores(moves.size());
  LeafSearchParams params;
  params.priorTemperature = 100000;  // a window wide enough that every score is exact
  const int best = leafOnePly(pos, eval, params, moves, scores);
  EXPECT_EQ(pos.key(), before.key()) << "the position is restored";
  EXPECT_EQ(best, *std::max_element(scores.begin(), scores.end()));
  // After Rxd5 Black has only king moves: the child's quiescence search stands pat.
  const Move capture = parseUci(pos, "d1d5", false);
  const size_t k = size_t(std::find(moves.begin(), moves.end(), capture) - moves.begin());
  ASSERT_LT(k, moves.size());
  Position after = pos;
  after.makeMove(capture);
  EXPECT_EQ(scores[k], -std::clamp(nnue::NnueEvaluator(net).evaluateFromScratch(after), -kEvalMax, kEvalMax));
}

TEST(LeafOnePly, ANarrowerWindowKeepsTheBestAndTheScoresWithinIt) {
  const auto net = testNetwork();
  Position pos = Position::fromFen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
  const MoveList list = legalMoves(pos);
  const std::vector<Move> moves(list.begin(), list.end());
  auto search = [&](int windowTemperatures, u64& nodes, int& best) {
    nnue::NnueEvaluator eval(net);
    LeafSearchParams params;
    params.priorTemperature = 20;
    params.windowTemperatures = windowTemperatures;
    params.nodeLimit = 1 << 30;  // no node cap: the searches differ by their windows only
    std::vector<int> scores(moves.size());
    best = leafOnePly(pos, eval, params, moves, scores, &nodes);
    return scores;
  };
  u64 wideNodes = 0, narrowNodes = 0;
  int wideBest = 0, narrowBest = 0;
  const std::vector<int> wide = search(64, wideNodes, wideBest);
  const std::vector<int> narrow = search(1, narrowNodes, narrowBest);
  EXPECT_EQ(narrowBest, wideBest) << "the best move is searched with an alpha below its score";
  EXPECT_LT(narrowNodes, wideNodes);
  int bounded = 0;
  for (size_t i = 0; i < moves.size(); ++i) {
    // A score above the narrow window is exact; one below it is an upper bound (fail-soft).
    if (wide[i] > wideBest - 20) {
      EXPECT_EQ(narrow[i], wide[i]) << toUci(moves[i], false);
    }
    EXPECT_GE(narrow[i], wide[i]) << toUci(moves[i], false);
    bounded += narrow[i] != wide[i];
  }
  EXPECT_GT(bounded, 0) << "some moves failed low";
}

TEST(LeafOnePly, DeltaPruningSkipsCapturesThatCannotReachAlpha) {
  const auto net = testNetwork();
  // Positions with many captures at every ply (perft suites' "kiwipete" and "position 4/5").
  const char* fens[] = {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
                        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"};
  u64 nodesOff = 0, nodesHuge = 0, nodesPruned = 0;
  for (const char* fen : fens) {
    Position pos = Position::fromFen(fen);
    const MoveList list = legalMoves(pos);
    const std::vector<Move> moves(list.begin(), list.end());
    auto search = [&](int margin, u64& nodes) {
      nnue::NnueEvaluator eval(net);
      LeafSearchParams params;
      params.priorTemperature = 10;  // a narrow window: the quiescence searches have an alpha to fall short of
      params.deltaMargin = margin;
      std::vector<int> scores(moves.size());
      const int best = leafOnePly(pos, eval, params, moves, scores, &nodes);
      EXPECT_EQ(pos.fen(), fen) << "the position is restored";
      EXPECT_EQ(best, *std::max_element(scores.begin(), scores.end()));
      return scores;
    };
    const std::vector<int> off = search(0, nodesOff);
    // A margin no score can overcome prunes nothing: the same scores and nodes as no pruning.
    EXPECT_EQ(search(1'000'000, nodesHuge), off) << fen;
    (void)search(50, nodesPruned);
  }
  EXPECT_EQ(nodesHuge, nodesOff);
  EXPECT_LT(nodesPruned, nodesOff) << "a small margin skips captures";
}

TEST(NnueValueBackend, OnePlyPriorsFollowTheScoresAndTheValueIsTheBest) {
  const auto net = testNetwork();
  LeafSearchParams params;
  params.priorTemperature = 100000;  // no move falls below the window: the priors are exact softmaxes
  NnueValueBackend backend(std::make_shared<UniformBackend>(), net, params);
  Position pos = Position::fromFen("k7/8/8/3q4/8/8/8/3RK3 w - - 0 1");
  const MoveList list = legalMoves(pos);
  const std::vector<Move> moves(list.begin(), list.end());
  auto c = backend.newComputation();
  c->addInput(pos, moves);
  c->compute();
  nnue::NnueEvaluator eval(net);
  std::vector<int> scores(moves.size());
  const int best = leafOnePly(pos, eval, params, moves, scores);
  const auto priors = c->priors(0);
  ASSERT_EQ(priors.size(), moves.size());
  EXPECT_NEAR(std::accumulate(priors.begin(), priors.end(), 0.0), 1.0, 1e-5);
  // Uniform policy: prior_i / prior_j = exp((s_i - s_j) / T).
  for (size_t i = 1; i < moves.size(); ++i)
    EXPECT_NEAR(std::log(priors[i] / priors[0]), double(scores[i] - scores[0]) / params.priorTemperature, 1e-4);
  const WdlProbability expected = scoreToWdlProbability(best, wdlMaterial(pos));
  EXPECT_NEAR(c->wdl(0).win, expected.win, 1e-6);
  EXPECT_NEAR(c->wdl(0).loss, expected.loss, 1e-6);
  // The move values are the scores by the same model: the best of them is the value.
  const auto values = c->moveValues(0);
  ASSERT_EQ(values.size(), moves.size());
  for (size_t i = 0; i < moves.size(); ++i)
    EXPECT_NEAR(values[i], scoreToWdlProbability(scores[i], wdlMaterial(pos)).q(), 1e-6) << toUci(moves[i], false);
  EXPECT_NEAR(*std::max_element(values.begin(), values.end()), c->wdl(0).q(), 1e-6);
}

/// Search parameters of the tree tests below: batches of 4, no smart pruning.
MctsParams batchedParams(u64 seed) {
  MctsParams params;
  params.seed = seed;
  params.smartPruning = false;
  params.batchSize = 4;
  return params;
}

/// The root of the tree tests (after 1. e4 e5 2. Nf3 Nc6).
Position opening() { return Position::fromFen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"); }

/// `search` of opening() with `nodes` playouts on `threads` threads.
SearchResult searchOpening(MctsSearch& search, u64 nodes, int threads, const InfoCallback& onInfo = {}) {
  SearchLimits limits;
  limits.nodes = nodes;
  SearchConfig config;
  config.threads = threads;
  const SearchSignals signals;
  return search.run(opening(), limits, config, onInfo, signals);
}

TEST(NnueValueBackend, MctsSearchesWithItOnTwoThreads) {
  LeafSearchParams leaf;
  leaf.priorTemperature = 80;  // the one-ply path too
  auto backend = std::make_shared<NnueValueBackend>(std::make_shared<UniformBackend>(), testNetwork(), leaf);
  MctsSearch search(backend, batchedParams(1));
  std::vector<SearchInfo> infos;
  const SearchResult r = searchOpening(search, 400, 2, [&](const SearchInfo& i) { infos.push_back(i); });
  EXPECT_TRUE(legalMoves(opening()).contains(r.best));
  EXPECT_GE(r.nodes, 400u);
  EXPECT_GT(backend->leafNodes(), 0u);
  ASSERT_FALSE(infos.empty());
  EXPECT_EQ(infos.back().pv.front(), r.best);
}

}  // namespace
}  // namespace janus::mcts
