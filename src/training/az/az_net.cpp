// The network a train-az run trains (az_net.h).

#include "training/az/az_net.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <memory>
#include <numeric>
#include <random>
#include <vector>

#include <fmt/format.h>

#include "core/movegen.h"
#include "encoding/planes.h"
#include "mcts/pvnet.h"
#include "mcts/resnet_file.h"
#include "util/error.h"

namespace janus::training::az {

torch::nn::Module& Net::module() {
  if (valueOnly()) return *value;
  return resnet() ? static_cast<torch::nn::Module&>(*rn) : *pv;
}

LossParts Net::loss(const Batch& b, PolicyHead head, double policyWeight, double valueWeight, bool metrics) {
  if (valueOnly()) return computeLoss(value, b, metrics);
  return resnet() ? computeLoss(rn, b, head, policyWeight, valueWeight, metrics)
                  : computeLoss(pv, b, head, policyWeight, valueWeight, metrics);
}

Batch Net::batch(const Dataset& data, std::span<const std::uint32_t> idx, PolicyHead head) const {
  return makeBatch(data, idx, head, resnet() || valueOnly());
}

std::size_t Net::parameters() {
  std::size_t n = 0;
  for (const auto& p : module().parameters()) n += std::size_t(p.numel());
  return n;
}

std::string Net::describe() {
  const std::size_t params = parameters();
  if (valueOnly()) {
    const ValueArch& a = value->arch;
    std::string layers;
    for (int f : a.convFilters) layers += fmt::format(" -> conv{}x{} {}", a.convKernel, a.convKernel, f);
    if (!a.convFilters.empty()) layers += fmt::format(" -> flatten {}", a.convFilters.back() * 64);
    for (int h : a.hidden) layers += fmt::format(" -> {}", h);
    return fmt::format("value-only {} {} planes x 8 x 8{} -> 1, {}, sigmoid; loss MSE on W + D/2 ({} parameters, "
                       "no network file)",
                       a.kind == ValueArch::Kind::kMlp ? "MLP" : "CNN", kValuePlanes.size(), layers,
                       a.activation == ValueArch::Activation::kElu ? "ELU" : "ReLU", params);
  }
  if (resnet())
    return fmt::format("residual network {} planes -> {} blocks x {} filters{} -> policy {}, value WDL ({} parameters, "
                       "batch normalisation folded at export)",
                       rn->arch.inputPlanes, rn->arch.blocks, rn->arch.filters,
                       rn->arch.seChannels ? fmt::format(", SE {}", rn->arch.seChannels) : std::string(),
                       mcts::rn::kPolicySize, params);
  return fmt::format("network 772 -> {} -> value {} -> 3, policy {} ({} parameters)", pv->hidden, pv->valueHidden,
                     mcts::pvnet::kPolicySize, params);
}

std::string Net::write(const std::string& path, const std::string& description) {
  if (valueOnly())
    throw Error("train-az: the value-only baselines (--arch value-mlp, value-cnn) have no network file: the engine "
                "cannot use a network without a policy head");
  if (resnet()) {
    rn->eval();
    const std::string written = mcts::rn::writeResNetFile(mcts::rn::exportWeights(rn), path, description);
    rn->train();
    return written;
  }
  return mcts::pvnet::writePvFile(exportWeights(pv), path, description);
}

Net makeNet(const AzConfig& c) {
  Net net;
  if (c.arch == "resnet") net.rn = mcts::rn::ResNet(resnetArch(c.blocks, c.filters, c.se), true);
  else if (isValueArch(c.arch))
    net.value = ValueNet(valueArch(c.arch, c.hiddenLayers, c.convFilters, c.convKernel, c.activation));
  else net.pv = PvModel(c.hidden, c.valueHidden);
  return net;
}

AzMetrics validationMetrics(Net& net, const Dataset& data, const AzConfig& c, PolicyHead head) {
  AzMetrics m;
  if (data.empty()) {
    m.valLoss = m.valPolicyCe = m.valValueCe = m.valAccuracy = m.valValueMse = std::numeric_limits<double>::quiet_NaN();
    return m;
  }
  torch::NoGradGuard g;
  net.module().eval();
  double policySum = 0, valueSum = 0, correct = 0, sq = 0;
  u64 withMove = 0;
  std::vector<std::uint32_t> idx;
  for (std::size_t start = 0; start < data.size(); start += 4096) {
    idx.resize(std::min<std::size_t>(4096, data.size() - start));
    std::iota(idx.begin(), idx.end(), std::uint32_t(start));
    const Batch b = net.batch(data, idx, head);
    const LossParts p = net.loss(b, head, c.policyWeight, c.valueWeight, true);
    policySum += p.policyCe.item<double>() * double(b.withMove);
    valueSum += p.valueCe.item<double>() * double(b.size);
    correct += p.correct;
    sq += p.sqErrorSum;
    withMove += u64(b.withMove);
  }
  net.module().train();
  const double n = double(data.size());
  m.valPolicyCe = withMove ? policySum / double(withMove) : std::numeric_limits<double>::quiet_NaN();
  m.valValueCe = valueSum / n;
  m.valLoss = c.policyWeight * (withMove ? m.valPolicyCe : 0.0) + c.valueWeight * m.valValueCe;
  m.valAccuracy = withMove ? correct / double(withMove) : std::numeric_limits<double>::quiet_NaN();
  m.valValueMse = sq / n;
  if (net.valueOnly()) {
    m.valPolicyCe = m.valValueCe = m.valAccuracy = std::numeric_limits<double>::quiet_NaN();
    m.valLoss = m.valValueMse;
  }
  return m;
}

double exportDifference(Net& net, const std::string& netPath, u64 seed) {
  std::mt19937_64 rng(seed);
  double worst = 0;
  net.module().eval();
  std::unique_ptr<mcts::rn::ResNetFile> file;
  mcts::rn::ResNet loaded{nullptr};
  std::shared_ptr<const mcts::pvnet::PvNetwork> pvnet;
  if (net.resnet()) {
    file = std::make_unique<mcts::rn::ResNetFile>(mcts::rn::ResNetFile::fromFile(netPath));
    loaded = mcts::rn::makeInferenceNetwork(file->weights);
  } else {
    pvnet = mcts::pvnet::PvNetwork::fromFile(netPath);
  }
  for (int game = 0; game < 8; ++game) {
    Position pos;
    for (int ply = 0; ply < 60; ++ply) {
      const MoveList moves = legalMoves(pos);
      if (moves.empty()) break;
      std::vector<Move> list(moves.begin(), moves.end());
      if (net.resnet()) {
        // The whole output of both networks on the planes the engine would give the file's network.
        std::vector<float> planes(std::size_t(file->weights.arch.inputPlanes) * 64);
        encoding::encodePlanes(pos, mcts::rn::encoderOptions(file->weights.arch), planes);
        torch::NoGradGuard g;
        const torch::Tensor x = torch::from_blob(planes.data(), {1, file->weights.arch.inputPlanes, 8, 8});
        const mcts::rn::ResNetOutput a = net.rn->forward(x), b = loaded->forward(x);
        worst = std::max({worst, (a.policy - b.policy).abs().max().item<double>(),
                          (a.value - b.value).abs().max().item<double>()});
      } else {
        std::array<float, 3> vt{}, ve{};
        std::vector<float> pt(list.size()), pe(list.size());
        modelLogits(net.pv, pos, list, vt, pt);
        pvnet->logits(pos, list, ve, pe);
        for (int k = 0; k < 3; ++k) worst = std::max(worst, double(std::abs(vt[std::size_t(k)] - ve[std::size_t(k)])));
        for (std::size_t i = 0; i < list.size(); ++i) worst = std::max(worst, double(std::abs(pt[i] - pe[i])));
      }
      pos.makeMove(list[std::size_t(rng() % list.size())]);
      if (pos.isInsufficientMaterial() || pos.isFiftyMoveDraw()) break;
    }
  }
  net.module().train();
  return worst;
}

}  // namespace janus::training::az
