#pragma once
// The "torch" MCTS backend: the JANUSRN residual network (mcts/resnet_format.h) evaluated by
// libtorch on the CPU. Each computation encodes its positions into one [N, C, 8, 8] float
// tensor (encoding::encodePlanes with rn::encoderOptions(arch)), runs one forward pass in
// inference mode and returns the softmax of the 3 value logits and of the legal moves' policy
// logits (illegal moves masked).
//
// Options: BackendOptions::weightsFile (UCI "MCTS WeightsFile"): a .jrn file; there is no
// default network, so the backend cannot be created without one. Params: "policy-temperature"
// (> 0, default 1, lc0's PolicyTemperature) and "torch-threads" (intra-op threads of libtorch,
// 1..256, default 1: at::set_num_threads is process-wide; with several search threads each
// computation runs on its own thread anyway).
//
// Thread-safety (backend.h): the network is immutable after loading (eval mode, no gradients,
// no batch normalisation statistics to update) and shared by every computation; libtorch's CPU
// forward pass only reads it, so computations of several search threads run concurrently.
//
// Registered as "torch" with priority -10: never the default backend (it has no network of
// its own; pvnet, 100 with its embedded network, is much faster on a CPU: docs/lab/mcts-log.md). The
// library is linked only into janus-torch and the tests, with WHOLE_ARCHIVE so that the
// registration is kept; the janus binary does not link libtorch.

#include <memory>

#include "mcts/backend.h"
#include "mcts/resnet_file.h"
#include "mcts/torch/resnet.h"

namespace janus::mcts {

class TorchBackend final : public Backend {
 public:
  /// Loads options.weightsFile. Throws janus::Error for no file, an unreadable or invalid
  /// file (rn::ResNetFile::fromBytes names the file and the problem), or a bad param.
  explicit TorchBackend(const BackendOptions& options);
  /// A backend over weights in memory (tests). Throws janus::Error for an invalid architecture
  /// or a temperature <= 0.
  TorchBackend(const rn::ResNetWeights& weights, float policyTemperature = 1.0f, int threads = 1);

  [[nodiscard]] std::unique_ptr<BackendComputation> newComputation() override;
  [[nodiscard]] BackendAttributes attributes() const override;
  /// The inference network (read-only use: a forward pass under c10::InferenceMode).
  [[nodiscard]] rn::ResNet network() const { return m_net; }

 private:
  TorchBackend(const rn::ResNetFile& file, const BackendOptions& options);

  rn::ResNet m_net{nullptr};
  rn::ResNetArch m_arch;
  std::string m_name;
  float m_temperature = 1.0f;
  int m_threads = 1;
};

}  // namespace janus::mcts
