#pragma once
// Transposition table (chessprogramming wiki "Transposition Table").
//
// Layout: clusters of 4 entries, 64 bytes, cache-line aligned. An entry is two 64-bit words,
// `check = key ^ data` and `data`, written and read with relaxed atomics. This is Hyatt and
// Mann's lockless hashing ("A lock-less transposition table implementation for parallel
// search chess engines", ICGA Journal 2002): an entry torn by concurrent writers fails the
// full 64-bit key check and is ignored, so Lazy SMP threads share the table without locks.
//
//   data (64 bits) = move:16 | score:16 | eval:16 | depth+kDepthOffset:8 | generation:5 pv:1 bound:2
//
// Replacement: same key -> overwrite (keeping the old move if the new one is none, and
// keeping a deeper exact entry of the current search); otherwise the entry with the lowest
// depth - 8 * age is replaced (depth-preferred with ageing).

#include <atomic>
#include <cstddef>
#include <memory>

#include "core/types.h"
#include "search/score.h"
#include "util/worker_pool.h"

namespace janus {

/// One decoded TT entry. `score` is node-relative (see scoreFromTT); `eval` is the static eval.
struct TTData {
  Move move;
  int score = kScoreNone;
  int eval = kScoreNone;
  int depth = 0;
  Bound bound = Bound::kNone;
  bool pv = false;
};

class TranspositionTable {
 public:
  static constexpr int kDepthOffset = 8;  ///< stored depth = depth + 8 (quiescence depths are <= 0)
  static constexpr int kEntriesPerCluster = 4;

  TranspositionTable() { resize(16); }

  /// Reallocates to `mib` MiB (rounded down to whole 64-byte clusters, at least one) and clears.
  /// Not thread-safe: call only while no search runs. If the memory cannot be allocated, throws
  /// janus::Error("cannot allocate N MiB for the hash table ...") and keeps a cleared table of the
  /// previous size.
  void resize(size_t mib);
  /// Zeroes every entry, split over `pool`'s threads (the search's own, so no thread is started),
  /// or on the caller alone when `pool` is null. Not thread-safe with a running search.
  void clear(WorkerPool* pool = nullptr);
  /// Starts a new search: entries of older searches become preferred victims.
  void newSearch() { m_generation = u8((m_generation + 1) & 31); }

  /// Looks `key` up; true and fills `out` on a hit. Thread-safe.
  bool probe(u64 key, TTData& out) const;
  /// Stores an entry. `score` must already be node-relative (scoreToTT). Thread-safe.
  void store(u64 key, int score, int eval, Move move, int depth, Bound bound, bool pv);
  /// Hints the CPU to fetch the cluster of `key`.
  void prefetch(u64 key) const { __builtin_prefetch(&m_clusters[index(key)]); }

  /// Per-mille of sampled entries (first 1000 clusters) written by the current search
  /// (UCI "hashfull").
  [[nodiscard]] int hashfull() const;
  [[nodiscard]] size_t sizeMiB() const { return m_clusterCount * sizeof(Cluster) >> 20; }

 private:
  struct Entry {
    std::atomic<u64> check{0};
    std::atomic<u64> data{0};
  };
  struct alignas(64) Cluster {
    Entry entries[kEntriesPerCluster];
  };
  static_assert(sizeof(Cluster) == 64);

  [[nodiscard]] size_t index(u64 key) const { return size_t((unsigned __int128)key * m_clusterCount >> 64); }

  std::unique_ptr<Cluster[]> m_clusters;
  size_t m_clusterCount = 0;
  u8 m_generation = 0;
};

}  // namespace janus
