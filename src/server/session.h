#pragma once
// One GUI session (one browser tab): a game, its settings and clocks, one Engine instance with its
// own transposition table, and the queue of events streamed to the page.
//
// Threading. Three kinds of threads touch a session:
//   * HTTP handler threads call the public methods. Every method that talks to the engine holds
//     m_engineMutex for its whole duration (the Engine facade wants its calls serialised).
//   * The engine's search thread runs the info/bestmove callbacks. They take only m_stateMutex
//     (briefly) and the event queue's own lock; they never wait for a browser.
//   * The review thread (one at a time) takes m_engineMutex per position and stops as soon as
//     m_reviewCancel is set.
// Lock order: m_reviewMutex, then m_engineMutex, then m_stateMutex; nobody waits for the engine
// (Engine::wait) while holding m_stateMutex, so the bestmove callback can always finish. Stopping a
// search first marks it stale (m_kind = kNone, m_thinking = false), so a result that arrives after
// the game changed is ignored.
//
// Sources: session_engine.cpp (engine control, search callbacks, lifetime), session_state.cpp (the
// state JSON, clocks, saving) and session_requests.cpp (the requests); session_internal.h holds
// what they share.

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/engine.h"
#include "server/event_queue.h"
#include "server/game.h"
#include "server/memory_budget.h"
#include "server/openings.h"
#include "server/storage.h"
#include "tb/syzygy.h"

namespace janus::server {

using Clock = std::chrono::steady_clock;
using Json = nlohmann::json;

/// A quick playing level: depth + move time caps for the engine's moves (whichever is reached
/// first); level 8 has no depth cap. The other ways to set the strength are an Elo (the engine's
/// UCI_LimitStrength + UCI_Elo, engine/strength.h) and a fixed time per move.
struct Level {
  int level;        ///< 1..8
  int depth;        ///< plies (0: no cap)
  i64 moveTimeMs;   ///< milliseconds per move
};
inline constexpr Level kLevels[] = {{1, 1, 50},  {2, 2, 100}, {3, 3, 150},  {4, 5, 250},
                                    {5, 7, 400}, {6, 9, 700}, {7, 12, 1000}, {8, 0, 2000}};
inline constexpr int kLevelCount = 8;
/// The default strength, in one place: a new session and a new game that names no strength
/// ("level", "elo" or "moveTimeMs") play at kDefaultElo when the engine declares UCI_Elo, else at
/// kDefaultLevel. /api/info gives both (as numbers) and the page's New game dialog starts from them.
inline constexpr int kDefaultElo = 1500;
inline constexpr int kDefaultLevel = 3;
/// Analysis lines (MultiPV) the page asks for until the player picks another number.
inline constexpr int kDefaultMultiPv = 3;
/// The MCTS face's strength: playouts per move (AlphaZero's 800 simulations), the default of a game
/// against MCTS that names no "playouts" or "moveTimeMs", and the range a request may ask for.
/// UCI_Elo levels (engine/strength.h) are the alpha-beta faces' only: their node budgets are
/// calibrated for alpha-beta nodes, not playouts.
inline constexpr int kDefaultMctsPlayouts = 800;
inline constexpr int kMinMctsPlayouts = 1;
inline constexpr int kMaxMctsPlayouts = 1000000;
/// Rows of the MCTS analysis table: the most visited root moves, each with its principal
/// variation (the MCTS search runs with this MultiPV; the rest of the root moves are summed up).
inline constexpr int kMctsTableRows = 8;
/// Time cap per move (ms) when playing by Elo without a clock: the level's node budget normally
/// ends the search long before.
inline constexpr i64 kEloMoveTimeCapMs = 5000;

/// Settings shared by all sessions (from the command line).
struct SessionConfig {
  int hashMiB = 16;                           ///< transposition table per session (MiB)
  std::chrono::milliseconds heartbeatTimeout{15000};  ///< no request or stream write for this long:
                                              ///< a running search is stopped
  int hintDepth = 10;                         ///< hint search: depth cap (plies) ...
  i64 hintMoveTimeMs = 800;                   ///< ... and time cap (ms)
  int evalDepth = 12;                         ///< E (evaluate) search: depth cap ...
  i64 evalMoveTimeMs = 300;                   ///< ... and time cap (ms)
  int mctsTreeMiB = 256;                      ///< MCTS tree memory per engine (MiB; option MCTS Tree
                                              ///< MiB): a full tree recycles its least-visited subtrees
  int mctsCacheEntries = 50000;               ///< MCTS evaluation cache per engine (option MCTS Cache)
};

/// The engine faces a game can be played against (the "face" of POST .../new and of the state):
/// alpha-beta with the built-in NNUE network or the hand-crafted evaluation, or MCTS over the
/// policy/value network (option Search = mcts).
inline constexpr const char* kGameFaces[] = {"alphabeta-nnue", "alphabeta-hce", "mcts"};
/// What analysis runs (the "face" of POST .../analysis): alpha-beta, MCTS, or both side by side
/// (then a second engine runs the alpha-beta search while the session's engine runs MCTS).
enum class AnalysisFace { kAlphaBeta, kMcts, kBoth };
/// "alphabeta", "mcts", "both".
[[nodiscard]] const char* analysisFaceName(AnalysisFace f);
/// Parses an analysis face; throws janus::Error naming the field 'face' and the choices.
[[nodiscard]] AnalysisFace parseAnalysisFace(const std::string& s);

/// Centipawn-loss thresholds of the game review (see docs/gui.md): a move that loses at least
/// this much (mover's view, evaluations clamped to +-kReviewClampCp) is an inaccuracy, mistake or
/// blunder. Values: the classic centipawn thresholds of Lichess's analysis (lila
/// modules/analyse Advice.scala, CpAdvice: 50 / 100 / 300), also used by most GUIs.
inline constexpr int kInaccuracyCp = 50;
inline constexpr int kMistakeCp = 100;
inline constexpr int kBlunderCp = 300;
inline constexpr int kReviewClampCp = 1000;  ///< mate = +-1000 for the loss computation

class Session {
 public:
  /// Creates the session and its engine (Hash = config.hashMiB). `id` is the session's random
  /// identifier. `storage` and `budget` must outlive the session. `budget` (may be null: nothing
  /// counted) is the server's memory budget: the server reserves the session's own part before it
  /// creates it, the session reserves its MCTS memory and second engine before it uses them and
  /// releases everything when it closes (memory_budget.h).
  Session(std::string id, const SessionConfig& config, Storage& storage, MemoryBudget* budget = nullptr);
  /// Cancels the review, stops the search and saves the game (if it has moves).
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  [[nodiscard]] const std::string& id() const { return m_id; }

  // ---- Requests (HTTP handler threads). Each returns the new state (see stateJson) unless
  // documented otherwise; bad input throws janus::Error (HTTP 400). ----------------------------
  /// {"color": "white"|"black"|"random", "level": 1..8, "moveTimeMs": 0|50..60000,
  ///  "clock": {"minutes": 0.01..180, "increment": 0..60} | null, "fen": "<FEN>" (optional),
  ///  "elo": <int> (optional, only when the engine has UCI_Elo),
  ///  "face": "alphabeta-nnue"|"alphabeta-hce"|"mcts", "playouts": 1..1000000 (MCTS only)}.
  /// "level" and "elo" are for the alpha-beta faces, "playouts" for MCTS ("moveTimeMs" and the
  /// clock for both); a field that does not apply to the face is an error naming it.
  Json newGame(const Json& req);
  /// {"uci": "e2e4", "ply": <int, optional: play from the position after this many moves,
  /// dropping the later moves (analysis mode only)>}
  Json move(const Json& req);
  /// Play mode: takes back moves until it is the player's turn again (the engine's reply and the
  /// player's move). Analysis mode: one move.
  Json undo();
  /// The player resigns (play mode).
  Json resign();
  /// {"fen": "<FEN>"} or {"pgn": "<PGN text>", "game": <0-based index of the game in the text,
  /// default 0>}, and "mode": "play"|"analysis" (optional; default: keep the mode): replaces the
  /// game (and sets the mode first). Errors, with the current game kept: a bad FEN, the PGN's first
  /// fault up to that game (Game::loadPgn), a PGN over kMaxPgnBytes (HttpError 413), a bad field.
  Json load(const Json& req);
  /// {"mode": "play"|"analysis", "color": "white"|"black" (play: the player's side)}.
  Json setMode(const Json& req);
  /// {"on": bool, "multiPv": 1..5, "ply": <int, optional: position to analyse, default the last>,
  ///  "face": "alphabeta"|"mcts"|"both" (optional, default the previous one; at first alphabeta)}.
  /// Infinite analysis; lines arrive as "info" events (with "face"; MCTS's first line also carries
  /// the root moves' table "moves", see docs/gui.md "Info").
  Json analysis(const Json& req);
  /// Searches the current position with the hint limits and returns
  /// {"uci", "san", "score": {"cp"|"mate": n (White's view)}, "depth"}. Blocks up to about
  /// hintMoveTimeMs. Error if the game is over or it is the engine's turn.
  Json hint();
  /// {"ply": <int, optional>} -> {"ply", "fen", "score": {...} | null, "depth", "static": {...}}:
  /// a short search's score and the hand-crafted evaluation term by term (eval/trace.h).
  Json evaluate(const Json& req);
  /// {"depth": 1..20 (default 10), "moveTimeMs": 10..5000 (default 1000)}: starts the review
  /// of the whole game (finished game or analysis mode) on a background thread. Progress comes as
  /// "review" events; the result appears in the state ("review").
  Json review(const Json& req);

  /// The full state: see docs/gui.md ("State").
  [[nodiscard]] Json stateJson();
  [[nodiscard]] std::string pgn();
  /// Text for a bug report: the game's PGN, FEN history and state. Does not wait for a busy lock
  /// for more than a moment (a report is written while something went wrong).
  [[nodiscard]] std::string reportText();

  // ---- Lifetime (server threads) --------------------------------------------------------------
  /// The page is hidden or closed: stop searching now.
  void leave();
  void streamOpened();
  void streamClosed();
  [[nodiscard]] int streams() const { return m_streams.load(); }
  /// Marks activity (any request or successful stream write).
  void touch() { m_lastSeen.store(Clock::now().time_since_epoch().count()); }
  [[nodiscard]] Clock::time_point lastSeen() const {
    return Clock::time_point(Clock::duration(m_lastSeen.load()));
  }
  /// Periodic housekeeping (about 5 times a second): flag fall, heartbeat time-out.
  void tick();
  [[nodiscard]] EventQueue& events() { return m_events; }
  /// Ends the session: event streams close, search stops, game saved, its memory reservations
  /// released. Idempotent.
  void close();
  /// Frees what the session holds for searches it is not running, its MCTS tree and evaluation
  /// cache and its second engine, and releases them in the budget; returns the MiB released. Frees
  /// nothing (0) while its engine is busy (only a try-lock: the caller may hold another session's
  /// engine lock) or while it plays a game against MCTS. The budget's reclaimer calls it.
  i64 releaseIdleMemory();

 private:
  enum class Kind { kNone, kEngineMove, kAnalysis, kHint, kEvaluate, kReview };
  enum class Mode { kPlay, kAnalysis };

  // Engine control: the caller holds m_engineMutex.
  /// Stops the running searches (both engines) and waits for them.
  void stopSearchLocked();
  /// Selects the search of `engine` ("alphabeta" or "mcts"); for MCTS also sets the tree the
  /// budget granted (m_mctsTreeMiB) and asks for the statistics of every root move (the table's
  /// shares need the total of the visits).
  void selectSearchLocked(Engine& engine, bool mcts);
  /// Reserves the memory of an MCTS search in the budget unless the session holds it (the tree
  /// granted by mctsTreeGrant, at most config.mctsTreeMiB, set as MCTS Tree MiB). Returns false
  /// with `why` (a message naming the budget and what to do) when it does not fit even after
  /// idle sessions' memory was reclaimed.
  bool reserveMctsLocked(std::string& why);
  /// Reserves the second engine of "both" analysis (before it is created); false with `why`.
  bool reserveSecondEngineLocked(std::string& why);
  /// "the server's memory budget of N MiB (--memory-mib) is in use: ...; `what` needs M MiB. ..."
  [[nodiscard]] std::string budgetMessage(const std::string& what, i64 neededMiB) const;
  /// Creates an engine with the session's memory settings and callbacks; `second`: the second
  /// engine of "both" analysis (alpha-beta only; its bestmove is ignored).
  std::unique_ptr<Engine> makeEngine(bool second);
  /// Frees the second engine (after stopSearchLocked) when the analysis face no longer needs it,
  /// and its reservation in the budget.
  void dropSecondEngineLocked();
  void startEngineMoveIfDueLocked();
  void startAnalysisLocked();
  /// After a move, undo or load (engine mutex held): restarts analysis or the engine's move,
  /// saves the game and returns the new state.
  Json resumeAfterChangeLocked(bool analysis);
  /// Synchronous search of `pos` (hint, evaluate): go + wait.
  SearchResult searchSyncLocked(Kind kind, const Position& pos, const SearchLimits& limits);
  void cancelReview();

  // Callbacks (search thread). `second`: from the second engine (alpha-beta of "both").
  void onInfo(const SearchInfo& info, bool second);
  void onBestMove(const SearchResult& result);

  /// "play" or "analysis"; else janus::Error naming the field 'mode'.
  static Mode parseMode(const std::string& mode);

  // State helpers: the caller holds m_stateMutex.
  /// Sets the mode (and, when given, the player's colour) as POST .../mode does: play mode stops
  /// the analysis and the clock and names the players in the tags.
  void setModeLocked(Mode mode, std::optional<Color> human);
  Json stateLocked() const;
  void pushStateLocked();
  void afterGameChangeLocked();
  void startClocksLocked();
  /// Charges the mover's clock for a move and adds the increment; false if the flag fell.
  bool chargeClockLocked(Color mover);
  [[nodiscard]] i64 remainingLocked(Color c) const;
  void saveLocked();
  /// saveLocked(), recording an I/O error in m_lastError instead of throwing.
  void trySave();
  [[nodiscard]] bool engineToMoveLocked() const;
  /// "Janus (Elo 1500)", "Janus (500 ms/move)" or "Janus level 3": the engine's PGN player name.
  [[nodiscard]] std::string janusNameLocked() const;
  void resetPerGameLocked();

  /// A search score for the API, White's view: {"cp": n} or {"mate": n}; a score in the
  /// tablebase band (search/score.h) also has "tb": {"result": "win"|"loss"}.
  static Json scoreJson(int score, Color sideToMove);
  /// scoreJson with the Syzygy tables' verdict as "tb" (tablebase_info.h: result and DTZ, White's
  /// view) when they cover `root`: the verdict on `first` played there (a line's first move, a
  /// hint), or on the root for Move::none(). Root probes are cached (one position per session).
  Json scoreWithTablebase(int score, const Position& root, Move first);
  /// The MCTS table of an info event from SearchInfo::moveStats: the kMctsTableRows most visited
  /// root moves (uci, san, visits, share of all root visits, prior, q) and the rest summed up.
  static Json mctsTableJson(const Position& root, const std::vector<MoveStat>& stats);

  std::string m_id;
  SessionConfig m_config;
  Storage& m_storage;
  MemoryBudget* m_budget = nullptr;
  int m_mctsTreeMiB = 0;  ///< the MCTS tree reserved in the budget (0: none); guarded by m_engineMutex
  EventQueue m_events;
  std::atomic<int> m_streams{0};
  std::atomic<Clock::rep> m_lastSeen{0};
  std::atomic<bool> m_closed{false};

  std::mutex m_engineMutex;
  mutable std::mutex m_stateMutex;

  // ---- Guarded by m_stateMutex -----------------------------------------------------------------
  Game m_game;
  Mode m_mode = Mode::kPlay;
  Color m_human = kWhite;
  int m_level = kDefaultLevel;
  i64 m_moveTimeMs = 0;  ///< 0: from the level
  int m_elo = 0;         ///< 0: not used
  int m_playouts = 0;    ///< MCTS playouts per move (0: not used)
  std::string m_face = "alphabeta-hce";  ///< one of kGameFaces (set from the built-in network at start)
  AnalysisFace m_analysisFace = AnalysisFace::kAlphaBeta;
  struct ClockState {
    bool enabled = false;
    i64 initialMs = 0, incMs = 0;
    i64 remaining[2] = {0, 0};
    bool running = false;
    Clock::time_point turnStart;
  } m_clock;
  std::string m_gameFile;  ///< data file of the current game ("" until it has a move)
  u64 m_stateVersion = 0;
  struct EvalPoint {
    int whiteCp = 0;           ///< clamped centipawns, White's view (mates as +-kReviewClampCp)
    std::optional<int> mate;   ///< White's view: +n White mates in n
    int depth = 0;
  };
  std::vector<std::pair<int, const Opening*>> m_openings;  ///< named positions by ply (server/openings.h)
  std::map<int, EvalPoint> m_evals;  ///< by ply: the best known evaluation of the position
  bool m_analysisOn = false;
  int m_multiPv = 1;
  std::optional<int> m_analysisPly;  ///< nullopt: follow the end of the game
  struct ReviewMove {
    int cpLoss = 0;
    std::string judgement;  ///< "", "inaccuracy", "mistake", "blunder"
    std::string bestSan;
  };
  struct ReviewState {
    bool running = false;
    int done = 0, total = 0;
    std::vector<ReviewMove> moves;  ///< one per move once finished
    bool finished = false;
  } m_review;
  std::string m_lastError;

  // The search in flight (set before go(), read by the callbacks).
  Kind m_kind = Kind::kNone;
  int m_searchPly = 0;
  Position m_searchRoot;
  SearchResult m_syncResult;
  std::optional<SearchInfo> m_lastInfo;  ///< latest multipv-1 info of the current search
  bool m_thinking = false;               ///< an engine-move search is running
  bool m_searchMcts = false;             ///< the session's engine runs MCTS in the current search
  bool m_searchBoth = false;             ///< ... and the second engine alpha-beta ("both" analysis)

  // Save de-duplication (file writes happen outside m_stateMutex).
  std::mutex m_saveMutex;
  u64 m_savedVersion = 0;

  std::mutex m_reviewMutex;  ///< guards m_reviewThread (start, cancel, join)
  std::thread m_reviewThread;
  std::atomic<bool> m_reviewCancel{false};

  /// The last root probe of the Syzygy tables (scoreWithTablebase): position, halfmove clock and
  /// the tables' generation it was made for.
  std::mutex m_tbMutex;
  struct {
    u64 key = 0;
    int halfmoveClock = -1;
    unsigned generation = ~0u;
    std::optional<SyzygyRootProbe> probe;
  } m_tbCache;

  // Last members: destroyed first, while the members their callbacks use still exist.
  std::unique_ptr<Engine> m_engine;
  /// The second engine, only while "both" analysis needs it: alpha-beta next to m_engine's MCTS.
  /// Guarded by m_engineMutex (its callbacks never touch the pointer).
  std::unique_ptr<Engine> m_secondEngine;
};

}  // namespace janus::server
