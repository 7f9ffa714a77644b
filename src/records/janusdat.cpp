#include "records/janusdat.h"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "core/bitboard.h"
#include "core/fen.h"
#include "core/movegen.h"
#include "util/error.h"

namespace janus::records {

namespace {

constexpr char kPieceChars[] = "PNBRQK";
static_assert(kMaxGameEnd == kGameEndCount, "gameEnd holds 1 + every GameEnd code");
constexpr size_t kReadBatch = 4096;  // records per read() call

bool endsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

std::string printable(const char* bytes, size_t n) {
  std::string s;
  for (size_t i = 0; i < n; ++i) {
    unsigned char c = static_cast<unsigned char>(bytes[i]);
    s += (c >= 32 && c < 127) ? std::string(1, char(c)) : fmt::format("\\x{:02x}", c);
  }
  return s;
}

}  // namespace

PackedPosition packPosition(const Position& pos, int scoreWhite, Wdl result, Move played) {
  PackedPosition r{};
  r.occupancy = pos.pieces();
  Bitboard castlingRooks = 0;
  for (int i = 0; i < 4; ++i)
    if (pos.castlingRights() & CastlingRights(1 << i)) castlingRooks |= squareBB(pos.castling().rookFrom[i]);
  int n = 0;
  for (Bitboard b = r.occupancy; b;) {
    Square s = popLsb(b);
    Piece p = pos.pieceOn(s);
    u8 code = (castlingRooks & squareBB(s)) ? u8(kCodeCastlingRook) : u8(typeOf(p));
    r.setPiece(n++, u8(code | (colorOf(p) == kBlack ? kBlackBit : 0)));
  }
  r.stmEp = u8(u8(pos.epSquare()) | (pos.sideToMove() == kBlack ? kStmBlackBit : 0));
  r.halfmove = u8(std::min(pos.halfmoveClock(), 255));
  r.fullmove = u16(std::clamp(pos.fullmoveNumber(), 1, 65535));
  r.score = scoreWhite == kNoScore ? kNoScore : i16(std::clamp(scoreWhite, -32767, 32767));
  r.wdl = u8(result);
  r.flags = u8((pos.isChess960() ? kFlagChess960 : 0) | (pos.inCheck() ? kFlagInCheck : 0) |
               (played && pos.isNoisy(played) ? kFlagNoisyMove : 0));
  return r;
}

PackedRecord packRecord(const Position& pos, int scoreWhite, Wdl result, Move played, Move best) {
  PackedRecord r{};
  static_cast<PackedPosition&>(r) = packPosition(pos, scoreWhite, result, played);
  r.played = encodeMove(played);
  r.best = encodeMove(best);
  return r;
}

u16 encodeMove(Move m) {
  if (!m) return 0;
  // PieceType kKnight..kQueen are 1..4, the PromotionCode of janusdat_format.h.
  static_assert(int(kKnight) == kPromoKnight && int(kQueen) == kPromoQueen);
  return makePackedMove(m.from(), m.to(), m.isPromotion() ? int(m.promotion()) : kPromoNone);
}

std::string packedMoveString(u16 packed) {
  if (packed == 0) return "0000";
  auto square = [](int s) { return std::string{char('a' + (s & 7)), char('1' + (s >> 3))}; };
  std::string text = square(packedMoveFrom(packed)) + square(packedMoveTo(packed));
  const int promo = packedMovePromotion(packed);
  if (promo >= kPromoKnight && promo <= kPromoQueen) text += "nbrq"[promo - 1];
  else if (promo != kPromoNone) text += fmt::format("?{}", promo);
  return text;
}

Move decodeMove(const Position& pos, u16 packed) {
  if (packed == 0) return Move::none();
  if (const char* problem = packedMoveError(packed))
    throw Error(fmt::format("move 0x{:04x} is malformed ({})", packed, problem));
  for (Move m : legalMoves(pos))
    if (encodeMove(m) == packed) return m;
  throw Error(fmt::format("move {} is not legal in {}", packedMoveString(packed), pos.fen()));
}

std::string recordTailProblem(const PackedRecord& r) {
  const char* field = recordTailError(r);
  if (!field) return {};
  const std::string_view f = field;
  if (f == "played" || f == "best") {
    const u16 m = f == "played" ? r.played : r.best;
    return fmt::format("{} move 0x{:04x} is malformed ({})", f, m, packedMoveError(m));
  }
  if (f == "gameEnd") return fmt::format("game end {} is above {}", r.gameEnd, kMaxGameEnd);
  if (f == "flags2")
    return fmt::format("flags2 bits 0x{:02x} are not defined (flags2 0x{:02x})", r.flags2 & ~kRecordFlags2 & 0xFF, r.flags2);
  return fmt::format("reserved field 0x{:04x} is not 0", r.reserved);
}

std::string recordFen(const PackedPosition& r) {
  const int count = popCount(r.occupancy);
  if (count > 32) throw Error(fmt::format("{} occupied squares (at most 32 fit in a record)", count));
  for (int i = count; i < 32; ++i)
    if (r.piece(i) != 0) throw Error(fmt::format("piece nibble {} is set but only {} squares are occupied", i, count));
  if (r.epSquare() > 64) throw Error(fmt::format("en passant field {} is not a square (0..63) or 64", r.epSquare()));
  if (r.wdl > 2) throw Error(fmt::format("result {} is not 0 (Black won), 1 (draw) or 2 (White won)", r.wdl));
  if (r.flags & ~kRecordFlagsV2) throw Error(fmt::format("reserved flag bits set (flags 0x{:02x})", r.flags));

  char board[64];
  std::fill(std::begin(board), std::end(board), '.');
  Bitboard castlingRooks[2] = {0, 0};
  int i = 0;
  for (Bitboard b = r.occupancy; b; ++i) {
    Square s = popLsb(b);
    u8 nibble = r.piece(i);
    u8 code = nibble & 7;
    int colour = (nibble & kBlackBit) ? 1 : 0;
    if (code > kCodeCastlingRook)
      throw Error(fmt::format("unknown piece code {} on {}{}", nibble, char('a' + fileOf(s)), rankOf(s) + 1));
    if (code == kCodeCastlingRook) {
      if (relativeRank(Color(colour), s) != 0)
        throw Error(fmt::format("castling rook on {}{} is not on its back rank", char('a' + fileOf(s)), rankOf(s) + 1));
      castlingRooks[colour] |= squareBB(s);
      code = kCodeRook;
    }
    char ch = kPieceChars[code];
    board[s] = colour ? char(ch - 'A' + 'a') : ch;
  }

  std::string fen = fenPlacement(board);
  fen += r.blackToMove() ? " b " : " w ";
  // Castling in Shredder-FEN (rook files), which names every rook unambiguously (Chess960 too).
  std::string castling;
  for (int colour = 0; colour < 2; ++colour)
    for (Bitboard b = castlingRooks[colour]; b;) {
      Square s = popLsb(b);
      castling += char((colour ? 'a' : 'A') + fileOf(s));
    }
  fen += castling.empty() ? "-" : castling;
  fen += ' ';
  if (r.epSquare() == kStmEpNone) {
    fen += '-';
  } else {
    fen += char('a' + fileOf(Square(r.epSquare())));
    fen += char('1' + rankOf(Square(r.epSquare())));
  }
  fen += fmt::format(" {} {}", r.halfmove, std::max<int>(r.fullmove, 1));
  return fen;
}

TrainingPosition unpackPosition(const PackedPosition& r) {
  std::string fen = recordFen(r);
  TrainingPosition t;
  try {
    t.pos = Position::fromFen(fen, r.chess960());
  } catch (const Error& e) {
    throw Error(fmt::format("{} (decoded FEN '{}')", e.what(), fen));
  }
  // Position::fromFen keeps an en passant square only when a capture is legal; a record that
  // names one that is not is malformed (packPosition never writes it).
  if (r.epSquare() != kStmEpNone && t.pos.epSquare() != Square(r.epSquare()))
    throw Error(fmt::format("en passant square in '{}' allows no legal capture", fen));
  t.score = r.score;
  t.result = Wdl(r.wdl);
  return t;
}

TrainingPosition unpackRecord(const PackedRecord& r) {
  const std::string problem = recordTailProblem(r);
  if (!problem.empty()) throw Error(problem);
  TrainingPosition t = unpackPosition(r);
  try {
    t.played = decodeMove(t.pos, r.played);
  } catch (const Error& e) {
    throw Error(fmt::format("played {}", e.what()));
  }
  try {
    t.best = r.best == r.played ? t.played : decodeMove(t.pos, r.best);
  } catch (const Error& e) {
    throw Error(fmt::format("best {}", e.what()));
  }
  t.end = recordGameEnd(r);
  t.openingPly = r.openingPly();
  return t;
}

TrainingPosition decodeRecord(const PackedRecord& record, const std::string& path, u64 index) {
  try {
    return unpackRecord(record);
  } catch (const Error& e) {
    throw Error(fmt::format("'{}': record {}: {}", path, index, e.what()));
  }
}

// ---- DataWriter -----------------------------------------------------------------------------------

DataWriter::DataWriter(const std::string& path, std::optional<u64> count)
    : m_out(path, endsWith(path, ".zst")), m_count(count) {
  FileHeader h = makeFileHeader(count.value_or(kStreamingCount));
  m_out.write(reinterpret_cast<const char*>(&h), sizeof h);
}

void DataWriter::write(const PackedRecord& record) { write(&record, 1); }

void DataWriter::write(const PackedRecord* records, size_t n) {
  static_assert(sizeof(PackedRecord) == 40 && sizeof(FileHeader) == 32);
  m_out.write(reinterpret_cast<const char*>(records), std::streamsize(n * sizeof(PackedRecord)));
  m_written += n;
}

void DataWriter::commit() {
  if (m_count && *m_count != m_written)
    throw Error(fmt::format("'{}': the header declares {} records but {} were written", path(), *m_count, m_written));
  m_out.commit();
}

// ---- DataReader -----------------------------------------------------------------------------------

DataReader::DataReader(const std::string& path) : m_path(path), m_in(openInputFile(path)) {
  FileHeader h{};
  m_in->read(reinterpret_cast<char*>(&h), sizeof h);
  const auto got = size_t(m_in->gcount());
  if (got >= sizeof h.magic && std::memcmp(h.magic, kMagic, sizeof kMagic) != 0)
    throw Error(fmt::format("'{}': bad magic '{}' (expected 'JANUSDAT'): not a Janus data file", path,
                            printable(h.magic, sizeof h.magic)));
  if (got < sizeof h)
    throw Error(fmt::format("'{}': truncated header ({} of {} bytes): not a Janus data file", path, got, sizeof h));
  if (h.version < kMinFormatVersion || h.version > kFormatVersion)
    throw Error(fmt::format("'{}': format version {} is not supported (this build reads versions {} to {})", path,
                            h.version, kMinFormatVersion, kFormatVersion));
  m_version = h.version;
  m_recordSize = recordSizeOf(h.version);
  if (h.recordSize != m_recordSize)
    throw Error(fmt::format("'{}': record size {} in the header, but version {} records are {} bytes", path,
                            h.recordSize, h.version, m_recordSize));
  if (h.flags != 0 || h.reserved != 0)
    throw Error(fmt::format("'{}': reserved header fields are not zero (flags {}, reserved {})", path, h.flags,
                            h.reserved));
  if (h.recordCount != kStreamingCount) m_declared = h.recordCount;
}

bool DataReader::refill() {
  m_pos = 0;
  size_t want = kReadBatch;
  if (m_declared) want = size_t(std::min<u64>(want, *m_declared - m_index));
  m_bytes.resize(kReadBatch * m_recordSize);
  size_t bytes = 0;
  if (want > 0) {
    m_in->read(m_bytes.data(), std::streamsize(want * m_recordSize));
    bytes = size_t(m_in->gcount());
  }
  const size_t whole = bytes / m_recordSize;
  if (bytes % m_recordSize)
    throw Error(fmt::format("'{}': record {} is truncated ({} of {} bytes present)", m_path, m_index + whole,
                            bytes % m_recordSize, m_recordSize));
  // Version 1 and 2 records fill the position part; the move fields stay 0.
  m_buffer.assign(whole, PackedRecord{});
  for (size_t i = 0; i < whole; ++i) std::memcpy(&m_buffer[i], m_bytes.data() + i * m_recordSize, m_recordSize);
  if (whole < want && m_declared)
    throw Error(fmt::format("'{}': the header declares {} records but the file ends after {} (record {} is missing)",
                            m_path, *m_declared, m_index + whole, m_index + whole));
  if (whole == 0) {
    // A declared count is exhausted (or the stream ended): anything further is an error.
    if (m_declared && m_in->peek() != std::char_traits<char>::eof())
      throw Error(fmt::format("'{}': data after the {} records the header declares", m_path, *m_declared));
    m_eof = true;
    return false;
  }
  return true;
}

bool DataReader::next(PackedRecord& record) {
  if (m_eof) return false;
  if (m_pos >= m_buffer.size() && !refill()) return false;
  record = m_buffer[m_pos++];
  if (!recordFlagsValid(record, m_version))
    throw Error(fmt::format("'{}': record {}: reserved flag bits set (flags 0x{:02x}: bits 0x{:02x} are not defined in "
                            "version {})",
                            m_path, m_index, record.flags, record.flags & ~recordFlagsDefined(m_version) & 0xFF,
                            m_version));
  if (m_version >= 3 && recordTailError(record))
    throw Error(fmt::format("'{}': record {}: {}", m_path, m_index, recordTailProblem(record)));
  ++m_index;
  return true;
}

TrainingPosition DataReader::decode(const PackedRecord& record, u64 index) const {
  return decodeRecord(record, m_path, index);
}

std::vector<PackedRecord> readRecords(const std::string& path, u64 limit) {
  DataReader reader(path);
  std::vector<PackedRecord> out;
  if (reader.declaredCount()) out.reserve(size_t(limit ? std::min(limit, *reader.declaredCount()) : *reader.declaredCount()));
  PackedRecord r;
  while ((limit == 0 || out.size() < limit) && reader.next(r)) out.push_back(r);
  return out;
}

}  // namespace janus::records
