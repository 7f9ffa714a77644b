#pragma once
// Opening positions for a match: read from EPD (one FEN per line, EPD operations ignored) or PGN
// (a start position plus moves, read with core's PgnReader), and the order games use them in.

#include <string>
#include <vector>

#include "core/position.h"

namespace janus::match {

struct Opening {
  std::string fen;          ///< start position (FEN / X-FEN); "" = the standard start position
  std::vector<Move> moves;  ///< moves played from `fen` before the engines take over (PGN books)
  bool chess960 = false;    ///< Chess960 castling rules
  std::string name;         ///< ECO / Opening tag or EPD "id", may be empty
  int line = 0;             ///< 1-based line in the source file

  /// The position the opening starts from (before `moves`). Throws janus::Error for a bad FEN.
  [[nodiscard]] Position startPosition() const;
};

struct OpeningBook {
  std::vector<Opening> openings;
  /// One message per skipped entry: "book.epd:12: FEN field 2 ...". Bad entries never stop loading.
  std::vector<std::string> errors;
};

/// Loads openings from `path`: PGN when the name ends in .pgn or .pgn.zst, EPD otherwise.
/// `chess960` forces Chess960 castling for every opening (Chess960 is also detected per opening
/// from X-FEN/Shredder-FEN castling or a PGN Variant tag). Throws janus::Error if the file cannot
/// be read or holds no valid opening.
[[nodiscard]] OpeningBook loadOpenings(const std::string& path, bool chess960);

/// Parses one EPD/FEN line (4 to 6 FEN fields, then optional EPD operations such as
/// `id "x";` that are ignored except for `id`). Throws janus::Error naming the problem.
[[nodiscard]] Opening parseEpdLine(const std::string& line, bool chess960);

/// Path of the opening book shipped with Janus (data/openings/ in the source tree, found from
/// the build's JANUS_DATA_DIR or next to the executable). Throws janus::Error if it is missing.
[[nodiscard]] std::string defaultOpeningBook();

/// Order in which a match uses `count` openings: index of the opening for game pair p is
/// order[p % count]. Sequential from `start` (0-based), or a shuffle with the given seed
/// (Fisher-Yates over a 64-bit mt19937, reproducible across platforms).
[[nodiscard]] std::vector<int> openingOrder(int count, int start, bool random, u64 seed);

}  // namespace janus::match
