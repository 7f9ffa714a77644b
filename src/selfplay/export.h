#pragma once
// Training positions from self-play games: the JANUSSP games of `janus selfplay` (the MCTS face
// playing itself) as JANUSDAT records (records/janusdat_format.h, version 3), so that the NNUE
// trainer (`janus train-nnue`), which reads JANUSDAT, can learn from the MCTS face's own games
// (issue 74 item 4: a value network of the MCTS face trained on its game results). Command:
// `janus datagen --selfplay FILES --output FILE` (docs/rl.md).
//
// Each ply of a game gives one record: the position before the move (replayed from the game's
// start, selfplay::replayGame), the move played, the game's result, and as score the root's Q of
// the ply's search turned into centipawns by the one Q <-> centipawn mapping of the engine
// (search/wdl.h qToCentipawns at the position's material; within +-4000, so a train-nnue
// --max-score of 3000 drops the decided positions), White's view as JANUSDAT stores it. A full
// search's record names the most visited root move as its best move (fast searches: none). The
// last record taken from a game holds the game's end (setGameEnd), as the PGN conversion does.
// With `fullSearchesOnly`, only the plies of full searches (playout cap randomisation's training
// targets, whose Q came from the larger search) are taken.

#include <functional>
#include <string>

#include "core/types.h"
#include "records/janusdat_format.h"

namespace janus::selfplay {

struct SelfplayExportStats {
  u64 games = 0;               ///< games read
  u64 positions = 0;           ///< records produced
  u64 results[3] = {0, 0, 0};  ///< games by result (records::Wdl, White's view)
};

/// Reads JANUSSP file `path` (plain or zstd) and calls `sink` for every taken position (see
/// above), in file order. Throws janus::Error naming the file and the game for what SelfplayReader
/// and replayGame reject (a malformed file, an illegal move index).
SelfplayExportStats exportSelfplayPositions(const std::string& path, bool fullSearchesOnly,
                                            const std::function<void(const records::PackedRecord&)>& sink);

}  // namespace janus::selfplay
