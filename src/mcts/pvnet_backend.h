#pragma once
// The "pvnet" MCTS backend: the sparse policy/value network of pvnet.h evaluated on the CPU by
// the calling search thread (no queue, no batching needed: one position costs microseconds, so
// MCTS Batch only sets how many leaves a thread collects before backing them up).
//
// Weights: BackendOptions::weightsFile (UCI option "MCTS WeightsFile"), or, when that is empty,
// the network embedded in the binary (nets/default-pvnet.txt names it; src/mcts/CMakeLists.txt
// embeds it with .incbin). Params: "policy-temperature" (> 0, default 1; the softmax temperature
// of the priors, lc0's PolicyTemperature).
// Registered with priority 100 when the build embeds a default network (then it is the default
// MCTS backend), else -1 (below "uniform"). Thread-safe: the network is immutable and shared.

#include <memory>
#include <string>

#include "mcts/backend.h"
#include "mcts/pvnet.h"

namespace janus::mcts {

class PvNetBackend final : public Backend {
 public:
  /// Throws janus::Error if the weights file cannot be read or is invalid (PvNetwork::fromBytes),
  /// if no file is given and the build embeds none, or for a bad policy-temperature.
  explicit PvNetBackend(const BackendOptions& options);
  PvNetBackend(std::shared_ptr<const pvnet::PvNetwork> net, float policyTemperature);

  [[nodiscard]] std::unique_ptr<BackendComputation> newComputation() override;
  [[nodiscard]] BackendAttributes attributes() const override;
  [[nodiscard]] const pvnet::PvNetwork& network() const { return *m_net; }

 private:
  std::shared_ptr<const pvnet::PvNetwork> m_net;
  float m_temperature = 1.0f;
};

/// The network embedded in the binary, or nullptr when the build embeds none. Parsed once.
[[nodiscard]] std::shared_ptr<const pvnet::PvNetwork> defaultPvNetwork();
/// File name under nets/ of the embedded network ("" when none).
[[nodiscard]] std::string defaultPvNetworkFile();

}  // namespace janus::mcts
