#pragma once
// A loaded, quantised NNUE network (format.h) and the integer kernels of its inference.
//
// The weights are held in 64-byte aligned arrays so that the SIMD kernels (simd.h: AVX-512BW,
// AVX2 or scalar, chosen at build time by -march) read them with aligned loads. A Network is
// immutable after loading and shared (std::shared_ptr<const Network>) by every search thread's
// NnueEvaluator.

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "nnue/format.h"

namespace janus::nnue {

/// 64-byte aligned array of T (freed with std::free).
template <typename T>
struct AlignedArray {
  struct Free {
    void operator()(T* p) const { std::free(p); }
  };
  std::unique_ptr<T[], Free> data;
  std::size_t size = 0;

  AlignedArray() = default;
  explicit AlignedArray(std::size_t n);
  T* get() { return data.get(); }
  const T* get() const { return data.get(); }
  T& operator[](std::size_t i) { return data[i]; }
  const T& operator[](std::size_t i) const { return data[i]; }
};

class Network {
 public:
  /// Parses and validates a network file image (format.h checkNetFile). Throws
  /// janus::Error("NNUE network '<source>': <what>"): a wrong magic, shorter than a header,
  /// another version, a reserved field that is not zero, a king-bucket count without a layout
  /// (not 0, 2, 4, 8, 16), inputs other than 768 x king buckets, hidden size not a multiple of
  /// 16 in 16..2048, output buckets outside 1..16, unknown activation, quantisation constants
  /// other than QA 255, QB 64/128/256/512 and scale 400, an architecture id that does not match
  /// the fields, a payload size that differs from the header or the file ("truncated" /
  /// "trailing bytes"), a content hash that does not match the payload ("corrupted"), or an
  /// output weight outside -127..127.
  static std::shared_ptr<const Network> fromBytes(std::span<const unsigned char> bytes, const std::string& source);
  /// Reads and validates a file, plain or zstd-compressed (errors as fromBytes, plus "cannot open").
  static std::shared_ptr<const Network> fromFile(const std::string& path);

  [[nodiscard]] int hidden() const { return m_hidden; }
  [[nodiscard]] int outputBuckets() const { return m_buckets; }
  /// K: king buckets of the inputs (1 = none; format.h featureIndex()).
  [[nodiscard]] int kingBuckets() const { return m_kingBuckets; }
  [[nodiscard]] Activation activation() const { return m_activation; }
  /// QB: the output layer's scale stated in the file (64, 128, 256 or 512; format.h).
  [[nodiscard]] int outputScale() const { return m_qb; }
  [[nodiscard]] std::uint64_t contentHash() const { return m_hash; }
  /// "nn-<16 hex digits of the content hash>", the name the file is committed under.
  [[nodiscard]] std::string name() const;
  /// One line: name, "[K king buckets x ]768x2->N->B", activation, description.
  [[nodiscard]] std::string describe() const;

  /// Feature-transformer row of input `feature` (0..768 K - 1): hidden() int16 values (scale QA).
  [[nodiscard]] const std::int16_t* ftRow(int feature) const { return m_ftWeights.get() + std::size_t(feature) * m_hidden; }
  /// Feature-transformer bias: hidden() int16 values (scale QA).
  [[nodiscard]] const std::int16_t* ftBias() const { return m_ftBias.get(); }

  /// Output in centipawns from the two accumulators (hidden() int16 each, side to move first)
  /// for output bucket `bucket`, with the integer formula of format.h.
  [[nodiscard]] int output(const std::int16_t* stmAcc, const std::int16_t* otherAcc, int bucket) const;

 private:
  Network() = default;
  int m_hidden = 0, m_buckets = 0, m_kingBuckets = 1, m_qb = kQB;
  Activation m_activation = Activation::kSCReLU;
  std::uint64_t m_hash = 0;
  std::string m_description;
  AlignedArray<std::int16_t> m_ftWeights, m_ftBias, m_outWeights;
  AlignedArray<std::int32_t> m_outBias;
};

/// The network compiled into the binary (CMake JANUS_DEFAULT_NET), or nullptr when the build
/// embeds none. Validated on first use; throws janus::Error if the embedded bytes are invalid.
[[nodiscard]] std::shared_ptr<const Network> defaultNetwork();
/// Name of the embedded network file ("" when none), e.g. "nn-0123456789abcdef.jnn".
[[nodiscard]] std::string defaultNetworkFile();

}  // namespace janus::nnue
