#pragma once
// Helpers shared by the training tests: temporary directories, positions of random games,
// random samples and random networks.

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "core/movegen.h"
#include "core/position.h"
#include "records/janusdat.h"
#include "training/nnue_data.h"
#include "training/nnue_model.h"
#include "util/test_temp_dir.h"

namespace janus::training::test {

using janus::test::TempDir;

/// `count` positions from seeded random games (a new game after 120 plies or at a game end).
inline std::vector<Position> randomPositions(std::mt19937_64& rng, std::size_t count) {
  std::vector<Position> out;
  Position pos;
  int ply = 0;
  while (out.size() < count) {
    MoveList moves = legalMoves(pos);
    if (moves.empty() || ply >= 120) {
      pos = Position();
      ply = 0;
      continue;
    }
    pos.makeMove(moves[int(rng() % u64(moves.size()))]);
    ++ply;
    out.push_back(pos);
  }
  return out;
}

/// `count` independent positions with random material (up to the initial set per side) on
/// random squares, random side to move, not in check; made from FEN so that every one is legal.
inline std::vector<Position> randomMaterialPositions(std::mt19937_64& rng, std::size_t count) {
  std::vector<Position> out;
  const char letters[2][6] = {{'P', 'N', 'B', 'R', 'Q', 'K'}, {'p', 'n', 'b', 'r', 'q', 'k'}};
  const int maxCount[6] = {8, 2, 2, 2, 1, 1};
  while (out.size() < count) {
    char board[64];
    std::fill(board, board + 64, '.');
    for (int color = 0; color < 2; ++color)
      for (int type = 5; type >= 0; --type) {
        const int n = type == 5 ? 1 : int(rng() % u64(maxCount[type] + 1));
        for (int k = 0; k < n; ++k) {
          int sq;
          do sq = int(rng() % 64);
          while (board[sq] != '.' || (type == 0 && (sq < 8 || sq >= 56)));
          board[sq] = letters[color][type];
        }
      }
    std::string fen;
    for (int rank = 7; rank >= 0; --rank) {
      int empty = 0;
      for (int file = 0; file < 8; ++file) {
        const char c = board[rank * 8 + file];
        if (c == '.') {
          ++empty;
          continue;
        }
        if (empty) fen += char('0' + empty);
        empty = 0;
        fen += c;
      }
      if (empty) fen += char('0' + empty);
      if (rank) fen += '/';
    }
    fen += rng() % 2 ? " w - - 0 1" : " b - - 0 1";
    try {
      Position pos = Position::fromFen(fen);
      if (!pos.inCheck()) out.push_back(pos);
    } catch (const std::exception&) {
      // adjacent kings, the side not to move in check: draw again
    }
  }
  return out;
}

/// Samples of random positions with scores in [-1500, 1500] cp and random results.
inline std::vector<Sample> randomSamples(std::mt19937_64& rng, std::size_t count) {
  std::vector<Sample> out;
  for (const Position& pos : randomPositions(rng, count))
    out.push_back(sampleFromPosition(pos, int(rng() % 3001) - 1500, int(rng() % 3)));
  return out;
}

/// A random network with weights spread like a trained one: feature-transformer weights in
/// +-0.12, biases in +-0.3 (so accumulators cross both kinks of the activation), output weights
/// in +-`outBound`.
inline FloatNetwork randomTrainedLikeNetwork(const NetworkShape& shape, std::mt19937_64& rng, double outBound = 1.0) {
  FloatNetwork net(shape);
  auto uniform = [&](double bound) { return float((double(rng() >> 11) * 0x1p-53 * 2 - 1) * bound); };
  for (std::size_t i = 0; i < shape.ftBiasOffset(); ++i) net.params[i] = uniform(0.12);
  for (int i = 0; i < shape.hidden; ++i) net.ftBias()[i] = uniform(0.3) + 0.2f;
  for (std::size_t i = shape.outWeightsOffset(); i < shape.outBiasOffset(); ++i) net.params[i] = uniform(outBound);
  for (int k = 0; k < shape.buckets; ++k) net.outBias()[k] = uniform(0.2);
  return net;
}

}  // namespace janus::training::test
