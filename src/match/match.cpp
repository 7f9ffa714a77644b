#include "match/match.h"

#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <thread>

#include <fmt/format.h>

#include "core/notation.h"
#include "core/pgn.h"
#include "util/duration.h"
#include "util/error.h"

namespace janus::match {

namespace {
std::string hostName() {
  char buf[256] = {};
  if (::gethostname(buf, sizeof buf - 1) != 0 || !buf[0]) return "?";
  return buf;
}
}  // namespace

Match::Match(MatchConfig config, std::ostream& out) : m_config(std::move(config)), m_out(out) {
  const auto& c = m_config;
  if (c.games < 1) throw Error(fmt::format("--games must be at least 1 (got {})", c.games));
  if (c.concurrency < 1) throw Error(fmt::format("--concurrency must be at least 1 (got {})", c.concurrency));
  if (c.openingStart < 1) throw Error(fmt::format("--opening-start must be at least 1 (got {})", c.openingStart));
  if (c.adjudication.resignMoveCount < 0 || c.adjudication.drawMoveCount < 0 || c.adjudication.maxMoves < 0 ||
      c.adjudication.resignScore < 0 || c.adjudication.drawScore < 0)
    throw Error("adjudication counts and scores must not be negative");
  if (c.sprt) m_result.sprtBounds = sprtBounds(*c.sprt);
  for (int i = 0; i < 2; ++i) {
    if (c.engines[size_t(i)].command.empty()) throw Error(fmt::format("engine {} has no command", i + 1));
    TimeControl tc = effectiveTimeControl(c.engines[size_t(i)], c.timeControl);
    if (!tc.isLimited())
      throw Error(fmt::format("engine {} has no time limit: give --tc, --st, --nodes or --depth (or "
                              "tc=/st=/nodes=/playouts=/depth= in its spec)",
                              c.engines[size_t(i)].name));
    m_settings.timeControl[size_t(i)] = tc;
  }
  if (c.engines[0].name == c.engines[1].name) {
    m_config.engines[0].name += " (1)";
    m_config.engines[1].name += " (2)";
  }

  std::string bookPath = c.openingsPath.empty() ? defaultOpeningBook() : c.openingsPath;
  m_book = loadOpenings(bookPath, c.chess960);
  m_result.warnings = m_book.errors;
  m_chess960 = c.chess960;
  for (const auto& o : m_book.openings) m_chess960 = m_chess960 || o.chess960;
  m_order = openingOrder(int(m_book.openings.size()), c.openingStart - 1, c.randomOpenings, c.seed);
  m_result.seed = c.seed;
  m_result.openingCount = int(m_book.openings.size());
  m_config.openingsPath = bookPath;

  m_settings.adjudication = c.adjudication;
  m_settings.chess960 = m_chess960;
  m_settings.timeMargin = c.timeMargin;
  m_settings.stopGrace = c.stopGrace;
  m_settings.stallTimeout = c.stallTimeout;
  m_settings.readyTimeout = c.readyTimeout;
  m_pgnContext.event = c.event;
  m_pgnContext.site = c.site == "?" ? hostName() : c.site;
  m_pgnContext.timeControl = m_settings.timeControl;
  m_result.gamesPlanned = c.games;
  if (c.resume && c.pgnOut.empty()) throw Error("--resume needs --pgnout: the PGN file of the match to continue");
  std::vector<bool> done = c.resume ? restoreFromPgn() : std::vector<bool>(size_t(c.games), false);
  for (int i = 0; i < c.games; ++i)
    if (!done[size_t(i)]) m_pending.push_back(i);
  if (!c.pgnOut.empty()) m_pgnFile = std::make_unique<PgnFile>(c.pgnOut);
  if (!c.debugLog.empty()) m_log = std::make_unique<TrafficLog>(c.debugLog);
}

std::vector<bool> Match::restoreFromPgn() {
  const auto& c = m_config;
  std::vector<bool> done(size_t(c.games), false);
  if (!std::filesystem::exists(c.pgnOut)) return done;
  {
    // A run killed while it appended a game may leave a line without its end: start the next
    // game on a fresh line so that the cut game stays a (skipped) game of its own.
    std::ifstream in(c.pgnOut, std::ios::binary | std::ios::ate);
    if (in && in.tellg() > 0) {
      in.seekg(-1, std::ios::end);
      if (in.get() != '\n') std::ofstream(c.pgnOut, std::ios::binary | std::ios::app) << "\n\n";
    }
  }
  auto reader = PgnReader::open(c.pgnOut);
  PgnGame g;
  while (reader->next(g)) {
    auto where = [&] { return fmt::format("{} line {}", c.pgnOut, g.line); };
    const std::string round = g.tag("Round");
    int number = 0;
    auto [end, ec] = std::from_chars(round.data(), round.data() + round.size(), number);
    if (ec != std::errc() || end != round.data() + round.size() || number < 1 || number > c.games)
      throw Error(fmt::format("--resume: {}: Round \"{}\" is not a game number from 1 to {} (--games)", where(),
                              round, c.games));
    if (done[size_t(number - 1)]) throw Error(fmt::format("--resume: {}: game {} appears twice", where(), number));
    const int whiteEngine = (number - 1) % 2;
    const std::string& white = c.engines[size_t(whiteEngine)].name;
    const std::string& black = c.engines[size_t(1 - whiteEngine)].name;
    if (g.tag("White") != white || g.tag("Black") != black)
      throw Error(fmt::format("--resume: {}: game {} is {} vs {}, but this match has {} vs {} in it", where(), number,
                              g.tag("White"), g.tag("Black"), white, black));
    GameResult result = g.result == "1-0"       ? GameResult::kWhiteWins
                        : g.result == "0-1"     ? GameResult::kBlackWins
                        : g.result == "1/2-1/2" ? GameResult::kDraw
                                                : GameResult::kNone;
    if (result == GameResult::kNone) continue;  // unfinished: played again
    // The reason follows the last move's comment after ", " (moveComment() holds no ", ").
    std::string reason = g.comments.empty() ? g.preComment : g.comments.back();
    if (!g.comments.empty()) reason = reason.find(", ") == std::string::npos ? "" : reason.substr(reason.find(", ") + 2);
    if (reason.empty()) reason = "?";
    std::optional<Incident> incident;
    const std::string termination = g.tag("Termination");
    std::optional<Incident::Kind> kind = termination == "time forfeit"         ? Incident::Kind::kTimeForfeit
                                         : termination == "rules infraction"   ? Incident::Kind::kIllegalMove
                                         : termination == "abandoned"          ? Incident::Kind::kCrash
                                         : termination == "stalled connection" ? Incident::Kind::kStall
                                                                               : std::optional<Incident::Kind>();
    if (kind && result != GameResult::kDraw) {
      Color loser = result == GameResult::kWhiteWins ? kBlack : kWhite;
      Position start = g.startPosition();
      int plies = int(g.moves.size()) + (start.sideToMove() == kBlack ? 1 : 0);
      incident = Incident{*kind, loser == kWhite ? whiteEngine : 1 - whiteEngine, loser, number,
                          start.fullmoveNumber() + plies / 2, reason + " (restored from the PGN file)"};
    }
    done[size_t(number - 1)] = true;
    ++m_result.gamesRestored;
    tally(number, result, reason, incident);
  }
  for (const PgnError& e : reader->errors())
    m_result.warnings.push_back(fmt::format("--resume: skipped a game of {} (line {}: {}); it is played again",
                                            c.pgnOut, e.line, e.message));
  return done;
}

Match::~Match() = default;

void Match::fail(const std::string& message) {
  std::lock_guard lock(m_mutex);
  if (!m_fatal) m_fatal = message;
  m_stop = true;
}

MatchResult Match::run() {
  m_start = std::chrono::steady_clock::now();
  m_cpuStart = processCpuSeconds();
  {
    const auto& c = m_config;
    m_out << fmt::format("Match: {} vs {}, {} game{}, {} at once\n", c.engines[0].name, c.engines[1].name, c.games,
                         c.games == 1 ? "" : "s", c.concurrency);
    if (c.resume)
      m_out << fmt::format("  resumed: {} game{} counted from {}, {}\n", m_result.gamesRestored,
                           m_result.gamesRestored == 1 ? "" : "s", c.pgnOut,
                           m_result.decision != SprtDecision::kContinue
                               ? std::string("nothing to play: the SPRT has decided")
                               : fmt::format("{} to play", m_pending.size()));
    for (int i = 0; i < 2; ++i)
      m_out << fmt::format("  {}: {} ({})\n", c.engines[size_t(i)].name, c.engines[size_t(i)].command,
                           m_settings.timeControl[size_t(i)].describe());
    m_out << fmt::format("  openings: {} ({} positions{}, {}{}){}\n", c.openingsPath, m_book.openings.size(),
                         m_book.errors.empty() ? "" : fmt::format(", {} skipped", m_book.errors.size()),
                         c.randomOpenings ? fmt::format("random order, seed {}", c.seed) : "sequential",
                         c.openingStart > 1 ? fmt::format(" from {}", c.openingStart) : "",
                         m_chess960 ? ", Chess960" : "");
    for (const auto& e : m_book.errors) m_out << "  skipped opening: " << e << "\n";
    // A fixed node or depth limit on both sides makes a game a function of its opening: past
    // twice the book (colours swapped), the games repeat and add nothing to the statistics
    // (issue 74 found fixed-node SPRTs of 3,273 games that held 600 distinct ones).
    auto fixedLimit = [](const TimeControl& t) { return !t.hasClock() && t.moveTimeMs == 0 && (t.nodes > 0 || t.playouts > 0 || t.depth > 0); };
    const std::size_t distinct = m_book.openings.size() * (c.repeat ? 2 : 1);
    if (fixedLimit(m_settings.timeControl[0]) && fixedLimit(m_settings.timeControl[1]) && std::size_t(c.games) > distinct) {
      std::string w = fmt::format("{} games at a fixed node or depth limit from {} openings: single-threaded engines "
                                  "replay the same games after game {}; give a book of at least {} positions",
                                  c.games, m_book.openings.size(), distinct, (std::size_t(c.games) + 1) / (c.repeat ? 2 : 1));
      m_out << "  warning: " << w << "\n";
      m_result.warnings.push_back(std::move(w));
    }
    if (c.sprt)
      m_out << fmt::format("  SPRT: elo0 {} elo1 {} alpha {} beta {} (LLR bounds {:.2f}, {:.2f})\n", c.sprt->elo0,
                           c.sprt->elo1, c.sprt->alpha, c.sprt->beta, m_result.sprtBounds->lower,
                           m_result.sprtBounds->upper);
    m_out.flush();
  }
  int workers = std::min(m_config.concurrency, int(m_pending.size()));
  std::vector<std::thread> threads;
  for (int i = 0; i < workers; ++i) threads.emplace_back([this, i] { worker(i + 1); });
  for (auto& t : threads) t.join();
  m_result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
  m_result.runnerCpuSeconds = processCpuSeconds() - m_cpuStart;
  if (m_fatal) throw Error(*m_fatal);
  if (m_result.gamesPlayed < m_result.gamesPlanned && m_result.stopReason.empty()) m_result.stopReason = "stopped";
  m_out << "\n" << formatSummary(m_config, m_result);
  if (m_pgnFile) m_out << fmt::format("PGN: {}\n", m_config.pgnOut);
  m_out.flush();
  return m_result;
}

void Match::printMove(const GameRecord& game, const MoveRecord& move) {
  if (move.book) return;  // book moves are printed as one line before the first engine move
  std::lock_guard lock(m_mutex);
  std::string prefix = m_config.concurrency > 1 ? fmt::format("[game {}] ", game.number) : "";
  // Before the first engine move, show the book line once.
  size_t bookCount = 0;
  while (bookCount < game.moves.size() && game.moves[bookCount].book) ++bookCount;
  if (bookCount > 0 && game.moves.size() == bookCount + 1) {
    std::string line;
    for (size_t i = 0; i < bookCount; ++i) {
      const MoveRecord& m = game.moves[i];
      if (m.color == kWhite)
        line += fmt::format("{}. ", m.moveNumber);
      else if (i == 0)
        line += fmt::format("{}... ", m.moveNumber);
      line += m.san + " ";
    }
    m_out << prefix << "Opening: " << line << "\n";
  }
  std::string label = fmt::format("{}{}", move.moveNumber, move.color == kWhite ? "." : "...");
  std::string score = move.score ? fmt::format("{}/{}", move.score->toString(), move.depth) : "-";
  std::string clock = move.clockMs ? fmt::format("  clock {:.3f}s", *move.clockMs / 1000.0) : "";
  m_out << prefix
        << fmt::format("{:>7} {:<8} {:>10} {:>8.3f}s{}{}\n", label, move.san, score, move.timeUs / 1e6, clock,
                       move.ponderHit ? "  (ponderhit)" : "");
  m_out.flush();
}

void Match::worker(int id) {
  std::array<std::unique_ptr<UciEngine>, 2> engines;
  for (int s = 0; s < 2; ++s)
    engines[size_t(s)] = std::make_unique<UciEngine>(m_config.engines[size_t(s)],
                                                     fmt::format("{}#{}", m_config.engines[size_t(s)].name, id),
                                                     m_log.get());
  MoveObserver observer;
  if (m_config.showMoves) observer = [this](const GameRecord& g, const MoveRecord& m) { printMove(g, m); };

  try {
    for (;;) {
      if (m_stop) break;
      size_t next = m_nextGame.fetch_add(1);
      if (next >= m_pending.size()) break;
      int index = m_pending[next];
      int pair = m_config.repeat ? index / 2 : index;
      int openingIndex = m_order[size_t(pair) % m_order.size()];
      const Opening& opening = m_book.openings[size_t(openingIndex)];
      int whiteEngine = index % 2;

      // Start (or restart) engines that are not running.
      std::optional<GameRecord> forfeit;
      for (int s = 0; s < 2 && !forfeit; ++s) {
        UciEngine& e = *engines[size_t(s)];
        if (e.running()) continue;
        try {
          e.start(m_chess960, m_config.startTimeout);
          std::lock_guard lock(m_mutex);
          m_everStarted[size_t(s)] = true;
          m_restartFailures[size_t(s)] = 0;
          if (!m_warned[size_t(s)]) {
            m_warned[size_t(s)] = true;
            for (const auto& w : e.warnings()) {
              m_out << "warning: " << w << "\n";
              m_result.warnings.push_back(w);
            }
          }
        } catch (const Error& err) {
          int failures;
          bool ever;
          {
            std::lock_guard lock(m_mutex);
            failures = ++m_restartFailures[size_t(s)];
            ever = m_everStarted[size_t(s)];
          }
          if (!ever) return fail(err.what());
          if (failures >= m_config.maxRestartFailures)
            return fail(fmt::format("{} failed to restart {} times in a row; last error: {}", e.name(), failures,
                                    err.what()));
          // The engine cannot play this game: it loses it as a crash.
          GameRecord g;
          g.number = index + 1;
          g.whiteEngine = whiteEngine;
          g.players = {engines[size_t(whiteEngine)]->name(), engines[size_t(1 - whiteEngine)]->name()};
          g.opening = opening;
          Position start = opening.startPosition();
          g.chess960 = m_chess960 || start.isChess960();
          g.startFen = start.fen();
          Color c = s == whiteEngine ? kWhite : kBlack;
          g.result = c == kWhite ? GameResult::kBlackWins : GameResult::kWhiteWins;
          g.termination = GameEnd::kCrash;
          g.reason = fmt::format("{} crashes", c == kWhite ? "White" : "Black");
          g.incident = Incident{Incident::Kind::kCrash, s, c, g.number, start.fullmoveNumber(),
                                fmt::format("restart failed: {}", err.what())};
          for (Move m : opening.moves) {
            MoveRecord r;
            r.move = m;
            r.book = true;
            r.color = start.sideToMove();
            r.moveNumber = start.fullmoveNumber();
            r.san = toSan(start, m);
            start.makeMove(m);
            g.moves.push_back(r);
          }
          g.finalFen = start.fen();
          forfeit = std::move(g);
        }
      }
      if (forfeit) {
        gameFinished(*forfeit);
        continue;
      }
      if (m_config.showMoves) {
        std::lock_guard lock(m_mutex);
        m_out << fmt::format("\nGame {}: {} (White) vs {} (Black), opening {} of {} (line {}{})\n", index + 1,
                             engines[size_t(whiteEngine)]->name(), engines[size_t(1 - whiteEngine)]->name(),
                             openingIndex + 1, m_book.openings.size(), opening.line,
                             opening.name.empty() ? "" : ", " + opening.name);
        m_out.flush();
      }
      std::array<UciEngine*, 2> players = {engines[0].get(), engines[1].get()};
      GameRecord game = playGame(players, whiteEngine, opening, index + 1, m_settings, observer);
      gameFinished(game);
    }
  } catch (const std::exception& e) {
    fail(fmt::format("worker {}: {}", id, e.what()));
  }
  for (auto& e : engines) e->quit(std::chrono::milliseconds(1000));
}

std::string Match::progressLine(const GameRecord& g) const {
  const auto& r = m_result;
  const auto& first = m_config.engines[0].name;
  int n = r.wins + r.draws + r.losses;
  EloEstimate elo = trinomialElo(r.wins, r.draws, r.losses);
  std::string line = fmt::format("[{}/{}] Game {}: {} vs {} {} ({}) | {} +{} -{} ={} [{:.3f}] Elo {}", r.gamesPlayed,
                                 r.gamesPlanned, g.number, g.players[0], g.players[1], resultString(g.result), g.reason,
                                 first, r.wins, r.losses, r.draws, n ? (r.wins + 0.5 * r.draws) / n : 0.5,
                                 formatEloEstimate(elo));
  if (r.llr && r.sprtBounds)
    line += fmt::format(" | LLR {:.2f} [{:.2f}, {:.2f}]", *r.llr, r.sprtBounds->lower, r.sprtBounds->upper);
  double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
  int left = r.gamesPlanned - r.gamesPlayed;
  int playedNow = r.gamesPlayed - r.gamesRestored;
  if (left > 0 && playedNow > 0) line += " | ETA " + formatDuration(elapsed / playedNow * left);
  return line;
}

void Match::tally(int number, GameResult result, const std::string& reason, const std::optional<Incident>& incident) {
  auto& r = m_result;
  ++r.gamesPlayed;
  const int index = number - 1;
  const int whiteEngine = index % 2;
  double points = 0;  // of the first engine
  if (result == GameResult::kDraw) points = 0.5;
  if (result == (whiteEngine == 0 ? GameResult::kWhiteWins : GameResult::kBlackWins)) points = 1;
  if (result == GameResult::kDraw)
    ++r.draws;
  else if (points > 0.5)
    ++r.wins;
  else
    ++r.losses;
  if (result == GameResult::kWhiteWins) ++r.whiteWins;
  if (result == GameResult::kBlackWins) ++r.blackWins;
  ++r.endings[reason];
  if (incident) r.incidents.push_back(*incident);
  if (m_config.repeat) {
    int pair = index / 2;
    if (auto it = m_openPairs.find(pair); it != m_openPairs.end()) {
      ++r.pairs[size_t(pentanomialIndex(it->second, points))];
      m_openPairs.erase(it);
    } else {
      m_openPairs[pair] = points;
    }
  }
  if (m_config.sprt) {
    if (m_config.repeat) {
      r.llr = sprtLlr(r.pairs, m_config.sprt->elo0, m_config.sprt->elo1);
    } else {
      std::array<int, 3> tri = {r.losses, r.draws, r.wins};
      r.llr = sprtLlr(tri, m_config.sprt->elo0, m_config.sprt->elo1);
    }
    if (r.decision == SprtDecision::kContinue) {
      r.decision = sprtDecision(*r.llr, *r.sprtBounds);
      if (r.decision != SprtDecision::kContinue) {
        r.decisionGames = r.wins + r.draws + r.losses;
        if (!m_stop) {
          m_stop = true;
          r.stopReason = r.decision == SprtDecision::kAcceptH1 ? "SPRT: H1 accepted" : "SPRT: H0 accepted";
        }
      }
    }
  }
}

void Match::gameFinished(const GameRecord& g) {
  std::string pgnText = writePgn(toPgnGame(g, m_pgnContext));
  std::lock_guard lock(m_mutex);
  tally(g.number, g.result, g.reason, g.incident);
  for (const MoveRecord& m : g.moves) {
    const size_t slot = size_t(m.color == kWhite ? g.whiteEngine : 1 - g.whiteEngine);
    if (m.clockLeftMs) m_result.clockLeftMs[slot].push_back(*m.clockLeftMs);
    if (!m.book) m_result.moveTimeMs[slot].push_back(m.timeUs / 1000);
    if (!m.pvProblem.empty()) {
      ++m_result.pvProblems[slot];
      std::string w = fmt::format("game {}, move {}{}, {}: {}", g.number, m.moveNumber, m.color == kWhite ? "" : "...",
                                  m_config.engines[slot].name, m.pvProblem);
      m_out << "warning: " << w << "\n";
      m_result.warnings.push_back(std::move(w));
    }
  }
  if (m_pgnFile) {
    try {
      m_pgnFile->append(pgnText);
    } catch (const Error& e) {
      if (!m_fatal) m_fatal = e.what();
      m_stop = true;
    }
  }
  if (m_config.showMoves) m_out << "\n" << pgnText;
  if (!m_config.quiet) m_out << progressLine(g) << "\n";
  m_out.flush();
}

std::string formatSummary(const MatchConfig& c, const MatchResult& r) {
  std::string s;
  const std::string& a = c.engines[0].name;
  const std::string& b = c.engines[1].name;
  int n = r.wins + r.draws + r.losses;
  s += fmt::format("Match finished: {} of {} games in {}{}{}\n", r.gamesPlayed, r.gamesPlanned,
                   formatDuration(r.seconds),
                   r.gamesRestored ? fmt::format(" ({} of them restored from the PGN file by --resume)", r.gamesRestored)
                                   : "",
                   r.stopReason.empty() ? "" : " (" + r.stopReason + ")");
  s += fmt::format("Score of {} vs {}: +{} -{} ={} [{:.3f}] {}\n", a, b, r.wins, r.losses, r.draws,
                   n ? (r.wins + 0.5 * r.draws) / n : 0.5, n);
  EloEstimate tri = trinomialElo(r.wins, r.draws, r.losses);
  s += fmt::format("Elo difference: {} (95%, per game)", formatEloEstimate(tri));
  int pairCount = 0;
  for (int x : r.pairs) pairCount += x;
  if (pairCount > 0)
    s += fmt::format(", {} (95%, pentanomial over {} pairs)", formatEloEstimate(pentanomialElo(r.pairs)), pairCount);
  s += "\n";
  s += fmt::format("LOS: {:.1f}%, draw ratio: {:.1f}%, White scored {:.1f}%\n",
                   100 * likelihoodOfSuperiority(r.wins, r.losses), n ? 100.0 * r.draws / n : 0.0,
                   n ? 100.0 * (r.whiteWins + 0.5 * r.draws) / n : 50.0);
  if (pairCount > 0)
    s += fmt::format("Pentanomial [0, 0.5, 1, 1.5, 2]: [{}, {}, {}, {}, {}]\n", r.pairs[0], r.pairs[1], r.pairs[2],
                     r.pairs[3], r.pairs[4]);
  if (c.sprt && r.sprtBounds) {
    const std::string state =
        r.decision == SprtDecision::kContinue
            ? "no decision"
            : fmt::format("{} after {} games", r.decision == SprtDecision::kAcceptH1 ? "H1 accepted" : "H0 accepted",
                          r.decisionGames);
    s += fmt::format("SPRT ({} - {} Elo, alpha {}, beta {}): LLR {:.2f} [{:.2f}, {:.2f}], {}\n", c.sprt->elo0,
                     c.sprt->elo1, c.sprt->alpha, c.sprt->beta, r.llr.value_or(0.0), r.sprtBounds->lower,
                     r.sprtBounds->upper, state);
  }
  s += "Game endings:\n";
  for (const auto& [reason, count] : r.endings) s += fmt::format("  {:4}  {}\n", count, reason);
  s += "Time forfeits, illegal moves, crashes and stalls:\n";
  for (int e = 0; e < 2; ++e) {
    std::array<int, 4> counts{};
    for (const auto& i : r.incidents)
      if (i.engine == e) ++counts[size_t(i.kind)];
    int total = counts[0] + counts[1] + counts[2] + counts[3];
    if (total == 0) {
      s += fmt::format("  {}: none\n", c.engines[size_t(e)].name);
      continue;
    }
    s += fmt::format("  {}: {} time forfeit{}, {} illegal move{}, {} crash{}, {} stall{}\n", c.engines[size_t(e)].name,
                     counts[0], counts[0] == 1 ? "" : "s", counts[1], counts[1] == 1 ? "" : "s", counts[2],
                     counts[2] == 1 ? "" : "es", counts[3], counts[3] == 1 ? "" : "s");
    for (const auto& i : r.incidents)
      if (i.engine == e)
        s += fmt::format("    game {} ({}, move {}): {}: {}\n", i.game, i.color == kWhite ? "White" : "Black",
                         i.moveNumber, incidentKindName(i.kind), i.detail);
  }
  s += fmt::format("Moves whose last PV does not fit the move (fastchess's PV checks): {} {}, {} {}\n", a,
                   r.pvProblems[0], b, r.pvProblems[1]);
  // Per engine, over its moves (sorted): a heading and one line per engine with moves.
  const auto perEngine = [&](const std::array<std::vector<i64>, 2>& values, const std::string& heading,
                             const auto& line) {
    if (values[0].empty() && values[1].empty()) return;
    s += fmt::format("{}{}):\n", heading, r.gamesRestored ? ", games played since --resume" : "");
    for (int e = 0; e < 2; ++e) {
      std::vector<i64> v = values[size_t(e)];
      if (v.empty()) continue;
      std::sort(v.begin(), v.end());
      const auto at = [&](double q) { return v[std::min(v.size() - 1, size_t(q * double(v.size())))]; };
      s += fmt::format("  {}: {} ({} moves)\n", c.engines[size_t(e)].name, line(v, at), v.size());
    }
  };
  perEngine(r.clockLeftMs, "Clock left when a move arrived (ms, before the increment", [](const auto& v, const auto& at) {
    return fmt::format("min {}, 0.1% {}, 1% {}, 5% {}, median {}", v.front(), at(0.001), at(0.01), at(0.05), at(0.5));
  });
  perEngine(r.moveTimeMs, "Time per move (ms, wall clock, book moves left out", [](const auto& v, const auto& at) {
    const double mean = double(std::accumulate(v.begin(), v.end(), i64(0))) / double(v.size());
    return fmt::format("mean {:.0f}, median {}, 95% {}, max {}", mean, at(0.5), at(0.95), v.back());
  });
  if (!r.warnings.empty()) s += fmt::format("Warnings: {} (see above)\n", r.warnings.size());
  s += fmt::format("Runner CPU time: {:.2f} s for {} of wall time (engines not included)\n", r.runnerCpuSeconds,
                   formatDuration(r.seconds));
  return s;
}

}  // namespace janus::match
