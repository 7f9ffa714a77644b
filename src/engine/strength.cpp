#include "engine/strength.h"

#include <algorithm>
#include <cmath>

namespace janus {

StrengthLevel strengthForElo(int elo) {
  elo = std::clamp(elo, kMinElo, kMaxElo);
  StrengthLevel s;
  s.elo = elo;
  const int searchElo = std::max(elo, kSamplingElo);
  s.nodes = u64(std::llround(double(kNodesAt2000) * std::exp2(double(searchElo - 2000) / kEloPerDoubling)));
  const double below = std::max(0, kSamplingElo - elo);
  s.temperatureCp = int(std::lround(below * below / kTemperatureScale));
  if (s.temperatureCp > 0) {
    s.multiPv = kSamplingMultiPv;
    s.maxLossCp = std::min(s.temperatureCp * kMaxLossPerTemperature, kMaxLossCp);
  }
  return s;
}

u64 drawNodeBudget(const StrengthLevel& level, bool technique, std::mt19937_64& rng) {
  double u = std::uniform_real_distribution<double>(-0.5, 0.5)(rng);
  u64 budget = std::max<u64>(1, u64(std::llround(double(level.nodes) * std::exp2(u))));
  return technique ? budget * kTechniqueNodeFactor : budget;
}

int chooseLine(const std::vector<SearchInfo>& lines, const StrengthLevel& level, std::mt19937_64& rng) {
  if (lines.size() <= 1 || level.temperatureCp <= 0) return 0;
  int best = lines[0].score;
  if (isMateScore(best) || best >= kTechniqueCp) return 0;
  std::vector<double> weights;
  for (const auto& l : lines) {
    int loss = isMateScore(l.score) && l.score < 0 ? 100000 : best - l.score;
    weights.push_back(loss > level.maxLossCp ? 0.0 : std::exp(-double(loss) / level.temperatureCp));
  }
  std::discrete_distribution<int> pick(weights.begin(), weights.end());
  return pick(rng);
}

}  // namespace janus
