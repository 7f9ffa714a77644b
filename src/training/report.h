#pragma once
// Pieces of the trainers' reports shared by `janus train-nnue` (train_run.cpp) and
// `janus train-az` (az/az_train.cpp, az/az_config.cpp): a line chart as SVG text and the number
// formats of their progress lines.

#include <string>
#include <utility>
#include <vector>

namespace janus::training {

/// One line of a chart: (x, y) points in order; non-finite y values are left out.
struct ChartSeries {
  std::string name;   ///< legend text
  std::string color;  ///< SVG colour, e.g. "#1f77b4"
  std::vector<std::pair<double, double>> points;
};

/// A 720x440 SVG line chart (text): title, grid with tick labels, axis labels, one polyline
/// per series (with dots when it has at most 60 points) and a legend. The x axis runs from 0
/// to the largest x (at least 1), the y axis over the finite y values with 5% margins.
[[nodiscard]] std::string lineChartSvg(const std::string& title, const std::string& xLabel, const std::string& yLabel,
                                       const std::vector<ChartSeries>& series);

/// A rate for progress lines: "950", "12.3k", "1.25M".
[[nodiscard]] std::string speedText(double perSecond);

/// A loss for progress lines with 6 decimals, "-" for NaN.
[[nodiscard]] std::string lossText(double v);

}  // namespace janus::training
