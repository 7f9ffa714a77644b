// Chart and number formats of the trainers' reports (report.h).

#include "training/report.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace janus::training {

std::string lineChartSvg(const std::string& title, const std::string& xLabel, const std::string& yLabel,
                         const std::vector<ChartSeries>& series) {
  constexpr double kWidth = 720, kHeight = 440, kLeft = 90, kRight = 24, kTop = 44, kBottom = 64;
  const double plotW = kWidth - kLeft - kRight, plotH = kHeight - kTop - kBottom;
  double lo = INFINITY, hi = -INFINITY, xMax = 1;
  for (const ChartSeries& se : series)
    for (const auto& [x, y] : se.points)
      if (std::isfinite(y)) lo = std::min(lo, y), hi = std::max(hi, y), xMax = std::max(xMax, x);
  if (!std::isfinite(lo)) lo = 0, hi = 1;
  if (hi - lo < 1e-9) lo -= 0.5e-3, hi += 0.5e-3;
  const double pad = 0.05 * (hi - lo);
  lo -= pad;
  hi += pad;
  auto px = [&](double x) { return kLeft + plotW * x / xMax; };
  auto py = [&](double v) { return kTop + plotH * (hi - v) / (hi - lo); };
  auto niceStep = [](double range, int target) {
    const double raw = range / target, mag = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0, 10.0})
      if (raw <= m * mag) return m * mag;
    return 10 * mag;
  };
  auto escape = [](const std::string& t) {
    std::string e;
    for (char c : t) e += c == '&' ? "&amp;" : c == '<' ? "&lt;" : c == '>' ? "&gt;" : std::string(1, c);
    return e;
  };

  std::string s = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" "
      "font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      "<text x=\"{2}\" y=\"24\" text-anchor=\"middle\" font-size=\"15\">{3}</text>\n",
      kWidth, kHeight, kLeft + plotW / 2, escape(title));
  // Grid and tick labels.
  const double yStep = niceStep(hi - lo, 6);
  for (double v = std::ceil(lo / yStep) * yStep; v <= hi + 1e-12; v += yStep)
    s += fmt::format(
        "<line x1=\"{0}\" x2=\"{1}\" y1=\"{2:.1f}\" y2=\"{2:.1f}\" stroke=\"#ddd\"/>"
        "<text x=\"{3}\" y=\"{4:.1f}\" text-anchor=\"end\">{5:.4g}</text>\n",
        kLeft, kLeft + plotW, py(v), kLeft - 6, py(v) + 4, v);
  const double xStep = std::max(1.0, niceStep(xMax, 8));
  for (double x = 0; x <= xMax + 1e-9; x += xStep)
    s += fmt::format(
        "<line x1=\"{0:.1f}\" x2=\"{0:.1f}\" y1=\"{1}\" y2=\"{2}\" stroke=\"#ddd\"/>"
        "<text x=\"{0:.1f}\" y=\"{3}\" text-anchor=\"middle\">{4}</text>\n",
        px(x), kTop, kTop + plotH, kTop + plotH + 18, int(x));
  // Axes and their labels.
  s += fmt::format(
      "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"black\"/>\n"
      "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n"
      "<text transform=\"translate(22 {}) rotate(-90)\" text-anchor=\"middle\">{}</text>\n",
      kLeft, kTop, plotW, plotH, kLeft + plotW / 2, kHeight - 18, escape(xLabel), kTop + plotH / 2, escape(yLabel));
  // The series.
  int legend = 0;
  for (const ChartSeries& se : series) {
    std::string points;
    int count = 0;
    for (const auto& [x, y] : se.points)
      if (std::isfinite(y)) {
        points += fmt::format("{:.1f},{:.1f} ", px(x), py(y));
        ++count;
      }
    if (count == 0) continue;
    s += fmt::format("<polyline fill=\"none\" stroke=\"{}\" stroke-width=\"2\" points=\"{}\"/>\n", se.color, points);
    if (count <= 60)
      for (const auto& [x, y] : se.points)
        if (std::isfinite(y))
          s += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"2.5\" fill=\"{}\"/>\n", px(x), py(y), se.color);
    const double ly = kTop + 16 + 18 * legend++;
    s += fmt::format(
        "<line x1=\"{0}\" x2=\"{1}\" y1=\"{2}\" y2=\"{2}\" stroke=\"{3}\" stroke-width=\"2\"/>"
        "<text x=\"{4}\" y=\"{5}\">{6}</text>\n",
        kLeft + plotW - 150, kLeft + plotW - 126, ly, se.color, kLeft + plotW - 120, ly + 4, escape(se.name));
  }
  s += "</svg>\n";
  return s;
}

std::string speedText(double perSecond) {
  if (perSecond >= 1e6) return fmt::format("{:.2f}M", perSecond / 1e6);
  if (perSecond >= 1e3) return fmt::format("{:.1f}k", perSecond / 1e3);
  return fmt::format("{:.0f}", perSecond);
}

std::string lossText(double v) { return std::isnan(v) ? "-" : fmt::format("{:.6f}", v); }

}  // namespace janus::training
