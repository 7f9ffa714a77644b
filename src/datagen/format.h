#pragma once
// Janus training-data file format ("JANUSDAT"), version 2: the one definition of the bytes that
// `janus datagen` writes and `janus tune` (and any future trainer) reads. Header-only and free of
// engine code (only <cstdint> and friends) so that a trainer can include it on its own
// (STYLE.md practice 13). The position record follows the idea of marlinformat (Jamie Whiting's
// packed board used by bullet/Stormphrax, https://github.com/jnlt3/marlinformat): occupancy
// bitboard plus 4-bit pieces, 32 bytes per position.
//
// A file is a 32-byte FileHeader followed by records of header.recordSize (32) bytes. The whole
// file may be zstd-compressed (one or more frames; detected by the zstd magic number when read,
// written compressed when the name ends in ".zst"). All integers are little-endian.
//
// FileHeader (32 bytes)
//   offset size  field
//        0    8  magic        "JANUSDAT" (ASCII, no terminator)
//        8    2  version      u16, kFormatVersion (2) when written; 1 and 2 are read
//       10    2  recordSize   u16, sizeof(PackedRecord) (32)
//       12    4  flags        u32, must be 0 (versions 1 and 2)
//       16    8  recordCount  u64, number of records that follow, or kStreamingCount (all bits
//                             set): unknown, read records until the end of the file
//       24    8  reserved     u64, must be 0
//
// PackedRecord (32 bytes)
//   offset size  field
//        0    8  occupancy    u64, bit s set if square s is occupied (a1 = bit 0, h8 = bit 63)
//        8   16  pieces       32 nibbles: nibble i is the piece on the i-th lowest set bit of
//                             occupancy; nibble i is the low nibble of byte i / 2 when i is even,
//                             the high nibble when i is odd. Unused nibbles are 0.
//                             Nibble = colour << 3 | code: colour 0 White, 1 Black; code 0 pawn,
//                             1 knight, 2 bishop, 3 rook, 4 queen, 5 king, 6 rook that still has
//                             its castling right (king side or queen side follows from the rook's
//                             file relative to its king; this also covers Chess960).
//       24    1  stmEp        bits 0-6: en passant square (0..63; 64 = none), set only when an
//                             en passant capture is legal; bit 7: side to move (0 White, 1 Black)
//       25    1  halfmove     u8, halfmove clock (plies since capture or pawn move), saturated at 255
//       26    2  fullmove     u16, full-move number as in FEN (starts at 1), saturated at 65535
//       28    2  score        i16, search score of the position in centipawns from WHITE's point
//                             of view; mate scores are +-(32000 - plies to mate) as in
//                             search/score.h; kNoScore (-32768) when the source had no score
//       30    1  wdl          u8, final game result from WHITE's point of view:
//                             0 Black won, 1 draw, 2 White won
//       31    1  flags        bit 0: Chess960 castling rules
//                             bit 1: the move played from this position was a capture, an en
//                                    passant capture or a promotion ("noisy"); recordNoisyMove()
//                             bit 2: the side to move is in check; recordInCheck()
//                             bits 3-7 must be 0
//
// Versions: version 2 has the same 32-byte layout as version 1 and only adds the meaning of
// flag bits 1 and 2. In version 1 they must be 0 (bits 1-7 were reserved), so a version 1 file
// reads as version 2 with both bits 0, which is accurate for the files Janus wrote then: version
// 1 writers recorded only quiet positions (not in check, no capture/promotion played).
// Version 2 self-play records every position an engine moved from, noisy or in check, and leaves
// the choice of positions to the trainer's loader (recordQuiet() is the old filter).
//
// A reader must reject a file whose magic, version (other than 1 or 2), recordSize or reserved
// fields differ, and a record with an unknown piece code, a bad en passant square, a wdl above 2
// or flag bits set that its file's version does not define (recordFlagsValid()). Changing the
// layout means a new version number.

#include <bit>
#include <cstddef>
#include <cstdint>

namespace janus::datagen {

/// File magic: the 8 ASCII bytes "JANUSDAT".
inline constexpr char kMagic[8] = {'J', 'A', 'N', 'U', 'S', 'D', 'A', 'T'};
/// Version written by this code; it reads kMinFormatVersion..kFormatVersion.
inline constexpr std::uint16_t kFormatVersion = 2;
/// Oldest version this code reads (version 1: flag bits 1 and 2 not yet defined, always 0).
inline constexpr std::uint16_t kMinFormatVersion = 1;
/// FileHeader::recordCount of a file whose writer did not know the count in advance.
inline constexpr std::uint64_t kStreamingCount = ~std::uint64_t(0);

/// PackedRecord::score when the source had no score (e.g. PGN games without [%eval]).
inline constexpr std::int16_t kNoScore = -32768;

/// Piece codes of the 4-bit nibbles (without the colour bit 3).
enum PieceCode : std::uint8_t {
  kCodePawn = 0,
  kCodeKnight = 1,
  kCodeBishop = 2,
  kCodeRook = 3,
  kCodeQueen = 4,
  kCodeKing = 5,
  kCodeCastlingRook = 6,  ///< rook with a castling right
};
inline constexpr std::uint8_t kBlackBit = 8;

/// Game result from White's point of view.
enum Wdl : std::uint8_t { kBlackWin = 0, kDraw = 1, kWhiteWin = 2 };

inline constexpr std::uint8_t kStmEpNone = 64;       ///< en passant field: no square
inline constexpr std::uint8_t kStmBlackBit = 0x80;   ///< stmEp bit 7: Black to move
inline constexpr std::uint8_t kFlagChess960 = 0x01;    ///< PackedRecord::flags bit 0: Chess960 castling
inline constexpr std::uint8_t kFlagNoisyMove = 0x02;   ///< bit 1 (v2): the move played was a capture, e.p. or promotion
inline constexpr std::uint8_t kFlagInCheck = 0x04;     ///< bit 2 (v2): the side to move is in check
inline constexpr std::uint8_t kRecordFlagsV1 = kFlagChess960;                                ///< bits defined by version 1
inline constexpr std::uint8_t kRecordFlagsV2 = kFlagChess960 | kFlagNoisyMove | kFlagInCheck;  ///< bits defined by version 2

struct FileHeader {
  char magic[8];
  std::uint16_t version;
  std::uint16_t recordSize;
  std::uint32_t flags;
  std::uint64_t recordCount;
  std::uint64_t reserved;
};

struct PackedRecord {
  std::uint64_t occupancy;
  std::uint8_t pieces[16];
  std::uint8_t stmEp;
  std::uint8_t halfmove;
  std::uint16_t fullmove;
  std::int16_t score;
  std::uint8_t wdl;
  std::uint8_t flags;

  /// Nibble i of the piece list (colour << 3 | code).
  [[nodiscard]] constexpr std::uint8_t piece(int i) const { return (pieces[i / 2] >> (4 * (i & 1))) & 0xF; }
  constexpr void setPiece(int i, std::uint8_t nibble) {
    pieces[i / 2] = std::uint8_t((pieces[i / 2] & (0xF0 >> (4 * (i & 1)))) | ((nibble & 0xF) << (4 * (i & 1))));
  }
  [[nodiscard]] constexpr bool blackToMove() const { return stmEp & kStmBlackBit; }
  [[nodiscard]] constexpr int epSquare() const { return stmEp & 0x7F; }  ///< 64 = none
  [[nodiscard]] constexpr bool chess960() const { return flags & kFlagChess960; }
  [[nodiscard]] constexpr bool hasScore() const { return score != kNoScore; }
};

/// Flag bit 1: the move played from the record's position was a capture (en passant included)
/// or a promotion. Always false in version 1 files (which held only quiet positions).
[[nodiscard]] constexpr bool recordNoisyMove(const PackedRecord& r) { return r.flags & kFlagNoisyMove; }
/// Flag bit 2: the side to move is in check. Always false in version 1 files.
[[nodiscard]] constexpr bool recordInCheck(const PackedRecord& r) { return r.flags & kFlagInCheck; }
/// Neither noisy nor in check: the positions version 1 datagen kept (static-eval tuning wants them).
[[nodiscard]] constexpr bool recordQuiet(const PackedRecord& r) { return !(r.flags & (kFlagNoisyMove | kFlagInCheck)); }
/// True if the record sets only flag bits that file format `version` defines (false for a
/// version this code does not read).
[[nodiscard]] constexpr bool recordFlagsValid(const PackedRecord& r, std::uint16_t version) {
  const std::uint8_t defined = version == 1 ? kRecordFlagsV1 : version == 2 ? kRecordFlagsV2 : 0;
  return defined != 0 && (r.flags & ~defined) == 0;
}

// The layout above is the format: every field at its documented offset, no padding.
static_assert(std::endian::native == std::endian::little, "the JANUSDAT format is little-endian on disk");
static_assert(sizeof(FileHeader) == 32);
static_assert(offsetof(FileHeader, version) == 8 && offsetof(FileHeader, recordSize) == 10 &&
              offsetof(FileHeader, flags) == 12 && offsetof(FileHeader, recordCount) == 16 &&
              offsetof(FileHeader, reserved) == 24);
static_assert(sizeof(PackedRecord) == 32);
static_assert(offsetof(PackedRecord, pieces) == 8 && offsetof(PackedRecord, stmEp) == 24 &&
              offsetof(PackedRecord, halfmove) == 25 && offsetof(PackedRecord, fullmove) == 26 &&
              offsetof(PackedRecord, score) == 28 && offsetof(PackedRecord, wdl) == 30 &&
              offsetof(PackedRecord, flags) == 31);

/// A header for `count` records (kStreamingCount if unknown).
constexpr FileHeader makeFileHeader(std::uint64_t count) {
  FileHeader h{};
  for (int i = 0; i < 8; ++i) h.magic[i] = kMagic[i];
  h.version = kFormatVersion;
  h.recordSize = sizeof(PackedRecord);
  h.flags = 0;
  h.recordCount = count;
  h.reserved = 0;
  return h;
}

}  // namespace janus::datagen
