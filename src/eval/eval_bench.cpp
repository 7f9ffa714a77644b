// Evaluation speed: HceEvaluator::evaluate over fixed position sets (Google Benchmark).
// Not a test and not run by CTest; run `build/eval_bench` on an otherwise idle machine.
// Reports items_per_second = evaluations per second (BM_Games*: positions per second including
// makeMove; subtract BM_GamesMakeMoveOnly's time per position to get the evaluation's share).

#include <benchmark/benchmark.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <random>

#include "core/movegen.h"
#include "eval/hce.h"

namespace {

using namespace janus;

std::vector<Position> loadEpd(const std::string& relPath, std::size_t limit) {
  std::ifstream in(std::string(JANUS_TEST_DATA) + "/" + relPath);
  std::vector<Position> out;
  for (std::string line; out.size() < limit && std::getline(in, line);) {
    std::istringstream fields(line);
    std::string board, side, castling, ep;
    if (!(fields >> board >> side >> castling >> ep)) continue;
    out.push_back(Position::fromFen(board + " " + side + " " + castling + " " + ep));
  }
  return out;
}

const std::vector<Position>& openings() {
  static const auto v = loadEpd("openings/8moves_v3-first200.epd", 10000);
  return v;
}
const std::vector<Position>& wac() {
  static const auto v = loadEpd("tactics/wac.epd", 300);
  return v;
}

/// Seeded random games (100 games of up to 100 plies): replayed on one Position, so that the
/// board stays in cache and consecutive positions share most pawns, as in a search.
const std::vector<std::vector<Move>>& games() {
  static const auto v = [] {
    std::vector<std::vector<Move>> out;
    std::mt19937 rng(12345);
    for (int g = 0; g < 100; ++g) {
      Position pos;
      std::vector<Move> game;
      for (int ply = 0; ply < 100; ++ply) {
        MoveList moves = legalMoves(pos);
        if (moves.empty()) break;
        Move m = moves[int(rng() % unsigned(moves.size()))];
        pos.makeMove(m);
        game.push_back(m);
      }
      out.push_back(game);
    }
    return out;
  }();
  return v;
}

/// Replays every game, evaluating after each move (or only making moves, as a baseline).
void runGames(benchmark::State& state, std::size_t pawnHash, bool evaluate) {
  HceEvaluator hce(EvalWeights::defaults(), pawnHash);
  int sum = 0;
  int64_t positions = 0;
  for (auto _ : state) {
    for (const auto& game : games()) {
      Position pos;
      for (Move m : game) {
        pos.makeMove(m);
        if (evaluate) sum += hce.evaluate(pos);
      }
      positions += int64_t(game.size());
    }
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(positions);
}

void runEvaluations(benchmark::State& state, const std::vector<Position>& positions, std::size_t pawnHash) {
  HceEvaluator hce(EvalWeights::defaults(), pawnHash);
  if (positions.empty()) {
    state.SkipWithError("no positions (JANUS_TEST_DATA)");
    return;
  }
  int sum = 0;
  for (auto _ : state) {
    for (const Position& pos : positions) sum += hce.evaluate(pos);
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(int64_t(state.iterations()) * int64_t(positions.size()));
}

void BM_EvalOpenings(benchmark::State& s) { runEvaluations(s, openings(), HceEvaluator::kDefaultPawnHashEntries); }
void BM_EvalOpeningsNoPawnHash(benchmark::State& s) { runEvaluations(s, openings(), 0); }
void BM_EvalWac(benchmark::State& s) { runEvaluations(s, wac(), HceEvaluator::kDefaultPawnHashEntries); }
void BM_EvalWacNoPawnHash(benchmark::State& s) { runEvaluations(s, wac(), 0); }
void BM_GamesEval(benchmark::State& s) { runGames(s, HceEvaluator::kDefaultPawnHashEntries, true); }
void BM_GamesEvalNoPawnHash(benchmark::State& s) { runGames(s, 0, true); }
void BM_GamesMakeMoveOnly(benchmark::State& s) { runGames(s, 0, false); }
void BM_Trace(benchmark::State& state) {
  HceEvaluator hce;
  int sum = 0;
  for (auto _ : state) {
    for (const Position& pos : wac()) sum += hce.trace(pos).phase;
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(int64_t(state.iterations()) * int64_t(wac().size()));
}

BENCHMARK(BM_EvalOpenings);
BENCHMARK(BM_EvalOpeningsNoPawnHash);
BENCHMARK(BM_EvalWac);
BENCHMARK(BM_EvalWacNoPawnHash);
BENCHMARK(BM_GamesEval);
BENCHMARK(BM_GamesEvalNoPawnHash);
BENCHMARK(BM_GamesMakeMoveOnly);
BENCHMARK(BM_Trace);

}  // namespace

BENCHMARK_MAIN();
