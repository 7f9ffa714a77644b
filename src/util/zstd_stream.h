#pragma once
// File streams that read zstd-compressed or plain files transparently and write files atomically,
// optionally zstd-compressed (Zstandard, RFC 8878; streaming API of libzstd, zstd.h
// ZSTD_decompressStream / ZSTD_compressStream2).
//
// Reading: openInputFile() looks at the first 4 bytes. A file that starts with the zstd frame
// magic 28 B5 2F FD is decompressed on the fly with constant memory (one ZSTD_DStreamInSize()
// input buffer of ~128 KiB and one ZSTD_DStreamOutSize() output buffer); several concatenated
// frames (as `cat a.zst b.zst` or `zstd` on multiple inputs produce) and skippable frames are
// read as one stream. Any other file is read as is.
//
// Errors while reading compressed data (corrupt frame, checksum mismatch, truncated file, read
// error) are thrown as janus::Error naming the file from the stream buffer's underflow(). The
// returned std::istream has exceptions(std::ios::badbit) set, so std::getline, operator>>,
// read() and istreambuf_iterator all let the janus::Error through unchanged instead of turning
// it into a silent short read.
//
// Writing: OutputFile writes to "<path>.tmp" and only commit() flushes, fsyncs and renames it to
// <path>, so readers never see a partial file and an existing <path> survives a failed or
// abandoned write.

#include <memory>
#include <ostream>
#include <istream>
#include <string>

namespace janus {

/// The 4-byte zstd frame magic number 0xFD2FB528 as it appears in a file (little-endian).
inline constexpr unsigned char kZstdMagic[4] = {0x28, 0xB5, 0x2F, 0xFD};

/// Opens `path` for reading (binary). Files starting with kZstdMagic are decompressed while
/// being read (streaming, constant memory, multiple frames); other files are returned as is.
/// Throws janus::Error("cannot open '<path>': <strerror>") if the file cannot be opened or is a
/// directory. Reading from the returned stream throws janus::Error("'<path>': corrupt zstd data
/// (<zstd error>)") or ("'<path>': truncated zstd data ...") on bad compressed input.
[[nodiscard]] std::unique_ptr<std::istream> openInputFile(const std::string& path);

/// True if the file at `path` starts with the zstd frame magic. Throws janus::Error if it cannot
/// be opened.
[[nodiscard]] bool isZstdFile(const std::string& path);

/// An output file written atomically, zstd-compressed or plain.
///
///   OutputFile out("games.pgn.zst", /*compress=*/true);
///   out << text;
///   out.commit();   // without this the destructor deletes games.pgn.zst.tmp
///
/// Data goes to "<path>.tmp" (created with mode 0644, truncated if present). commit() ends the
/// zstd frame (with a content checksum, so corruption is detected on reading), flushes, fsyncs
/// the file, renames it to `path` and fsyncs the directory. Write errors throw janus::Error
/// naming the file from every stream operation (exceptions(badbit) is set) and from commit().
/// The destructor of an uncommitted file removes the .tmp file and never throws.
class OutputFile : public std::ostream {
 public:
  static constexpr int kDefaultLevel = 3;  ///< zstd's own default compression level

  /// Creates "<path>.tmp". `level` is the zstd compression level (1..ZSTD_maxCLevel() = 22,
  /// negative levels are zstd's fast modes); it is ignored when `compress` is false.
  /// Throws janus::Error("cannot create '<path>.tmp': <strerror>") or for a bad level.
  explicit OutputFile(const std::string& path, bool compress, int level = kDefaultLevel);
  ~OutputFile() override;
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  /// Finishes the file and moves it to its final name. Throws janus::Error if any write, the
  /// fsync or the rename fails (then the .tmp file is removed). Calling it twice is an error.
  void commit();

  /// Final path of the file.
  [[nodiscard]] const std::string& path() const;
  /// Bytes written to the file so far (compressed size when compressing).
  [[nodiscard]] unsigned long long bytesWritten() const;

 private:
  class Buffer;
  std::unique_ptr<Buffer> m_buffer;
};

}  // namespace janus
