#pragma once
// One memory budget for everything the GUI server's sessions hold (`janus gui --memory-mib N`,
// docs/gui.md "Memory budget"). The server counts, in MiB, what each session reserves before it
// allocates it:
//
//   * a session (reserved when it is created): its engine's hash table (--hash), the engine's
//     search tables and thread, the game, its states and its event queue;
//   * a second engine (alpha-beta next to MCTS for "both" analysis): a hash table and tables;
//   * MCTS, in two parts: the search's fixed part (its leaf searches' hash table and tables, kept
//     while the session lives once it used MCTS) and its tree with the evaluation cache (freed
//     when the memory is reclaimed).
//
// The costs are estimates measured on the server (RSS with 1, 10 and more sessions, MCTS trees of
// 1, 32, 128 and 256 MiB; see docs/gui.md), rounded up. An MCTS tree is granted at most
// --mcts-tree MiB and, when memory is short, an equal share of what is left among the sessions
// that have no tree yet, at least kMinTreeMiB (mctsTreeGrant). What does not fit is first taken
// from idle sessions (trees and second engines of sessions not searching with them: the reclaimer
// the server installs), then refused: a new session or an analysis beyond the budget gets 503.
//
// Thread-safe. The reclaimer runs without the budget's lock held.

#include <functional>
#include <map>
#include <mutex>
#include <string>

#include "core/types.h"

namespace janus::server {

/// The memory model (MiB unless named otherwise).
struct MemoryCosts {
  static constexpr i64 kServerBaseMiB = 48;   ///< the process without sessions (networks, HTTP threads, heap slack)
  static constexpr i64 kEngineMiB = 14;       ///< an engine besides its hash table (search tables, evaluator, thread)
  static constexpr i64 kSessionDataMiB = 4;   ///< a session's game, state JSON and event queue (at most 4 MiB)
  static constexpr i64 kSecondEngineExtraMiB = 6;  ///< a second engine's analysis state beyond an engine
  static constexpr i64 kMctsFixedMiB = 40;    ///< an MCTS search besides tree and cache (leaf searches' TT, tables)
  static constexpr i64 kCacheEntryBytes = 400;  ///< one MCTS evaluation cache entry (moves and priors)
  static constexpr double kTreeFactor = 1.15;   ///< heap per MiB of tree as the search counts it (allocator overhead)
  static constexpr int kMinTreeMiB = 8;         ///< the smallest tree granted
  static constexpr i64 kDefaultBudgetMiB = 2048;  ///< --memory-mib default (at most half the machine's memory)
};

/// A session with a `hashMiB` hash table.
[[nodiscard]] i64 sessionCostMiB(int hashMiB);
/// The second engine of "both" analysis.
[[nodiscard]] i64 secondEngineCostMiB(int hashMiB);
/// An MCTS evaluation cache of `entries` positions.
[[nodiscard]] i64 mctsCacheCostMiB(int entries);
/// An MCTS tree of `treeMiB` (the search's own count) with a cache of `cacheEntries`: what the
/// budget reserves for the reclaimable part of MCTS.
[[nodiscard]] i64 mctsTreeCostMiB(int treeMiB, int cacheEntries);

/// The MCTS tree (MiB, the engine's option "MCTS Tree MiB") to grant a session: `configuredMiB`
/// (--mcts-tree) when `freeMiB` holds it and, for each of the `othersWithout` sessions without a
/// tree, the fixed part and an equal share of the rest; else that equal share (this session's and
/// theirs of what is free after every fixed part); at least kMinTreeMiB when it fits in `freeMiB`
/// by itself; 0 when even that does not fit. `needsFixed`: the session has no MCTS fixed part yet
/// (it costs kMctsFixedMiB more). `cacheEntries`: the evaluation cache of each MCTS search.
[[nodiscard]] int mctsTreeGrant(i64 freeMiB, int othersWithout, bool needsFixed, int configuredMiB, int cacheEntries);

/// The smallest budget that serves one session with MCTS: the process, one session and the
/// smallest MCTS search (MiB).
[[nodiscard]] i64 minimumBudgetMiB(int hashMiB, int cacheEntries);

/// The default budget (MiB): kDefaultBudgetMiB, or half the machine's memory when that is less
/// (never below minimumBudgetMiB).
[[nodiscard]] i64 defaultBudgetMiB(int hashMiB, int cacheEntries);

class MemoryBudget {
 public:
  /// What a reservation is for (one of each per owner at most).
  enum class Part { kSession, kSecondEngine, kMctsFixed, kMctsTree };

  /// Reclaims memory for `requester` (a session id): frees idle sessions' reclaimable parts
  /// (releasing their reservations) and returns the MiB released.
  using Reclaimer = std::function<i64(const std::string& requester, i64 neededMiB)>;

  /// A budget of `totalMiB`, of which MemoryCosts::kServerBaseMiB are the process's own.
  explicit MemoryBudget(i64 totalMiB);

  void setReclaimer(Reclaimer reclaimer);

  /// Reserves `mib` for `owner`'s `part` (replacing what it held for that part); false, with
  /// nothing changed, when it does not fit in what is free.
  bool tryReserve(const std::string& owner, Part part, i64 mib);
  /// tryReserve, and when it does not fit, the reclaimer once and tryReserve again.
  bool reserveOrReclaim(const std::string& owner, Part part, i64 mib);
  /// Releases `owner`'s `part`; returns the MiB released (0 if it held none).
  i64 release(const std::string& owner, Part part);
  /// Releases everything `owner` holds.
  void releaseAll(const std::string& owner);
  /// Asks the reclaimer for `neededMiB` on behalf of `owner`; returns what it released.
  i64 reclaim(const std::string& owner, i64 neededMiB);

  [[nodiscard]] bool holds(const std::string& owner, Part part) const;
  [[nodiscard]] i64 totalMiB() const { return m_total; }
  /// The process's own part and every reservation.
  [[nodiscard]] i64 usedMiB() const;
  [[nodiscard]] i64 freeMiB() const;
  /// Sessions (owners of a kSession part) that hold no kMctsTree, `owner` not counted.
  [[nodiscard]] int sessionsWithoutTree(const std::string& owner) const;

  struct Usage {
    i64 totalMiB = 0, usedMiB = 0, freeMiB = 0;
    int sessions = 0, mctsTrees = 0, secondEngines = 0;
  };
  [[nodiscard]] Usage usage() const;

 private:
  [[nodiscard]] i64 usedLocked() const;

  const i64 m_total;
  mutable std::mutex m_mutex;
  std::map<std::string, std::map<Part, i64>> m_reserved;  ///< owner -> part -> MiB
  Reclaimer m_reclaimer;
};

}  // namespace janus::server
