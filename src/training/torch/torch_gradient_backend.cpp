// The libtorch reference backend (torch_gradient_backend.h).

#include "training/torch/torch_gradient_backend.h"

#include <torch/torch.h>

#include <cstring>

#include "util/error.h"

namespace janus::training {

namespace {

class TorchBackend final : public GradientBackend {
 public:
  explicit TorchBackend(const GradientBackendOptions& o) : m_shape(o.shape), m_dense(o.torchInput == "dense") {
    validateShape(m_shape);
    torch::set_num_threads(std::max(1, o.threads));
  }

  [[nodiscard]] std::string name() const override { return m_dense ? "torch (dense input)" : "torch"; }

  double gradient(const FloatNetwork& net, std::span<const Sample> batch, const LossConfig& lc,
                  std::span<float> grad) override {
    check(net, grad.size());
    const Inputs in = makeInputs(batch, lc);
    torch::Tensor params = wrap(net).requires_grad_(true);
    torch::Tensor loss = forwardLoss(params, in, lc);
    loss.backward();
    const torch::Tensor g = params.grad().contiguous();
    std::memcpy(grad.data(), g.data_ptr<float>(), grad.size() * sizeof(float));
    return loss.item<double>();
  }

  double loss(const FloatNetwork& net, std::span<const Sample> samples, const LossConfig& lc) override {
    check(net, m_shape.paramCount());
    if (samples.empty()) return std::numeric_limits<double>::quiet_NaN();
    torch::NoGradGuard noGrad;
    const Inputs in = makeInputs(samples, lc);
    return forwardLoss(wrap(net), in, lc).item<double>();
  }

 private:
  struct Inputs {
    torch::Tensor stm, other;  ///< sparse: int64 feature indices; dense: [batch, 768] float 0/1
    torch::Tensor offsets;     ///< sparse: int64 [batch], start of each sample in stm/other
    torch::Tensor bucket;      ///< int64 [batch]
    torch::Tensor target;      ///< float [batch]
  };

  void check(const FloatNetwork& net, std::size_t gradSize) const {
    if (net.shape != m_shape) throw Error("torch backend: the network's shape differs from the backend's");
    if (gradSize != m_shape.paramCount()) throw Error("torch backend: gradient buffer of the wrong size");
  }

  /// The parameters as a 1-D tensor over the network's own memory (no copy; never written).
  static torch::Tensor wrap(const FloatNetwork& net) {
    return torch::from_blob(const_cast<float*>(net.params.data()), {std::int64_t(net.params.size())},
                            torch::TensorOptions().dtype(torch::kFloat32));
  }

  template <typename T>
  static torch::Tensor toTensor(std::vector<T>& v, torch::ScalarType type) {
    return torch::from_blob(v.data(), {std::int64_t(v.size())}, torch::TensorOptions().dtype(type)).clone();
  }

  Inputs makeInputs(std::span<const Sample> batch, const LossConfig& lc) const {
    const auto n = std::int64_t(batch.size());
    const auto inputs = std::int64_t(m_shape.inputs());
    std::vector<std::int64_t> stm, other, offsets, bucket;
    std::vector<float> target;
    stm.reserve(batch.size() * kMaxActiveInputs);
    other.reserve(batch.size() * kMaxActiveInputs);
    Inputs in;
    float* denseStm = nullptr;
    float* denseOther = nullptr;
    if (m_dense) {
      in.stm = torch::zeros({n, inputs}, torch::kFloat32);
      in.other = torch::zeros({n, inputs}, torch::kFloat32);
      denseStm = in.stm.data_ptr<float>();
      denseOther = in.other.data_ptr<float>();
    }
    for (std::size_t i = 0; i < batch.size(); ++i) {
      const Sample& s = batch[i];
      u16 fs[kMaxActiveInputs], fo[kMaxActiveInputs];
      const int count = activeInputs(m_shape, s, s.stm, fs);
      activeInputs(m_shape, s, s.stm ^ 1, fo);
      offsets.push_back(std::int64_t(stm.size()));
      for (int j = 0; j < count; ++j) {
        if (m_dense) {
          denseStm[i * inputs + fs[j]] = 1.0f;
          denseOther[i * inputs + fo[j]] = 1.0f;
        } else {
          stm.push_back(fs[j]);
          other.push_back(fo[j]);
        }
      }
      bucket.push_back(nnue::outputBucket(s.pieceCount, m_shape.buckets));
      target.push_back(float(sampleTarget(s, lc)));
    }
    if (!m_dense) {
      in.stm = toTensor(stm, torch::kInt64);
      in.other = toTensor(other, torch::kInt64);
      in.offsets = toTensor(offsets, torch::kInt64);
    }
    in.bucket = toTensor(bucket, torch::kInt64);
    in.target = toTensor(target, torch::kFloat32);
    return in;
  }

  torch::Tensor forwardLoss(const torch::Tensor& params, const Inputs& in, const LossConfig& lc) const {
    const std::int64_t n = m_shape.hidden, b = m_shape.buckets;
    const torch::Tensor ftW = params.narrow(0, 0, std::int64_t(m_shape.ftBiasOffset())).view({std::int64_t(m_shape.inputs()), n});
    const torch::Tensor ftB = params.narrow(0, std::int64_t(m_shape.ftBiasOffset()), n);
    const torch::Tensor outW = params.narrow(0, std::int64_t(m_shape.outWeightsOffset()), b * 2 * n).view({b, 2 * n});
    const torch::Tensor outB = params.narrow(0, std::int64_t(m_shape.outBiasOffset()), b);
    auto accumulate = [&](const torch::Tensor& x) {
      if (m_dense) return torch::mm(x, ftW) + ftB;
      return std::get<0>(torch::embedding_bag(ftW, x, in.offsets, /*scale_grad_by_freq=*/false, /*mode=sum*/ 0)) + ftB;
    };
    const bool screlu = m_shape.activation == nnue::Activation::kSCReLU;
    auto activate = [&](const torch::Tensor& x) {
      torch::Tensor c = torch::clamp(x, 0.0, 1.0);
      return screlu ? c * c : c;
    };
    const torch::Tensor a = torch::cat({activate(accumulate(in.stm)), activate(accumulate(in.other))}, 1);
    const torch::Tensor out = (a * outW.index_select(0, in.bucket)).sum(1) + outB.index_select(0, in.bucket);
    const torch::Tensor p = torch::sigmoid(out * (double(nnue::kEvalScale) / lc.sigmoidScale));
    return (p - in.target).pow(2).mean();
  }

  NetworkShape m_shape;
  bool m_dense;
};

}  // namespace

std::unique_ptr<GradientBackend> makeTorchBackend(const GradientBackendOptions& options) {
  return std::make_unique<TorchBackend>(options);
}

void registerTorchBackend() {
  registerBackend("torch", [](const GradientBackendOptions& o, WorkerPool&) { return makeTorchBackend(o); });
}

}  // namespace janus::training
