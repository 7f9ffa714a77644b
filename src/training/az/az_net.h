#pragma once
// The network a train-az run trains (AzConfig::arch): the sparse pvnet (az_model.h PvModel,
// mcts/pvnet_format.h), the residual network (mcts/torch/resnet.h, mcts/resnet_format.h) or a
// value-only research baseline (az_model.h ValueNet), behind one interface for the loss, the
// validation figures and the network file.

#include <cstddef>
#include <span>
#include <string>

#include <torch/torch.h>

#include "training/az/az_config.h"
#include "training/az/az_model.h"

namespace janus::training::az {

/// Exactly one of the three modules is set (makeNet).
struct Net {
  PvModel pv{nullptr};
  mcts::rn::ResNet rn{nullptr};
  ValueNet value{nullptr};  ///< the value-only baselines (MSE loss instead)

  [[nodiscard]] bool resnet() const { return !rn.is_empty(); }
  [[nodiscard]] bool valueOnly() const { return !value.is_empty(); }
  [[nodiscard]] torch::nn::Module& module();
  /// The loss of batch `b` (az_model.h computeLoss: policy and value cross-entropies weighted,
  /// or the value MSE of a value-only net); `metrics` also fills the accuracy and squared error.
  [[nodiscard]] LossParts loss(const Batch& b, PolicyHead head, double policyWeight, double valueWeight, bool metrics);
  /// The samples `idx` of `data` as tensors; the resnet and value-only nets take input planes.
  [[nodiscard]] Batch batch(const Dataset& data, std::span<const std::uint32_t> idx, PolicyHead head) const;
  /// Trainable parameters (scalars).
  [[nodiscard]] std::size_t parameters();
  /// One line: the architecture and the parameter count.
  [[nodiscard]] std::string describe();
  /// Writes the network file (pv-<hash>.jpv or rn-<hash>.jrn; see mcts::pvnet::writePvFile /
  /// mcts::rn::writeResNetFile for `path`: a file, or a directory ending in '/'). Returns the path
  /// written. Throws janus::Error for a value-only net (no file format) and write errors.
  std::string write(const std::string& path, const std::string& description);
};

/// A fresh network of `c.arch` with `c`'s sizes (weights from torch's generator: seed it first).
/// Throws janus::Error for bad sizes.
[[nodiscard]] Net makeNet(const AzConfig& c);

/// The validation figures of the whole of `data` (the val* fields of the row; the rest 0): mean
/// policy CE over the positions with a move, mean value CE, their weighted sum, the top-1
/// accuracy and the value MSE; value-only nets: valLoss = valValueMse and NaN CEs and accuracy.
/// All NaN when `data` is empty. Evaluates in eval mode without gradients, then back to train.
[[nodiscard]] AzMetrics validationMetrics(Net& net, const Dataset& data, const AzConfig& c, PolicyHead head);

/// Largest |torch - engine| logit (value and legal moves' policy; the resnet: its whole output)
/// of the network file `netPath` against `net`, over the positions of 8 random games (up to 60
/// plies each, moves drawn from `seed`) from the start position. Throws janus::Error for an
/// unreadable file.
[[nodiscard]] double exportDifference(Net& net, const std::string& netPath, u64 seed);

}  // namespace janus::training::az
