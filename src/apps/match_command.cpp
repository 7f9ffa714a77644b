// janus match: play two UCI engines against each other (see src/match/match.h).

#include <chrono>
#include <iostream>
#include <memory>
#include <random>

#include <fmt/format.h>

#include "apps/commands.h"
#include "match/match.h"
#include "tb/syzygy.h"
#include "util/error.h"

namespace janus::apps {

namespace {
struct MatchArgs {
  std::vector<std::string> engines;
  std::string each;
  std::string tc;
  double st = 0;
  u64 nodes = 0;
  int depth = 0;
  int games = 2;
  int concurrency = 1;
  std::string openings;
  int openingStart = 1;
  bool randomOpening = false;
  std::optional<u64> seed;
  bool noRepeat = false;
  std::string pgnOut;
  bool resume = false;
  std::string debugLog;
  bool showMoves = false;
  bool quiet = false;
  std::vector<std::string> resign;
  std::vector<std::string> draw;
  int maxMoves = 0;
  std::string syzygyPath;
  std::vector<double> sprt;
  bool chess960 = false;
  std::string event = "Janus match";
  int timeMargin = 0;
  int stopGrace = 1000;
  int stallTimeout = 10000;
  int startTimeout = 10000;
};

constexpr const char* kEngineHelp =
    "Engine spec, given twice (first engine first): fields separated by blanks, quotes group text with blanks.\n"
    "  name=NAME           name in reports and PGN (default: file name of cmd)\n"
    "  cmd=PATH            engine program (required); relative to the current directory, or looked up in PATH\n"
    "  dir=DIR             working directory of the engine\n"
    "  arg=TEXT            one command-line argument (repeatable)\n"
    "  option.NAME=VALUE   UCI option set before the first game (repeatable; 'option.Move Overhead=30' in quotes)\n"
    "  ponder              let the engine ponder on the opponent's time\n"
    "  tc=TC st=SEC nodes=N depth=N   this engine's limits, overriding --tc / --st / --nodes / --depth\n"
    "  playouts=N          playouts per move (go playouts: Janus's MCTS face, whatever its alpha-beta hints search)\n"
    "Example: --engine \"name=SF cmd=/usr/games/stockfish option.UCI_LimitStrength=true option.UCI_Elo=1800\"";

void applyAdjudication(const MatchArgs& a, match::AdjudicationConfig& adj) {
  auto number = [](const std::string& what, const std::string& key, const std::string& value) {
    try {
      size_t used = 0;
      int v = std::stoi(value, &used);
      if (used != value.size() || v < 0) throw std::invalid_argument(value);
      return v;
    } catch (const std::exception&) {
      throw Error(fmt::format("{}: {}='{}' is not a non-negative integer", what, key, value));
    }
  };
  if (!a.resign.empty()) {
    adj.resignMoveCount = match::kDefaultResignMoveCount;
    adj.resignScore = match::kDefaultResignScore;
    for (const auto& [k, v] : match::parseKeyValues(a.resign, "--resign")) {
      if (k == "movecount") adj.resignMoveCount = number("--resign", k, v);
      else if (k == "score") adj.resignScore = number("--resign", k, v);
      else throw Error(fmt::format("--resign: unknown setting '{}' (known: movecount, score)", k));
    }
  }
  if (!a.draw.empty()) {
    adj.drawMoveNumber = match::kDefaultDrawMoveNumber;
    adj.drawMoveCount = match::kDefaultDrawMoveCount;
    adj.drawScore = match::kDefaultDrawScore;
    for (const auto& [k, v] : match::parseKeyValues(a.draw, "--draw")) {
      if (k == "movenumber") adj.drawMoveNumber = number("--draw", k, v);
      else if (k == "movecount") adj.drawMoveCount = number("--draw", k, v);
      else if (k == "score") adj.drawScore = number("--draw", k, v);
      else throw Error(fmt::format("--draw: unknown setting '{}' (known: movenumber, movecount, score)", k));
    }
  }
  adj.maxMoves = a.maxMoves;
}

int runMatch(const MatchArgs& a) {
  if (a.engines.size() != 2)
    throw Error(fmt::format("--engine must be given exactly twice (got {})", a.engines.size()));
  match::MatchConfig c;
  for (size_t i = 0; i < 2; ++i) {
    std::string spec = a.engines[i];
    if (!a.each.empty()) spec = a.each + " " + spec;
    c.engines[i] = match::parseEngineSpec(spec);
  }
  if (!a.tc.empty()) c.timeControl = match::TimeControl::parse(a.tc);
  if (a.st > 0) c.timeControl.moveTimeMs = i64(a.st * 1000 + 0.5);
  c.timeControl.nodes = a.nodes;
  c.timeControl.depth = a.depth;
  c.games = a.games;
  c.concurrency = a.concurrency;
  c.openingsPath = a.openings;
  c.openingStart = a.openingStart;
  c.randomOpenings = a.randomOpening;
  c.seed = a.seed ? *a.seed : std::random_device{}() ^ u64(std::chrono::system_clock::now().time_since_epoch().count());
  c.repeat = !a.noRepeat;
  c.pgnOut = a.pgnOut;
  c.resume = a.resume;
  if (a.resume && a.randomOpening && !a.seed)
    throw Error("--resume with --random-opening needs the first run's --seed (printed at its start), so that every "
                "game keeps its opening");
  c.debugLog = a.debugLog;
  c.showMoves = a.showMoves;
  c.quiet = a.quiet;
  applyAdjudication(a, c.adjudication);
  // Tablebase adjudication: the tables live for the whole match (Fathom has one global state).
  SyzygyTablebases syzygy;
  if (!a.syzygyPath.empty()) {
    const SyzygyTablebases::LoadReport report = syzygy.init(a.syzygyPath);  // a bad path throws
    for (const std::string& problem : report.problems)
      std::cerr << "warning: --syzygy-path: " << problem << "; adjudication goes on without this table\n";
    if (!c.adjudication.tablebases) c.adjudication.tablebases = &syzygy;
    if (!a.quiet) std::cout << report.summary << " (adjudication)\n";
  }
  if (!a.sprt.empty()) {
    if (a.sprt.size() != 2 && a.sprt.size() != 4)
      throw Error("--sprt takes elo0 elo1 [alpha beta] (e.g. --sprt 0 5 0.05 0.05)");
    match::SprtConfig s;
    s.elo0 = a.sprt[0];
    s.elo1 = a.sprt[1];
    if (a.sprt.size() == 4) {
      s.alpha = a.sprt[2];
      s.beta = a.sprt[3];
    }
    c.sprt = s;
  }
  c.chess960 = a.chess960;
  c.event = a.event;
  c.timeMargin = std::chrono::milliseconds(a.timeMargin);
  c.stopGrace = std::chrono::milliseconds(a.stopGrace);
  c.stallTimeout = std::chrono::milliseconds(a.stallTimeout);
  c.startTimeout = std::chrono::milliseconds(a.startTimeout);
  c.readyTimeout = std::chrono::milliseconds(a.startTimeout);
  match::Match m(std::move(c), std::cout);
  m.run();
  return 0;
}
}  // namespace

void addMatchCommand(CLI::App& app, Commands& out) {
  auto a = std::make_shared<MatchArgs>();
  auto* cmd = app.add_subcommand(
      "match",
      "Play a match between two UCI engines: openings played twice with colours swapped, clocks, adjudication, PGN "
      "output, Elo with error bars, optional SPRT. Rules are checked by Janus's core.");
  cmd->add_option("--engine", a->engines, kEngineHelp)->required()->expected(1)->take_all();
  cmd->add_option("--each", a->each, "Spec fields added to both engines (e.g. \"option.Hash=16 tc=1+0.01\")");
  cmd->add_option("--tc", a->tc, "Clock: [moves/]seconds[+increment], e.g. 10+0.1, 40/60+0.5, 1:30+1, inf");
  cmd->add_option("--st", a->st, "Fixed time per move in seconds (go movetime)")->check(CLI::PositiveNumber);
  cmd->add_option("--nodes", a->nodes, "Node limit per move (go nodes)");
  cmd->add_option("--depth", a->depth, "Depth limit per move (go depth)")->check(CLI::NonNegativeNumber);
  cmd->add_option("--games", a->games, "Number of games (the maximum with --sprt)")->capture_default_str();
  cmd->add_option("--concurrency", a->concurrency, "Games played at the same time (each with its own engine processes)")
      ->capture_default_str();
  cmd->add_option("--openings", a->openings,
                  "Opening file: .epd (FEN per line) or .pgn (moves); default: the book shipped in data/openings");
  cmd->add_option("--opening-start", a->openingStart, "1-based index of the first opening")->capture_default_str();
  cmd->add_flag("--random-opening", a->randomOpening, "Use the openings in random order (see --seed)");
  cmd->add_option("--seed", a->seed, "Seed for --random-opening (default: random; printed at the start)");
  cmd->add_flag("--no-repeat", a->noRepeat, "Play each opening once instead of twice with colours swapped");
  cmd->add_option("--pgnout", a->pgnOut, "Append every game to this PGN file (whole games, written atomically)");
  cmd->add_flag("--resume", a->resume,
                "Continue the match in the --pgnout file: its games (by Round) count, the missing game numbers are "
                "played; give the first run's other options again");
  cmd->add_option("--debug-log", a->debugLog, "Write all UCI traffic (and engines' stderr) to this file");
  cmd->add_flag("--show-moves", a->showMoves,
                "Print every move as it is played (SAN, score/depth, time, clock) and each game's PGN");
  cmd->add_flag("--quiet", a->quiet, "No progress line after each game, only the final summary");
  cmd->add_option("--resign", a->resign,
                  "Resign adjudication: movecount=N score=CP: both engines agree one side leads by at least CP "
                  "centipawns for N consecutive moves each (defaults 3 and 700)")
      ->expected(1, 2);
  cmd->add_option("--draw", a->draw,
                  "Draw adjudication: movenumber=M movecount=N score=CP: from move M on, both engines' scores within "
                  "CP of 0 for N consecutive moves each (defaults 40, 8, 10)")
      ->expected(1, 3);
  cmd->add_option("--maxmoves", a->maxMoves, "Adjudicate a draw after this many moves (book moves count)");
  cmd->add_option("--syzygy-path", a->syzygyPath,
                  "Syzygy tablebase folders (':'-separated): a position they cover ends the game with their value "
                  "(50-move rule counted), PGN Termination \"adjudication\"");
  cmd->add_option("--sprt", a->sprt,
                  "GSPRT with the pentanomial model: elo0 elo1 [alpha beta] (logistic Elo; defaults alpha = beta = "
                  "0.05); stops when H0 or H1 is accepted")
      ->expected(2, 4);
  cmd->add_flag("--chess960", a->chess960,
                "Chess960 (UCI_Chess960, king-takes-rook castling); automatic for 960 openings");
  cmd->add_option("--event", a->event, "PGN Event tag")->capture_default_str();
  cmd->add_option("--time-margin", a->timeMargin,
                  "Milliseconds an engine may overrun its clock before it loses on time (default 0: strict, as "
                  "cutechess-cli)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--stop-grace", a->stopGrace,
                  "Milliseconds to wait for bestmove after 'stop' before an engine is killed and restarted")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--stall-timeout", a->stallTimeout,
                  "Milliseconds of silence after which a search without a clock (movetime/nodes/depth) loses as "
                  "stalled")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  cmd->add_option("--start-timeout", a->startTimeout, "Milliseconds allowed for uci->uciok and isready->readyok")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  out.push_back({cmd, [a] { return runMatch(*a); }});
}

}  // namespace janus::apps
