/*
 * What the stitched AES-GCM kernels compete for on this CPU: the throughput of
 * VAESENC and VPCLMULQDQ on 512-bit vectors (or 256-bit ones, built with
 * -DYMM for CPUs without AVX-512), alone and mixed, and the latency of each,
 * in TSC ticks (the clock every galois benchmark reports in).
 *
 * For the mixed loops the last column is what each added instruction costs on
 * top of the 12 VAESENC (their base time); for the others, base is 0.
 *
 * Each figure is the best of 40 runs of 200,000 loop iterations. Every vector
 * chain is independent (12 chains: more than latency x throughput), and an
 * empty asm statement that claims to modify the registers keeps the compiler
 * from merging or deleting them.
 *
 *   cc -O2 -mavx512f -mavx512bw -mvaes -mvpclmulqdq ports.c -o ports
 *   cc -O2 -DYMM -mavx2 -mvaes -mvpclmulqdq ports.c -o ports
 *   nice -n -20 taskset -c 1 ./ports
 */
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <x86intrin.h>

#define ITERS 200000L
#ifdef YMM
#define W "ymm"
typedef __m256i vec;
#define AES(x) x = _mm256_aesenc_epi128(x, k)
#define MUL(x) x = _mm256_clmulepi64_epi128(x, k, 0x01)
#define SHUF(x) x = _mm256_shuffle_epi8(x, k)
#define XOR(x, y) x = _mm256_xor_si256(x, y)
#define SET1(v) _mm256_set1_epi32(v)
#else
#define W "zmm"
typedef __m512i vec;
#define AES(x) x = _mm512_aesenc_epi128(x, k)
#define MUL(x) x = _mm512_clmulepi64_epi128(x, k, 0x01)
#define SHUF(x) x = _mm512_shuffle_epi8(x, k)
#define XOR(x, y) x = _mm512_xor_si512(x, y)
#define TERN(x, y) x = _mm512_ternarylogic_epi64(x, y, k, 0x96)
#define SET1(v) _mm512_set1_epi32(v)
#endif
#define KEEP(...) __asm__ volatile("" : __VA_ARGS__)
#define KEEP_A KEEP("+v"(a0), "+v"(a1), "+v"(a2), "+v"(a3), "+v"(a4), "+v"(a5), \
                    "+v"(a6), "+v"(a7), "+v"(a8), "+v"(a9), "+v"(a10), "+v"(a11))
#define KEEP_C KEEP("+v"(c0), "+v"(c1), "+v"(c2), "+v"(c3), "+v"(c4), "+v"(c5), \
                    "+v"(c6), "+v"(c7), "+v"(c8), "+v"(c9), "+v"(c10), "+v"(c11))
#define AES12 AES(a0); AES(a1); AES(a2); AES(a3); AES(a4); AES(a5); \
              AES(a6); AES(a7); AES(a8); AES(a9); AES(a10); AES(a11);
#define MUL2 MUL(c0); MUL(c1);
#define MUL4 MUL2 MUL(c2); MUL(c3);
#define MUL8 MUL4 MUL(c4); MUL(c5); MUL(c6); MUL(c7);
#define MUL12 MUL8 MUL(c8); MUL(c9); MUL(c10); MUL(c11);

static vec k;

#define BENCH(name, per, body)                                                    \
  ({                                                                              \
    double best = 1e30;                                                           \
    for (int r = 0; r < 40; r++) {                                                \
      vec a0 = k, a1 = k, a2 = k, a3 = k, a4 = k, a5 = k, a6 = k, a7 = k,     \
              a8 = k, a9 = k, a10 = k, a11 = k, c0 = k, c1 = k, c2 = k, c3 = k,   \
              c4 = k, c5 = k, c6 = k, c7 = k, c8 = k, c9 = k, c10 = k, c11 = k;   \
      KEEP_A; KEEP_C;                                                             \
      uint64_t t0 = __rdtsc();                                                    \
      for (long i = 0; i < ITERS; i++) { body; KEEP_A; KEEP_C; }                  \
      uint64_t t1 = __rdtsc();                                                    \
      double v = (double)(t1 - t0) / ITERS;                                       \
      if (v < best) best = v;                                                     \
    }                                                                             \
    printf("%-34s %7.2f ticks/iteration  %6.3f per instruction\n", name, best,   \
           (best - base) / (per));                                                \
    best;                                                                         \
  })

int main(void) {
  k = SET1(0x1234567);
  long g = 0;
  double base = 0;
  (void)BENCH("dependent add x4 (1 core cycle each)", 4, __asm__ volatile("add $1,%0\n\tadd $1,%0\n\tadd $1,%0\n\tadd $1,%0" : "+r"(g)));
  (void)BENCH("vaesenc " W " latency (chain of 4)", 4, AES(a0); AES(a0); AES(a0); AES(a0));
  (void)BENCH("vpclmulqdq " W " latency (chain of 4)", 4, MUL(c0); MUL(c0); MUL(c0); MUL(c0));
  base = BENCH("12 vaesenc " W, 12, AES12);
  double aes_only = base;
  base = 0;
  (void)BENCH("12 vpclmulqdq " W, 12, MUL12);
  base = aes_only;
  (void)BENCH("12 vaesenc + 2 vpclmulqdq", 2, AES12 MUL2);
  (void)BENCH("12 vaesenc + 4 vpclmulqdq", 4, AES12 MUL4);
  (void)BENCH("12 vaesenc + 8 vpclmulqdq", 8, AES12 MUL8);
  (void)BENCH("12 vaesenc + 12 vpclmulqdq", 12, AES12 MUL12);
  (void)BENCH("12 vaesenc + 8 vpshufb", 8, AES12 SHUF(c0); SHUF(c1); SHUF(c2); SHUF(c3); SHUF(c4); SHUF(c5); SHUF(c6); SHUF(c7));
#ifndef YMM
  (void)BENCH("12 vaesenc + 8 vpternlogq", 8, AES12 TERN(c0, a0); TERN(c1, a1); TERN(c2, a2); TERN(c3, a3); TERN(c4, a4); TERN(c5, a5); TERN(c6, a6); TERN(c7, a7));
#endif
  (void)BENCH("12 vaesenc + 8 vpxor", 8, AES12 XOR(c0, a0); XOR(c1, a1); XOR(c2, a2); XOR(c3, a3); XOR(c4, a4); XOR(c5, a5); XOR(c6, a6); XOR(c7, a7));
  return 0;
}
