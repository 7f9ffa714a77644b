#pragma once
// Polyglot opening books (.bin), read-only.
//
// Format: "PolyGlot opening book format" by Michel Van den Bergh,
// http://hgm.nubati.net/book_format.html (Debian: /usr/share/doc/polyglot/book_format.html).
// A book is a sequence of 16-byte entries, all integers big-endian ("highest byte first"):
//   key u64 | move u16 | weight u16 | learn u32
// sorted by key, lowest first. The key is Polyglot's own Zobrist hash of the position (see
// polyglotKey), not Janus's zobrist keys. Move bits: 0-2 to file, 3-5 to rank, 6-8 from file,
// 9-11 from rank, 12-14 promotion (0 none, 1 knight, 2 bishop, 3 rook, 4 queen). Castling is
// stored as king takes rook (e1h1, e1a1, e8h8, e8a8), which is also Janus's internal castling
// move, so the same entries serve Chess960 books (the spec's "Extension to Chess960").
//
// Thread-safety: a PolyglotBook is immutable after open(); all const methods may be called
// concurrently from any number of threads. pick() with an Rng& mutates only that generator.

#include <cstddef>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "core/position.h"

namespace janus {

/// Polyglot key of `pos` (spec section "key"): XOR of RandomPiece for every piece,
/// RandomCastle for every castling right held (white/black king side/queen side; in Chess960
/// the spec's 4-flag form, which is exact when the castling rook is the outermost one),
/// RandomEnPassant[file] when the side to move has a pawn beside a pawn that has just made a
/// double push (whether or not the capture is legal), and RandomTurn when White is to move.
/// Start position: 0x463b96181691fc9c.
///
/// Janus keeps an en passant square only when the capture is legal. The double push is then
/// recovered from the last move made on `pos`; a position set up from a FEN whose en passant
/// capture is illegal (pinned capturer) therefore hashes without the en passant term, unlike
/// Polyglot. Such positions are practically absent from opening books.
[[nodiscard]] u64 polyglotKey(const Position& pos);

/// One book move of a position, converted to a legal Janus move.
struct BookEntry {
  Move move;        ///< legal in the probed position (castling as king-takes-rook)
  u16 weight = 0;   ///< relative quality (Polyglot's book builder: 2 * wins + draws, scaled)
  u32 learn = 0;    ///< learning data (0 in books built by Polyglot)
};

/// How pick() chooses among the book moves of a position.
enum class BookPickMode {
  kBest,            ///< highest weight; ties go to the entry stored first
  kWeightedRandom,  ///< probability weight / sum of weights (the spec's "random play")
};

class PolyglotBook {
 public:
  /// Random generator used by pick(); any 64-bit engine would do, this one is reproducible.
  using Rng = std::mt19937_64;

  /// An empty book (size() == 0): probe() returns nothing and pick() returns Move::none().
  PolyglotBook() = default;

  /// Reads the whole book at `path` into memory (16 bytes per entry: the 2.9 MB GNU Chess
  /// book takes 2.9 MB). Throws janus::Error naming the path and the problem: the file cannot
  /// be opened or read, is empty, has a size that is not a multiple of 16 bytes, or has keys
  /// out of order (the first offending entry index is named).
  static PolyglotBook open(const std::string& path);

  /// Same checks as open(), from bytes already in memory; `name` is used in error messages.
  static PolyglotBook fromBytes(std::string_view bytes, const std::string& name);

  /// The book moves of `pos` that are legal there, highest weight first (ties keep file
  /// order). Entries whose move is illegal or malformed in `pos` (e.g. a key collision) and
  /// duplicate moves are skipped. Zero-weight entries are kept (weight 0 means "never play",
  /// which pick() respects). Cost: one binary search, O(log size()).
  [[nodiscard]] std::vector<BookEntry> probe(const Position& pos) const;

  /// Chooses a book move for `pos`, or Move::none() when the book has no playable move there
  /// (no entry, only illegal entries, or only zero weights). The seed overload builds an Rng
  /// from `seed`, so the same seed gives the same move; kBest ignores the generator.
  [[nodiscard]] Move pick(const Position& pos, BookPickMode mode, Rng& rng) const;
  [[nodiscard]] Move pick(const Position& pos, BookPickMode mode, u64 seed) const;

  /// Number of 16-byte entries in the book.
  [[nodiscard]] std::size_t size() const { return m_entries.size(); }
  [[nodiscard]] bool empty() const { return m_entries.empty(); }
  /// The path given to open() (or the name given to fromBytes()).
  [[nodiscard]] const std::string& path() const { return m_path; }

 private:
  struct RawEntry {
    u64 key;
    u16 move;
    u16 weight;
    u32 learn;
  };

  std::vector<RawEntry> m_entries;  ///< sorted by key (checked on load)
  std::string m_path;
};

}  // namespace janus
