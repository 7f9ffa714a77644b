#pragma once
// The sparse policy/value network of the MCTS face's fast CPU backend (file format and
// architecture: pvnet_format.h): its float weights, reading and writing JANUSPV files, the input
// features of a position, and the inference. The trainer (`janus train-az`) fills PvWeights and
// writes them with writePvFile(); the engine reads them with PvNetwork::fromFile() and the
// "pvnet" backend (pvnet_backend.cpp) evaluates positions with PvNetwork::evaluate().

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/position.h"
#include "mcts/backend.h"
#include "mcts/pvnet_format.h"

namespace janus::mcts::pvnet {

/// The active inputs (0..kInputs-1) of `pos` seen from its side to move, ascending order is not
/// guaranteed; returns how many (at most kMaxActive) were written to `out`.
int sideToMoveFeatures(const Position& pos, std::array<int, kMaxActive>& out);

/// Float weights of one network, in the payload's layout (pvnet_format.h). Sizes:
/// trunkW [kInputs * hidden], trunkB [hidden], valueW1 [valueHidden * hidden],
/// valueB1 [valueHidden], valueW2 [3 * valueHidden], valueB2 [3],
/// policyW [kPolicySize * hidden], policyB [kPolicySize].
struct PvWeights {
  int hidden = 0;
  int valueHidden = 0;
  std::vector<float> trunkW, trunkB, valueW1, valueB1, valueW2, valueB2, policyW, policyB;

  /// Zero weights of the given sizes. Throws janus::Error if !validSizes(hidden, valueHidden).
  static PvWeights zeros(int hidden, int valueHidden);
  /// Throws janus::Error naming the first vector whose size does not match hidden/valueHidden.
  void checkSizes() const;
};

/// The file bytes (64-byte header + payload) of `w`; `description` is cut to 24 characters
/// (netfile::build). Throws janus::Error for wrong sizes or a NaN/infinite weight. The file's
/// name and content hash: netfile::fileName / netfile::contentHash with kPvFormat.
[[nodiscard]] std::vector<unsigned char> pvFileBytes(const PvWeights& w, std::string_view description);
/// Writes `w` atomically (netfile::writeFile: temporary file, fsync, rename). If `path` is
/// empty, a directory or ends in '/', the file is pv-<hash>.jpv inside it. Returns the path
/// written. Throws janus::Error.
std::string writePvFile(const PvWeights& w, const std::string& path, std::string_view description);

/// A loaded network: immutable, shared by every search thread (std::shared_ptr<const PvNetwork>).
class PvNetwork {
 public:
  /// Parses file bytes. Throws janus::Error("policy/value network '<source>': <what>") for a
  /// wrong magic, a file shorter than the header, another version, a reserved field that is
  /// not zero, a wrong input or policy size, invalid hidden sizes, an architecture id that does
  /// not match them, a payload size that differs ("truncated", "trailing bytes"), a content
  /// hash that does not match the payload ("corrupted"), or a NaN/infinite weight.
  static std::shared_ptr<const PvNetwork> fromBytes(std::span<const unsigned char> bytes, const std::string& source);
  /// Reads a file, plain or zstd-compressed (see fromBytes). Throws janus::Error if it cannot be
  /// opened.
  static std::shared_ptr<const PvNetwork> fromFile(const std::string& path);
  /// A network over weights held in memory (tests, the trainer). Throws like checkSizes().
  static std::shared_ptr<const PvNetwork> fromWeights(PvWeights w, std::uint64_t contentHash = 0,
                                                       std::string description = {});

  [[nodiscard]] int hidden() const { return m_w.hidden; }
  [[nodiscard]] int valueHidden() const { return m_w.valueHidden; }
  [[nodiscard]] std::uint64_t contentHash() const { return m_hash; }
  /// "pv-<16 hex>" (the file name without extension).
  [[nodiscard]] std::string name() const;
  /// The file's description (free text of the header; "" when none).
  [[nodiscard]] const std::string& description() const { return m_description; }
  /// One line: name, sizes and the file's description.
  [[nodiscard]] std::string describe() const;
  [[nodiscard]] const PvWeights& weights() const { return m_w; }

  /// Evaluates `pos`: returns WDL for the side to move and writes one prior per legal move
  /// (`moves`, non-empty, all legal in `pos`) to `priors` (same size), the softmax of the legal
  /// moves' logits divided by `temperature` (> 0). About H * (kMaxActive + V + moves) float
  /// multiply-adds; no allocation.
  Wdl evaluate(const Position& pos, std::span<const Move> moves, std::span<float> priors,
               float temperature = 1.0f) const;

  /// The raw outputs for tests and the trainer's checks: the 3 value logits (W, D, L) and the
  /// policy logits of `moves` (same size as moves).
  void logits(const Position& pos, std::span<const Move> moves, std::array<float, 3>& valueLogits,
              std::span<float> policyLogits) const;

 private:
  PvNetwork(PvWeights w, std::uint64_t hash, std::string description);
  /// trunk activations h (hidden() floats, ReLU applied) of `pos` into `h`.
  void trunk(const Position& pos, float* h) const;

  PvWeights m_w;
  std::uint64_t m_hash;
  std::string m_description;
};

}  // namespace janus::mcts::pvnet
