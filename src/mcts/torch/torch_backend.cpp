#include "mcts/torch/torch_backend.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include <fmt/format.h>

#include "encoding/planes.h"
#include "encoding/policy_map.h"
#include "util/error.h"

namespace janus::mcts {

namespace {

class TorchComputation final : public BackendComputation {
 public:
  TorchComputation(rn::ResNet net, const rn::ResNetArch& arch, float temperature)
      : m_net(std::move(net)), m_arch(arch), m_encoder(rn::encoderOptions(arch)), m_temperature(temperature),
        m_planeFloats(std::size_t(arch.inputPlanes) * 64) {}

  int addInput(const Position& pos, std::span<const Move> legalMoves) override {
    const std::size_t at = m_planes.size();
    m_planes.resize(at + m_planeFloats);
    encoding::encodePlanes(pos, m_encoder, std::span<float>(m_planes).subspan(at));
    m_offsets.push_back(m_indices.size());
    for (Move m : legalMoves) m_indices.push_back(encoding::policyIndex(pos, m));
    return m_inputs++;
  }

  [[nodiscard]] int size() const override { return m_inputs; }

  void compute() override {
    const auto n = std::int64_t(m_inputs);
    m_offsets.push_back(m_indices.size());
    if (n == 0) return;
    c10::InferenceMode guard;
    const torch::Tensor planes = torch::from_blob(m_planes.data(), {n, m_arch.inputPlanes, 8, 8}, torch::kFloat32);
    const rn::ResNetOutput out = m_net->forward(planes);
    const torch::Tensor wdl = torch::softmax(out.value, 1).contiguous();
    const torch::Tensor policy = out.policy.contiguous();
    const float* w = wdl.data_ptr<float>();
    const float* logits = policy.data_ptr<float>();
    m_wdl.resize(std::size_t(n));
    m_priors.resize(m_indices.size());
    for (std::int64_t i = 0; i < n; ++i) {
      m_wdl[std::size_t(i)] = Wdl{w[3 * i], w[3 * i + 1], w[3 * i + 2]};
      // Softmax over the legal moves' logits only (illegal moves masked), divided by the temperature.
      const std::size_t begin = m_offsets[std::size_t(i)], end = m_offsets[std::size_t(i) + 1];
      const float* row = logits + i * kPolicySize;
      float maxLogit = -INFINITY;
      for (std::size_t k = begin; k < end; ++k) maxLogit = std::max(maxLogit, row[m_indices[k]] / m_temperature);
      float sum = 0.0f;
      for (std::size_t k = begin; k < end; ++k) sum += (m_priors[k] = std::exp(row[m_indices[k]] / m_temperature - maxLogit));
      for (std::size_t k = begin; k < end; ++k) m_priors[k] /= sum;
    }
  }

  [[nodiscard]] Wdl wdl(int i) const override { return m_wdl[std::size_t(i)]; }
  [[nodiscard]] std::span<const float> priors(int i) const override {
    const std::size_t begin = m_offsets[std::size_t(i)], end = m_offsets[std::size_t(i) + 1];
    return std::span<const float>(m_priors).subspan(begin, end - begin);
  }

 private:
  static constexpr std::int64_t kPolicySize = rn::kPolicySize;
  rn::ResNet m_net;
  rn::ResNetArch m_arch;
  encoding::EncoderOptions m_encoder;
  float m_temperature;
  std::size_t m_planeFloats;
  int m_inputs = 0;
  std::vector<float> m_planes;       // [N][C][8][8]
  std::vector<int> m_indices;        // policy index of every legal move, input after input
  std::vector<std::size_t> m_offsets;  // input i's moves: [m_offsets[i], m_offsets[i + 1]) (the last after compute())
  std::vector<Wdl> m_wdl;
  std::vector<float> m_priors;
};

/// A number param of `o`, or `fallback` when absent or empty. Throws janus::Error outside [lo, hi].
double numberParam(const BackendOptions& o, const std::string& key, double fallback, double lo, double hi) {
  const auto it = o.params.find(key);
  if (it == o.params.end() || it->second.empty()) return fallback;
  try {
    std::size_t used = 0;
    const double v = std::stod(it->second, &used);
    if (used == it->second.size() && v >= lo && v <= hi) return v;
  } catch (const std::exception&) {
  }
  throw Error(fmt::format("torch backend: {} '{}' is not a number in [{}, {}]", key, it->second, lo, hi));
}

rn::ResNetFile loadFile(const BackendOptions& o) {
  if (o.weightsFile.empty())
    throw Error("torch backend: no network; set MCTS WeightsFile to a .jrn file (janus train-az --arch resnet makes one)");
  return rn::ResNetFile::fromFile(o.weightsFile);
}

}  // namespace

TorchBackend::TorchBackend(const BackendOptions& options) : TorchBackend(loadFile(options), options) {}

TorchBackend::TorchBackend(const rn::ResNetFile& file, const BackendOptions& options)
    : TorchBackend(file.weights, float(numberParam(options, "policy-temperature", 1.0, 1e-3, 100.0)),
                   int(numberParam(options, "torch-threads", 1, 1, 256))) {
  m_name = file.describe();
}

TorchBackend::TorchBackend(const rn::ResNetWeights& weights, float policyTemperature, int threads)
    : m_net(rn::makeInferenceNetwork(weights)), m_arch(weights.arch), m_name("rn (in memory)"),
      m_temperature(policyTemperature), m_threads(threads) {
  if (!(m_temperature > 0.0f)) throw Error("torch backend: the policy temperature must be > 0");
  if (m_threads < 1) throw Error("torch backend: torch-threads must be >= 1");
  at::set_num_threads(m_threads);
}

std::unique_ptr<BackendComputation> TorchBackend::newComputation() {
  return std::make_unique<TorchComputation>(m_net, m_arch, m_temperature);
}

BackendAttributes TorchBackend::attributes() const {
  BackendAttributes a;
  a.description = fmt::format("torch {}, {} torch thread{}{}", m_name, m_threads, m_threads == 1 ? "" : "s",
                              m_temperature != 1.0f ? fmt::format(", policy temperature {}", m_temperature) : "");
  a.historyPlies = m_arch.historySteps - 1;
  a.usesHalfmoveClock = true;  // plane 117
  a.cacheable = true;
  a.preferredBatch = 32;
  return a;
}

// Below uniform: never the default (it has no default network), chosen by name or by a JANUSRN
// weights file (BackendRegistry::forWeightsFile).
JANUS_REGISTER_BACKEND(
    torchBackend, "torch", -10, [](const BackendOptions& o) { return std::make_unique<TorchBackend>(o); },
    [](const std::string& path) { return netfile::hasMagic(rn::kResNetFormat, path); });

}  // namespace janus::mcts
