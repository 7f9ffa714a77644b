#pragma once
// Self-play training records ("JANUSSP"), version 1: the one definition of the bytes that
// `janus selfplay` writes and `janus train-az` reads for the reinforcement-learning loop
// (docs/rl.md). The reader and writer are selfplay/record.h's SelfplayReader and
// SelfplayWriter. Header-only and free of engine code. A file holds whole games, so that a reader
// can rebuild every position with its history (the input planes need the last 8 positions) by
// replaying the moves from the game's start position.
//
// A file is a 32-byte SelfplayFileHeader then games; the whole file may be zstd-compressed (written
// compressed when the name ends in ".zst", detected by the zstd magic when read). Little-endian.
//
// SelfplayFileHeader (32 bytes)
//   offset size  field
//        0    8  magic      "JANUSSP\0"
//        8    2  version    u16, kSelfplayVersion (1)
//       10    2  reserved   u16, 0
//       12    4  flags      u32, 0
//       16    8  gameCount  u64, games that follow, or kStreamingCount (all bits set)
//       24    8  reserved   u64, 0
//
// Game: a 40-byte SelfplayGameHeader, then `plies` ply entries.
//   SelfplayGameHeader
//        0    4  plies      u32, moves played (0..kMaxGamePlies)
//        4    1  result     u8, 0 Black won, 1 draw, 2 White won (Wdl of records/janusdat_format.h)
//        5    1  end        u8, GameEnd code (core/game_end.h; self-play ends with 0-7:
//                           checkmate, stalemate, repetition, 50 moves, insufficient material,
//                           resignation, tablebase, length limit)
//        6    1  flags      u8, bit 0: resignation was disabled in this game (to measure false
//                           resignations); bit 1: White would have resigned in it; bit 2: Black
//                           would have resigned in it; bits 3-7: 0
//        7    1  reserved   u8, 0
//        8   32  start      the start position as a JANUSDAT PackedPosition (records/janusdat_format.h;
//                           score kNoScore, wdl = result)
//   Ply entry: a SelfplayPlyHeader (8 bytes), then `entries` SelfplayVisitEntry (4 bytes each)
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
// What a reader rejects, and how it names the file and the game: selfplay/record.h.

#include <cstddef>
#include <cstdint>

#include "records/janusdat_format.h"

namespace janus::records {

/// File magic: "JANUSSP" and a NUL byte.
inline constexpr char kSelfplayMagic[8] = {'J', 'A', 'N', 'U', 'S', 'S', 'P', '\0'};
/// The version written and read.
inline constexpr std::uint16_t kSelfplayVersion = 1;
/// Most plies a game may hold.
inline constexpr std::uint32_t kMaxGamePlies = 2048;
/// Most visit entries a ply may hold.
inline constexpr int kMaxVisitEntries = 256;

/// SelfplayGameHeader::flags bits.
inline constexpr std::uint8_t kGameNoResign = 1, kGameWhiteWouldResign = 2, kGameBlackWouldResign = 4;
inline constexpr std::uint8_t kKnownGameFlags = kGameNoResign | kGameWhiteWouldResign | kGameBlackWouldResign;
/// SelfplayPlyHeader::flags bits.
inline constexpr std::uint8_t kPlyFullSearch = 1, kPlySampled = 2;
inline constexpr std::uint8_t kKnownPlyFlags = kPlyFullSearch | kPlySampled;

#pragma pack(push, 1)
struct SelfplayFileHeader {
  char magic[8];
  std::uint16_t version;
  std::uint16_t reserved0;
  std::uint32_t flags;
  std::uint64_t gameCount;
  std::uint64_t reserved1;
};
struct SelfplayGameHeader {
  std::uint32_t plies;
  std::uint8_t result;
  std::uint8_t end;
  std::uint8_t flags;
  std::uint8_t reserved;
  PackedPosition start;
};
struct SelfplayPlyHeader {
  std::uint16_t move;
  std::uint8_t flags;
  std::uint8_t reserved;
  std::int16_t q;
  std::uint16_t entries;
};
/// One visit entry after a SelfplayPlyHeader.
struct SelfplayVisitEntry {
  std::uint16_t policyIndex;
  std::uint16_t share;  ///< visits / total visits * 65535, rounded
};
#pragma pack(pop)

// The layout above is the format: every field at its documented offset, no padding.
static_assert(sizeof(SelfplayFileHeader) == 32 && offsetof(SelfplayFileHeader, version) == 8 &&
              offsetof(SelfplayFileHeader, flags) == 12 && offsetof(SelfplayFileHeader, gameCount) == 16 &&
              offsetof(SelfplayFileHeader, reserved1) == 24);
static_assert(sizeof(SelfplayGameHeader) == 40 && offsetof(SelfplayGameHeader, result) == 4 &&
              offsetof(SelfplayGameHeader, end) == 5 && offsetof(SelfplayGameHeader, flags) == 6 &&
              offsetof(SelfplayGameHeader, start) == 8);
static_assert(sizeof(SelfplayPlyHeader) == 8 && offsetof(SelfplayPlyHeader, flags) == 2 &&
              offsetof(SelfplayPlyHeader, q) == 4 && offsetof(SelfplayPlyHeader, entries) == 6);
static_assert(sizeof(SelfplayVisitEntry) == 4);

}  // namespace janus::records
