#include "records/chunked_run.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>

#include <fmt/format.h>

#include "util/error.h"

namespace janus::records {

namespace fs = std::filesystem;

u64 startPositionsHash(const std::vector<Position>& starts) {
  u64 h = kFnv1a64Basis;
  for (const Position& p : starts) h = fnv1a64(std::string_view(p.fen() + "\n"), h);
  return h;
}

std::vector<u64> shardChunks(u64 chunks, int shard, int shards) {
  std::vector<u64> out;
  if (shard < 1 || shards < 1 || shard > shards) return out;
  for (u64 k = u64(shard - 1); k < chunks; k += u64(shards)) out.push_back(k);
  return out;
}

std::pair<int, int> parseShard(const std::string& text) {
  auto fail = [&](const std::string& why) -> std::pair<int, int> {
    throw Error(fmt::format("bad --shard '{}': {} (expected I/N with 1 <= I <= N, e.g. 3/8)", text, why));
  };
  const size_t slash = text.find('/');
  if (slash == std::string::npos) return fail("no '/'");
  auto number = [&](std::string_view part, const char* what) {
    int v = 0;
    auto [ptr, ec] = std::from_chars(part.data(), part.data() + part.size(), v);
    if (part.empty() || ec != std::errc() || ptr != part.data() + part.size())
      fail(fmt::format("{} '{}' is not a number", what, part));
    return v;
  };
  const std::string_view all(text);
  const int shard = number(all.substr(0, slash), "shard");
  const int shards = number(all.substr(slash + 1), "shard count");
  if (shards < 1 || shards > kMaxShards) return fail(fmt::format("shard count must be 1..{}", kMaxShards));
  if (shard < 1 || shard > shards) return fail(fmt::format("shard must be 1..{}", shards));
  return {shard, shards};
}

namespace {

/// Writes `text` to `path` unless it exists (create-once, atomic: a private temporary file,
/// fsync, link(2), which fails if `path` exists). Returns false if `path` existed.
bool createFileOnce(const std::string& path, const std::string& text) {
  const std::string tmp = fmt::format("{}.{}.tmp", path, ::getpid());
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw Error(fmt::format("cannot create '{}': {}", tmp, std::strerror(errno)));
  const bool ok = ::write(fd, text.data(), text.size()) == ssize_t(text.size()) && ::fsync(fd) == 0;
  const int writeErrno = errno;
  ::close(fd);
  if (!ok) {
    ::unlink(tmp.c_str());
    throw Error(fmt::format("cannot write '{}': {}", tmp, std::strerror(writeErrno)));
  }
  const int rc = ::link(tmp.c_str(), path.c_str());
  const int linkErrno = errno;
  ::unlink(tmp.c_str());
  if (rc == 0) return true;
  if (linkErrno == EEXIST) return false;
  throw Error(fmt::format("cannot create '{}': {}", path, std::strerror(linkErrno)));
}

/// Checks the existing manifest at `path` against `settings`; throws naming the first difference.
void checkManifest(const std::string& path, const std::string& tool,
                   const std::vector<std::pair<std::string, std::string>>& settings,
                   const std::map<std::string, std::string>& legacyDefaults) {
  std::ifstream in(path);
  if (!in) throw Error(fmt::format("cannot open '{}': {}", path, std::strerror(errno)));
  std::map<std::string, std::string> found;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const size_t space = line.find(' ');
    found[line.substr(0, space)] = space == std::string::npos ? "" : line.substr(space + 1);
  }
  for (const auto& [key, value] : legacyDefaults) found.try_emplace(key, value);
  for (const auto& [key, value] : settings) {
    auto it = found.find(key);
    if (it == found.end())
      throw Error(fmt::format("'{}' has no setting '{}': not a run of this {} version", path, key, tool));
    if (it->second != value)
      throw Error(fmt::format("'{}': the run was made with {} {}, this command has {} {}; resume or add shards with "
                              "the run's settings, or use another --output-dir",
                              path, key, it->second, key, value));
  }
}

/// True if the directory holds files that look like chunks.
bool hasChunkFiles(const fs::path& dir) {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (name.starts_with("chunk-")) return true;
  }
  return false;
}

}  // namespace

ChunkedRunShard::ChunkedRunShard(const ChunkedRun& run, u64 chunks, const RunManifest& manifest,
                                 const std::function<std::string(u64)>& chunkName)
    : m_dir(run.dir), m_chunkName(chunkName) {
  if (run.shards < 1 || run.shards > kMaxShards || run.shard < 1 || run.shard > run.shards)
    throw Error(fmt::format("{}: bad shard {}/{} (expected 1 <= I <= N <= {})", manifest.tool, run.shard, run.shards,
                            kMaxShards));
  const fs::path dir(run.dir);
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir))
    throw Error(fmt::format("cannot create the run directory '{}': {}", run.dir, ec ? ec.message() : "not a directory"));

  // The manifest: created by the first shard, checked by every later one.
  const std::string manifestPath = (dir / manifest.fileName).string();
  if (!fs::exists(manifestPath) && hasChunkFiles(dir))
    throw Error(fmt::format("'{}' holds chunk files but no {}: not a chunked run of this {} version "
                            "(use another --output-dir)",
                            run.dir, manifest.fileName, manifest.tool));
  if (!createFileOnce(manifestPath, manifest.text)) checkManifest(manifestPath, manifest.tool, manifest.settings, manifest.legacyDefaults);

  // The shard's lock: an exclusive flock(2), released when this object is destroyed.
  const std::string lockPath = (dir / fmt::format("shard-{}-of-{}.lock", run.shard, run.shards)).string();
  m_lockFd = ::open(lockPath.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (m_lockFd < 0) throw Error(fmt::format("cannot create '{}': {}", lockPath, std::strerror(errno)));
  if (::flock(m_lockFd, LOCK_EX | LOCK_NB) != 0) {
    const int e = errno;
    ::close(m_lockFd);
    if (e == EWOULDBLOCK)
      throw Error(fmt::format("'{}' is locked: this shard is already running (run each shard once)", lockPath));
    throw Error(fmt::format("cannot lock '{}': {}", lockPath, std::strerror(e)));
  }

  for (u64 k : shardChunks(chunks, run.shard, run.shards)) {
    const fs::path file = dir / m_chunkName(k);
    if (fs::exists(file)) {
      if (!run.resume) {
        ::close(m_lockFd);
        throw Error(fmt::format("'{}' exists: pass --resume to keep the finished chunks and play the missing ones",
                                file.string()));
      }
      ++m_skipped;
      continue;
    }
    m_todo.push_back(k);
  }
}

ChunkedRunShard::~ChunkedRunShard() { ::close(m_lockFd); }

std::string ChunkedRunShard::chunkPath(u64 k) const { return (fs::path(m_dir) / m_chunkName(k)).string(); }

}  // namespace janus::records
