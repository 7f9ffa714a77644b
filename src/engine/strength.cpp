#include "engine/strength.h"

#include <algorithm>
#include <cmath>

namespace janus {

StrengthLevel strengthForElo(int elo) {
  elo = std::clamp(elo, kMinElo, kMaxElo);
  double t = double(elo - kMinElo) / double(kMaxElo - kMinElo);  // 0 .. 1
  StrengthLevel s;
  s.elo = elo;
  s.nodes = u64(std::llround(100.0 * std::pow(10.0, 3.2 * t)));  // 100 .. ~158k nodes
  s.multiPv = 4;
  s.temperatureCp = int(std::lround(10 + 190 * (1 - t)));  // 200 .. 10 cp
  s.maxLossCp = int(std::lround(30 + 570 * (1 - t)));      // 600 .. 30 cp
  return s;
}

int chooseLine(const std::vector<SearchInfo>& lines, const StrengthLevel& level, std::mt19937_64& rng) {
  if (lines.size() <= 1) return 0;
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
