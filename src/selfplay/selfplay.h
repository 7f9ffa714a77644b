#pragma once
// `janus selfplay`: AlphaZero-style self-play games of the MCTS face, the data of the
// reinforcement-learning loop (docs/rl.md). Per move:
//   * Playout cap randomisation (Wu 2019, "Accelerating Self-Play Learning in Go", KataGo): with
//     probability fullFraction the move gets a full search of `visits` playouts with Dirichlet
//     noise at the root (AlphaZero: alpha 0.3, epsilon 0.25) and is a training target (its visit
//     distribution is recorded); otherwise a fast search of `fastVisits` playouts without noise,
//     not a target. Full searches give better targets, fast ones make games cheap.
//   * Move choice: for the first temperaturePlies plies a move sampled with probability
//     proportional to visits^(1/temperature) (AlphaZero: the first 30 plies, temperature 1);
//     later the most visited move.
//   * Resignation (AlphaZero): a side whose root Q stays below -resignQ for resignPlies of its
//     consecutive moves resigns. In a share noResignFraction of the games resignation is off
//     and the first side that would have resigned is recorded, so that the false-resignation rate
//     (would-resign, then not lost) is measured; AlphaZero kept it below 5%.
//   * Tablebase adjudication when Gaviota tables are given and the position has few enough pieces.
//   * Game ends by the rules (checkmate, stalemate, threefold repetition, 50 moves, insufficient
//     material) and a draw at maxPlies.
// Determinism: game g of a run with seed S uses records::gameSeed(S, g) for its start, its noise
// and its sampling, and one search thread with a fresh tree, so a chunk's games do not depend on
// the number of worker threads or shards (the backend must be deterministic, as pvnet is).
// Output: a chunked run (records/chunked_run.h) of JANUSSP files (selfplay/record.h):
// DIR/chunk-<k>.janussp.zst with the games k*chunkGames .. (k+1)*chunkGames-1,
// DIR/selfplay-run.txt with the settings.

#include <functional>
#include <map>
#include <string>

#include "records/chunked_run.h"
#include "mcts/face.h"
#include "mcts/face_options.h"
#include "mcts/mcts.h"
#include "mcts/nnue_value.h"
#include "selfplay/record.h"

namespace janus {
class GaviotaTablebases;
}

namespace janus::selfplay {

struct SelfplayConfig {
  int games = 1;                 ///< games of the run (a multiple of the chunk size for chunked runs)
  int threads = 1;               ///< worker threads, one game and one single-threaded search each
  std::string backend = "pvnet"; ///< MCTS backend name (mcts::BackendRegistry)
  std::string weights;           ///< the backend's network file ("" = the embedded one)
  std::map<std::string, std::string> backendParams;
  /// Leaf values: "net" (the backend's own value head: AlphaZero, and the only way RL trains that
  /// head's play) or "nnue" (mcts/nnue_value.h, the engine's default MCTS Value: the alpha-beta
  /// face's NNUE after the one-ply and quiescence searches of `leaf`, the backend giving the
  /// priors only). The records are the same either way: visit distributions and game results.
  std::string value = "net";
  std::string evalFile;  ///< value nnue: the NNUE network (.jnn); "" = the one embedded in the build
  /// value nnue: the network (.jnn) that values the leaves (the engine's MCTS ValueFile, e.g. a
  /// value network trained on results, read with the face's MCTS Value Scale); the alpha-beta
  /// hints keep evalFile's. "" = evalFile's network values the leaves too.
  std::string valueFile;
  /// The face's tuning settings (mcts/face_options.h; `--mcts-option NAME=VALUE`), by default the
  /// engine's default face (mcts/face.h): PUCT, hints and, with value nnue, the leaf searches
  /// (one-ply priors, quiescence, alpha-beta hints). Each move's search overrides noise (on for
  /// full searches), smart pruning (off) and the batch (`batch`).
  mcts::FaceSettings face;
  int visits = 800;              ///< playouts of a full search
  int fastVisits = 100;          ///< playouts of a fast search
  double fullFraction = 0.25;    ///< share of moves with a full search (1 = no playout cap randomisation)
  int temperaturePlies = 30;     ///< plies whose move is sampled from the visits
  double temperature = 1.0;      ///< > 0
  double resignQ = 0.95;         ///< resign below Q = -resignQ (0 = never resign)
  int resignPlies = 3;           ///< ... for this many consecutive own moves
  double noResignFraction = 0.1; ///< share of games without resignation
  int maxPlies = 400;            ///< a game reaching this many plies is a draw
  int batch = 16;                ///< MCTS batch (leaves per backend call)
  u64 seed = 1;
  std::string openings;          ///< EPD/PGN book of start positions; "" = the standard start position
  const GaviotaTablebases* tablebases = nullptr;  ///< for adjudication and leaf probes; may be null
};

/// Throws janus::Error naming the first bad field of `c`.
void checkConfig(const SelfplayConfig& c);

/// Plays one game from `start` with `search` (one thread; its params are overwritten per move)
/// and the per-game seed `seed`. Throws janus::Error if the search returns no legal move.
SelfplayGame playGame(mcts::MctsSearch& search, const Position& start, u64 seed, const SelfplayConfig& config);

/// Counts of a run (this invocation).
struct SelfplayProgress {
  u64 gamesDone = 0, gamesTotal = 0;
  u64 plies = 0;         ///< moves played
  u64 fullSearches = 0;  ///< training targets
  u64 results[3] = {0, 0, 0};  ///< by records::Wdl
  u64 ends[kGameEndCount] = {};
  u64 noResignGames = 0;       ///< games with resignation off
  u64 wouldResign = 0;         ///< ... in which a side would have resigned
  u64 falseResign = 0;         ///< ... and then did not lose
  u64 chunksDone = 0, chunksTotal = 0, chunksSkipped = 0;
  double seconds = 0;
};

/// One finished chunk file.
struct SelfplayChunk {
  u64 chunk = 0;
  std::string path;
  u64 games = 0, plies = 0, fullSearches = 0;
  double seconds = 0;  ///< wall time of this chunk
};

/// Name of a run directory's settings file and of chunk k's file ("chunk-000012.janussp.zst").
inline constexpr const char* kRunManifestName = "selfplay-run.txt";
[[nodiscard]] std::string chunkFileName(u64 chunk);

/// Plays shard run.shard/run.shards of the chunked self-play run `config` into run.dir (see the
/// header comment and records/chunked_run.h for the errors). `onProgress` about every second
/// and at the end; `onChunk` after each chunk file (both on the calling thread).
SelfplayProgress generateSelfplay(const SelfplayConfig& config, const records::ChunkedRun& run,
                                  const std::function<void(const SelfplayProgress&)>& onProgress = {},
                                  const std::function<void(const SelfplayChunk&)>& onChunk = {});

}  // namespace janus::selfplay
