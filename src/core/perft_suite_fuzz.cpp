// libFuzzer target: loadPerftSuite (EPD perft lines "<fen> ;D1 20 ;D2 400" and python-chess's
// "id / epd / perft" blocks), as `janus perftsuite` and tools/perft-suite.sh use it.
//
// Input: the bytes of a suite file. A malformed entry must end in janus::Error naming the file
// and line; every case returned has (depth, nodes) pairs with depth in 0..kMaxPerftSuiteDepth, and its FEN
// is then set up (janus::Error allowed) and counted to depth 1 as the command would.

#include <cstddef>
#include <cstdint>
#include <string>

#include "core/perft.h"
#include "util/error.h"
#include "util/fuzz_support.h"

using namespace janus;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static fuzz::InputFile file;
  const std::string& path = file.write(data, size);
  std::vector<PerftCase> cases;
  try {
    cases = loadPerftSuite(path);
  } catch (const Error& e) {
    fuzz::check(std::string(e.what()).find(path) != std::string::npos, "suite errors name the file", e.what());
    return 0;
  }
  for (const PerftCase& c : cases) {
    for (auto [depth, nodes] : c.expected)
      fuzz::check(depth >= 0 && depth <= kMaxPerftSuiteDepth, "depths are in 0..kMaxPerftSuiteDepth", c.name);
    try {
      Position pos = Position::fromFen(c.fen);
      (void)perft(pos, 1);
    } catch (const Error&) {
    }
  }
  return 0;
}
