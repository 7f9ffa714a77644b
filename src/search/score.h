#pragma once
// Search scores: centipawns, with the range above kEvalMax reserved for mates.
//
//   |score| <= kEvalMax (15000)            static/search evaluation in centipawns
//   kTbWinInMaxPly <= |score| <= kTbWin    tablebase win/loss: kTbWin - ply (no mate distance known)
//   kMateInMaxPly <= |score| <= kMate      mate: kMate - ply (side to move mates at `ply`)
// Mate scores are relative to the root while searching and relative to the node when stored
// in the transposition table (chessprogramming wiki "Transposition Table", "Mate Scores").

#include <string>

#include "core/types.h"
#include "eval/evaluator.h"

namespace janus {

constexpr int kScoreNone = 32002;
constexpr int kInfinite = 32001;
constexpr int kMate = 32000;
constexpr int kMateInMaxPly = kMate - kMaxPly;
constexpr int kDrawScore = 0;
constexpr int kTbWin = kMateInMaxPly - 1;
constexpr int kTbWinInMaxPly = kTbWin - kMaxPly;
static_assert(kEvalMax < kTbWinInMaxPly);

constexpr int mateIn(int ply) { return kMate - ply; }
constexpr int matedIn(int ply) { return -kMate + ply; }
constexpr bool isMateScore(int score) { return score >= kMateInMaxPly || score <= -kMateInMaxPly; }
/// Mate or tablebase result: scores that depend on the ply and must be adjusted in the TT.
constexpr bool isDecisiveScore(int score) { return score >= kTbWinInMaxPly || score <= -kTbWinInMaxPly; }
constexpr int tbWinIn(int ply) { return kTbWin - ply; }

/// Mate distance in moves (UCI "score mate N"): positive if the side to move mates.
constexpr int mateInMoves(int score) { return score > 0 ? (kMate - score + 1) / 2 : -(kMate + score) / 2; }

/// Converts a root-relative score to node-relative for storing in the TT, and back.
constexpr int scoreToTT(int score, int ply) {
  return score >= kTbWinInMaxPly ? score + ply : score <= -kTbWinInMaxPly ? score - ply : score;
}
constexpr int scoreFromTT(int score, int ply) {
  return score >= kTbWinInMaxPly ? score - ply : score <= -kTbWinInMaxPly ? score + ply : score;
}

/// Kind of bound a score represents (from a search with window (alpha, beta)).
enum class Bound : u8 { kNone = 0, kUpper = 1, kLower = 2, kExact = 3 };

}  // namespace janus
