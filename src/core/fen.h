#pragma once
// The piece-placement field of a FEN (the first of its six fields), from a board given as 64
// characters. Spec: PGN standard, section 16.1.4.1 (Forsyth-Edwards Notation).

#include <span>
#include <string>

namespace janus {

/// FEN piece placement of `board`: 64 characters indexed by square (a1 = 0, b1 = 1, ..., h8 =
/// 63), a piece letter ("PNBRQK" White, "pnbrqk" Black) or '.' for an empty square. Ranks 8 to
/// 1, separated by '/', runs of empty squares as digits 1-8, e.g. "8/8/8/8/8/8/8/4K2R".
/// Characters other than '.' are copied as they are (no validation: the FEN parser checks).
[[nodiscard]] inline std::string fenPlacement(std::span<const char, 64> board) {
  std::string out;
  for (int rank = 7; rank >= 0; --rank) {
    int empty = 0;
    for (int file = 0; file < 8; ++file) {
      const char c = board[std::size_t(rank * 8 + file)];
      if (c == '.') {
        ++empty;
        continue;
      }
      if (empty) out += char('0' + empty), empty = 0;
      out += c;
    }
    if (empty) out += char('0' + empty);
    if (rank) out += '/';
  }
  return out;
}

}  // namespace janus
