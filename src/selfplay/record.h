#pragma once
// Reading and writing self-play training records ("JANUSSP", records/janussp_format.h defines
// the bytes): what `janus selfplay` writes and `janus train-az` reads for the reinforcement-
// learning loop (docs/rl.md). A file holds whole games, so that a reader can rebuild every
// position with its history (the input planes need the last 8 positions) by replaying the moves
// from the game's start position.
//
// A reader rejects (naming the file and the game) a wrong magic, version, flags or reserved
// fields, a game longer than kMaxGamePlies, a result or end out of range, a start record that does
// not decode, policy indices out of range, more than 256 entries, and a truncated game.
// replayGame() also checks that every move and visit index is a legal move of its position.

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/game_end.h"
#include "core/position.h"
#include "records/janusdat_format.h"
#include "records/janussp_format.h"
#include "util/zstd_stream.h"

namespace janus::selfplay {

// The format's constants, part of this reader's and writer's interface.
using records::kGameBlackWouldResign;
using records::kGameNoResign;
using records::kGameWhiteWouldResign;
using records::kMaxGamePlies;
using records::kMaxVisitEntries;
using records::kPlyFullSearch;
using records::kPlySampled;
using records::kSelfplayMagic;
using records::kSelfplayVersion;

/// One root move's share of the visits.
/// (Read and written as records::SelfplayVisitEntry: the same two u16 fields.)
struct VisitShare {
  u16 policyIndex = 0;
  u16 share = 0;  ///< visits / total visits * 65535, rounded
};
static_assert(sizeof(VisitShare) == sizeof(records::SelfplayVisitEntry) &&
              offsetof(VisitShare, share) == offsetof(records::SelfplayVisitEntry, share));

/// One move of a game.
struct SelfplayPly {
  u16 move = 0;  ///< policy index of the move played
  u8 flags = 0;  ///< kPlyFullSearch, kPlySampled
  i16 q = 0;     ///< root Q * 32767, side to move's view
  std::vector<VisitShare> visits;  ///< empty for fast searches
  [[nodiscard]] bool fullSearch() const { return flags & kPlyFullSearch; }
};

struct SelfplayGame {
  records::PackedPosition start{};
  records::Wdl result = records::kDraw;
  GameEnd end = GameEnd::kMaxPlies;
  u8 flags = 0;  ///< kGameNoResign, kGameWhiteWouldResign, kGameBlackWouldResign
  std::vector<SelfplayPly> plies;
};

/// Writes a JANUSSP file atomically (temporary name, fsync, rename on commit()); zstd when the
/// path ends in ".zst". Throws janus::Error on write errors or a game that breaks the limits.
class SelfplayWriter {
 public:
  /// `games`: the count for the header, or std::nullopt for a streaming header.
  explicit SelfplayWriter(const std::string& path, std::optional<u64> games = std::nullopt);
  void write(const SelfplayGame& game);
  /// Finishes and renames the file; throws if a declared count was not met.
  void commit();
  [[nodiscard]] u64 written() const { return m_written; }

 private:
  OutputFile m_out;
  std::optional<u64> m_count;
  u64 m_written = 0;
};

/// Reads a JANUSSP file game by game (errors: see the header comment, janus::Error naming the
/// file and the game's index).
class SelfplayReader {
 public:
  explicit SelfplayReader(const std::string& path);
  /// Reads the next game; false at the valid end of the file.
  bool next(SelfplayGame& game);
  [[nodiscard]] u64 index() const { return m_index; }
  [[nodiscard]] const std::string& path() const { return m_path; }

 private:
  std::string m_path;
  std::unique_ptr<std::istream> m_in;
  std::optional<u64> m_declared;
  u64 m_index = 0;
};

/// Every game of a file.
[[nodiscard]] std::vector<SelfplayGame> readSelfplayFile(const std::string& path);

/// Replays `game`: calls onPly(pos, move, ply) for every ply with `pos` the position before the
/// move (with its history: Position's undo stack holds the earlier positions of the game) and
/// `move` the decoded legal move. Throws janus::Error("game <where>: ply <i>: ...") when the
/// start does not decode, a move index matches no legal move, or a visit index is not a legal
/// move's.
void replayGame(const SelfplayGame& game, const std::string& where,
                const std::function<void(const Position& pos, Move move, const SelfplayPly& ply)>& onPly);

}  // namespace janus::selfplay
