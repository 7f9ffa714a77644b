// libFuzzer target: PgnReader::open on a file that may be zstd-compressed (openInputFile's
// streaming decompressor, util/zstd_stream.cpp, feeding the PGN reader).
//
// Input: the bytes of the file (seeds are zstd-compressed PGN files). Corrupt or truncated zstd
// data must end in janus::Error naming the file; anything else is read as PGN. Reading stops
// after 8 MiB of decompressed text so that a small zstd bomb only costs time, not a timeout.

#include <cstddef>
#include <cstdint>
#include <string>

#include "core/pgn.h"
#include "util/error.h"
#include "util/fuzz_support.h"

using namespace janus;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static fuzz::InputFile file;
  const std::string& path = file.write(data, size);
  try {
    auto reader = PgnReader::open(path);
    PgnGame game;
    while (reader->bytesRead() < (u64(8) << 20) && reader->next(game))
      fuzz::check(game.comments.size() == game.moves.size(), "one comment slot per move");
  } catch (const Error& e) {
    fuzz::check(std::string(e.what()).find(path) != std::string::npos, "stream errors name the file", e.what());
  }
  return 0;
}
