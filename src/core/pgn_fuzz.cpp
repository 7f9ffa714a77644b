// libFuzzer target: PgnReader (plain text) and writePgn.
//
// Input: PGN text, read from memory. The reader must never throw on bad text (it records a
// PgnError and resynchronises); games it returns must round-trip: writePgn(game) read back gives
// exactly one game, no error, the same start position, moves, comments and result, and writing
// that game again gives the same text. The comment command parsers (parseEvalComment,
// parseClockComment) run on every comment.

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "core/notation.h"
#include "core/pgn.h"
#include "util/error.h"
#include "util/fuzz_support.h"

using namespace janus;

namespace {

void checkRoundTrip(const PgnGame& game) {
  using fuzz::check;
  check(game.comments.size() == game.moves.size(), "one comment slot per move");
  std::string first;
  try {
    first = writePgn(game);
  } catch (const Error& e) {
    fuzz::fail("writePgn rejects a game the reader returned", e.what());
  }
  std::istringstream in(first);
  PgnReader reader(in, "written");
  PgnGame back;
  check(reader.next(back), "the written game is read back", first);
  check(reader.errors().empty(), "the written game reads without error",
        first + "\n--> " + (reader.errors().empty() ? "" : reader.errors().front().message));
  PgnGame extra;
  check(!reader.next(extra), "the written text holds exactly one game", first);
  check(back.moves == game.moves, "moves survive writePgn", first);
  check(back.comments == game.comments, "comments survive writePgn", first);
  check(back.preComment == game.preComment, "the comment before the first move survives writePgn", first);
  check(back.result == game.result, "the result survives writePgn", first);
  check(back.startPosition().fen() == game.startPosition().fen(), "the start position survives writePgn", first);
  std::string second = writePgn(back);
  check(second == first, "writePgn(read(writePgn(game))) == writePgn(game)", first + "\n---\n" + second);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  PgnReader reader(in, "fuzz");
  PgnGame game;
  for (int games = 0; games < 32; ++games) {
    bool more = false;
    try {
      more = reader.next(game);
    } catch (const Error& e) {
      fuzz::fail("PgnReader::next threw on an in-memory stream", e.what());
    }
    if (!more) break;
    checkRoundTrip(game);
    for (const std::string& c : game.comments) {
      (void)parseEvalComment(c);
      (void)parseClockComment(c);
    }
  }
  for (const PgnError& e : reader.errors()) fuzz::check(!e.message.empty() && e.line > 0, "errors name a line");
  return 0;
}
