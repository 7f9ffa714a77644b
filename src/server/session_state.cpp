// Session: the state JSON (docs/gui.md "State"), PGN and bug-report text, clocks, and saving the
// game. Engine control is in session_engine.cpp, the requests in session_requests.cpp.

#include <algorithm>
#include <sstream>
#include <string>

#include "core/notation.h"
#include "eval/hce.h"
#include "eval/trace.h"
#include "nnue/nnue_evaluator.h"
#include "search/score.h"
#include "server/json_util.h"
#include "server/session.h"
#include "server/session_internal.h"
#include "server/tablebase_info.h"
#include "util/error.h"

namespace janus::server {

const char* colorName(Color c) { return c == kWhite ? "white" : "black"; }

/// Centipawns from White's view, mates clamped (for graphs and the review).
int clampedWhite(int score, Color stm) {
  int white = stm == kWhite ? score : -score;
  if (isMateScore(score)) return white > 0 ? kReviewClampCp : -kReviewClampCp;
  return std::clamp(white, -kReviewClampCp, kReviewClampCp);
}

namespace {

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

}  // namespace

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

std::string Session::janusNameLocked() const {
  if (m_playouts > 0) return "Janus MCTS (" + std::to_string(m_playouts) + " playouts)";
  if (m_elo > 0) return "Janus (Elo " + std::to_string(m_elo) + ")";
  if (m_moveTimeMs > 0) return "Janus (" + std::to_string(m_moveTimeMs) + " ms/move)";
  return "Janus level " + std::to_string(m_level);
}

// ---- State ---------------------------------------------------------------------------------------

Json Session::scoreJson(int score, Color stm) {
  if (isMateScore(score)) {
    int n = mateInMoves(score);
    return {{"mate", stm == kWhite ? n : -n}};
  }
  const int white = stm == kWhite ? score : -score;
  // A tablebase result (score.h: kTbWin - ply, below the mates) that no verdict on the root
  // details (scoreWithTablebase): a win or a loss for White.
  if (isDecisiveScore(score)) return {{"cp", white}, {"tb", {{"result", white > 0 ? "win" : "loss"}}}};
  return {{"cp", white}};
}

Json Session::scoreWithTablebase(int score, const Position& root, Move first) {
  Json j = scoreJson(score, root.sideToMove());
  if (!Engine::syzygy().covers(root)) return j;
  std::lock_guard lock(m_tbMutex);
  const unsigned generation = TablebaseInfo::generation();
  if (m_tbCache.key != root.key() || m_tbCache.halfmoveClock != root.halfmoveClock() ||
      m_tbCache.generation != generation) {
    m_tbCache.key = root.key();
    m_tbCache.halfmoveClock = root.halfmoveClock();
    m_tbCache.generation = generation;
    m_tbCache.probe = TablebaseInfo::probeRoot(root);
  }
  if (m_tbCache.probe) {
    Json verdict = tablebaseVerdictJson(*m_tbCache.probe, root.sideToMove(), first);
    if (!verdict.is_null()) j["tb"] = verdict;
  }
  return j;
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
                    {"q", s.visits ? Json(s.q) : Json(nullptr)},
                    {"searchQ", s.searchQ ? Json(*s.searchQ) : Json(nullptr)}});
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

}  // namespace janus::server
