#pragma once
// Training positions from PGN games (`janus tune --pgn`, `janus datagen --pgn`): positions of
// every finished game's main line, with the game's result, read with core's PgnReader while
// streaming (memory does not grow with the file: one game, one line and a few buffers).
//
// Taken: a position is taken when at least `skipPlies` plies have been played since the game's
// start position (book moves say little about the evaluation) and a move was played from it
// (the final position is never taken). With `quietOnly` (the default; `janus tune`) it must also
// not be in check and the move played from it must not be a capture, en passant or promotion,
// as version 1 datagen kept; without it (`janus datagen --pgn`) every such position is taken and
// the record's flags say which are noisy or in check (records/janusdat_format.h). The score is
// the [%eval] comment of the move that led to the position (Lichess style, White's view; mate in
// N as +-(32000 - (2N - 1)) for the winner), else kNoScore. Each record holds the move played
// from its position (best = 0: no search), and the game's last taken record holds the game end
// (pgnGameEnd), as JANUSDAT version 3 defines.
//
// Skipped games, counted by reason: games of another variant ([Variant "..."] other than
// standard chess ("Standard", "Chess", "Normal", "From Position", or none) and Chess960
// ("Chess960", "Fischerandom", ...)), counted per variant name; unfinished games (result "*");
// malformed games (what PgnReader rejects: illegal or unparsable moves, bad FEN, ...). Variant
// games are recognised from their tag section by a line filter in front of the reader and never
// parsed, so that e.g. Crazyhouse drops are not counted as malformed; the filter replaces their
// lines by empty lines, so the line numbers of the reader's errors stay those of the file.

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/game_end.h"
#include "core/pgn.h"
#include "core/position.h"
#include "core/types.h"
#include "records/janusdat_format.h"

namespace janus::datagen {

struct PgnExtractOptions {
  int skipPlies = 8;       ///< plies from the start position that are never taken
  bool quietOnly = true;   ///< take only quiet positions (not in check, quiet move played); see above
};

struct PgnExtractStats {
  u64 games = 0;               ///< finished games used
  u64 unfinished = 0;          ///< games with result "*" (skipped)
  u64 malformed = 0;           ///< games the PGN reader rejected (see errors), variant games not included
  u64 variantGames = 0;        ///< games of another variant (skipped, never parsed): the sum of `variants`
  std::map<std::string, u64> variants;  ///< variant games by [Variant] value (at most 32 names, then "(other)")
  u64 positions = 0;           ///< records produced
  u64 results[3] = {0, 0, 0};  ///< used games by Wdl
  std::vector<std::string> errors;  ///< "<file>:<line>: <message>" of malformed games (first 100)

  /// The skipped games by reason, e.g. "3 variant 'Crazyhouse', 1 variant 'Atomic', 2
  /// unfinished (*), 1 malformed"; "none" if nothing was skipped.
  [[nodiscard]] std::string skippedSummary() const;
};

/// The score of a move's comment as a record stores it (see above): the [%eval] in centipawns
/// (clamped to +-30000) or a mate as +-(32000 - (2N - 1)), White's view; kNoScore without one.
[[nodiscard]] int pgnCommentScore(const std::string& comment);

/// Reads `path` (.pgn, plain or zstd-compressed) and calls `onGame` for every finished game of
/// standard chess or Chess960, in file order, with its start position and result (White's view);
/// `game.moves` are legal from `start` and `game.comments[i]` belongs to move i. Skipped games
/// (variant, unfinished, malformed) are counted as by extractPgnPositions; `games` and `results`
/// count the games passed on, `positions` stays 0. Throws like extractPgnPositions.
PgnExtractStats forEachPgnGame(const std::string& path,
                               const std::function<void(const PgnGame& game, const Position& start, records::Wdl result)>& onGame);

/// How a PGN game ended, from its final position `final` (after the last move) and its result:
/// an end by the rules (rulesGameEnd) if the final position shows one; else from the Termination
/// tag (PGN standard 9.8.1, case-insensitive): "time forfeit" kTimeForfeit, "rules infraction"
/// kIllegalMove, "abandoned" kCrash, "stalled connection" kStall, "adjudication"
/// kAdjudicatedWin or kAdjudicatedDraw; otherwise ("normal", absent, ...) kResignation for a
/// decisive game and kAgreedDraw for a draw.
[[nodiscard]] GameEnd pgnGameEnd(const PgnGame& game, const Position& final, records::Wdl result);

/// Reads `path` (.pgn, plain or zstd-compressed) and calls `sink` for every taken position, in
/// file order. Throws janus::Error naming the file if it cannot be opened or read (e.g. corrupt
/// zstd data); malformed, unfinished and variant games are counted and skipped.
PgnExtractStats extractPgnPositions(const std::string& path, const PgnExtractOptions& options,
                                    const std::function<void(const records::PackedRecord&)>& sink);

}  // namespace janus::datagen
