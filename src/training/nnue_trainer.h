#pragma once
// The NNUE trainer: gradient backends (the sparse multi-threaded CPU one here, libtorch in
// training/torch/), AdamW, the learning-rate schedule and the superbatch loop.
//
// Sparse backend (SparseBackend). A position has about 30 active inputs of 768, so the forward
// pass adds ~30 rows of the feature transformer per perspective and the backward pass adds the
// accumulator gradient into the same ~30 rows of the gradient; nothing touches the other rows.
// A batch is split into one contiguous chunk per thread; each thread accumulates into its own
// gradient buffer and marks the rows it touched; a reduction then sums, row by row, only the
// threads that touched the row (in thread order, so a run is reproducible for a given thread
// count). The loops over the hidden dimension are plain loops over aligned float arrays that
// GCC -O3 vectorises for the -march target (AVX2 / AVX-512); dot products use 16 partial sums.
//
// Optimiser: AdamW (I. Loshchilov, F. Hutter, "Decoupled Weight Decay Regularization", 2019) with
// PyTorch's update order: p *= 1 - lr * wd; m = b1 m + (1 - b1) g; v = b2 v + (1 - b2) g^2;
// p -= lr / (1 - b1^t) * m / (sqrt(v) / sqrt(1 - b2^t) + eps); then every parameter is clipped to
// +-nnue::kWeightClip (format.h: keeps the quantised products in int16).
//
// Data stream and superbatches. Training positions are taken in a shuffled order: epoch e (one
// pass over the training set) uses a permutation drawn from (seed, e), and position c of the
// stream (c = 0, 1, ...) is sample perm_{c / T}[c mod T] (T = training positions). A batch is the
// next `batch` positions of the stream (fewer only if T < batch); a superbatch is
// ceil(min(superbatchSize, T) / batch) batches, so with less data than --superbatch-size a
// superbatch is one pass over the data. After each superbatch the validation loss is computed
// and a checkpoint can be written; everything the stream and optimiser need is in TrainState, so
// a resumed run continues bit-identically (with the same thread count; the sparse reduction
// order depends on it).

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "training/nnue_data.h"
#include "training/nnue_model.h"
#include "training/train_state.h"
#include "util/worker_pool.h"

namespace janus::training {

// ---- Gradient backends ------------------------------------------------------------------------------

/// Computes the batch loss of nnue_model.h and its gradient with respect to every parameter.
class GradientBackend {
 public:
  virtual ~GradientBackend() = default;
  [[nodiscard]] virtual std::string name() const = 0;
  /// Mean loss of `batch` under `net`; writes d(mean loss)/d(params) to `grad` (paramCount floats,
  /// FloatNetwork::params layout, overwritten, zero where no sample reaches). Not const: backends
  /// keep scratch buffers.
  virtual double gradient(const FloatNetwork& net, std::span<const Sample> batch, const LossConfig& loss,
                          std::span<float> grad) = 0;
  /// Mean loss of `samples` (forward pass only).
  virtual double loss(const FloatNetwork& net, std::span<const Sample> samples, const LossConfig& loss) = 0;
};

/// Mean loss of `net` over `samples` (may be empty: NaN) by `backend`, in parts of at most
/// `part` positions (the backend's scratch memory grows with the part).
[[nodiscard]] double meanLoss(GradientBackend& backend, const FloatNetwork& net, std::span<const Sample> samples,
                              const LossConfig& loss, std::size_t part = 16384);

/// The sparse multi-threaded CPU backend (see the top of this file). Uses the threads of `pool`.
class SparseBackend final : public GradientBackend {
 public:
  SparseBackend(const NetworkShape& shape, WorkerPool& pool);
  ~SparseBackend() override;
  [[nodiscard]] std::string name() const override { return "sparse"; }
  double gradient(const FloatNetwork& net, std::span<const Sample> batch, const LossConfig& loss,
                  std::span<float> grad) override;
  double loss(const FloatNetwork& net, std::span<const Sample> samples, const LossConfig& loss) override;

 private:
  struct ThreadState;
  NetworkShape m_shape;
  WorkerPool& m_pool;
  std::vector<std::unique_ptr<ThreadState>> m_threads;
};

/// Options a backend factory receives.
struct GradientBackendOptions {
  NetworkShape shape;
  int threads = 1;
  std::string torchInput = "sparse";  ///< torch backend: "sparse" (embedding_bag) or "dense" (matmul)
};
using BackendFactory = std::function<std::unique_ptr<GradientBackend>(const GradientBackendOptions&, WorkerPool&)>;
/// Registers a backend by name ("sparse" is always registered; the janus-train-torch
/// executable registers "torch"). Later registrations of a name replace earlier ones.
void registerBackend(const std::string& name, BackendFactory factory);
[[nodiscard]] bool backendAvailable(const std::string& name);
/// Creates a registered backend; throws janus::Error naming the available ones otherwise.
[[nodiscard]] std::unique_ptr<GradientBackend> makeBackend(const std::string& name, const GradientBackendOptions& options,
                                                           WorkerPool& pool);

// ---- Trainer ----------------------------------------------------------------------------------------

/// Progress inside a superbatch (for a redrawn progress line).
struct BatchProgress {
  int batch = 0, batches = 0;  ///< 1-based batch of the superbatch, batches per superbatch
  double loss = 0;             ///< mean loss of the superbatch so far
  double positionsPerSecond = 0;
};

class Trainer {
 public:
  /// `train` must be non-empty; `validation` may be empty. Both must outlive the trainer.
  Trainer(TrainState& state, std::span<const Sample> train, std::span<const Sample> validation,
          GradientBackend& backend, WorkerPool& pool);

  [[nodiscard]] int batchSize() const { return m_batch; }
  [[nodiscard]] int batchesPerSuperbatch() const { return m_batchesPerSuperbatch; }
  /// The learning rate of global batch `b` (0-based, over the whole run).
  [[nodiscard]] double learningRate(u64 b) const;

  /// Runs the next superbatch (the state's superbatch + 1), updates the state (including a
  /// metrics row) and returns that row. `onBatch` (may be empty) is called after each batch.
  MetricsRow runSuperbatch(const std::function<void(const BatchProgress&)>& onBatch = {});
  /// Mean loss over the validation set (NaN if there is none); with TrainConfig::qat, of the
  /// rounded network.
  [[nodiscard]] double validationLoss();
  /// Positions per second of the last superbatch's training steps (excluding validation).
  [[nodiscard]] double lastPositionsPerSecond() const { return m_lastSpeed; }
  /// Seconds of the last superbatch's training steps (excluding validation).
  [[nodiscard]] double lastTrainSeconds() const { return m_lastTrainSeconds; }

 private:
  void fillBatch(std::vector<Sample>& out);
  /// The network the passes use: the state's, or with TrainConfig::qat its rounded copy.
  const FloatNetwork& forwardNetwork();
  const std::vector<u32>& permutation(u64 epoch);

  TrainState& m_state;
  std::span<const Sample> m_train, m_validation;
  GradientBackend& m_backend;
  WorkerPool& m_pool;
  int m_batch = 0;
  int m_batchesPerSuperbatch = 0;
  std::vector<u32> m_perm;
  u64 m_permEpoch = ~u64(0);
  std::vector<Sample> m_batchSamples;
  FloatVector m_grad;
  FloatNetwork m_rounded;  ///< qat: dequantise(quantise(state net)), remade before each pass
  double m_lastSpeed = 0;
  double m_lastTrainSeconds = 0;
};

/// One AdamW step on `state` (net, moments, step count) with gradient `grad` and step size `lr`,
/// then the weight clip; parallel over `pool`.
void adamwStep(TrainState& state, std::span<const float> grad, double lr, WorkerPool& pool);

}  // namespace janus::training
