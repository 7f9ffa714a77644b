#pragma once
// The JANUSRN residual policy/value network (architecture: mcts/resnet_format.h) as a libtorch
// module, shared by the engine's torch backend (torch_backend.h: the inference network of a
// file) and the trainer (`janus train-az --arch resnet`: the same network with batch
// normalisation, folded into the convolutions' biases by exportWeights()).
//
// Shapes: input planes float [N, C, 8, 8] (encoding::encodePlanes with rn::encoderOptions(arch)),
// outputs policy logits [N, 1858] (Lc0 layout, encoding/policy_map.h) and value logits [N, 3]
// (win, draw, loss for the side to move). Sources: Silver et al. 2018 (AlphaZero's residual tower and heads), He et
// al. 2016 (residual blocks), Hu et al. 2018 (squeeze-excitation), Ioffe & Szegedy 2015 (batch
// normalisation), lczero.org "Neural network topology" (the classical policy head and the WDL
// value head).

#include <torch/torch.h>

#include "mcts/resnet_file.h"

namespace janus::mcts::rn {

/// One residual block: conv1 (3x3) [BN] ReLU conv2 (3x3) [BN] [SE], plus the input, ReLU.
struct ResBlockImpl : torch::nn::Module {
  ResBlockImpl(int filters, int seChannels, bool batchNorm);
  /// [N, F, 8, 8] -> [N, F, 8, 8].
  torch::Tensor forward(const torch::Tensor& x);

  bool batchNorm;
  torch::nn::Conv2d conv1{nullptr}, conv2{nullptr};
  torch::nn::BatchNorm2d bn1{nullptr}, bn2{nullptr};
  torch::nn::Linear se1{nullptr}, se2{nullptr};  ///< only with seChannels > 0
};
TORCH_MODULE(ResBlock);

/// Policy and value logits of a batch.
struct ResNetOutput {
  torch::Tensor policy;  ///< float [N, 1858]
  torch::Tensor value;   ///< float [N, 3]
};

struct ResNetImpl : torch::nn::Module {
  /// A network of architecture `arch` (throws janus::Error if !validArch). `batchNorm`: every
  /// convolution is followed by batch normalisation and has no bias (the trainer's network);
  /// otherwise the convolutions have biases and no normalisation follows (a file's network).
  /// Initial weights: libtorch's defaults from the current torch seed (Kaiming-uniform).
  ResNetImpl(const ResNetArch& arch, bool batchNorm);
  /// Planes float [N, C, 8, 8] -> logits (ResNetOutput).
  ResNetOutput forward(const torch::Tensor& planes);

  ResNetArch arch;
  bool batchNorm;
  torch::nn::Conv2d input{nullptr};
  torch::nn::BatchNorm2d inputBn{nullptr};
  std::vector<ResBlock> blocks;
  torch::nn::Conv2d policyConv{nullptr}, valueConv{nullptr};
  torch::nn::BatchNorm2d policyBn{nullptr}, valueBn{nullptr};
  torch::nn::Linear policyFc{nullptr}, value1{nullptr}, value2{nullptr};
};
TORCH_MODULE(ResNet);

/// The network's weights in file order (tensorLayout), batch normalisation folded into the
/// convolutions (resnet_format.h; in double precision, eval-mode running statistics). Works for
/// both kinds of network.
[[nodiscard]] ResNetWeights exportWeights(ResNet& model);

/// Sets a network without batch normalisation from `w` (a file's weights). Throws janus::Error
/// if the model has batch normalisation or its architecture differs from w.arch.
void importWeights(ResNet& model, const ResNetWeights& w);

/// The inference network of `w`: no batch normalisation, eval mode, no gradients.
[[nodiscard]] ResNet makeInferenceNetwork(const ResNetWeights& w);

}  // namespace janus::mcts::rn
