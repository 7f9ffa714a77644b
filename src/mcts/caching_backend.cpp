#include "mcts/caching_backend.h"

#include <algorithm>

#include "util/hash.h"

namespace janus::mcts {

/// One batch: hits are answered at once from the cache, misses go to one computation of the
/// inner backend and are stored after it has computed.
class CachingComputation final : public BackendComputation {
 public:
  explicit CachingComputation(CachingBackend& owner) : m_owner(owner), m_inner(owner.m_inner->newComputation()) {}

  int addInput(const Position& pos, std::span<const Move> legalMoves) override {
    Result r;
    if (m_owner.m_capacity > 0) {
      r.key = CachingBackend::cacheKey(pos, m_owner.m_attributes);
      r.hit = m_owner.lookup(r.key, legalMoves, r.answer);
    }
    if (!r.hit) {
      r.innerIndex = m_inner->addInput(pos, legalMoves);
      if (m_owner.m_capacity > 0) r.moves.assign(legalMoves.begin(), legalMoves.end());
    }
    m_results.push_back(std::move(r));
    return int(m_results.size()) - 1;
  }
  [[nodiscard]] int size() const override { return int(m_results.size()); }
  void compute() override {
    if (m_inner->size() == 0) return;
    m_inner->compute();
    if (m_owner.m_capacity == 0) return;
    for (const Result& r : m_results)
      if (!r.hit)
        m_owner.insert(r.key, r.moves, m_inner->wdl(r.innerIndex), m_inner->priors(r.innerIndex),
                       m_inner->moveValues(r.innerIndex));
  }
  [[nodiscard]] Wdl wdl(int i) const override {
    const Result& r = m_results[size_t(i)];
    return r.hit ? r.answer.wdl : m_inner->wdl(r.innerIndex);
  }
  [[nodiscard]] std::span<const float> priors(int i) const override {
    const Result& r = m_results[size_t(i)];
    return r.hit ? std::span<const float>(r.answer.priors) : m_inner->priors(r.innerIndex);
  }
  [[nodiscard]] std::span<const float> moveValues(int i) const override {
    const Result& r = m_results[size_t(i)];
    return r.hit ? std::span<const float>(r.answer.values) : m_inner->moveValues(r.innerIndex);
  }

 private:
  struct Result {
    bool hit = false;
    u64 key = 0;
    int innerIndex = -1;
    CachingBackend::Answer answer;  // hit
    std::vector<Move> moves;        // miss: stored with the result
  };
  CachingBackend& m_owner;
  std::unique_ptr<BackendComputation> m_inner;
  std::vector<Result> m_results;
};

CachingBackend::CachingBackend(std::shared_ptr<Backend> inner, size_t capacityEntries)
    : m_inner(std::move(inner)), m_attributes(m_inner->attributes()) {
  if (!m_attributes.cacheable) capacityEntries = 0;
  setCapacity(capacityEntries);
}

std::unique_ptr<BackendComputation> CachingBackend::newComputation() {
  return std::make_unique<CachingComputation>(*this);
}

BackendAttributes CachingBackend::attributes() const {
  BackendAttributes a = m_attributes;
  a.description += ", cache " + std::to_string(m_capacity) + " entries";
  return a;
}

void CachingBackend::setCapacity(size_t capacityEntries) {
  m_capacity = capacityEntries;
  m_shards.clear();
  if (m_capacity == 0) return;
  for (int i = 0; i < kShards; ++i) {
    auto s = std::make_unique<Shard>();
    s->capacity = std::max<size_t>(1, (m_capacity + kShards - 1) / kShards);
    m_shards.push_back(std::move(s));
  }
}

void CachingBackend::clear() {
  setCapacity(m_capacity);
  m_inner->clear();
}

CacheStats CachingBackend::stats() const {
  CacheStats s;
  s.hits = m_hits.load(std::memory_order_relaxed);
  s.misses = m_misses.load(std::memory_order_relaxed);
  s.capacity = m_capacity;
  for (const auto& shard : m_shards) {
    std::lock_guard lock(shard->mutex);
    s.entries += shard->entries.size();
  }
  return s;
}

void CachingBackend::resetStats() {
  m_hits = 0;
  m_misses = 0;
}

u64 CachingBackend::cacheKey(const Position& pos, const BackendAttributes& a) {
  u64 key = pos.key();
  if (a.usesHalfmoveClock) key ^= splitmix64(0x5A5A000000000000ull + u64(pos.halfmoveClock()));
  if (a.historyPlies > 0) {
    Position past = pos;  // walk back on a copy, as encoding::encodePlanes does
    int h = 1;
    for (; h <= a.historyPlies && past.movesMade() > 0; ++h) {
      const Move last = past.lastMove();
      if (last == Move::null())
        past.unmakeNullMove();
      else
        past.unmakeMove(last);
      key ^= splitmix64(past.key() + u64(h) * 0x9E3779B97F4A7C15ull);
    }
    if (h <= a.historyPlies) key ^= splitmix64(0xA5A5000000000000ull + u64(h));  // history cut short: other inputs
  }
  return key;
}

bool CachingBackend::lookup(u64 key, std::span<const Move> moves, Answer& answer) {
  Shard& s = shardOf(key);
  bool hit = false;
  {
    std::lock_guard lock(s.mutex);
    auto it = s.index.find(key);
    if (it != s.index.end()) {
      Entry& e = s.entries[it->second];
      if (e.moves.size() == moves.size()) {
        hit = true;
        if (std::equal(moves.begin(), moves.end(), e.moves.begin())) {
          answer.priors = e.priors;
          answer.values = e.values;
        } else {  // same moves in another order (or a key collision: then a miss)
          answer.priors.resize(moves.size());
          answer.values.resize(e.values.empty() ? 0 : moves.size());
          for (size_t i = 0; i < moves.size() && hit; ++i) {
            auto at = std::find(e.moves.begin(), e.moves.end(), moves[i]);
            if (at == e.moves.end()) {
              hit = false;
            } else {
              const size_t k = size_t(at - e.moves.begin());
              answer.priors[i] = e.priors[k];
              if (!e.values.empty()) answer.values[i] = e.values[k];
            }
          }
        }
        if (hit) {
          answer.wdl = e.wdl;
          e.referenced = true;
        }
      }
    }
  }
  (hit ? m_hits : m_misses).fetch_add(1, std::memory_order_relaxed);
  return hit;
}

void CachingBackend::insert(u64 key, std::span<const Move> moves, const Wdl& wdl, std::span<const float> priors,
                            std::span<const float> values) {
  Shard& s = shardOf(key);
  std::lock_guard lock(s.mutex);
  size_t slot;
  if (auto it = s.index.find(key); it != s.index.end()) {
    slot = it->second;  // evaluated twice (two threads, or twice in one batch): refresh
  } else if (s.entries.size() < s.capacity) {
    slot = s.entries.size();
    s.entries.emplace_back();
    s.index[key] = u32(slot);
  } else {
    // CLOCK: give marked entries a second chance, evict the first unmarked one.
    while (s.entries[s.hand].referenced) {
      s.entries[s.hand].referenced = false;
      s.hand = (s.hand + 1) % s.entries.size();
    }
    slot = s.hand;
    s.hand = (s.hand + 1) % s.entries.size();
    s.index.erase(s.entries[slot].key);
    s.index[key] = u32(slot);
  }
  Entry& e = s.entries[slot];
  e.key = key;
  e.wdl = wdl;
  e.moves.assign(moves.begin(), moves.end());
  e.priors.assign(priors.begin(), priors.end());
  e.values.assign(values.begin(), values.end());
  e.referenced = false;
}

}  // namespace janus::mcts
