#pragma once
// The libtorch reference backend of `janus train-nnue` (janus-train-torch, or janus train-nnue
// --backend torch, which hands over to that executable): the model and loss of
// training/nnue_model.h written with torch tensor operations, the gradient from autograd.
// It exists to check the sparse backend (same gradients on the same batch) and to measure it;
// the optimiser (AdamW), data stream and checkpoints are the trainer's own, shared by both.
//
// Inputs (torchInput):
//   "sparse": the active inputs of each perspective as one index list with per-sample offsets,
//             accumulated by torch::embedding_bag(mode sum), the way PyTorch NNUE trainers
//             feed sparse features;
//   "dense":  a [batch, 768] 0/1 matrix per perspective multiplied by the [768, N] weights.

#include <memory>

#include "training/nnue_trainer.h"

namespace janus::training {

/// Creates the torch backend; sets torch's intra-op thread count to `options.threads`.
[[nodiscard]] std::unique_ptr<GradientBackend> makeTorchBackend(const GradientBackendOptions& options);

/// Registers "torch" with registerBackend (call once, before makeBackend).
void registerTorchBackend();

}  // namespace janus::training
