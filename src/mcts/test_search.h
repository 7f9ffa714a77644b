#pragma once
// Test support for the MCTS tests (mcts_tests only, not part of any library): a deterministic
// search with its reports collected, the visit bookkeeping check over a tree, and a small NNUE
// network for the leaf-value tests.

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "core/notation.h"
#include "mcts/mcts.h"
#include "mcts/uniform_backend.h"
#include "nnue/network.h"
#include "nnue/test_net.h"

namespace janus::mcts::testing_support {

/// A small random network (32 hidden, 8 output buckets, SCReLU, seed 7): the leaf-value tests do
/// not depend on the embedded one.
inline std::shared_ptr<const nnue::Network> testNetwork() {
  static const auto net = [] {
    const auto bytes = nnue::testing::quantise(nnue::testing::randomFloatNet(32, 8, nnue::Activation::kSCReLU, 7));
    return nnue::Network::fromBytes(bytes, "test network");
  }();
  return net;
}

/// Mate in 2 with a quiet rook move (1. Rc1 Ke8 2. Rc8#, or 1. Ra7 Kc8/Ke8 2. Ra8#): the one-ply
/// search with quiescence cannot see it, an alpha-beta search of kQuietMateIn2Depth plies can.
inline constexpr const char* kQuietMateIn2 = "3k4/8/4K3/8/8/8/8/R7 w - - 0 1";

/// Depth (plies) of the searches that must find kQuietMateIn2's mate: 6 since a PV node without a
/// TT move loses three plies and drops into quiescence when none is left (internal iterative
/// reduction as in Stockfish 15.1). The engine with its default network scores the position
/// +3.57 at depths 3 to 5 (`go depth N`) and finds the mate from depth 6.
inline constexpr int kQuietMateIn2Depth = 6;

/// `fen` (or "startpos") after `moves` in UCI notation.
inline Position positionAfter(const std::string& fen, const std::vector<std::string>& moves) {
  Position pos = fen == "startpos" ? Position() : Position::fromFen(fen);
  for (const auto& m : moves) pos.makeMove(parseUci(pos, m, false));
  return pos;
}

/// A search with the uniform (material) backend; deterministic settings unless changed.
struct Searcher {
  explicit Searcher(MctsParams p = deterministic(), std::shared_ptr<Backend> backend = std::make_shared<UniformBackend>())
      : search(std::move(backend), p) {}
  static MctsParams deterministic() {
    MctsParams p;
    p.smartPruning = false;
    p.seed = 1;
    return p;
  }
  SearchResult go(const Position& pos, SearchLimits limits, SearchConfig config = {}) {
    infos.clear();
    return search.run(pos, limits, config, [this](const SearchInfo& i) { infos.push_back(i); }, signals);
  }
  /// A search of `nodes` nodes (playouts plus alpha-beta hint nodes: SearchLimits::nodes).
  SearchResult goNodes(const Position& pos, u64 nodes, int threads = 1) {
    SearchLimits l;
    l.nodes = nodes;
    SearchConfig c;
    c.threads = threads;
    return go(pos, l, c);
  }
  /// A search of `playouts` playouts, whatever its hints search (SearchLimits::playouts).
  SearchResult goPlayouts(const Position& pos, u64 playouts, int threads = 1) {
    SearchLimits l;
    l.playouts = playouts;
    SearchConfig c;
    c.threads = threads;
    return go(pos, l, c);
  }
  MctsSearch search;
  SearchSignals signals;
  std::vector<SearchInfo> infos;
};

/// Checks visit bookkeeping below `node`: nothing in flight, and (for nodes that are neither
/// terminal nor proven) N = one playout for the node's own evaluation plus its children's N: N
/// counts playouts (alpha-beta hints add prior knowledge, not visits). A node that tree
/// recycling collapsed keeps the playouts its freed children had, so with `recycled` the check
/// below the root is N >= 1 + the children's N (the root itself is never collapsed: equal).
/// Returns the number of nodes checked.
inline int checkVisits(const Node& node, bool recycled = false, bool isRoot = true) {
  EXPECT_EQ(node.inFlight(), 0u);
  int count = 1;
  u64 childVisits = 0;
  for (const Node::Edge& e : node.edges())
    if (e.node) {
      childVisits += e.node->visits();
      count += checkVisits(*e.node, recycled, false);
    }
  if (!node.isTerminal() && node.expanded()) {
    if (recycled && !isRoot) {
      EXPECT_GE(node.visits(), childVisits + 1);
    } else {
      EXPECT_EQ(node.visits(), childVisits + 1);
    }
  }
  if (!node.expanded()) { EXPECT_EQ(childVisits, 0u); }
  return count;
}

}  // namespace janus::mcts::testing_support
