#include "search/tt.h"

#include <algorithm>
#include <cstring>
#include <new>
#include <string>

#include "util/error.h"

namespace janus {

namespace {
struct Unpacked {
  u16 move;
  i16 score, eval;
  u8 depth, genBound;
};

u64 pack(Move move, int score, int eval, int depth, u8 genBound) {
  return u64(move.raw()) | (u64(u16(i16(score))) << 16) | (u64(u16(i16(eval))) << 32) |
         (u64(u8(depth + TranspositionTable::kDepthOffset)) << 48) | (u64(genBound) << 56);
}

Unpacked unpack(u64 d) {
  return {u16(d), i16(u16(d >> 16)), i16(u16(d >> 32)), u8(d >> 48), u8(d >> 56)};
}

constexpr u8 kBoundMask = 3, kPvBit = 4;
}  // namespace

void TranspositionTable::resize(size_t mib) {
  size_t count = std::max<size_t>(1, (mib << 20) / sizeof(Cluster));
  size_t oldCount = std::max<size_t>(1, m_clusterCount);
  m_clusters.reset();  // free first so that old + new never coexist
  try {
    m_clusters = std::make_unique<Cluster[]>(count);
  } catch (const std::bad_alloc&) {
    // Never leave the table without memory (probe/store would dereference null): take the old
    // size back (its memory was just freed) and report the failure.
    m_clusters = std::make_unique<Cluster[]>(oldCount);
    m_clusterCount = oldCount;
    m_generation = 0;
    throw Error("cannot allocate " + std::to_string(mib) + " MiB for the hash table (out of memory); it keeps " +
                std::to_string(sizeMiB()) + " MiB");
  }
  m_clusterCount = count;
  m_generation = 0;
}

void TranspositionTable::clear(WorkerPool* pool) {
  auto clearPart = [this, parts = pool ? pool->size() : 1](int t) {
    size_t begin = 0, end = 0;
    WorkerPool::split(m_clusterCount, parts, t, begin, end);
    // std::atomic<u64> is lock-free with the layout of u64, so all-zero bytes are zero entries;
    // no search runs during clear(), so plain stores are safe here.
    std::memset(static_cast<void*>(&m_clusters[begin]), 0, (end - begin) * sizeof(Cluster));
  };
  if (pool)
    pool->run(clearPart);
  else
    clearPart(0);
  m_generation = 0;
}

bool TranspositionTable::probe(u64 key, TTData& out) const {
  const Cluster& c = m_clusters[index(key)];
  for (const auto& e : c.entries) {
    u64 data = e.data.load(std::memory_order_relaxed);
    u64 check = e.check.load(std::memory_order_relaxed);
    if ((check ^ data) != key || data == 0) continue;
    Unpacked u = unpack(data);
    out.move = Move(u.move);
    out.score = u.score;
    out.eval = u.eval;
    out.depth = int(u.depth) - kDepthOffset;
    out.bound = Bound(u.genBound & kBoundMask);
    out.pv = u.genBound & kPvBit;
    return true;
  }
  return false;
}

void TranspositionTable::store(u64 key, int score, int eval, Move move, int depth, Bound bound, bool pv) {
  Cluster& c = m_clusters[index(key)];
  Entry* victim = nullptr;
  int victimWorth = 1 << 30;
  for (auto& e : c.entries) {
    u64 data = e.data.load(std::memory_order_relaxed);
    u64 check = e.check.load(std::memory_order_relaxed);
    if (data == 0 || (check ^ data) == key) {
      victim = &e;
      break;
    }
    Unpacked u = unpack(data);
    int age = (m_generation - (u.genBound >> 3)) & 31;
    int worth = int(u.depth) - 8 * age;
    if (worth < victimWorth) victimWorth = worth, victim = &e;
  }
  u64 old = victim->data.load(std::memory_order_relaxed);
  bool sameKey = old && (victim->check.load(std::memory_order_relaxed) ^ old) == key;
  if (sameKey) {
    Unpacked u = unpack(old);
    if (!move) move = Move(u.move);
    // Keep a clearly deeper entry of this search unless the new one is exact.
    bool sameGeneration = (u.genBound >> 3) == m_generation;
    if (bound != Bound::kExact && sameGeneration && int(u.depth) - kDepthOffset > depth + 3) return;
  }
  u8 genBound = u8((m_generation << 3) | (pv ? kPvBit : 0) | u8(bound));
  u64 data = pack(move, score, eval, depth, genBound);
  victim->check.store(key ^ data, std::memory_order_relaxed);
  victim->data.store(data, std::memory_order_relaxed);
}

int TranspositionTable::hashfull() const {
  int used = 0;
  size_t n = std::min<size_t>(1000, m_clusterCount);
  for (size_t i = 0; i < n; ++i)
    for (const auto& e : m_clusters[i].entries) {
      u64 d = e.data.load(std::memory_order_relaxed);
      if (d && (unpack(d).genBound >> 3) == m_generation) ++used;
    }
  return int(used * 1000 / (n * kEntriesPerCluster));
}

}  // namespace janus
