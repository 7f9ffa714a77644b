#pragma once
// Non-cryptographic hashes shared by every Janus folder: FNV-1a 64 (content hashes and
// checksums of data and network files) and the SplitMix64 mixer (seeds and hash mixing).

#include <cstdint>
#include <span>
#include <string_view>

namespace janus {

/// The FNV-1a 64-bit offset basis (the hash of no bytes).
inline constexpr std::uint64_t kFnv1a64Basis = 0xcbf29ce484222325ULL;

/// FNV-1a, 64 bit, of `bytes` (G. Fowler, L. C. Noll, K.-P. Vo,
/// http://www.isthe.com/chongo/tech/comp/fnv/ and draft-eastlake-fnv): h = basis; for each byte
/// b: h = (h xor b) * 0x100000001b3 (mod 2^64). `h` continues an earlier hash (the hash of
/// a + b is fnv1a64(b, fnv1a64(a))). Names Janus data and network files by their content.
[[nodiscard]] constexpr std::uint64_t fnv1a64(std::span<const unsigned char> bytes, std::uint64_t h = kFnv1a64Basis) {
  for (unsigned char b : bytes) h = (h ^ b) * 0x100000001b3ULL;
  return h;
}

/// FNV-1a 64 of the bytes of `text` (see the span overload).
[[nodiscard]] constexpr std::uint64_t fnv1a64(std::string_view text, std::uint64_t h = kFnv1a64Basis) {
  for (char c : text) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
  return h;
}

/// SplitMix64 (S. Vigna, https://prng.di.unimi.it/splitmix64.c, after G. L. Steele, D. Lea,
/// C. H. Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014): the output of
/// the generator whose state is `x` before its step, i.e. the mixer applied to
/// x + 0x9e3779b97f4a7c15. A bijection of 64-bit values that spreads every input bit over the
/// output; seeds of per-game generators and hash mixing.
[[nodiscard]] constexpr std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

}  // namespace janus
