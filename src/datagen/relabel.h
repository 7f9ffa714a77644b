#pragma once
// Relabelling (`janus relabel`): re-scores every record of a JANUSDAT file with an external UCI
// engine, e.g. Stockfish at a fixed depth, so that a trainer learns from a stronger teacher than
// the engine that played the games.
//
// For each record, in file order: the position is decoded (validated like any read), sent to
// one of `jobs` engine processes as "position fen <FEN>" after "ucinewgame" (a cleared hash, so
// the score does not depend on which process got the record or what it searched before), then
// "go depth D" or "go nodes N". The last score the engine reports for its principal variation
// ("info ... score cp X" / "score mate N") replaces the record's score, converted to White's
// view; mate in N moves becomes ±(32000 − plies) as records/janusdat_format.h wants (N > 0:
// 32000 − (2N − 1); N < 0: −(32000 − 2|N|); "mate 0": −32000). A search that reports no score leaves kNoScore.
// The engine's bestmove replaces the record's best move (an illegal or unparsable bestmove is
// an error). Everything else of the record is kept (the move played and the game end of a
// version 3 input; 0 for a version 1 or 2 input, whose games the output cannot know either),
// except that the in-check flag (bit 2) is set from the position, so a version 1 input's flags
// become correct (its noisy bit stays 0: version 1 files held only quiet positions). The output
// is version 3. Chess960 records switch their engine to
// UCI_Chess960 (setoption before the position, and back for standard records).
//
// The output has the input's records in the input's order (whatever the number of engines) and
// is written atomically (DataWriter: nothing at the output path unless every record was done).

#include <chrono>
#include <functional>
#include <optional>
#include <string>

#include "core/types.h"
#include "match/engine_config.h"

namespace janus::datagen {

struct RelabelConfig {
  std::string input;            ///< JANUSDAT file to read (version 1, 2 or 3, plain or .zst)
  std::string output;           ///< JANUSDAT file to write (".zst": compressed); may not be `input`
  match::EngineConfig engine;   ///< the UCI engine (janus match --engine spec; its depth=/nodes= are defaults)
  std::optional<int> depth;     ///< go depth D ...
  std::optional<u64> nodes;     ///< ... or go nodes N: exactly one of the two (here or in `engine`)
  int jobs = 1;                 ///< engine processes searching at once
  std::chrono::milliseconds timeout{60000};  ///< per position: the engine must answer within this
};

struct RelabelProgress {
  u64 done = 0;               ///< records relabelled (and written, at the end)
  std::optional<u64> total;   ///< records in the input, if its header declares them
  u64 noScore = 0;            ///< searches that reported no score (record keeps kNoScore)
  u64 mates = 0;              ///< records that got a mate score
  double seconds = 0;         ///< wall time so far
};

/// Runs the relabelling. `onProgress` is called on the calling thread about once a second and
/// once at the end. Throws janus::Error for: no or both of depth and nodes, jobs < 1, output
/// equal to input; an input that cannot be read or has a bad header or record (naming the file
/// and the record index); an engine that cannot be started or does not answer the handshake
/// (naming the engine and its command); an engine that exits or does not send "bestmove" within
/// `timeout` (naming the engine, the record index and its FEN); a write error. The output file
/// then does not appear.
RelabelProgress relabelFile(const RelabelConfig& config,
                            const std::function<void(const RelabelProgress&)>& onProgress = {});

/// The record score (White's view, records/janusdat_format.h units) of a UCI score reported for
/// the side to move `blackToMove`. Mate in N moves as described in the header comment.
[[nodiscard]] int relabelScore(bool mate, int value, bool blackToMove);

}  // namespace janus::datagen
