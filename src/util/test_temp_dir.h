#pragma once
// A temporary directory for one GoogleTest test, for the tests of every module (header-only;
// include it from *_test.cpp files only: it needs gtest).
//
//   janus::test::TempDir dir;                 // $TMPDIR/janus_<pid>_<suite>_<test>_<n>, empty
//   std::string f = dir.file("data.jdat");    // a path inside it
//
//   std::string bytes = janus::test::readRaw(f);  // a whole file, bytes as they are
//
// The directory is created empty (anything left there by an earlier run is removed) and removed
// with everything in it when the object goes out of scope. Names are unique per process and test,
// and per object (a counter), so tests may run in parallel processes (ctest -j) and one test may
// hold several.

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <system_error>

namespace janus::test {

class TempDir {
 public:
  TempDir() {
    static std::atomic<int> counter{0};
    std::string name = "janus_" + std::to_string(::getpid());
    if (const auto* info = ::testing::UnitTest::GetInstance()->current_test_info()) {
      name += '_';
      name += info->test_suite_name();
      name += '_';
      name += info->name();
    }
    name += '_';
    name += std::to_string(counter++);
    std::replace(name.begin(), name.end(), '/', '_');  // parameterised tests: "Cases/Suite"
    m_dir = std::filesystem::temp_directory_path() / name;
    std::filesystem::remove_all(m_dir);
    std::filesystem::create_directories(m_dir);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(m_dir, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  /// The directory.
  [[nodiscard]] const std::filesystem::path& dir() const { return m_dir; }
  /// The directory as a string.
  [[nodiscard]] std::string path() const { return m_dir.string(); }
  /// The path of `name` inside the directory (not created).
  [[nodiscard]] std::string file(const std::string& name) const { return (m_dir / name).string(); }

 private:
  std::filesystem::path m_dir;
};

/// The bytes of the file at `path` (empty if it cannot be opened: the test's own checks then fail).
[[nodiscard]] inline std::string readRaw(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// Writes `data` to `path` as it is (replacing the file): for tests that build damaged files.
inline void writeRaw(const std::string& path, const std::string& data) {
  std::ofstream out(path, std::ios::binary);
  out.write(data.data(), std::streamsize(data.size()));
}

}  // namespace janus::test
