#include "server/static_files.h"

#include <gtest/gtest.h>

#include <fstream>

namespace janus::server {
namespace {

namespace fs = std::filesystem;

class StaticFilesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    m_base = fs::temp_directory_path() / ("janus-static-" + std::to_string(::getpid()));
    fs::remove_all(m_base);
    fs::create_directories(m_base / "web" / "assets");
    std::ofstream(m_base / "web" / "index.html") << "<html></html>";
    std::ofstream(m_base / "web" / "assets" / "app.js") << "1";
    std::ofstream(m_base / "secret.txt") << "secret";
    fs::create_symlink(m_base / "secret.txt", m_base / "web" / "link.txt");
  }
  void TearDown() override { fs::remove_all(m_base); }
  fs::path root() const { return m_base / "web"; }
  fs::path m_base;
};

TEST(PercentDecode, DecodesEscapesAndRejectsMalformedOnes) {
  EXPECT_EQ(percentDecode("a%2Fb%20c"), "a/b c");
  EXPECT_EQ(percentDecode("%2e%2E"), "..");
  EXPECT_EQ(percentDecode("a+b"), "a+b");
  EXPECT_FALSE(percentDecode("%"));
  EXPECT_FALSE(percentDecode("%4"));
  EXPECT_FALSE(percentDecode("%zz"));
}

TEST_F(StaticFilesTest, ServesFilesInsideTheRoot) {
  auto index = resolveStaticPath(root(), "/");
  ASSERT_TRUE(index);
  EXPECT_EQ(index->filename(), "index.html");
  ASSERT_TRUE(resolveStaticPath(root(), "/assets/app.js"));
  ASSERT_TRUE(resolveStaticPath(root(), "/assets/app.js?v=3"));
  EXPECT_FALSE(resolveStaticPath(root(), "/missing.js"));
  EXPECT_FALSE(resolveStaticPath(root(), "/assets"));  // a folder, not a file
}

TEST_F(StaticFilesTest, RejectsTraversalInEveryForm) {
  for (const char* p : {"/../secret.txt", "/assets/../../secret.txt", "/%2e%2e/secret.txt", "/%2E%2E%2Fsecret.txt",
                        "/..%2fsecret.txt", "/assets/..%5c..%5csecret.txt", "/%252e%252e/secret.txt",
                        "//etc/passwd", "/%2fetc/passwd", "/index.html%00.js", "/./index.html", "/assets//app.js",
                        "/link.txt", "/C:/x", "relative.txt", ""}) {
    EXPECT_FALSE(resolveStaticPath(root(), p)) << p;
  }
}

TEST(MimeType, KnowsTheAssetTypes) {
  EXPECT_EQ(mimeType("a.html"), "text/html; charset=utf-8");
  EXPECT_EQ(mimeType("a.js"), "text/javascript; charset=utf-8");
  EXPECT_EQ(mimeType("a.css"), "text/css; charset=utf-8");
  EXPECT_EQ(mimeType("a.svg"), "image/svg+xml");
  EXPECT_EQ(mimeType("a.bin"), "application/octet-stream");
}

}  // namespace
}  // namespace janus::server
