#include "mcts/torch/resnet.h"

#include <fmt/format.h>

#include "util/error.h"

namespace janus::mcts::rn {

namespace {

torch::nn::Conv2d conv(int in, int out, int kernel, bool bias) {
  return torch::nn::Conv2d(torch::nn::Conv2dOptions(in, out, kernel).padding(kernel / 2).bias(bias));
}

/// conv, then batch normalisation when the network has it.
torch::Tensor convBn(torch::nn::Conv2d& c, torch::nn::BatchNorm2d& bn, const torch::Tensor& x) {
  torch::Tensor y = c->forward(x);
  return bn ? bn->forward(y) : y;
}

/// (weight, bias) of a convolution with its batch normalisation folded in (resnet_format.h), in
/// double precision: w' = w * gamma / sqrt(var + eps), b' = beta - mean * gamma / sqrt(var + eps).
std::pair<torch::Tensor, torch::Tensor> folded(const torch::nn::Conv2d& c, const torch::nn::BatchNorm2d& bn) {
  const torch::Tensor w = c->weight.detach().to(torch::kFloat64);
  if (!bn) return {w, c->bias.detach().to(torch::kFloat64)};
  const torch::Tensor scale =
      bn->weight.detach().to(torch::kFloat64) / (bn->running_var.to(torch::kFloat64) + bn->options.eps()).sqrt();
  return {w * scale.view({-1, 1, 1, 1}),
          bn->bias.detach().to(torch::kFloat64) - bn->running_mean.to(torch::kFloat64) * scale};
}

/// Every tensor of the file's layout, in its order (resnet_format.h): the folded convolutions and the
/// dense layers' parameters.
std::vector<torch::Tensor> fileTensors(ResNet& m) {
  std::vector<torch::Tensor> out;
  auto addConv = [&](const torch::nn::Conv2d& c, const torch::nn::BatchNorm2d& bn) {
    auto [w, b] = folded(c, bn);
    out.push_back(w);
    out.push_back(b);
  };
  auto addLinear = [&](const torch::nn::Linear& l) {
    out.push_back(l->weight.detach());
    out.push_back(l->bias.detach());
  };
  addConv(m->input, m->inputBn);
  for (ResBlock& b : m->blocks) {
    addConv(b->conv1, b->bn1);
    addConv(b->conv2, b->bn2);
    if (b->se1) {
      addLinear(b->se1);
      addLinear(b->se2);
    }
  }
  addConv(m->policyConv, m->policyBn);
  addLinear(m->policyFc);
  addConv(m->valueConv, m->valueBn);
  addLinear(m->value1);
  addLinear(m->value2);
  return out;
}

}  // namespace

ResBlockImpl::ResBlockImpl(int filters, int seChannels, bool batchNorm_) : batchNorm(batchNorm_) {
  conv1 = register_module("conv1", conv(filters, filters, 3, !batchNorm));
  conv2 = register_module("conv2", conv(filters, filters, 3, !batchNorm));
  if (batchNorm) {
    bn1 = register_module("bn1", torch::nn::BatchNorm2d(filters));
    bn2 = register_module("bn2", torch::nn::BatchNorm2d(filters));
  }
  if (seChannels > 0) {
    se1 = register_module("se1", torch::nn::Linear(filters, seChannels));
    se2 = register_module("se2", torch::nn::Linear(seChannels, filters));
  }
}

torch::Tensor ResBlockImpl::forward(const torch::Tensor& x) {
  torch::Tensor y = torch::relu(convBn(conv1, bn1, x));
  y = convBn(conv2, bn2, y);
  if (se1) {
    // Squeeze (mean over the 8x8 board) and excitation (a per-channel gate in (0, 1)).
    const torch::Tensor s = torch::sigmoid(se2->forward(torch::relu(se1->forward(y.mean({2, 3})))));
    y = y * s.unsqueeze(2).unsqueeze(3);
  }
  return torch::relu(y + x);
}

ResNetImpl::ResNetImpl(const ResNetArch& arch_, bool batchNorm_) : arch(arch_), batchNorm(batchNorm_) {
  (void)tensorLayout(arch);  // validates, naming the rule
  const int f = arch.filters;
  input = register_module("input", conv(arch.inputPlanes, f, 3, !batchNorm));
  if (batchNorm) inputBn = register_module("inputBn", torch::nn::BatchNorm2d(f));
  for (int b = 0; b < arch.blocks; ++b)
    blocks.push_back(register_module(fmt::format("block{}", b), ResBlock(f, arch.seChannels, batchNorm)));
  policyConv = register_module("policyConv", conv(f, arch.policyChannels, 1, !batchNorm));
  valueConv = register_module("valueConv", conv(f, arch.valueChannels, 1, !batchNorm));
  if (batchNorm) {
    policyBn = register_module("policyBn", torch::nn::BatchNorm2d(arch.policyChannels));
    valueBn = register_module("valueBn", torch::nn::BatchNorm2d(arch.valueChannels));
  }
  policyFc = register_module("policyFc", torch::nn::Linear(arch.policyChannels * 64, kPolicySize));
  value1 = register_module("value1", torch::nn::Linear(arch.valueChannels * 64, arch.valueHidden));
  value2 = register_module("value2", torch::nn::Linear(arch.valueHidden, 3));
}

ResNetOutput ResNetImpl::forward(const torch::Tensor& planes) {
  torch::Tensor x = torch::relu(convBn(input, inputBn, planes));
  for (ResBlock& b : blocks) x = b->forward(x);
  ResNetOutput out;
  out.policy = policyFc->forward(torch::relu(convBn(policyConv, policyBn, x)).flatten(1));
  out.value = value2->forward(torch::relu(value1->forward(torch::relu(convBn(valueConv, valueBn, x)).flatten(1))));
  return out;
}

ResNetWeights exportWeights(ResNet& model) {
  torch::NoGradGuard g;
  ResNetWeights w = ResNetWeights::zeros(model->arch);
  const std::vector<ResNetTensor> layout = tensorLayout(model->arch);
  const std::vector<torch::Tensor> tensors = fileTensors(model);
  if (tensors.size() != layout.size()) throw Error("residual network export: tensor count differs from the layout");
  for (std::size_t i = 0; i < layout.size(); ++i) {
    const torch::Tensor t = tensors[i].to(torch::kFloat32).contiguous();
    if (std::uint64_t(t.numel()) != layout[i].size())
      throw Error(fmt::format("residual network export: {} has {} values, the layout {}", layout[i].name, t.numel(),
                              layout[i].size()));
    std::memcpy(w.tensor(layout[i]).data(), t.data_ptr<float>(), layout[i].size() * sizeof(float));
  }
  return w;
}

void importWeights(ResNet& model, const ResNetWeights& w) {
  if (model->batchNorm) throw Error("residual network import: the model has batch normalisation (a trainer's network)");
  if (!(model->arch == w.arch)) throw Error("residual network import: the file's architecture differs from the model's");
  if (w.data.size() != payloadFloats(w.arch)) throw Error("residual network import: payload size differs");
  torch::NoGradGuard g;
  // Without batch normalisation the file's tensors are exactly the parameters, in this order.
  std::vector<torch::Tensor> params;
  auto conv2 = [&](torch::nn::Conv2d& c) {
    params.push_back(c->weight);
    params.push_back(c->bias);
  };
  auto linear = [&](torch::nn::Linear& l) {
    params.push_back(l->weight);
    params.push_back(l->bias);
  };
  conv2(model->input);
  for (ResBlock& b : model->blocks) {
    conv2(b->conv1);
    conv2(b->conv2);
    if (b->se1) {
      linear(b->se1);
      linear(b->se2);
    }
  }
  conv2(model->policyConv);
  linear(model->policyFc);
  conv2(model->valueConv);
  linear(model->value1);
  linear(model->value2);
  const std::vector<ResNetTensor> layout = tensorLayout(w.arch);
  for (std::size_t i = 0; i < layout.size(); ++i) {
    const std::span<const float> src = w.tensor(layout[i]);
    params[i].copy_(torch::from_blob(const_cast<float*>(src.data()), params[i].sizes(), torch::kFloat32));
  }
}

ResNet makeInferenceNetwork(const ResNetWeights& w) {
  ResNet net(w.arch, false);
  importWeights(net, w);
  net->eval();
  for (auto& p : net->parameters()) p.set_requires_grad(false);
  return net;
}

}  // namespace janus::mcts::rn
