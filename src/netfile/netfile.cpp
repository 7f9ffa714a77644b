#include "netfile/netfile.h"

#include <algorithm>
#include <filesystem>
#include <istream>
#include <memory>

#include <fmt/format.h>

#include "util/error.h"
#include "util/zstd_stream.h"

namespace janus::netfile {

namespace {

template <typename T>
T load(std::span<const unsigned char> bytes, std::size_t at) {
  T v;
  std::memcpy(&v, bytes.data() + at, sizeof v);  // little-endian file, little-endian x86-64 host
  return v;
}

template <typename T>
void store(std::span<unsigned char> bytes, std::size_t at, T v) {
  std::memcpy(bytes.data() + at, &v, sizeof v);
}

/// The magic as text for messages: its characters up to the first NUL.
std::string magicText(std::string_view magic) { return std::string(magic.substr(0, magic.find('\0'))); }

}  // namespace

std::span<const unsigned char> check(const Format& f, std::span<const unsigned char> file, std::string_view source,
                                     const FieldCheck& fields) {
  auto fail = [&](const std::string& what) { return Error(fmt::format("{} '{}': {}", f.kind, source, what)); };
  if (file.size() >= kMagicBytes && std::memcmp(file.data(), f.magic.data(), kMagicBytes) != 0)
    throw fail(fmt::format("wrong magic (not a {} file)", magicText(f.magic)));
  if (file.size() < kHeaderBytes)
    throw fail(fmt::format("truncated: {} bytes, shorter than the {}-byte header", file.size(), kHeaderBytes));
  const auto version = load<std::uint16_t>(file, kVersionAt);
  if (version != f.version)
    throw fail(fmt::format("unsupported version {} (this build reads version {})", version, f.version));
  const auto reserved = file.subspan(f.reserved.at, f.reserved.bytes);
  if (std::any_of(reserved.begin(), reserved.end(), [](unsigned char b) { return b != 0; }))
    throw fail(fmt::format("reserved header field (bytes {}..{}) is not zero", f.reserved.at,
                           f.reserved.at + f.reserved.bytes - 1));
  Architecture arch;
  try {
    arch = fields(file.first(kHeaderBytes));
  } catch (const Error& e) {
    throw fail(e.what());
  }
  const auto archId = load<std::uint32_t>(file, f.archIdAt);
  if (archId != arch.id)
    throw fail(fmt::format("architecture id {:08x} does not match the header's architecture ({:08x})", archId, arch.id));
  const auto declared = load<std::uint64_t>(file, f.payloadBytesAt);
  if (declared != arch.payloadBytes)
    throw fail(fmt::format("header gives {} payload bytes, the architecture {}", declared, arch.payloadBytes));
  const std::uint64_t present = file.size() - kHeaderBytes;
  if (present < arch.payloadBytes) throw fail(fmt::format("truncated: {} of {} payload bytes", present, arch.payloadBytes));
  if (present > arch.payloadBytes) throw fail(fmt::format("{} trailing bytes after the payload", present - arch.payloadBytes));
  const std::span<const unsigned char> payload = file.subspan(kHeaderBytes);
  const std::uint64_t hash = fnv1a64(payload), stated = load<std::uint64_t>(file, f.contentHashAt);
  if (hash != stated)
    throw fail(fmt::format("corrupted: the payload's content hash is {:016x}, the header says {:016x}", hash, stated));
  return payload;
}

std::string description(const Format& f, std::span<const unsigned char> header) {
  if (header.size() < kHeaderBytes) throw Error(fmt::format("{}: {} bytes, shorter than the header", f.kind, header.size()));
  const auto* text = reinterpret_cast<const char*>(header.data() + f.description.at);
  return std::string(text, strnlen(text, f.description.bytes));
}

std::uint64_t seal(const Format& f, std::span<unsigned char> file, std::uint32_t archId, std::string_view description) {
  if (file.size() < kHeaderBytes) throw Error(fmt::format("{}: {} bytes, shorter than the header", f.kind, file.size()));
  std::memcpy(file.data(), f.magic.data(), kMagicBytes);
  store(file, kVersionAt, f.version);
  std::fill_n(file.data() + f.reserved.at, f.reserved.bytes, 0);
  store(file, f.archIdAt, archId);
  store(file, f.payloadBytesAt, std::uint64_t(file.size() - kHeaderBytes));
  const std::uint64_t hash = fnv1a64(std::span<const unsigned char>(file).subspan(kHeaderBytes));
  store(file, f.contentHashAt, hash);
  unsigned char* text = file.data() + f.description.at;
  std::fill_n(text, f.description.bytes, 0);
  const std::size_t n = std::min(description.size(), f.description.bytes);
  for (std::size_t i = 0; i < n; ++i) {
    const char c = description[i];
    text[i] = static_cast<unsigned char>(c >= 32 && c < 127 ? c : '?');
  }
  return hash;
}

std::uint64_t contentHash(const Format& f, std::span<const unsigned char> file) {
  if (file.size() < kHeaderBytes) throw Error(fmt::format("{}: {} bytes, shorter than the header", f.kind, file.size()));
  return load<std::uint64_t>(file, f.contentHashAt);
}

std::string name(const Format& f, std::uint64_t contentHash) { return fmt::format("{}-{:016x}", f.prefix, contentHash); }

std::string fileName(const Format& f, std::uint64_t contentHash) {
  return fmt::format("{}.{}", name(f, contentHash), f.extension);
}

std::vector<unsigned char> readFile(const Format& f, const std::string& path) {
  try {
    const std::unique_ptr<std::istream> in = openInputFile(path);
    std::vector<unsigned char> bytes;
    constexpr std::size_t kChunk = 1 << 16;
    while (*in) {
      const std::size_t at = bytes.size();
      bytes.resize(at + kChunk);
      in->read(reinterpret_cast<char*>(bytes.data() + at), std::streamsize(kChunk));
      bytes.resize(at + std::size_t(in->gcount()));
    }
    return bytes;
  } catch (const Error& e) {
    throw Error(fmt::format("{}: {}", f.kind, e.what()));
  }
}

bool hasMagic(const Format& f, const std::string& path) noexcept {
  try {
    const std::unique_ptr<std::istream> in = openInputFile(path);
    char magic[kMagicBytes] = {};
    return in->read(magic, kMagicBytes) && std::memcmp(magic, f.magic.data(), kMagicBytes) == 0;
  } catch (...) {
    return false;
  }
}

std::string writeFile(const Format& f, std::span<const unsigned char> file, const std::string& path) {
  namespace fs = std::filesystem;
  std::string target = path;
  std::error_code ec;
  if (target.empty() || target.back() == '/' || fs::is_directory(target, ec))
    target = (fs::path(target.empty() ? "." : target) / fileName(f, contentHash(f, file))).string();
  OutputFile out(target, false);
  out.write(reinterpret_cast<const char*>(file.data()), std::streamsize(file.size()));
  out.commit();
  return target;
}

}  // namespace janus::netfile
