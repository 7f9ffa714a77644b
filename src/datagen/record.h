#pragma once
// Conversion between Position and the packed 32-byte record of format.h, and reading/writing
// JANUSDAT files (format.h describes the bytes).

#include <istream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/position.h"
#include "datagen/format.h"
#include "util/zstd_stream.h"

namespace janus::datagen {

/// A decoded record.
struct TrainingPosition {
  Position pos;
  int score = kNoScore;  ///< centipawns (or mate score), White's view; kNoScore if unknown
  Wdl result = kDraw;    ///< game result, White's view
};

/// Packs a position. `scoreWhite` is White's view (kNoScore for "no score"; anything else is
/// clamped to [-32767, 32767]). The halfmove clock saturates at 255 and the fullmove number at
/// 65535. Flags: kFlagChess960 from the position, kFlagInCheck when its side to move is in check,
/// kFlagNoisyMove when `played` (the move played from `pos`; Move::none() if unknown or none) is
/// a capture, en passant capture or promotion. Never throws for a position built by Position
/// (at most 32 pieces).
[[nodiscard]] PackedRecord packRecord(const Position& pos, int scoreWhite, Wdl result, Move played = Move::none());

/// Decodes a record (of a version 1 or 2 file). Throws janus::Error naming the problem (too many
/// pieces, unknown piece code, bad castling rook, bad en passant square, wdl out of range, flag
/// bits 3-7 set, or anything Position::fromFen rejects, such as a missing king). The flag bits 1
/// (noisy move) and 2 (in check) are not checked against the position: readers trust them.
[[nodiscard]] TrainingPosition unpackRecord(const PackedRecord& record);

/// FEN (X-FEN castling) of the position of a record; throws like unpackRecord.
[[nodiscard]] std::string recordFen(const PackedRecord& record);

/// Short text form of a Wdl: "1-0", "1/2-1/2", "0-1".
[[nodiscard]] const char* wdlString(Wdl w);

/// Writes a JANUSDAT file (version kFormatVersion) atomically (util/zstd_stream's OutputFile: "<path>.tmp", renamed by
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

/// Reads a JANUSDAT file of version 1 or 2 (plain or zstd-compressed), record by record with a
/// buffer. Records of a version 1 file come out unchanged (flag bits 1 and 2 are 0 there).
///
/// Errors (janus::Error, always naming the file): cannot open; shorter than a header; bad magic
/// ("not a Janus data file"); unsupported version (0, 3 and above); record size or reserved
/// header fields that do not match the version; a truncated record (naming its 0-based index and
/// how many bytes were present); fewer or more records than the header declares; from next(), a
/// record with flag bits its file's version does not define ("'<path>': record N: reserved flag
/// bits set (flags 0x..: bits 0x.. are not defined in version V)"). decode() adds "record N: "
/// to the errors of unpackRecord.
class DataReader {
 public:
  explicit DataReader(const std::string& path);

  /// Reads the next record. Returns false at the (valid) end of the file.
  bool next(PackedRecord& record);
  /// Decodes `record`, which was the record with 0-based index `index` of this file.
  [[nodiscard]] TrainingPosition decode(const PackedRecord& record, u64 index) const;

  /// The file's format version (1 or 2).
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

}  // namespace janus::datagen
