// janus spsa: prints the search tunables in OpenBench's SPSA input format, one per line:
//   NAME, int, DEFAULT, MIN, MAX, C_END, R_END
// (OpenBench "SPSA Tuning" documentation). C_END is the tunable's step; R_END is the learning
// rate at the end, 0.002 as OpenBench suggests. The engine to tune must be built with
// -DJANUS_TUNE=ON so that these names are UCI options.
//
// janus spsa run: tunes UCI options of an engine on this machine (tune/spsa.h): each iteration
// plays game pairs through the match runner (match/match.h) between the engine with
// theta + c_k flip and with theta - c_k flip, updates theta and saves the state; --resume
// continues a stopped run from its state file.

#include <chrono>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>

#include <fmt/format.h>

#include "apps/commands.h"
#include "match/match.h"
#include "search/tunables.h"
#include "tune/spsa.h"
#include "util/duration.h"
#include "util/error.h"
#include "util/hash.h"
#include "util/zstd_stream.h"

namespace janus::apps {

namespace {

struct SpsaRunArgs {
  std::string params;
  std::string engine;
  std::string state = "spsa-state.json";
  bool resume = false;
  int iterations = 0;
  int pairs = 1;
  int concurrency = 1;
  std::string tc;
  double st = 0;
  u64 nodes = 0;
  int depth = 0;
  std::string openings;
  u64 seed = 1;
  std::string pgnOut;
  bool adjudicate = false;
  int maxMoves = 0;
};

/// The match of one probe: `pairs` openings played twice, "+" (engine slot 0) against "-".
match::MatchConfig probeMatch(const SpsaRunArgs& a, const match::EngineConfig& engine, const tune::SpsaTuner& tuner,
                              const tune::SpsaProbe& probe) {
  match::MatchConfig c;
  for (int side = 0; side < 2; ++side) {
    match::EngineConfig e = engine;
    e.name = side == 0 ? "spsa-plus" : "spsa-minus";
    const std::vector<double>& values = side == 0 ? probe.plus : probe.minus;
    for (size_t i = 0; i < values.size(); ++i)
      e.options.emplace_back(tuner.params()[i].name, tune::spsaOptionValue(tuner.params()[i], values[i]));
    c.engines[size_t(side)] = std::move(e);
  }
  if (!a.tc.empty()) c.timeControl = match::TimeControl::parse(a.tc);
  if (a.st > 0) c.timeControl.moveTimeMs = i64(a.st * 1000 + 0.5);
  c.timeControl.nodes = a.nodes;
  c.timeControl.depth = a.depth;
  c.games = 2 * a.pairs;
  c.concurrency = a.concurrency;
  c.openingsPath = a.openings;
  c.randomOpenings = true;
  c.seed = splitmix64(a.seed ^ splitmix64(u64(probe.iteration)));  // each iteration its own openings
  c.pgnOut = a.pgnOut;
  c.event = fmt::format("Janus SPSA iteration {}", probe.iteration);
  c.quiet = true;
  if (a.adjudicate) {
    c.adjudication.resignMoveCount = match::kDefaultResignMoveCount;
    c.adjudication.resignScore = match::kDefaultResignScore;
    c.adjudication.drawMoveNumber = match::kDefaultDrawMoveNumber;
    c.adjudication.drawMoveCount = match::kDefaultDrawMoveCount;
    c.adjudication.drawScore = match::kDefaultDrawScore;
  }
  c.adjudication.maxMoves = a.maxMoves;
  return c;
}

std::string readText(const std::string& path) {
  const std::unique_ptr<std::istream> in = openInputFile(path);
  return std::string(std::istreambuf_iterator<char>(*in), {});
}

int runSpsaTuning(const SpsaRunArgs& a) {
  const std::vector<tune::SpsaParam> params = tune::parseSpsaParams(readText(a.params), a.params);
  const match::EngineConfig engine = match::parseEngineSpec(a.engine);
  tune::SpsaSchedule schedule;
  schedule.iterations = a.iterations;
  const bool exists = std::filesystem::exists(a.state);
  if (exists && !a.resume)
    throw Error(fmt::format("state file '{}' exists: give --resume to continue that run, or another --state", a.state));
  tune::SpsaTuner tuner = exists ? tune::SpsaTuner::load(a.state, params, schedule, a.seed)
                                 : tune::SpsaTuner(params, schedule, a.seed);
  // The match runner validates the settings (time limit, concurrency, book): once, before the
  // first iteration, so a bad setting fails before any game.
  if (!tuner.finished()) match::Match check(probeMatch(a, engine, tuner, tuner.probe()), std::cout);

  fmt::print("SPSA of {} parameters, {} iterations of {} game pairs, seed {}; state {}{}\n", params.size(),
             schedule.iterations, a.pairs, a.seed, a.state,
             exists ? fmt::format(" (resumed at iteration {})", tuner.nextIteration()) : "");
  const auto start = std::chrono::steady_clock::now();
  const int startIteration = tuner.nextIteration();
  int incidents = 0;
  std::cout.flush();
  tune::runSpsa(
      tuner, a.state,
      [&](const tune::SpsaProbe& probe) {
        std::ostringstream sink;
        match::Match m(probeMatch(a, engine, tuner, probe), sink);
        const match::MatchResult r = m.run();
        for (const match::Incident& incident : r.incidents) {
          ++incidents;
          std::cout << fmt::format("iteration {} game {}: {} ({})\n", probe.iteration, incident.game,
                                   incident.engine == 0 ? "spsa-plus" : "spsa-minus", incident.detail);
        }
        return tune::SpsaResult{r.wins, r.draws, r.losses};
      },
      [&](const tune::SpsaTuner& t) {
        const tune::SpsaIteration& last = t.history().back();
        const tune::SpsaResult total = t.total();
        const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        const int done = last.iteration - startIteration + 1;
        const double eta = elapsed / done * (t.schedule().iterations - last.iteration);
        std::string values;
        for (size_t i = 0; i < t.params().size(); ++i)
          values += fmt::format("  {} {:.4g}", t.params()[i].name, t.params()[i].value);
        std::cout << fmt::format("iteration {}/{}: +{} ={} -{}, total +{} ={} -{}, {:.0f} games/h, ETA {} |{}\n",
                                 last.iteration, t.schedule().iterations, last.result.wins, last.result.draws,
                                 last.result.losses, total.wins, total.draws, total.losses,
                                 done * 2 * a.pairs / elapsed * 3600, formatDuration(eta), values);
        std::cout.flush();
      },
      [] { return false; });
  std::cout << fmt::format("finished {} iterations{}; the values:\n{}as SPSA input:\n{}", tuner.history().size(),
                           incidents ? fmt::format(" ({} incidents: see above)", incidents) : "", tuner.valuesText(),
                           tuner.paramsText());
  return 0;
}

}  // namespace

void addSpsaCommand(CLI::App& app, Commands& out) {
  auto* cmd = app.add_subcommand("spsa", "Print the search tunables as OpenBench SPSA input; 'spsa run' tunes UCI "
                                         "options by SPSA with local games");
  auto a = std::make_shared<SpsaRunArgs>();
  auto* run = cmd->add_subcommand(
      "run",
      "SPSA of UCI options from game pairs on this machine (J. C. Spall 1998; OpenBench/fishtest gains): each "
      "iteration plays --pairs openings twice between theta + c_k flip and theta - c_k flip and moves theta by "
      "r_k c_k (wins - losses) flip; the state is saved after every iteration");
  run->add_option("--params", a->params,
                  "Parameters, one per line in OpenBench's SPSA format: NAME, int|float, VALUE, MIN, MAX, C_END, R_END "
                  "(NAME = the UCI option)")
      ->required();
  run->add_option("--engine", a->engine,
                  "Engine spec as in 'janus match' (e.g. \"cmd=build/janus option.Search=mcts\"); both sides run it")
      ->required();
  run->add_option("--iterations", a->iterations, "Iterations N (the gains reach C_END and R_END at N)")
      ->required()
      ->check(CLI::PositiveNumber);
  run->add_option("--pairs", a->pairs, "Game pairs (one opening, colours swapped) per iteration")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  run->add_option("--concurrency", a->concurrency, "Games played at the same time")->capture_default_str();
  run->add_option("--tc", a->tc, "Clock, e.g. 10+0.1");
  run->add_option("--st", a->st, "Fixed time per move in seconds");
  run->add_option("--nodes", a->nodes, "Node (MCTS: playout) limit per move");
  run->add_option("--depth", a->depth, "Depth limit per move");
  run->add_option("--openings", a->openings, "Opening book (.epd or .pgn); default: the shipped book");
  run->add_option("--seed", a->seed, "Seed of the sign flips and of each iteration's openings")->capture_default_str();
  run->add_option("--state", a->state, "State file (JSON, written atomically after every iteration)")
      ->capture_default_str();
  run->add_flag("--resume", a->resume, "Continue the run in the --state file (same parameters, iterations and seed)");
  run->add_option("--pgnout", a->pgnOut, "Append every game to this PGN file");
  run->add_flag("--adjudicate", a->adjudicate,
                "Adjudicate as 'janus match --resign --draw' with their defaults (resign at 700 cp for 3 moves, draw "
                "from move 40 within 10 cp for 8 moves)");
  run->add_option("--maxmoves", a->maxMoves, "Adjudicate a draw after this many moves");
  out.push_back({cmd, [a, run] {
                   if (run->parsed()) return runSpsaTuning(*a);
                   for (const auto& t : tunables::all())
                     std::cout << t.name << ", int, " << t.defaultValue << ", " << t.min << ", " << t.max << ", "
                               << t.step << ", 0.002\n";
                   return 0;
                 }});
}

}  // namespace janus::apps
