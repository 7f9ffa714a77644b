#include "mcts/backend.h"

#include <algorithm>
#include <istream>

#include <fmt/format.h>

#include "util/error.h"
#include "util/zstd_stream.h"

namespace janus::mcts {

BackendRegistry& BackendRegistry::instance() {
  static BackendRegistry registry;
  return registry;
}

bool BackendRegistry::add(const std::string& name, int priority, BackendFactory factory, BackendClaim claims) {
  std::lock_guard lock(m_mutex);
  m_entries[name] = {priority, std::move(factory), std::move(claims)};
  return true;
}

std::vector<std::string> BackendRegistry::names() const {
  std::lock_guard lock(m_mutex);
  std::vector<std::pair<int, std::string>> v;
  for (const auto& [name, e] : m_entries) v.emplace_back(-e.priority, name);
  std::sort(v.begin(), v.end());
  std::vector<std::string> out;
  for (auto& [p, name] : v) out.push_back(std::move(name));
  return out;
}

std::string BackendRegistry::defaultName() const {
  const std::vector<std::string> all = names();
  if (all.empty()) throw Error("no MCTS backend is registered (the binary does not link janus_mcts_backends)");
  return all.front();
}

bool BackendRegistry::contains(const std::string& name) const {
  std::lock_guard lock(m_mutex);
  return m_entries.count(name) != 0;
}

std::unique_ptr<Backend> BackendRegistry::create(const std::string& name, const BackendOptions& options) const {
  BackendFactory factory;
  {
    std::lock_guard lock(m_mutex);
    auto it = m_entries.find(name);
    if (it == m_entries.end()) {
      std::string known;
      for (const auto& [n, e] : m_entries) known += (known.empty() ? "" : ", ") + n;
      throw Error("unknown MCTS backend '" + name + "' (known: " + known + ")");
    }
    factory = it->second.factory;
  }
  return factory(options);  // outside the lock: loading a network may take a while
}

std::string BackendRegistry::forWeightsFile(const std::string& path, const std::string& preferred) const {
  // The file's first bytes, for the message when nobody claims it; opening it first gives a
  // missing file its own message (openInputFile names the path and the reason).
  std::string start(8, '\0');
  {
    const std::unique_ptr<std::istream> in = openInputFile(path);
    in->read(start.data(), std::streamsize(start.size()));
    start.resize(std::size_t(in->gcount()));
  }
  std::vector<std::pair<std::string, BackendClaim>> claims;  // highest priority first
  for (const std::string& name : names()) {
    std::lock_guard lock(m_mutex);
    const auto it = m_entries.find(name);
    if (it != m_entries.end() && it->second.claims) claims.emplace_back(name, it->second.claims);
  }
  std::string best, readers;
  for (const auto& [name, claim] : claims) {  // outside the lock: claims read the file
    readers += (readers.empty() ? "" : ", ") + name;
    if (!claim(path)) continue;
    if (name == preferred) return name;
    if (best.empty()) best = name;
  }
  if (!best.empty()) return best;
  std::string shown;
  for (char c : start.substr(0, start.find('\0'))) shown += c >= 32 && c < 127 ? c : '.';
  throw Error(fmt::format("no MCTS backend of this binary reads the network file '{}' (it starts with \"{}\"; the "
                          "backends that read files: {})",
                          path, shown, readers.empty() ? "none" : readers));
}

}  // namespace janus::mcts
