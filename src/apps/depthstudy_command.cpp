// janus depthstudy: plays Janus at fixed depth d+1 against itself at depth d for a range of d and
// reports the Elo gained per ply with 95% error bars, as a table and an SVG plot.
//
// Reference: D. R. Ferreira, "The Impact of the Search Depth on Chess Playing Strength", ICGA
// Journal 36(2), 2013, which measured about 66-86 Elo per ply for strong engines; the plot
// shades that band for comparison.

#include <cmath>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include <fmt/format.h>

#include "apps/commands.h"
#include "match/match.h"
#include "util/error.h"

namespace janus::apps {

namespace {

struct DepthStudyArgs {
  std::string engine = "build/janus";
  int from = 1, to = 8;
  int games = 100;
  int concurrency = 1;
  std::string openings;
  std::string plot = "results/depthstudy.svg";
  std::string pgnOut;
  std::string options;
};

struct Row {
  int depth;
  int wins, draws, losses;
  match::EloEstimate elo;
};

/// A small hand-written SVG line plot: Elo per ply against depth, with 95% error bars and the
/// 66-86 Elo band of Ferreira (2013).
std::string svgPlot(const std::vector<Row>& rows) {
  const double w = 720, h = 420, left = 70, right = 20, top = 40, bottom = 60;
  double lo = 0, hi = 100;
  for (const auto& r : rows) {
    if (std::isfinite(r.elo.lower)) lo = std::min(lo, r.elo.lower);
    if (std::isfinite(r.elo.upper)) hi = std::max(hi, r.elo.upper);
  }
  hi = std::ceil(hi / 50) * 50;
  lo = std::floor(lo / 50) * 50;
  int d0 = rows.front().depth, d1 = rows.back().depth;
  auto x = [&](double d) { return left + (d - d0 + 0.5) / (d1 - d0 + 1) * (w - left - right); };
  auto y = [&](double e) { return top + (hi - e) / (hi - lo) * (h - top - bottom); };
  std::ostringstream s;
  s << fmt::format(R"svg(<svg xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" font-family="sans-serif" font-size="12">)svg", w, h)
    << "\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  s << fmt::format(R"svg(<rect x="{:.1f}" y="{:.1f}" width="{:.1f}" height="{:.1f}" fill="#e8f0ff"/>)svg", left, y(86),
                   w - left - right, y(66) - y(86))
    << fmt::format(R"svg(<text x="{:.1f}" y="{:.1f}" fill="#4060a0">66-86 Elo/ply (Ferreira 2013)</text>)svg", w - right - 190,
                   y(86) - 4)
    << "\n";
  for (double e = lo; e <= hi; e += 50)
    s << fmt::format(R"svg(<line x1="{}" x2="{}" y1="{:.1f}" y2="{:.1f}" stroke="#ddd"/><text x="{}" y="{:.1f}" text-anchor="end">{}</text>)svg",
                     left, w - right, y(e), y(e), left - 6, y(e) + 4, int(e))
      << "\n";
  s << fmt::format(R"svg(<line x1="{}" x2="{}" y1="{:.1f}" y2="{:.1f}" stroke="black"/>)svg", left, w - right, y(0), y(0)) << "\n";
  std::string path;
  for (const auto& r : rows) {
    double cx = x(r.depth), cy = y(std::clamp(r.elo.elo, lo, hi));
    double ylo = y(std::clamp(std::isfinite(r.elo.lower) ? r.elo.lower : lo, lo, hi));
    double yhi = y(std::clamp(std::isfinite(r.elo.upper) ? r.elo.upper : hi, lo, hi));
    s << fmt::format(R"svg(<line x1="{0:.1f}" x2="{0:.1f}" y1="{1:.1f}" y2="{2:.1f}" stroke="#c03030"/>)svg", cx, ylo, yhi)
      << fmt::format(R"svg(<circle cx="{:.1f}" cy="{:.1f}" r="4" fill="#c03030"/>)svg", cx, cy)
      << fmt::format(R"svg(<text x="{:.1f}" y="{}" text-anchor="middle">{}-{}</text>)svg", cx, h - bottom + 18, r.depth + 1,
                     r.depth)
      << "\n";
    path += fmt::format("{}{:.1f},{:.1f}", path.empty() ? "M" : " L", cx, cy);
  }
  s << "<path d=\"" << path << "\" fill=\"none\" stroke=\"#c03030\"/>\n"
    << fmt::format(R"svg(<text x="{}" y="{}" text-anchor="middle">depth d+1 vs d</text>)svg", (left + w - right) / 2, h - 15)
    << fmt::format(R"svg(<text transform="translate(18,{}) rotate(-90)" text-anchor="middle">Elo gain of one ply (95% interval)</text>)svg",
                   (top + h - bottom) / 2)
    << fmt::format(R"svg(<text x="{}" y="22" font-size="15">Janus: Elo per ply</text>)svg", left) << "\n</svg>\n";
  return s.str();
}

int runDepthStudy(const DepthStudyArgs& a) {
  if (a.from < 1 || a.to < a.from) throw Error("depthstudy: need 1 <= --from <= --to");
  std::vector<Row> rows;
  for (int d = a.from; d <= a.to; ++d) {
    match::MatchConfig cfg;
    for (int side = 0; side < 2; ++side) {
      int depth = side == 0 ? d + 1 : d;
      cfg.engines[size_t(side)] =
          match::parseEngineSpec(fmt::format("name=Janus-d{} cmd={} depth={} {}", depth, a.engine, depth, a.options));
    }
    cfg.timeControl = match::TimeControl::parse("inf");
    cfg.games = a.games;
    cfg.concurrency = a.concurrency;
    cfg.openingsPath = a.openings;
    cfg.pgnOut = a.pgnOut;
    cfg.quiet = true;
    cfg.event = fmt::format("Janus depth study {} vs {}", d + 1, d);
    match::Match m(cfg, std::cout);
    match::MatchResult r = m.run();
    Row row{d, r.wins, r.draws, r.losses, match::trinomialElo(r.wins, r.draws, r.losses)};
    rows.push_back(row);
    std::cout << fmt::format("depth {:>2} vs {:>2}: +{} ={} -{}  Elo {} [{}, {}]\n", d + 1, d, row.wins, row.draws,
                             row.losses, match::formatElo(row.elo.elo), match::formatElo(row.elo.lower),
                             match::formatElo(row.elo.upper))
              << std::flush;
  }
  std::cout << "\n| d+1 vs d | W | D | L | Elo per ply | 95% interval |\n|---|---|---|---|---|---|\n";
  for (const auto& r : rows)
    std::cout << fmt::format("| {} vs {} | {} | {} | {} | {} | [{}, {}] |\n", r.depth + 1, r.depth, r.wins, r.draws,
                             r.losses, match::formatElo(r.elo.elo), match::formatElo(r.elo.lower),
                             match::formatElo(r.elo.upper));
  if (!a.plot.empty()) {
    std::ofstream out(a.plot + ".tmp");
    out << svgPlot(rows);
    out.close();
    if (!out || std::rename((a.plot + ".tmp").c_str(), a.plot.c_str()) != 0)
      throw Error("cannot write plot '" + a.plot + "'");
    std::cout << "plot: " << a.plot << "\n";
  }
  return 0;
}

}  // namespace

void addDepthStudyCommand(CLI::App& app, Commands& out) {
  auto args = std::make_shared<DepthStudyArgs>();
  auto* cmd = app.add_subcommand("depthstudy", "Elo per ply: Janus at depth d+1 against depth d, with a plot");
  cmd->add_option("--engine", args->engine, "Janus binary to test (default build/janus)");
  cmd->add_option("--from", args->from, "Smallest depth d (default 1)");
  cmd->add_option("--to", args->to, "Largest depth d (default 8)");
  cmd->add_option("--games", args->games, "Games per depth pair (default 100)")->check(CLI::Range(2, 100000));
  cmd->add_option("--concurrency", args->concurrency, "Games at once")->check(CLI::Range(1, 256));
  cmd->add_option("--openings", args->openings, "Opening book (default: the shipped 8moves book)");
  cmd->add_option("--plot", args->plot, "SVG plot to write (default results/depthstudy.svg; empty: none)");
  cmd->add_option("--pgnout", args->pgnOut, "Append all games to this PGN file");
  cmd->add_option("--options", args->options, "Extra engine spec fields for both sides, e.g. \"option.Hash=16\"");
  out.push_back({cmd, [args] { return runDepthStudy(*args); }});
}

}  // namespace janus::apps
