// libFuzzer target: SAN and UCI move parsing (parseSan, parseUci) and SAN/UCI writing.
//
// Input: the first line is a FEN (or, when it does not parse, byte 0 picks one of a few built-in
// positions); every following whitespace-separated word is tried as SAN and as UCI (both castling
// notations) in the current position; a word that parses is played (up to 12 plies), so inputs
// walk through games.
// Bad words must end in janus::Error. Properties checked for every position reached:
//   - for every legal move m: parseSan(toSan(m)) == m and parseUci(toUci(m, mode)) == m (both
//     castling modes in standard chess, king-takes-rook in Chess960 positions); the SAN ends in
//     '#' exactly when the move mates and '+' when it checks;
//   - a word accepted by parseSan/parseUci names a legal move, and toSan of it parses back to it.

#include <cstddef>
#include <cstdint>
#include <string>

#include "core/movegen.h"
#include "core/notation.h"
#include "core/position.h"
#include "util/error.h"
#include "util/fuzz_support.h"

using namespace janus;

namespace {

constexpr const char* kPositions[] = {
    Position::kStartFen,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",  // Kiwipete
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",                               // promotions
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",     // Chess960
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",          // en passant
    "6k1/8/8/8/Q2Q4/8/8/Q3K3 w - - 0 1",                                     // disambiguation
};

void checkAllMoves(const Position& pos) {
  for (Move m : legalMoves(pos)) {
    std::string san = toSan(pos, m);
    std::string ctx = pos.fen() + " " + toUci(m, true) + " '" + san + "'";
    Move back = Move::none();
    try {
      back = parseSan(pos, san);
    } catch (const Error& e) {
      fuzz::fail("toSan output is rejected by parseSan", ctx + ": " + e.what());
    }
    fuzz::check(back == m, "parseSan(toSan(m)) == m", ctx);
    Position after = pos;
    after.makeMove(m);
    bool mate = after.inCheck() && !hasLegalMove(after);
    fuzz::check((san.back() == '#') == mate, "SAN has '#' exactly for mates", ctx);
    fuzz::check((san.back() == '+') == (after.inCheck() && !mate), "SAN has '+' exactly for checks", ctx);
    for (bool chess960 : {false, true}) {
      // Standard castling notation (king to g/c file) can be ambiguous in Chess960 positions
      // (king f1, rook h1: "f1g1" is also a king step), which is why UCI_Chess960 exists.
      if (!chess960 && pos.isChess960()) continue;
      try {
        fuzz::check(parseUci(pos, toUci(m, chess960), chess960) == m, "parseUci(toUci(m)) == m", ctx);
      } catch (const Error& e) {
        fuzz::fail("toUci output is rejected by parseUci", ctx + ": " + e.what());
      }
    }
  }
}

void checkParsed(const Position& pos, Move m, std::string_view word) {
  std::string ctx = pos.fen() + " '" + std::string(word) + "'";
  fuzz::check(legalMoves(pos).contains(m), "a parsed move is legal", ctx);
  fuzz::check(parseSan(pos, toSan(pos, m)) == m, "toSan of a parsed move parses back", ctx);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  size_t nl = text.find('\n');
  std::string_view first = text.substr(0, nl);
  std::string_view rest = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);

  Position pos;
  try {
    pos = Position::fromFen(first);
  } catch (const Error&) {
    pos = Position::fromFen(kPositions[data[0] % std::size(kPositions)]);
    rest = text.substr(1);
  }
  checkAllMoves(pos);

  int plies = 0;
  while (!rest.empty() && plies < 12) {
    size_t b = rest.find_first_not_of(" \t\r\n");
    if (b == std::string_view::npos) break;
    rest.remove_prefix(b);
    size_t e = rest.find_first_of(" \t\r\n");
    std::string_view word = rest.substr(0, e);
    rest.remove_prefix(e == std::string_view::npos ? rest.size() : e);

    Move played = Move::none();
    try {
      Move m = parseSan(pos, word);
      checkParsed(pos, m, word);
      played = m;
    } catch (const Error&) {
    }
    for (bool chess960 : {false, true}) {
      try {
        Move m = parseUci(pos, word, chess960);
        checkParsed(pos, m, word);
        if (!played) played = m;
      } catch (const Error&) {
      }
    }
    if (played) {
      pos.makeMove(played);
      ++plies;
      checkAllMoves(pos);
    }
  }
  return 0;
}
