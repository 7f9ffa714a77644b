#include "nnue/network.h"

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

#include <fmt/format.h>

#include "nnue/simd.h"
#include "util/error.h"
#include "util/incbin.h"

// The default network (src/nnue/CMakeLists.txt defines JANUS_DEFAULT_NET_PATH when the file
// nets/default.txt names exists).
#ifdef JANUS_DEFAULT_NET_PATH
JANUS_INCBIN(janusDefaultNet, JANUS_DEFAULT_NET_PATH)
#endif

namespace janus::nnue {

template <typename T>
AlignedArray<T>::AlignedArray(std::size_t n) : size(n) {
  std::size_t bytes = (n * sizeof(T) + 63) / 64 * 64;
  data.reset(static_cast<T*>(std::aligned_alloc(64, bytes == 0 ? 64 : bytes)));
  if (!data) throw Error("out of memory for an NNUE array of " + std::to_string(bytes) + " bytes");
  std::memset(data.get(), 0, bytes == 0 ? 64 : bytes);
}
template struct AlignedArray<std::int16_t>;
template struct AlignedArray<std::int32_t>;

namespace {

template <typename T>
void readArray(AlignedArray<T>& out, std::size_t n, const unsigned char*& p) {
  out = AlignedArray<T>(n);
  std::memcpy(out.get(), p, n * sizeof(T));  // little-endian file, little-endian x86-64 host
  p += n * sizeof(T);
}

}  // namespace

std::shared_ptr<const Network> Network::fromBytes(std::span<const unsigned char> bytes, const std::string& source) {
  const netfile::File<NetHeader> file = checkNetFile(bytes, source);
  const NetHeader& h = file.header;
  const int kingBuckets = kingBucketsOf(h);

  std::shared_ptr<Network> net(new Network());
  net->m_hidden = h.hidden;
  net->m_buckets = h.outputBuckets;
  net->m_kingBuckets = kingBuckets;
  net->m_activation = Activation(h.activation);
  net->m_qb = h.qb;
  net->m_hash = file.contentHash;
  net->m_description = file.description;
  const unsigned char* p = file.payload.data();
  readArray(net->m_ftWeights, std::size_t(kInputs) * kingBuckets * h.hidden, p);
  readArray(net->m_ftBias, h.hidden, p);
  readArray(net->m_outWeights, std::size_t(h.outputBuckets) * 2 * h.hidden, p);
  readArray(net->m_outBias, h.outputBuckets, p);
  for (std::size_t i = 0; i < net->m_outWeights.size; ++i)
    if (net->m_outWeights[i] < -kMaxOutWeight || net->m_outWeights[i] > kMaxOutWeight)
      throw Error(fmt::format("{} '{}': output weight {} is {}, outside the range -{}..{}", kNetFormat.kind, source, i,
                              net->m_outWeights[i], kMaxOutWeight, kMaxOutWeight));
  return net;
}

std::shared_ptr<const Network> Network::fromFile(const std::string& path) {
  return fromBytes(netfile::readFile(kNetFormat, path), path);
}

std::string Network::name() const { return netfile::name(kNetFormat, m_hash); }

std::string Network::describe() const {
  return fmt::format("{} ({}768x2->{}->{}{}, {}{}{})", name(),
                     m_kingBuckets > 1 ? fmt::format("{} king buckets x ", m_kingBuckets) : "", m_hidden, m_buckets,
                     m_buckets > 1 ? " buckets" : "", m_activation == Activation::kSCReLU ? "SCReLU" : "CReLU",
                     m_description.empty() ? "" : ", ", m_description);
}

int Network::output(const std::int16_t* stmAcc, const std::int16_t* otherAcc, int bucket) const {
  const bool screlu = m_activation == Activation::kSCReLU;
  const std::int16_t* w = m_outWeights.get() + std::size_t(bucket) * 2 * m_hidden;
  std::int64_t sum = simd::dot(stmAcc, w, m_hidden, kQA, screlu) + simd::dot(otherAcc, w + m_hidden, m_hidden, kQA, screlu);
  if (screlu) sum /= kQA;
  sum += m_outBias[std::size_t(bucket)];
  return int(sum * kEvalScale / (std::int64_t(kQA) * m_qb));
}

std::shared_ptr<const Network> defaultNetwork() {
#ifdef JANUS_DEFAULT_NET_PATH
  static std::once_flag once;
  static std::shared_ptr<const Network> net;
  std::call_once(once, [] {
    net = Network::fromBytes(janusDefaultNet(), "embedded " + defaultNetworkFile());
  });
  return net;
#else
  return nullptr;
#endif
}

std::string defaultNetworkFile() {
#ifdef JANUS_DEFAULT_NET_NAME
  return JANUS_DEFAULT_NET_NAME;
#else
  return "";
#endif
}

}  // namespace janus::nnue
