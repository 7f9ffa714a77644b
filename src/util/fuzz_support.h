#pragma once
// Helpers shared by the libFuzzer targets (*_fuzz.cpp, built with -DJANUS_FUZZ=ON; see
// cmake/JanusOptions.cmake and tools/fuzz.sh). Header-only and used by nothing else.
//
// A fuzz target gets bytes; the code under test sometimes wants a file path (readers that
// open files themselves, such as PgnReader::open or loadPerftSuite). InputFile hands it a path
// to an in-memory file (memfd_create(2), seen as /proc/self/fd/N, or /dev/shm when a file name
// suffix is needed), rewritten for every input, so no fuzz input touches the disk.

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace janus::fuzz {

/// Reports a broken property (a bug, not bad input) and aborts so that libFuzzer records the
/// input as a crash. `what` names the property, `detail` the values involved.
[[noreturn]] inline void fail(std::string_view what, const std::string& detail = {}) {
  std::fprintf(stderr, "\nFUZZ PROPERTY FAILED: %.*s\n%s\n", int(what.size()), what.data(), detail.c_str());
  std::abort();
}

/// Asserts a property of the code under test (never compiled out).
inline void check(bool ok, std::string_view what, const std::string& detail = {}) {
  if (!ok) fail(what, detail);
}

/// One in-memory file, rewritten with write(). `suffix` (e.g. ".pgn") is given to readers that
/// choose the format by the file name: then the file lives in /dev/shm (tmpfs) as
/// janus-fuzz-<pid><suffix>; without a suffix it is an anonymous memfd.
class InputFile {
 public:
  explicit InputFile(const std::string& suffix = "") {
    if (suffix.empty()) {
      m_fd = ::memfd_create("janus-fuzz", MFD_CLOEXEC);
      m_path = "/proc/self/fd/" + std::to_string(m_fd);
    } else {
      m_path = "/dev/shm/janus-fuzz-" + std::to_string(::getpid()) + suffix;
      m_fd = ::open(m_path.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
      m_unlink = true;
    }
    if (m_fd < 0) fail("cannot create the fuzz input file", m_path);
  }
  ~InputFile() {
    ::close(m_fd);
    if (m_unlink) ::unlink(m_path.c_str());
  }
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  /// Replaces the content with `size` bytes from `data`; returns the path to read it from.
  const std::string& write(const void* data, size_t size) {
    if (::ftruncate(m_fd, 0) != 0 || ::pwrite(m_fd, data, size, 0) != ssize_t(size))
      fail("cannot write the fuzz input file", m_path);
    return m_path;
  }
  [[nodiscard]] const std::string& path() const { return m_path; }

 private:
  int m_fd = -1;
  std::string m_path;
  bool m_unlink = false;
};

/// Splits `text` at '\n' (a trailing '\r' is kept; the code under test must cope with it).
inline std::vector<std::string_view> splitLines(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    size_t nl = text.find('\n');
    lines.push_back(text.substr(0, nl));
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
  return lines;
}

}  // namespace janus::fuzz
