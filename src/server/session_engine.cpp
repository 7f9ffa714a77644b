// Session: engine control (starting and stopping searches on one or two engines), the search
// callbacks, and the session's lifetime (leave, event streams, housekeeping). The state JSON is in
// session_state.cpp, the requests in session_requests.cpp.

#include <algorithm>
#include <string>
#include <vector>

#include "core/notation.h"
#include "mcts/mcts.h"
#include "nnue/network.h"
#include "search/score.h"
#include "server/json_util.h"
#include "server/request_limits.h"
#include "server/session.h"
#include "server/session_internal.h"
#include "util/error.h"

namespace janus::server {

namespace {

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

}  // namespace

Session::Session(std::string id, const SessionConfig& config, Storage& storage, MemoryBudget* budget)
    : m_id(std::move(id)), m_config(config), m_storage(storage), m_budget(budget) {
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
  if (mcts) engine.setOption("MCTS Tree MiB", std::to_string(m_mctsTreeMiB > 0 ? m_mctsTreeMiB : m_config.mctsTreeMiB));
  engine.setOption("Search", mcts ? "mcts" : "alphabeta");
  if (mcts::MctsSearch* search = engine.mctsSearch(); mcts && search) {
    mcts::MctsParams p = search->params();
    p.moveStats = kMaxMoves;  // every root move: the table's shares are of all the root's visits
    search->setParams(p);
  }
}

void Session::dropSecondEngineLocked() {
  if (m_secondEngine) {
    m_secondEngine->stop();
    m_secondEngine->wait();
    m_secondEngine.reset();
  }
  if (m_budget) m_budget->release(m_id, MemoryBudget::Part::kSecondEngine);
}

std::string Session::budgetMessage(const std::string& what, i64 neededMiB) const {
  const MemoryBudget::Usage u = m_budget->usage();
  return "the server's memory budget of " + std::to_string(u.totalMiB) + " MiB (--memory-mib) is in use: " +
         std::to_string(u.usedMiB) + " MiB by " + std::to_string(u.sessions) + (u.sessions == 1 ? " session" : " sessions") +
         " (" + std::to_string(u.mctsTrees) + (u.mctsTrees == 1 ? " MCTS tree" : " MCTS trees") + ", " +
         std::to_string(u.secondEngines) + (u.secondEngines == 1 ? " second engine" : " second engines") + "); " + what +
         " needs " + std::to_string(neededMiB) + " MiB, " + std::to_string(std::max<i64>(0, u.freeMiB)) +
         " MiB are free. Stop an MCTS or \"both\" analysis in another tab, or start janus gui with a larger --memory-mib";
}

bool Session::reserveMctsLocked(std::string& why) {
  if (m_mctsTreeMiB > 0) return true;
  if (!m_budget) {
    m_mctsTreeMiB = m_config.mctsTreeMiB;
    return true;
  }
  using Part = MemoryBudget::Part;
  const int cache = m_config.mctsCacheEntries;
  i64 need = 0;
  for (int attempt = 0; attempt < 2 && !m_closed; ++attempt) {
    const bool needsFixed = !m_budget->holds(m_id, Part::kMctsFixed);
    need = (needsFixed ? MemoryCosts::kMctsFixedMiB : 0) +
           mctsTreeCostMiB(std::min(m_config.mctsTreeMiB, MemoryCosts::kMinTreeMiB), cache);
    const int tree = mctsTreeGrant(m_budget->freeMiB(), m_budget->sessionsWithoutTree(m_id), needsFixed,
                                   m_config.mctsTreeMiB, cache);
    if (tree > 0 && (!needsFixed || m_budget->tryReserve(m_id, Part::kMctsFixed, MemoryCosts::kMctsFixedMiB))) {
      if (m_budget->tryReserve(m_id, Part::kMctsTree, mctsTreeCostMiB(tree, cache))) {
        m_mctsTreeMiB = tree;
        return true;
      }
      if (needsFixed) m_budget->release(m_id, Part::kMctsFixed);  // not allocated yet: the engine never ran MCTS
    }
    if (attempt == 0) m_budget->reclaim(m_id, need);
  }
  why = budgetMessage("an MCTS search", need);
  return false;
}

bool Session::reserveSecondEngineLocked(std::string& why) {
  if (!m_budget || m_budget->holds(m_id, MemoryBudget::Part::kSecondEngine)) return true;
  const i64 cost = secondEngineCostMiB(m_config.hashMiB);
  if (!m_closed && m_budget->reserveOrReclaim(m_id, MemoryBudget::Part::kSecondEngine, cost)) return true;
  why = budgetMessage("the second engine of \"both\" analysis", cost);
  return false;
}

i64 Session::releaseIdleMemory() {
  std::unique_lock engineLock(m_engineMutex, std::try_to_lock);
  if (!engineLock.owns_lock() || m_closed || !m_budget) return 0;
  bool mctsBusy, secondBusy;
  {
    std::lock_guard lock(m_stateMutex);
    const bool searching = m_kind != Kind::kNone || m_thinking;
    // A game against MCTS keeps its tree (it is reused from move to move).
    mctsBusy = (searching && m_searchMcts) || (m_face == "mcts" && m_mode == Mode::kPlay && !m_game.over());
    secondBusy = searching && m_searchBoth;
  }
  i64 freed = 0;
  if (!secondBusy && m_secondEngine) {
    freed += secondEngineCostMiB(m_config.hashMiB);
    dropSecondEngineLocked();
  }
  if (!mctsBusy && m_mctsTreeMiB > 0) {
    if (mcts::MctsSearch* search = m_engine->mctsSearch()) search->newGame();  // frees the tree and the cache
    m_mctsTreeMiB = 0;
    freed += m_budget->release(m_id, MemoryBudget::Part::kMctsTree);
  }
  return freed;
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
  // The engines go with the session object, as soon as the server drops it (it has left the
  // server's table before close()); no search runs any more, so the memory is as good as free.
  if (m_budget) m_budget->releaseAll(m_id);
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
    mcts = m_face == "mcts";
  }
  if (std::string why; mcts && !reserveMctsLocked(why)) {
    // The game waits for memory; the next request or reconnect tries again.
    std::lock_guard lock(m_stateMutex);
    m_lastError = why;
    ++m_stateVersion;
    pushStateLocked();
    return;
  }
  {
    std::lock_guard lock(m_stateMutex);
    if (m_closed || !engineToMoveLocked() || m_thinking) return;
    const Level& lvl = kLevels[m_level - 1];
    mcts = m_face == "mcts";
    // Strength: MCTS plays by playouts per move (limits.playouts, whatever its alpha-beta hints
    // search) or by time; with an Elo (UCI_LimitStrength + UCI_Elo, engine/strength.h) the
    // engine's node budget for that rating ends the search, and a time cap only guards against
    // slow machines; otherwise the level's depth and time caps apply. A clock or a fixed time per
    // move replaces the time cap.
    if (m_clock.enabled) {
      limits.time[kWhite] = std::max<i64>(0, remainingLocked(kWhite));
      limits.time[kBlack] = std::max<i64>(0, remainingLocked(kBlack));
      limits.inc[kWhite] = limits.inc[kBlack] = m_clock.incMs;
      if (mcts) limits.playouts = u64(m_playouts);
      else if (m_elo == 0) limits.depth = lvl.depth;
    } else if (m_moveTimeMs > 0) {
      limits.moveTime = m_moveTimeMs;
    } else if (mcts) {
      limits.playouts = u64(m_playouts);
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
    // The state pushed by the move or new game that made this search due said "not thinking";
    // a page must not keep that snapshot after the request's own answer (same version) said
    // "thinking", so the change is a new version on the stream.
    ++m_stateVersion;
    pushStateLocked();
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
  // a hash table and the search's tables, a second MCTS engine those and a tree as well. Both
  // are reserved in the memory budget first (analysis() did it for its own request; a move or a
  // reconnect that finds no memory leaves the analysis off and says why).
  const bool mcts = face != AnalysisFace::kAlphaBeta;
  std::string why;
  if ((mcts && !reserveMctsLocked(why)) || (face == AnalysisFace::kBoth && !reserveSecondEngineLocked(why))) {
    std::lock_guard lock(m_stateMutex);
    m_kind = Kind::kNone;
    m_analysisOn = false;
    m_lastError = why;
    ++m_stateVersion;
    pushStateLocked();
    return;
  }
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
            {"score", scoreWithTablebase(info.score, m_searchRoot, info.pv.empty() ? Move::none() : info.pv.front())},
            {"bound", info.bound == Bound::kLower ? "lower" : info.bound == Bound::kUpper ? "upper" : "exact"},
            {"nodes", info.nodes},
            {"nps", info.nps},
            {"hashfull", info.hashfull},
            {"timeMs", info.timeMs},
            {"pv", pvUci},
            {"san", pvSan(m_searchRoot, info.pv)},
            {"face", mcts ? "mcts" : "alphabeta"}};
  if (info.playouts) j["playouts"] = *info.playouts;  // MCTS: nodes = playouts + alpha-beta hint nodes
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
