#include "server/memory_budget.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>

namespace janus::server {

using C = MemoryCosts;

i64 sessionCostMiB(int hashMiB) { return hashMiB + C::kEngineMiB + C::kSessionDataMiB; }

i64 secondEngineCostMiB(int hashMiB) { return hashMiB + C::kEngineMiB + C::kSecondEngineExtraMiB; }

i64 mctsCacheCostMiB(int entries) {
  return (i64(std::max(0, entries)) * C::kCacheEntryBytes + (i64(1) << 20) - 1) >> 20;
}

i64 mctsTreeCostMiB(int treeMiB, int cacheEntries) {
  return i64(std::ceil(double(treeMiB) * C::kTreeFactor)) + mctsCacheCostMiB(cacheEntries);
}

int mctsTreeGrant(i64 freeMiB, int othersWithout, bool needsFixed, int configuredMiB, int cacheEntries) {
  const i64 cache = mctsCacheCostMiB(cacheEntries);
  const i64 own = (needsFixed ? C::kMctsFixedMiB : 0) + cache;  // this session's cost besides its tree
  const i64 other = C::kMctsFixedMiB + cache;                     // another session's, when it starts MCTS
  const i64 rest = freeMiB - own - i64(std::max(0, othersWithout)) * other;
  const double share = double(rest) / double(std::max(0, othersWithout) + 1) / C::kTreeFactor;
  int grant = int(std::min<double>(configuredMiB, std::floor(std::max(0.0, share))));
  if (grant >= C::kMinTreeMiB) return grant;
  // Too short to share: the smallest tree, if it fits at all.
  const int smallest = std::min(configuredMiB, C::kMinTreeMiB);
  return own + i64(std::ceil(smallest * C::kTreeFactor)) <= freeMiB ? smallest : 0;
}

i64 minimumBudgetMiB(int hashMiB, int cacheEntries) {
  return C::kServerBaseMiB + sessionCostMiB(hashMiB) + C::kMctsFixedMiB + mctsTreeCostMiB(C::kMinTreeMiB, cacheEntries);
}

i64 defaultBudgetMiB(int hashMiB, int cacheEntries) {
  i64 budget = C::kDefaultBudgetMiB;
  const long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGE_SIZE);
  if (pages > 0 && pageSize > 0) budget = std::min<i64>(budget, (i64(pages) * pageSize >> 20) / 2);
  return std::max(budget, minimumBudgetMiB(hashMiB, cacheEntries));
}

MemoryBudget::MemoryBudget(i64 totalMiB) : m_total(totalMiB) {}

void MemoryBudget::setReclaimer(Reclaimer reclaimer) {
  std::lock_guard lock(m_mutex);
  m_reclaimer = std::move(reclaimer);
}

i64 MemoryBudget::usedLocked() const {
  i64 used = C::kServerBaseMiB;
  for (const auto& [owner, parts] : m_reserved)
    for (const auto& [part, mib] : parts) used += mib;
  return used;
}

bool MemoryBudget::tryReserve(const std::string& owner, Part part, i64 mib) {
  std::lock_guard lock(m_mutex);
  i64 held = 0;
  if (auto it = m_reserved.find(owner); it != m_reserved.end())
    if (auto p = it->second.find(part); p != it->second.end()) held = p->second;
  if (usedLocked() - held + mib > m_total) return false;
  m_reserved[owner][part] = mib;
  return true;
}

bool MemoryBudget::reserveOrReclaim(const std::string& owner, Part part, i64 mib) {
  if (tryReserve(owner, part, mib)) return true;
  reclaim(owner, mib);
  return tryReserve(owner, part, mib);
}

i64 MemoryBudget::reclaim(const std::string& owner, i64 neededMiB) {
  Reclaimer reclaimer;
  {
    std::lock_guard lock(m_mutex);
    reclaimer = m_reclaimer;
  }
  return reclaimer ? reclaimer(owner, neededMiB) : 0;
}

i64 MemoryBudget::release(const std::string& owner, Part part) {
  std::lock_guard lock(m_mutex);
  auto it = m_reserved.find(owner);
  if (it == m_reserved.end()) return 0;
  auto p = it->second.find(part);
  if (p == it->second.end()) return 0;
  const i64 mib = p->second;
  it->second.erase(p);
  if (it->second.empty()) m_reserved.erase(it);
  return mib;
}

void MemoryBudget::releaseAll(const std::string& owner) {
  std::lock_guard lock(m_mutex);
  m_reserved.erase(owner);
}

bool MemoryBudget::holds(const std::string& owner, Part part) const {
  std::lock_guard lock(m_mutex);
  auto it = m_reserved.find(owner);
  return it != m_reserved.end() && it->second.count(part) > 0;
}

i64 MemoryBudget::usedMiB() const {
  std::lock_guard lock(m_mutex);
  return usedLocked();
}

i64 MemoryBudget::freeMiB() const {
  std::lock_guard lock(m_mutex);
  return m_total - usedLocked();
}

int MemoryBudget::sessionsWithoutTree(const std::string& owner) const {
  std::lock_guard lock(m_mutex);
  int n = 0;
  for (const auto& [o, parts] : m_reserved)
    if (o != owner && parts.count(Part::kSession) && !parts.count(Part::kMctsTree)) ++n;
  return n;
}

MemoryBudget::Usage MemoryBudget::usage() const {
  std::lock_guard lock(m_mutex);
  Usage u;
  u.totalMiB = m_total;
  u.usedMiB = usedLocked();
  u.freeMiB = m_total - u.usedMiB;
  for (const auto& [owner, parts] : m_reserved) {
    u.sessions += int(parts.count(Part::kSession));
    u.mctsTrees += int(parts.count(Part::kMctsTree));
    u.secondEngines += int(parts.count(Part::kSecondEngine));
  }
  return u;
}

}  // namespace janus::server
