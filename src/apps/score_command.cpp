// janus score --engine NAME FILE.pgn...: W/D/L, score and Elo with 95% error bars (per game and
// pentanomial) of one player over match PGN files, e.g. to pool two runs of tools/match.sh
// against the same opponent. Uses the same statistics as janus match (src/match/stats.h).
//
// Pairs: janus match plays each opening twice with colours swapped as rounds 2k-1 and 2k, so the
// games of one run with those Round tags form one pentanomial pair when both are present. A Round
// seen again in the same file starts a new run (files made by concatenating match PGNs).
//
// Repeated games: a game with the same players, start (FEN tag), moves and result as an earlier one is a
// replay, which single-threaded engines at a fixed node or depth limit produce whenever a match is
// longer than twice its book; the first line counts them, and --distinct scores each game once
// (issue 74: the fixed-node SPRTs of 2026-11/12 held 600 distinct games however long they ran).

#include <cmath>
#include <iostream>
#include <map>
#include <memory>
#include <set>

#include <fmt/format.h>

#include "apps/commands.h"
#include "core/pgn.h"
#include "match/stats.h"
#include "util/error.h"

namespace janus::apps {

namespace {

struct ScoreArgs {
  std::string engine;
  std::vector<std::string> files;
  bool distinct = false;  ///< score only the first of identical games
};

/// What makes two games the same game: players, start, moves, result and how it ended.
std::string gameKey(const PgnGame& g) {
  std::string key = g.tag("White") + '\n' + g.tag("Black") + '\n' + g.tag("FEN") + '\n' + g.result + '\n' +
                    g.tag("Termination") + '\n';
  for (Move m : g.moves) key += fmt::format("{:04x}", m.raw());
  return key;
}

int runScore(const ScoreArgs& a) {
  int wins = 0, draws = 0, losses = 0, skipped = 0, repeated = 0;
  std::set<std::string> seen;
  match::Pentanomial pairs{};
  std::map<std::string, int> opponents;
  std::map<std::string, int> lostBy;  // Termination tag of the games the engine lost, e.g. "time forfeit"
  std::map<std::string, int> wonBy;
  for (const std::string& file : a.files) {
    auto reader = PgnReader::open(file);
    std::map<int, double> pointsByRound;  // of the current run
    auto flushRun = [&] {
      for (auto [round, p] : pointsByRound)
        if (round % 2 == 1)
          if (auto it = pointsByRound.find(round + 1); it != pointsByRound.end())
            ++pairs[size_t(match::pentanomialIndex(p, it->second))];
      pointsByRound.clear();
    };
    PgnGame g;
    while (reader->next(g)) {
      std::string white = g.tag("White"), black = g.tag("Black");
      if (white != a.engine && black != a.engine) {
        ++skipped;
        continue;
      }
      double whitePoints = g.result == "1-0" ? 1 : g.result == "0-1" ? 0 : g.result == "1/2-1/2" ? 0.5 : -1;
      if (whitePoints < 0) {
        ++skipped;
        continue;
      }
      if (!seen.insert(gameKey(g)).second) {
        ++repeated;
        if (a.distinct) continue;
      }
      double p = white == a.engine ? whitePoints : 1 - whitePoints;
      ++opponents[white == a.engine ? black : white];
      (p == 1 ? wins : p == 0 ? losses : draws)++;
      std::string term = g.tag("Termination").empty() ? "normal" : g.tag("Termination");
      if (p == 0) ++lostBy[term];
      if (p == 1) ++wonBy[term];
      if (int round = std::atoi(g.tag("Round").c_str()); round > 0) {
        if (pointsByRound.contains(round)) flushRun();
        pointsByRound[round] = p;
      }
    }
    for (const auto& e : reader->errors())
      std::cerr << fmt::format("warning: {}:{}: {} (game skipped)\n", e.source, e.line, e.message);
    flushRun();
  }
  int n = wins + draws + losses;
  if (n == 0) throw Error(fmt::format("no finished game of '{}' in the given files", a.engine));
  std::string against;
  for (auto& [name, count] : opponents) against += fmt::format("{}{} ({})", against.empty() ? "" : ", ", name, count);
  std::cout << fmt::format("{} games of {} in {} file(s) against {}", n, a.engine, a.files.size(), against);
  if (skipped) std::cout << fmt::format("; {} other or unfinished games skipped", skipped);
  std::cout << "\n";
  if (repeated)
    std::cout << fmt::format("{} game(s) repeat an earlier game move for move (fixed limits and a short book?); {}\n",
                             repeated, a.distinct ? "scored once each (--distinct)" : "--distinct scores each game once");
  std::cout << fmt::format("Score of {}: +{} -{} ={} [{:.3f}] {}\n", a.engine, wins, losses, draws,
                           (wins + 0.5 * draws) / n, n);
  std::cout << fmt::format("Elo difference: {} (95%, per game)", match::formatEloEstimate(match::trinomialElo(wins, draws, losses)));
  int pairCount = pairs[0] + pairs[1] + pairs[2] + pairs[3] + pairs[4];
  if (pairCount)
    std::cout << fmt::format(", {} (95%, pentanomial over {} pairs)", match::formatEloEstimate(match::pentanomialElo(pairs)), pairCount);
  std::cout << "\n";
  std::cout << fmt::format("LOS: {:.1f}%, draw ratio: {:.1f}%\n", 100 * match::likelihoodOfSuperiority(wins, losses),
                           100.0 * draws / n);
  if (pairCount)
    std::cout << fmt::format("Pentanomial [0, 0.5, 1, 1.5, 2]: [{}, {}, {}, {}, {}]\n", pairs[0], pairs[1], pairs[2],
                             pairs[3], pairs[4]);
  for (auto& [term, count] : lostBy) std::cout << fmt::format("Lost by {}: {}\n", term, count);
  for (auto& [term, count] : wonBy) std::cout << fmt::format("Won by {}: {}\n", term, count);
  return 0;
}

}  // namespace

void addScoreCommand(CLI::App& app, Commands& out) {
  auto args = std::make_shared<ScoreArgs>();
  auto* sub = app.add_subcommand(
      "score", "W/D/L and Elo with 95% error bars (per game and pentanomial) of one player over match PGN files");
  sub->add_option("--engine", args->engine, "Player name as in the White/Black tags (e.g. Janus)")->required();
  sub->add_option("files", args->files, "PGN files written by janus match (.pgn or .pgn.zst)")->required();
  sub->add_flag("--distinct", args->distinct,
                "Score a game that repeats an earlier one move for move (same players and start) only once");
  out.push_back({sub, [args] { return runScore(*args); }});
}

}  // namespace janus::apps
