#include "core/zobrist.h"

namespace janus::zobrist {
namespace {

constexpr Keys makeKeys() {
  Keys k{};
  u64 s = 0x4A414E55534B4559ULL;  // "JANUSKEY"
  auto next = [&s]() constexpr {  // xorshift64* (Vigna 2014)
    s ^= s >> 12;
    s ^= s << 25;
    s ^= s >> 27;
    return s * 2685821657736338717ULL;
  };
  for (auto& piece : k.psq)
    for (auto& sq : piece) sq = next();
  // Castling keys are xor-combinations of four independent keys, so that clearing one right
  // is a single xor of the difference.
  u64 single[4];
  for (auto& v : single) v = next();
  for (int cr = 0; cr < 16; ++cr) {
    k.castling[cr] = 0;
    for (int i = 0; i < 4; ++i)
      if (cr & (1 << i)) k.castling[cr] ^= single[i];
  }
  for (auto& f : k.enPassantFile) f = next();
  k.sideToMove = next();
  return k;
}

// constexpr: the keys are constant-initialised, so they are valid during static initialisation.
constexpr Keys kKeys = makeKeys();

}  // namespace

const Keys& gKeys = kKeys;

}  // namespace janus::zobrist
