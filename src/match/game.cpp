#include "match/game.h"

#include <ctime>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/movegen.h"
#include "core/notation.h"
#include "tb/tablebases.h"
#include "util/error.h"

namespace janus::match {

const char* resultString(GameResult r) {
  switch (r) {
    case GameResult::kWhiteWins: return "1-0";
    case GameResult::kBlackWins: return "0-1";
    case GameResult::kDraw: return "1/2-1/2";
    default: return "*";
  }
}

const char* terminationTag(std::optional<GameEnd> end) { return end ? pgnTerminationTag(*end) : "unterminated"; }

const char* incidentKindName(Incident::Kind k) {
  switch (k) {
    case Incident::Kind::kTimeForfeit: return "time forfeit";
    case Incident::Kind::kIllegalMove: return "illegal move";
    case Incident::Kind::kCrash: return "crash";
    default: return "stall";
  }
}

double GameRecord::pointsOf(int engine) const {
  if (result == GameResult::kDraw) return 0.5;
  if (result == GameResult::kNone) return 0;
  bool whiteWon = result == GameResult::kWhiteWins;
  return (engine == whiteEngine) == whiteWon ? 1.0 : 0.0;
}

std::optional<Adjudicator::Verdict> Adjudicator::update(Color mover, std::optional<int> moverCp, int moveNumber,
                                                        int plies) {
  std::optional<int> whitePov;
  if (moverCp) whitePov = mover == kWhite ? *moverCp : -*moverCp;

  // Resign: every move of a run of 2 * movecount plies (movecount moves of each engine) has the
  // mover's score beyond +-resignScore, all for the same side.
  if (m_config.resignMoveCount > 0) {
    int sign = !whitePov ? 0 : *whitePov >= m_config.resignScore ? 1 : *whitePov <= -m_config.resignScore ? -1 : 0;
    if (sign != 0 && sign == m_resignSign) {
      ++m_resignPlies;
    } else {
      m_resignSign = sign;
      m_resignPlies = sign != 0 ? 1 : 0;
    }
    if (m_resignPlies >= 2 * m_config.resignMoveCount)
      return Verdict{sign > 0 ? GameResult::kWhiteWins : GameResult::kBlackWins, GameEnd::kAdjudicatedWin,
                     sign > 0 ? "Adjudication: Black resigns" : "Adjudication: White resigns"};
  }
  // Draw: from move drawMoveNumber on, 2 * movecount plies in a row with |score| <= drawScore.
  if (m_config.drawMoveCount > 0) {
    bool quiet = moveNumber >= m_config.drawMoveNumber && whitePov && std::abs(*whitePov) <= m_config.drawScore;
    m_drawPlies = quiet ? m_drawPlies + 1 : 0;
    if (m_drawPlies >= 2 * m_config.drawMoveCount)
      return Verdict{GameResult::kDraw, GameEnd::kAdjudicatedDraw, "Adjudication: draw"};
  }
  if (m_config.maxMoves > 0 && plies >= 2 * m_config.maxMoves)
    return Verdict{GameResult::kDraw, GameEnd::kMaxPlies,
                   fmt::format("Adjudication: draw after {} moves (move limit)", m_config.maxMoves)};
  return std::nullopt;
}

std::string goCommand(const std::array<TimeControl, 2>& tcByColor, const std::array<i64, 2>& clockMs,
                      const std::array<int, 2>& movesToGo, Color stm, bool ponder) {
  const TimeControl& tc = tcByColor[stm];
  std::string s = ponder ? "go ponder" : "go";
  if (tc.moveTimeMs > 0) {
    s += fmt::format(" movetime {}", tc.moveTimeMs);
  } else if (tc.hasClock()) {
    for (Color c : {kWhite, kBlack})
      if (tcByColor[c].hasClock())
        s += fmt::format(" {}time {}", c == kWhite ? 'w' : 'b', std::max<i64>(clockMs[c], 1));
    for (Color c : {kWhite, kBlack})
      if (tcByColor[c].hasClock() && tcByColor[c].incrementMs > 0)
        s += fmt::format(" {}inc {}", c == kWhite ? 'w' : 'b', tcByColor[c].incrementMs);
    if (tc.movesPerPeriod > 0) s += fmt::format(" movestogo {}", movesToGo[stm]);
  }
  if (tc.nodes > 0) s += fmt::format(" nodes {}", tc.nodes);
  if (tc.playouts > 0) s += fmt::format(" playouts {}", tc.playouts);
  if (tc.depth > 0) s += fmt::format(" depth {}", tc.depth);
  if (!tc.isLimited()) s += " infinite";
  return s;
}

std::string pvProblem(const Position& pos, const std::string& bestMove, const std::vector<std::string>& pv,
                      bool chess960) {
  if (pv.empty()) return "";
  const auto shown = [&] { return fmt::format("{}", fmt::join(pv, " ")); };
  if (pv[0] != bestMove) return fmt::format("bestmove {} does not match the beginning of the last PV: {}", bestMove, shown());
  Position p = pos;
  for (size_t i = 0; i < pv.size(); ++i) {
    if (i > 0 && !hasLegalMove(p))
      return fmt::format("PV continues after {} (ply {} of: {})", p.inCheck() ? "checkmate" : "stalemate", i, shown());
    Move m;
    try {
      m = parseUci(p, pv[i], chess960);
    } catch (const Error&) {
      return fmt::format("PV move {} ({}) is illegal in {}: {}", i + 1, pv[i], p.fen(), shown());
    }
    p.makeMove(m);
  }
  return "";
}

namespace {
using Clock = std::chrono::steady_clock;

const char* colorName(Color c) { return c == kWhite ? "White" : "Black"; }

// Rules that end the game after a move (FIDE Laws 5.1, 5.2, 9.2, 9.3, 9.6; the 50-move and
// repetition draws are applied automatically, as engine matches do).
std::optional<Adjudicator::Verdict> ruleVerdict(const Position& pos) {
  const std::optional<GameEnd> end = rulesGameEnd(pos);
  if (!end) return std::nullopt;
  const Color winner = ~pos.sideToMove();
  switch (*end) {
    case GameEnd::kCheckmate:
      return Adjudicator::Verdict{winner == kWhite ? GameResult::kWhiteWins : GameResult::kBlackWins, *end,
                                  fmt::format("{} mates", colorName(winner))};
    case GameEnd::kStalemate: return Adjudicator::Verdict{GameResult::kDraw, *end, "Draw by stalemate"};
    case GameEnd::kFiftyMoves: return Adjudicator::Verdict{GameResult::kDraw, *end, "Draw by fifty moves rule"};
    case GameEnd::kRepetition: return Adjudicator::Verdict{GameResult::kDraw, *end, "Draw by 3-fold repetition"};
    default: return Adjudicator::Verdict{GameResult::kDraw, *end, "Draw by insufficient mating material"};
  }
}

// Tablebase adjudication: the game ends with the tables' value as soon as they cover the position.
std::optional<Adjudicator::Verdict> tablebaseVerdict(const Position& pos, const Tablebases* tb) {
  if (!tb || !tb->covers(pos)) return std::nullopt;
  const std::optional<TbRootVerdict> v = tb->rootVerdict(pos);
  if (!v) return std::nullopt;
  if (v->wdl == TbWdl::kDraw) return Adjudicator::Verdict{GameResult::kDraw, GameEnd::kTablebase, "Adjudication: tablebase draw"};
  const Color winner = v->wdl == TbWdl::kWin ? pos.sideToMove() : ~pos.sideToMove();
  return Adjudicator::Verdict{winner == kWhite ? GameResult::kWhiteWins : GameResult::kBlackWins, GameEnd::kTablebase,
                              fmt::format("Adjudication: tablebase win for {}", colorName(winner))};
}

std::string nowString(const char* format) {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  localtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, format, &tm);
  return buf;
}

class GamePlayer {
 public:
  GamePlayer(const std::array<UciEngine*, 2>& engines, int whiteEngine, const Opening& opening, int number,
             const GameSettings& settings, const MoveObserver& onMove)
      : m_engines(engines), m_settings(settings), m_onMove(onMove), m_adjudicator(settings.adjudication) {
    m_game.number = number;
    m_game.whiteEngine = whiteEngine;
    m_game.players = {engines[size_t(whiteEngine)]->name(), engines[size_t(1 - whiteEngine)]->name()};
    m_game.opening = opening;
    m_game.date = nowString("%Y.%m.%d");
    m_game.time = nowString("%H:%M:%S");
    m_slotOf = {whiteEngine, 1 - whiteEngine};
    for (Color c : {kWhite, kBlack}) m_tcByColor[c] = settings.timeControl[size_t(m_slotOf[c])];
  }

  GameRecord play() {
    auto start = Clock::now();
    run();
    stopPondering();
    m_game.finalFen = m_pos.fen();
    m_game.durationSeconds = std::chrono::duration<double>(Clock::now() - start).count();
    return std::move(m_game);
  }

 private:
  UciEngine& engineOf(Color c) { return *m_engines[size_t(m_slotOf[c])]; }

  void finish(GameResult r, GameEnd t, std::string reason) {
    m_game.result = r;
    m_game.termination = t;
    m_game.reason = std::move(reason);
  }

  // The engine of colour `c` lost because of `kind`.
  void lose(Color c, Incident::Kind kind, std::string reason, std::string detail) {
    GameResult r = c == kWhite ? GameResult::kBlackWins : GameResult::kWhiteWins;
    GameEnd t = kind == Incident::Kind::kTimeForfeit   ? GameEnd::kTimeForfeit
                : kind == Incident::Kind::kIllegalMove ? GameEnd::kIllegalMove
                : kind == Incident::Kind::kCrash       ? GameEnd::kCrash
                                                       : GameEnd::kStall;
    // FIDE 6.9: a flag fall is a draw if the opponent cannot mate by any series of legal moves;
    // a bare king certainly cannot.
    if (kind == Incident::Kind::kTimeForfeit && m_pos.pieces(~c) == m_pos.pieces(~c, kKing)) {
      r = GameResult::kDraw;
      reason = "Draw by timeout vs insufficient material";
    }
    finish(r, t, std::move(reason));
    m_game.incident = Incident{kind, m_slotOf[c], c, m_game.number, m_pos.fullmoveNumber(), std::move(detail)};
  }

  void crashed(Color c, UciEngine& e, std::string_view when) {
    e.quit(std::chrono::milliseconds(200));  // reaps the process for exitDescription()
    lose(c, Incident::Kind::kCrash, fmt::format("{} crashes", colorName(c)),
         fmt::format("{} {}", when, e.exitDescription()));
  }

  std::string positionCommand(const std::vector<std::string>& extra = {}) const {
    std::string s = m_startCommand;
    if (!m_uciMoves.empty() || !extra.empty()) s += " moves";
    for (const auto& m : m_uciMoves) s += " " + m;
    for (const auto& m : extra) s += " " + m;
    return s;
  }

  std::array<i64, 2> clocksMs() const { return {m_clockUs[0] / 1000, m_clockUs[1] / 1000}; }

  std::array<int, 2> movesToGo() const {
    std::array<int, 2> out{};
    for (Color c : {kWhite, kBlack})
      out[c] = m_tcByColor[c].movesPerPeriod > 0 ? m_tcByColor[c].movesPerPeriod - m_movesInPeriod[c] : 0;
    return out;
  }

  void addMove(MoveRecord rec) {
    rec.san = toSan(m_pos, rec.move);
    rec.color = m_pos.sideToMove();
    rec.moveNumber = m_pos.fullmoveNumber();
    rec.uci = toUci(rec.move, m_chess960);
    m_pos.makeMove(rec.move);
    m_uciMoves.push_back(rec.uci);
    m_game.moves.push_back(std::move(rec));
    if (m_onMove) m_onMove(m_game, m_game.moves.back());
  }

  void stopPondering() {
    for (UciEngine* e : m_engines) {
      if (e->ponderingOn.empty()) continue;
      e->ponderingOn.clear();
      if (!e->send("stop") ||
          e->waitBestMove(Clock::now() + m_settings.stopGrace).status != UciEngine::SearchResult::Status::kBestMove)
        e->kill();
    }
  }

  void run() {
    const Opening& o = m_game.opening;
    m_chess960 = m_settings.chess960 || o.chess960;
    m_game.chess960 = m_chess960;
    try {
      m_pos = Position::fromFen(o.fen.empty() ? std::string(Position::kStartFen) : o.fen, m_chess960);
    } catch (const Error& e) {
      throw Error(fmt::format("opening at line {}: {}", o.line, e.what()));
    }
    m_chess960 = m_chess960 || m_pos.isChess960();
    m_game.chess960 = m_chess960;
    m_game.startFen = m_pos.fen();
    m_startCommand = o.fen.empty() && !m_chess960 ? "position startpos" : "position fen " + m_pos.fen();
    for (Move m : o.moves) {
      MoveRecord rec;
      rec.move = m;
      rec.book = true;
      addMove(std::move(rec));
    }
    if (auto v = ruleVerdict(m_pos)) return finish(v->result, v->termination, v->reason);
    if (auto v = tablebaseVerdict(m_pos, m_settings.adjudication.tablebases))
      return finish(v->result, v->termination, v->reason);

    for (Color c : {kWhite, kBlack}) {
      UciEngine& e = engineOf(c);
      e.ponderingOn.clear();
      if (!e.running()) return crashed(c, e, "not running at the start of the game:");
      if (!e.newGame(m_settings.readyTimeout)) {
        if (!e.running()) return crashed(c, e, "exited after ucinewgame:");
        e.kill();
        return lose(c, Incident::Kind::kStall, fmt::format("{}'s connection stalls", colorName(c)),
                    fmt::format("no readyok within {} ms after ucinewgame", m_settings.readyTimeout.count()));
      }
    }
    for (Color c : {kWhite, kBlack}) m_clockUs[c] = m_tcByColor[c].baseMs * 1000;

    for (;;) {
      if (!engineMove()) return;
      if (auto v = ruleVerdict(m_pos)) return finish(v->result, v->termination, v->reason);
      if (auto v = tablebaseVerdict(m_pos, m_settings.adjudication.tablebases))
        return finish(v->result, v->termination, v->reason);
      const MoveRecord& last = m_game.moves.back();
      Color mover = ~m_pos.sideToMove();
      int moveNumber = mover == kWhite ? m_pos.fullmoveNumber() : m_pos.fullmoveNumber() - 1;
      std::optional<int> cp = last.score ? std::optional<int>(last.score->centipawns()) : std::nullopt;
      if (auto v = m_adjudicator.update(mover, cp, moveNumber, int(m_game.moves.size())))
        return finish(v->result, v->termination, v->reason);
      startPondering(mover);
    }
  }

  // After `mover`'s move: let it ponder on its predicted reply.
  void startPondering(Color mover) {
    UciEngine& e = engineOf(mover);
    if (!e.config().ponder || m_lastPonderMove.empty()) return;
    Move reply;
    try {
      reply = parseUci(m_pos, m_lastPonderMove, m_chess960);
    } catch (const Error&) {
      return;  // an illegal ponder move is not an offence; just do not ponder
    }
    std::string uci = toUci(reply, m_chess960);
    if (!e.send(positionCommand({uci})) ||
        !e.send(goCommand(m_tcByColor, clocksMs(), movesToGo(), m_pos.sideToMove(), true)))
      return;  // a dead engine is noticed on its next move
    e.ponderingOn = uci;
  }

  // Asks the side to move for a move and plays it. False when the game ended.
  bool engineMove() {
    Color stm = m_pos.sideToMove();
    UciEngine& e = engineOf(stm);
    const TimeControl& tc = m_tcByColor[stm];
    bool ponderHit = false;
    Clock::time_point t0;
    if (!e.ponderingOn.empty()) {
      std::string predicted = e.ponderingOn;
      e.ponderingOn.clear();
      if (!m_uciMoves.empty() && predicted == m_uciMoves.back()) {
        if (!e.send("ponderhit")) return crashed(stm, e, "exited while pondering:"), false;
        t0 = Clock::now();
        ponderHit = true;
      } else {
        if (!e.send("stop")) return crashed(stm, e, "exited while pondering:"), false;
        auto r = e.waitBestMove(Clock::now() + m_settings.stopGrace);
        if (r.status == UciEngine::SearchResult::Status::kEof)
          return crashed(stm, e, "exited after stop (ponder miss):"), false;
        if (r.status != UciEngine::SearchResult::Status::kBestMove) {
          e.kill();
          lose(stm, Incident::Kind::kStall, fmt::format("{}'s connection stalls", colorName(stm)),
               fmt::format("no bestmove within {} ms after stop (ponder miss)", m_settings.stopGrace.count()));
          return false;
        }
      }
    }
    if (!ponderHit) {
      if (!e.send(positionCommand()) || !e.send(goCommand(m_tcByColor, clocksMs(), movesToGo(), stm, false)))
        return crashed(stm, e, "does not read its input:"), false;
      t0 = Clock::now();
    }

    auto margin = std::chrono::duration_cast<Clock::duration>(m_settings.timeMargin);
    Clock::time_point deadline;
    if (tc.hasClock())
      deadline = t0 + std::chrono::microseconds(std::max<i64>(m_clockUs[stm], 0)) + margin;
    else
      deadline = t0 + std::chrono::milliseconds(tc.moveTimeMs) + m_settings.stallTimeout;
    auto r = e.waitBestMove(deadline);

    if (r.status == UciEngine::SearchResult::Status::kEof) return crashed(stm, e, "exited while thinking:"), false;
    if (r.status == UciEngine::SearchResult::Status::kTimeout) {
      i64 waitedMs = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0).count();
      std::string detail;
      Incident::Kind kind;
      std::string reason;
      if (tc.hasClock()) {
        kind = Incident::Kind::kTimeForfeit;
        reason = fmt::format("{} loses on time", colorName(stm));
        detail = fmt::format("no move after {} ms with {} ms on the clock: overrun {} ms or more", waitedMs,
                             m_clockUs[stm] / 1000, waitedMs - m_clockUs[stm] / 1000);
      } else {
        kind = Incident::Kind::kStall;
        reason = fmt::format("{}'s connection stalls", colorName(stm));
        detail = fmt::format("no move after {} ms", waitedMs);
      }
      if (!e.send("stop") ||
          e.waitBestMove(Clock::now() + m_settings.stopGrace).status != UciEngine::SearchResult::Status::kBestMove) {
        e.kill();
        detail += fmt::format("; no bestmove within {} ms after stop, engine killed", m_settings.stopGrace.count());
      }
      lose(stm, kind, std::move(reason), std::move(detail));
      return false;
    }

    i64 elapsedUs = std::chrono::duration_cast<std::chrono::microseconds>(r.receivedAt - t0).count();
    if (tc.hasClock()) {
      i64 before = m_clockUs[stm];
      m_clockUs[stm] -= elapsedUs;
      if (m_clockUs[stm] < -std::chrono::duration_cast<std::chrono::microseconds>(m_settings.timeMargin).count()) {
        lose(stm, Incident::Kind::kTimeForfeit, fmt::format("{} loses on time", colorName(stm)),
             fmt::format("used {:.1f} ms with {:.1f} ms on the clock: overrun {:.1f} ms (bestmove {})",
                         elapsedUs / 1000.0, before / 1000.0, (elapsedUs - before) / 1000.0, r.bestMove));
        return false;
      }
    }
    Move m;
    try {
      m = parseUci(m_pos, r.bestMove, m_chess960);
    } catch (const Error&) {
      std::string shown = r.bestMove.empty() ? std::string("(empty)") : r.bestMove;
      lose(stm, Incident::Kind::kIllegalMove, fmt::format("{} makes an illegal move: {}", colorName(stm), shown),
           fmt::format("bestmove '{}' in position {}", r.bestMove, m_pos.fen()));
      return false;
    }
    std::optional<i64> clockAfter, clockLeft;
    if (tc.hasClock()) {
      clockLeft = m_clockUs[stm] / 1000;
      m_clockUs[stm] += tc.incrementMs * 1000;
      if (tc.movesPerPeriod > 0 && ++m_movesInPeriod[stm] == tc.movesPerPeriod) {
        m_movesInPeriod[stm] = 0;
        m_clockUs[stm] += tc.baseMs * 1000;
      }
      clockAfter = m_clockUs[stm] / 1000;
    }
    MoveRecord rec;
    rec.move = m;
    rec.score = r.info.score;
    rec.depth = r.info.depth;
    rec.seldepth = r.info.seldepth;
    rec.nodes = r.info.nodes;
    rec.timeUs = elapsedUs;
    rec.clockMs = clockAfter;
    rec.clockLeftMs = clockLeft;
    rec.ponderHit = ponderHit;
    rec.pvProblem = pvProblem(m_pos, r.bestMove, r.info.pv, m_chess960);
    m_lastPonderMove = r.ponderMove;
    addMove(std::move(rec));
    return true;
  }

  std::array<UciEngine*, 2> m_engines;
  const GameSettings& m_settings;
  const MoveObserver& m_onMove;
  Adjudicator m_adjudicator;
  GameRecord m_game;
  std::array<int, 2> m_slotOf{};          // engine slot by colour
  std::array<TimeControl, 2> m_tcByColor;
  std::array<i64, 2> m_clockUs{};
  std::array<int, 2> m_movesInPeriod{};
  Position m_pos;
  bool m_chess960 = false;
  std::string m_startCommand;
  std::vector<std::string> m_uciMoves;
  std::string m_lastPonderMove;
};
}  // namespace

GameRecord playGame(const std::array<UciEngine*, 2>& engines, int whiteEngine, const Opening& opening, int number,
                    const GameSettings& settings, const MoveObserver& onMove) {
  GamePlayer player(engines, whiteEngine, opening, number, settings, onMove);
  return player.play();
}

}  // namespace janus::match
