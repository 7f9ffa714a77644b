#pragma once
// Quantising a float network and writing/reading network files exactly as nnue/format.h defines
// them ("JANUSNN" version 1).

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "training/nnue_model.h"
#include "training/quantised_reference.h"

namespace janus::training {

/// The output scale QB for output weights `outWeights` (floats): the largest of 64, 128, 256, 512
/// with every round(|w| * QB) <= 127 (format.h kMaxOutWeight), 64 when none is larger.
[[nodiscard]] int outputScaleFor(std::span<const float> outWeights);

/// Quantises `net` by format.h: ftWeights/ftBias round(w * QA) (int16, clamped to the int16
/// range), QB = outputScaleFor(output weights), outWeights round(w * QB) clamped to -127..127
/// (the range the weight clip gives at QB 64 and the engine's loader accepts), outBias
/// round(b * QA * QB) (int32, clamped). `description` is
/// cut to 16 bytes; bytes outside printable ASCII become '?'.
[[nodiscard]] QuantisedNetwork quantise(const FloatNetwork& net, std::string_view description);

/// The float network a quantised one stands for (integers divided by their scales).
[[nodiscard]] FloatNetwork dequantise(const QuantisedNetwork& q);

/// The payload bytes of format.h (ftWeights, ftBias, outWeights, outBias, little-endian).
[[nodiscard]] std::vector<unsigned char> netPayload(const QuantisedNetwork& q);
/// The complete file: the 64-byte NetHeader (magic, version, activation, sizes, QA, QB,
/// kEvalScale, archId, payloadBytes, contentHash = fnv1a64(payload), description) + payload.
[[nodiscard]] std::vector<unsigned char> netFileBytes(const QuantisedNetwork& q);
/// Parses and validates a file image; throws janus::Error naming `source` and the problem (bad
/// magic, version, inputs, hidden, buckets, activation, QA/QB/eval scale, archId, payload size or
/// "truncated", content hash).
[[nodiscard]] QuantisedNetwork parseNetFile(std::span<const unsigned char> bytes, const std::string& source);
/// Reads and validates a network file.
[[nodiscard]] QuantisedNetwork readNetFile(const std::string& path);

/// "nn-<16 lower-case hex digits of contentHash>.jnn".
[[nodiscard]] std::string netFileName(std::uint64_t contentHash);
/// Writes `q` atomically (util/zstd_stream.h OutputFile). `path` may name a directory (existing,
/// or ending in '/'): the file is then <dir>/nn-<hash>.jnn. Returns the path written.
std::string writeNetFile(const QuantisedNetwork& q, const std::string& path);

}  // namespace janus::training
