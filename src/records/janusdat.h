#pragma once
// Conversion between Position/Move and the packed records of janusdat_format.h, and reading/writing
// JANUSDAT files (janusdat_format.h describes the bytes).

#include <istream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/game_end.h"
#include "core/position.h"
#include "records/janusdat_format.h"
#include "util/zstd_stream.h"

namespace janus::records {

/// A decoded record.
struct TrainingPosition {
  Position pos;
  int score = kNoScore;  ///< centipawns (or mate score), White's view; kNoScore if unknown
  Wdl result = kDraw;    ///< game result, White's view
  Move played;           ///< the move played from `pos` (legal in it); Move::none() if unknown
  Move best;             ///< the search's best move in `pos` (legal in it); Move::none() if not searched
  std::optional<GameEnd> end;  ///< set on the last record of a game (version 3 files)
  bool openingPly = false;     ///< `played` was a random opening move (version 3 flags2 bit 0)
};

/// Packs the position part of a record. `scoreWhite` is White's view (kNoScore for "no score";
/// anything else is clamped to [-32767, 32767]). The halfmove clock saturates at 255 and the
/// fullmove number at 65535. Flags: kFlagChess960 from the position, kFlagInCheck when its side to
/// move is in check, kFlagNoisyMove when `played` (the move played from `pos`; Move::none() if
/// unknown or none) is a capture, en passant capture or promotion. Never throws for a position
/// built by Position (at most 32 pieces).
[[nodiscard]] PackedPosition packPosition(const Position& pos, int scoreWhite, Wdl result, Move played = Move::none());

/// A version 3 record: packPosition(pos, scoreWhite, result, played) and the PackedMoves of
/// `played` and `best` (Move::none(): 0). gameEnd and flags2 are 0 (setGameEnd, kFlag2OpeningPly).
[[nodiscard]] PackedRecord packRecord(const Position& pos, int scoreWhite, Wdl result, Move played = Move::none(),
                                      Move best = Move::none());

/// The PackedMove (janusdat_format.h) of an engine move: castling as king square to rook square, which is
/// how Move stores it. Move::none() gives 0.
[[nodiscard]] u16 encodeMove(Move m);
/// The legal move of `pos` whose PackedMove is `packed`; Move::none() for 0. Throws janus::Error
/// ("move e2e5 is not legal in <FEN>", or the packedMoveError problem) otherwise.
[[nodiscard]] Move decodeMove(const Position& pos, u16 packed);
/// UCI-like text of a PackedMove: "e2e4", "e7e8q", "e1h1" (castling: king to rook), "0000" for 0.
[[nodiscard]] std::string packedMoveString(u16 packed);

/// Marks `r` as the last record of its game, ended by `end` (gameEnd = 1 + code).
constexpr void setGameEnd(PackedRecord& r, GameEnd end) { r.gameEnd = u8(1 + u8(end)); }
/// How the game of the last record `r` ended; std::nullopt when the game goes on (gameEnd 0).
[[nodiscard]] constexpr std::optional<GameEnd> recordGameEnd(const PackedRecord& r) {
  return r.gameEnd ? std::optional<GameEnd>(GameEnd(r.gameEnd - 1)) : std::nullopt;
}

/// Decodes the position part of a record. Throws janus::Error naming the problem (too many
/// pieces, unknown piece code, bad castling rook, bad en passant square, wdl out of range, flag
/// bits 3-7 set, or anything Position::fromFen rejects, such as a missing king). The flag bits 1
/// (noisy move) and 2 (in check) are not checked against the position: readers trust them.
[[nodiscard]] TrainingPosition unpackPosition(const PackedPosition& record);

/// Decodes a whole record: unpackPosition, then the move fields (played and best must be legal
/// in the position: "played move e2e5 is not legal in <FEN>"; a malformed tail field throws as
/// recordTailProblem says).
[[nodiscard]] TrainingPosition unpackRecord(const PackedRecord& record);

/// "" if the move fields of a version 3 record are well formed (janusdat_format.h: recordTailError);
/// otherwise a description with the values, e.g. "played move 0x0041 is malformed (from and to
/// squares are the same)", "game end 15 is above 14", "flags2 bits 0x06 are not defined",
/// "reserved field 0x0001 is not 0".
[[nodiscard]] std::string recordTailProblem(const PackedRecord& record);

/// FEN (X-FEN castling) of the position of a record; throws like unpackPosition.
[[nodiscard]] std::string recordFen(const PackedPosition& record);

/// Writes a JANUSDAT file (version kFormatVersion, 40-byte records) atomically (util/zstd_stream's OutputFile: "<path>.tmp", renamed by
/// commit()). zstd-compressed when `path` ends in ".zst".
///
///   DataWriter out("train.jdat");      // streaming header (count unknown)
///   out.write(record); ...
///   out.commit();                      // without it nothing appears at `path`
class DataWriter {
 public:
  /// `count`: the number of records that will be written (stored in the header and checked by
  /// commit()), or std::nullopt for a streaming header (kStreamingCount). Throws janus::Error if
  /// the file cannot be created.
  explicit DataWriter(const std::string& path, std::optional<u64> count = std::nullopt);

  void write(const PackedRecord& record);
  void write(const PackedRecord* records, size_t n);
  /// Finishes the file and renames it into place. Throws janus::Error on a write failure or if a
  /// count was declared and a different number of records was written (then nothing is renamed).
  void commit();

  [[nodiscard]] u64 written() const { return m_written; }
  [[nodiscard]] const std::string& path() const { return m_out.path(); }

 private:
  OutputFile m_out;
  std::optional<u64> m_count;
  u64 m_written = 0;
};

/// Reads a JANUSDAT file of version 1, 2 or 3 (plain or zstd-compressed), record by record with a
/// buffer. Records of version 1 and 2 files come out with the move fields 0 (played, best,
/// gameEnd, flags2, reserved); version 1 flag bits 1 and 2 are 0 there.
///
/// Errors (janus::Error, always naming the file): cannot open; shorter than a header; bad magic
/// ("not a Janus data file"); unsupported version (0, 4 and above); record size or reserved
/// header fields that do not match the version; a truncated record (naming its 0-based index and
/// how many bytes were present); fewer or more records than the header declares; from next(), a
/// record with flag bits its file's version does not define ("'<path>': record N: reserved flag
/// bits set (flags 0x..: bits 0x.. are not defined in version V)") or malformed version 3 move
/// fields ("'<path>': record N: " + recordTailProblem). decode() adds "'<path>': record N: " to
/// the errors of unpackRecord (an illegal played or best move among them).
class DataReader {
 public:
  explicit DataReader(const std::string& path);

  /// Reads the next record. Returns false at the (valid) end of the file.
  bool next(PackedRecord& record);
  /// Decodes `record`, which was the record with 0-based index `index` of this file.
  [[nodiscard]] TrainingPosition decode(const PackedRecord& record, u64 index) const;

  /// The file's format version (1, 2 or 3).
  [[nodiscard]] u16 version() const { return m_version; }
  /// Records declared by the header, or std::nullopt for a streaming file.
  [[nodiscard]] std::optional<u64> declaredCount() const { return m_declared; }
  /// Index of the record the next call to next() returns (= records read so far).
  [[nodiscard]] u64 index() const { return m_index; }
  [[nodiscard]] const std::string& path() const { return m_path; }

 private:
  bool refill();

  std::string m_path;
  std::unique_ptr<std::istream> m_in;
  std::optional<u64> m_declared;
  u16 m_version = kFormatVersion;
  std::size_t m_recordSize = sizeof(PackedRecord);  ///< bytes per record in the file
  std::vector<char> m_bytes;                        ///< raw bytes of the current batch
  std::vector<PackedRecord> m_buffer;
  size_t m_pos = 0;
  u64 m_index = 0;
  bool m_eof = false;
};

/// unpackRecord with the error prefixed by the file and the record: "'<path>': record <index>: ...".
[[nodiscard]] TrainingPosition decodeRecord(const PackedRecord& record, const std::string& path, u64 index);

/// Every record of a file (validating the header and the record structure as DataReader does;
/// positions are not decoded). `limit` stops after that many records (0: all).
[[nodiscard]] std::vector<PackedRecord> readRecords(const std::string& path, u64 limit = 0);

}  // namespace janus::records
