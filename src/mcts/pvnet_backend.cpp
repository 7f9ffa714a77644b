#include "mcts/pvnet_backend.h"

#include <mutex>
#include <vector>

#include <fmt/format.h>

#include "util/error.h"
#include "util/incbin.h"

// The default network (src/mcts/CMakeLists.txt defines JANUS_DEFAULT_PVNET_PATH when the file
// nets/default-pvnet.txt names exists).
#ifdef JANUS_DEFAULT_PVNET_PATH
JANUS_INCBIN(janusDefaultPvNet, JANUS_DEFAULT_PVNET_PATH)
#endif

namespace janus::mcts {

namespace {

class PvNetComputation final : public BackendComputation {
 public:
  PvNetComputation(const pvnet::PvNetwork& net, float temperature) : m_net(net), m_temperature(temperature) {}

  int addInput(const Position& pos, std::span<const Move> legalMoves) override {
    m_offsets.push_back(m_priors.size());
    m_priors.resize(m_priors.size() + legalMoves.size());
    m_wdl.push_back(m_net.evaluate(pos, legalMoves, std::span<float>(m_priors).subspan(m_offsets.back()), m_temperature));
    return int(m_wdl.size()) - 1;
  }
  [[nodiscard]] int size() const override { return int(m_wdl.size()); }
  void compute() override { m_offsets.push_back(m_priors.size()); }  // evaluated in addInput
  [[nodiscard]] Wdl wdl(int i) const override { return m_wdl[size_t(i)]; }
  [[nodiscard]] std::span<const float> priors(int i) const override {
    return std::span<const float>(m_priors).subspan(m_offsets[size_t(i)], m_offsets[size_t(i) + 1] - m_offsets[size_t(i)]);
  }

 private:
  const pvnet::PvNetwork& m_net;
  float m_temperature;
  std::vector<Wdl> m_wdl;
  std::vector<float> m_priors;
  std::vector<size_t> m_offsets;  // input i's priors: [m_offsets[i], m_offsets[i + 1]) after compute()
};

float parseTemperature(const BackendOptions& o) {
  const auto it = o.params.find("policy-temperature");
  if (it == o.params.end() || it->second.empty()) return 1.0f;
  try {
    size_t used = 0;
    const float t = std::stof(it->second, &used);
    if (used == it->second.size() && t > 0.0f && t <= 100.0f) return t;
  } catch (const std::exception&) {
  }
  throw Error("pvnet backend: policy-temperature '" + it->second + "' is not a number in (0, 100]");
}

std::shared_ptr<const pvnet::PvNetwork> loadNetwork(const BackendOptions& o) {
  if (!o.weightsFile.empty()) return pvnet::PvNetwork::fromFile(o.weightsFile);
  auto net = defaultPvNetwork();
  if (!net)
    throw Error("pvnet backend: this build embeds no policy/value network; set MCTS WeightsFile to a .jpv file "
                "(janus train-az makes one)");
  return net;
}

}  // namespace

PvNetBackend::PvNetBackend(const BackendOptions& options)
    : m_net(loadNetwork(options)), m_temperature(parseTemperature(options)) {}

PvNetBackend::PvNetBackend(std::shared_ptr<const pvnet::PvNetwork> net, float policyTemperature)
    : m_net(std::move(net)), m_temperature(policyTemperature) {
  if (!m_net) throw Error("pvnet backend: no network");
  if (!(m_temperature > 0.0f)) throw Error("pvnet backend: the policy temperature must be > 0");
}

std::unique_ptr<BackendComputation> PvNetBackend::newComputation() {
  return std::make_unique<PvNetComputation>(*m_net, m_temperature);
}

BackendAttributes PvNetBackend::attributes() const {
  BackendAttributes a;
  a.description = "pvnet " + m_net->describe() + (m_temperature != 1.0f ? fmt::format(", policy temperature {}", m_temperature) : "");
  a.historyPlies = 0;
  a.usesHalfmoveClock = false;
  a.cacheable = true;
  a.preferredBatch = 0;
  return a;
}

std::shared_ptr<const pvnet::PvNetwork> defaultPvNetwork() {
#ifdef JANUS_DEFAULT_PVNET_PATH
  static std::once_flag once;
  static std::shared_ptr<const pvnet::PvNetwork> net;
  std::call_once(once, [] {
    net = pvnet::PvNetwork::fromBytes(janusDefaultPvNet(), "embedded " + defaultPvNetworkFile());
  });
  return net;
#else
  return nullptr;
#endif
}

// The default backend when the build embeds a network, else below uniform (priority 0); it
// reads JANUSPV files.
JANUS_REGISTER_BACKEND(
    pvnet, "pvnet", defaultPvNetworkFile().empty() ? -1 : 100,
    [](const BackendOptions& o) -> std::unique_ptr<Backend> { return std::make_unique<PvNetBackend>(o); },
    [](const std::string& path) { return netfile::hasMagic(pvnet::kPvFormat, path); });

std::string defaultPvNetworkFile() {
#ifdef JANUS_DEFAULT_PVNET_NAME
  return JANUS_DEFAULT_PVNET_NAME;
#else
  return "";
#endif
}

}  // namespace janus::mcts
