#include "mcts/face_options.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <string_view>

#include <fmt/format.h>

#include "util/error.h"

namespace janus::mcts {

namespace {

using Kind = FaceOption::Kind;

#define JANUS_PUCT(f) \
  [](const FaceSettings& s) { return double(s.params.puct.f); }, [](FaceSettings& s, double v) { s.params.puct.f = v; }
#define JANUS_PARAM(f, T) \
  [](const FaceSettings& s) { return double(s.params.f); }, [](FaceSettings& s, double v) { s.params.f = T(v); }
#define JANUS_HINT(f, T)                                    \
  [](const FaceSettings& s) { return double(s.params.hints.f); }, \
      [](FaceSettings& s, double v) { s.params.hints.f = T(v); }
#define JANUS_LEAF(f, T) \
  [](const FaceSettings& s) { return double(s.leaf.f); }, [](FaceSettings& s, double v) { s.leaf.f = T(v); }

/// Sources of the defaults: face.h (each default's SPRT or SPSA), the measurements behind them
/// in docs/lab/mcts-log.md.
const FaceOption kOptions[] = {
    // PUCT (node.h PuctParams).
    {"MCTS CPuct", Kind::kReal, 0, 100, "PUCT exploration c_init (AlphaZero 1.25 on a [0,1] value scale = 2.5; SPSA-tuned)",
     JANUS_PUCT(cpuctInit)},
    {"MCTS CPuct Base", Kind::kReal, 1, 1e9, "PUCT c_base: c grows by CPuct Factor * ln((N + base) / base)",
     JANUS_PUCT(cpuctBase)},
    {"MCTS CPuct Factor", Kind::kReal, 0, 100, "PUCT c_factor (AlphaZero 1 on a [0,1] value scale = 2; SPSA-tuned)",
     JANUS_PUCT(cpuctFactor)},
    {"MCTS CPuct Var Weight", Kind::kReal, 0, 10,
     "Variance-scaled exploration: c is multiplied by 1 + this * (sigma(Q) / CPuct Var Scale - 1); 0: off",
     JANUS_PUCT(cpuctVarWeight)},
    {"MCTS CPuct Var Scale", Kind::kReal, 0.01, 2, "The standard deviation of Q (on [-1,1]) at which the variance factor is 1",
     JANUS_PUCT(cpuctVarScale)},
    {"MCTS Minimax Weight", Kind::kReal, 0, 1,
     "Implicit minimax backups: a visited move is selected by (1 - this) * Q + this * the minimax of the leaf "
     "evaluations below it (Lanctot et al. 2014); 0: off. Needs move values (MCTS Value nnue with one-ply priors)",
     JANUS_PUCT(minimaxWeight)},
    {"MCTS FPU Value Weight", Kind::kReal, 0, 1,
     "An unvisited move is valued at (1 - this) * FPU + this * its one-ply value; 0: plain FPU. Needs move values "
     "(MCTS Value nnue with one-ply priors)",
     JANUS_PUCT(fpuValueWeight)},
    {"MCTS FPU Reduction", Kind::kReal, -10, 10, "First-play urgency: unvisited moves get Q(parent) - this * sqrt(visited policy)",
     [](const FaceSettings& s) { return s.params.puct.fpuReduction; },
     [](FaceSettings& s, double v) { s.params.puct.fpuReduction = s.params.puct.fpuReductionRoot = v; }},
    // The search (mcts.h MctsParams).
    {"MCTS Time Scale", Kind::kReal, 0.1, 10,
     "With a clock, MCTS thinks this times alpha-beta's optimum time, scaled 0.5..2 by the best move's playout share, "
     "its changes and a falling value",
     JANUS_PARAM(timeScale, double)},
    {"MCTS Batch", Kind::kInteger, 0, 1024,
     "Leaves each MCTS thread evaluates together in one backend call; 0: the backend's own choice (pvnet 1, torch 32)",
     JANUS_PARAM(batchSize, int)},
    {"MCTS Noise", Kind::kBool, 0, 1, "Dirichlet noise (alpha 0.3, epsilon 0.25) on the root priors: for self-play only",
     JANUS_PARAM(noise, bool)},
    {"MCTS Smart Pruning", Kind::kBool, 0, 1, "Stop early when the most played move can no longer be overtaken",
     JANUS_PARAM(smartPruning, bool)},
    // The alpha-beta hints (hint.h HintParams).
    {"MCTS Hint Visits", Kind::kInteger, 0, 1'000'000'000,
     "With MCTS Value nnue: a node with this many visits asks an alpha-beta search of MCTS Hint Depth for its best "
     "move and raises that move's prior to MCTS Hint Share (again at MCTS Hint Growth times the visits); 0: off",
     JANUS_HINT(visits, int)},
    {"MCTS Hint Depth", Kind::kInteger, 0, 20, "Plies of a hint's alpha-beta search (NNUE, 16 MiB of TT per thread); 0: no hints",
     JANUS_HINT(depth, int)},
    {"MCTS Hint Nodes", Kind::kInteger, 1, 100'000'000,
     "Nodes of a hint's alpha-beta search at most (it stops there); they count in UCI nodes and go nodes",
     JANUS_HINT(nodes, int)},
    {"MCTS Hint Share", Kind::kInteger, 0, 100, "Percent: the prior a hint's move gets at least (the others shrink in proportion)",
     JANUS_HINT(sharePercent, int)},
    {"MCTS Hint Growth", Kind::kInteger, 0, 1024,
     ">= 2: a hinted node asks again at MCTS Hint Visits times this, its square, ... playouts, each time with this "
     "many times the nodes and 2 more plies; 0 or 1: once",
     JANUS_HINT(growth, int)},
    {"MCTS Hint Weight", Kind::kInteger, 1, 100000,
     "Virtual visits of prior knowledge an alpha-beta hint's value counts for in PUCT's Q (never playouts); a hint cut "
     "short by time, stop or go nodes counts its completed share of the plies",
     JANUS_HINT(weight, u32)},
    {"MCTS Hint Weight Growth", Kind::kInteger, 1, 1024,
     "With MCTS Hint Growth: a node's hint k (0 for its first) weighs MCTS Hint Weight times this to the k",
     JANUS_HINT(weightGrowth, u32)},
    {"MCTS Hint Minimax", Kind::kBool, 0, 1,
     "A hinted node's implicit minimax value is its latest alpha-beta hint's value, not the minimax of its subtree's "
     "one-ply leaves",
     JANUS_HINT(minimax, bool)},
    {"MCTS TT Hint Share", Kind::kInteger, 0, 100,
     "Percent: a new leaf whose position the hints' TT holds with a move (draft at least MCTS TT Hint Depth) raises "
     "that move's prior to this at least; 0: off",
     JANUS_HINT(ttSharePercent, int)},
    {"MCTS TT Hint Depth", Kind::kInteger, 1, 64, "Plies of draft a TT entry needs to give a new leaf its move as a TT hint",
     JANUS_HINT(ttDepth, int)},
    {"MCTS TT Hint Value", Kind::kBool, 0, 1,
     "A new leaf with a TT hint takes its value within the TT entry's bound (raised to a lower bound, lowered to an "
     "upper bound)",
     JANUS_HINT(ttValue, bool)},
    // The leaf searches of MCTS Value nnue (nnue_value.h LeafSearchParams).
    {"MCTS QS Depth", Kind::kInteger, 0, 64,
     "Plies of captures the quiescence search at MCTS leaves looks at with MCTS Value nnue (0: static evaluation)",
     JANUS_LEAF(maxPly, int)},
    {"MCTS QS Delta Margin", Kind::kInteger, 0, 10000,
     "Centipawns; > 0: delta pruning in the leaves' quiescence search (a capture that cannot lift the stand-pat "
     "score to alpha by the victim's value plus this is skipped)",
     JANUS_LEAF(deltaMargin, int)},
    {"MCTS Prior Temperature", Kind::kInteger, 0, 10000,
     "Centipawns; > 0 searches every move of a leaf one ply deep (NNUE and quiescence), values the leaf by the best "
     "and sharpens the priors by softmax(ln prior + score / this); 0: off",
     JANUS_LEAF(priorTemperature, int)},
    {"MCTS One-Ply Window", Kind::kInteger, 1, 64,
     "With MCTS Prior Temperature > 0: the one-ply search's window below the best score so far, in prior "
     "temperatures (moves below it get an upper bound)",
     JANUS_LEAF(windowTemperatures, int)},
    {"MCTS Value Scale", Kind::kInteger, 0, 100000,
     "Centipawns; > 0: a leaf's NNUE score is the expected score sigmoid(cp / this), the logistic the network was "
     "trained with (187; a value network trained on results), 0: win/draw/loss by the UCI_ShowWDL model",
     JANUS_LEAF(valueScale, int)},
};

#undef JANUS_PUCT
#undef JANUS_PARAM
#undef JANUS_HINT
#undef JANUS_LEAF

bool sameName(std::string_view a, std::string_view b) {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) { return std::tolower(x) == std::tolower(y); });
}

}  // namespace

std::span<const FaceOption> faceOptions() { return kOptions; }

const FaceOption* findFaceOption(const std::string& name) {
  for (const FaceOption& o : kOptions)
    if (sameName(o.name, name)) return &o;
  return nullptr;
}

std::string faceOptionText(const FaceOption& option, const FaceSettings& s) {
  const double v = option.get(s);
  switch (option.kind) {
    case FaceOption::Kind::kBool: return v != 0 ? "true" : "false";
    case FaceOption::Kind::kInteger: return fmt::format("{}", i64(v));
    case FaceOption::Kind::kReal: break;
  }
  return fmt::format("{}", v);  // the shortest text that reads back as the same double
}

void setFaceOption(FaceSettings& s, const FaceOption& option, const std::string& value) {
  const std::string what = fmt::format("option {}", option.name);
  if (option.kind == FaceOption::Kind::kBool) {
    if (value != "true" && value != "false") throw Error(fmt::format("{}: '{}' is not true or false", what, value));
    option.set(s, value == "true" ? 1.0 : 0.0);
    return;
  }
  double v = 0;
  size_t used = 0;
  try {
    v = std::stod(value, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != value.size() || !std::isfinite(v))
    throw Error(fmt::format("{}: '{}' is not a{}", what, value, option.kind == FaceOption::Kind::kInteger ? "n integer" : " number"));
  if (option.kind == FaceOption::Kind::kInteger && v != std::floor(v))
    throw Error(fmt::format("{}: '{}' is not an integer", what, value));
  if (v < option.min || v > option.max)
    throw Error(fmt::format("{}: {} is out of range {}..{}", what, value, option.min, option.max));
  option.set(s, v);
}

void applyFaceAssignments(FaceSettings& s, const std::vector<std::string>& assignments) {
  for (const std::string& a : assignments) {
    const size_t eq = a.find('=');
    if (eq == std::string::npos || eq == 0) throw Error(fmt::format("--mcts-option '{}': expected NAME=VALUE", a));
    const std::string name = a.substr(0, eq);
    const FaceOption* o = findFaceOption(name);
    if (!o) throw Error(fmt::format("--mcts-option '{}': unknown MCTS option '{}' (janus --show-hidden lists them)", a, name));
    setFaceOption(s, *o, a.substr(eq + 1));
  }
}

std::vector<std::pair<std::string, std::string>> changedFaceOptions(const FaceSettings& s) {
  const FaceSettings defaults;
  std::vector<std::pair<std::string, std::string>> out;
  for (const FaceOption& o : kOptions)
    if (o.get(s) != o.get(defaults)) out.emplace_back(o.name, faceOptionText(o, s));
  return out;
}

}  // namespace janus::mcts
