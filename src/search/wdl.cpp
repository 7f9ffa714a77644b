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

}  // namespace

int wdlMaterial(const Position& pos) {
  return popCount(pos.pieces(kPawn)) + 3 * popCount(pos.pieces(kKnight, kBishop)) + 5 * popCount(pos.pieces(kRook)) +
         9 * popCount(pos.pieces(kQueen));
}

WdlPermille scoreToWdl(int score, int material) {
  if (score >= kTbWinInMaxPly) return {1000, 0, 0};
  if (score <= -kTbWinInMaxPly) return {0, 0, 1000};
  const WdlPoint p = parameters(std::clamp(material, 17, 78));
  const double s = std::clamp(score, -4000, 4000);
  int win = int(std::lround(1000.0 / (1.0 + std::exp((p.a - s) / p.b))));
  int loss = int(std::lround(1000.0 / (1.0 + std::exp((p.a + s) / p.b))));
  int draw = std::max(0, 1000 - win - loss);  // rounding must not make it negative
  return {win, draw, 1000 - win - draw};
}

}  // namespace janus
