// Tests of the shared part of the network files (netfile.h) on a small format of its own: the
// architecture id, building and checking a file (every rejection, in order, naming the file),
// names, plain and zstd reading, atomic writing into a folder, and the FNV-1a / SplitMix64
// reference values (util/hash.h).

#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "netfile/netfile.h"
#include "util/error.h"
#include "util/hash.h"
#include "util/zstd_stream.h"

namespace janus::netfile {
namespace {

namespace fs = std::filesystem;

#pragma pack(push, 1)
/// A made-up format: one field of its own (`size`, the payload is `size` bytes), the shared ones
/// in an order none of the real formats uses.
struct ToyHeader {
  char magic[8];
  std::uint16_t version;
  std::uint16_t size;
  std::uint64_t contentHash;
  std::uint32_t reserved;
  std::uint32_t archId;
  std::uint64_t payloadBytes;
  char description[28];
};
#pragma pack(pop)
static_assert(sizeof(ToyHeader) == kHeaderBytes);

inline constexpr char kToyMagic[8] = {'J', 'A', 'N', 'U', 'S', 'T', 'Y', '\0'};
inline constexpr Format kToy = formatOf<ToyHeader>("toy network", std::string_view(kToyMagic, sizeof kToyMagic), 3,
                                                   {offsetof(ToyHeader, reserved), sizeof ToyHeader::reserved}, "ty",
                                                   "jty");

std::vector<unsigned char> toyFile(std::uint16_t size, std::string_view description = "toy") {
  ToyHeader h{};
  h.size = size;
  std::vector<unsigned char> payload(size);
  for (std::size_t i = 0; i < payload.size(); ++i) payload[i] = static_cast<unsigned char>(i * 7 + 1);
  return build(kToy, h, payload, architectureId({size}), description);
}

File<ToyHeader> readToy(const std::vector<unsigned char>& bytes) {
  return read<ToyHeader>(kToy, bytes, "toy.jty", [](const ToyHeader& h) {
    if (h.size == 0) throw Error("size 0, expected 1..65535");
    return Architecture{architectureId({h.size}), h.size};
  });
}

std::string errorOf(const std::vector<unsigned char>& bytes) {
  try {
    (void)readToy(bytes);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

template <typename T>
std::vector<unsigned char> patched(std::vector<unsigned char> bytes, std::size_t at, T value) {
  std::memcpy(bytes.data() + at, &value, sizeof value);
  return bytes;
}

TEST(Hash, ReferenceValues) {
  // FNV-1a 64 test vectors of the reference (http://www.isthe.com/chongo/tech/comp/fnv/).
  EXPECT_EQ(fnv1a64(std::string_view()), 0xcbf29ce484222325ULL);
  EXPECT_EQ(fnv1a64(std::string_view("a")), 0xaf63dc4c8601ec8cULL);
  EXPECT_EQ(fnv1a64(std::string_view("foobar")), 0x85944171f73967e8ULL);
  const unsigned char foobar[] = {'f', 'o', 'o', 'b', 'a', 'r'};
  EXPECT_EQ(fnv1a64(std::span<const unsigned char>(foobar)), 0x85944171f73967e8ULL);
  EXPECT_EQ(fnv1a64(std::string_view("bar"), fnv1a64(std::string_view("foo"))), 0x85944171f73967e8ULL);
  // SplitMix64 from state 1234567: the first outputs of Vigna's splitmix64.c.
  std::uint64_t state = 1234567;
  EXPECT_EQ(splitmix64(state), 6457827717110365317ULL);
  state += 0x9e3779b97f4a7c15ULL;
  EXPECT_EQ(splitmix64(state), 3203168211198807973ULL);
  static_assert(splitmix64(0) == 0xe220a8397b1dcdafULL);
}

TEST(NetFile, ArchitectureIdHashesTheFieldsAsLittleEndianWords) {
  const unsigned char bytes[8] = {1, 0, 0, 0, 0x34, 0x12, 0, 0};
  const std::uint64_t h = fnv1a64(std::span<const unsigned char>(bytes));
  EXPECT_EQ(architectureId({1, 0x1234}), std::uint32_t(h ^ (h >> 32)));
  EXPECT_NE(architectureId({1, 0x1234}), architectureId({0x1234, 1}));
}

TEST(NetFile, BuildsAndReadsAFile) {
  const std::vector<unsigned char> bytes = toyFile(100, "a toy\tnetwork with a long description");
  ASSERT_EQ(bytes.size(), kHeaderBytes + 100);
  EXPECT_EQ(std::memcmp(bytes.data(), kToyMagic, 8), 0);
  const File<ToyHeader> f = readToy(bytes);
  EXPECT_EQ(f.header.version, 3);
  EXPECT_EQ(f.header.size, 100);
  EXPECT_EQ(f.header.archId, architectureId({100}));
  EXPECT_EQ(std::uint64_t{f.header.payloadBytes}, 100u);  // a copy: the packed field is not aligned
  EXPECT_EQ(f.payload.size(), 100u);
  EXPECT_EQ(f.payload[3], 22);
  EXPECT_EQ(f.contentHash, fnv1a64(std::span<const unsigned char>(bytes).subspan(kHeaderBytes)));
  EXPECT_EQ(f.contentHash, contentHash(kToy, bytes));
  EXPECT_EQ(f.description, "a toy?network with a long de");  // cut to the field, '\t' is not printable
  EXPECT_EQ(name(kToy, 0x0123456789abcdefULL), "ty-0123456789abcdef");
  EXPECT_EQ(fileName(kToy, 0x0123456789abcdefULL), "ty-0123456789abcdef.jty");
  // The description is not part of the content hash.
  EXPECT_EQ(contentHash(kToy, toyFile(100, "other")), f.contentHash);
}

TEST(NetFile, RejectsEveryDamageInOrderNamingTheFile) {
  const std::vector<unsigned char> good = toyFile(40);
  ASSERT_EQ(errorOf(good), "");
  auto expectError = [](const std::vector<unsigned char>& bytes, const std::string& what) {
    EXPECT_EQ(errorOf(bytes), "toy network 'toy.jty': " + what);
  };
  expectError(patched(good, 5, 'X'), "wrong magic (not a JANUSTY file)");
  expectError({good.begin(), good.begin() + 30}, "truncated: 30 bytes, shorter than the 64-byte header");
  expectError({good.begin(), good.begin() + 4}, "truncated: 4 bytes, shorter than the 64-byte header");
  expectError(patched(good, kVersionAt, std::uint16_t(4)), "unsupported version 4 (this build reads version 3)");
  expectError(patched(good, offsetof(ToyHeader, reserved) + 3, std::uint8_t(1)),
              "reserved header field (bytes 20..23) is not zero");
  expectError(patched(good, offsetof(ToyHeader, size), std::uint16_t(0)), "size 0, expected 1..65535");
  EXPECT_NE(errorOf(patched(good, offsetof(ToyHeader, size), std::uint16_t(41))).find("architecture id"),
            std::string::npos);
  // Fields that agree with each other, a payload size that does not.
  std::vector<unsigned char> bigger = patched(good, offsetof(ToyHeader, size), std::uint16_t(41));
  bigger = patched(bigger, offsetof(ToyHeader, archId), architectureId({41}));
  expectError(bigger, "header gives 40 payload bytes, the architecture 41");
  bigger = patched(bigger, offsetof(ToyHeader, payloadBytes), std::uint64_t(41));
  expectError(bigger, "truncated: 40 of 41 payload bytes");
  std::vector<unsigned char> longer = good;
  longer.insert(longer.end(), {0, 0});
  expectError(longer, "2 trailing bytes after the payload");
  std::vector<unsigned char> flipped = good;
  flipped[kHeaderBytes + 7] ^= 0x10;
  EXPECT_NE(errorOf(flipped).find("toy network 'toy.jty': corrupted: the payload's content hash is "), std::string::npos)
      << errorOf(flipped);
}

TEST(NetFile, WritesIntoAFolderAtomicallyAndReadsPlainOrCompressed) {
  const fs::path dir = fs::temp_directory_path() / ("janus-netfile-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::vector<unsigned char> bytes = toyFile(300);
  const std::string expected = (dir / fileName(kToy, contentHash(kToy, bytes))).string();
  EXPECT_EQ(writeFile(kToy, bytes, dir.string()), expected);        // an existing folder
  EXPECT_EQ(writeFile(kToy, bytes, dir.string() + "/"), expected);  // a folder by its '/'
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);  // no temporary left
  EXPECT_EQ(readFile(kToy, expected), bytes);
  EXPECT_TRUE(hasMagic(kToy, expected));
  const std::string named = (dir / "named.bin").string();
  EXPECT_EQ(writeFile(kToy, bytes, named), named);
  EXPECT_EQ(readFile(kToy, named), bytes);

  const std::string compressed = (dir / "toy.jty.zst").string();
  {
    OutputFile out(compressed, /*compress=*/true);
    out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    out.commit();
  }
  ASSERT_TRUE(isZstdFile(compressed));
  EXPECT_EQ(readFile(kToy, compressed), bytes);
  EXPECT_TRUE(hasMagic(kToy, compressed));

  { std::ofstream(dir / "short.bin") << "JANUS"; }
  EXPECT_FALSE(hasMagic(kToy, (dir / "short.bin").string()));
  EXPECT_FALSE(hasMagic(kToy, (dir / "missing.jty").string()));
  EXPECT_FALSE(hasMagic(kToy, dir.string()));
  try {
    (void)readFile(kToy, (dir / "missing.jty").string());
    ADD_FAILURE() << "read a missing file";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("toy network: cannot open '" + (dir / "missing.jty").string() + "'"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW((void)writeFile(kToy, bytes, (dir / "no-such-folder" / "x.jty").string()), Error);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace janus::netfile
