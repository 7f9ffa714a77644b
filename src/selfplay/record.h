#pragma once
// Self-play training records ("JANUSSP"), version 1: what `janus selfplay` writes and
// `janus train-az` reads for the reinforcement-learning loop (docs/rl.md). A file holds whole
// games, so that a reader can rebuild every position with its history (the input planes need
// the last 8 positions) by replaying the moves from the game's start position.
//
// A file is a 32-byte FileHeader then games; the whole file may be zstd-compressed (written
// compressed when the name ends in ".zst", detected by the zstd magic when read). Little-endian.
//
// FileHeader (32 bytes)
//   offset size  field
//        0    8  magic      "JANUSSP\0"
//        8    2  version    u16, kSelfplayVersion (1)
//       10    2  reserved   u16, 0
//       12    4  flags      u32, 0
//       16    8  gameCount  u64, games that follow, or records::kStreamingCount (all bits set)
//       24    8  reserved   u64, 0
//
// Game: a 40-byte GameHeader, then `plies` ply entries.
//   GameHeader
//        0    4  plies      u32, moves played (0..kMaxGamePlies)
//        4    1  result     u8, 0 Black won, 1 draw, 2 White won (records::Wdl)
//        5    1  end        u8, GameEnd code (core/game_end.h; self-play ends with 0-7:
//                           checkmate, stalemate, repetition, 50 moves, insufficient material,
//                           resignation, tablebase, length limit)
//        6    1  flags      u8, bit 0: resignation was disabled in this game (to measure false
//                           resignations); bit 1: White would have resigned in it; bit 2: Black
//                           would have resigned in it; bits 3-7: 0
//        7    1  reserved   u8, 0
//        8   32  start      the start position as a JANUSDAT PackedPosition
//                           (records/janusdat_format.h; score kNoScore, wdl = result)
//   Ply entry: 8 bytes + 4 per visit entry
//        0    2  move       u16, policy index (encoding/policy_map.h, side to move's view) of
//                           the move played; exactly one legal move has it
//        2    1  flags      u8, bit 0: full search (a training target: playout cap
//                           randomisation, KataGo); bit 1: the move was sampled from the visit
//                           distribution (temperature) rather than the most visited; bits 2-7: 0
//        3    1  reserved   u8, 0
//        4    2  q          i16, the root's Q (visit-weighted mean of the root moves' Q), side to
//                           move's view, times 32767
//        6    2  entries    u16, number of visit entries (0 for fast searches; at most 256)
//        8  4*n  visits     n x {u16 policy index, u16 share}: the root moves' share of the
//                           search's visits times 65535 (rounded); each index is a legal move's
//
// A reader rejects (naming the file and the game) a wrong magic, version, flags or reserved
// fields, a game longer than kMaxGamePlies, a result or end out of range, a start record that does
// not decode, policy indices out of range, more than 256 entries, and a truncated game.
// replayGame() also checks that every move and visit index is a legal move of its position.

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/game_end.h"
#include "core/position.h"
#include "records/janusdat_format.h"
#include "util/zstd_stream.h"

namespace janus::selfplay {

inline constexpr char kSelfplayMagic[8] = {'J', 'A', 'N', 'U', 'S', 'S', 'P', '\0'};
inline constexpr u16 kSelfplayVersion = 1;
inline constexpr u32 kMaxGamePlies = 2048;
inline constexpr int kMaxVisitEntries = 256;

inline constexpr u8 kGameNoResign = 1, kGameWhiteWouldResign = 2, kGameBlackWouldResign = 4;
inline constexpr u8 kPlyFullSearch = 1, kPlySampled = 2;

/// One root move's share of the visits.
struct VisitShare {
  u16 policyIndex = 0;
  u16 share = 0;  ///< visits / total visits * 65535, rounded
};

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
