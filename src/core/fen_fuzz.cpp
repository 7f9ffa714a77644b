// libFuzzer target: Position::fromFen (FEN, X-FEN, Shredder-FEN, EPD's 4-field form).
//
// Input: byte 0 = flags (bit 0: parse in Chess960 mode), the rest = the FEN text.
// Bad input must end in janus::Error (any other exception or a sanitizer report is a bug). An
// accepted position must satisfy (each checked here):
//   - fen() -> fromFen gives the same FEN text and the same Zobrist key, pawn key and checkers;
//   - incremental keys equal computeKey()/computePawnKey();
//   - isLegal(m) is true for exactly the generated moves (tried for every from/to/kind of the
//     side to move's pieces), noisy + quiet = all, countLegalMoves = legalMoves().size();
//   - perft(2) = the number of (move, reply) pairs counted through makeMove/unmakeMove, every
//     make keeps key == computeKey(), givesCheck(m) == inCheck() after the move, and every
//     unmake restores the FEN and key.

#include <cstddef>
#include <cstdint>
#include <string>

#include "core/movegen.h"
#include "core/notation.h"
#include "core/perft.h"
#include "core/position.h"
#include "util/error.h"
#include "util/fuzz_support.h"

using namespace janus;

namespace {

std::string where(const Position& pos, Move m = Move::none()) {
  return pos.fen() + (m ? " move " + toUci(m, true) + " raw " + std::to_string(m.raw()) : "");
}

void checkPosition(Position& pos) {
  using fuzz::check;
  check(pos.key() == pos.computeKey(), "key == computeKey", where(pos));
  check(pos.pawnKey() == pos.computePawnKey(), "pawnKey == computePawnKey", where(pos));
  for (Color c : {kWhite, kBlack})
    check(pos.nonPawnKey(c) == pos.computeNonPawnKey(c), "nonPawnKey == computeNonPawnKey", where(pos));
  check(pos.checkers() == (pos.attackersTo(pos.kingSquare(pos.sideToMove())) & pos.pieces(~pos.sideToMove())),
        "checkers", where(pos));

  // FEN round trip.
  const std::string fen = pos.fen();
  Position again;
  try {
    again = Position::fromFen(fen, pos.isChess960());
  } catch (const Error& e) {
    fuzz::fail("fen() output is rejected by fromFen", fen + ": " + e.what());
  }
  check(again.fen() == fen, "fromFen(fen()).fen() == fen()", fen + " -> " + again.fen());
  check(again.key() == pos.key(), "fromFen(fen()).key() == key()", fen);
  check(again.isChess960() == pos.isChess960(), "Chess960 flag survives fen()", fen);

  // Move generation agrees with itself and with isLegal.
  MoveList all = legalMoves(pos), noisy, quiet;
  generateMoves(pos, noisy, GenType::kNoisy);
  generateMoves(pos, quiet, GenType::kQuiet);
  check(noisy.size() + quiet.size() == all.size(), "noisy + quiet == all", where(pos));
  check(countLegalMoves(pos) == all.size(), "countLegalMoves == legalMoves().size()", where(pos));
  check(hasLegalMove(pos) == !all.empty(), "hasLegalMove", where(pos));
  for (Move m : noisy) check(all.contains(m) && pos.isNoisy(m), "noisy move is legal and noisy", where(pos, m));
  for (Move m : quiet) check(all.contains(m) && !pos.isNoisy(m), "quiet move is legal and quiet", where(pos, m));
  int legalCount = 0;
  Bitboard ours = pos.pieces(pos.sideToMove());
  while (ours) {
    Square from = popLsb(ours);
    for (int to = 0; to < 64; ++to) {
      for (Move::Kind kind : {Move::kNormal, Move::kEnPassant, Move::kCastling}) {
        Move m(from, Square(to), kind);
        if (pos.isLegal(m)) {
          ++legalCount;
          check(all.contains(m), "isLegal(m) implies m is generated", where(pos, m));
        }
      }
      for (PieceType pt : {kKnight, kBishop, kRook, kQueen}) {
        Move m(from, Square(to), Move::kPromotion, pt);
        if (pos.isLegal(m)) {
          ++legalCount;
          check(all.contains(m), "isLegal(m) implies m is generated", where(pos, m));
        }
      }
    }
  }
  check(legalCount == all.size(), "isLegal accepts exactly the generated moves",
        where(pos) + ": " + std::to_string(legalCount) + " vs " + std::to_string(all.size()));

  // perft(2) through make/unmake.
  const u64 key = pos.key();
  u64 pairs = 0;
  for (Move m : all) {
    bool predictedCheck = pos.givesCheck(m);
    pos.makeMove(m);
    check(pos.key() == pos.computeKey(), "key after makeMove == computeKey", where(pos, m));
    check(pos.pawnKey() == pos.computePawnKey(), "pawnKey after makeMove", where(pos, m));
    for (Color c : {kWhite, kBlack})
      check(pos.nonPawnKey(c) == pos.computeNonPawnKey(c), "nonPawnKey after makeMove", where(pos, m));
    check(predictedCheck == pos.inCheck(), "givesCheck(m) == inCheck() after m", fen + " " + toUci(m, true));
    pairs += u64(legalMoves(pos).size());
    pos.unmakeMove(m);
    check(pos.key() == key && pos.fen() == fen, "unmakeMove restores the position", fen + " " + toUci(m, true));
  }
  check(perft(pos, 2) == pairs, "perft(2) == sum of replies", where(pos));
  check(pos.fen() == fen, "perft restores the position", fen);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const bool chess960 = data[0] & 1;
  std::string_view fen(reinterpret_cast<const char*>(data + 1), size - 1);
  Position pos;
  try {
    pos = Position::fromFen(fen, chess960);
  } catch (const Error&) {
    return 0;  // rejected with a message: fine
  }
  checkPosition(pos);
  return 0;
}
