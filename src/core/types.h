#pragma once
// Basic chess types shared by every module: squares, colours, pieces, moves.
//
// Conventions (chessprogramming wiki "Square Mapping Considerations", little-endian
// rank-file mapping): a1 = 0, b1 = 1, ..., h1 = 7, a2 = 8, ..., h8 = 63.

#include <cstdint>

namespace janus {

using u8 = std::uint8_t;
using u16 = std::uint16_t;
using u32 = std::uint32_t;
using u64 = std::uint64_t;
using i8 = std::int8_t;
using i16 = std::int16_t;
using i32 = std::int32_t;
using i64 = std::int64_t;

/// 64-bit set of squares, bit i = square i (a1 = bit 0).
using Bitboard = u64;

enum Color : u8 { kWhite = 0, kBlack = 1 };
constexpr Color operator~(Color c) { return Color(c ^ 1); }

enum PieceType : u8 { kPawn = 0, kKnight, kBishop, kRook, kQueen, kKing, kNoPieceType };

/// Coloured piece: colour * 6 + type; kNoPiece (12) marks an empty square.
enum Piece : u8 {
  kWhitePawn = 0, kWhiteKnight, kWhiteBishop, kWhiteRook, kWhiteQueen, kWhiteKing,
  kBlackPawn, kBlackKnight, kBlackBishop, kBlackRook, kBlackQueen, kBlackKing,
  kNoPiece
};
constexpr Piece makePiece(Color c, PieceType pt) { return Piece(c * 6 + pt); }
constexpr PieceType typeOf(Piece p) { return PieceType(p % 6); }
constexpr Color colorOf(Piece p) { return Color(p / 6); }

enum Square : u8 {
  kA1, kB1, kC1, kD1, kE1, kF1, kG1, kH1,
  kA2, kB2, kC2, kD2, kE2, kF2, kG2, kH2,
  kA3, kB3, kC3, kD3, kE3, kF3, kG3, kH3,
  kA4, kB4, kC4, kD4, kE4, kF4, kG4, kH4,
  kA5, kB5, kC5, kD5, kE5, kF5, kG5, kH5,
  kA6, kB6, kC6, kD6, kE6, kF6, kG6, kH6,
  kA7, kB7, kC7, kD7, kE7, kF7, kG7, kH7,
  kA8, kB8, kC8, kD8, kE8, kF8, kG8, kH8,
  kNoSquare = 64
};
constexpr int fileOf(Square s) { return s & 7; }
constexpr int rankOf(Square s) { return s >> 3; }
constexpr Square makeSquare(int file, int rank) { return Square(rank * 8 + file); }
/// Mirror a square vertically (a1 <-> a8): the square as seen by Black.
constexpr Square flipRank(Square s) { return Square(s ^ 56); }
/// Rank of `s` from `c`'s point of view (0 = own back rank).
constexpr int relativeRank(Color c, Square s) { return c == kWhite ? rankOf(s) : 7 - rankOf(s); }
constexpr Square relativeSquare(Color c, Square s) { return c == kWhite ? s : flipRank(s); }
/// +8 for White (north), -8 for Black.
constexpr int pawnPush(Color c) { return c == kWhite ? 8 : -8; }

/// Castling rights as a 4-bit set.
enum CastlingRights : u8 {
  kNoCastling = 0,
  kWhiteKingSide = 1,
  kWhiteQueenSide = 2,
  kBlackKingSide = 4,
  kBlackQueenSide = 8,
  kAllCastling = 15
};
constexpr CastlingRights operator|(CastlingRights a, CastlingRights b) { return CastlingRights(u8(a) | u8(b)); }
constexpr CastlingRights operator&(CastlingRights a, CastlingRights b) { return CastlingRights(u8(a) & u8(b)); }
constexpr CastlingRights operator~(CastlingRights a) { return CastlingRights(~u8(a) & 15); }
/// Index 0..3 of a single castling right (kWhiteKingSide -> 0, ..., kBlackQueenSide -> 3).
constexpr int castlingIndex(Color c, bool kingSide) { return c * 2 + (kingSide ? 0 : 1); }
constexpr CastlingRights castlingRight(Color c, bool kingSide) {
  return CastlingRights(1 << castlingIndex(c, kingSide));
}

/// A move packed into 16 bits:
///   bits 0-5  : from square
///   bits 6-11 : to square (for castling: the square of the castling rook, "king takes rook",
///               so that standard chess and Chess960 share one representation)
///   bits 12-13: promotion piece (0 knight, 1 bishop, 2 rook, 3 queen)
///   bits 14-15: kind (normal, promotion, en passant, castling)
/// Move::none() (0) is a1a1 and never legal; Move::null() (65 = b1b1) is the null move.
class Move {
 public:
  enum Kind : u16 { kNormal = 0, kPromotion = 1 << 14, kEnPassant = 2 << 14, kCastling = 3 << 14 };

  constexpr Move() = default;
  constexpr explicit Move(u16 raw) : m_raw(raw) {}
  constexpr Move(Square from, Square to) : m_raw(u16(from | (to << 6))) {}
  constexpr Move(Square from, Square to, Kind kind, PieceType promo = kKnight)
      : m_raw(u16(from | (to << 6) | ((promo - kKnight) << 12) | kind)) {}

  static constexpr Move none() { return Move(); }
  static constexpr Move null() { return Move(65); }

  [[nodiscard]] constexpr Square from() const { return Square(m_raw & 63); }
  [[nodiscard]] constexpr Square to() const { return Square((m_raw >> 6) & 63); }
  [[nodiscard]] constexpr Kind kind() const { return Kind(m_raw & (3 << 14)); }
  [[nodiscard]] constexpr PieceType promotion() const { return PieceType(((m_raw >> 12) & 3) + kKnight); }
  [[nodiscard]] constexpr bool isPromotion() const { return kind() == kPromotion; }
  [[nodiscard]] constexpr bool isCastling() const { return kind() == kCastling; }
  [[nodiscard]] constexpr bool isEnPassant() const { return kind() == kEnPassant; }
  [[nodiscard]] constexpr u16 raw() const { return m_raw; }
  [[nodiscard]] constexpr bool isOk() const { return from() != to(); }
  constexpr explicit operator bool() const { return m_raw != 0; }
  constexpr bool operator==(const Move&) const = default;

 private:
  u16 m_raw = 0;
};

constexpr int kMaxMoves = 256;   ///< upper bound on legal moves in any position (max known: 218)
constexpr int kMaxPly = 246;     ///< deepest search ply

}  // namespace janus
