#pragma once
// Score-to-WDL model for UCI_ShowWDL: expected win/draw/loss per mille for a search score.
//
//   P(win)  = 1 / (1 + exp((a(m) - s) / b(m)))     s: score in centipawns, side to move's view
//   P(loss) = 1 / (1 + exp((a(m) + s) / b(m)))     P(draw) = 1 - P(win) - P(loss)
//
// m is the material on the board (pawn 1, knight and bishop 3, rook 5, queen 9, both sides;
// clamped to 17..78), and a(m), b(m) are interpolated linearly in a table fitted by maximum
// likelihood to Janus's own self-play results (tools/wdl-fit.py on `janus datagen` data: 487,015
// positions of 7,200 games at 5,000 nodes per move; mean log-loss 0.583 per position). The form of
// the model is the one Stockfish publishes for its WDL output (a logistic in the score whose
// offset and scale depend on material); the numbers are Janus's fit.

#include "core/position.h"

namespace janus {

/// Win, draw and loss chances in per mille (they add up to 1000), side to move's view.
struct WdlPermille {
  int win = 0;
  int draw = 1000;
  int loss = 0;
};

/// Win, draw and loss probabilities (each 0..1, summing to 1), side to move's view.
struct WdlProbability {
  double win = 0.0;
  double draw = 1.0;
  double loss = 0.0;
  /// Expected score on the [-1, 1] scale: win - loss (MCTS's Q).
  [[nodiscard]] double q() const { return win - loss; }
};

/// Material for the WDL model: pawn 1, knight 3, bishop 3, rook 5, queen 9, both sides (0..78 in
/// a game; more with promotions).
[[nodiscard]] int wdlMaterial(const Position& pos);

/// The model above for `score` (centipawns or a mate/tablebase score from score.h, side to move's
/// view) with `material` from wdlMaterial. Mate and tablebase wins are 1000/0/0, losses 0/0/1000.
[[nodiscard]] WdlPermille scoreToWdl(int score, int material);

/// The model above without rounding: the probabilities for `score` (centipawns, or a mate or
/// tablebase score: 1/0/0 and 0/0/1).
[[nodiscard]] WdlProbability scoreToWdlProbability(int score, int material);

/// The inverse on the Q scale: the centipawns (side to move's view, within +-4000, the range the
/// model is evaluated on) whose win - loss by the model above is `q` (clamped to the range the
/// model reaches at `material`). Monotonic in q; found by bisection to 1 cp. This is the one
/// mapping between MCTS values and centipawns (UCI `score cp`, the GUI, training targets).
[[nodiscard]] int qToCentipawns(double q, int material);

}  // namespace janus
