#pragma once
// Move and square notation: UCI long algebraic ("e2e4", "e7e8q") and Standard Algebraic
// Notation (PGN spec section 8.2.3, "Nbd7", "exd6", "O-O-O", "e8=Q+").
//
// UCI castling follows the UCI protocol: "e1g1" (king to its destination) in standard chess;
// "e1h1" (king takes rook) when the UCI_Chess960 option is on.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/position.h"

namespace janus {

/// "e4" for kE4.
[[nodiscard]] std::string squareToString(Square s);
/// Parses "a1".."h8"; std::nullopt for anything else.
[[nodiscard]] std::optional<Square> parseSquare(std::string_view s);

/// UCI string of a move: "e2e4", "a7a8q", "0000" for the null move and Move::none().
/// Castling is "e1g1" unless `chess960` (then king-takes-rook, "e1h1").
[[nodiscard]] std::string toUci(Move m, bool chess960);

/// Parses a UCI move and returns the legal move it names in `pos`. Both castling notations are
/// accepted (the one matching `chess960` is tried first). Throws janus::Error if the text is not
/// a UCI move ("move 'e2e9': not a UCI move") or names no legal move ("illegal move 'e2e5' in
/// position <FEN>").
[[nodiscard]] Move parseUci(const Position& pos, std::string_view text, bool chess960);

/// SAN of a legal move in `pos`, with minimal disambiguation and "+"/"#" suffixes.
[[nodiscard]] std::string toSan(const Position& pos, Move m);

/// Parses SAN (also accepts "0-0", promotion without '=', and trailing annotations such as
/// "!?", "+", "#"). Throws janus::Error naming the text and why: not SAN, no legal move
/// matches, or ambiguous.
[[nodiscard]] Move parseSan(const Position& pos, std::string_view text);

/// The arguments of a UCI "position" command (UCI spec: position [fen <fenstring> | startpos]
/// moves <move1> ... <movei>), split but not yet checked against the rules.
struct UciPositionArgs {
  std::string fen;                 ///< "startpos" or the FEN fields joined by single blanks
  std::vector<std::string> moves;  ///< UCI move texts after "moves"
};
/// Splits "startpos [moves ...]" or "fen <FEN> [moves ...]". Throws janus::Error: "position:
/// expected 'startpos' or 'fen <FEN>', got 'X'", "position: expected 'moves', got 'X'",
/// "position fen: missing FEN".
[[nodiscard]] UciPositionArgs splitUciPosition(std::string_view args);

}  // namespace janus
