/*
 * What the stitched AES-GCM kernels compete for on this CPU: the throughput of
 * VAESENC and VPCLMULQDQ on 512-bit vectors, alone and mixed, and the latency
 * of each, in TSC ticks (the clock every galois benchmark reports in).
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
 *   nice -n -20 taskset -c 1 ./ports
 */
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <x86intrin.h>

#define ITERS 200000L
#define AES(x) x = _mm512_aesenc_epi128(x, k)
#define MUL(x) x = _mm512_clmulepi64_epi128(x, k, 0x01)
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

static __m512i k;

#define BENCH(name, per, body)                                                    \
  ({                                                                              \
    double best = 1e30;                                                           \
    for (int r = 0; r < 40; r++) {                                                \
      __m512i a0 = k, a1 = k, a2 = k, a3 = k, a4 = k, a5 = k, a6 = k, a7 = k,     \
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
  k = _mm512_set1_epi32(0x1234567);
  long g = 0;
  double base = 0;
  (void)BENCH("dependent add x4 (1 core cycle each)", 4, __asm__ volatile("add $1,%0\n\tadd $1,%0\n\tadd $1,%0\n\tadd $1,%0" : "+r"(g)));
  (void)BENCH("vaesenc zmm latency (chain of 4)", 4, AES(a0); AES(a0); AES(a0); AES(a0));
  (void)BENCH("vpclmulqdq zmm latency (chain of 4)", 4, MUL(c0); MUL(c0); MUL(c0); MUL(c0));
  base = BENCH("12 vaesenc zmm", 12, AES12);
  double aes_only = base;
  base = 0;
  (void)BENCH("12 vpclmulqdq zmm", 12, MUL12);
  base = aes_only;
  (void)BENCH("12 vaesenc + 2 vpclmulqdq", 2, AES12 MUL2);
  (void)BENCH("12 vaesenc + 4 vpclmulqdq", 4, AES12 MUL4);
  (void)BENCH("12 vaesenc + 8 vpclmulqdq", 8, AES12 MUL8);
  (void)BENCH("12 vaesenc + 12 vpclmulqdq", 12, AES12 MUL12);
  (void)BENCH("12 vaesenc + 8 vpshufb", 8, AES12 c0 = _mm512_shuffle_epi8(c0, k); c1 = _mm512_shuffle_epi8(c1, k); c2 = _mm512_shuffle_epi8(c2, k); c3 = _mm512_shuffle_epi8(c3, k); c4 = _mm512_shuffle_epi8(c4, k); c5 = _mm512_shuffle_epi8(c5, k); c6 = _mm512_shuffle_epi8(c6, k); c7 = _mm512_shuffle_epi8(c7, k));
  (void)BENCH("12 vaesenc + 8 vpternlogq", 8, AES12 c0 = _mm512_ternarylogic_epi64(c0, a0, k, 0x96); c1 = _mm512_ternarylogic_epi64(c1, a1, k, 0x96); c2 = _mm512_ternarylogic_epi64(c2, a2, k, 0x96); c3 = _mm512_ternarylogic_epi64(c3, a3, k, 0x96); c4 = _mm512_ternarylogic_epi64(c4, a4, k, 0x96); c5 = _mm512_ternarylogic_epi64(c5, a5, k, 0x96); c6 = _mm512_ternarylogic_epi64(c6, a6, k, 0x96); c7 = _mm512_ternarylogic_epi64(c7, a7, k, 0x96));
  (void)BENCH("12 vaesenc + 8 vpxorq", 8, AES12 c0 = _mm512_xor_si512(c0, a0); c1 = _mm512_xor_si512(c1, a1); c2 = _mm512_xor_si512(c2, a2); c3 = _mm512_xor_si512(c3, a3); c4 = _mm512_xor_si512(c4, a4); c5 = _mm512_xor_si512(c5, a5); c6 = _mm512_xor_si512(c6, a6); c7 = _mm512_xor_si512(c7, a7));
  return 0;
}
