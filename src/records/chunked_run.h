#pragma once
// Chunked, sharded, resumable runs: the machinery shared by every long job that writes many
// games into a directory (`janus datagen`, `janus selfplay`). A run of C chunks numbered 0..C-1
// lives in one directory; chunk k is one file, written atomically (temporary name, fsync,
// rename) when its last game is over, so a chunk file that exists is complete and is the only
// state of the run. Shard I of N handles the chunks k with k mod N = I - 1, so shards are
// disjoint and their union is the whole run whatever N is; nothing coordinates them, any job
// scheduler can start them. A manifest file records the settings that decide the games' content:
// the first shard creates it (create-once via link(2)), every later shard and every --resume
// compares its own settings with it. A shard holds an exclusive flock(2) on
// DIR/shard-I-of-N.lock while it runs.

#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/position.h"
#include "core/types.h"
#include "util/hash.h"

namespace janus::records {

/// Seed of game `game` (0-based global index) of a run with seed `seed`:
/// splitmix64(splitmix64(seed) + game) (util/hash.h). Hashing the run's seed first makes runs
/// with different seeds (e.g. 1 and 2) play unrelated games instead of the same games shifted by
/// one index. A game depends only on its seed, so a chunk depends only on the run's seed and the
/// chunk's index.
[[nodiscard]] constexpr u64 gameSeed(u64 seed, u64 game) { return splitmix64(splitmix64(seed) + game); }

/// FNV-1a 64 (util/hash.h) of the start positions' FENs, each followed by a newline: identifies
/// an opening book's content in a chunked run's settings (datagen and selfplay).
[[nodiscard]] u64 startPositionsHash(const std::vector<Position>& starts);

/// Largest shard count a run may be split into.
inline constexpr int kMaxShards = 100000;

/// Where and which part of a chunked run to play (see the header comment).
struct ChunkedRun {
  std::string dir;       ///< run directory (created if missing)
  int chunkGames = 200;  ///< games per chunk file
  int shard = 1;         ///< this shard, 1..shards
  int shards = 1;        ///< number of shards the run is split into
  bool resume = false;   ///< skip this shard's chunk files that exist; without it they are an error
};

/// The chunks of shard `shard` (1-based) of `shards` among chunks 0..chunks-1, ascending:
/// k with k % shards == shard - 1.
[[nodiscard]] std::vector<u64> shardChunks(u64 chunks, int shard, int shards);

/// Parses a shard "I/N" (1 <= I <= N, N <= 100000). Throws janus::Error("bad --shard '<text>':
/// ...") otherwise.
[[nodiscard]] std::pair<int, int> parseShard(const std::string& text);

/// The settings file of a run.
struct RunManifest {
  std::string fileName;  ///< e.g. "datagen-run.txt"
  std::string tool;      ///< the command, for messages, e.g. "janus datagen"
  std::string text;      ///< the whole file (comment lines starting with '#', then "key value" lines)
  std::vector<std::pair<std::string, std::string>> settings;  ///< the key/value lines compared on resume
  /// Settings added in later versions: the value a manifest without the key was made with (a
  /// missing key then compares as this value, so older runs can be resumed).
  std::map<std::string, std::string> legacyDefaults;
};

/// One shard of a chunked run, opened: the directory exists, the manifest matches, the shard's
/// lock is held (until destruction) and the chunks still to play are known.
class ChunkedRunShard {
 public:
  /// Opens shard run.shard/run.shards of a run of `chunks` chunks in run.dir; chunk k's file is
  /// run.dir/chunkName(k). Throws janus::Error (naming the directory or file) for a bad shard, a
  /// directory that cannot be created, chunk files ("chunk-*") without a manifest, settings that
  /// differ from the manifest (naming the first), an existing chunk of this shard without
  /// run.resume, or the same shard running elsewhere (lock held).
  ChunkedRunShard(const ChunkedRun& run, u64 chunks, const RunManifest& manifest,
                  const std::function<std::string(u64)>& chunkName);
  ~ChunkedRunShard();
  ChunkedRunShard(const ChunkedRunShard&) = delete;
  ChunkedRunShard& operator=(const ChunkedRunShard&) = delete;

  /// This shard's chunks without a file yet, ascending.
  [[nodiscard]] const std::vector<u64>& todo() const { return m_todo; }
  /// This shard's chunks whose file existed (skipped with run.resume).
  [[nodiscard]] u64 skipped() const { return m_skipped; }
  /// Path of chunk k's file.
  [[nodiscard]] std::string chunkPath(u64 k) const;

 private:
  std::string m_dir;
  std::function<std::string(u64)> m_chunkName;
  int m_lockFd = -1;
  std::vector<u64> m_todo;
  u64 m_skipped = 0;
};

}  // namespace janus::records
