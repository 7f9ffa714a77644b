#pragma once
// Integer kernels of NNUE inference: accumulator updates and the output layer's dot products.
//
// Paths chosen at build time by the target ISA (-march, CMake JANUS_ARCH): AVX-512BW, AVX2, or
// portable scalar C++. Every path computes exactly the same integers (the test compares them
// with the scalar reference), so a net evaluates identically on every machine:
//   * accumulator updates are int16 additions (wrapping, as the SIMD adds; the trainer's weight
//     clipping keeps real sums far from the int16 range);
//   * SCReLU: sum_i c_i * (c_i * w_i) with c_i = clamp(acc_i, 0, QA). Since |w_i| <= 127 (clip
//     1.98 * QB 64) and c_i <= 255, c_i * w_i fits an int16, so the SIMD path multiplies with
//     mullo_epi16 and pairs the products with madd_epi16 into int32 lanes (the trick of
//     Lizard/Stormphrax-era engines); lanes are flushed into 64-bit totals every 64 vectors so
//     no lane can overflow for any hidden size up to 2048.
//   * CReLU: sum_i c_i * w_i with madd_epi16.

#include <algorithm>
#include <cstdint>

#if defined(__AVX512BW__)
#include <immintrin.h>
#define JANUS_NNUE_SIMD "avx512bw"
#elif defined(__AVX2__)
#include <immintrin.h>
#define JANUS_NNUE_SIMD "avx2"
#else
#define JANUS_NNUE_SIMD "scalar"
#endif

namespace janus::nnue::simd {

/// Name of the compiled path: "avx512bw", "avx2" or "scalar".
inline constexpr const char* kPath = JANUS_NNUE_SIMD;

/// dst[i] = src[i] + sum over `adds` rows[i] - sum over `subs` rows[i], i < n (n a multiple of 16).
/// dst may alias src. Rows are int16 arrays of n values.
inline void updateAccumulator(std::int16_t* dst, const std::int16_t* src, const std::int16_t* const* adds, int nAdds,
                              const std::int16_t* const* subs, int nSubs, int n) {
  // Plain loops over i: GCC -O3 vectorises them for the target ISA (vpaddw/vpsubw on 16 or 32
  // lanes). The common shapes (quiet move, capture, castling) get their own fused loop.
  if (nAdds == 1 && nSubs == 1) {
    const std::int16_t *a = adds[0], *s = subs[0];
    for (int i = 0; i < n; ++i) dst[i] = std::int16_t(src[i] + a[i] - s[i]);
  } else if (nAdds == 1 && nSubs == 2) {
    const std::int16_t *a = adds[0], *s0 = subs[0], *s1 = subs[1];
    for (int i = 0; i < n; ++i) dst[i] = std::int16_t(src[i] + a[i] - s0[i] - s1[i]);
  } else if (nAdds == 2 && nSubs == 2) {
    const std::int16_t *a0 = adds[0], *a1 = adds[1], *s0 = subs[0], *s1 = subs[1];
    for (int i = 0; i < n; ++i) dst[i] = std::int16_t(src[i] + a0[i] + a1[i] - s0[i] - s1[i]);
  } else {
    if (dst != src) std::copy(src, src + n, dst);
    for (int k = 0; k < nAdds; ++k)
      for (int i = 0; i < n; ++i) dst[i] = std::int16_t(dst[i] + adds[k][i]);
    for (int k = 0; k < nSubs; ++k)
      for (int i = 0; i < n; ++i) dst[i] = std::int16_t(dst[i] - subs[k][i]);
  }
}

/// Scalar reference: sum_i c_i * c_i * w_i (SCReLU) or sum_i c_i * w_i (CReLU), c_i = clamp(acc_i, 0, qa).
inline std::int64_t dotScalar(const std::int16_t* acc, const std::int16_t* w, int n, int qa, bool screlu) {
  std::int64_t sum = 0;
  for (int i = 0; i < n; ++i) {
    const int c = std::clamp<int>(acc[i], 0, qa);
    sum += screlu ? std::int64_t(c) * std::int16_t(c * w[i]) : std::int64_t(c) * w[i];
  }
  return sum;
}

/// The activated dot product of one accumulator (n int16, n a multiple of 16; unaligned loads)
/// with n output weights; equal to dotScalar on every path.
inline std::int64_t dot(const std::int16_t* acc, const std::int16_t* w, int n, int qa, bool screlu) {
#if defined(__AVX512BW__)
  const __m512i zero = _mm512_setzero_si512(), top = _mm512_set1_epi16(std::int16_t(qa));
  std::int64_t total = 0;
  for (int base = 0; base < n; base += 32 * 64) {
    __m512i lanes = _mm512_setzero_si512();
    const int end = std::min(n, base + 32 * 64);
    int i = base;
    for (; i + 32 <= end; i += 32) {
      __m512i c = _mm512_min_epi16(_mm512_max_epi16(_mm512_loadu_si512(acc + i), zero), top);
      __m512i wv = _mm512_loadu_si512(w + i);
      lanes = _mm512_add_epi32(lanes, _mm512_madd_epi16(c, screlu ? _mm512_mullo_epi16(c, wv) : wv));
    }
    alignas(64) std::int32_t parts[16];
    _mm512_store_si512(parts, lanes);
    for (std::int32_t p : parts) total += p;
    if (i < end) total += dotScalar(acc + i, w + i, end - i, qa, screlu);  // a tail of 16
  }
  return total;
#elif defined(__AVX2__)
  const __m256i zero = _mm256_setzero_si256(), top = _mm256_set1_epi16(std::int16_t(qa));
  std::int64_t total = 0;
  for (int base = 0; base < n; base += 16 * 64) {
    __m256i lanes = _mm256_setzero_si256();
    const int end = std::min(n, base + 16 * 64);
    for (int i = base; i < end; i += 16) {
      __m256i c = _mm256_min_epi16(_mm256_max_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(acc + i)), zero), top);
      __m256i wv = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w + i));
      lanes = _mm256_add_epi32(lanes, _mm256_madd_epi16(c, screlu ? _mm256_mullo_epi16(c, wv) : wv));
    }
    alignas(32) std::int32_t parts[8];
    _mm256_store_si256(reinterpret_cast<__m256i*>(parts), lanes);
    for (std::int32_t p : parts) total += p;
  }
  return total;
#else
  return dotScalar(acc, w, n, qa, screlu);
#endif
}

}  // namespace janus::nnue::simd
