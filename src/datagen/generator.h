#pragma once
// Self-play data generation (`janus datagen`): fixed-node games of Janus against itself from
// opening-book positions plus a few random plies; every position an engine moved from is
// recorded with its search score, its flags (noisy move played, in check:
// records/janusdat_format.h) and, once the game is over, the game's result.
//
// One game:
//   1. Opening: a book entry chosen by the game's random generator, then random plies
//      (StartRandomisation): R or R + 1 uniformly random legal moves, retried if they end the
//      game or if a search of the resulting position (same node limit as the game's moves)
//      scores it beyond ±scoreLimit centipawns; after 8 failed lines the book position is used.
//      Both guards exist because random moves are often blunders: with a fixed R from a book
//      whose lines all end with White to move, the last random move is always the same colour's
//      and the other side, searching first, wins far more often (docs/tuning.md has the counts).
//   2. Every move: `go nodes K` on a 1-thread Engine with a small hash (cleared before each game).
//   3. Recorded (JANUSDAT version 3, records/janusdat_format.h), in game order, each with its
//      search score (White's view), kFlagInCheck when the side to move is in check and kFlagNoisyMove when the
//      move played is a capture, en passant or promotion:
//      - the positions of the random plies (book position included), each searched with the
//        game's node limit: played = the random move, best = the search's move, flags2 bit 0
//        (opening ply);
//      - the position before each engine move: played = best = the engine's move.
//      The game's last record carries gameEnd = 1 + the GameEnd code (core/game_end.h). A
//      position where the game ended by the rules (no move was played) is not recorded; when a
//      game is adjudicated, its last record's `played` is the move the engine chose there (not
//      played on the board), so within a game record i + 1 is record i's position after `played`.
//   4. End: by the rules (checkmate, stalemate, threefold repetition, 50-move rule, insufficient
//      material) or by adjudication (Adjudication below).
//
// Determinism: game g uses its own seed records::gameSeed(seed, g) (records/chunked_run.h; the
// game's random generator is seeded with splitmix64 of it) and a fresh hash and histories, and
// games are written in index order, so the output depends only on (games, nodes, openings,
// randomisation, seed, adjudication, hash) and not on the number of threads or on timing.
//
// Chunked runs (generateChunks, `janus datagen --output-dir DIR`): the run's games are numbered
// globally 0..games-1 and cut into chunks of chunkGames games; chunk k holds games
// k*chunkGames .. (k+1)*chunkGames-1 with the same seeds gameSeed(seed, g) as a single-file run,
// in DIR/chunk-<k, 6 digits>.janusdat.zst, written atomically when its last game is over.
// Shard I of N plays the chunks k with k mod N = I - 1, so shards are disjoint and their union
// is the whole run whatever N is (a chunk's content does not depend on N). DIR/datagen-run.txt
// records the settings that decide a game's content; every shard and every --resume must match
// it. Nothing coordinates the shards: a finished chunk file is the only state.

#include <functional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "core/game_end.h"
#include "core/position.h"
#include "records/chunked_run.h"
#include "records/janusdat_format.h"

namespace janus {
class Engine;
}

namespace janus::datagen {

/// How a self-play game leaves the book (generator.h, step 1).
struct StartRandomisation {
  int plies = 4;         ///< R: random legal plies after the book position (R or R + 1, each with probability 1/2)
  int scoreLimit = 200;  ///< centipawns; lines whose start position a search scores beyond ± this are redrawn; 0 = no check
};

/// Adjudication of self-play games from the searches' scores (centipawns, White's view).
struct Adjudication {
  int winScore = 1000;  ///< |score| >= winScore with the same sign ...
  int winPlies = 4;     ///< ... after this many consecutive engine moves: that side wins
  int drawScore = 10;   ///< |score| <= drawScore ...
  int drawPlies = 12;   ///< ... after this many consecutive engine moves ...
  int drawMinPly = 80;  ///< ... once the game (counted from the start position) is this many plies long: draw
  int maxPlies = 400;   ///< a game reaching this many plies is a draw
};

struct DatagenConfig {
  int games = 1;        ///< games of the run (a chunked run: of all shards together, a multiple of chunkGames)
  u64 nodes = 5000;     ///< nodes per move (UCI go nodes)
  int threads = 1;      ///< worker threads, each with its own Engine
  std::string output;   ///< JANUSDAT file (".zst": compressed); unused by generateChunks
  std::string openings; ///< EPD or PGN book; "" = the shipped book (match::defaultOpeningBook())
  StartRandomisation randomisation;  ///< random plies after the book position (step 1 above)
  u64 seed = 1;
  int hashMiB = 4;      ///< hash per engine (MiB)
  Adjudication adjudication;
  /// The evaluation of the engines: "" = the engine's default (the built-in NNUE network, or
  /// the hand-crafted evaluation in a build without one), "hce" = the hand-crafted evaluation,
  /// anything else = an NNUE network file (.jnn). A chunked run records the evaluation it
  /// resolves to (evaluationSetting()), so data of one run come from one evaluation.
  std::string evaluation;
};

/// Sets `engine`'s evaluation as DatagenConfig::evaluation says. Throws janus::Error for a
/// network file that cannot be loaded (the message names the file and the problem).
void applyEvaluation(Engine& engine, const std::string& evaluation);
/// What DatagenConfig::evaluation resolves to: "hce" or "nnue nn-<16 hex digits>" (the content
/// hash of the network). Runs made before the setting existed used "hce" (no build embedded a
/// network then). Throws as applyEvaluation.
[[nodiscard]] std::string evaluationSetting(const std::string& evaluation);

/// Output of one game.
struct GameOutcome {
  std::vector<records::PackedRecord> records;  ///< opening plies then engine moves, the result and game end filled in
  records::Wdl result = records::kDraw;
  GameEnd end = GameEnd::kMaxPlies;
  int plies = 0;                      ///< engine moves played
  int openingPlies = 0;               ///< random plies recorded before the engine moves
  Position start;                     ///< where the engine moves began: the book position plus the random plies
};

/// randomPlies or randomPlies + 1 uniformly random legal moves from `base` (the extra ply with
/// probability 1/2, drawn from `rng` first), such that the position they lead to is not a
/// finished game (checkmate, stalemate, insufficient material, repetition); up to 8 attempts,
/// then no move (stay at `base`). randomPlies <= 0 returns no move and draws nothing from `rng`.
[[nodiscard]] std::vector<Move> randomOpening(const Position& base, std::mt19937_64& rng, int randomPlies);

/// Plays one self-play game on `engine` (whose Threads/Hash options the caller set) from
/// `start`: random plies from `seed` (checked by searches of `nodes` nodes when
/// randomisation.scoreLimit > 0; each random ply's position is then searched with `nodes` for its
/// record), then `nodes` per move. newGame() is called before the game. The searches come in a
/// fixed order (accepted check, opening positions, game), so the outcome depends only on the
/// arguments and the engine's settings.
[[nodiscard]] GameOutcome playGame(Engine& engine, const Position& start, u64 seed,
                                   const StartRandomisation& randomisation, u64 nodes,
                                   const Adjudication& adjudication);

/// Progress of generateData() and generateChunks() (counts of this invocation).
struct DatagenProgress {
  int gamesDone = 0;
  int gamesTotal = 0;         ///< games this invocation plays (a resumed shard: its missing chunks only)
  u64 positions = 0;          ///< records written (opening plies and engine moves)
  u64 plies = 0;              ///< engine moves played
  u64 openingPlies = 0;       ///< random opening plies recorded
  u64 results[3] = {0, 0, 0}; ///< games by Wdl (index kBlackWin, kDraw, kWhiteWin)
  u64 ends[kGameEndCount] = {};  ///< games by GameEnd code
  double seconds = 0;         ///< wall time so far
  u64 chunksDone = 0;         ///< generateChunks: chunk files written by this invocation
  u64 chunksTotal = 0;        ///< generateChunks: chunk files this invocation writes
  u64 chunksSkipped = 0;      ///< generateChunks: chunks of this shard that existed already (--resume)
};

/// Runs the whole generation: config.threads workers, writing config.output atomically (nothing
/// appears there unless every game finished). `onProgress` is called on the calling thread about
/// once a second and once at the end. Throws janus::Error for a bad configuration, an unreadable
/// opening book or a write error.
DatagenProgress generateData(const DatagenConfig& config,
                             const std::function<void(const DatagenProgress&)>& onProgress = {});

// ---- Chunked runs (records/chunked_run.h) --------------------------------------------------------

/// Name of the settings file in a run directory.
inline constexpr const char* kRunManifestName = "datagen-run.txt";

/// File name of chunk `chunk` (0-based) in a run directory: "chunk-000123.janusdat.zst" (the
/// number has at least 6 digits).
[[nodiscard]] std::string chunkFileName(u64 chunk);

/// A chunk file written by generateChunks.
struct ChunkReport {
  u64 chunk = 0;        ///< chunk index
  std::string path;     ///< the file
  u64 positions = 0;    ///< records in it
  double seconds = 0;   ///< wall time since the previous chunk of this invocation (or its start)
};

/// Plays shard run.shard/run.shards of the chunked run `config` (config.games games in all,
/// config.output unused) into run.dir, writing each chunk atomically as soon as its last game is
/// over, and calls `onChunk` (calling thread) after each file. Progress as in generateData.
/// The first shard to start writes run.dir/datagen-run.txt (atomically: link(2) of a private
/// temporary name); later ones and --resume compare their settings with it. A shard holds an
/// exclusive flock(2) on run.dir/shard-I-of-N.lock while it runs.
///
/// Throws janus::Error (naming the directory or file) for: a bad configuration (as
/// generateData, plus chunkGames < 1, games not a multiple of chunkGames, a bad shard); a
/// directory that cannot be created; chunk files without a datagen-run.txt (not a chunked run
/// of this version); settings that differ from datagen-run.txt (naming the first one); a chunk
/// of this shard that exists without run.resume; the same shard running elsewhere (lock held);
/// and write errors. Finished chunks stay on disk whatever happens later.
DatagenProgress generateChunks(const DatagenConfig& config, const records::ChunkedRun& run,
                               const std::function<void(const DatagenProgress&)>& onProgress = {},
                               const std::function<void(const ChunkReport&)>& onChunk = {});

}  // namespace janus::datagen
