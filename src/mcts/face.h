#pragma once
// The engine's default MCTS face: the settings its UCI MCTS options start with. The engine's
// option defaults, `janus selfplay` and `janus rl` all take them from here, so that self-play,
// the RL gates and a user's `Search=mcts` play the same search. The structs' own defaults
// (MctsParams, PuctParams, HintParams, LeafSearchParams) stay the plain algorithms (AlphaZero's
// PUCT, no one-ply search, no hints) that the unit tests of the formulas assume.

#include "mcts/mcts.h"
#include "mcts/nnue_value.h"

namespace janus::mcts {

/// The search settings of the default face. PUCT constants from the SPSA runs of 2026-11-28 at
/// 1000 playouts per move (c_init 1.86, c_base 19230, c_factor 1.30, variance weight 0.93 at
/// scale 0.4, FPU reduction 0.06 at root and tree, minimax weight 0.43, FPU value weight 0.66;
/// each verified at 10+0.1 by SPRT, docs/lab/mcts-log.md); time scale 2.6 (+53.3 +- 32.8 Elo over 1.6 at
/// 10+0.1, SPRT(0, 20) H1 after 138 games, docs/lab/mcts-log.md "Time and smart pruning").
/// Alpha-beta hints (docs/lab/mcts-log.md "The collapse suite and alpha-beta hints"): at 300
/// visits (depth 10, at most 10,000 nodes, share 50%: +88.7 +- 37.2 Elo over no hints at 10+0.1,
/// SPRT(0, 20) H1), again at 4x the visits with 4x the nodes (growth 4: +75.9 +- 36.7 over growth
/// 0 at 10+0.1, SPRT(0, 20) H1); weight 200 (60 over 1: +65.7 +- 38.8, 200 over 60: +63.6 +-
/// 36.2, each at 10+0.1, SPRT(0, 20) H1 after 107 and 115 games), growing 4x per hint round
/// (weight growth 4 over 1: +49.6 +- 35.4 at 10+0.1, SPRT(0, 20) H1 after 126 games), in the
/// minimax backups (hint minimax over none: +82.7 +- 36.5 at 10+0.1, SPRT(0, 20) H1 after 106
/// games); and TT hints: a new leaf in the hints' TT at a draft of 3 plies gets its move's prior
/// raised to 50% and its value within the entry's bound (+42.9 +- 29.3 over none at 10+0.1,
/// SPRT(0, 20) H1 after 170 games).
[[nodiscard]] inline MctsParams defaultFaceParams() {
  MctsParams p;
  p.puct.cpuctInit = 1.86;
  p.puct.cpuctBase = 19230.0;
  p.puct.cpuctFactor = 1.30;
  p.puct.cpuctVarWeight = 0.93;
  p.puct.cpuctVarScale = 0.4;
  p.puct.minimaxWeight = 0.43;
  p.puct.fpuValueWeight = 0.66;
  p.puct.fpuReduction = p.puct.fpuReductionRoot = 0.06;
  p.timeScale = 2.6;
  p.hints.visits = 300;
  p.hints.depth = 10;
  p.hints.nodes = 10000;
  p.hints.sharePercent = 50;
  p.hints.growth = 4;
  p.hints.weight = 200;
  p.hints.weightGrowth = 4;
  p.hints.minimax = true;
  p.hints.ttSharePercent = 50;
  p.hints.ttDepth = 3;
  p.hints.ttValue = true;
  return p;
}

/// The leaf searches of the default face (MCTS Value nnue): quiescence of 8 plies with delta
/// pruning at 100 cp and one-ply priors at a temperature of 132 cp (SPSA-tuned).
[[nodiscard]] inline LeafSearchParams defaultFaceLeaf() {
  LeafSearchParams l;
  l.maxPly = 8;
  l.deltaMargin = 100;
  l.priorTemperature = 132;
  l.windowTemperatures = 8;
  return l;
}

}  // namespace janus::mcts
