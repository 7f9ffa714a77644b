#pragma once
// Opening names and ECO codes of positions, from Lichess's chess-openings tables (CC0 1.0; the
// committed src/server/openings_data.inc, written by tools/make-openings.py). A position is found
// by its FEN without the move counters, so transpositions are named too, as on Lichess. The table
// is built on first use (about 3800 lines replayed with the core's SAN parser, a few ms).

#include <string>
#include <string_view>
#include <vector>

namespace janus::server {

struct Opening {
  std::string eco;   ///< "C60"
  std::string name;  ///< "Ruy Lopez: Morphy Defense"
};

/// The named opening whose position is `fen` (a full FEN; only the placement, side to move,
/// castling and en-passant fields count), or nullptr. Thread-safe.
[[nodiscard]] const Opening* findOpening(std::string_view fen);

/// Openings along a game: for each ply i (0..fens.size()-1) whose FEN is a named position, the
/// pair (i, opening), in ply order. The game's opening is the last one.
[[nodiscard]] std::vector<std::pair<int, const Opening*>> openingsOf(const std::vector<std::string>& fens);

}  // namespace janus::server
