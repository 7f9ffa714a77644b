#pragma once
// Zobrist hashing keys (chessprogramming wiki "Zobrist Hashing"). The keys come from a
// fixed-seed xorshift64* generator, so a position's key is the same in every run and build.

#include "core/types.h"

namespace janus::zobrist {

struct Keys {
  u64 psq[12][64];       ///< [piece][square]
  u64 castling[16];      ///< [castling-rights set]
  u64 enPassantFile[8];  ///< [file of the en passant square]
  u64 sideToMove;        ///< xor-ed in when Black is to move
};

extern const Keys& gKeys;

inline u64 psq(Piece p, Square s) { return gKeys.psq[p][s]; }
inline u64 castling(CastlingRights cr) { return gKeys.castling[cr]; }
inline u64 enPassant(Square s) { return gKeys.enPassantFile[s & 7]; }
inline u64 side() { return gKeys.sideToMove; }

}  // namespace janus::zobrist
