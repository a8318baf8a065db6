// Checks every generated multiplier (list in mul_list.h, written by mk_multop.py) against a
// software bit-serial reference (GCM spec Algorithm 1) on random products, and measures
// the clocks each serial multiplier takes from its start clock to done.
// Usage: tb_mul [N] [seed]
#include "Vmul_top.h"
#include "verilated.h"
#include "mul_list.h"
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>

typedef unsigned __int128 u128;
// reflected order: the most significant bit of the integer is the coefficient of x^0
static u128 ref128(u128 a, u128 b) {
  const u128 R = (u128)0xE1 << 120;   // 1 + x + x^2 + x^7
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
static u128 val(const VlWide<4>& w) { u128 x = 0; for (int i = 3; i >= 0; i--) x = (x << 32) | w[i]; return x; }
static u128 val(uint64_t w) { return w; }

struct Stat { const char* name; int width, par; long bad = 0, clocks = -1, seen = 0; };

int main(int argc, char** argv) {
  Verilated::commandArgs(argc, argv);
  int n = argc > 1 ? atoi(argv[1]) : 3000;
  std::mt19937_64 rng(argc > 2 ? strtoull(argv[2], nullptr, 10) : 7);
  {  // spec test case 2: X1 = C1 * H
    u128 h = ((u128)0x66e94bd4ef8a2c3bULL << 64) | 0x884cfa59ca342b2eULL;
    u128 c = ((u128)0x0388dace60b6a392ULL << 64) | 0xf328c2b971b2fe78ULL;
    u128 x = ((u128)0x5e2ec74691706288ULL << 64) | 0x2c85b0685353deb7ULL;
    if (ref128(c, h) != x) { printf("reference model wrong\nmultipliers: 0 passed, 1 failed\n"); return 1; }
  }
  Vmul_top* t = new Vmul_top;
  std::vector<Stat> st;
#define ADD(nm, w, p, label) st.push_back(Stat{label, w, p});
  MUL_LIST(ADD)
  t->rst = 1; t->start = 0;
  for (int i = 0; i < 2; i++) { t->clk = 0; t->eval(); t->clk = 1; t->eval(); }
  t->rst = 0;
  for (int k = 0; k < n; k++) {
    u128 a = ((u128)rng() << 64) | rng(), b = ((u128)rng() << 64) | rng();
    if (k == 0) a = 0;
    if (k == 1) a = (u128)1 << 127;            // the polynomial 1
    if (k == 2) { a = 1; b = 1; }              // x^127 * x^127
    if (k == 3) { a = ~(u128)0; b = ~(u128)0; }
    uint64_t a6 = (uint64_t)a, b6 = (uint64_t)b;
    u128 e128 = ref128(a, b);
    u128 e64 = ref64(a6, b6);
    put(t->a128, a); put(t->b128, b); t->a64 = a6; t->b64 = b6;
    t->start = 1;
    t->clk = 0; t->eval();
    int i = 0;
#define CHECKPAR(nm, w, p, label) \
    if (p && val(t->z_##nm) != (w == 128 ? e128 : e64)) st[i].bad++; \
    st[i].seen = p; i++;
    MUL_LIST(CHECKPAR)
    t->clk = 1; t->eval();
    t->start = 0;
    long c = 0;
    bool all = false;
    while (!all && c < 300) {
      t->clk = 0; t->eval(); t->clk = 1; t->eval(); c++;
      all = true; i = 0;
#define CHECKSEQ(nm, w, p, label) \
      if (!st[i].seen && t->done_##nm) { \
        st[i].seen = 1; st[i].clocks = c; \
        if (val(t->z_##nm) != (w == 128 ? e128 : e64)) st[i].bad++; \
      } \
      all = all && st[i].seen; i++;
      MUL_LIST(CHECKSEQ)
    }
    for (auto& s : st) if (!s.seen) s.bad++;
  }
  long pass = 0, fail = 0;
  for (auto& s : st) {
    if (s.par) printf("  %-28s %d products, %ld wrong, combinational (1 clock)\n", s.name, n, s.bad);
    else printf("  %-28s %d products, %ld wrong, %ld clocks from start to done (1 load + %ld)\n", s.name, n,
                s.bad, s.clocks + 1, s.clocks);
    if (s.bad) fail++; else pass++;
  }
  printf("multipliers: %ld passed, %ld failed\n", pass, fail);
  delete t;
  return fail ? 1 : 0;
}
