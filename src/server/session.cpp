#include "server/session.h"

#include <algorithm>
#include <random>
#include <sstream>

#include "core/movegen.h"
#include "core/notation.h"
#include "eval/hce.h"
#include "nnue/nnue_evaluator.h"
#include "eval/trace.h"
#include "mcts/mcts.h"
#include "search/score.h"
#include "server/json_util.h"
#include "util/error.h"

namespace janus::server {

namespace {

const char* colorName(Color c) { return c == kWhite ? "white" : "black"; }

/// Centipawns from White's view, mates clamped (for graphs and the review).
int clampedWhite(int score, Color stm) {
  int white = stm == kWhite ? score : -score;
  if (isMateScore(score)) return white > 0 ? kReviewClampCp : -kReviewClampCp;
  return std::clamp(white, -kReviewClampCp, kReviewClampCp);
}

Json taperedJson(TaperedScore s, int phase) { return {{"mg", s.mg()}, {"eg", s.eg()}, {"cp", taper(s, phase)}}; }

/// The built-in NNUE network's static evaluation ({"whiteCp", "network", "loneKing"}), or null
/// when the binary embeds no network. loneKing: a side has only its king, where the NNUE
/// evaluator hands over to the hand-crafted evaluation (NnueEvaluator::loneKing), so whiteCp is
/// that evaluation's.
Json nnueEvalJson(const Position& pos) {
  auto net = nnue::defaultNetwork();
  if (!net) return nullptr;
  const int stm = nnue::NnueEvaluator(net).evaluateFromScratch(pos);
  return {{"whiteCp", pos.sideToMove() == kWhite ? stm : -stm},
          {"network", net->describe()},
          {"loneKing", nnue::NnueEvaluator::loneKing(pos)}};
}

/// The hand-crafted evaluation term by term (eval/trace.h EvalBreakdown), as JSON.
Json staticEvalJson(const Position& pos) {
  const EvalWeights& w = EvalWeights::defaults();
  HceEvaluator hce(w, 0);
  const EvalBreakdown b = evaluateTrace(hce.trace(pos), w);
  Json terms = Json::array();
  for (int g = 0; g < kTermGroupCount; ++g) {
    TaperedScore white = b.term[g][kWhite], black = b.term[g][kBlack];
    terms.push_back({{"term", std::string(termGroupName(TermGroup(g)))},
                     {"white", taperedJson(white, b.phase)},
                     {"black", taperedJson(black, b.phase)},
                     {"total", taperedJson(white - black, b.phase)}});
  }
  return {{"terms", terms},
          {"phase", b.phase},
          {"phaseMax", kPhaseMax},
          {"scale", b.scale},
          {"scaleNormal", kScaleNormal},
          {"kingAttackUnits",
           {{"white", {{"mg", b.units[kWhite].mg()}, {"eg", b.units[kWhite].eg()}}},
            {"black", {{"mg", b.units[kBlack].mg()}, {"eg", b.units[kBlack].eg()}}}}},
          {"whiteCp", b.white},
          {"sideToMoveCp", b.sideToMove},
          {"nnue", nnueEvalJson(pos)}};
}

/// SAN of a principal variation from `root`; stops at the first move that is not legal.
std::vector<std::string> pvSan(Position pos, const std::vector<Move>& pv) {
  std::vector<std::string> out;
  for (Move m : pv) {
    if (!pos.isLegal(m)) break;
    out.push_back(toSan(pos, m));
    pos.makeMove(m);
  }
  return out;
}

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

Session::Session(std::string id, const SessionConfig& config, Storage& storage)
    : m_id(std::move(id)), m_config(config), m_storage(storage) {
  touch();
  m_engine = makeEngine(false);
  std::lock_guard lock(m_stateMutex);
  m_face = nnue::defaultNetwork() ? "alphabeta-nnue" : "alphabeta-hce";  // what the engine uses at first
  if (m_engine->options().contains("UCI_Elo")) m_elo = kDefaultElo;  // the default strength (session.h)
  resetPerGameLocked();
  m_game.tags = {{"Event", "Janus GUI game"}, {"Site", "Janus web GUI"}, {"Date", localTimeStamp(true)},
                 {"White", "Player"}, {"Black", janusNameLocked()}};
}

std::unique_ptr<Engine> Session::makeEngine(bool second) {
  auto engine = std::make_unique<Engine>();
  engine->setOption("Hash", std::to_string(m_config.hashMiB));
  // The MCTS face's memory, bounded per engine like the hash (the engine's defaults are sized
  // for a UCI engine that has the machine to itself: a 1 GiB tree).
  engine->setOption("MCTS Tree MiB", std::to_string(m_config.mctsTreeMiB));
  engine->setOption("MCTS Cache", std::to_string(m_config.mctsCacheEntries));
  if (second) {
    engine->setOption("Use NNUE", m_engine->options().value("Use NNUE"));
    engine->onInfo([this](const SearchInfo& info) { onInfo(info, true); });
    // Its searches are infinite analyses: the bestmove after stop carries nothing to act on.
  } else {
    engine->onInfo([this](const SearchInfo& info) { onInfo(info, false); });
    engine->onBestMove([this](const SearchResult& r) { onBestMove(r); });
  }
  return engine;
}

void Session::selectSearchLocked(Engine& engine, bool mcts) {
  engine.setOption("Search", mcts ? "mcts" : "alphabeta");
  if (mcts::MctsSearch* search = engine.mctsSearch(); mcts && search) {
    mcts::MctsParams p = search->params();
    p.moveStats = kMaxMoves;  // every root move: the table's shares are of all the root's visits
    search->setParams(p);
  }
}

void Session::dropSecondEngineLocked() {
  if (!m_secondEngine) return;
  m_secondEngine->stop();
  m_secondEngine->wait();
  m_secondEngine.reset();
}

std::string Session::janusNameLocked() const {
  if (m_playouts > 0) return "Janus MCTS (" + std::to_string(m_playouts) + " playouts)";
  if (m_elo > 0) return "Janus (Elo " + std::to_string(m_elo) + ")";
  if (m_moveTimeMs > 0) return "Janus (" + std::to_string(m_moveTimeMs) + " ms/move)";
  return "Janus level " + std::to_string(m_level);
}

Session::~Session() { close(); }

void Session::close() {
  if (m_closed.exchange(true)) return;
  m_events.close();
  cancelReview();
  {
    std::lock_guard engineLock(m_engineMutex);
    stopSearchLocked();
  }
  std::string pgn, file;
  {
    std::lock_guard lock(m_stateMutex);
    if (m_game.ply() == 0 || m_gameFile.empty()) return;
    pgn = m_game.pgn();
    file = m_gameFile;
  }
  try {
    std::lock_guard saveLock(m_saveMutex);
    m_storage.saveGame(file, pgn);
  } catch (const Error&) {
    // Nothing more can be done for a session that is going away; the previous save stays.
  }
}

// ---- Engine control -------------------------------------------------------------------------------

void Session::stopSearchLocked() {
  {
    // Whatever the running search reports from now on is stale: the callbacks ignore results
    // while m_kind is kNone and m_thinking is false.
    std::lock_guard lock(m_stateMutex);
    m_kind = Kind::kNone;
    m_thinking = false;
  }
  m_engine->stop();
  if (m_secondEngine) m_secondEngine->stop();
  m_engine->wait();
  if (m_secondEngine) m_secondEngine->wait();
  std::lock_guard lock(m_stateMutex);
  m_kind = Kind::kNone;
  m_searchBoth = false;
}

void Session::cancelReview() {
  std::lock_guard reviewLock(m_reviewMutex);
  m_reviewCancel = true;
  if (m_reviewThread.joinable()) {
    m_engine->stop();  // non-blocking; ends the review's current search early
    m_reviewThread.join();
  }
  m_reviewCancel = false;
}

bool Session::engineToMoveLocked() const {
  return m_mode == Mode::kPlay && !m_game.over() && m_game.position().sideToMove() != m_human;
}

void Session::startEngineMoveIfDueLocked() {
  SearchLimits limits;
  Position root;
  bool mcts;
  {
    std::lock_guard lock(m_stateMutex);
    if (m_closed || !engineToMoveLocked() || m_thinking) return;
    const Level& lvl = kLevels[m_level - 1];
    mcts = m_face == "mcts";
    // Strength: MCTS plays by playouts per move (limits.nodes counts playouts) or by time; with
    // an Elo (UCI_LimitStrength + UCI_Elo, engine/strength.h) the engine's node
    // budget for that rating ends the search, and a time cap only guards against slow machines;
    // otherwise the level's depth and time caps apply. A clock or a fixed time per move replaces
    // the time cap.
    if (m_clock.enabled) {
      limits.time[kWhite] = std::max<i64>(0, remainingLocked(kWhite));
      limits.time[kBlack] = std::max<i64>(0, remainingLocked(kBlack));
      limits.inc[kWhite] = limits.inc[kBlack] = m_clock.incMs;
      if (mcts) limits.nodes = u64(m_playouts);
      else if (m_elo == 0) limits.depth = lvl.depth;
    } else if (m_moveTimeMs > 0) {
      limits.moveTime = m_moveTimeMs;
    } else if (mcts) {
      limits.nodes = u64(m_playouts);
      limits.moveTime = kEloMoveTimeCapMs;  // a guard against slow machines, as for an Elo
    } else if (m_elo > 0) {
      limits.moveTime = kEloMoveTimeCapMs;
    } else {
      limits.depth = lvl.depth;
      limits.moveTime = lvl.moveTimeMs;
    }
    m_kind = Kind::kEngineMove;
    m_searchPly = m_game.ply();
    m_searchRoot = m_game.position();
    m_lastInfo.reset();
    m_thinking = true;
    m_searchMcts = mcts;
    root = m_searchRoot;
  }
  selectSearchLocked(*m_engine, mcts);
  if (!mcts && m_elo > 0 && m_engine->options().contains("UCI_Elo")) {
    m_engine->setOption("UCI_LimitStrength", "true");
    m_engine->setOption("UCI_Elo", std::to_string(m_elo));
  } else if (m_engine->options().contains("UCI_LimitStrength")) {
    m_engine->setOption("UCI_LimitStrength", "false");
  }
  m_engine->setOption("MultiPV", "1");
  m_engine->setPosition(root);
  m_engine->go(limits);
}

void Session::startAnalysisLocked() {
  Position root;
  int multiPv = 1;
  AnalysisFace face;
  {
    std::lock_guard lock(m_stateMutex);
    if (m_closed || !m_analysisOn || m_mode != Mode::kAnalysis) return;
    int ply = std::min(m_analysisPly.value_or(m_game.ply()), m_game.ply());
    root = m_game.positionAt(ply);
    if (!hasLegalMove(root)) return;
    face = m_analysisFace;
    m_kind = Kind::kAnalysis;
    m_searchPly = ply;
    m_searchRoot = root;
    m_lastInfo.reset();
    m_searchMcts = face != AnalysisFace::kAlphaBeta;
    m_searchBoth = face == AnalysisFace::kBoth;
    multiPv = m_multiPv;
  }
  // The session's engine runs the selected face; with "both" it runs MCTS and a second engine
  // (created now, freed when the face changes) runs alpha-beta: a second alpha-beta engine costs
  // a hash table and the search's tables, a second MCTS engine those and a tree as well.
  const bool mcts = face != AnalysisFace::kAlphaBeta;
  if (face == AnalysisFace::kBoth && !m_secondEngine) m_secondEngine = makeEngine(true);
  if (face != AnalysisFace::kBoth) dropSecondEngineLocked();
  SearchLimits limits;
  limits.infinite = true;
  selectSearchLocked(*m_engine, mcts);
  if (m_engine->options().contains("UCI_LimitStrength")) m_engine->setOption("UCI_LimitStrength", "false");
  m_engine->setOption("MultiPV", std::to_string(mcts ? kMctsTableRows : multiPv));
  m_engine->setPosition(root);
  m_engine->go(limits);
  if (m_secondEngine) {
    m_secondEngine->setOption("Use NNUE", m_engine->options().value("Use NNUE"));
    m_secondEngine->setOption("MultiPV", std::to_string(multiPv));
    m_secondEngine->setPosition(root);
    m_secondEngine->go(limits);
  }
}

SearchResult Session::searchSyncLocked(Kind kind, const Position& pos, const SearchLimits& limits) {
  {
    std::lock_guard lock(m_stateMutex);
    m_kind = kind;
    m_searchRoot = pos;
    m_syncResult = SearchResult{};
    m_lastInfo.reset();
    m_searchMcts = false;
  }
  selectSearchLocked(*m_engine, false);  // hints, E and the review: alpha-beta at full strength
  if (m_engine->options().contains("UCI_LimitStrength")) m_engine->setOption("UCI_LimitStrength", "false");
  m_engine->setOption("MultiPV", "1");
  m_engine->setPosition(pos);
  m_engine->go(limits);
  m_engine->wait();
  std::lock_guard lock(m_stateMutex);
  m_kind = Kind::kNone;
  return m_syncResult;
}

// ---- Callbacks (search thread) --------------------------------------------------------------------

void Session::onInfo(const SearchInfo& info, bool second) {
  Kind kind;
  int ply;
  bool mcts;
  {
    std::lock_guard lock(m_stateMutex);
    kind = m_kind;
    ply = m_searchPly;
    mcts = !second && m_searchMcts;
    // With "both" the evaluation (graph, E) is alpha-beta's, the second engine's.
    const bool evaluates = second || !m_searchBoth;
    if (info.multiPv == 1 && evaluates) m_lastInfo = info;
    if (evaluates && info.multiPv == 1 && info.bound == Bound::kExact && !info.pv.empty() &&
        (kind == Kind::kAnalysis || kind == Kind::kEngineMove)) {
      EvalPoint& e = m_evals[ply];
      if (info.depth >= e.depth) {
        e.whiteCp = clampedWhite(info.score, m_searchRoot.sideToMove());
        e.mate.reset();
        if (isMateScore(info.score)) {
          int n = mateInMoves(info.score);
          e.mate = m_searchRoot.sideToMove() == kWhite ? n : -n;
        }
        e.depth = info.depth;
      }
    }
  }
  if (kind != Kind::kAnalysis && kind != Kind::kEngineMove) return;
  // m_searchRoot does not change while a search runs (it is set before go()).
  Json pvUci = Json::array();
  for (Move m : info.pv) pvUci.push_back(toUci(m, m_searchRoot.isChess960()));
  Json j = {{"kind", kind == Kind::kAnalysis ? "analysis" : "engine"},
            {"ply", ply},
            {"fen", m_searchRoot.fen()},
            {"depth", info.depth},
            {"seldepth", info.selDepth},
            {"multipv", info.multiPv},
            {"score", scoreJson(info.score, m_searchRoot.sideToMove())},
            {"bound", info.bound == Bound::kLower ? "lower" : info.bound == Bound::kUpper ? "upper" : "exact"},
            {"nodes", info.nodes},
            {"nps", info.nps},
            {"hashfull", info.hashfull},
            {"timeMs", info.timeMs},
            {"pv", pvUci},
            {"san", pvSan(m_searchRoot, info.pv)},
            {"face", mcts ? "mcts" : "alphabeta"}};
  if (mcts && !info.moveStats.empty()) j["moves"] = mctsTableJson(m_searchRoot, info.moveStats);
  m_events.push("info", dumpJson(j));
}

void Session::onBestMove(const SearchResult& result) {
  bool changed = false;
  {
    std::lock_guard lock(m_stateMutex);
    Kind kind = m_kind;
    if (kind == Kind::kHint || kind == Kind::kEvaluate || kind == Kind::kReview) {
      m_syncResult = result;
      return;
    }
    if (kind != Kind::kEngineMove || !m_thinking) return;  // stopped (stale generation) or analysis
    m_kind = Kind::kNone;
    m_thinking = false;
    if (m_game.over() || !result.best) return;
    Color mover = m_game.position().sideToMove();
    EvalPoint& e = m_evals[m_searchPly];
    if (result.depth >= e.depth) {
      e.whiteCp = clampedWhite(result.score, mover);
      e.mate.reset();
      if (isMateScore(result.score)) e.mate = mover == kWhite ? mateInMoves(result.score) : -mateInMoves(result.score);
      e.depth = result.depth;
    }
    if (chargeClockLocked(mover)) {
      try {
        m_game.play(result.best);
      } catch (const Error& err) {
        m_lastError = std::string("engine move rejected: ") + err.what();
      }
    }
    afterGameChangeLocked();
    changed = true;
  }
  if (!changed) return;
  // Saving writes a small file; it happens after the search ended, never while a browser waits.
  std::string pgn, file;
  u64 version;
  {
    std::lock_guard lock(m_stateMutex);
    pgn = m_game.pgn();
    file = m_gameFile;
    version = m_stateVersion;
  }
  std::lock_guard saveLock(m_saveMutex);
  if (version > m_savedVersion && !file.empty()) {
    try {
      m_storage.saveGame(file, pgn);
      m_savedVersion = version;
    } catch (const Error& err) {
      std::lock_guard lock(m_stateMutex);
      m_lastError = err.what();
    }
  }
}

// ---- State ---------------------------------------------------------------------------------------

Json Session::scoreJson(int score, Color stm) {
  if (isMateScore(score)) {
    int n = mateInMoves(score);
    return {{"mate", stm == kWhite ? n : -n}};
  }
  return {{"cp", stm == kWhite ? score : -score}};
}

Json Session::mctsTableJson(const Position& root, const std::vector<MoveStat>& stats) {
  u64 total = 0;
  for (const MoveStat& s : stats) total += s.visits;
  auto share = [&](u64 visits) { return total ? double(visits) / double(total) : 0.0; };
  Json rows = Json::array();
  u64 otherVisits = 0;
  int others = 0;
  for (size_t i = 0; i < stats.size(); ++i) {
    const MoveStat& s = stats[i];
    if (int(i) >= kMctsTableRows || !root.isLegal(s.move)) {
      otherVisits += s.visits;
      ++others;
      continue;
    }
    rows.push_back({{"uci", toUci(s.move, root.isChess960())},
                    {"san", toSan(root, s.move)},
                    {"visits", s.visits},
                    {"share", share(s.visits)},
                    {"prior", s.prior},
                    {"q", s.visits ? Json(s.q) : Json(nullptr)}});
  }
  return {{"rows", rows},
          {"totalVisits", total},
          {"others", {{"moves", others}, {"visits", otherVisits}, {"share", share(otherVisits)}}}};
}

void Session::resetPerGameLocked() {
  m_evals.clear();
  m_review = ReviewState{};
  m_analysisPly.reset();
  m_lastInfo.reset();
}

void Session::startClocksLocked() {
  m_clock.remaining[kWhite] = m_clock.remaining[kBlack] = m_clock.initialMs;
  m_clock.running = m_clock.enabled && !m_game.over();
  m_clock.turnStart = Clock::now();
}

i64 Session::remainingLocked(Color c) const {
  i64 r = m_clock.remaining[c];
  if (m_clock.running && m_game.position().sideToMove() == c)
    r -= std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - m_clock.turnStart).count();
  return r;
}

bool Session::chargeClockLocked(Color mover) {
  if (!m_clock.enabled || !m_clock.running) return true;
  i64 left = remainingLocked(mover);
  if (left <= 0) {
    m_clock.remaining[mover] = 0;
    m_clock.running = false;
    m_game.flagTime(mover);
    return false;
  }
  m_clock.remaining[mover] = left + m_clock.incMs;
  m_clock.turnStart = Clock::now();
  return true;
}

void Session::afterGameChangeLocked() {
  ++m_stateVersion;
  // The named openings along the game (state "openings") and the PGN's ECO and Opening tags from
  // the deepest one; a loaded PGN's own tags stay when no position is named.
  m_openings = openingsOf(m_game.fens());
  if (!m_openings.empty()) {
    const Opening& o = *m_openings.back().second;
    std::erase_if(m_game.tags, [](const auto& t) { return t.first == "ECO" || t.first == "Opening"; });
    m_game.tags.emplace_back("ECO", o.eco);
    m_game.tags.emplace_back("Opening", o.name);
  }
  if (m_game.over()) m_clock.running = false;
  // A position ended by the rules needs no search for the graph: mate or a draw.
  if (m_game.overByRules()) {
    EvalPoint& e = m_evals[m_game.ply()];
    bool mate = m_game.termination() == GameEnd::kCheckmate;
    e.whiteCp = !mate ? 0 : m_game.position().sideToMove() == kWhite ? -kReviewClampCp : kReviewClampCp;
    e.mate = mate ? std::optional<int>(0) : std::nullopt;
    e.depth = kMaxPly;
  }
  if (m_gameFile.empty() && m_game.ply() > 0) m_gameFile = m_storage.newGameFileName(m_id);
  for (auto it = m_evals.begin(); it != m_evals.end();)
    it = it->first > m_game.ply() ? m_evals.erase(it) : std::next(it);
  pushStateLocked();
}

void Session::pushStateLocked() { m_events.push("state", dumpJson(stateLocked())); }

void Session::trySave() {
  try {
    saveLocked();
  } catch (const Error& e) {
    // The game stays in memory (and in the page); the error shows in the state.
    std::lock_guard lock(m_stateMutex);
    m_lastError = e.what();
  }
}

void Session::saveLocked() {
  // Called with m_stateMutex NOT held (name kept for symmetry with the other helpers): writes
  // the game file if the state changed since the last save.
  std::string pgn, file;
  u64 version;
  {
    std::lock_guard lock(m_stateMutex);
    if (m_gameFile.empty()) return;
    pgn = m_game.pgn();
    file = m_gameFile;
    version = m_stateVersion;
  }
  std::lock_guard saveLock(m_saveMutex);
  if (version <= m_savedVersion) return;
  m_storage.saveGame(file, pgn);
  m_savedVersion = version;
}

Json Session::stateLocked() const {
  const Position& pos = m_game.position();
  Json moves = Json::array();
  for (int i = 0; i < m_game.ply(); ++i) moves.push_back({{"uci", m_game.uci(i)}, {"san", m_game.sans()[i]}});
  Json clock = nullptr;
  if (m_clock.enabled)
    clock = {{"initialMs", m_clock.initialMs},
             {"incMs", m_clock.incMs},
             {"white", std::max<i64>(0, remainingLocked(kWhite))},
             {"black", std::max<i64>(0, remainingLocked(kBlack))},
             {"running", m_clock.running ? Json(colorName(pos.sideToMove())) : Json(nullptr)}};
  Json openings = Json::array();
  for (const auto& [ply, o] : m_openings) openings.push_back({{"ply", ply}, {"eco", o->eco}, {"name", o->name}});
  Json evals = Json::array();
  for (const auto& [ply, e] : m_evals) {
    Json p = {{"ply", ply}, {"cp", e.whiteCp}, {"depth", e.depth}};
    if (e.mate) p["mate"] = *e.mate;
    evals.push_back(p);
  }
  Json review = nullptr;
  if (m_review.running || m_review.finished) {
    Json rm = Json::array();
    int counts[2][3] = {}, loss[2] = {0, 0}, n[2] = {0, 0};
    Color stm = m_game.startPosition().sideToMove();
    for (size_t i = 0; i < m_review.moves.size(); ++i) {
      const ReviewMove& r = m_review.moves[i];
      Color mover = Color((stm + i) & 1);
      rm.push_back({{"ply", i + 1}, {"cpLoss", r.cpLoss}, {"judgement", r.judgement}, {"best", r.bestSan}});
      loss[mover] += r.cpLoss;
      ++n[mover];
      if (r.judgement == "inaccuracy") ++counts[mover][0];
      if (r.judgement == "mistake") ++counts[mover][1];
      if (r.judgement == "blunder") ++counts[mover][2];
    }
    auto side = [&](Color c) {
      return Json{{"inaccuracies", counts[c][0]},
                  {"mistakes", counts[c][1]},
                  {"blunders", counts[c][2]},
                  {"acpl", n[c] ? loss[c] / n[c] : 0}};
    };
    review = {{"running", m_review.running},
              {"done", m_review.done},
              {"total", m_review.total},
              {"finished", m_review.finished},
              {"moves", rm},
              {"summary", {{"white", side(kWhite)}, {"black", side(kBlack)}}},
              {"thresholds", {{"inaccuracy", kInaccuracyCp}, {"mistake", kMistakeCp}, {"blunder", kBlunderCp}}}};
  }
  return {{"id", m_id},
          {"version", m_stateVersion},
          {"mode", m_mode == Mode::kPlay ? "play" : "analysis"},
          {"face", m_face},
          {"startFen", m_game.startFen()},
          {"fen", pos.fen()},
          {"turn", colorName(pos.sideToMove())},
          {"ply", m_game.ply()},
          {"moves", moves},
          {"fens", m_game.fens()},
          {"openings", openings},
          {"opening", openings.empty() ? Json(nullptr) : openings.back()},
          {"check", pos.inCheck()},
          {"lastMove", m_game.ply() ? Json(m_game.uci(m_game.ply() - 1)) : Json(nullptr)},
          {"over", m_game.over()},
          {"result", m_game.result()},
          {"termination", std::string(terminationName(m_game.termination()))},
          {"message", m_game.endMessage()},
          {"human", colorName(m_human)},
          {"level", m_level},
          {"moveTimeMs", m_moveTimeMs},
          {"elo", m_elo > 0 ? Json(m_elo) : Json(nullptr)},
          {"playouts", m_playouts > 0 ? Json(m_playouts) : Json(nullptr)},
          {"clock", clock},
          {"thinking", m_thinking},
          {"searching", m_kind != Kind::kNone || m_thinking},
          {"analysis",
           {{"on", m_analysisOn},
            {"running", m_kind == Kind::kAnalysis},
            {"multiPv", m_multiPv},
            {"ply", m_analysisPly ? Json(*m_analysisPly) : Json(nullptr)},
            {"face", analysisFaceName(m_analysisFace)}}},
          {"evals", evals},
          {"review", review},
          {"pgn", m_game.pgn()},
          {"gameFile", m_gameFile},
          {"lastError", m_lastError}};
}

Json Session::stateJson() {
  touch();
  std::lock_guard lock(m_stateMutex);
  return stateLocked();
}

std::string Session::pgn() {
  touch();
  std::lock_guard lock(m_stateMutex);
  return m_game.pgn();
}

std::string Session::reportText() {
  std::unique_lock lock(m_stateMutex, std::defer_lock);
  for (int i = 0; i < 50 && !lock.try_lock(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  if (!lock.owns_lock()) return "(the session's state was locked; game not included)\n";
  std::ostringstream os;
  os << "Session: " << m_id << "\nMode: " << (m_mode == Mode::kPlay ? "play" : "analysis")
     << "\nPlayer: " << colorName(m_human) << ", level " << m_level << "\nGame file: "
     << (m_gameFile.empty() ? "(none yet)" : (m_storage.dataDir() / "games" / m_gameFile).string()) << "\n\nFEN history:\n";
  for (size_t i = 0; i < m_game.fens().size(); ++i) os << i << ": " << m_game.fens()[i] << "\n";
  std::string pgnText;
  try {
    pgnText = m_game.pgn();
  } catch (const std::exception& e) {
    pgnText = std::string("(PGN could not be written: ") + e.what() + ")\n";
  }
  os << "\nPGN:\n" << pgnText;
  return os.str();
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
  if (field(req, "pgn")) {
    game.loadPgn(stringField(req, "pgn", 1 << 20, std::nullopt));
  } else if (field(req, "fen")) {
    game.reset(stringField(req, "fen", 200, std::nullopt));
  } else {
    throw Error("expected a field 'fen' or 'pgn'");
  }
  cancelReview();
  std::lock_guard engineLock(m_engineMutex);
  stopSearchLocked();
  m_engine->newGame();
  {
    std::lock_guard lock(m_stateMutex);
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

Json Session::setMode(const Json& req) {
  touch();
  std::string mode = stringField(req, "mode", 10, std::nullopt);
  if (mode != "play" && mode != "analysis") throw Error("field 'mode': expected \"play\" or \"analysis\"");
  std::optional<Color> color;
  if (field(req, "color")) color = parseColor(stringField(req, "color", 10, std::nullopt), false);
  cancelReview();
  std::lock_guard engineLock(m_engineMutex);
  stopSearchLocked();
  if (mode == "play") dropSecondEngineLocked();
  {
    std::lock_guard lock(m_stateMutex);
    m_mode = mode == "play" ? Mode::kPlay : Mode::kAnalysis;
    if (color) m_human = *color;
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
          {"score", scoreJson(r.score, pos.sideToMove())},
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
      score = scoreJson(m_lastInfo->score, m_searchRoot.sideToMove());
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
      score = scoreJson(r.score, pos.sideToMove());
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

// ---- Lifetime -----------------------------------------------------------------------------------

void Session::leave() {
  cancelReview();
  std::lock_guard engineLock(m_engineMutex);
  stopSearchLocked();
  dropSecondEngineLocked();  // a returning page makes it again when it resumes "both"
}

void Session::streamOpened() {
  ++m_streams;
  touch();
  // A page that comes back (reload, reconnect) resumes what its leaving stopped.
  std::lock_guard engineLock(m_engineMutex);
  if (m_closed) return;
  bool idle;
  {
    std::lock_guard lock(m_stateMutex);
    idle = m_kind == Kind::kNone && !m_thinking && !m_review.running;
  }
  if (!idle) return;
  startEngineMoveIfDueLocked();
  bool analysing;
  {
    std::lock_guard lock(m_stateMutex);
    analysing = m_kind != Kind::kNone;
  }
  if (!analysing) startAnalysisLocked();
}

void Session::streamClosed() {
  if (--m_streams == 0 && !m_closed) leave();
}

void Session::tick() {
  bool stop = false;
  {
    std::lock_guard lock(m_stateMutex);
    if (m_clock.running && !m_game.over()) {
      Color stm = m_game.position().sideToMove();
      if (remainingLocked(stm) <= 0) {
        m_clock.remaining[stm] = 0;
        m_clock.running = false;
        if (m_gameFile.empty()) m_gameFile = m_storage.newGameFileName(m_id);
        m_game.flagTime(stm);
        afterGameChangeLocked();
        stop = m_thinking;
      }
    }
    bool searching = m_thinking || m_kind == Kind::kAnalysis;
    if (searching && m_streams == 0 && Clock::now() - lastSeen() > m_config.heartbeatTimeout) stop = true;
  }
  if (stop) {
    std::lock_guard engineLock(m_engineMutex);
    stopSearchLocked();
  }
  trySave();
}

}  // namespace janus::server
