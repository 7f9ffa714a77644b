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

/// Quantises `net` by format.h (a net with the factoriser first loses it: withFactoriser(net,
/// false) adds its shared rows into every bucket's rows): ftWeights/ftBias round(w * QA) (int16, clamped to the int16
/// range), QB = outputScaleFor(output weights), outWeights round(w * QB) clamped to -127..127
/// (the range the weight clip gives at QB 64 and the engine's loader accepts), outBias
/// round(b * QA * QB) (int32, clamped). `description` is
/// cut to 16 bytes; bytes outside printable ASCII become '?'.
[[nodiscard]] QuantisedNetwork quantise(const FloatNetwork& net, std::string_view description);

/// The float network a quantised one stands for (integers divided by their scales); never with
/// the factoriser.
[[nodiscard]] FloatNetwork dequantise(const QuantisedNetwork& q);

/// The payload bytes of format.h (ftWeights, ftBias, outWeights, outBias, little-endian).
[[nodiscard]] std::vector<unsigned char> netPayload(const QuantisedNetwork& q);
/// The complete file: the 64-byte NetHeader (format.h: activation, sizes, QA, QB, kEvalScale,
/// and the shared fields by netfile::build: magic, version, archId, payloadBytes, contentHash =
/// FNV-1a 64 of the payload, description) + payload. Its name and content hash:
/// netfile::fileName / netfile::contentHash with nnue::kNetFormat ("nn-<16 hex>.jnn").
[[nodiscard]] std::vector<unsigned char> netFileBytes(const QuantisedNetwork& q);
/// Parses and validates a file image (nnue::checkNetFile); throws janus::Error("NNUE network
/// '<source>': <what>") naming the problem (bad magic, version, reserved field, inputs, hidden,
/// buckets, activation, QA/QB/eval scale, archId, payload size, "truncated", "trailing bytes",
/// content hash).
[[nodiscard]] QuantisedNetwork parseNetFile(std::span<const unsigned char> bytes, const std::string& source);
/// Reads and validates a network file, plain or zstd-compressed.
[[nodiscard]] QuantisedNetwork readNetFile(const std::string& path);

/// Writes `q` atomically (netfile::writeFile: temporary name, fsync, rename). `path` may name a
/// directory (existing, or ending in '/'): the file is then <dir>/nn-<hash>.jnn. Returns the path
/// written.
std::string writeNetFile(const QuantisedNetwork& q, const std::string& path);

}  // namespace janus::training
