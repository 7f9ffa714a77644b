// libFuzzer target: Polyglot book loading (PolyglotBook::fromBytes) and probing.
//
// Input: the bytes of a .bin book (seeds: slices of tests/data/books/performance.bin and
// entries made for the start position). Properties: a malformed book is a janus::Error naming the
// book; a loaded book only ever returns moves that are legal in the probed position (probe() and
// both pick() modes), along a line of up to 12 book moves from the start position.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "book/polyglot.h"
#include "core/movegen.h"
#include "core/position.h"
#include "util/error.h"
#include "util/fuzz_support.h"

using namespace janus;

namespace {

bool isLegal(const Position& pos, Move m) { return legalMoves(pos).contains(m); }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  PolyglotBook book;
  try {
    book = PolyglotBook::fromBytes(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.bin");
  } catch (const Error& e) {
    fuzz::check(std::string(e.what()).find("fuzz.bin") != std::string::npos, "book errors name the book", e.what());
    return 0;
  }
  fuzz::check(book.size() * 16 == size, "a loaded book has one entry per 16 bytes");
  Position pos;
  for (int ply = 0; ply < 12; ++ply) {
    for (const BookEntry& e : book.probe(pos))
      fuzz::check(isLegal(pos, e.move), "probe() returns legal moves", pos.fen());
    Move random = book.pick(pos, BookPickMode::kWeightedRandom, u64(ply));
    fuzz::check(random == Move::none() || isLegal(pos, random), "weighted pick() is legal", pos.fen());
    Move best = book.pick(pos, BookPickMode::kBest, u64(0));
    if (best == Move::none()) break;
    fuzz::check(isLegal(pos, best), "best pick() is legal", pos.fen());
    pos.makeMove(best);
  }
  return 0;
}
