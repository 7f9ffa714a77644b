// Training checkpoints (checkpoint.h).

#include "training/checkpoint.h"

#include <algorithm>
#include <cstring>
#include <iterator>
#include <span>

#include <fmt/format.h>

#include "util/error.h"
#include "util/hash.h"
#include "util/zstd_stream.h"

namespace janus::training {

namespace {

constexpr std::size_t kHeaderBytes = 32;

class Writer {
 public:
  template <typename T>
  void put(T v) {
    const auto* p = reinterpret_cast<const unsigned char*>(&v);
    bytes.insert(bytes.end(), p, p + sizeof v);
  }
  void putFloats(const FloatVector& v) {
    const auto* p = reinterpret_cast<const unsigned char*>(v.data());
    bytes.insert(bytes.end(), p, p + v.size() * sizeof(float));
  }
  std::vector<unsigned char> bytes;
};

class Reader {
 public:
  Reader(std::span<const unsigned char> b, const std::string& source) : m_bytes(b), m_source(source) {}
  template <typename T>
  T get(const char* what) {
    need(sizeof(T), what);
    T v;
    std::memcpy(&v, m_bytes.data() + m_pos, sizeof v);
    m_pos += sizeof v;
    return v;
  }
  std::string getString(std::size_t n, const char* what) {
    need(n, what);
    std::string s(reinterpret_cast<const char*>(m_bytes.data() + m_pos), n);
    m_pos += n;
    return s;
  }
  void getFloats(FloatVector& v, std::size_t n, const char* what) {
    need(n * sizeof(float), what);
    v.resize(n);
    std::memcpy(v.data(), m_bytes.data() + m_pos, n * sizeof(float));
    m_pos += n * sizeof(float);
  }
  [[nodiscard]] std::size_t remaining() const { return m_bytes.size() - m_pos; }

 private:
  void need(std::size_t n, const char* what) {
    if (remaining() < n) throw Error(fmt::format("'{}': checkpoint payload ends inside {}", m_source, what));
  }
  std::span<const unsigned char> m_bytes;
  std::string m_source;
  std::size_t m_pos = 0;
};

}  // namespace

std::vector<unsigned char> checkpointBytes(const TrainState& s) {
  Writer w;
  std::string config;
  for (const auto& [k, v] : configToMap(s.config)) config += k + "=" + v + "\n";
  w.put(u32(config.size()));
  w.bytes.insert(w.bytes.end(), config.begin(), config.end());
  w.put(u32(s.superbatch));
  w.put(u32(s.net.shape.factoriser ? 1 : 0));  // shape flags: bit 0 the factoriser (0 before it existed)
  w.put(s.adamStep);
  w.put(s.streamPos);
  w.put(s.seconds);
  w.put(s.dataHash);
  w.put(s.trainCount);
  w.put(u32(s.net.shape.hidden));
  w.put(u32(s.net.shape.buckets));
  w.put(u32(s.net.shape.activation));
  w.put(u32(s.net.shape.kingBuckets));
  w.put(u64(s.net.params.size()));
  w.putFloats(s.net.params);
  w.putFloats(s.adamM);
  w.putFloats(s.adamV);
  w.put(u32(s.metrics.size()));
  w.put(u32(0));
  for (const MetricsRow& r : s.metrics) {
    w.put(u32(r.superbatch));
    w.put(u32(0));
    w.put(r.positions);
    w.put(r.trainLoss);
    w.put(r.valLoss);
    w.put(r.lr);
    w.put(r.seconds);
  }
  Writer header;
  for (char c : kCheckpointMagic) header.put(c);
  header.put(kCheckpointVersion);
  header.put(u32(0));
  header.put(u64(w.bytes.size()));
  header.put(fnv1a64(w.bytes));
  header.bytes.insert(header.bytes.end(), w.bytes.begin(), w.bytes.end());
  return std::move(header.bytes);
}

TrainState parseCheckpoint(const std::vector<unsigned char>& bytes, const std::string& source) {
  auto fail = [&](const std::string& what) { return Error(fmt::format("'{}': {}", source, what)); };
  if (bytes.size() >= 8 && std::memcmp(bytes.data(), kCheckpointMagic, 8) != 0)
    throw fail("bad magic (expected \"JANUSCKP\"): not a train-nnue checkpoint");
  if (bytes.size() < kHeaderBytes)
    throw fail(fmt::format("truncated checkpoint header ({} of {} bytes)", bytes.size(), kHeaderBytes));
  Reader h(std::span<const unsigned char>(bytes).first(kHeaderBytes), source);
  (void)h.getString(8, "magic");
  const u32 version = h.get<u32>("version");
  if (version != kCheckpointVersion)
    throw fail(fmt::format("checkpoint version {} is not supported (this build reads version {})", version,
                           kCheckpointVersion));
  (void)h.get<u32>("reserved");
  const u64 payloadBytes = h.get<u64>("payload size");
  const u64 checksum = h.get<u64>("checksum");
  const std::span<const unsigned char> payload = std::span<const unsigned char>(bytes).subspan(kHeaderBytes);
  if (payload.size() < payloadBytes)
    throw fail(fmt::format("truncated checkpoint ({} of {} payload bytes)", payload.size(), payloadBytes));
  if (payload.size() > payloadBytes)
    throw fail(fmt::format("{} trailing bytes after the checkpoint payload", payload.size() - payloadBytes));
  if (fnv1a64(payload) != checksum) throw fail("checksum mismatch: the checkpoint is corrupted");

  Reader r(payload, source);
  TrainState s;
  const u32 configBytes = r.get<u32>("the configuration size");
  const std::string text = r.getString(configBytes, "the configuration");
  std::map<std::string, std::string> config;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(start, end - start);
    const std::size_t eq = line.find('=');
    if (eq == std::string::npos) throw fail(fmt::format("configuration line '{}' has no '='", line));
    config[line.substr(0, eq)] = line.substr(eq + 1);
    start = end + 1;
  }
  try {
    s.config = configFromMap(config);
    validateConfig(s.config);
  } catch (const Error& e) {
    throw fail(e.what());
  }
  s.superbatch = int(r.get<u32>("the superbatch"));
  const u32 shapeFlags = r.get<u32>("the shape flags");
  s.adamStep = r.get<u64>("the Adam step");
  s.streamPos = r.get<u64>("the stream position");
  s.seconds = r.get<double>("the training time");
  s.dataHash = r.get<u64>("the data hash");
  s.trainCount = r.get<u64>("the training count");
  NetworkShape shape;
  shape.hidden = int(r.get<u32>("the hidden size"));
  shape.buckets = int(r.get<u32>("the bucket count"));
  shape.activation = nnue::Activation(r.get<u32>("the activation"));
  const u32 kingBuckets = r.get<u32>("the king-bucket count");  // 0 in checkpoints written before king buckets
  shape.kingBuckets = kingBuckets == 0 ? 1 : int(std::min<u32>(kingBuckets, 1u << 16));
  shape.factoriser = (shapeFlags & 1) != 0;
  const u64 count = r.get<u64>("the parameter count");
  if (shape != s.config.shape)
    throw fail(fmt::format("network {} does not match the configuration's {}", describeShape(shape),
                           describeShape(s.config.shape)));
  if (count != shape.paramCount())
    throw fail(fmt::format("{} parameters, the {} network has {}", count, describeShape(shape), shape.paramCount()));
  s.net = FloatNetwork(shape);
  r.getFloats(s.net.params, count, "the weights");
  r.getFloats(s.adamM, count, "the first moments");
  r.getFloats(s.adamV, count, "the second moments");
  const u32 rows = r.get<u32>("the metrics count");
  (void)r.get<u32>("reserved");
  for (u32 i = 0; i < rows; ++i) {
    MetricsRow m;
    m.superbatch = int(r.get<u32>("a metrics row"));
    (void)r.get<u32>("a metrics row");
    m.positions = r.get<u64>("a metrics row");
    m.trainLoss = r.get<double>("a metrics row");
    m.valLoss = r.get<double>("a metrics row");
    m.lr = r.get<double>("a metrics row");
    m.seconds = r.get<double>("a metrics row");
    s.metrics.push_back(m);
  }
  if (r.remaining() != 0) throw fail(fmt::format("{} unexpected bytes at the end of the checkpoint", r.remaining()));
  if (s.superbatch < 0 || std::size_t(s.superbatch) != s.metrics.size())
    throw fail(fmt::format("superbatch {} but {} metrics rows", s.superbatch, s.metrics.size()));
  return s;
}

void writeCheckpoint(const TrainState& state, const std::string& path) {
  const std::vector<unsigned char> bytes = checkpointBytes(state);
  OutputFile out(path, false);
  out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  out.commit();
}

TrainState readCheckpoint(const std::string& path) {
  auto in = openInputFile(path);
  const std::vector<unsigned char> bytes{std::istreambuf_iterator<char>(*in), std::istreambuf_iterator<char>()};
  return parseCheckpoint(bytes, path);
}

}  // namespace janus::training
