// libFuzzer target: opening books for `janus match` (loadOpenings: EPD lines or PGN games) and
// openingOrder.
//
// Input: byte 0 = flags (bit 0: force Chess960, bit 1: read as PGN, else EPD), bytes 1-8 = the
// order's start and seed, the rest = the file. A bad entry must be skipped with an error line
// naming the file and line; a book without a valid opening must end in janus::Error. Every
// opening returned must be playable: its start position parses, its moves are legal, and the
// position after them has a legal move. openingOrder must return a permutation.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "core/movegen.h"
#include "match/openings.h"
#include "util/error.h"
#include "util/fuzz_support.h"

using namespace janus;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 9) return 0;
  static fuzz::InputFile epdFile(".epd"), pgnFile(".pgn");
  const bool chess960 = data[0] & 1, pgn = data[0] & 2;
  i32 start = 0;
  u32 seed = 0;
  std::memcpy(&start, data + 1, 4);
  std::memcpy(&seed, data + 5, 4);
  const std::string& path = (pgn ? pgnFile : epdFile).write(data + 9, size - 9);

  match::OpeningBook book;
  try {
    book = match::loadOpenings(path, chess960);
  } catch (const Error& e) {
    fuzz::check(std::string(e.what()).find(path) != std::string::npos, "book errors name the file", e.what());
    return 0;
  }
  fuzz::check(!book.openings.empty(), "a loaded book has openings");
  for (const std::string& e : book.errors) fuzz::check(e.rfind(path + ":", 0) == 0, "entry errors name the file", e);
  for (const match::Opening& o : book.openings) {
    Position pos;
    try {
      pos = o.startPosition();
    } catch (const Error& e) {
      fuzz::fail("an opening's start position does not parse", o.fen + ": " + e.what());
    }
    for (Move m : o.moves) {
      fuzz::check(legalMoves(pos).contains(m), "opening moves are legal", o.fen);
      pos.makeMove(m);
    }
    fuzz::check(hasLegalMove(pos), "an opening leaves a legal move", pos.fen());
  }
  int count = int(std::min<size_t>(book.openings.size(), 1000));
  std::vector<int> order = match::openingOrder(count, start, seed & 1, seed);
  std::sort(order.begin(), order.end());
  for (int i = 0; i < count; ++i) fuzz::check(order[size_t(i)] == i, "openingOrder is a permutation");
  return 0;
}
