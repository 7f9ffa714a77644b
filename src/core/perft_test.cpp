// Malformed perft suite files (found by perft_suite_fuzz): every bad entry is a janus::Error
// naming the file and line, never another exception or a crash.

#include <gtest/gtest.h>

#include <fstream>

#include "core/perft.h"
#include "util/error.h"

namespace janus {
namespace {

std::string writeSuite(const std::string& name, const std::string& text) {
  std::string path = testing::TempDir() + "/janus-perft-test-" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

/// The error message of loadPerftSuite on `text` ("" if it loads).
std::string suiteError(const std::string& name, const std::string& text) {
  std::string path = writeSuite(name, text);
  try {
    (void)loadPerftSuite(path);
  } catch (const Error& e) {
    std::string what = e.what();
    EXPECT_EQ(what.rfind(path + ":", 0), 0u) << what;
    return what.substr(path.size());
  }
  return "";
}

TEST(PerftSuite, BothFormatsLoad) {
  auto cases = loadPerftSuite(writeSuite(
      "good", "4k3/8/8/8/8/8/8/4K3 w - - 0 1 ;D1 5 ;D2 25\r\n# comment\n\nid kings\nepd 4k3/8/8/8/8/8/8/4K3 w - -\n"
              "perft 1 5\n"));
  ASSERT_EQ(cases.size(), 2u);
  EXPECT_EQ(cases[0].expected, (std::vector<std::pair<int, u64>>{{1, 5}, {2, 25}}));
  EXPECT_EQ(cases[1].name, "kings");
  EXPECT_EQ(cases[1].fen, "4k3/8/8/8/8/8/8/4K3 w - -");
}

TEST(PerftSuite, RegressionKeywordWithoutArgumentIsAnError) {
  // Crashed with an uncaught std::out_of_range (line.substr past the end) before the fix.
  EXPECT_EQ(suiteError("epd", "epd\n"), ":1: 'epd' without a FEN");
  EXPECT_EQ(suiteError("id", "id\nepd 4k3/8/8/8/8/8/8/4K3 w - -\nperft 1 5\n"), "");
  EXPECT_EQ(loadPerftSuite(writeSuite("id2", "id\nepd 4k3/8/8/8/8/8/8/4K3 w - -\n"))[0].name, "line 1");
}

TEST(PerftSuite, BadCountsAreErrors) {
  EXPECT_EQ(suiteError("nosemi", "4k3/8/8/8/8/8/8/4K3 w - - 0 1\n"), ":1: expected '<fen> ;D1 <nodes> ...'");
  EXPECT_EQ(suiteError("neg", "4k3/8/8/8/8/8/8/4K3 w - - 0 1 ;D1 -5\n"), ":1: bad node count '-5' after depth 1");
  EXPECT_EQ(suiteError("deep", "4k3/8/8/8/8/8/8/4K3 w - - 0 1 ;D99 5\n"), ":1: bad depth '99' (expected 0..20)");
  EXPECT_EQ(suiteError("x", "4k3/8/8/8/8/8/8/4K3 w - - 0 1 ;Dx 5\n"), ":1: bad depth 'x' (expected 0..20)");
  EXPECT_EQ(suiteError("missing", "4k3/8/8/8/8/8/8/4K3 w - - 0 1 ;D1\n"), ":1: missing node count after ';D1'");
  EXPECT_EQ(suiteError("before", "perft 1 5\n"), ":1: 'perft' before 'epd'");
  EXPECT_EQ(suiteError("extra", "epd 4k3/8/8/8/8/8/8/4K3 w - -\nperft 1 5 6\n"),
            ":2: unexpected '6' after 'perft 1 5'");
  EXPECT_EQ(suiteError("empty", "epd 4k3/8/8/8/8/8/8/4K3 w - -\nperft\n"), ":2: bad depth '' (expected 0..20)");
  EXPECT_EQ(suiteError("huge", "4k3/8/8/8/8/8/8/4K3 w - - 0 1 ;D1 99999999999999999999999\n"),
            ":1: bad node count '99999999999999999999999' after depth 1");
}

}  // namespace
}  // namespace janus
