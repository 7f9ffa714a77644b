#pragma once
// Perft: count leaf nodes of the legal move tree to a fixed depth (chessprogramming wiki "Perft").
// The last ply is bulk-counted (legal moves counted by popcounts, not made).

#include <utility>
#include <vector>

#include "core/position.h"

namespace janus {

/// Number of leaf nodes at `depth` plies (depth 0 = 1). `pos` is restored on return.
[[nodiscard]] u64 perft(Position& pos, int depth);

/// Perft split by root move: (move, leaf count) for each legal move, in generation order.
[[nodiscard]] std::vector<std::pair<Move, u64>> divide(Position& pos, int depth);

}  // namespace janus

#include <string>

namespace janus {

/// One perft test: a position and its expected leaf counts by depth.
struct PerftCase {
  std::string name;                                ///< id (tricky.perft) or "line N"
  std::string fen;
  std::vector<std::pair<int, u64>> expected;       ///< (depth, nodes)
};

/// Deepest perft depth a suite file may ask for (the perft command's limit too).
constexpr int kMaxPerftSuiteDepth = 20;

/// Reads a perft suite: either EPD lines "<fen> ;D1 20 ;D2 400" or python-chess's block format
/// ("id name" / "epd <fen>" / "perft <depth> <nodes>"). Throws janus::Error naming the file and
/// line of a malformed entry: no ";D" entries, a depth outside 0..kMaxPerftSuiteDepth, a node
/// count that is not a non-negative integer, "epd" without a FEN, "perft" before "epd". The FENs
/// are not checked here (Position::fromFen does that when the case is run).
[[nodiscard]] std::vector<PerftCase> loadPerftSuite(const std::string& path);

}  // namespace janus
