#pragma once
// The search seam: what the engine facade asks of a search algorithm (alpha-beta now, MCTS
// later) and what it reports back. Search algorithms never talk UCI; the engine turns these
// structures into protocol text or JSON.

#include <atomic>
#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/position.h"
#include "search/score.h"
#include "search/wdl.h"

namespace janus {

/// Limits of one search, as given by UCI "go". Times in milliseconds; -1 / 0 mean "not set".
struct SearchLimits {
  i64 time[2] = {-1, -1};  ///< remaining clock time [White, Black] (wtime/btime)
  i64 inc[2] = {0, 0};     ///< increment per move [White, Black] (winc/binc)
  int movesToGo = 0;       ///< moves to the next time control (0: sudden death)
  i64 moveTime = -1;       ///< exact time for this move (movetime)
  int depth = 0;           ///< maximum depth in plies (0: no limit)
  u64 nodes = 0;           ///< maximum nodes (0: no limit); MCTS: playouts plus alpha-beta hint nodes
  /// Tree searches (MCTS) only: maximum playouts of this search, whatever its hints search (0: no
  /// limit; UCI "go playouts", a Janus extension). Self-play, the RL gates and the GUI's levels
  /// limit playouts, so that their searches do the same tree work with or without hints.
  u64 playouts = 0;
  int mate = 0;            ///< search for a mate in this many moves (0: no)
  bool infinite = false;   ///< search until stop
  bool ponder = false;     ///< start in ponder mode (until ponderhit or stop)
  std::vector<Move> searchMoves;  ///< restrict the root to these moves (empty: all)
  /// When the request arrived (UCI: the go line was read); the clock runs from here, so time
  /// spent before the search thread starts is counted. Unset: the search's own start.
  std::optional<std::chrono::steady_clock::time_point> startTime;

  [[nodiscard]] bool usesClock() const { return time[0] >= 0 || time[1] >= 0 || moveTime >= 0; }
};

/// Settings that stay fixed during a search (snapshot of the engine's options).
struct SearchConfig {
  int threads = 1;          ///< Lazy SMP threads
  int multiPv = 1;          ///< number of principal variations to report
  i64 moveOverheadMs = 30;  ///< time reserved per move for communication delays (ms)
};

/// Statistics of one root move in a tree search (MCTS): how many playouts went through it, the
/// prior the backend (network or one-ply search) gave it and its value so far.
struct MoveStat {
  Move move;
  u64 visits = 0;        ///< playouts through the move (never alpha-beta hints' virtual visits)
  float prior = 0;       ///< the backend's policy prior P for the move, 0..1
  float q = 0;           ///< mean value Q of its playouts in [-1, 1], side to move's view (0 when unvisited)
  /// The prior the search selected with, 0..1: P after alpha-beta hints raised their best
  /// move's share and after root noise (equal to `prior` when neither touched it).
  float searchPrior = 0;
  /// The value the search chose with, in [-1, 1], side to move's view: Q blended with the
  /// alpha-beta hints' values (their prior knowledge, Node::selectionQ); what decides the move
  /// and the shares, while `q` is the playouts' mean alone. Unset when unvisited and unhinted.
  std::optional<float> searchQ;
};

/// One progress report ("info" line): one principal variation of one iteration.
struct SearchInfo {
  int depth = 0;
  int selDepth = 0;
  int multiPv = 1;                ///< 1-based index of the line
  int score = 0;                  ///< centipawns or mate score (see score.h), side to move's view
  Bound bound = Bound::kExact;    ///< kLower: fail high (lowerbound), kUpper: fail low (upperbound)
  u64 nodes = 0;
  u64 nps = 0;
  int hashfull = 0;               ///< per mille
  u64 tbHits = 0;
  i64 timeMs = 0;
  std::vector<Move> pv;
  std::optional<WdlPermille> wdl;  ///< with UCI_ShowWDL: the score through the WDL model (wdl.h)
  /// Tree searches only: the root moves' statistics, most visited first (UCI prints them as
  /// "info string" lines after the line). Empty for alpha-beta.
  std::vector<MoveStat> moveStats;
  /// Tree searches only, on the first line of a report: the playouts among `nodes` (the rest
  /// are the alpha-beta hints' nodes); UCI prints both in an "info string" line.
  std::optional<u64> playouts;
};

/// Final answer of a search.
struct SearchResult {
  Move best;           ///< Move::none() if the root has no legal move
  Move ponder;         ///< expected reply, or Move::none()
  int score = 0;
  int depth = 0;
  u64 nodes = 0;     ///< MCTS: playouts plus alpha-beta hint nodes
  u64 playouts = 0;  ///< tree searches only: this search's playouts (0 for alpha-beta)
  i64 timeMs = 0;
  /// Tree searches only: every searchable root move's statistics at the end of the search, in
  /// the order of the move choice (most playouts first; proven wins first, proven losses last).
  /// What self-play samples its move from and trains the policy on. Empty for alpha-beta.
  std::vector<MoveStat> rootStats;
};

/// Receives progress reports. Called on the search thread.
using InfoCallback = std::function<void(const SearchInfo&)>;

/// Signals from the client to a running search. The engine owns them and resets them before
/// it starts a search, so a stop or ponderhit that arrives before the search thread runs is
/// never lost.
struct SearchSignals {
  std::atomic<bool> stop{false};       ///< end the search as soon as possible
  std::atomic<bool> ponderhit{false};  ///< the expected move was played: apply time limits
}; 

/// A search algorithm. The engine owns one and calls run() on its own search thread; stop and
/// ponderhit arrive through SearchSignals set from other threads.
class Search {
 public:
  virtual ~Search() = default;

  /// Searches `root` (whose history is used for repetition detection) within `limits`.
  /// Blocks until the search ends by its limits or by signals.stop; calls `onInfo` as it goes.
  /// While in ponder mode (limits.ponder and no signals.ponderhit yet) no time limit applies.
  virtual SearchResult run(const Position& root, const SearchLimits& limits, const SearchConfig& config,
                           const InfoCallback& onInfo, const SearchSignals& signals) = 0;
  /// Forgets everything learned (hash, histories): a new game. Not during a search.
  virtual void newGame() = 0;
  /// Resizes the hash table (MiB) and clears it. Not during a search.
  virtual void setHashMiB(size_t mib) = 0;
  /// Short identifier, e.g. "alphabeta".
  [[nodiscard]] virtual std::string name() const = 0;
};

}  // namespace janus
