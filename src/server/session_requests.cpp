// Session: the requests of the JSON API (new game, move, undo, resign, load, mode, analysis, hint,
// evaluate, review). Engine control is in session_engine.cpp, the state JSON in session_state.cpp.

#include <algorithm>
#include <random>
#include <string>

#include "core/movegen.h"
#include "core/notation.h"
#include "nnue/network.h"
#include "search/score.h"
#include "server/json_util.h"
#include "server/request_limits.h"
#include "server/session.h"
#include "server/session_internal.h"
#include "util/error.h"

namespace janus::server {

namespace {

/// "alphabeta-nnue", "alphabeta-hce" or "mcts" (kGameFaces); else an error naming the field.
std::string parseGameFace(const std::string& face) {
  for (const char* f : kGameFaces)
    if (face == f) return face;
  throw Error("field 'face': '" + face + "' is not an engine face; expected \"alphabeta-nnue\", \"alphabeta-hce\" or \"mcts\"");
}

Color parseColor(const std::string& s, bool allowRandom) {
  if (s == "white") return kWhite;
  if (s == "black") return kBlack;
  if (allowRandom && s == "random") return std::random_device{}() & 1 ? kWhite : kBlack;
  throw Error("field 'color': expected \"white\", \"black\"" + std::string(allowRandom ? " or \"random\"" : ""));
}

}  // namespace

const char* analysisFaceName(AnalysisFace f) {
  return f == AnalysisFace::kMcts ? "mcts" : f == AnalysisFace::kBoth ? "both" : "alphabeta";
}

AnalysisFace parseAnalysisFace(const std::string& s) {
  if (s == "alphabeta") return AnalysisFace::kAlphaBeta;
  if (s == "mcts") return AnalysisFace::kMcts;
  if (s == "both") return AnalysisFace::kBoth;
  throw Error("field 'face': '" + s + "' is not an analysis face; expected \"alphabeta\", \"mcts\" or \"both\"");
}

// ---- Requests -----------------------------------------------------------------------------------

Json Session::newGame(const Json& req) {
  touch();
  Color human = parseColor(stringField(req, "color", 10, "white"), true);
  int level = int(intField(req, "level", 1, kLevelCount, kDefaultLevel));
  i64 moveTimeMs = intField(req, "moveTimeMs", 0, 60000, 0);
  if (moveTimeMs != 0 && moveTimeMs < 50) throw Error("field 'moveTimeMs': expected 0 (use the level) or 50..60000");
  bool clockOn = false;
  i64 initialMs = 0, incMs = 0;
  if (const Json* c = field(req, "clock")) {
    if (!c->is_object()) throw Error("field 'clock': expected {\"minutes\": m, \"increment\": s} or null");
    initialMs = i64(numberField(*c, "minutes", 0.01, 180, 5) * 60000);
    incMs = i64(numberField(*c, "increment", 0, 60, 0) * 1000);
    clockOn = true;
  }
  const bool haveNet = nnue::defaultNetwork() != nullptr;
  const std::string face = parseGameFace(stringField(req, "face", 40, haveNet ? "alphabeta-nnue" : "alphabeta-hce"));
  if (face == "alphabeta-nnue" && !haveNet)
    throw Error("field 'face': 'alphabeta-nnue' is not available: this build embeds no NNUE network");
  const bool mcts = face == "mcts";
  int elo = 0, playouts = 0;
  if (mcts) {
    // MCTS plays by playouts or time; Elo levels and depth levels are alpha-beta's.
    for (const char* f : {"elo", "level"})
      if (field(req, f))
        throw Error(std::string("field '") + f + "': applies to the alpha-beta faces only; MCTS plays by 'playouts' or 'moveTimeMs'");
    if (field(req, "playouts")) {
      if (moveTimeMs > 0) throw Error("field 'playouts': give 'playouts' or 'moveTimeMs', not both");
      playouts = int(intField(req, "playouts", kMinMctsPlayouts, kMaxMctsPlayouts, std::nullopt));
    } else if (moveTimeMs == 0) {
      playouts = kDefaultMctsPlayouts;  // no strength named: the default strength (session.h)
    }
  } else if (field(req, "playouts")) {
    throw Error("field 'playouts': applies to the MCTS face only (\"face\": \"mcts\")");
  } else if (field(req, "elo")) {
    if (!m_engine->options().contains("UCI_Elo"))
      throw Error("Elo levels are not available yet (the engine has no UCI_Elo option); use 'level'");
    const OptionSpec& spec = m_engine->options().spec("UCI_Elo");
    elo = int(intField(req, "elo", spec.min, spec.max, std::nullopt));
  } else if (!field(req, "level") && moveTimeMs == 0 && m_engine->options().contains("UCI_Elo")) {
    elo = kDefaultElo;  // no strength named: the default strength (session.h)
  }
  std::string fen = stringField(req, "fen", 200, "startpos");
  Game game;
  game.reset(fen);  // throws on a bad FEN before anything changes

  cancelReview();
  std::lock_guard engineLock(m_engineMutex);
  // A game against MCTS needs its tree from the memory budget: 503 before anything changes.
  if (std::string why; mcts && !reserveMctsLocked(why)) throw HttpError(503, why);
  stopSearchLocked();
  dropSecondEngineLocked();
  // Alpha-beta also serves MCTS games (hints, E, review): with the network when there is one.
  m_engine->setOption("Use NNUE", face == "alphabeta-nnue" || (mcts && haveNet) ? "true" : "false");
  selectSearchLocked(*m_engine, mcts);  // a bad MCTS network shows here, before the game changes
  m_engine->newGame();
  {
    std::lock_guard lock(m_stateMutex);
    m_game = std::move(game);
    m_mode = Mode::kPlay;
    m_human = human;
    m_level = level;
    m_moveTimeMs = moveTimeMs;
    m_elo = elo;
    m_playouts = playouts;
    m_face = face;
    m_analysisOn = false;
    m_clock = ClockState{};
    m_clock.enabled = clockOn;
    m_clock.initialMs = initialMs;
    m_clock.incMs = incMs;
    m_gameFile.clear();
    m_lastError.clear();
    std::string janus = janusNameLocked();
    m_game.tags = {{"Event", "Janus GUI game"},
                   {"Site", "Janus web GUI"},
                   {"Date", localTimeStamp(true)},
                   {"White", human == kWhite ? "Player" : janus},
                   {"Black", human == kBlack ? "Player" : janus}};
    if (clockOn) m_game.tags.emplace_back("TimeControl", std::to_string(initialMs / 1000) + "+" + std::to_string(incMs / 1000));
    resetPerGameLocked();
    startClocksLocked();
    afterGameChangeLocked();
  }
  startEngineMoveIfDueLocked();
  trySave();
  return stateJson();
}

Json Session::move(const Json& req) {
  touch();
  std::string uci = stringField(req, "uci", 8, std::nullopt);
  std::optional<int> ply;
  if (field(req, "ply")) ply = int(intField(req, "ply", 0, 100000, std::nullopt));
  bool analysisMode;
  {
    std::lock_guard lock(m_stateMutex);
    analysisMode = m_mode == Mode::kAnalysis;
    int at = ply.value_or(m_game.ply());
    if (at < 0 || at > m_game.ply()) throw Error("field 'ply': " + std::to_string(at) + " is out of range 0.." + std::to_string(m_game.ply()));
    if (at >= kMaxGamePlies)
      throw Error("the game has " + std::to_string(at) + " plies, the most a GUI game may hold; start a new game");
    if (!analysisMode) {
      if (at != m_game.ply()) throw Error("in play mode moves are played at the end of the game");
      if (m_game.over()) throw Error("the game is over (" + m_game.result() + ")");
      if (m_game.position().sideToMove() != m_human) throw Error("it is not your turn: Janus is thinking");
    }
    Position pos = m_game.positionAt(at);
    if (analysisMode && at == m_game.ply() && m_game.overByRules())
      throw Error("the game is over (" + m_game.result() + ")");
    (void)parseUci(pos, uci, pos.isChess960());  // validate before anything is stopped
  }
  if (analysisMode) cancelReview();
  std::lock_guard engineLock(m_engineMutex);
  stopSearchLocked();
  {
    std::lock_guard lock(m_stateMutex);
    if (analysisMode) {
      int at = ply.value_or(m_game.ply());
      if (at < m_game.ply()) {
        m_game.truncate(at);
        m_review = ReviewState{};
      }
      if (m_game.over()) m_game.undo(0);  // lift a resignation/time result to go on analysing
      m_analysisPly.reset();
    }
    Color mover = m_game.position().sideToMove();
    if (chargeClockLocked(mover)) m_game.play(uci);
    afterGameChangeLocked();
  }
  return resumeAfterChangeLocked(analysisMode);
}

Json Session::resumeAfterChangeLocked(bool analysis) {
  if (analysis)
    startAnalysisLocked();
  else
    startEngineMoveIfDueLocked();
  trySave();
  return stateJson();
}

Json Session::undo() {
  touch();
  cancelReview();
  std::lock_guard engineLock(m_engineMutex);
  stopSearchLocked();
  {
    std::lock_guard lock(m_stateMutex);
    if (m_game.ply() == 0 && !m_game.over()) throw Error("there is no move to take back");
    if (m_mode == Mode::kAnalysis) {
      m_game.undo(1);
    } else {
      m_game.undo(1);
      while (m_game.ply() > 0 && m_game.position().sideToMove() != m_human) m_game.undo(1);
    }
    m_review = ReviewState{};
    m_analysisPly.reset();
    m_clock.turnStart = Clock::now();
    m_clock.running = m_clock.enabled && !m_game.over();
    afterGameChangeLocked();
  }
  return resumeAfterChangeLocked(m_mode == Mode::kAnalysis);
}

Json Session::resign() {
  touch();
  std::lock_guard engineLock(m_engineMutex);
  {
    std::lock_guard lock(m_stateMutex);
    if (m_mode != Mode::kPlay) throw Error("resigning is for games in play mode");
    if (m_game.over()) throw Error("the game is over (" + m_game.result() + ")");
  }
  stopSearchLocked();
  {
    std::lock_guard lock(m_stateMutex);
    if (m_gameFile.empty()) m_gameFile = m_storage.newGameFileName(m_id);
    m_game.resign(m_human);
    afterGameChangeLocked();
  }
  trySave();
  return stateJson();
}

Json Session::load(const Json& req) {
  touch();
  Game game;
  if (const Json* p = field(req, "pgn")) {
    if (p->is_string()) checkPgnSize(p->get_ref<const std::string&>());  // 413 naming the PGN's limit
    const int index = int(intField(req, "game", 0, 100000, 0));
    game.loadPgn(stringField(req, "pgn", kMaxPgnBytes, std::nullopt), index);
  } else if (field(req, "fen")) {
    if (field(req, "game")) throw Error("field 'game': applies to a 'pgn' only");
    game.reset(stringField(req, "fen", 200, std::nullopt));
  } else {
    throw Error("expected a field 'fen' or 'pgn'");
  }
  std::optional<Mode> mode;
  if (field(req, "mode")) mode = parseMode(stringField(req, "mode", 10, std::nullopt));
  // Everything is checked: from here on the load happens (the mode first, so that a game loaded
  // into analysis does not get Janus's reply in play mode).
  cancelReview();
  std::lock_guard engineLock(m_engineMutex);
  stopSearchLocked();
  m_engine->newGame();
  if (mode == Mode::kPlay) dropSecondEngineLocked();
  {
    std::lock_guard lock(m_stateMutex);
    if (mode) setModeLocked(*mode, std::nullopt);
    auto tags = game.tags;
    if (tags.empty())
      tags = {{"Event", "Janus GUI game"}, {"Site", "Janus web GUI"}, {"Date", localTimeStamp(true)},
              {"White", m_human == kWhite ? "Player" : "Janus"}, {"Black", m_human == kBlack ? "Player" : "Janus"}};
    m_game = std::move(game);
    m_game.tags = tags;
    m_clock = ClockState{};
    m_gameFile.clear();
    m_lastError.clear();
    resetPerGameLocked();
    afterGameChangeLocked();
  }
  return resumeAfterChangeLocked(m_mode == Mode::kAnalysis);
}

Session::Mode Session::parseMode(const std::string& mode) {
  if (mode == "play") return Mode::kPlay;
  if (mode == "analysis") return Mode::kAnalysis;
  throw Error("field 'mode': expected \"play\" or \"analysis\"");
}

void Session::setModeLocked(Mode mode, std::optional<Color> human) {
  m_mode = mode;
  if (human) m_human = *human;
  if (m_mode == Mode::kPlay) {
    m_analysisOn = false;
    m_clock.enabled = false;  // clocks belong to games started with New game
    m_clock.running = false;
    m_game.tags.erase(std::remove_if(m_game.tags.begin(), m_game.tags.end(),
                                     [](const auto& t) { return t.first == "White" || t.first == "Black"; }),
                      m_game.tags.end());
    std::string janus = janusNameLocked();
    m_game.tags.emplace_back("White", m_human == kWhite ? "Player" : janus);
    m_game.tags.emplace_back("Black", m_human == kBlack ? "Player" : janus);
  } else {
    m_clock.running = false;
  }
}

Json Session::setMode(const Json& req) {
  touch();
  const Mode mode = parseMode(stringField(req, "mode", 10, std::nullopt));
  std::optional<Color> color;
  if (field(req, "color")) color = parseColor(stringField(req, "color", 10, std::nullopt), false);
  cancelReview();
  std::lock_guard engineLock(m_engineMutex);
  stopSearchLocked();
  if (mode == Mode::kPlay) dropSecondEngineLocked();
  {
    std::lock_guard lock(m_stateMutex);
    setModeLocked(mode, color);
    afterGameChangeLocked();
  }
  if (m_mode == Mode::kPlay) startEngineMoveIfDueLocked();
  trySave();
  return stateJson();
}

Json Session::analysis(const Json& req) {
  touch();
  bool on = boolField(req, "on", true);
  int multiPv;
  {
    std::lock_guard lock(m_stateMutex);
    multiPv = int(intField(req, "multiPv", 1, 5, m_multiPv));
  }
  std::optional<int> ply;
  if (field(req, "ply")) ply = int(intField(req, "ply", 0, 100000, std::nullopt));
  std::optional<AnalysisFace> face;
  if (field(req, "face")) face = parseAnalysisFace(stringField(req, "face", 20, std::nullopt));
  {
    std::lock_guard lock(m_stateMutex);
    if (on && m_mode != Mode::kAnalysis) throw Error("analysis needs analysis mode (switch with mode: \"analysis\")");
    if (ply && *ply > m_game.ply()) throw Error("field 'ply': " + std::to_string(*ply) + " is out of range 0.." + std::to_string(m_game.ply()));
    if (on && m_review.running) throw Error("a game review is running; wait until it has finished");
  }
  std::lock_guard engineLock(m_engineMutex);
  if (on) {
    // The memory the face needs, from the budget: 503 before the running analysis is touched.
    AnalysisFace wanted;
    {
      std::lock_guard lock(m_stateMutex);
      wanted = face.value_or(m_analysisFace);
    }
    std::string why;
    if (wanted != AnalysisFace::kAlphaBeta && !reserveMctsLocked(why)) throw HttpError(503, why);
    if (wanted == AnalysisFace::kBoth && !reserveSecondEngineLocked(why)) throw HttpError(503, why);
  }
  stopSearchLocked();
  bool both;
  {
    std::lock_guard lock(m_stateMutex);
    if (face) m_analysisFace = *face;
    both = m_analysisFace == AnalysisFace::kBoth;
  }
  if (!on || !both) dropSecondEngineLocked();  // startAnalysisLocked makes it when needed
  {
    std::lock_guard lock(m_stateMutex);
    m_analysisOn = on;
    m_multiPv = multiPv;
    m_analysisPly = ply;
    ++m_stateVersion;
    pushStateLocked();
  }
  startAnalysisLocked();
  return stateJson();
}

Json Session::hint() {
  touch();
  Position pos;
  int ply;
  bool analysisWasOn;
  {
    std::lock_guard lock(m_stateMutex);
    if (m_game.over()) throw Error("the game is over (" + m_game.result() + ")");
    if (engineToMoveLocked()) throw Error("it is Janus's turn; a hint is for your own move");
    if (m_review.running) throw Error("a game review is running; wait until it has finished");
    pos = m_game.position();
    ply = m_game.ply();
    analysisWasOn = m_analysisOn && m_mode == Mode::kAnalysis;
  }
  std::lock_guard engineLock(m_engineMutex);
  stopSearchLocked();
  SearchLimits limits;
  limits.depth = m_config.hintDepth;
  limits.moveTime = m_config.hintMoveTimeMs;
  SearchResult r = searchSyncLocked(Kind::kHint, pos, limits);
  if (analysisWasOn) startAnalysisLocked();
  if (!r.best || !pos.isLegal(r.best)) throw Error("no hint: the engine found no move");
  {
    std::lock_guard lock(m_stateMutex);
    if (m_game.ply() == ply) {
      EvalPoint& e = m_evals[ply];
      if (r.depth >= e.depth) {
        e.whiteCp = clampedWhite(r.score, pos.sideToMove());
        e.mate.reset();
        if (isMateScore(r.score))
          e.mate = pos.sideToMove() == kWhite ? mateInMoves(r.score) : -mateInMoves(r.score);
        e.depth = r.depth;
      }
    }
  }
  return {{"uci", toUci(r.best, pos.isChess960())},
          {"san", toSan(pos, r.best)},
          {"score", scoreWithTablebase(r.score, pos, r.best)},
          {"depth", r.depth},
          {"ply", ply}};
}

Json Session::evaluate(const Json& req) {
  touch();
  Position pos;
  int ply;
  bool busy;
  bool reviewRunning;
  Json score = nullptr;
  int depth = 0;
  {
    std::lock_guard lock(m_stateMutex);
    ply = int(intField(req, "ply", 0, m_game.ply(), m_game.ply()));
    pos = m_game.positionAt(ply);
    reviewRunning = m_review.running;
    busy = m_thinking || (m_kind == Kind::kAnalysis);
    if (busy && m_lastInfo && m_searchPly == ply) {
      score = scoreWithTablebase(m_lastInfo->score, m_searchRoot, m_lastInfo->pv.empty() ? Move::none() : m_lastInfo->pv.front());
      depth = m_lastInfo->depth;
    } else if (auto it = m_evals.find(ply); (busy || reviewRunning) && it != m_evals.end()) {
      score = it->second.mate ? Json{{"mate", *it->second.mate}} : Json{{"cp", it->second.whiteCp}};
      depth = it->second.depth;
    }
  }
  if (!busy && !reviewRunning && hasLegalMove(pos)) {
    std::lock_guard engineLock(m_engineMutex);
    SearchLimits limits;
    limits.depth = m_config.evalDepth;
    limits.moveTime = m_config.evalMoveTimeMs;
    {
      std::lock_guard lock(m_stateMutex);
      busy = m_thinking || m_kind != Kind::kNone;  // something started meanwhile
    }
    if (!busy) {
      SearchResult r = searchSyncLocked(Kind::kEvaluate, pos, limits);
      score = scoreWithTablebase(r.score, pos, Move::none());
      depth = r.depth;
      std::lock_guard lock(m_stateMutex);
      if (ply <= m_game.ply() && m_game.positionAt(ply).key() == pos.key()) {
        EvalPoint& e = m_evals[ply];
        if (r.depth >= e.depth) {
          e.whiteCp = clampedWhite(r.score, pos.sideToMove());
          e.mate.reset();
          if (isMateScore(r.score))
            e.mate = pos.sideToMove() == kWhite ? mateInMoves(r.score) : -mateInMoves(r.score);
          e.depth = r.depth;
        }
      }
    }
  } else if (!hasLegalMove(pos)) {
    score = isCheckmate(pos) ? Json{{"mate", 0}, {"mated", colorName(pos.sideToMove())}} : Json{{"cp", 0}};
  }
  return {{"ply", ply}, {"fen", pos.fen()}, {"score", score}, {"depth", depth}, {"static", staticEvalJson(pos)}};
}

Json Session::review(const Json& req) {
  touch();
  int depth = int(intField(req, "depth", 1, 20, 10));
  i64 moveTimeMs = intField(req, "moveTimeMs", 10, 5000, 1000);
  std::vector<Position> positions;
  std::vector<Move> moves;
  {
    std::lock_guard lock(m_stateMutex);
    if (m_mode == Mode::kPlay && !m_game.over())
      throw Error("the review is for a finished game or analysis mode");
    if (m_game.ply() == 0) throw Error("there is no move to review");
    if (m_review.running) return stateLocked();
    Position p = m_game.startPosition();
    positions.push_back(p);
    for (Move m : m_game.moves()) {
      p.makeMove(m);
      positions.push_back(p);
    }
    moves = m_game.moves();
  }
  std::lock_guard reviewLock(m_reviewMutex);
  m_reviewCancel = true;
  if (m_reviewThread.joinable()) {
    m_engine->stop();
    m_reviewThread.join();
  }
  m_reviewCancel = false;
  {
    std::lock_guard engineLock(m_engineMutex);
    stopSearchLocked();
    dropSecondEngineLocked();
    std::lock_guard lock(m_stateMutex);
    m_analysisOn = false;
    m_review = ReviewState{};
    m_review.running = true;
    m_review.total = int(positions.size());
    ++m_stateVersion;
    pushStateLocked();
  }
  m_reviewThread = std::thread([this, positions = std::move(positions), moves = std::move(moves), depth, moveTimeMs] {
    const int n = int(positions.size());
    std::vector<int> white(n, 0);        // clamped centipawns, White's view
    std::vector<Move> best(n, Move::none());
    for (int i = 0; i < n && !m_reviewCancel; ++i) {
      const Position& pos = positions[i];
      if (!hasLegalMove(pos)) {
        white[i] = isCheckmate(pos) ? (pos.sideToMove() == kWhite ? -kReviewClampCp : kReviewClampCp) : 0;
      } else if (pos.isInsufficientMaterial() || pos.isRepetition(2) || pos.isFiftyMoveDraw()) {
        white[i] = 0;
      } else {
        std::lock_guard engineLock(m_engineMutex);
        if (m_reviewCancel) break;
        SearchLimits limits;
        limits.depth = depth;
        limits.moveTime = moveTimeMs;
        SearchResult r = searchSyncLocked(Kind::kReview, pos, limits);
        white[i] = clampedWhite(r.score, pos.sideToMove());
        best[i] = r.best;
        std::lock_guard lock(m_stateMutex);
        EvalPoint& e = m_evals[i];
        e.mate.reset();
        if (isMateScore(r.score)) e.mate = pos.sideToMove() == kWhite ? mateInMoves(r.score) : -mateInMoves(r.score);
        e.depth = r.depth;
      }
      std::lock_guard lock(m_stateMutex);
      m_evals[i].whiteCp = white[i];
      if (!hasLegalMove(pos) && isCheckmate(pos)) m_evals[i].mate = 0;
      m_review.done = i + 1;
      m_events.push("review", dumpJson(Json{{"done", i + 1}, {"total", n}, {"ply", i}, {"cp", white[i]}}));
    }
    std::lock_guard lock(m_stateMutex);
    m_review.running = false;
    if (!m_reviewCancel) {
      // Centipawn loss of move i: best evaluation before it minus the evaluation after it, both
      // from the mover's view and clamped to +-kReviewClampCp; 0 if it was the engine's choice.
      for (int i = 0; i + 1 < n; ++i) {
        Color mover = positions[i].sideToMove();
        int before = mover == kWhite ? white[i] : -white[i];
        int after = mover == kWhite ? white[i + 1] : -white[i + 1];
        ReviewMove rm;
        rm.cpLoss = moves[i] == best[i] ? 0 : std::max(0, before - after);
        rm.judgement = rm.cpLoss >= kBlunderCp ? "blunder" : rm.cpLoss >= kMistakeCp ? "mistake"
                     : rm.cpLoss >= kInaccuracyCp ? "inaccuracy" : "";
        if (best[i] && positions[i].isLegal(best[i])) rm.bestSan = toSan(positions[i], best[i]);
        m_review.moves.push_back(rm);
      }
      m_review.finished = true;
    }
    ++m_stateVersion;
    pushStateLocked();
  });
  return stateJson();
}

}  // namespace janus::server
