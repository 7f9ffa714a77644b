#include "search/wdl.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "search/score.h"

namespace janus {

namespace {

struct WdlPoint {
  int material;
  double a;  // centipawns at which win and draw are equally likely
  double b;  // spread in centipawns
};

// tools/wdl-fit.py build-tune/tune-data/selfplay-a.jdat.zst (2026-11-22): bucket centres.
constexpr std::array<WdlPoint, 16> kWdlTable{{
    {18, 257.7, 128.5}, {22, 141.7, 81.8}, {26, 125.3, 80.3},  {30, 116.6, 86.4},
    {34, 114.2, 91.2},  {38, 106.3, 91.9}, {42, 95.6, 83.5},   {46, 89.0, 90.8},
    {50, 95.5, 99.9},   {54, 93.0, 114.4}, {58, 94.0, 101.4},  {62, 91.3, 117.2},
    {66, 86.4, 99.1},   {70, 83.9, 113.8}, {74, 81.0, 106.2},  {78, 99.8, 144.8},
}};

WdlPoint parameters(int material) {
  if (material <= kWdlTable.front().material) return kWdlTable.front();
  if (material >= kWdlTable.back().material) return kWdlTable.back();
  auto hi = std::find_if(kWdlTable.begin(), kWdlTable.end(), [&](const WdlPoint& p) { return p.material >= material; });
  auto lo = hi - 1;
  double t = double(material - lo->material) / double(hi->material - lo->material);
  return {material, lo->a + t * (hi->a - lo->a), lo->b + t * (hi->b - lo->b)};
}

/// Scores beyond +-kModelRange centipawns are evaluated as +-kModelRange.
constexpr int kModelRange = 4000;

}  // namespace

int wdlMaterial(const Position& pos) {
  return popCount(pos.pieces(kPawn)) + 3 * popCount(pos.pieces(kKnight, kBishop)) + 5 * popCount(pos.pieces(kRook)) +
         9 * popCount(pos.pieces(kQueen));
}

WdlPermille scoreToWdl(int score, int material) {
  const WdlProbability p = scoreToWdlProbability(score, material);
  int win = int(std::lround(1000.0 * p.win));
  int loss = int(std::lround(1000.0 * p.loss));
  int draw = std::max(0, 1000 - win - loss);  // rounding must not make it negative
  return {win, draw, 1000 - win - draw};
}

WdlProbability scoreToWdlProbability(int score, int material) {
  if (score >= kTbWinInMaxPly) return {1.0, 0.0, 0.0};
  if (score <= -kTbWinInMaxPly) return {0.0, 0.0, 1.0};
  const WdlPoint p = parameters(std::clamp(material, 17, 78));
  const double s = std::clamp(score, -kModelRange, kModelRange);
  const double win = 1.0 / (1.0 + std::exp((p.a - s) / p.b));
  const double loss = 1.0 / (1.0 + std::exp((p.a + s) / p.b));
  return {win, std::max(0.0, 1.0 - win - loss), loss};
}

int qToCentipawns(double q, int material) {
  int lo = -kModelRange, hi = kModelRange;
  if (q <= scoreToWdlProbability(lo, material).q()) return lo;
  if (q >= scoreToWdlProbability(hi, material).q()) return hi;
  while (hi - lo > 1) {  // invariant: q(lo) < q <= q(hi)
    const int mid = lo + (hi - lo) / 2;
    if (scoreToWdlProbability(mid, material).q() < q) lo = mid;
    else hi = mid;
  }
  // The nearer of the two neighbours.
  return q - scoreToWdlProbability(lo, material).q() < scoreToWdlProbability(hi, material).q() - q ? lo : hi;
}

}  // namespace janus
