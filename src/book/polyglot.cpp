#include "book/polyglot.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>

#include "core/movegen.h"
#include "util/error.h"

namespace janus {

namespace polyglot_detail {
extern const u64 kRandom64[781];  // polyglot_random.cpp
}  // namespace polyglot_detail

namespace {

using polyglot_detail::kRandom64;

constexpr int kCastleOffset = 768;
constexpr int kEnPassantOffset = 772;
constexpr int kTurnOffset = 780;
constexpr std::size_t kEntryBytes = 16;

/// Polyglot's "kind_of_piece": black pawn 0, white pawn 1, black knight 2, ..., white king 11.
int pieceKind(Piece p) { return 2 * int(typeOf(p)) + (colorOf(p) == kWhite ? 1 : 0); }

/// File of the pawn that has just made a double push, if the side to move has a pawn beside it
/// (spec: "If the opponent has performed a double pawn push and there is now a pawn next to it
/// belonging to the player to move"); -1 otherwise.
int enPassantFile(const Position& pos) {
  if (pos.epSquare() != kNoSquare) return fileOf(pos.epSquare());  // Janus: a legal capture exists
  if (pos.movesMade() == 0) return -1;
  const Move last = pos.lastMove();
  if (!last || last == Move::null() || last.kind() != Move::kNormal) return -1;
  const Color us = pos.sideToMove();
  const Square to = last.to();
  const Piece moved = pos.pieceOn(to);
  if (moved != makePiece(~us, kPawn)) return -1;
  if (int(to) - int(last.from()) != 16 && int(last.from()) - int(to) != 16) return -1;
  const Bitboard beside = shiftEast(squareBB(to)) | shiftWest(squareBB(to));
  return (beside & pos.pieces(us, kPawn)) ? fileOf(to) : -1;
}

u64 readBigEndian(const unsigned char* p, int bytes) {
  u64 v = 0;
  for (int i = 0; i < bytes; ++i) v = (v << 8) | p[i];
  return v;
}

/// The legal move of `pos` that a Polyglot move field names, or Move::none().
Move decodeMove(const Position& pos, const MoveList& legal, u16 raw) {
  const Square to = makeSquare(raw & 7, (raw >> 3) & 7);
  const Square from = makeSquare((raw >> 6) & 7, (raw >> 9) & 7);
  const int promo = (raw >> 12) & 7;  // 0 none, 1 knight .. 4 queen
  if (promo > 4) return Move::none();
  for (Move m : legal) {
    if (m.from() != from) continue;
    if (promo != 0) {
      if (m.isPromotion() && m.to() == to && m.promotion() == PieceType(kKnight + promo - 1)) return m;
      continue;
    }
    if (m.isPromotion()) continue;
    if (m.to() == to) return m;  // castling is king-takes-rook in both Polyglot and Janus
    // Leniency for books that store standard castling as the king's destination (e1g1): the
    // king cannot otherwise move two squares, so this is unambiguous outside Chess960.
    if (m.isCastling() && !pos.isChess960() &&
        castlingKingTo(pos.sideToMove(), m.to() > m.from()) == to)
      return m;
  }
  return Move::none();
}

}  // namespace

u64 polyglotKey(const Position& pos) {
  u64 key = 0;
  Bitboard occupied = pos.pieces();
  while (occupied) {
    const Square s = popLsb(occupied);
    key ^= kRandom64[64 * pieceKind(pos.pieceOn(s)) + s];  // s = 8 * rank + file
  }
  // Janus's castling bits (white king side 1, white queen side 2, black king side 4, black
  // queen side 8) are in the order of RandomCastle's offsets 0..3.
  const CastlingRights rights = pos.castlingRights();
  for (int i = 0; i < 4; ++i)
    if (rights & (1 << i)) key ^= kRandom64[kCastleOffset + i];
  if (const int file = enPassantFile(pos); file >= 0) key ^= kRandom64[kEnPassantOffset + file];
  if (pos.sideToMove() == kWhite) key ^= kRandom64[kTurnOffset];
  return key;
}

PolyglotBook PolyglotBook::open(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("Polyglot book '" + path + "': cannot open (" + std::strerror(errno) + ")");
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw Error("Polyglot book '" + path + "': read error");
  return fromBytes(bytes, path);
}

PolyglotBook PolyglotBook::fromBytes(std::string_view bytes, const std::string& name) {
  const std::string where = "Polyglot book '" + name + "': ";
  if (bytes.empty()) throw Error(where + "the file is empty");
  if (bytes.size() % kEntryBytes != 0)
    throw Error(where + "size " + std::to_string(bytes.size()) +
                " bytes is not a multiple of 16 (truncated or not a Polyglot book)");
  PolyglotBook book;
  book.m_path = name;
  book.m_entries.reserve(bytes.size() / kEntryBytes);
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  for (std::size_t off = 0; off < bytes.size(); off += kEntryBytes) {
    RawEntry e{readBigEndian(p + off, 8), u16(readBigEndian(p + off + 8, 2)), u16(readBigEndian(p + off + 10, 2)),
               u32(readBigEndian(p + off + 12, 4))};
    if (!book.m_entries.empty() && e.key < book.m_entries.back().key)
      throw Error(where + "entries are not sorted by key (entry " + std::to_string(book.m_entries.size()) +
                  " has a smaller key than the one before it)");
    book.m_entries.push_back(e);
  }
  return book;
}

std::vector<BookEntry> PolyglotBook::probe(const Position& pos) const {
  std::vector<BookEntry> out;
  const u64 key = polyglotKey(pos);
  auto lo = std::lower_bound(m_entries.begin(), m_entries.end(), key,
                             [](const RawEntry& e, u64 k) { return e.key < k; });
  if (lo == m_entries.end() || lo->key != key) return out;
  const MoveList legal = legalMoves(pos);
  for (auto it = lo; it != m_entries.end() && it->key == key; ++it) {
    const Move m = decodeMove(pos, legal, it->move);
    if (!m) continue;
    if (std::any_of(out.begin(), out.end(), [m](const BookEntry& b) { return b.move == m; })) continue;
    out.push_back(BookEntry{m, it->weight, it->learn});
  }
  std::stable_sort(out.begin(), out.end(), [](const BookEntry& a, const BookEntry& b) { return a.weight > b.weight; });
  return out;
}

Move PolyglotBook::pick(const Position& pos, BookPickMode mode, Rng& rng) const {
  const std::vector<BookEntry> entries = probe(pos);
  if (entries.empty() || entries.front().weight == 0) return Move::none();  // sorted: front is the maximum
  if (mode == BookPickMode::kBest) return entries.front().move;
  u64 total = 0;
  for (const BookEntry& e : entries) total += e.weight;
  u64 r = std::uniform_int_distribution<u64>(0, total - 1)(rng);
  for (const BookEntry& e : entries) {
    if (r < e.weight) return e.move;
    r -= e.weight;
  }
  return entries.front().move;  // unreachable: r < total
}

Move PolyglotBook::pick(const Position& pos, BookPickMode mode, u64 seed) const {
  Rng rng(seed);
  return pick(pos, mode, rng);
}

}  // namespace janus
