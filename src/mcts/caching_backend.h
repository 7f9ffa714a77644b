#pragma once
// CachingBackend: a decorator that remembers evaluations of another backend (lc0's
// src/neural/memcache.h does the same as a backend wrapper). The MCTS tree already evaluates
// each of its nodes once; the cache pays when a position comes back: transpositions inside
// the tree, a new tree after a move that was not expanded, analysis of the same game again.
//
// Key: the Zobrist key of the position, xor-ed with a hash of the halfmove clock when the inner
// backend reads it and with hashes of the keys of the last historyPlies positions when its
// output depends on history (BackendAttributes). lc0 also keys its cache on the current
// position alone unless told otherwise (its CacheHistoryLength option, default 0). The legal
// moves are stored with the priors and the move values (BackendComputation::moveValues); a hit
// whose move list differs (a 64-bit key collision) is treated as a miss.
//
// Replacement: 16 shards, each a fixed-size table with the CLOCK ("second chance")
// approximation of least-recently-used eviction: a hit marks the entry; the eviction hand
// skips (and unmarks) marked entries and replaces the first unmarked one. Capacity is in
// entries (about 100 bytes plus 6 bytes per legal move each, 10 with move values).
//
// Thread-safety: newComputation(), attributes() and stats() may be called from any thread;
// each shard has its own mutex. A computation is used by one thread (the Backend contract).
// clear(), resetStats() and setCapacity() are not called during a search.

#include <atomic>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "mcts/backend.h"

namespace janus::mcts {

/// Cache counters since construction or resetStats(). hits + misses = lookups.
struct CacheStats {
  u64 hits = 0;
  u64 misses = 0;
  u64 entries = 0;   ///< entries in use
  u64 capacity = 0;  ///< maximum entries
  [[nodiscard]] double hitRate() const { return hits + misses ? double(hits) / double(hits + misses) : 0.0; }
};

class CachingBackend final : public Backend {
 public:
  static constexpr int kShards = 16;

  /// Caches `inner` with room for `capacityEntries` evaluations (0: no caching, every input
  /// goes to `inner`; lookups are then not counted).
  CachingBackend(std::shared_ptr<Backend> inner, size_t capacityEntries);

  [[nodiscard]] std::unique_ptr<BackendComputation> newComputation() override;
  /// The inner backend's attributes; the description says "cached".
  [[nodiscard]] BackendAttributes attributes() const override;
  /// Empties the cache (counters are kept) and clears the inner backend. Not during a search.
  void clear() override;

  [[nodiscard]] CacheStats stats() const;
  void resetStats();
  /// Changes the capacity and empties the cache. Not during a search.
  void setCapacity(size_t capacityEntries);
  [[nodiscard]] size_t capacity() const { return m_capacity; }
  [[nodiscard]] Backend& inner() { return *m_inner; }

  /// The cache key of `pos` for a backend with attributes `a` (see above).
  [[nodiscard]] static u64 cacheKey(const Position& pos, const BackendAttributes& a);

 private:
  friend class CachingComputation;
  struct Entry {
    u64 key = 0;
    Wdl wdl;
    std::vector<Move> moves;
    std::vector<float> priors;
    std::vector<float> values;  // BackendComputation::moveValues (empty: none)
    bool referenced = false;  // CLOCK bit: hit since the hand last passed
  };
  struct Shard {
    std::mutex mutex;
    std::vector<Entry> entries;              // guarded by mutex
    std::unordered_map<u64, u32> index;      // key -> position in entries; guarded by mutex
    size_t hand = 0;                         // guarded by mutex
    size_t capacity = 0;
  };

  /// A cached answer, its per-move vectors in the order of the moves it was looked up with.
  struct Answer {
    Wdl wdl;
    std::vector<float> priors;
    std::vector<float> values;  // empty: the backend gave no move values
  };
  /// On a hit fills `answer` (per-move vectors in the order of `moves`) and returns true.
  bool lookup(u64 key, std::span<const Move> moves, Answer& answer);
  void insert(u64 key, std::span<const Move> moves, const Wdl& wdl, std::span<const float> priors,
              std::span<const float> values);
  Shard& shardOf(u64 key) { return *m_shards[key % kShards]; }

  std::shared_ptr<Backend> m_inner;
  BackendAttributes m_attributes;  // the inner backend's
  size_t m_capacity = 0;
  std::vector<std::unique_ptr<Shard>> m_shards;
  std::atomic<u64> m_hits{0}, m_misses{0};
};

}  // namespace janus::mcts
