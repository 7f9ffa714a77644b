#pragma once
// Janus residual network file ("JANUSRN"), version 1: the convolutional policy/value ResNet of
// the MCTS face's libtorch backend (`torch`, src/mcts/torch/), the one definition of the bytes
// that `janus train-az --arch resnet` exports and the engine loads. Header-only and free of
// engine code and of libtorch, so that the reader (resnet_file.h), the trainer and the tests of a
// build without libtorch include it; the fields it shares with the other network files are read
// and written by netfile/netfile.h.
//
// Architecture (AlphaZero's network, Silver et al., Science 2018, supplementary "Architecture",
// in the shape Leela Chess Zero uses for chess: lczero.org "Neural network topology"):
//   * Input: [C, 8, 8] planes of encoding::encodePlanes with encoderOptions() below
//     (docs/encoding.md): C = 119 base planes plus the optional planes named by `encoderFlags`;
//     only the first `historySteps` positions are given to the network (encoding/planes.h: the
//     planes of older positions are zero, with one step the repetition planes as well).
//   * Input convolution: 3x3, C -> F filters, ReLU.
//   * B residual blocks (He et al., "Deep residual learning", CVPR 2016): y = ReLU(x +
//     SE(conv2(ReLU(conv1(x))))), conv1 and conv2 3x3 F -> F; SE is the identity without
//     squeeze-excitation, else (Hu et al., "Squeeze-and-Excitation Networks", CVPR 2018):
//     s = sigmoid(W2 ReLU(W1 mean_{8x8}(z) + b1) + b2), SE(z) = s * z per channel, W1 [S][F],
//     W2 [F][S].
//   * Policy head (Lc0's "classical" head): 1x1 convolution F -> P, ReLU, flattened
//     channel-major (index c * 64 + 8 * rank + file) and a dense layer P*64 -> 1858 logits in
//     the Lc0 layout of encoding/policy_map.h; priors = softmax over the legal moves only.
//   * Value head (Lc0's WDL head): 1x1 convolution F -> Vc, ReLU, flattened like the policy,
//     dense Vc*64 -> Vh, ReLU, dense Vh -> 3 logits (win, draw, loss for the side to move);
//     WDL = softmax(logits).
//   * Every convolution has a bias: batch normalisation is folded into it at export
//     (w' = w * gamma / sqrt(var + eps), b' = beta - mean * gamma / sqrt(var + eps)), so the
//     file holds the inference network only; padding 1 for 3x3 (the board keeps its 8x8 size).
//
// File layout (little-endian):
//   offset size  field
//        0    8  magic           "JANUSRN\0"
//        8    2  version         u16, kResNetVersion (1)
//       10    2  inputPlanes     u16, C = encoding::planeCount(encoderOptions())
//       12    2  blocks          u16, B: kMinBlocks..kMaxBlocks
//       14    2  filters         u16, F: kMinFilters..kMaxFilters, a multiple of 8
//       16    2  seChannels      u16, S: 0 (no squeeze-excitation) or 1..F
//       18    2  policyChannels  u16, P: 1..kMaxHeadChannels
//       20    2  valueChannels   u16, Vc: 1..kMaxHeadChannels
//       22    2  valueHidden     u16, Vh: 1..kMaxValueHidden
//       24    1  historySteps    u8, 1..8 (encoding::kHistory)
//       25    1  encoderFlags    u8, encoding::encoderFlags: bit 0 pins, 1 control, 2 pawns, 3 mobility
//       26    2  reserved0       u16, 0 (a reader rejects another value)
//       28    4  archId          u32, architectureId(fields 10..25)
//       32    8  payloadBytes    u64, payloadFloats(...) * 4
//       40    8  contentHash     u64, FNV-1a 64 (util/hash.h) of the payload; names the file
//                                rn-<16 hex>.jrn
//       48   16  description     ASCII, NUL-padded (free text, e.g. the training run's id)
//       64       payload, float32, row-major, in this order:
//                  inputW [F][C][3][3]  inputB [F]
//                  per block b = 0..B-1:
//                    conv1W [F][F][3][3]  conv1B [F]  conv2W [F][F][3][3]  conv2B [F]
//                    if S > 0: se1W [S][F]  se1B [S]  se2W [F][S]  se2B [F]
//                  policyConvW [P][F]  policyConvB [P]  policyW [1858][P*64]  policyB [1858]
//                  valueConvW [Vc][F]  valueConvB [Vc]  value1W [Vh][Vc*64]  value1B [Vh]
//                  value2W [3][Vh]  value2B [3]
// A reader rejects a file whose magic, version, sizes, archId, payload size or content hash
// differ, that is truncated or has trailing bytes, or whose payload holds a NaN or an infinity.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "encoding/planes.h"
#include "netfile/netfile.h"

namespace janus::mcts::rn {

inline constexpr char kResNetMagic[8] = {'J', 'A', 'N', 'U', 'S', 'R', 'N', '\0'};
inline constexpr std::uint16_t kResNetVersion = 1;
inline constexpr int kPolicySize = 1858;
inline constexpr int kMinBlocks = 1, kMaxBlocks = 64;
inline constexpr int kMinFilters = 8, kMaxFilters = 1024;
inline constexpr int kMaxHeadChannels = 256;
inline constexpr int kMaxValueHidden = 1024;
inline constexpr int kMaxHistorySteps = 8;
inline constexpr int kMinInputPlanes = encoding::kBasePlanes;
inline constexpr int kMaxInputPlanes = encoding::planeCount({true, true, true, true});

#pragma pack(push, 1)
struct ResNetHeader {
  char magic[8];
  std::uint16_t version;
  std::uint16_t inputPlanes;
  std::uint16_t blocks;
  std::uint16_t filters;
  std::uint16_t seChannels;
  std::uint16_t policyChannels;
  std::uint16_t valueChannels;
  std::uint16_t valueHidden;
  std::uint8_t historySteps;
  std::uint8_t encoderFlags;
  std::uint16_t reserved0;
  std::uint32_t archId;
  std::uint64_t payloadBytes;
  std::uint64_t contentHash;
  char description[16];
};
#pragma pack(pop)
static_assert(sizeof(ResNetHeader) == 64);
static_assert(offsetof(ResNetHeader, historySteps) == 24);
static_assert(offsetof(ResNetHeader, archId) == 28);
static_assert(offsetof(ResNetHeader, payloadBytes) == 32);
static_assert(offsetof(ResNetHeader, contentHash) == 40);

/// The architecture a file describes (the header's fields 10..25).
struct ResNetArch {
  int inputPlanes = kMinInputPlanes;  ///< C
  int blocks = 6;                     ///< B
  int filters = 64;                   ///< F
  int seChannels = 0;                 ///< S, 0 = no squeeze-excitation
  int policyChannels = 32;            ///< P (Lc0's classical policy head: 32)
  int valueChannels = 32;             ///< Vc (Lc0: 32)
  int valueHidden = 128;              ///< Vh (Lc0: 128)
  int historySteps = 8;               ///< positions given to the network, 1..8
  int encoderFlags = 0;               ///< optional planes (bit 0 pins, 1 control, 2 pawns, 3 mobility)
  bool operator==(const ResNetArch&) const = default;
};

/// The input encoding of a network of architecture `a` (encoding/planes.h): the optional planes
/// of a.encoderFlags and a.historySteps positions.
[[nodiscard]] constexpr encoding::EncoderOptions encoderOptions(const ResNetArch& a) {
  return encoding::encoderOptions(a.encoderFlags, a.historySteps);
}

/// True if `a` is an architecture this version describes; `why` (if given) names the first
/// violated rule.
[[nodiscard]] constexpr bool validArch(const ResNetArch& a, const char** why = nullptr) {
  auto bad = [&](const char* w) {
    if (why) *why = w;
    return false;
  };
  if (a.encoderFlags < 0 || a.encoderFlags > 15) return bad("encoder flags outside 0..15");
  if (a.inputPlanes != encoding::planeCount(encoderOptions(a))) return bad("input planes do not match the encoder flags");
  if (a.blocks < kMinBlocks || a.blocks > kMaxBlocks) return bad("blocks outside 1..64");
  if (a.filters < kMinFilters || a.filters > kMaxFilters || a.filters % 8 != 0)
    return bad("filters outside 8..1024 or not a multiple of 8");
  if (a.seChannels < 0 || a.seChannels > a.filters) return bad("squeeze-excitation channels outside 0..filters");
  if (a.policyChannels < 1 || a.policyChannels > kMaxHeadChannels) return bad("policy channels outside 1..256");
  if (a.valueChannels < 1 || a.valueChannels > kMaxHeadChannels) return bad("value channels outside 1..256");
  if (a.valueHidden < 1 || a.valueHidden > kMaxValueHidden) return bad("value hidden size outside 1..1024");
  if (a.historySteps < 1 || a.historySteps > kMaxHistorySteps) return bad("history steps outside 1..8");
  return true;
}

/// Number of float32 values in the payload of `a` (the layout above).
[[nodiscard]] constexpr std::uint64_t payloadFloats(const ResNetArch& a) {
  const std::uint64_t c = std::uint64_t(a.inputPlanes), f = std::uint64_t(a.filters), s = std::uint64_t(a.seChannels),
                      p = std::uint64_t(a.policyChannels), vc = std::uint64_t(a.valueChannels),
                      vh = std::uint64_t(a.valueHidden);
  std::uint64_t n = f * c * 9 + f;
  std::uint64_t block = 2 * (f * f * 9 + f);
  if (s > 0) block += s * f + s + f * s + f;
  n += std::uint64_t(a.blocks) * block;
  n += p * f + p + std::uint64_t(kPolicySize) * p * 64 + kPolicySize;
  n += vc * f + vc + vh * vc * 64 + vh + 3 * vh + 3;
  return n;
}

/// Bytes of the payload after the header.
[[nodiscard]] constexpr std::uint64_t payloadBytes(const ResNetArch& a) { return payloadFloats(a) * 4; }

/// Identifier of an architecture: netfile::architectureId of (kResNetVersion, C, B, F, S, P, Vc, Vh,
/// historySteps, encoderFlags, kPolicySize).
[[nodiscard]] constexpr std::uint32_t architectureId(const ResNetArch& a) {
  return netfile::architectureId({kResNetVersion, std::uint32_t(a.inputPlanes), std::uint32_t(a.blocks),
                                  std::uint32_t(a.filters), std::uint32_t(a.seChannels), std::uint32_t(a.policyChannels),
                                  std::uint32_t(a.valueChannels), std::uint32_t(a.valueHidden),
                                  std::uint32_t(a.historySteps), std::uint32_t(a.encoderFlags),
                                  std::uint32_t(kPolicySize)});
}

/// The shared fields of the file (netfile/netfile.h): where they are and what the files are called.
inline constexpr netfile::Format kResNetFormat =
    netfile::formatOf<ResNetHeader>("residual network", std::string_view(kResNetMagic, sizeof kResNetMagic), kResNetVersion,
                                {offsetof(ResNetHeader, reserved0), sizeof ResNetHeader::reserved0}, "rn", "jrn");

}  // namespace janus::mcts::rn
