#pragma once
// Janus training-data file format ("JANUSDAT"), version 3: the one definition of the bytes that
// `janus datagen` writes and `janus tune`, `janus train-nnue` and `janus train-az` read.
// Header-only and free of engine code (only <cstdint> and friends) so that a trainer can include
// it on its own. The position part of a record follows the idea of marlinformat (Jamie Whiting's
// packed board used by bullet/Stormphrax, https://github.com/jnlt3/marlinformat): occupancy
// bitboard plus 4-bit pieces, 32 bytes per position.
//
// A file is a 32-byte FileHeader followed by records of header.recordSize bytes (40 in version
// 3, 32 in versions 1 and 2). The whole file may be zstd-compressed (one or more frames; detected
// by the zstd magic number when read, written compressed when the name ends in ".zst"). All
// integers are little-endian.
//
// FileHeader (32 bytes)
//   offset size  field
//        0    8  magic        "JANUSDAT" (ASCII, no terminator)
//        8    2  version      u16, kFormatVersion (3) when written; 1, 2 and 3 are read
//       10    2  recordSize   u16, 40 in version 3 (sizeof(PackedRecord)), 32 in versions 1 and 2
//                             (sizeof(PackedPosition))
//       12    4  flags        u32, must be 0
//       16    8  recordCount  u64, number of records that follow, or kStreamingCount (all bits
//                             set): unknown, read records until the end of the file
//       24    8  reserved     u64, must be 0
//
// Record, version 3 (40 bytes): PackedPosition (bytes 0-31) followed by the move fields.
// PackedPosition (32 bytes; the whole record of versions 1 and 2)
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
//                             bit 1 (v2+): the move played from this position was a capture, an
//                                    en passant capture or a promotion ("noisy"); recordNoisyMove()
//                             bit 2 (v2+): the side to move is in check; recordInCheck()
//                             bits 3-7 must be 0
// Move fields (version 3)
//       32    2  played       u16 PackedMove: the move played from this position; 0 = unknown or
//                             none. In the last record of a game adjudicated before its move was
//                             played, the move the engine chose.
//       34    2  best         u16 PackedMove: the best move of a search of this position; equals
//                             `played` for engine moves; for an opening ply (flags2 bit 0) the
//                             move the search chose while a random move was played; 0 when the
//                             position was not searched
//       36    1  gameEnd      u8, 0: the game continues after this record; otherwise this is the
//                             last record of its game and gameEnd - 1 is the GameEnd code of
//                             core/game_end.h: 0 checkmate, 1 stalemate, 2 threefold repetition,
//                             3 50-move rule, 4 insufficient material, 5 resignation, 6 tablebase,
//                             7 length limit, 8 adjudicated win, 9 adjudicated draw, 10 time
//                             forfeit, 11 illegal move, 12 crash, 13 stall, 14 agreed draw (so at
//                             most 15)
//       37    1  flags2       bit 0: opening ply: `played` was drawn at random, not chosen by the
//                             search (kFlag2OpeningPly); bits 1-7 must be 0
//       38    2  reserved     u16, must be 0
//
// PackedMove (u16), independent of the engine's Move type:
//   bits 0-5 from square, bits 6-11 to square (a1 = 0 .. h8 = 63), bits 12-14 promotion piece
//   (0 none, 1 knight, 2 bishop, 3 rook, 4 queen), bit 15 must be 0. Castling is written as the
//   king's square to its castling rook's square (e1h1 for White's king-side castling in standard
//   chess), one form for standard chess and Chess960. 0 means no move (from = to = a1 is no move).
//
// Versions: version 2 has the 32-byte layout of version 1 and only adds the meaning of flag bits
// 1 and 2. In version 1 they must be 0 (bits 1-7 were reserved), so a version 1 file reads as
// version 2 with both bits 0, which is accurate for the files Janus wrote then: version 1 writers
// recorded only quiet positions (not in check, no capture/promotion played). Version 2 self-play
// records every position an engine moved from, noisy or in check, and leaves the choice of
// positions to the trainer's loader (recordQuiet() is the old filter). Version 3 appends the move
// played, the search's best move and the game end to every record, so a reader needs no move
// search to link consecutive positions and knows where each game ends; a version 1 or 2 record
// reads as a version 3 record with played = best = 0, gameEnd = 0 and flags2 = 0.
//
// A reader must reject a file whose magic, version (other than 1, 2 or 3), recordSize or
// reserved fields differ, and a record with an unknown piece code, a bad en passant square, a wdl
// above 2, flag bits that its file's version does not define (recordFlagsValid()), or (version 3)
// a malformed PackedMove, a gameEnd above kMaxGameEnd, flags2 bits 1-7 or a nonzero reserved field
// (recordTailError()). Changing the layout means a new version number.

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>

namespace janus::records {

/// File magic: the 8 ASCII bytes "JANUSDAT".
inline constexpr char kMagic[8] = {'J', 'A', 'N', 'U', 'S', 'D', 'A', 'T'};
/// Version written by this code; it reads kMinFormatVersion..kFormatVersion.
inline constexpr std::uint16_t kFormatVersion = 3;
/// Oldest version this code reads (version 1: flag bits 1 and 2 not yet defined, always 0).
inline constexpr std::uint16_t kMinFormatVersion = 1;
/// FileHeader::recordCount of a file whose writer did not know the count in advance.
inline constexpr std::uint64_t kStreamingCount = ~std::uint64_t(0);

/// PackedPosition::score when the source had no score (e.g. PGN games without [%eval]).
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
inline constexpr std::uint8_t kFlagChess960 = 0x01;    ///< PackedPosition::flags bit 0: Chess960 castling
inline constexpr std::uint8_t kFlagNoisyMove = 0x02;   ///< bit 1 (v2+): the move played was a capture, e.p. or promotion
inline constexpr std::uint8_t kFlagInCheck = 0x04;     ///< bit 2 (v2+): the side to move is in check
inline constexpr std::uint8_t kRecordFlagsV1 = kFlagChess960;                                ///< bits defined by version 1
inline constexpr std::uint8_t kRecordFlagsV2 = kFlagChess960 | kFlagNoisyMove | kFlagInCheck;  ///< bits defined by versions 2 and 3

/// PackedRecord::flags2 bit 0 (v3): the move played was drawn at random (an opening ply).
inline constexpr std::uint8_t kFlag2OpeningPly = 0x01;
inline constexpr std::uint8_t kRecordFlags2 = kFlag2OpeningPly;  ///< flags2 bits version 3 defines
/// Largest PackedRecord::gameEnd: 1 + the last GameEnd code of core/game_end.h (14, agreed draw).
inline constexpr std::uint8_t kMaxGameEnd = 15;

struct FileHeader {
  char magic[8];
  std::uint16_t version;
  std::uint16_t recordSize;
  std::uint32_t flags;
  std::uint64_t recordCount;
  std::uint64_t reserved;
};

/// The 32-byte position part of a record (the whole record of versions 1 and 2; JANUSSP game
/// headers embed it too).
struct PackedPosition {
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

/// A version 3 record: the position, then the move fields (see the table above). Records of
/// version 1 and 2 files are read into it with the move fields 0.
struct PackedRecord : PackedPosition {
  std::uint16_t played;    ///< PackedMove: the move played from this position (0: unknown)
  std::uint16_t best;      ///< PackedMove: the search's best move (0: not searched)
  std::uint8_t gameEnd;    ///< 0: the game goes on; else 1 + GameEnd code: the game's last record
  std::uint8_t flags2;     ///< kFlag2OpeningPly
  std::uint16_t reserved;  ///< 0

  [[nodiscard]] constexpr bool lastOfGame() const { return gameEnd != 0; }
  [[nodiscard]] constexpr bool openingPly() const { return flags2 & kFlag2OpeningPly; }
};

// ---- PackedMove ---------------------------------------------------------------------------------

/// Promotion codes of a PackedMove (bits 12-14).
enum PromotionCode : std::uint8_t { kPromoNone = 0, kPromoKnight = 1, kPromoBishop = 2, kPromoRook = 3, kPromoQueen = 4 };

[[nodiscard]] constexpr int packedMoveFrom(std::uint16_t m) { return m & 63; }
[[nodiscard]] constexpr int packedMoveTo(std::uint16_t m) { return (m >> 6) & 63; }
[[nodiscard]] constexpr int packedMovePromotion(std::uint16_t m) { return (m >> 12) & 7; }
/// A PackedMove from its squares (0..63) and promotion code (PromotionCode).
[[nodiscard]] constexpr std::uint16_t makePackedMove(int from, int to, int promotion = kPromoNone) {
  return std::uint16_t(from | (to << 6) | (promotion << 12));
}
/// Nullptr if `m` is 0 (no move) or a well-formed move (from != to, promotion code <= 4, bit 15
/// clear); otherwise what is wrong. Legality needs the position (records/janusdat.h: decodeMove).
[[nodiscard]] constexpr const char* packedMoveError(std::uint16_t m) {
  if (m == 0) return nullptr;
  if (m & 0x8000) return "bit 15 is set";
  if (packedMovePromotion(m) > kPromoQueen) return "promotion code above 4";
  if (packedMoveFrom(m) == packedMoveTo(m)) return "from and to squares are the same";
  return nullptr;
}

/// Flag bit 1: the move played from the record's position was a capture (en passant included)
/// or a promotion. Always false in version 1 files (which held only quiet positions).
[[nodiscard]] constexpr bool recordNoisyMove(const PackedPosition& r) { return r.flags & kFlagNoisyMove; }
/// Flag bit 2: the side to move is in check. Always false in version 1 files.
[[nodiscard]] constexpr bool recordInCheck(const PackedPosition& r) { return r.flags & kFlagInCheck; }
/// Neither noisy nor in check: the positions version 1 datagen kept (static-eval tuning wants them).
[[nodiscard]] constexpr bool recordQuiet(const PackedPosition& r) { return !(r.flags & (kFlagNoisyMove | kFlagInCheck)); }
/// Flag bits of PackedPosition::flags that file format `version` defines (0 for a version this
/// code does not read).
[[nodiscard]] constexpr std::uint8_t recordFlagsDefined(std::uint16_t version) {
  return version == 1 ? kRecordFlagsV1 : (version == 2 || version == 3) ? kRecordFlagsV2 : 0;
}
/// True if the record sets only flag bits that file format `version` defines (false for a
/// version this code does not read).
[[nodiscard]] constexpr bool recordFlagsValid(const PackedPosition& r, std::uint16_t version) {
  const std::uint8_t defined = recordFlagsDefined(version);
  return defined != 0 && (r.flags & ~defined) == 0;
}
/// Nullptr if the move fields of a version 3 record are well formed (played and best are 0 or
/// well-formed PackedMoves, gameEnd <= kMaxGameEnd, only flags2 bit 0, reserved 0); otherwise the
/// name of the first malformed field: "played", "best", "gameEnd", "flags2" or "reserved".
[[nodiscard]] constexpr const char* recordTailError(const PackedRecord& r) {
  if (packedMoveError(r.played)) return "played";
  if (packedMoveError(r.best)) return "best";
  if (r.gameEnd > kMaxGameEnd) return "gameEnd";
  if (r.flags2 & ~kRecordFlags2) return "flags2";
  if (r.reserved != 0) return "reserved";
  return nullptr;
}

// The layout above is the format: every field at its documented offset, no padding.
static_assert(std::endian::native == std::endian::little, "the JANUSDAT format is little-endian on disk");
static_assert(sizeof(FileHeader) == 32);
static_assert(offsetof(FileHeader, version) == 8 && offsetof(FileHeader, recordSize) == 10 &&
              offsetof(FileHeader, flags) == 12 && offsetof(FileHeader, recordCount) == 16 &&
              offsetof(FileHeader, reserved) == 24);
static_assert(sizeof(PackedPosition) == 32);
static_assert(offsetof(PackedPosition, pieces) == 8 && offsetof(PackedPosition, stmEp) == 24 &&
              offsetof(PackedPosition, halfmove) == 25 && offsetof(PackedPosition, fullmove) == 26 &&
              offsetof(PackedPosition, score) == 28 && offsetof(PackedPosition, wdl) == 30 &&
              offsetof(PackedPosition, flags) == 31);
static_assert(sizeof(PackedRecord) == 40);
// PackedRecord derives from PackedPosition, so offsetof does not apply; its bytes show the offsets.
static_assert([] {
  PackedRecord r{};
  r.flags = 0x11;
  r.played = 0x2322;
  r.best = 0x2524;
  r.gameEnd = 0x26;
  r.flags2 = 0x27;
  r.reserved = 0x2928;
  const auto b = std::bit_cast<std::array<std::uint8_t, 40>>(r);
  return b[31] == 0x11 && b[32] == 0x22 && b[33] == 0x23 && b[34] == 0x24 && b[35] == 0x25 && b[36] == 0x26 &&
         b[37] == 0x27 && b[38] == 0x28 && b[39] == 0x29;
}());

/// A version 3 header for `count` records (kStreamingCount if unknown).
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

/// Size of one record in a file of format `version` (1..kFormatVersion): 32 or 40 bytes.
[[nodiscard]] constexpr std::size_t recordSizeOf(std::uint16_t version) {
  return version >= 3 ? sizeof(PackedRecord) : sizeof(PackedPosition);
}

}  // namespace janus::records
