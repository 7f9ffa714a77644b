#pragma once
// The policy/value network of mcts/pvnet_format.h as a libtorch module, its loss, and the export
// to the engine's float weights (mcts::pvnet::PvWeights).
//
//   h      = ReLU(trunk(features) + trunkBias)       trunk: EmbeddingBag(772, H, sum) over the
//                                                    active inputs, i.e. the sum of their rows
//   value  = value2(ReLU(value1(h)))                 [B, 3] logits (win, draw, loss)
//   policy = policy(h)                               [B, 1858] logits (Lc0 layout)
//
// Loss of a batch (natural log, nats):
//   policyCE = mean over the samples with a move played of -log softmax_legal(policy)[played]
//              (illegal entries masked to -inf before log_softmax)
//   valueCE  = mean over all samples of -sum_k wdl_k log softmax(value)_k
//   loss     = policyWeight * policyCE + valueWeight * valueCE
//
// Two computations of the same policy loss (`PolicyHead`): kDense multiplies h by the whole
// [1858, H] matrix, as the formula reads; kGather takes only the rows of each sample's legal
// moves (index_select, then a batched dot product) and masks the padding, about 1858 / 40 times
// fewer multiply-adds; both give the same loss and gradients (tested).

#include <array>
#include <span>
#include <string>
#include <vector>

#include <torch/torch.h>

#include "mcts/pvnet.h"
#include "mcts/torch/resnet.h"
#include "training/az_data.h"

namespace janus::training::az {

enum class PolicyHead { kDense, kGather };

/// "dense" / "gather"; throws janus::Error for anything else.
[[nodiscard]] PolicyHead parsePolicyHead(const std::string& name);
[[nodiscard]] const char* policyHeadName(PolicyHead head);

/// A batch as tensors (CPU).
struct Batch {
  torch::Tensor features;  ///< int64 [sum of active inputs]: every sample's inputs, concatenated
  torch::Tensor offsets;   ///< int64 [B]: where each sample's inputs start in `features`
  torch::Tensor wdl;       ///< float [B, 3]: value targets
  torch::Tensor hasMove;   ///< float [B]: 1 if the sample has a policy target
  /// float [B, 1858] (kDense) or [B, L] (kGather): the policy target distribution, one-hot on
  /// the move played or the visit shares of a self-play search (normalised); 0 without a target
  torch::Tensor policyTarget;
  // kDense
  torch::Tensor mask;      ///< float [B, 1858]: 0 for legal moves, -inf otherwise
  torch::Tensor target;    ///< int64 [B]: policy index of the move played (without one: the first legal move's)
  // kGather
  torch::Tensor legal;     ///< int64 [B, L]: policy indices of the legal moves, padded with 0 (L = most legal moves)
  torch::Tensor legalMask; ///< float [B, L]: 0 for a legal move, -inf for padding
  torch::Tensor slot;      ///< int64 [B]: column of the move played in `legal` (0 without one)
  /// float [B, 119, 8, 8] (only with makeBatch(..., planes = true), for the residual network):
  /// the planes of encoding::encodePlanes for a network with historySteps = 1, rebuilt from the
  /// sample (its features, side to move and halfmove clock): the current position's pieces,
  /// Black to move, castling rights, rule50, ones; history and repetition planes zero.
  torch::Tensor planes;
  std::int64_t size = 0;
  std::int64_t withMove = 0;
};

/// Tensors of samples data[indices[i]], in that order, for `head`; with `planes` also
/// Batch::planes.
[[nodiscard]] Batch makeBatch(const Dataset& data, std::span<const std::uint32_t> indices, PolicyHead head,
                              bool planes = false);

/// The architecture `janus train-az --arch resnet` trains: the base planes with one history step
/// (the samples keep no history, docs/mcts-networks.md), `blocks` x `filters`, squeeze-excitation with
/// filters / 4 channels when `se` (reduction ratio 4; Hu et al. use 16 on ImageNet, which would
/// leave 4-8 channels at 64-128 filters), Lc0's head sizes (policy 32 channels, value 32
/// channels and 128 hidden). Throws janus::Error for sizes resnet_format.h does not allow.
[[nodiscard]] mcts::rn::ResNetArch resnetArch(int blocks, int filters, bool se);

struct PvModelImpl : torch::nn::Module {
  /// Initial weights from the current torch seed (torch::manual_seed): trunk rows uniform in
  /// +-1/sqrt(32) (about 32 inputs are active), trunk bias 0, the heads torch's Linear default.
  /// Throws janus::Error unless pvnet::validSizes(hidden, valueHidden).
  PvModelImpl(int hidden, int valueHidden);

  /// Trunk activations h, float [B, H].
  torch::Tensor trunkOut(const torch::Tensor& features, const torch::Tensor& offsets);

  int hidden, valueHidden;
  torch::nn::EmbeddingBag trunk{nullptr};
  torch::Tensor trunkBias;
  torch::nn::Linear value1{nullptr}, value2{nullptr}, policy{nullptr};
};
TORCH_MODULE(PvModel);

/// The parts of a batch's loss (scalars, with autograd history when computed with gradients)
/// and, for reports, counts and sums of the metrics.
struct LossParts {
  torch::Tensor loss, policyCe, valueCe;
  double correct = 0;        ///< samples with a move whose most likely legal move is the one played
  double sqErrorSum = 0;     ///< sum over samples of (expected score - target expected score)^2,
                             ///< expected score = win + draw / 2
};

/// The loss of a batch from the network's outputs, whatever the network (header comment): the one
/// loss of both architectures. `valueLogits` float [B, 3]; `policyLogits` float [B, 1858]
/// (kDense, unmasked) or [B, L] (kGather: the logits of Batch::legal's moves, unmasked).
/// `metrics` also fills correct and sqErrorSum (no gradient through them).
[[nodiscard]] LossParts lossFromLogits(const torch::Tensor& valueLogits, const torch::Tensor& policyLogits,
                                       const Batch& batch, PolicyHead head, double policyWeight, double valueWeight,
                                       bool metrics);

/// The loss of `batch` (header comment) for the sparse network: lossFromLogits of its outputs.
[[nodiscard]] LossParts computeLoss(PvModel& model, const Batch& batch, PolicyHead head, double policyWeight,
                                    double valueWeight, bool metrics);

/// The loss of `batch` (made with planes) for the residual network: lossFromLogits of its
/// outputs (kGather takes the legal moves' columns of the 1858 logits).
[[nodiscard]] LossParts computeLoss(mcts::rn::ResNet& model, const Batch& batch, PolicyHead head, double policyWeight,
                                    double valueWeight, bool metrics);

// ---- Value-only baselines (issue 13; docs/mcts-networks.md, "Value-only baselines: MLP vs CNN") --------
//
// Research baselines after Sabatelli et al. 2018 ("Learning to Evaluate Chess Positions with Deep
// Neural Networks and Limited Lookahead", ICPRAM): a network that maps the position's planes to
// one expected score, trained with the mean squared error. No policy head and no network file:
// the engine cannot use them.
//
//   input  x = Batch::planes[:, kValuePlanes]        float [B, 19, 8, 8]
//   value-mlp:  flatten [B, 1216] -> (Linear, act) per hidden layer -> Linear(., 1)
//   value-cnn:  (Conv KxK, padding K/2, act) per conv layer -> flatten [B, F_last * 64]
//               -> (Linear, act) per hidden layer -> Linear(., 1)
//   output = sigmoid(.) [B]: the predicted expected score in (0, 1)
//   loss   = mean over the batch of (output - (win + draw / 2 of the WDL target))^2

/// The planes of the residual network's input (encoding/planes.h, one history step) that a
/// sample fills: the current position's 12 piece planes (0..11) and planes 112..118 (Black to
/// move, the four castling rights, rule50, ones). The other 100 planes of Batch::planes (older
/// positions and repetitions) are always zero because samples keep no history.
inline constexpr std::array<int, 19> kValuePlanes = {0,   1,   2,   3,   4,   5,   6,   7,   8,   9,
                                                     10,  11,  112, 113, 114, 115, 116, 117, 118};

/// Shape of a value-only network (the header comment above).
struct ValueArch {
  enum class Kind { kMlp, kCnn };
  enum class Activation { kRelu, kElu };
  Kind kind = Kind::kMlp;
  std::vector<int> hidden = {1048, 500, 50};  ///< dense layer widths after the input / the convolutions
  std::vector<int> convFilters;               ///< value-cnn: output channels of each convolution (input 19)
  int convKernel = 3;                         ///< value-cnn: kernel size of every convolution (odd)
  Activation activation = Activation::kRelu;
  bool operator==(const ValueArch&) const = default;
};

/// True for "value-mlp" and "value-cnn" (AzConfig::arch of the value-only baselines).
[[nodiscard]] bool isValueArch(const std::string& arch);

/// The architecture from train-az's options: `arch` "value-mlp" or "value-cnn", `activation`
/// "relu" or "elu". Throws janus::Error naming the option for another arch or activation, a
/// value-mlp with convolutions, a value-cnn without any, more than 8 dense or 8 conv layers, a
/// dense width outside 1..8192, a filter count outside 1..1024 or a kernel that is even or
/// outside 1..7.
[[nodiscard]] ValueArch valueArch(const std::string& arch, const std::vector<int>& hidden,
                                  const std::vector<int>& convFilters, int convKernel, const std::string& activation);

struct ValueNetImpl : torch::nn::Module {
  /// Initial weights from the current torch seed (torch's Linear/Conv2d defaults). `arch` must
  /// come from valueArch (validated).
  explicit ValueNetImpl(const ValueArch& arch);

  /// Expected scores, float [B] in (0, 1), of planes float [B, 19, 8, 8] (kValuePlanes).
  torch::Tensor forward(const torch::Tensor& planes);

  ValueArch arch;
  torch::nn::ModuleList convs{nullptr}, dense{nullptr};
  torch::nn::Linear out{nullptr};
};
TORCH_MODULE(ValueNet);

/// The value-only loss of `batch` (made with planes): loss = the MSE of the header comment above
/// (scalar, with autograd history when computed with gradients); policyCe and valueCe are NaN
/// scalars (no such heads); with `metrics` sqErrorSum is the batch's sum of squared errors
/// (correct stays 0).
[[nodiscard]] LossParts computeLoss(ValueNet& model, const Batch& batch, bool metrics);

/// The weights in the engine's layout (pvnet_format.h).
[[nodiscard]] mcts::pvnet::PvWeights exportWeights(PvModel& model);
/// The inverse of exportWeights: sets every parameter of `model` from `w` (a network file's
/// weights, e.g. the reinforcement-learning loop's best network as the start of the next
/// generation). Throws janus::Error if the sizes differ from the model's.
void importWeights(PvModel& model, const mcts::pvnet::PvWeights& w);

/// Value logits [3] and the policy logits of `moves` of one position, by the torch model (for
/// comparing with mcts::pvnet::PvNetwork::logits).
void modelLogits(PvModel& model, const Position& pos, std::span<const Move> moves, std::array<float, 3>& valueLogits,
                 std::span<float> policyLogits);

}  // namespace janus::training::az
