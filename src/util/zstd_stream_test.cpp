#include "util/zstd_stream.h"

#include <gtest/gtest.h>
#include <unistd.h>
#include <zstd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <sstream>

#include "util/error.h"
#include "util/test_temp_dir.h"

namespace janus {
namespace {

using test::TempDir;

namespace fs = std::filesystem;

using janus::test::readRaw;
using janus::test::writeRaw;

std::string readAll(std::istream& in) {
  std::string s;
  char buf[4096];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) s.append(buf, size_t(in.gcount()));
  return s;
}

/// A few MB of compressible but irregular text (PGN-like lines with random numbers).
std::string sampleText(size_t bytes, unsigned seed) {
  std::mt19937 rng(seed);
  std::string s;
  s.reserve(bytes + 100);
  while (s.size() < bytes) {
    s += std::to_string(rng() % 200) + ". e4 { [%eval 0." + std::to_string(rng() % 100) + "] } e5 ";
    if (rng() % 8 == 0) s += '\n';
  }
  s.resize(bytes);
  return s;
}

std::string compressFrame(const std::string& data, int level = 3) {
  std::string out(ZSTD_compressBound(data.size()), '\0');
  size_t n = ZSTD_compress(out.data(), out.size(), data.data(), data.size(), level);
  EXPECT_FALSE(ZSTD_isError(n));
  out.resize(n);
  return out;
}

TEST(ZstdStream, CompressedRoundTripOfSeveralMegabytes) {
  TempDir dir;
  std::string path = dir.file("data.zst");
  std::string text = sampleText(3 << 20, 1);
  {
    OutputFile out(path, true, 5);
    // Mixed write sizes: single chars, small and large blocks.
    out.put(text[0]);
    out.write(text.data() + 1, 99);
    out.write(text.data() + 100, std::streamsize(text.size() - 100));
    out.commit();
    EXPECT_GT(out.bytesWritten(), 0u);
    EXPECT_LT(out.bytesWritten(), text.size() / 3);
  }
  EXPECT_TRUE(fs::exists(path));
  EXPECT_FALSE(fs::exists(path + ".tmp"));
  EXPECT_TRUE(isZstdFile(path));
  std::string raw = readRaw(path);
  ASSERT_GE(raw.size(), 4u);
  EXPECT_EQ(std::memcmp(raw.data(), kZstdMagic, 4), 0);

  auto in = openInputFile(path);
  EXPECT_EQ(readAll(*in), text);
  // The same data line by line through std::getline.
  auto in2 = openInputFile(path);
  std::string line, joined;
  while (std::getline(*in2, line)) joined += line + '\n';
  EXPECT_EQ(joined.substr(0, text.size()), text);
}

TEST(ZstdStream, PlainFilesAreReadAsIs) {
  TempDir dir;
  std::string path = dir.file("plain.txt");
  std::string text = sampleText(200000, 2);
  {
    OutputFile out(path, false);
    out << text;
    out.commit();
    EXPECT_EQ(out.bytesWritten(), text.size());
  }
  EXPECT_EQ(readRaw(path), text);
  EXPECT_FALSE(isZstdFile(path));
  auto in = openInputFile(path);
  EXPECT_EQ(readAll(*in), text);

  // Files shorter than the magic number.
  writeRaw(path, "\x28\xB5");
  EXPECT_EQ(readAll(*openInputFile(path)), "\x28\xB5");
}

TEST(ZstdStream, MultipleFramesAndSkippableFramesFormOneStream) {
  TempDir dir;
  std::string path = dir.file("multi.zst");
  std::string a = sampleText(300000, 3), b = sampleText(5000, 4), c = "tail without newline";
  // Skippable frame (magic 0x184D2A50..5F): 4-byte magic, 4-byte length, payload.
  std::string skippable("\x50\x2A\x4D\x18\x03\x00\x00\x00xyz", 11);
  writeRaw(path, compressFrame(a) + compressFrame(b, 19) + skippable + compressFrame(c) + compressFrame(""));
  EXPECT_EQ(readAll(*openInputFile(path)), a + b + c);
}

TEST(ZstdStream, EmptyFiles) {
  TempDir dir;
  std::string empty = dir.file("empty");
  writeRaw(empty, "");
  auto in = openInputFile(empty);
  EXPECT_EQ(readAll(*in), "");
  EXPECT_TRUE(in->eof());
  EXPECT_FALSE(in->bad());

  // A compressed file with no content is one empty frame.
  std::string emptyZst = dir.file("empty.zst");
  {
    OutputFile out(emptyZst, true);
    out.commit();
  }
  EXPECT_TRUE(isZstdFile(emptyZst));
  EXPECT_EQ(readAll(*openInputFile(emptyZst)), "");
}

/// Reads the whole stream and returns the message of the janus::Error it throws ("" if none).
std::string readError(const std::string& path) {
  try {
    auto in = openInputFile(path);
    (void)readAll(*in);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(ZstdStream, CorruptDataThrowsNamingTheFile) {
  TempDir dir;
  std::string good = dir.file("good.zst");
  std::string text = sampleText(1 << 20, 5);
  {
    OutputFile out(good, true);
    out << text;
    out.commit();
  }
  std::string raw = readRaw(good);

  // Flipped bytes in the middle: detected by the block decoder or the content checksum.
  std::string flipped = raw;
  for (size_t i = flipped.size() / 2; i < flipped.size() / 2 + 16; ++i) flipped[i] = char(flipped[i] ^ 0x5A);
  std::string corrupt = dir.file("corrupt.zst");
  writeRaw(corrupt, flipped);
  std::string msg = readError(corrupt);
  EXPECT_NE(msg.find(corrupt), std::string::npos) << msg;
  EXPECT_NE(msg.find("corrupt zstd data"), std::string::npos) << msg;

  // Truncated: the file ends inside the frame.
  std::string truncated = dir.file("truncated.zst");
  writeRaw(truncated, raw.substr(0, raw.size() / 2));
  msg = readError(truncated);
  EXPECT_NE(msg.find(truncated), std::string::npos) << msg;
  EXPECT_NE(msg.find("truncated"), std::string::npos) << msg;

  // Only the last byte missing (the checksum is incomplete).
  writeRaw(truncated, raw.substr(0, raw.size() - 1));
  EXPECT_NE(readError(truncated).find("truncated"), std::string::npos);

  // Garbage after a valid frame.
  std::string trailing = dir.file("trailing.zst");
  writeRaw(trailing, compressFrame("hello\n") + "garbage!");
  msg = readError(trailing);
  EXPECT_NE(msg.find("corrupt zstd data"), std::string::npos) << msg;

  // The error also comes through std::getline (not a silent short read) and stays.
  auto in = openInputFile(corrupt);
  std::string line;
  EXPECT_THROW(
      {
        while (std::getline(*in, line)) {
        }
      },
      Error);
  EXPECT_TRUE(in->bad());
  EXPECT_THROW((void)in->rdbuf()->sgetc(), Error);
}

TEST(ZstdStream, OpenErrors) {
  TempDir dir;
  std::string missing = dir.file("missing.pgn");
  try {
    (void)openInputFile(missing);
    FAIL() << "no exception";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "cannot open '" + missing + "': No such file or directory");
  }
  try {
    (void)openInputFile(dir.file(""));
    FAIL() << "no exception";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("Is a directory"), std::string::npos) << e.what();
  }
  EXPECT_THROW(OutputFile(dir.file("no/such/dir/out.zst"), true), Error);
  EXPECT_THROW(OutputFile(dir.file("x.zst"), true, 99), Error);
}

TEST(ZstdStream, AtomicWriteLeavesNoPartialFile) {
  TempDir dir;
  std::string path = dir.file("out.pgn.zst");
  {
    OutputFile out(path, true);
    out << sampleText(500000, 6);
    out.flush();
    EXPECT_TRUE(fs::exists(path + ".tmp"));
    EXPECT_FALSE(fs::exists(path));
    // destroyed without commit()
  }
  EXPECT_FALSE(fs::exists(path));
  EXPECT_FALSE(fs::exists(path + ".tmp"));

  // An existing file survives an abandoned rewrite and is replaced by a committed one.
  writeRaw(path, "old contents");
  {
    OutputFile out(path, false);
    out << "new contents that are never committed";
  }
  EXPECT_EQ(readRaw(path), "old contents");
  {
    OutputFile out(path, true);
    out << "new contents";
    out.commit();
    EXPECT_THROW(out.commit(), Error);
  }
  EXPECT_EQ(readAll(*openInputFile(path)), "new contents");
  EXPECT_FALSE(fs::exists(path + ".tmp"));
}

}  // namespace
}  // namespace janus
