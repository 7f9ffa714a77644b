#include "util/zstd_stream.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <streambuf>
#include <vector>

#include "util/error.h"

namespace janus {

namespace {

std::string errnoText(int err) { return std::strerror(err); }

/// Owns a file descriptor opened for reading; checks that it is not a directory.
int openForReading(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw Error("cannot open '" + path + "': " + errnoText(errno));
  struct stat st {};
  if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
    ::close(fd);
    throw Error("cannot open '" + path + "': " + errnoText(EISDIR));
  }
  return fd;
}

/// read() that retries on EINTR; returns bytes read (0 at end of file) or throws.
size_t readSome(int fd, char* data, size_t size, const std::string& path) {
  for (;;) {
    ssize_t n = ::read(fd, data, size);
    if (n >= 0) return size_t(n);
    if (errno != EINTR) throw Error("cannot read '" + path + "': " + errnoText(errno));
  }
}

/// Reads up to 4 bytes and tells whether they are the zstd magic.
bool startsWithZstdMagic(int fd, const std::string& path) {
  unsigned char head[4];
  size_t got = 0;
  while (got < 4) {
    size_t n = readSome(fd, reinterpret_cast<char*>(head) + got, 4 - got, path);
    if (n == 0) break;
    got += n;
  }
  return got == 4 && std::memcmp(head, kZstdMagic, 4) == 0;
}

/// Streaming zstd decompressor as a std::streambuf (input only). Memory: one input buffer of
/// ZSTD_DStreamInSize() and one output buffer of ZSTD_DStreamOutSize() bytes, plus the
/// decompression context (window size of the frame, at most what the frame header asks for).
class ZstdInputBuf : public std::streambuf {
 public:
  ZstdInputBuf(int fd, std::string path)
      : m_fd(fd), m_path(std::move(path)), m_dctx(ZSTD_createDCtx()),
        m_inBuf(ZSTD_DStreamInSize()), m_outBuf(ZSTD_DStreamOutSize()) {
    if (!m_dctx) {
      ::close(m_fd);
      throw Error("'" + m_path + "': cannot create a zstd decompression context");
    }
    m_in = ZSTD_inBuffer{m_inBuf.data(), 0, 0};
    setg(m_outBuf.data(), m_outBuf.data(), m_outBuf.data());
  }
  ~ZstdInputBuf() override {
    ZSTD_freeDCtx(m_dctx);
    ::close(m_fd);
  }
  ZstdInputBuf(const ZstdInputBuf&) = delete;
  ZstdInputBuf& operator=(const ZstdInputBuf&) = delete;

 protected:
  int_type underflow() override {
    if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
    if (m_failed) throw Error(m_failMessage);
    for (;;) {
      if (m_in.pos == m_in.size && !m_eof) {
        size_t n = readChecked(m_inBuf.data(), m_inBuf.size());
        m_in = ZSTD_inBuffer{m_inBuf.data(), n, 0};
        m_eof = n == 0;
      }
      bool inputDone = m_eof && m_in.pos == m_in.size;
      // Between frames with no input left: the end. (Calling the decoder now would only return
      // the header size it expects for a next frame.)
      if (inputDone && !m_frameOpen) return traits_type::eof();
      ZSTD_outBuffer out{m_outBuf.data(), m_outBuf.size(), 0};
      size_t ret = ZSTD_decompressStream(m_dctx, &out, &m_in);
      if (ZSTD_isError(ret)) fail("'" + m_path + "': corrupt zstd data (" + ZSTD_getErrorName(ret) + ")");
      // ret == 0 exactly when a frame is completely decoded and flushed.
      m_frameOpen = ret != 0;
      if (out.pos > 0) {
        setg(m_outBuf.data(), m_outBuf.data(), m_outBuf.data() + out.pos);
        return traits_type::to_int_type(*gptr());
      }
      if (inputDone) fail("'" + m_path + "': truncated zstd data (the file ends inside a frame)");
    }
  }

 private:
  size_t readChecked(char* data, size_t size) {
    try {
      return readSome(m_fd, data, size, m_path);
    } catch (const Error& e) {
      fail(e.what());
    }
  }
  [[noreturn]] void fail(const std::string& message) {
    // Remember the failure: a later read must not resume decoding mid-stream as if nothing
    // happened.
    m_failed = true;
    m_failMessage = message;
    throw Error(message);
  }

  int m_fd;
  std::string m_path;
  ZSTD_DCtx* m_dctx;
  std::vector<char> m_inBuf;
  std::vector<char> m_outBuf;
  ZSTD_inBuffer m_in{};
  bool m_eof = false;
  bool m_frameOpen = false;
  bool m_failed = false;
  std::string m_failMessage;
};

/// An istream that owns its zstd stream buffer.
class ZstdInputStream : public std::istream {
 public:
  ZstdInputStream(int fd, const std::string& path) : std::istream(nullptr), m_buf(fd, path) {
    rdbuf(&m_buf);
    exceptions(std::ios::badbit);
  }

 private:
  ZstdInputBuf m_buf;
};

}  // namespace

std::unique_ptr<std::istream> openInputFile(const std::string& path) {
  int fd = openForReading(path);
  bool zstd = false;
  try {
    zstd = startsWithZstdMagic(fd, path);
  } catch (...) {
    ::close(fd);
    throw;
  }
  if (zstd) {
    if (::lseek(fd, 0, SEEK_SET) != 0) {
      int err = errno;
      ::close(fd);
      throw Error("cannot read '" + path + "': " + errnoText(err));
    }
    return std::make_unique<ZstdInputStream>(fd, path);
  }
  ::close(fd);
  auto in = std::make_unique<std::ifstream>(path, std::ios::binary);
  if (!*in) throw Error("cannot open '" + path + "': " + errnoText(errno));
  return in;
}

bool isZstdFile(const std::string& path) {
  int fd = openForReading(path);
  bool zstd = false;
  try {
    zstd = startsWithZstdMagic(fd, path);
  } catch (...) {
    ::close(fd);
    throw;
  }
  ::close(fd);
  return zstd;
}

// ---- OutputFile ----------------------------------------------------------------------------

/// Output stream buffer: collects bytes in m_data, then compresses (or copies) them to the fd.
class OutputFile::Buffer : public std::streambuf {
 public:
  Buffer(std::string path, bool compress, int level)
      : m_path(std::move(path)), m_tmpPath(m_path + ".tmp"), m_data(kChunk) {
    if (compress) {
      if (level < ZSTD_minCLevel() || level > ZSTD_maxCLevel() || level == 0)
        throw Error("'" + m_path + "': zstd compression level " + std::to_string(level) + " is not in " +
                    std::to_string(ZSTD_minCLevel()) + ".." + std::to_string(ZSTD_maxCLevel()) + " (0 excluded)");
      m_cctx = ZSTD_createCCtx();
      if (!m_cctx) throw Error("'" + m_path + "': cannot create a zstd compression context");
      ZSTD_CCtx_setParameter(m_cctx, ZSTD_c_compressionLevel, level);
      ZSTD_CCtx_setParameter(m_cctx, ZSTD_c_checksumFlag, 1);
      m_compressed.resize(ZSTD_CStreamOutSize());
    }
    m_fd = ::open(m_tmpPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (m_fd < 0) {
      int err = errno;
      ZSTD_freeCCtx(m_cctx);
      throw Error("cannot create '" + m_tmpPath + "': " + errnoText(err));
    }
    setp(m_data.data(), m_data.data() + m_data.size());
  }

  ~Buffer() override {
    ZSTD_freeCCtx(m_cctx);
    if (m_fd >= 0) ::close(m_fd);
    if (!m_committed) ::unlink(m_tmpPath.c_str());
  }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  void commit() {
    if (m_committed || m_fd < 0) throw Error("'" + m_path + "': commit() called on a finished file");
    try {
      drain(true);
      if (::fsync(m_fd) != 0) throw Error("cannot sync '" + m_tmpPath + "': " + errnoText(errno));
      int fd = m_fd;
      m_fd = -1;
      if (::close(fd) != 0) throw Error("cannot close '" + m_tmpPath + "': " + errnoText(errno));
      if (::rename(m_tmpPath.c_str(), m_path.c_str()) != 0)
        throw Error("cannot rename '" + m_tmpPath + "' to '" + m_path + "': " + errnoText(errno));
      m_committed = true;
    } catch (...) {
      if (m_fd >= 0) ::close(m_fd);
      m_fd = -1;
      ::unlink(m_tmpPath.c_str());
      throw;
    }
    syncDirectory();
  }

  [[nodiscard]] const std::string& path() const { return m_path; }
  [[nodiscard]] unsigned long long bytesWritten() const { return m_written; }

 protected:
  int_type overflow(int_type ch) override {
    drain(false);
    if (!traits_type::eq_int_type(ch, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(ch);
      pbump(1);
    }
    return traits_type::not_eof(ch);
  }
  int sync() override {
    // Flushing the stream hands buffered bytes to zstd; the frame stays open until commit().
    drain(false);
    return 0;
  }

 private:
  static constexpr size_t kChunk = size_t(1) << 17;  // 128 KiB, ZSTD_CStreamInSize()

  void checkOpen() const {
    if (m_fd < 0) throw Error("'" + m_path + "': write after commit()");
  }

  /// Writes the buffered bytes (compressing them), and with `finish` ends the zstd frame.
  void drain(bool finish) {
    checkOpen();
    size_t size = size_t(pptr() - pbase());
    if (!m_cctx) {
      writeAll(m_data.data(), size);
    } else {
      ZSTD_inBuffer in{m_data.data(), size, 0};
      ZSTD_EndDirective mode = finish ? ZSTD_e_end : ZSTD_e_continue;
      for (;;) {
        ZSTD_outBuffer out{m_compressed.data(), m_compressed.size(), 0};
        size_t remaining = ZSTD_compressStream2(m_cctx, &out, &in, mode);
        if (ZSTD_isError(remaining))
          throw Error("'" + m_path + "': zstd compression failed (" + ZSTD_getErrorName(remaining) + ")");
        writeAll(m_compressed.data(), out.pos);
        bool done = finish ? remaining == 0 : in.pos == in.size;
        if (done) break;
      }
    }
    setp(m_data.data(), m_data.data() + m_data.size());
  }

  void writeAll(const char* data, size_t size) {
    while (size > 0) {
      ssize_t n = ::write(m_fd, data, size);
      if (n < 0) {
        if (errno == EINTR) continue;
        throw Error("cannot write '" + m_tmpPath + "': " + errnoText(errno));
      }
      data += n;
      size -= size_t(n);
      m_written += static_cast<unsigned long long>(n);
    }
  }

  void syncDirectory() const {
    // Make the rename itself durable; failure here is not an error of the data.
    std::string dir = ".";
    if (auto slash = m_path.find_last_of('/'); slash != std::string::npos)
      dir = slash == 0 ? "/" : m_path.substr(0, slash);
    int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
      (void)::fsync(dfd);
      ::close(dfd);
    }
  }

  std::string m_path;
  std::string m_tmpPath;
  std::vector<char> m_data;
  std::vector<char> m_compressed;
  ZSTD_CCtx* m_cctx = nullptr;
  int m_fd = -1;
  bool m_committed = false;
  unsigned long long m_written = 0;
};

OutputFile::OutputFile(const std::string& path, bool compress, int level)
    : std::ostream(nullptr), m_buffer(std::make_unique<Buffer>(path, compress, level)) {
  rdbuf(m_buffer.get());
  exceptions(std::ios::badbit);
}

OutputFile::~OutputFile() = default;

void OutputFile::commit() {
  // Stream state first: an earlier failed write (badbit) must not be committed silently.
  if (bad()) throw Error("'" + m_buffer->path() + "': an earlier write failed; file not committed");
  m_buffer->commit();
}

const std::string& OutputFile::path() const { return m_buffer->path(); }

unsigned long long OutputFile::bytesWritten() const { return m_buffer->bytesWritten(); }

}  // namespace janus
