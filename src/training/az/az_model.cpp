// The policy/value network in libtorch (az_model.h).

#include "training/az/az_model.h"

#include <cmath>
#include <cstring>
#include <limits>

#include <fmt/format.h>

#include "core/movegen.h"
#include "encoding/planes.h"
#include "encoding/policy_map.h"
#include "util/error.h"

namespace janus::training::az {

namespace pv = mcts::pvnet;

PolicyHead parsePolicyHead(const std::string& name) {
  if (name == "dense") return PolicyHead::kDense;
  if (name == "gather") return PolicyHead::kGather;
  throw Error(fmt::format("train-az: --policy-head '{}' is not one of dense, gather", name));
}

const char* policyHeadName(PolicyHead head) { return head == PolicyHead::kDense ? "dense" : "gather"; }

mcts::rn::ResNetArch resnetArch(int blocks, int filters, bool se) {
  mcts::rn::ResNetArch a;
  a.blocks = blocks;
  a.filters = filters;
  a.seChannels = se ? filters / 4 : 0;
  a.historySteps = 1;
  const char* why = "";
  if (!mcts::rn::validArch(a, &why))
    throw Error(fmt::format("train-az: --blocks {} --filters {}{}: {}", blocks, filters, se ? " --se" : "", why));
  return a;
}

Batch makeBatch(const Dataset& data, std::span<const std::uint32_t> indices, PolicyHead head, bool planes) {
  constexpr float kNegInf = -std::numeric_limits<float>::infinity();
  const auto n = std::int64_t(indices.size());
  Batch b;
  b.size = n;
  std::int64_t totalFeatures = 0, maxLegal = 1;
  for (std::uint32_t i : indices) {
    const SampleView s = data[i];
    totalFeatures += std::int64_t(s.features.size());
    maxLegal = std::max<std::int64_t>(maxLegal, std::int64_t(s.legal.size()));
  }
  const auto i64 = torch::TensorOptions().dtype(torch::kInt64);
  const auto f32 = torch::TensorOptions().dtype(torch::kFloat32);
  b.features = torch::empty({totalFeatures}, i64);
  b.offsets = torch::empty({n}, i64);
  b.wdl = torch::empty({n, 3}, f32);
  b.hasMove = torch::empty({n}, f32);
  auto* features = b.features.data_ptr<std::int64_t>();
  auto* offsets = b.offsets.data_ptr<std::int64_t>();
  auto* wdl = b.wdl.data_ptr<float>();
  auto* hasMove = b.hasMove.data_ptr<float>();
  const std::int64_t columns = head == PolicyHead::kDense ? std::int64_t(pv::kPolicySize) : maxLegal;
  b.policyTarget = torch::zeros({n, columns}, f32);
  auto* policyTarget = b.policyTarget.data_ptr<float>();
  std::int64_t* target = nullptr;
  float* mask = nullptr;
  std::int64_t *legal = nullptr, *slot = nullptr;
  float* legalMask = nullptr;
  if (head == PolicyHead::kDense) {
    b.mask = torch::full({n, pv::kPolicySize}, kNegInf, f32);
    b.target = torch::zeros({n}, i64);
    mask = b.mask.data_ptr<float>();
    target = b.target.data_ptr<std::int64_t>();
  } else {
    b.legal = torch::zeros({n, maxLegal}, i64);
    b.legalMask = torch::full({n, maxLegal}, kNegInf, f32);
    b.slot = torch::zeros({n}, i64);
    legal = b.legal.data_ptr<std::int64_t>();
    legalMask = b.legalMask.data_ptr<float>();
    slot = b.slot.data_ptr<std::int64_t>();
  }
  float* plane = nullptr;
  if (planes) {
    b.planes = torch::zeros({n, encoding::kBasePlanes, 8, 8}, f32);
    plane = b.planes.data_ptr<float>();
  }
  std::int64_t at = 0;
  for (std::int64_t row = 0; row < n; ++row) {
    const SampleView s = data[indices[std::size_t(row)]];
    if (plane) {
      // The planes of the current position (encoding/planes.h) from the oriented features:
      // input f < 768 is piece type (f % 384) / 64 of the side to move (f < 384) or the opponent
      // on square f % 64 (already flipped for Black), i.e. plane (f < 384 ? 0 : 6) + type;
      // inputs 768..771 are the castling planes 113..116 in the same order.
      float* p = plane + row * encoding::kBasePlanes * 64;
      for (u16 f : s.features) {
        if (f < pv::kPieceInputs) p[((f < 384 ? 0 : 6) + (f % 384) / 64) * 64 + f % 64] = 1.0f;
        else std::fill_n(p + (113 + (f - pv::kPieceInputs)) * 64, 64, 1.0f);
      }
      if (s.blackToMove) std::fill_n(p + 112 * 64, 64, 1.0f);
      std::fill_n(p + 117 * 64, 64, float(s.halfmoveClock) / 100.0f);
      std::fill_n(p + 118 * 64, 64, 1.0f);
    }
    offsets[row] = at;
    for (u16 f : s.features) features[at++] = f;
    for (int k = 0; k < 3; ++k) wdl[3 * row + k] = s.wdl[std::size_t(k)];
    hasMove[row] = s.target >= 0 ? 1.0f : 0.0f;
    b.withMove += s.target >= 0;
    // The target distribution: the visit shares, or one-hot on the move played.
    double shareSum = 0;
    for (u16 v : s.shares) shareSum += v;
    for (std::size_t k = 0; k < s.legal.size(); ++k) {
      const std::int64_t column = head == PolicyHead::kDense ? std::int64_t(s.legal[k]) : std::int64_t(k);
      const float p = !s.shares.empty() ? float(s.shares[k] / shareSum) : (s.legal[k] == s.target ? 1.0f : 0.0f);
      policyTarget[row * columns + column] = p;
    }
    if (head == PolicyHead::kDense) {
      for (u16 l : s.legal) mask[row * pv::kPolicySize + l] = 0.0f;
      // Without a move the row's loss is multiplied by 0: point at a legal entry (finite log-probability).
      target[row] = s.target >= 0 ? s.target : s.legal[0];
    } else {
      for (std::size_t k = 0; k < s.legal.size(); ++k) {
        legal[row * maxLegal + std::int64_t(k)] = s.legal[k];
        legalMask[row * maxLegal + std::int64_t(k)] = 0.0f;
        if (s.legal[k] == s.target) slot[row] = std::int64_t(k);
      }
    }
  }
  return b;
}

PvModelImpl::PvModelImpl(int hidden_, int valueHidden_) : hidden(hidden_), valueHidden(valueHidden_) {
  if (!pv::validSizes(hidden, valueHidden))
    throw Error(fmt::format("train-az: --hidden {} / --value-hidden {} are not a valid network (hidden {}..{} and a "
                            "multiple of 16, value hidden {}..{} and a multiple of 8)",
                            hidden, valueHidden, pv::kMinHidden, pv::kMaxHidden, pv::kMinValueHidden,
                            pv::kMaxValueHidden));
  trunk = register_module("trunk", torch::nn::EmbeddingBag(torch::nn::EmbeddingBagOptions(pv::kInputs, hidden)
                                                               .mode(torch::kSum)));
  {
    torch::NoGradGuard g;
    const double bound = 1.0 / std::sqrt(32.0);
    trunk->weight.uniform_(-bound, bound);
  }
  trunkBias = register_parameter("trunkBias", torch::zeros({hidden}));
  value1 = register_module("value1", torch::nn::Linear(hidden, valueHidden));
  value2 = register_module("value2", torch::nn::Linear(valueHidden, 3));
  policy = register_module("policy", torch::nn::Linear(hidden, pv::kPolicySize));
}

torch::Tensor PvModelImpl::trunkOut(const torch::Tensor& features, const torch::Tensor& offsets) {
  return torch::relu(trunk(features, offsets) + trunkBias);
}

LossParts computeLoss(PvModel& model, const Batch& b, PolicyHead head, double policyWeight, double valueWeight,
                      bool metrics) {
  const torch::Tensor h = model->trunkOut(b.features, b.offsets);
  const torch::Tensor valueLogits = model->value2(torch::relu(model->value1(h)));
  if (head == PolicyHead::kDense)
    return lossFromLogits(valueLogits, model->policy(h), b, head, policyWeight, valueWeight, metrics);
  // Rows of the legal moves only: [B, L, H] . [B, 1, H] -> [B, L].
  const auto n = b.legal.size(0), l = b.legal.size(1);
  const torch::Tensor flat = b.legal.reshape({-1});
  const torch::Tensor w = model->policy->weight.index_select(0, flat).view({n, l, model->hidden});
  const torch::Tensor bias = model->policy->bias.index_select(0, flat).view({n, l});
  // An element-wise product and a sum rather than bmm: B matrix-vector products of a few dozen
  // rows are slow through the reference BLAS of Debian's libtorch.
  const torch::Tensor logits = (w * h.unsqueeze(1)).sum(2) + bias;
  return lossFromLogits(valueLogits, logits, b, head, policyWeight, valueWeight, metrics);
}

LossParts computeLoss(mcts::rn::ResNet& model, const Batch& b, PolicyHead head, double policyWeight,
                      double valueWeight, bool metrics) {
  if (!b.planes.defined()) throw Error("train-az: a residual network needs a batch with planes");
  const mcts::rn::ResNetOutput out = model->forward(b.planes);
  const torch::Tensor policy = head == PolicyHead::kDense ? out.policy : out.policy.gather(1, b.legal);
  return lossFromLogits(out.value, policy, b, head, policyWeight, valueWeight, metrics);
}

LossParts lossFromLogits(const torch::Tensor& valueLogits, const torch::Tensor& policyLogits, const Batch& b,
                         PolicyHead head, double policyWeight, double valueWeight, bool metrics) {
  // Log-probabilities over the row's moves (illegal entries and padding masked to -inf); the
  // column of the move played.
  const torch::Tensor logp = torch::log_softmax(policyLogits + (head == PolicyHead::kDense ? b.mask : b.legalMask), 1);
  const torch::Tensor& played = head == PolicyHead::kDense ? b.target : b.slot;
  // Cross-entropy against the target distribution; masked entries (log-probability -inf) have
  // target 0 and are clamped so that 0 * -inf does not make a NaN.
  const torch::Tensor perSample = -(b.policyTarget * logp.clamp_min(-1e30)).sum(1) * b.hasMove;
  LossParts out;
  out.policyCe = perSample.sum() / double(std::max<std::int64_t>(1, b.withMove));
  const torch::Tensor valueLogp = torch::log_softmax(valueLogits, 1);
  out.valueCe = -(b.wdl * valueLogp).sum(1).mean();
  out.loss = policyWeight * out.policyCe + valueWeight * out.valueCe;
  if (metrics) {
    torch::NoGradGuard g;
    const torch::Tensor best = logp.argmax(1);
    out.correct = ((best == played).to(torch::kFloat32) * b.hasMove).sum().item<double>();
    const torch::Tensor p = valueLogp.exp();
    const torch::Tensor e = p.select(1, 0) + 0.5 * p.select(1, 1);
    const torch::Tensor t = b.wdl.select(1, 0) + 0.5 * b.wdl.select(1, 1);
    out.sqErrorSum = (e - t).pow(2).sum().item<double>();
  }
  return out;
}

bool isValueArch(const std::string& arch) { return arch == "value-mlp" || arch == "value-cnn"; }

ValueArch valueArch(const std::string& arch, const std::vector<int>& hidden, const std::vector<int>& convFilters,
                    int convKernel, const std::string& activation) {
  ValueArch a;
  if (arch == "value-mlp") a.kind = ValueArch::Kind::kMlp;
  else if (arch == "value-cnn") a.kind = ValueArch::Kind::kCnn;
  else throw Error(fmt::format("train-az: --arch '{}' is not a value-only architecture (value-mlp, value-cnn)", arch));
  if (activation == "relu") a.activation = ValueArch::Activation::kRelu;
  else if (activation == "elu") a.activation = ValueArch::Activation::kElu;
  else throw Error(fmt::format("train-az: --activation '{}' is not one of relu, elu", activation));
  if (a.kind == ValueArch::Kind::kMlp && !convFilters.empty())
    throw Error("train-az: --conv-filters goes with --arch value-cnn, not value-mlp");
  if (a.kind == ValueArch::Kind::kCnn && convFilters.empty())
    throw Error("train-az: --arch value-cnn needs --conv-filters (e.g. 32,32: two convolutions of 32 filters)");
  if (hidden.size() > 8 || convFilters.size() > 8)
    throw Error(fmt::format("train-az: at most 8 hidden layers and 8 convolutions ({} and {} given)", hidden.size(),
                            convFilters.size()));
  for (int h : hidden)
    if (h < 1 || h > 8192) throw Error(fmt::format("train-az: --hidden-layers: width {} is not in 1..8192", h));
  for (int f : convFilters)
    if (f < 1 || f > 1024) throw Error(fmt::format("train-az: --conv-filters: {} filters is not in 1..1024", f));
  if (convKernel < 1 || convKernel > 7 || convKernel % 2 == 0)
    throw Error(fmt::format("train-az: --conv-kernel {} must be odd and in 1..7 (padding K/2 keeps 8x8)", convKernel));
  a.hidden = hidden;
  a.convFilters = convFilters;
  a.convKernel = convKernel;
  return a;
}

ValueNetImpl::ValueNetImpl(const ValueArch& arch_) : arch(arch_) {
  convs = register_module("convs", torch::nn::ModuleList());
  dense = register_module("dense", torch::nn::ModuleList());
  std::int64_t channels = std::int64_t(kValuePlanes.size());
  for (int f : arch.convFilters) {
    convs->push_back(
        torch::nn::Conv2d(torch::nn::Conv2dOptions(channels, f, arch.convKernel).padding(arch.convKernel / 2)));
    channels = f;
  }
  std::int64_t width = channels * 64;
  for (int h : arch.hidden) {
    dense->push_back(torch::nn::Linear(width, h));
    width = h;
  }
  out = register_module("out", torch::nn::Linear(width, 1));
}

torch::Tensor ValueNetImpl::forward(const torch::Tensor& planes) {
  auto act = [&](const torch::Tensor& t) {
    return arch.activation == ValueArch::Activation::kElu ? torch::elu(t) : torch::relu(t);
  };
  torch::Tensor x = planes;
  for (const auto& c : *convs) x = act(c->as<torch::nn::Conv2d>()->forward(x));
  x = x.flatten(1);
  for (const auto& d : *dense) x = act(d->as<torch::nn::Linear>()->forward(x));
  return torch::sigmoid(out(x)).squeeze(1);
}

LossParts computeLoss(ValueNet& model, const Batch& b, bool metrics) {
  if (!b.planes.defined()) throw Error("train-az: a value-only network needs a batch with planes");
  static const torch::Tensor planeIndex =
      torch::tensor(std::vector<std::int64_t>(kValuePlanes.begin(), kValuePlanes.end()), torch::kInt64);
  const torch::Tensor predicted = model->forward(b.planes.index_select(1, planeIndex));
  const torch::Tensor target = b.wdl.select(1, 0) + 0.5 * b.wdl.select(1, 1);
  const torch::Tensor sq = (predicted - target).pow(2);
  LossParts p;
  p.loss = sq.mean();
  p.policyCe = p.valueCe = torch::full({}, std::numeric_limits<float>::quiet_NaN());
  if (metrics) p.sqErrorSum = sq.detach().sum().item<double>();
  return p;
}

namespace {

std::vector<float> toVector(const torch::Tensor& t) {
  const torch::Tensor c = t.detach().to(torch::kFloat32).contiguous();
  return std::vector<float>(c.data_ptr<float>(), c.data_ptr<float>() + c.numel());
}

}  // namespace

pv::PvWeights exportWeights(PvModel& model) {
  pv::PvWeights w;
  w.hidden = model->hidden;
  w.valueHidden = model->valueHidden;
  w.trunkW = toVector(model->trunk->weight);  // [772, H]: input-major, as the file
  w.trunkB = toVector(model->trunkBias);
  w.valueW1 = toVector(model->value1->weight);  // [V, H]
  w.valueB1 = toVector(model->value1->bias);
  w.valueW2 = toVector(model->value2->weight);  // [3, V]
  w.valueB2 = toVector(model->value2->bias);
  w.policyW = toVector(model->policy->weight);  // [1858, H]
  w.policyB = toVector(model->policy->bias);
  w.checkSizes();
  return w;
}

void importWeights(PvModel& model, const pv::PvWeights& w) {
  w.checkSizes();
  if (w.hidden != model->hidden || w.valueHidden != model->valueHidden)
    throw Error(fmt::format("train-az: the network is 772-{}-{}, the model 772-{}-{}", w.hidden, w.valueHidden,
                            model->hidden, model->valueHidden));
  torch::NoGradGuard g;
  auto set = [](torch::Tensor& t, const std::vector<float>& v) {
    t.copy_(torch::from_blob(const_cast<float*>(v.data()), t.sizes(), torch::kFloat32));
  };
  set(model->trunk->weight, w.trunkW);
  set(model->trunkBias, w.trunkB);
  set(model->value1->weight, w.valueW1);
  set(model->value1->bias, w.valueB1);
  set(model->value2->weight, w.valueW2);
  set(model->value2->bias, w.valueB2);
  set(model->policy->weight, w.policyW);
  set(model->policy->bias, w.policyB);
}

void modelLogits(PvModel& model, const Position& pos, std::span<const Move> moves, std::array<float, 3>& valueLogits,
                 std::span<float> policyLogits) {
  torch::NoGradGuard g;
  std::array<int, pv::kMaxActive> f{};
  const int n = pv::sideToMoveFeatures(pos, f);
  const torch::Tensor features = torch::from_blob(f.data(), {n}, torch::kInt32).to(torch::kInt64);
  const torch::Tensor offsets = torch::zeros({1}, torch::kInt64);
  const torch::Tensor h = model->trunkOut(features, offsets);
  const torch::Tensor v = model->value2(torch::relu(model->value1(h))).contiguous();
  for (int k = 0; k < 3; ++k) valueLogits[std::size_t(k)] = v[0][k].item<float>();
  const torch::Tensor p = model->policy(h).contiguous();
  const float* logits = p.data_ptr<float>();
  for (std::size_t i = 0; i < moves.size(); ++i) policyLogits[i] = logits[encoding::policyIndex(pos, moves[i])];
}

}  // namespace janus::training::az
