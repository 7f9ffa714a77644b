#include "mcts/resnet_file.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include <fmt/format.h>

#include "util/error.h"

namespace janus::mcts::rn {

std::uint64_t ResNetTensor::size() const {
  std::uint64_t n = 1;
  for (std::int64_t d : shape) n *= std::uint64_t(d);
  return n;
}

std::vector<ResNetTensor> tensorLayout(const ResNetArch& a) {
  const char* why = "";
  if (!validArch(a, &why)) throw Error(std::string("residual network architecture: ") + why);
  const std::int64_t c = a.inputPlanes, f = a.filters, s = a.seChannels, p = a.policyChannels, vc = a.valueChannels,
                     vh = a.valueHidden;
  std::vector<ResNetTensor> out;
  std::uint64_t at = 0;
  auto add = [&](std::string name, std::vector<std::int64_t> shape) {
    out.push_back(ResNetTensor{std::move(name), std::move(shape), at});
    at += out.back().size();
  };
  add("inputW", {f, c, 3, 3});
  add("inputB", {f});
  for (int b = 0; b < a.blocks; ++b) {
    const std::string k = fmt::format("block{}.", b);
    add(k + "conv1W", {f, f, 3, 3});
    add(k + "conv1B", {f});
    add(k + "conv2W", {f, f, 3, 3});
    add(k + "conv2B", {f});
    if (s > 0) {
      add(k + "se1W", {s, f});
      add(k + "se1B", {s});
      add(k + "se2W", {f, s});
      add(k + "se2B", {f});
    }
  }
  add("policyConvW", {p, f});
  add("policyConvB", {p});
  add("policyW", {kPolicySize, p * 64});
  add("policyB", {kPolicySize});
  add("valueConvW", {vc, f});
  add("valueConvB", {vc});
  add("value1W", {vh, vc * 64});
  add("value1B", {vh});
  add("value2W", {3, vh});
  add("value2B", {3});
  return out;
}

ResNetWeights ResNetWeights::zeros(const ResNetArch& a) {
  (void)tensorLayout(a);  // validates
  ResNetWeights w;
  w.arch = a;
  w.data.assign(payloadFloats(a), 0.0f);
  return w;
}

namespace {

/// Throws naming the first tensor holding a NaN or an infinity.
template <typename Fail>
void checkFinite(const ResNetWeights& w, Fail&& fail) {
  for (std::size_t i = 0; i < w.data.size(); ++i)
    if (!std::isfinite(w.data[i]))
      for (const ResNetTensor& t : tensorLayout(w.arch))
        if (i >= t.offset && i < t.offset + t.size()) throw fail(t.name + " holds a NaN or an infinity");
}

}  // namespace

std::vector<unsigned char> rnFileBytes(const ResNetWeights& w, std::string_view description) {
  const char* why = "";
  if (!validArch(w.arch, &why)) throw Error(std::string("residual network architecture: ") + why);
  if (w.data.size() != payloadFloats(w.arch))
    throw Error(fmt::format("residual network weights: {} values, the architecture has {}", w.data.size(),
                            payloadFloats(w.arch)));
  checkFinite(w, [](const std::string& what) { return Error("residual network weights: " + what); });
  ResNetHeader h{};
  h.inputPlanes = std::uint16_t(w.arch.inputPlanes);
  h.blocks = std::uint16_t(w.arch.blocks);
  h.filters = std::uint16_t(w.arch.filters);
  h.seChannels = std::uint16_t(w.arch.seChannels);
  h.policyChannels = std::uint16_t(w.arch.policyChannels);
  h.valueChannels = std::uint16_t(w.arch.valueChannels);
  h.valueHidden = std::uint16_t(w.arch.valueHidden);
  h.historySteps = std::uint8_t(w.arch.historySteps);
  h.encoderFlags = std::uint8_t(w.arch.encoderFlags);
  const std::span<const unsigned char> payload(reinterpret_cast<const unsigned char*>(w.data.data()),
                                               w.data.size() * sizeof(float));  // little-endian host (resnet_format.h)
  return netfile::build(kResNetFormat, h, payload, architectureId(w.arch), description);
}

std::string writeResNetFile(const ResNetWeights& w, const std::string& path, std::string_view description) {
  return netfile::writeFile(kResNetFormat, rnFileBytes(w, description), path);
}

ResNetFile ResNetFile::fromBytes(std::span<const unsigned char> bytes, const std::string& source) {
  ResNetArch a;
  const netfile::File<ResNetHeader> f = netfile::read<ResNetHeader>(kResNetFormat, bytes, source, [&a](const ResNetHeader& h) {
    a.inputPlanes = h.inputPlanes;
    a.blocks = h.blocks;
    a.filters = h.filters;
    a.seChannels = h.seChannels;
    a.policyChannels = h.policyChannels;
    a.valueChannels = h.valueChannels;
    a.valueHidden = h.valueHidden;
    a.historySteps = h.historySteps;
    a.encoderFlags = h.encoderFlags;
    const char* why = "";
    if (!validArch(a, &why))
      throw Error(fmt::format("invalid architecture ({}): {} planes, {} blocks x {} filters, SE {}, heads {}/{}/{}, "
                              "history {}, flags {}",
                              why, a.inputPlanes, a.blocks, a.filters, a.seChannels, a.policyChannels, a.valueChannels,
                              a.valueHidden, a.historySteps, a.encoderFlags));
    return netfile::Architecture{architectureId(a), payloadBytes(a)};
  });
  ResNetFile file;
  file.weights = ResNetWeights::zeros(a);
  std::memcpy(file.weights.data.data(), f.payload.data(), f.payload.size());
  checkFinite(file.weights, [&](const std::string& what) {
    return Error(fmt::format("{} '{}': {}", kResNetFormat.kind, source, what));
  });
  file.contentHash = f.contentHash;
  file.description = f.description;
  return file;
}

ResNetFile ResNetFile::fromFile(const std::string& path) { return fromBytes(netfile::readFile(kResNetFormat, path), path); }

std::string ResNetFile::name() const { return netfile::name(kResNetFormat, contentHash); }

std::string ResNetFile::describe() const {
  const ResNetArch& a = weights.arch;
  return fmt::format("{} ({}x{}{}, {} planes, history {}){}{}", name(), a.blocks, a.filters,
                     a.seChannels > 0 ? fmt::format(", SE {}", a.seChannels) : std::string(), a.inputPlanes,
                     a.historySteps, description.empty() ? "" : ", ", description);
}

}  // namespace janus::mcts::rn
