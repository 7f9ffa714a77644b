#pragma once
// Engine facade: owns the game (position and history), the options, and the selected search
// (option "Search": alpha-beta with its transposition table, or MCTS with its tree and
// backend) with its threads. UCI, `janus bench`, `janus match` and the web GUI
// are thin clients: they call go()/stop() (which never block) and receive results through
// callbacks (as Stockfish's Engine class with its on_update/on_bestmove callbacks, src/engine.h).
//
// Threading contract: every public method may be called from any one client thread
// (calls are serialised by the client). go() starts the search on an engine-owned thread and
// returns at once; the info and bestmove callbacks run on that search thread. stop() and
// ponderhit() do not block; wait() blocks until the bestmove callback has returned.

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <thread>

#include "engine/options.h"
#include "mcts/backend.h"
#include "book/polyglot.h"
#include "engine/strength.h"
#include "eval/evaluator.h"
#include "search/search.h"
#include "search/timeman.h"
#include "tb/syzygy.h"
#include "util/task_thread.h"

namespace janus {

class AlphaBetaSearch;
namespace nnue {
class Network;
}
namespace mcts {
class MctsSearch;
struct FaceSettings;
}

class Engine {
 public:
  using BestMoveCallback = std::function<void(const SearchResult&)>;
  /// A line for the user outside any search (UCI: "info string <line>"); lines starting with
  /// "error: " report a problem that did not stop the command (e.g. a corrupt Syzygy table).
  using MessageCallback = std::function<void(const std::string&)>;

  Engine();
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // ---- Options -------------------------------------------------------------------------------
  [[nodiscard]] const Options& options() const { return m_options; }
  /// Sets an option (see Options::set for the errors). Throws janus::Error while a search runs.
  void setOption(const std::string& name, const std::string& value);
  /// Sets options given as "NAME=VALUE" (the command lines' repeatable --option), in order.
  /// Throws janus::Error naming an assignment without a name or '=', or as setOption.
  void setOptions(const std::vector<std::string>& assignments);

  // ---- Game ----------------------------------------------------------------------------------
  /// Forgets hash and histories (UCI ucinewgame). Stops and waits for a running search.
  void newGame();
  /// Sets the position from a FEN (or "startpos") and UCI moves played from it. On any error
  /// (bad FEN, malformed or illegal move) throws janus::Error naming it and keeps the previous
  /// position. A running search is not affected (it searches its own copy).
  void setPosition(const std::string& fenOrStartpos, const std::vector<std::string>& uciMoves);
  void setPosition(const Position& pos) { m_position = pos; }
  [[nodiscard]] const Position& position() const { return m_position; }
  /// True when moves are written and read as king-takes-rook (option UCI_Chess960).
  [[nodiscard]] bool chess960() const { return m_options.boolean("UCI_Chess960"); }

  // ---- Search --------------------------------------------------------------------------------
  /// Starts searching the current position. Does not block. Throws janus::Error if a search is
  /// already running. In infinite and ponder mode the bestmove callback waits for stop() or
  /// (ponder) ponderhit() followed by the end of the search, as UCI requires.
  void go(const SearchLimits& limits);
  void stop();
  void ponderhit();
  /// Blocks until the current search (if any) has delivered its bestmove.
  void wait();
  [[nodiscard]] bool searching() const { return m_searching.load(); }

  void onInfo(InfoCallback cb) { m_onInfo = std::move(cb); }
  void onBestMove(BestMoveCallback cb) { m_onBestMove = std::move(cb); }
  /// Called on the client's thread while a command (setoption) runs.
  void onMessage(MessageCallback cb) { m_onMessage = std::move(cb); }

  // ---- Evaluation ----------------------------------------------------------------------------
  /// Static evaluation of the current position in centipawns from the side to move's view.
  [[nodiscard]] int staticEval() const;
  /// Lag (ms) the clock showed beyond the engine's own thinking time on its previous moves
  /// (search/timeman.h LagEstimator); searches plan with max(Move Overhead, this).
  [[nodiscard]] i64 measuredLagMs() const { return m_lag.lagMs(); }
  /// What evaluates positions now: "NNUE nn-<hash> (768x2->...)" or "hand-crafted evaluation";
  /// with Search = mcts "MCTS backend <name>: <description>".
  [[nodiscard]] std::string evaluationName() const;

  /// The search in use (for tests and benchmarks).
  [[nodiscard]] Search& search() { return *m_search; }
  /// The MCTS search (created when the option Search is first set to mcts), or nullptr.
  [[nodiscard]] mcts::MctsSearch* mctsSearch() { return m_mcts.get(); }

  // ---- Tablebases (process-wide: every Engine of the process shares them) --------------------
  /// The Syzygy tables every engine probes (Fathom has one state per process): their state, and
  /// root probes for a display (the GUI shows the tables' verdict next to the search's score).
  [[nodiscard]] static const SyzygyTablebases& syzygy();
  /// Loads the Syzygy tables as the option SyzygyPath does (folders separated by ':'; "" releases
  /// them) and returns what was found (files, largest piece count, unusable files). Throws
  /// janus::Error ("option SyzygyPath: Syzygy tablebases: '/x' is not a directory ...", or that
  /// Fathom cannot be loaded); the tables loaded before then stay.
  static SyzygyTablebases::LoadReport loadSyzygy(const std::string& paths);

  /// The playing level in force (UCI_LimitStrength + UCI_Elo, or Skill Level below 20), if any.
  [[nodiscard]] std::optional<StrengthLevel> strengthLevel() const;
  /// Seeds the move choice of playing levels (for reproducible tests). Not during a search.
  void seedLevels(u64 seed) { m_rng.seed(seed); }

 private:
  void declareOptions();  // all UCI options, in the order `uci` lists them:
  void declareSearchOptions();     // alpha-beta, evaluation, strength, book
  void declareTablebaseOptions();  // Gaviota and Syzygy
  void declareMctsOptions();       // Search and MCTS *
  /// Makes the NNUE (with m_net) or the hand-crafted evaluator the search's evaluator. Throws
  /// janus::Error if useNnue and no network is loaded. Not during a search.
  void installEvaluator(bool useNnue);
  [[nodiscard]] SearchConfig searchConfig() const;
  /// Makes `name` ("alphabeta" or "mcts") the search. Not during a search.
  void selectSearch(const std::string& name);
  /// How MCTS values its leaves: MCTS Value (`nnue`: NnueValueBackend, else the backend's value
  /// head) and the leaf searches of the face's tuning options (mcts/face_options.h).
  /// (Defined in engine.cpp: its mcts::LeafSearchParams would pull the NNUE and alpha-beta
  /// headers into every includer of this one.)
  struct MctsValueSettings;
  /// The settings the options hold now.
  [[nodiscard]] MctsValueSettings mctsValueSettings() const;
  /// The face's tuning settings (mcts/face_options.h) as the options hold them now.
  [[nodiscard]] mcts::FaceSettings faceSettings() const;
  /// Creates the MCTS backend `name` with `options`, wrapped in NnueValueBackend when
  /// `value.nnue`, and in a CachingBackend of `cacheEntries` positions (0: none); if the MCTS
  /// search exists it installs it; then remembers `options`. Throws janus::Error (unknown name,
  /// bad weights file or setting) before changing anything, so the previous backend stays.
  /// Before the MCTS face is first used it only validates.
  void installMctsBackend(const std::string& name, i64 cacheEntries, const mcts::BackendOptions& options,
                          const MctsValueSettings& value);
  /// installMctsBackend with the current backend, cache and options, and `value` (an option's
  /// callback passes the settings with the value being set).
  void reinstallMctsBackend(const MctsValueSettings& value);
  /// Copies the face's tuning settings `face` and MCTS Tree MiB into the search's parameters: at
  /// go (options are read once per search, as lc0's search parameters are), when the search is
  /// created and when a tuning option changes (so that evaluationName() describes the hints set).
  void applyMctsOptions(const mcts::FaceSettings& face);

  Options m_options;
  Position m_position;
  std::unique_ptr<Evaluator> m_evaluator;  ///< prototype (also used for staticEval)
  std::unique_ptr<AlphaBetaSearch> m_alphaBeta;
  std::unique_ptr<mcts::MctsSearch> m_mcts;     ///< created on first use
  /// Settings of the MCTS backend: MCTS WeightsFile and the params ("policy-temperature").
  mcts::BackendOptions m_mctsBackendOptions{"", {{"policy-temperature", "1.0"}}};
  Search* m_search = nullptr;                   ///< the selected one of the two
  std::shared_ptr<const nnue::Network> m_net;   ///< EvalFile's network, or the embedded one (may be null)
  std::shared_ptr<const nnue::Network> m_valueNet;  ///< MCTS ValueFile's network for the MCTS leaves (null: m_net)
  LagEstimator m_lag;  ///< written by go() and, before bestmove, by the search task that go() waits for

  TaskThread m_thread;  ///< runs each search (kept from search to search)
  std::atomic<bool> m_searching{false};
  std::mutex m_mutex;
  std::condition_variable m_cv;
  SearchSignals m_signals;  ///< reset by go() before the search thread starts

  InfoCallback m_onInfo;
  BestMoveCallback m_onBestMove;
  MessageCallback m_onMessage;
  std::mt19937_64 m_rng{std::random_device{}()};
  PolyglotBook m_book;  ///< empty unless BookFile names a book
};

}  // namespace janus
