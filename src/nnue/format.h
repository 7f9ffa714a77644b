#pragma once
// Janus NNUE network file ("JANUSNN"), version 1: the one definition of the bytes that
// `janus train-nnue` exports and the engine loads. Header-only and free of engine code, so the
// trainer includes it on its own; the one validation of a file's bytes, checkNetFile() (the
// shared fields by netfile/netfile.h, this format's own here), serves the engine's loader and
// the trainer's.
//
// Architecture (chessprogramming wiki "NNUE"; the perspective net of bullet/Stormphrax-style
// engines): (768 -> N) x 2 -> B output buckets -> 1.
//   * Inputs: 768 = 2 colours x 6 piece types x 64 squares, seen from each side ("perspective").
//     featureIndex() below gives the index of a piece for one perspective: the perspective's
//     own pieces first, squares flipped vertically (a1 <-> a8) for Black's perspective.
//   * King buckets (optional, K = kingBuckets > 1; chessprogramming wiki "NNUE", king-relative
//     inputs as in HalfKP/HalfKA, here with few buckets as in bullet-trained engines): the
//     inputs are K x 768, one block of 768 per bucket of the perspective's own king square, so
//     the weights of a piece can depend on where the own king stands. The board is also
//     mirrored a <-> h (square ^ 7) for a perspective whose king stands on files e-h, so the
//     king is always on files a-d and a bucket covers both wings. kingBucket() gives the layout.
//     A king move that changes its bucket or its half of the board changes every input of that
//     perspective (the engine then refreshes that accumulator). K = 1: no buckets, no mirror.
//   * Feature transformer: one weight row of N per input, shared by both perspectives, plus a
//     bias of N. The accumulator of a perspective = bias + sum of the rows of its active inputs.
//   * Activation: SCReLU (clamp(x, 0, 1)^2) or CReLU (clamp(x, 0, 1)).
//   * Output: the side to move's activated accumulator (N) then the other side's (N), dot one
//     of B weight vectors (2N) chosen by the piece count (outputBucket()), plus that bucket's bias.
//   * Float evaluation in centipawns = output * kEvalScale (the trainer's sigmoid(output) is the
//     expected score; see docs/nnue.md).
//
// Quantisation (integers in the file; QB is the file's, see below):
//   ftWeights, ftBias: int16 = round(w * QA)
//   outWeights:        int16 = round(w * QB)
//   outBias:           int32 = round(b * QA * QB)
//   SCReLU: eval = ((sum_i clamp(acc_i, 0, QA)^2 * outW_i) / QA + outBias) * kEvalScale / (QA * QB)
//   CReLU:  eval = ( sum_i clamp(acc_i, 0, QA)   * outW_i        + outBias) * kEvalScale / (QA * QB)
// in 64-bit integers, i over the 2N activations (side to move's accumulator first), each '/'
// a C++ integer division (truncating toward zero), the result in centipawns.
// with QA = 255 and QB one of 64, 128, 256, 512 (validQB; 64 is the value of most small NNUE
// engines). Every output weight is within -127..127 so that clamp(acc, 0, QA) * outW fits in an
// int16 (255 * 127, the SIMD kernel's trick). The trainer clips every weight to
// [-kWeightClip, kWeightClip], so QB = 64 always fits; the exporter takes the largest QB whose
// output weights still fit (a trained layer's largest weight is typically below 1, so QB 128
// halves the rounding error of the output layer, whose mean |weight| is about 5 steps of 1/64).
//
// File layout (little-endian):
//   offset size  field
//        0    8  magic          "JANUSNN\0"
//        8    2  version        u16, kNetVersion (1)
//       10    1  activation     u8, Activation (1 CReLU, 2 SCReLU)
//       11    1  kingBuckets    u8, K in {2, 4, 8, 16}, or 0 for none (K = 1; files before king
//                               buckets existed have 0 here, so they read unchanged)
//       12    2  inputs         u16, kInputs * K (768 K)
//       14    2  hidden         u16, N: 16..2048, a multiple of 16
//       16    2  outputBuckets  u16, B: 1..16
//       18    2  qa             u16, kQA (255)
//       20    2  qb             u16, QB: 64, 128, 256 or 512 (validQB; kQB = 64 in files
//                               written before QB was chosen per network)
//       22    2  evalScale      u16, kEvalScale (400)
//       24    4  archId         u32, architectureId(activation, hidden, outputBuckets, K, QB)
//       28    4  reserved1      u32, 0
//       32    8  payloadBytes   u64, payloadBytes(hidden, outputBuckets)
//       40    8  contentHash    u64, FNV-1a 64 (util/hash.h) of the payload bytes (names the file:
//                               nn-<16 hex>.jnn)
//       48   16  description    ASCII, NUL-padded (free text, e.g. the training run's id)
//       64       payload: ftWeights int16[768 K][N] (input-major), ftBias int16[N],
//                outWeights int16[B][2N], outBias int32[B]
// A reader rejects a file whose magic, version, sizes, reserved field, archId, payload size or content
// hash differ, or that is truncated or has trailing bytes (checkNetFile).

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>

#include <fmt/format.h>

#include "netfile/netfile.h"
#include "util/error.h"

namespace janus::nnue {

inline constexpr char kNetMagic[8] = {'J', 'A', 'N', 'U', 'S', 'N', 'N', '\0'};
inline constexpr std::uint16_t kNetVersion = 1;
/// Inputs per king bucket (2 colours x 6 piece types x 64 squares); a net has kInputs * K.
inline constexpr int kInputs = 768;
inline constexpr int kQA = 255;
/// The smallest output scale QB, the one of every file written before QB was chosen per network.
inline constexpr int kQB = 64;
/// The largest |output weight| in a file (clamp(acc, 0, QA) * w must fit an int16).
inline constexpr int kMaxOutWeight = 127;
/// Centipawns per unit of network output (float net: eval_cp = output * kEvalScale).
inline constexpr int kEvalScale = 400;
/// Every trained weight and bias is clipped to this range (see the quantisation note above).
inline constexpr float kWeightClip = 1.98f;
inline constexpr int kMinHidden = 16, kMaxHidden = 2048, kMaxOutputBuckets = 16, kMaxKingBuckets = 16;

/// True for the king-bucket counts that have a layout (kingBucket()): 1, 2, 4, 8, 16.
[[nodiscard]] constexpr bool validKingBuckets(int k) { return k == 1 || k == 2 || k == 4 || k == 8 || k == 16; }

/// True for the output scales a file may state: 64, 128, 256, 512.
[[nodiscard]] constexpr bool validQB(int qb) { return qb == 64 || qb == 128 || qb == 256 || qb == 512; }

enum class Activation : std::uint8_t { kCReLU = 1, kSCReLU = 2 };

#pragma pack(push, 1)
struct NetHeader {
  char magic[8];
  std::uint16_t version;
  std::uint8_t activation;
  std::uint8_t kingBuckets;  ///< 0 = none (K = 1)
  std::uint16_t inputs;
  std::uint16_t hidden;
  std::uint16_t outputBuckets;
  std::uint16_t qa;
  std::uint16_t qb;
  std::uint16_t evalScale;
  std::uint32_t archId;
  std::uint32_t reserved1;
  std::uint64_t payloadBytes;
  std::uint64_t contentHash;
  char description[16];
};
#pragma pack(pop)
static_assert(sizeof(NetHeader) == 64);
static_assert(offsetof(NetHeader, archId) == 24);
static_assert(offsetof(NetHeader, payloadBytes) == 32);
static_assert(offsetof(NetHeader, contentHash) == 40);

/// Identifier of an architecture: netfile::architectureId of (kInputs, activation, hidden,
/// outputBuckets, kQA, QB, kEvalScale[, kingBuckets when > 1]). Two nets with the same id are
/// read the same way; the ids of nets without king buckets and with QB 64 are those of version 1
/// before king buckets and per-network QB existed.
[[nodiscard]] constexpr std::uint32_t architectureId(Activation activation, int hidden, int outputBuckets,
                                                     int kingBuckets = 1, int qb = kQB) {
  const auto a = std::uint32_t(activation), h = std::uint32_t(hidden), b = std::uint32_t(outputBuckets),
             q = std::uint32_t(qb);
  return kingBuckets > 1
             ? netfile::architectureId({kInputs, a, h, b, kQA, q, kEvalScale, std::uint32_t(kingBuckets)})
             : netfile::architectureId({kInputs, a, h, b, kQA, q, kEvalScale});
}

/// Bytes of the payload after the header.
[[nodiscard]] constexpr std::uint64_t payloadBytes(int hidden, int outputBuckets, int kingBuckets = 1) {
  return std::uint64_t(kInputs) * kingBuckets * hidden * 2 + std::uint64_t(hidden) * 2 +
         std::uint64_t(outputBuckets) * 2 * hidden * 2 + std::uint64_t(outputBuckets) * 4;
}

/// King bucket (0..kingBuckets-1) of a king on `relKingSquare`, seen from its own side (rank 1
/// = the own back rank) and already mirrored to files a-d (file 0..3). Layouts (rank r 0..7,
/// file f 0..3), finer near the own back rank where the king spends the middle game:
///   K = 1:  0
///   K = 2:  r = 0 -> 0; else 1
///   K = 4:  r = 0 -> f < 2 ? 0 : 1; r = 1 -> 2; else 3
///   K = 8:  r = 0 -> f; r = 1 -> 4 + (f >= 2); r = 2, 3 -> 6; else 7
///   K = 16: r = 0 -> f; r = 1 -> 4 + f; r = 2 -> 8 + (f >= 2); r = 3 -> 10 + (f >= 2); r = 4..7 -> 8 + r
[[nodiscard]] constexpr int kingBucket(int relKingSquare, int kingBuckets) {
  const int r = relKingSquare >> 3, f = relKingSquare & 7;
  switch (kingBuckets) {
    case 2: return r == 0 ? 0 : 1;
    case 4: return r == 0 ? (f < 2 ? 0 : 1) : (r == 1 ? 2 : 3);
    case 8: return r == 0 ? f : (r == 1 ? 4 + (f >= 2) : (r <= 3 ? 6 : 7));
    case 16: return r == 0 ? f : (r == 1 ? 4 + f : (r == 2 ? 8 + (f >= 2) : (r == 3 ? 10 + (f >= 2) : 8 + r)));
    default: return 0;
  }
}

/// The square of `perspective`'s own king as that perspective sees it (Black's flipped a1 <->
/// a8), mirrored to files a-d when kingBuckets > 1; bit 6 (64) set when it was mirrored.
[[nodiscard]] constexpr int relativeKing(int perspective, int kingSquare, int kingBuckets) {
  const int rel = perspective == 0 ? kingSquare : kingSquare ^ 56;
  return kingBuckets > 1 && (rel & 7) >= 4 ? (rel ^ 7) | 64 : rel;
}

/// Identifies what the inputs of `perspective` depend on besides the pieces: its king's bucket
/// and board half. A king move that changes it changes every input of that perspective.
[[nodiscard]] constexpr int kingBucketKey(int perspective, int kingSquare, int kingBuckets) {
  if (kingBuckets <= 1) return 0;
  const int rk = relativeKing(perspective, kingSquare, kingBuckets);
  return kingBucket(rk & 63, kingBuckets) * 2 + (rk >> 6);
}

/// Input index (0..767) of a piece of colour `pieceColor` (0 White, 1 Black) and type
/// `pieceType` (0 pawn .. 5 king) on `square` (0 = a1 .. 63 = h8), seen from `perspective`.
[[nodiscard]] constexpr int featureIndex(int perspective, int pieceColor, int pieceType, int square) {
  const int relSquare = perspective == 0 ? square : square ^ 56;
  return (pieceColor == perspective ? 0 : 384) + pieceType * 64 + relSquare;
}

/// Input index (0..768 K - 1) of the same piece in a net with K = `kingBuckets` king buckets,
/// where `kingSquare` is the square of `perspective`'s own king: the block of its bucket, the
/// squares mirrored a <-> h when that king stands on files e-h (K > 1). Equals the 4-argument
/// featureIndex() for K = 1.
[[nodiscard]] constexpr int featureIndex(int perspective, int pieceColor, int pieceType, int square, int kingSquare,
                                         int kingBuckets) {
  const int rk = relativeKing(perspective, kingSquare, kingBuckets);
  const int sq = (rk & 64) ? square ^ 7 : square;
  return kingBucket(rk & 63, kingBuckets) * kInputs + featureIndex(perspective, pieceColor, pieceType, sq);
}

/// Output bucket (0..buckets-1) of a position with `pieceCount` pieces (kings included, 2..32):
/// equal-width bands of the piece count, ((pieceCount - 2) * buckets) / 31, clamped.
[[nodiscard]] constexpr int outputBucket(int pieceCount, int buckets) {
  const int b = ((pieceCount - 2) * buckets) / 31;
  return b < 0 ? 0 : (b >= buckets ? buckets - 1 : b);
}

/// The shared fields of the file (netfile/netfile.h): where they are and what the files are called.
inline constexpr netfile::Format kNetFormat =
    netfile::formatOf<NetHeader>("NNUE network", std::string_view(kNetMagic, sizeof kNetMagic), kNetVersion,
                                 {offsetof(NetHeader, reserved1), sizeof NetHeader::reserved1}, "nn", "jnn");

/// The king-bucket count K (1..16) of a header (its field is 0 for none).
[[nodiscard]] constexpr int kingBucketsOf(const NetHeader& h) { return h.kingBuckets == 0 ? 1 : h.kingBuckets; }

/// Validates a whole network file (header and payload) and returns its header and payload: the
/// shared fields by netfile::check (magic, version, reserved field, architecture id, payload
/// size, truncation, trailing bytes, content hash) and this format's own: king buckets (0, 2, 4,
/// 8 or 16), inputs (768 K), hidden size (a multiple of 16 in kMinHidden..kMaxHidden), output
/// buckets (1..kMaxOutputBuckets), activation and quantisation constants (kQA, validQB,
/// kEvalScale). Throws janus::Error("NNUE network '<source>': <the first thing wrong>").
inline netfile::File<NetHeader> checkNetFile(std::span<const unsigned char> bytes, std::string_view source) {
  return netfile::read<NetHeader>(kNetFormat, bytes, source, [](const NetHeader& h) {
    const int kingBuckets = kingBucketsOf(h);
    if (h.kingBuckets == 1 || !validKingBuckets(kingBuckets))
      throw Error(fmt::format("{} king buckets, expected 0 (none), 2, 4, 8 or 16", h.kingBuckets));
    if (h.inputs != kInputs * kingBuckets)
      throw Error(fmt::format("{} inputs, expected {} ({} x {} king buckets)", h.inputs, kInputs * kingBuckets, kInputs,
                              kingBuckets));
    if (h.hidden < kMinHidden || h.hidden > kMaxHidden || h.hidden % 16 != 0)
      throw Error(fmt::format("hidden size {} is not a multiple of 16 in {}..{}", h.hidden, kMinHidden, kMaxHidden));
    if (h.outputBuckets < 1 || h.outputBuckets > kMaxOutputBuckets)
      throw Error(fmt::format("{} output buckets, expected 1..{}", h.outputBuckets, kMaxOutputBuckets));
    if (h.activation != std::uint8_t(Activation::kCReLU) && h.activation != std::uint8_t(Activation::kSCReLU))
      throw Error(fmt::format("unknown activation {}", h.activation));
    if (h.qa != kQA || !validQB(h.qb) || h.evalScale != kEvalScale)
      throw Error(fmt::format("quantisation QA {} QB {} scale {}, this build reads QA {}, QB 64/128/256/512, scale {}",
                              h.qa, h.qb, h.evalScale, kQA, kEvalScale));
    return netfile::Architecture{architectureId(Activation(h.activation), h.hidden, h.outputBuckets, kingBuckets, h.qb),
                                 payloadBytes(h.hidden, h.outputBuckets, kingBuckets)};
  });
}

}  // namespace janus::nnue
