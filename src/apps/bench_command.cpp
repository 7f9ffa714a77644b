// janus bench [depth]: searches a fixed set of positions to a fixed depth with 16 MiB hash and
// one thread, and prints the total node count (the bench signature; deterministic) and speed
// in the form OpenBench reads: "<N> nodes <M> nps".
//
// janus bench --search mcts [--nodes N] [--backend B] [--weights FILE] [--batch B] [--cache C] [--threads T] [--option NAME=VALUE]...: the
// same positions searched by MCTS with N playouts each (smart pruning off, a new tree and an
// empty cache per position; a proven mate ends a search early). With one thread the node count
// is deterministic too; the speed is the MCTS nodes/s of docs/mcts.md.

#include <chrono>
#include <iomanip>
#include <iostream>
#include <memory>

#include "apps/commands.h"
#include "engine/engine.h"
#include "mcts/caching_backend.h"
#include "mcts/mcts.h"
#include "mcts/nnue_value.h"

namespace janus::apps {

namespace {

// Start position, Kiwipete, CPW perft positions 3-6, openings after 8 moves from Stockfish's
// 8moves_v3 book (CC0), Bratko-Kopec positions, and endgames.
const char* const kBenchFens[] = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "r2q1rk1/1ppbbppp/p1np1n2/4p3/4P3/2P2N2/PPBPQPPP/RNB2RK1 w - - 0 9",
    "r3k2r/pp1nbppp/1qp1pn2/3p1b2/3P1B2/4PN1P/PPPNBPP1/R1Q1K2R w KQkq - 0 9",
    "r1bq1rk1/pp2b1pp/n1p1pn2/3p1p2/2PP4/6PN/PPQNPPBP/R1B2RK1 w - - 0 9",
    "rn1q1rk1/pp2ppbp/2p2np1/5b2/2QP4/5NP1/PP2PPBP/RNB2RK1 w - - 0 9",
    "rnb1k2r/ppp1q1pp/3p1n2/5p2/2PPp3/8/PP2PPPP/RNBQKB1R w KQkq - 0 9",
    "2kr1b1r/pppq1ppp/2n2n2/4pb2/8/P1NP1N2/1PP1BPPP/R1BQ1RK1 w - - 0 9",
    "1rbq1rk1/ppp2pbp/2np1np1/4p3/2PPP3/2N1BP2/PP4PP/R1NQKB1R w KQ - 0 9",
    "rnbq1rk1/pp3pbp/3p1np1/2pP4/4P3/2N2P2/PP4PP/RNBQKB1R w KQ - 0 9",
    "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - 0 1",
    "3r1k2/4npp1/1ppr3p/p6P/P2PPPP1/1NR5/5K2/2R5 w - - 0 1",
    "2q1rr1k/3bbnnp/p2p1pp1/2pPp3/PpP1P1P1/1P2BNNP/2BQ1PRK/7R b - - 0 1",
    "r1b2rk1/2q1b1pp/p2ppn2/1p6/3QP3/1BN1B3/PPP3PP/R4RK1 w - - 0 1",
    "2r3k1/pppR1pp1/4p3/4P1P1/5P2/1P4K1/P1P5/8 w - - 0 1",
    "1nk1r1r1/pp2n1pp/4p3/q2pPp1N/b1pP1P2/B1P2R2/2P1B1PP/R2Q2K1 w - - 0 1",
    "4b3/p3kp2/6p1/3pP2p/2pP1P2/4K1P1/P3N2P/8 w - - 0 1",
    "3rr1k1/pp3pp1/1qn2np1/8/3p4/PP1R1P2/2P1NQPP/R1B3K1 b - - 0 1",
    "r3r1k1/ppqb1ppp/8/4p1NQ/8/2P5/PP3PPP/R3R1K1 b - - 0 1",
    "8/8/8/8/5kp1/P7/8/1K1N4 w - - 0 1",
    "8/8/1P6/5pr1/8/4R3/7k/2K5 w - - 0 1",
    "8/3k4/8/8/8/4B3/4KB2/2B5 w - - 0 1",
    "6k1/6p1/6Pp/ppp5/3pn2P/1P3K2/1PP2P2/8 b - - 0 1",
    "8/8/2K5/5k2/8/8/2P5/8 b - - 0 1",
    "5k2/7R/4P2p/5K2/p1r2P1p/8/8/8 b - - 0 1",
    "4k3/3q1r2/1N2r1b1/3ppN2/2nPP3/1B1R2n1/2R1Q3/3K4 w - - 0 1",
};

struct BenchArgs {
  int depth = 13;
  std::string evalFile;  ///< "" = the embedded network
  std::string useNnue;   ///< "" = the engine's default (NNUE when a network is embedded)
  std::string search = "alphabeta";
  // MCTS only:
  u64 nodes = 20000;    ///< playouts per position
  std::string backend;  ///< "" = the default backend
  std::string weights;  ///< MCTS WeightsFile ("" = the embedded network)
  int batch = 0;
  i64 cache = 200000;
  int threads = 1;
  std::vector<std::string> options;  ///< NAME=VALUE, set last
};

int runBench(const BenchArgs& a) {
  Engine engine;
  engine.setOption("Hash", "16");
  engine.setOption("Threads", std::to_string(a.search == "mcts" ? a.threads : 1));
  if (!a.evalFile.empty()) engine.setOption("EvalFile", a.evalFile);
  if (!a.useNnue.empty()) engine.setOption("Use NNUE", a.useNnue);
  const bool mcts = a.search == "mcts";
  if (mcts) {
    if (!a.backend.empty()) engine.setOption("MCTS Backend", a.backend);
    if (!a.weights.empty()) engine.setOption("MCTS WeightsFile", a.weights);
    engine.setOption("MCTS Cache", std::to_string(a.cache));
    engine.setOption("MCTS Batch", std::to_string(a.batch));
    engine.setOption("MCTS Smart Pruning", "false");
    engine.setOption("Search", "mcts");
  }
  engine.setOptions(a.options);
  std::cerr << "Evaluation: " << engine.evaluationName() << "\n";
  u64 cacheHits = 0, cacheLookups = 0;
  u64 totalNodes = 0, totalHintNodes = 0;
  i64 totalMs = 0;
  SearchResult last;
  engine.onBestMove([&](const SearchResult& r) { last = r; });
  int index = 0;
  for (const char* fen : kBenchFens) {
    engine.newGame();
    engine.setPosition(fen, {});
    SearchLimits limits;
    if (mcts)
      limits.playouts = a.nodes;  // playouts: the alpha-beta hints' nodes come on top
    else
      limits.depth = a.depth;
    auto start = std::chrono::steady_clock::now();
    engine.go(limits);
    engine.wait();
    totalMs += std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
    totalNodes += last.nodes;
    if (mcts) totalHintNodes += engine.mctsSearch()->lastStats().hintNodes;
    if (auto* cache = mcts ? dynamic_cast<mcts::CachingBackend*>(&engine.mctsSearch()->backend()) : nullptr) {
      const mcts::CacheStats st = cache->stats();
      cacheHits += st.hits;
      cacheLookups += st.hits + st.misses;
      cache->resetStats();
    }
    std::cerr << "Position " << ++index << "/" << std::size(kBenchFens) << ": " << last.nodes << " nodes\n";
  }
  // The leaf searches' nodes (one-ply and quiescence of MCTS Value nnue): the work per playout,
  // deterministic like the node count, so a change to the leaf search is measured without a clock.
  // The nodes searched are the playouts plus the alpha-beta hints' nodes (UCI nodes).
  if (mcts) {
    std::cerr << "Playouts        : " << totalNodes - totalHintNodes << "\n"
              << "Hint nodes      : " << totalHintNodes << "\n";
    mcts::Backend* backend = &engine.mctsSearch()->backend();
    if (auto* cache = dynamic_cast<mcts::CachingBackend*>(backend)) backend = &cache->inner();
    if (const auto* nnue = dynamic_cast<const mcts::NnueValueBackend*>(backend))
      std::cerr << "Leaf nodes      : " << nnue->leafNodes() << " (" << std::fixed << std::setprecision(1)
                << double(nnue->leafNodes()) / double(std::max<u64>(totalNodes, 1)) << " per playout)\n";
  }
  if (cacheLookups)
    std::cerr << "Cache hits      : " << cacheHits << " of " << cacheLookups << " lookups (" << std::fixed
              << std::setprecision(1) << 100.0 * double(cacheHits) / double(cacheLookups) << "%)\n";
  std::cout << "===========================\n"
            << "Total time (ms) : " << totalMs << "\n"
            << "Nodes searched  : " << totalNodes << "\n"
            << "Nodes/second    : " << totalNodes * 1000 / u64(std::max<i64>(totalMs, 1)) << "\n"
            << totalNodes << " nodes " << totalNodes * 1000 / u64(std::max<i64>(totalMs, 1)) << " nps\n";
  return 0;
}

}  // namespace

void addBenchCommand(CLI::App& app, Commands& out) {
  auto args = std::make_shared<BenchArgs>();
  auto* cmd = app.add_subcommand("bench", "Search the bench positions to a fixed depth; print '<N> nodes <M> nps'");
  cmd->add_option("depth", args->depth, "Depth in plies (default 13)")->check(CLI::Range(1, 64));
  cmd->add_option("--evalfile", args->evalFile, "NNUE network file (default: the one built in)");
  cmd->add_option("--use-nnue", args->useNnue, "true or false (default: NNUE when a network is built in)")
      ->check(CLI::IsMember({"true", "false"}));
  cmd->add_option("--search", args->search, "alphabeta (default: the bench signature) or mcts")
      ->check(CLI::IsMember({"alphabeta", "mcts"}));
  cmd->add_option("--nodes", args->nodes, "MCTS: playouts per position (default 20000)")->check(CLI::Range(1, 1'000'000'000));
  cmd->add_option("--backend", args->backend, "MCTS: backend name (default: the engine's default)");
  cmd->add_option("--weights", args->weights, "MCTS: network file of the backend (pvnet: .jpv; default: the embedded one)");
  cmd->add_option("--batch", args->batch, "MCTS: leaves per backend call (default 0: the backend's choice, as MCTS Batch)")->check(CLI::Range(0, 1024));
  cmd->add_option("--cache", args->cache, "MCTS: evaluation cache entries, 0 = none (default 200000)")
      ->check(CLI::Range(0, 100'000'000));
  cmd->add_option("--threads", args->threads, "MCTS: search threads (default 1)")->check(CLI::Range(1, 256));
  cmd->add_option("--option", args->options,
                  "Engine option NAME=VALUE (repeatable, set after the others), e.g. --option \"MCTS QS Depth=4\"");
  out.push_back({cmd, [args] { return runBench(*args); }});
}

}  // namespace janus::apps
