// Checks every generated multiplier against a software bit-serial reference (GCM spec
// Algorithm 1) on random products; also counts the clocks each serial multiplier takes.
// Usage: tb_mul [N] [seed]
#include "Vmul_top.h"
#include "verilated.h"
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>

typedef unsigned __int128 u128;
// reflected order: most significant bit of the integer = coefficient of x^0
static u128 ref128(u128 a, u128 b) {
  const u128 R = (u128)0xE1 << 120;
  u128 z = 0, v = b;
  for (int i = 0; i < 128; i++) {
    if ((a >> (127 - i)) & 1) z ^= v;
    v = (v & 1) ? (v >> 1) ^ R : v >> 1;
  }
  return z;
}
static uint64_t ref64(uint64_t a, uint64_t b) {
  const uint64_t R = (uint64_t)0xD8 << 56;   // 1 + x + x^3 + x^4
  uint64_t z = 0, v = b;
  for (int i = 0; i < 64; i++) {
    if ((a >> (63 - i)) & 1) z ^= v;
    v = (v & 1) ? (v >> 1) ^ R : v >> 1;
  }
  return z;
}
static void put(VlWide<4>& w, u128 x) { for (int i = 0; i < 4; i++) w[i] = (uint32_t)(x >> (32 * i)); }
static u128 get(const VlWide<4>& w) { u128 x = 0; for (int i = 3; i >= 0; i--) x = (x << 32) | w[i]; return x; }

int main(int argc, char** argv) {
  Verilated::commandArgs(argc, argv);
  int n = argc > 1 ? atoi(argv[1]) : 3000;
  std::mt19937_64 rng(argc > 2 ? strtoull(argv[2], nullptr, 10) : 7);
  // spec test case 2: X1 = C1 * H
  {
    u128 h = ((u128)0x66e94bd4ef8a2c3bULL << 64) | 0x884cfa59ca342b2eULL;
    u128 c = ((u128)0x0388dace60b6a392ULL << 64) | 0xf328c2b971b2fe78ULL;
    u128 x = ((u128)0x5e2ec74691706288ULL << 64) | 0x2c85b0685353deb7ULL;
    if (ref128(c, h) != x) { printf("reference model wrong\n0 passed, 1 failed\n"); return 1; }
  }
  Vmul_top* t = new Vmul_top;
  t->rst = 1; t->start = 0;
  for (int i = 0; i < 2; i++) { t->clk = 0; t->eval(); t->clk = 1; t->eval(); }
  t->rst = 0;
  const char* names[7] = {"gf128 parallel", "gf128 digit-serial D=8", "gf128 digit-serial D=32",
                          "gf128 bit-serial", "gf64 parallel", "gf64 digit-serial D=8", "gf64 bit-serial"};
  long bad[7] = {0}, cyc[7] = {0};
  for (int k = 0; k < n; k++) {
    u128 a = ((u128)rng() << 64) | rng(), b = ((u128)rng() << 64) | rng();
    // a few structured operands: 0, 1 (= x^0, the MSB), x^127 (= bit 0)
    if (k == 0) a = 0;
    if (k == 1) a = (u128)1 << 127;
    if (k == 2) { a = 1; b = 1; }
    if (k == 3) { a = ~(u128)0; b = ~(u128)0; }
    uint64_t a6 = (uint64_t)a, b6 = (uint64_t)b;
    u128 e128 = ref128(a, b);
    uint64_t e64 = ref64(a6, b6);
    put(t->a128, a); put(t->b128, b); t->a64 = a6; t->b64 = b6;
    t->start = 1;
    t->clk = 0; t->eval();
    if (get(t->z128_par) != e128) bad[0]++;
    if (t->z64_par != e64) bad[4]++;
    t->clk = 1; t->eval();
    t->start = 0;
    int seen = 0;
    long c = 0;
    const int bits[5] = {1, 2, 3, 5, 6};
    while (seen != 0x1f && c < 300) {
      t->clk = 0; t->eval(); t->clk = 1; t->eval(); c++;
      for (int i = 0; i < 5; i++) {
        if (((t->done >> i) & 1) && !((seen >> i) & 1)) {
          seen |= 1 << i;
          int m = bits[i];
          cyc[m] = c;
          bool ok = m == 1 ? get(t->z128_ds8) == e128 : m == 2 ? get(t->z128_ds32) == e128
                  : m == 3 ? get(t->z128_bs) == e128 : m == 5 ? t->z64_ds8 == e64 : t->z64_bs == e64;
          if (!ok) bad[m]++;
        }
      }
    }
    for (int i = 0; i < 5; i++) if (!((seen >> i) & 1)) bad[bits[i]]++;
  }
  long pass = 0, fail = 0;
  for (int m = 0; m < 7; m++) {
    printf("  %-26s %d products, %ld wrong, %ld clocks per product\n", names[m], n, bad[m],
           (m == 0 || m == 4) ? 1L : cyc[m]);
    if (bad[m]) fail++; else pass++;
  }
  printf("multipliers: %ld passed, %ld failed\n", pass, fail);
  delete t;
  return fail ? 1 : 0;
}
