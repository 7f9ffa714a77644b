#pragma once
// Playing levels (UCI_LimitStrength + UCI_Elo, and Skill Level) for the engine facade.
//
// A level weakens Janus the way a weaker player is weak, not by random blunders:
//  1. it sees less: the search runs normally (all pruning, quiescence) but stops after a node
//     budget that grows exponentially with the Elo, so a lower level misses deeper tactics and
//     the opponent's threats. Every move draws its budget log-uniformly within half a doubling
//     either side of the level's budget, so that games from the same position vary.
//  2. below kSamplingElo it also judges less sharply: it searches kSamplingMultiPv lines and
//     picks one with probability proportional to exp(-loss / T), where loss is the line's score
//     gap to the best line (centipawns) and T grows as the Elo falls; lines more than maxLoss
//     below the best are never picked. (A node budget alone does not go low enough: Janus at
//     100 nodes per move still beat Stockfish's UCI_Elo 1500.)
//  3. it converts clearly won positions: with a mate score or a lead of kTechniqueCp the best
//     line is always played, and when the static evaluation already shows such a lead the node
//     budget is multiplied by kTechniqueNodeFactor, so that K+R vs K is mated at every level.
//
// Calibration (docs/ladder.md, "Playing levels"): 40-game matches at 10+0.1 of Janus at UCI_Elo X
// against Debian's Stockfish 15.1 at UCI_Elo X (whose scale is anchored to CCRL 40/4):
//   JANUS_SPEC="option.UCI_LimitStrength=true option.UCI_Elo=X" tools/match.sh stockfish-X 40 10+0.1 2
// Single PV at 2000: 11k nodes -70 ± 101, 20k nodes +61 ± 109 (so kNodesAt2000 = 15k); at 1500:
// 1.1k nodes +215 ± 143, 100 nodes +89 ± 147 (24 games), which is why the low levels sample; with
// the mapping in force 1350 scored -89 ± 116. kEloPerDoubling joins the 1.1k-node point (about
// 1715) to full strength (about 2400 at 10+0.1, +413 ± 140 against Stockfish 2000, about 290k
// nodes per move). Levels below 1350 are outside Stockfish's range: extrapolated, not measured.
// A node budget does not depend on the clock, so a level plays alike at any time control, except
// that at fast clocks the time limit binds first at the top levels, which then play at full
// strength.

#include <random>
#include <vector>

#include "search/search.h"

namespace janus {

/// Parameters of one playing level.
struct StrengthLevel {
  int elo = 0;            ///< target rating (the scale of Stockfish's UCI_Elo, anchored to CCRL 40/4)
  u64 nodes = 0;          ///< median node budget per move (nodes)
  int multiPv = 1;        ///< lines searched to choose from (1: always the best line)
  int temperatureCp = 0;  ///< softmax temperature T (centipawns; 0: always the best line)
  int maxLossCp = 0;      ///< never pick a line more than this below the best (centipawns)
};

constexpr int kMinElo = 1000;
constexpr int kMaxElo = 2800;
constexpr u64 kNodesAt2000 = 15000;       ///< budget at UCI_Elo 2000 (nodes), fitted to the calibration
constexpr double kEloPerDoubling = 87;    ///< Elo per doubling of the budget, fitted to the calibration
constexpr int kSamplingElo = 1600;        ///< below this Elo the level samples among MultiPV lines ...
constexpr int kSamplingMultiPv = 4;       ///< ... this many, with the node budget of kSamplingElo
constexpr double kTemperatureScale = 1800;  ///< T = (kSamplingElo - Elo)^2 / this (centipawns)
constexpr int kMaxLossPerTemperature = 3;   ///< maxLoss = min(T * this, kMaxLossCp) ...
constexpr int kMaxLossCp = 600;             ///< ... (centipawns): no level chooses to lose a queen it sees
constexpr int kTechniqueCp = 400;         ///< lead (centipawns) from which the best move is always played ...
constexpr u64 kTechniqueNodeFactor = 32;  ///< ... and, if the static evaluation shows it, the budget is multiplied by this

/// Level for an Elo, clamped to [kMinElo, kMaxElo].
[[nodiscard]] StrengthLevel strengthForElo(int elo);
/// Skill Level 0..20 as an Elo: 1000 + 90 * skill (20 = 2800).
[[nodiscard]] constexpr int eloForSkill(int skill) { return kMinElo + 90 * skill; }
/// The node budget of one move: level.nodes * 2^u, u uniform in [-0.5, 0.5), at least 1 node;
/// with `technique` (the static evaluation shows a lead of kTechniqueCp or more) multiplied by
/// kTechniqueNodeFactor.
[[nodiscard]] u64 drawNodeBudget(const StrengthLevel& level, bool technique, std::mt19937_64& rng);
/// Chooses among `lines` (the MultiPV lines of one iteration, best first, each with a non-empty
/// pv) by the softmax over the score loss with the loss cap. Returns the index of the chosen line:
/// 0 when the level does not sample (T = 0), when the best line mates or leads by kTechniqueCp.
[[nodiscard]] int chooseLine(const std::vector<SearchInfo>& lines, const StrengthLevel& level, std::mt19937_64& rng);

}  // namespace janus
