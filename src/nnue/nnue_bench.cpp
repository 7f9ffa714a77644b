// NNUE inference speed (Google Benchmark): NnueEvaluator over a one-ply tree around seeded random
// games, as a search's leaves use it: for every position of the game line, every legal move is
// made (onMakeMove + makeMove), evaluated and unmade. King moves among those children change
// their side's king bucket when the net has buckets, so this measures the refresh path (the
// accumulator cache, nnue_evaluator.h) as well as the incremental one.
// Not a test and not run by CTest; run `build/nnue_bench` on an otherwise idle machine.
// Reports items_per_second = evaluations per second. Nets: random quantised weights
// (nnue/test_net.h) of hidden size H (first argument) and K king buckets (second).

#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "core/movegen.h"
#include "nnue/nnue_evaluator.h"
#include "nnue/test_net.h"

namespace {

using namespace janus;
using namespace janus::nnue;

/// 50 seeded random games of up to 80 plies.
const std::vector<std::vector<Move>>& games() {
  static const auto v = [] {
    std::vector<std::vector<Move>> out;
    std::mt19937 rng(2024);
    for (int g = 0; g < 50; ++g) {
      Position pos;
      std::vector<Move> game;
      for (int ply = 0; ply < 80; ++ply) {
        MoveList moves = legalMoves(pos);
        if (moves.empty()) break;
        const Move m = moves[int(rng() % unsigned(moves.size()))];
        pos.makeMove(m);
        game.push_back(m);
      }
      out.push_back(std::move(game));
    }
    return out;
  }();
  return v;
}

void BM_OnePlyTree(benchmark::State& state) {
  const int hidden = int(state.range(0)), kingBuckets = int(state.range(1));
  const auto net = Network::fromBytes(
      testing::quantise(testing::randomFloatNet(hidden, 8, Activation::kSCReLU, 7, 0.15f, 0.5f, kingBuckets)), "bench");
  NnueEvaluator eval(net);
  int sum = 0;
  int64_t evaluations = 0;
  for (auto _ : state) {
    for (const auto& game : games()) {
      Position pos;
      eval.reset(pos);
      for (Move played : game) {
        for (Move m : legalMoves(pos)) {
          eval.onMakeMove(pos, m);
          pos.makeMove(m);
          sum += eval.evaluate(pos);
          pos.unmakeMove(m);
          eval.onUnmakeMove(pos, m);
          ++evaluations;
        }
        eval.onMakeMove(pos, played);
        pos.makeMove(played);
      }
    }
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(evaluations);
}

BENCHMARK(BM_OnePlyTree)
    ->Args({256, 1})
    ->Args({256, 4})
    ->Args({256, 16})
    ->Args({512, 1})
    ->Args({512, 4})
    ->Args({1024, 1})
    ->Args({1024, 16})
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
