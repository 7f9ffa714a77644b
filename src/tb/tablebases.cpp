#include "tb/tablebases.h"

#include <algorithm>

namespace janus {

int TablebaseSet::probeLimit() const {
  int n = 0;
  for (const Tablebases* tb : m_backends) n = std::max(n, tb->probeLimit());
  return n;
}

bool TablebaseSet::covers(const Position& pos) const {
  return std::any_of(m_backends.begin(), m_backends.end(), [&](const Tablebases* tb) { return tb->covers(pos); });
}

std::optional<TbWdl> TablebaseSet::searchWdl(const Position& pos, int depth) const {
  for (const Tablebases* tb : m_backends)
    if (tb->covers(pos))
      if (auto wdl = tb->searchWdl(pos, depth)) return wdl;
  return std::nullopt;
}

std::optional<TbRootVerdict> TablebaseSet::rootVerdict(const Position& pos) const {
  for (const Tablebases* tb : m_backends)
    if (tb->covers(pos))
      if (auto v = tb->rootVerdict(pos)) return v;
  return std::nullopt;
}

}  // namespace janus
