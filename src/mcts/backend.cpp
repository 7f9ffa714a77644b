#include "mcts/backend.h"

#include <algorithm>

#include "mcts/pvnet_backend.h"
#include "mcts/uniform_backend.h"
#include "util/error.h"

namespace janus::mcts {

BackendRegistry::BackendRegistry() {
  // Built in here rather than through JANUS_REGISTER_BACKEND: a static registration object in
  // a static library is dropped by the linker when nothing else references its object file.
  m_entries["uniform"] = {0, [](const BackendOptions& o) {
                            auto it = o.params.find("value");
                            if (it != o.params.end() && it->second != "material" && it->second != "draw")
                              throw Error("backend uniform: value must be material or draw, not '" + it->second + "'");
                            return std::make_unique<UniformBackend>(it != o.params.end() && it->second == "draw"
                                                                        ? UniformValue::kDraw
                                                                        : UniformValue::kMaterial);
                          }};
  // The sparse policy/value network (pvnet_backend.h): the default backend when the build
  // embeds a network, else below uniform.
  m_entries["pvnet"] = {defaultPvNetworkFile().empty() ? -1 : 100,
                        [](const BackendOptions& o) -> std::unique_ptr<Backend> { return std::make_unique<PvNetBackend>(o); }};
}

BackendRegistry& BackendRegistry::instance() {
  static BackendRegistry registry;
  return registry;
}

bool BackendRegistry::add(const std::string& name, int priority, BackendFactory factory) {
  std::lock_guard lock(m_mutex);
  m_entries[name] = {priority, std::move(factory)};
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

std::string BackendRegistry::defaultName() const { return names().front(); }

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

}  // namespace janus::mcts
