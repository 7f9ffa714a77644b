#pragma once
// What every Janus network file has in common, read and written in one place: the NNUE network
// (nnue/format.h, .jnn), the sparse policy/value network (mcts/pvnet_format.h, .jpv) and the
// residual network (mcts/resnet_format.h, .jrn). Each format describes itself with a Format (where
// its shared fields are) and keeps only its own fields; this module does the rest.
//
// A file is a 64-byte little-endian header followed by the payload. Shared header fields:
//   offset 0, 8 bytes  magic          ASCII, NUL-padded (e.g. "JANUSNN\0"): which format
//   offset 8, 2 bytes  version        u16, the format's version
//   Format::archIdAt         u32      architecture id: architectureId() of the fields that
//                                     decide how the payload is read
//   Format::payloadBytesAt   u64      bytes after the header
//   Format::contentHashAt    u64      FNV-1a 64 (util/hash.h) of the payload; names the file
//                                     <prefix>-<16 lower-case hex digits>.<extension>
//   Format::description      ASCII    free text, NUL-padded (e.g. the training run's id)
//   Format::reserved                  zero
// Reading (check()) rejects, in this order and naming the file: a wrong magic, a file shorter
// than the header, another version, a reserved field that is not zero, the format's own fields
// (its callback), an architecture id or a payload size that does not match them, a truncated
// payload or trailing bytes, and a content hash that does not match the payload ("corrupted").
// Files are read plain or zstd-compressed (util/zstd_stream.h) and written atomically
// (temporary name, fsync, rename).

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "util/hash.h"

namespace janus::netfile {

inline constexpr std::size_t kHeaderBytes = 64;
inline constexpr std::size_t kMagicBytes = 8;
inline constexpr std::size_t kVersionAt = 8;  ///< u16

/// A byte range of the header.
struct Field {
  std::size_t at = 0;
  std::size_t bytes = 0;
};

/// Where a format keeps the shared fields, and what its files are called.
struct Format {
  std::string_view kind;       ///< for messages, e.g. "NNUE network"
  std::string_view magic;      ///< kMagicBytes bytes, e.g. std::string_view("JANUSNN\0", 8)
  std::uint16_t version = 0;   ///< the one version this build reads and writes
  std::size_t archIdAt = 0;        ///< offset of the u32 architecture id
  std::size_t payloadBytesAt = 0;  ///< offset of the u64 payload size
  std::size_t contentHashAt = 0;   ///< offset of the u64 content hash
  Field description;           ///< NUL-padded ASCII
  Field reserved;              ///< must be zero (bytes = 0: none)
  std::string_view prefix;     ///< file name prefix, e.g. "nn"
  std::string_view extension;  ///< file name extension without the dot, e.g. "jnn"
};

/// The Format of a header struct `Header` (packed, kHeaderBytes bytes) whose shared fields are
/// named archId (u32), payloadBytes (u64), contentHash (u64) and description (char array);
/// `reserved` is the range that must be zero.
template <typename Header>
[[nodiscard]] constexpr Format formatOf(std::string_view kind, std::string_view magic, std::uint16_t version,
                                        Field reserved, std::string_view prefix, std::string_view extension) {
  static_assert(sizeof(Header) == kHeaderBytes && std::is_trivially_copyable_v<Header>);
  static_assert(sizeof(Header::archId) == 4 && sizeof(Header::payloadBytes) == 8 && sizeof(Header::contentHash) == 8);
  return Format{.kind = kind,
                .magic = magic,
                .version = version,
                .archIdAt = offsetof(Header, archId),
                .payloadBytesAt = offsetof(Header, payloadBytes),
                .contentHashAt = offsetof(Header, contentHash),
                .description = {offsetof(Header, description), sizeof(Header::description)},
                .reserved = reserved,
                .prefix = prefix,
                .extension = extension};
}

/// Architecture id of a format's architecture fields: FNV-1a 64 (util/hash.h) of the fields as
/// little-endian u32s, one after the other, folded to 32 bits (h xor h >> 32). Two files with
/// the same id have payloads of the same layout.
[[nodiscard]] constexpr std::uint32_t architectureId(std::initializer_list<std::uint32_t> fields) {
  std::uint64_t h = kFnv1a64Basis;
  for (std::uint32_t f : fields) {
    const unsigned char bytes[4] = {static_cast<unsigned char>(f), static_cast<unsigned char>(f >> 8),
                                    static_cast<unsigned char>(f >> 16), static_cast<unsigned char>(f >> 24)};
    h = fnv1a64(bytes, h);
  }
  return static_cast<std::uint32_t>(h ^ (h >> 32));
}

/// What a format's own header fields imply: the architecture id and payload size the header
/// must state.
struct Architecture {
  std::uint32_t id = 0;
  std::uint64_t payloadBytes = 0;
};

/// Checks the format's own fields of a header (kHeaderBytes bytes) and returns the architecture
/// they describe; throws janus::Error naming the first wrong field (without the file name).
using FieldCheck = std::function<Architecture(std::span<const unsigned char> header)>;

/// Validates a whole file image `file` of format `f` (the checks of the top of this file, the
/// format's own by `fields`) and returns its payload (file without the header). Throws
/// janus::Error("<kind> '<source>': <what is wrong>").
std::span<const unsigned char> check(const Format& f, std::span<const unsigned char> file, std::string_view source,
                                     const FieldCheck& fields);

/// The description field of a header (up to its first NUL).
[[nodiscard]] std::string description(const Format& f, std::span<const unsigned char> header);

/// Fills the shared fields of `file` (a header followed by the payload, the format's own fields
/// already in place): magic, version, `archId`, payload size, content hash, `description` (as in
/// build()) and a zero reserved field. Returns the content hash. Throws janus::Error if `file`
/// is shorter than the header.
std::uint64_t seal(const Format& f, std::span<unsigned char> file, std::uint32_t archId, std::string_view description);

/// The content hash field of a file image (no checks beyond its length; throws janus::Error if
/// shorter than the header).
[[nodiscard]] std::uint64_t contentHash(const Format& f, std::span<const unsigned char> file);

/// A validated file: the format's header struct (a packed, trivially copyable struct of
/// kHeaderBytes bytes), the payload and the shared fields.
template <typename Header>
struct File {
  Header header;
  std::span<const unsigned char> payload;  ///< a view into the checked bytes
  std::uint64_t contentHash = 0;
  std::string description;
};

/// check() with the header copied to the format's struct: `fields(const Header&)` returns the
/// Architecture and throws janus::Error for a wrong field of the format's own.
template <typename Header, typename Fields>
[[nodiscard]] File<Header> read(const Format& f, std::span<const unsigned char> file, std::string_view source,
                                Fields&& fields) {
  static_assert(sizeof(Header) == kHeaderBytes && std::is_trivially_copyable_v<Header>);
  File<Header> out{};
  out.payload = check(f, file, source, [&](std::span<const unsigned char> header) {
    std::memcpy(&out.header, header.data(), sizeof(Header));
    return fields(static_cast<const Header&>(out.header));
  });
  out.contentHash = contentHash(f, file);
  out.description = description(f, file);
  return out;
}

/// The bytes of a new file: `header` (the format's struct with its own fields set; the shared
/// ones are overwritten) followed by `payload`, with magic, version, architecture id `archId`,
/// payload size, content hash and `description` (cut to the field; bytes outside printable
/// ASCII become '?'; NUL-padded) filled in by seal().
template <typename Header>
[[nodiscard]] std::vector<unsigned char> build(const Format& f, const Header& header, std::span<const unsigned char> payload,
                                               std::uint32_t archId, std::string_view description) {
  static_assert(sizeof(Header) == kHeaderBytes && std::is_trivially_copyable_v<Header>);
  std::vector<unsigned char> file(kHeaderBytes + payload.size());
  std::memcpy(file.data(), &header, kHeaderBytes);
  if (!payload.empty()) std::memcpy(file.data() + kHeaderBytes, payload.data(), payload.size());
  seal(f, file, archId, description);
  return file;
}

/// "<prefix>-<16 lower-case hex digits of contentHash>", e.g. "nn-5a0ce0cd7cc4c1c3".
[[nodiscard]] std::string name(const Format& f, std::uint64_t contentHash);
/// name() + "." + extension, e.g. "nn-5a0ce0cd7cc4c1c3.jnn".
[[nodiscard]] std::string fileName(const Format& f, std::uint64_t contentHash);

/// The bytes of the file at `path`, plain or zstd-compressed (util/zstd_stream.h). Throws
/// janus::Error("<kind>: cannot open '<path>': ...") or for corrupt compressed data.
[[nodiscard]] std::vector<unsigned char> readFile(const Format& f, const std::string& path);

/// True if the file at `path` (decompressed when zstd-compressed) starts with f.magic; false
/// when it cannot be read or is shorter. Never throws.
[[nodiscard]] bool hasMagic(const Format& f, const std::string& path) noexcept;

/// Writes a file image atomically (util/zstd_stream.h OutputFile: temporary name, fsync,
/// rename). If `path` is empty, an existing directory or ends in '/', the file is
/// fileName(contentHash(file)) in that directory ("" = the current one). Returns the path
/// written. Throws janus::Error naming the file.
std::string writeFile(const Format& f, std::span<const unsigned char> file, const std::string& path);

}  // namespace janus::netfile
