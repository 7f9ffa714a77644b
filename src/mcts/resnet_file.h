#pragma once
// Reading and writing JANUSRN residual network files (format and architecture: resnet_format.h; the
// shared header fields: netfile/netfile.h), without libtorch: the engine's torch backend
// (src/mcts/torch/), the trainer's export (`janus train-az --arch resnet`) and the tests of any
// build share this code. The network's input planes: encoding::encodePlanes with
// encoderOptions(arch) (resnet_format.h).

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "mcts/resnet_format.h"

namespace janus::mcts::rn {

/// One tensor of the payload: its name (e.g. "block3.conv1W"), shape and first float.
struct ResNetTensor {
  std::string name;
  std::vector<std::int64_t> shape;  ///< row-major, e.g. {F, C, 3, 3}
  std::uint64_t offset = 0;         ///< index of its first float in ResNetWeights::data
  [[nodiscard]] std::uint64_t size() const;
};

/// Every tensor of the payload of `a`, in file order (resnet_format.h). The offsets are consecutive
/// and the sizes add up to payloadFloats(a). Throws janus::Error if !validArch(a).
[[nodiscard]] std::vector<ResNetTensor> tensorLayout(const ResNetArch& a);

/// A network's architecture and its float weights in payload order (tensorLayout()).
struct ResNetWeights {
  ResNetArch arch;
  std::vector<float> data;  ///< payloadFloats(arch) values

  /// Zero weights of `a`. Throws janus::Error if !validArch(a) (naming the rule).
  static ResNetWeights zeros(const ResNetArch& a);
  /// The floats of tensor `t` (from tensorLayout(arch)).
  [[nodiscard]] std::span<float> tensor(const ResNetTensor& t) { return std::span<float>(data).subspan(t.offset, t.size()); }
  [[nodiscard]] std::span<const float> tensor(const ResNetTensor& t) const {
    return std::span<const float>(data).subspan(t.offset, t.size());
  }
};

/// The file bytes (64-byte header + payload) of `w`; `description` is cut to 16 characters
/// (netfile::build). Throws janus::Error for an invalid architecture, a payload of the wrong size
/// or a NaN/infinite weight. The file's name and content hash: netfile::fileName /
/// netfile::contentHash with kResNetFormat.
[[nodiscard]] std::vector<unsigned char> rnFileBytes(const ResNetWeights& w, std::string_view description);
/// Writes `w` atomically (netfile::writeFile: temporary file, fsync, rename). If `path` is
/// empty, a directory or ends in '/', the file is rn-<hash>.jrn inside it. Returns the path
/// written. Throws janus::Error.
std::string writeResNetFile(const ResNetWeights& w, const std::string& path, std::string_view description);

/// A parsed file.
struct ResNetFile {
  ResNetWeights weights;
  std::uint64_t contentHash = 0;
  std::string description;

  /// Parses file bytes. Throws janus::Error("residual network '<source>': <what>") for a wrong
  /// magic, a file shorter than the header, another version, a non-zero reserved field, an
  /// invalid architecture (naming the rule), an architecture id that does not match the fields,
  /// a header payload size that differs from the architecture's, a truncated payload or
  /// trailing bytes, a content hash that does not match the payload ("corrupted"), or a
  /// NaN/infinite weight (naming the tensor).
  static ResNetFile fromBytes(std::span<const unsigned char> bytes, const std::string& source);
  /// Reads a file, plain or zstd-compressed (see fromBytes). Throws janus::Error if it cannot be
  /// opened.
  static ResNetFile fromFile(const std::string& path);

  /// "rn-<16 hex>" (the file name without extension).
  [[nodiscard]] std::string name() const;
  /// One line: name, blocks x filters, SE, inputs, history and the description.
  [[nodiscard]] std::string describe() const;
};

}  // namespace janus::mcts::rn
