#include "mcts/rn_file.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include <fmt/format.h>

#include "nnue/format.h"
#include "util/error.h"
#include "util/zstd_stream.h"

namespace janus::mcts::rn {

std::uint64_t RnTensor::size() const {
  std::uint64_t n = 1;
  for (std::int64_t d : shape) n *= std::uint64_t(d);
  return n;
}

std::vector<RnTensor> tensorLayout(const RnArch& a) {
  const char* why = "";
  if (!validArch(a, &why)) throw Error(std::string("residual network architecture: ") + why);
  const std::int64_t c = a.inputPlanes, f = a.filters, s = a.seChannels, p = a.policyChannels, vc = a.valueChannels,
                     vh = a.valueHidden;
  std::vector<RnTensor> out;
  std::uint64_t at = 0;
  auto add = [&](std::string name, std::vector<std::int64_t> shape) {
    out.push_back(RnTensor{std::move(name), std::move(shape), at});
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

RnWeights RnWeights::zeros(const RnArch& a) {
  (void)tensorLayout(a);  // validates
  RnWeights w;
  w.arch = a;
  w.data.assign(payloadFloats(a), 0.0f);
  return w;
}

encoding::EncoderOptions encoderOptions(int flags) {
  encoding::EncoderOptions o;
  o.pins = flags & 1;
  o.control = flags & 2;
  o.pawns = flags & 4;
  o.mobility = flags & 8;
  return o;
}

int encoderFlags(const encoding::EncoderOptions& o) {
  return (o.pins ? 1 : 0) | (o.control ? 2 : 0) | (o.pawns ? 4 : 0) | (o.mobility ? 8 : 0);
}

namespace {

/// Throws naming the first tensor holding a NaN or an infinity.
template <typename Fail>
void checkFinite(const RnWeights& w, Fail&& fail) {
  for (std::size_t i = 0; i < w.data.size(); ++i)
    if (!std::isfinite(w.data[i]))
      for (const RnTensor& t : tensorLayout(w.arch))
        if (i >= t.offset && i < t.offset + t.size()) throw fail(t.name + " holds a NaN or an infinity");
}

}  // namespace

std::vector<unsigned char> rnFileBytes(const RnWeights& w, std::string_view description) {
  const char* why = "";
  if (!validArch(w.arch, &why)) throw Error(std::string("residual network architecture: ") + why);
  if (w.data.size() != payloadFloats(w.arch))
    throw Error(fmt::format("residual network weights: {} values, the architecture has {}", w.data.size(),
                            payloadFloats(w.arch)));
  checkFinite(w, [](const std::string& what) { return Error("residual network weights: " + what); });
  std::vector<unsigned char> bytes(sizeof(RnHeader) + payloadBytes(w.arch));
  std::memcpy(bytes.data() + sizeof(RnHeader), w.data.data(), w.data.size() * sizeof(float));
  RnHeader h{};
  std::memcpy(h.magic, kRnMagic, sizeof h.magic);
  h.version = kRnVersion;
  h.inputPlanes = std::uint16_t(w.arch.inputPlanes);
  h.blocks = std::uint16_t(w.arch.blocks);
  h.filters = std::uint16_t(w.arch.filters);
  h.seChannels = std::uint16_t(w.arch.seChannels);
  h.policyChannels = std::uint16_t(w.arch.policyChannels);
  h.valueChannels = std::uint16_t(w.arch.valueChannels);
  h.valueHidden = std::uint16_t(w.arch.valueHidden);
  h.historySteps = std::uint8_t(w.arch.historySteps);
  h.encoderFlags = std::uint8_t(w.arch.encoderFlags);
  h.archId = architectureId(w.arch);
  h.payloadBytes = payloadBytes(w.arch);
  h.contentHash = nnue::fnv1a64(std::span<const unsigned char>(bytes).subspan(sizeof(RnHeader)));
  std::memcpy(h.description, description.data(), std::min(description.size(), sizeof h.description - 1));
  std::memcpy(bytes.data(), &h, sizeof h);
  return bytes;
}

std::string rnFileName(std::uint64_t contentHash) { return fmt::format("rn-{:016x}.jrn", contentHash); }

std::string writeRnFile(const RnWeights& w, const std::string& path, std::string_view description) {
  const std::vector<unsigned char> bytes = rnFileBytes(w, description);
  namespace fs = std::filesystem;
  std::string target = path;
  if (target.empty() || target.back() == '/' || fs::is_directory(target)) {
    RnHeader h;
    std::memcpy(&h, bytes.data(), sizeof h);
    target = (fs::path(target.empty() ? "." : target) / rnFileName(h.contentHash)).string();
  }
  OutputFile out(target, false);
  out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  out.commit();
  return target;
}

RnFile RnFile::fromBytes(std::span<const unsigned char> bytes, const std::string& source) {
  auto fail = [&](const std::string& what) { return Error("residual network '" + source + "': " + what); };
  if (bytes.size() < sizeof(RnHeader))
    throw fail(fmt::format("{} bytes, shorter than the {}-byte header (not a JANUSRN file?)", bytes.size(),
                           sizeof(RnHeader)));
  RnHeader h;
  std::memcpy(&h, bytes.data(), sizeof h);
  if (std::memcmp(h.magic, kRnMagic, sizeof h.magic) != 0) throw fail("wrong magic (not a JANUSRN file)");
  if (h.version != kRnVersion) throw fail(fmt::format("version {}, this build reads version {}", h.version, kRnVersion));
  if (h.reserved0 != 0) throw fail(fmt::format("reserved field is {}, expected 0", h.reserved0));
  RnArch a;
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
    throw fail(fmt::format("invalid architecture ({}): {} planes, {} blocks x {} filters, SE {}, heads {}/{}/{}, "
                           "history {}, flags {}",
                           why, a.inputPlanes, a.blocks, a.filters, a.seChannels, a.policyChannels, a.valueChannels,
                           a.valueHidden, a.historySteps, a.encoderFlags));
  if (h.archId != architectureId(a))
    throw fail(fmt::format("architecture id {:08x} does not match the header's sizes ({:08x})", h.archId,
                           architectureId(a)));
  const std::uint64_t expected = payloadBytes(a);
  if (h.payloadBytes != expected)
    throw fail(fmt::format("header gives {} payload bytes, the architecture {}", h.payloadBytes, expected));
  const std::uint64_t got = bytes.size() - sizeof h;
  if (got != expected)
    throw fail(fmt::format("{} payload bytes, expected {} ({})", got, expected, got < expected ? "truncated" : "trailing bytes"));
  if (nnue::fnv1a64(bytes.subspan(sizeof h, expected)) != h.contentHash)
    throw fail("content hash does not match the payload (corrupted)");
  RnFile file;
  file.weights = RnWeights::zeros(a);
  std::memcpy(file.weights.data.data(), bytes.data() + sizeof h, expected);
  checkFinite(file.weights, fail);
  file.contentHash = h.contentHash;
  file.description = std::string(h.description, strnlen(h.description, sizeof h.description));
  return file;
}

RnFile RnFile::fromFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("residual network '" + path + "': cannot open");
  std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return fromBytes(bytes, path);
}

std::string RnFile::name() const { return fmt::format("rn-{:016x}", contentHash); }

std::string RnFile::describe() const {
  const RnArch& a = weights.arch;
  return fmt::format("{} ({}x{}{}, {} planes, history {}){}{}", name(), a.blocks, a.filters,
                     a.seChannels > 0 ? fmt::format(", SE {}", a.seChannels) : std::string(), a.inputPlanes,
                     a.historySteps, description.empty() ? "" : ", ", description);
}

bool isRnFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char magic[sizeof kRnMagic] = {};
  return in.read(magic, sizeof magic) && std::memcmp(magic, kRnMagic, sizeof magic) == 0;
}

void encodeInput(const Position& pos, const RnArch& arch, std::span<float> out) {
  encoding::encodePlanes(pos, encoderOptions(arch.encoderFlags), out);
  // Planes of positions the network does not see: 14h .. 14h+13 for h >= historySteps; with a
  // single step also the current position's repetition planes (rn_format.h).
  const std::size_t first = std::size_t(encoding::kPlanesPerPosition) * std::size_t(arch.historySteps) * 64;
  const std::size_t last = std::size_t(encoding::kHistory * encoding::kPlanesPerPosition) * 64;
  if (first < last) std::fill(out.begin() + std::ptrdiff_t(first), out.begin() + std::ptrdiff_t(last), 0.0f);
  if (arch.historySteps == 1) std::fill(out.begin() + 12 * 64, out.begin() + 14 * 64, 0.0f);
}

}  // namespace janus::mcts::rn
