#pragma once
// Training positions from PGN games (`janus tune --pgn`, `janus datagen --pgn`): every position
// of every finished game's main line, with the game's result, read with core's PgnReader.
//
// Filter (the same as datagen's, so that positions are quiet): a position is taken when the
// side to move is not in check, the move played from it is not a capture, en passant or
// promotion, and at least `skipPlies` plies have been played since the game's start position
// (book moves say little about the evaluation). Games with result "*" are skipped. The score is
// the [%eval] comment of the move that led to the position (Lichess style, White's view; mate in
// N as +-(32000 - (2N - 1)) for the winner), else kNoScore.

#include <functional>
#include <string>
#include <vector>

#include "core/types.h"
#include "datagen/format.h"

namespace janus::datagen {

struct PgnExtractOptions {
  int skipPlies = 8;  ///< plies from the start position that are never taken
};

struct PgnExtractStats {
  u64 games = 0;               ///< finished games used
  u64 unfinished = 0;          ///< games with result "*" (skipped)
  u64 malformed = 0;           ///< games the PGN reader skipped (see errors)
  u64 positions = 0;           ///< records produced
  u64 results[3] = {0, 0, 0};  ///< used games by Wdl
  std::vector<std::string> errors;  ///< "<file>:<line>: <message>" of malformed games (first 100)
};

/// Reads `path` (.pgn, plain or zstd-compressed) and calls `sink` for every taken position.
/// Throws janus::Error if the file cannot be read; malformed games are counted and skipped.
PgnExtractStats extractPgnPositions(const std::string& path, const PgnExtractOptions& options,
                                    const std::function<void(const PackedRecord&)>& sink);

}  // namespace janus::datagen
