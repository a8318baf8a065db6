// Checks the GHASH cores (gh_top.v) against a C++ GHASH model (GCM spec Algorithm 1 per
// block): random hashes of 1..40 blocks, back to back, some with a new H (loaded with the
// hash's first block, while the previous hash may still be in a multiplier), with bubbles
// (in_valid dropped on 30% of the clocks); then a long stream without bubbles measures the
// clocks per block each core sustains. Usage: tb_ghash [hashes] [seed]
#include "Vgh_top.h"
#include "verilated.h"
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

typedef unsigned __int128 u128;
static u128 gmul(u128 a, u128 b) {   // reflected order: the integer's MSB is x^0
  const u128 R = (u128)0xE1 << 120;
  u128 z = 0, v = b;
  for (int i = 0; i < 128; i++) {
    if ((a >> (127 - i)) & 1) z ^= v;
    v = (v & 1) ? (v >> 1) ^ R : v >> 1;
  }
  return z;
}
static void put(VlWide<4>& w, u128 x) { for (int i = 0; i < 4; i++) w[i] = (uint32_t)(x >> (32 * i)); }
static u128 val(const VlWide<4>& w) { u128 x = 0; for (int i = 3; i >= 0; i--) x = (x << 32) | w[i]; return x; }

static const int NC = 9;
static const char* NAMES[NC] = {"ghash.v, 1 parallel (1 clock)", "even/odd, 2 parallel (1 clock)",
                                "even/odd, 2 parallel pipelined (2 clocks)", "even/odd, 2 digit-serial D=64",
                                "even/odd, 2 digit-serial D=32", "even/odd, 2 digit-serial D=16",
                                "even/odd, 2 digit-serial D=16, preloaded",
                                "even/odd, 1 shared Karatsuba (2 clocks)",
                                "even/odd, 1 shared Karatsuba, leaf-form operand registers (2 clocks)"};
// ceil(L / 2) clocks per block, L = 128/D clocks per multiply (+ 1 load clock when preloaded)
static const double WANT_CPB[NC] = {1, 1, 1, 1, 2, 4, 5, 1, 1};

struct Hash { u128 h; bool newh; std::vector<u128> blk; u128 want; };

struct Top {
  Vgh_top* t = new Vgh_top;
  long cycle = 0;
  VlWide<4>* din(int k) {
    switch (k) { case 0: return &t->d0; case 1: return &t->d1; case 2: return &t->d2; case 3: return &t->d3; case 4: return &t->d4; case 5: return &t->d5; case 6: return &t->d6; case 7: return &t->d7; default: return &t->d8; }
  }
  const VlWide<4>* xo(int k) {
    switch (k) { case 0: return &t->x0; case 1: return &t->x1; case 2: return &t->x2; case 3: return &t->x3; case 4: return &t->x4; case 5: return &t->x5; case 6: return &t->x6; case 7: return &t->x7; default: return &t->x8; }
  }
};

// Runs the hashes through core k; returns (wrong results, clocks from first to last accept)
static void run(Top& T, int k, std::vector<Hash>& hs, double stall, std::mt19937_64& rng, long& bad, long& clocks,
                long& blocks) {
  Vgh_top* t = T.t;
  t->rst = 1; t->in_v = 0; t->h_load = 0;
  for (int i = 0; i < 3; i++) { t->clk = 0; t->eval(); t->clk = 1; t->eval(); }
  t->rst = 0;
  std::uniform_real_distribution<double> U(0, 1);
  // blocks in order; each x_v pulse is one finished block
  std::vector<std::pair<int, int>> order;   // (hash, block)
  for (int i = 0; i < (int)hs.size(); i++)
    for (int j = 0; j < (int)hs[i].blk.size(); j++) order.push_back({i, j});
  size_t p = 0, done = 0;
  long first = -1, last = -1, cyc = 0;
  bad = 0; blocks = (long)order.size();
  while (done < order.size() && cyc < (long)order.size() * 20 + 200) {
    bool present = p < order.size() && !(stall > 0 && U(rng) < stall);
    unsigned bit = 1u << k;
    t->in_v = present ? bit : 0;
    t->in_hs = 0; t->in_last = 0; t->h_load = 0;
    if (present) {
      const Hash& h = hs[order[p].first];
      int j = order[p].second;
      if (j == 0) t->in_hs = bit;
      if (j + 1 == (int)h.blk.size()) t->in_last = bit;
      put(*T.din(k), h.blk[j]);
      put(t->h_in, h.h);
    }
    t->clk = 0; t->eval();
    bool fire = present && (t->in_ready & bit);
    if (fire && order[p].second == 0 && hs[order[p].first].newh) { t->h_load = bit; t->eval(); }
    t->clk = 1; t->eval();
    cyc++;
    if (fire) { if (first < 0) first = cyc; last = cyc; p++; }
    if (t->x_v & bit) {
      auto [hi, j] = order[done];
      if (j + 1 == (int)hs[hi].blk.size() && val(*T.xo(k)) != hs[hi].want) bad++;
      done++;
    }
  }
  if (done < order.size()) bad += (long)(order.size() - done);
  clocks = last - first + 1;
}

int main(int argc, char** argv) {
  Verilated::commandArgs(argc, argv);
  int n = argc > 1 ? atoi(argv[1]) : 400;
  std::mt19937_64 rng(argc > 2 ? strtoull(argv[2], nullptr, 10) : 11);
  auto r128 = [&]() { return ((u128)rng() << 64) | rng(); };
  // spec test case 2: GHASH(H, {}, C) over C1 and the length block
  {
    u128 h = ((u128)0x66e94bd4ef8a2c3bULL << 64) | 0x884cfa59ca342b2eULL;
    u128 c = ((u128)0x0388dace60b6a392ULL << 64) | 0xf328c2b971b2fe78ULL;
    u128 x = ((u128)0xf38cbb1ad69223dcULL << 64) | 0xc3457ae5b6b0f885ULL;
    if (gmul(gmul(c, h) ^ (u128)128, h) != x) { printf("model wrong\nghash: 0 passed, 1 failed\n"); return 1; }
  }
  std::vector<Hash> hs(n);
  u128 h = r128();
  for (int i = 0; i < n; i++) {
    Hash& x = hs[i];
    x.newh = i == 0 || rng() % 4 == 0;
    if (x.newh) h = (rng() % 10 == 0) ? (u128)0 : r128();   // H = 0 now and then
    x.h = h;
    int len = (i % 7 == 0) ? 1 : (i % 7 == 1) ? 2 : 1 + (int)(rng() % 40);
    u128 acc = 0;
    for (int j = 0; j < len; j++) { u128 b = r128(); x.blk.push_back(b); acc = gmul(acc ^ b, h); }
    x.want = acc;
  }
  // a long stream without bubbles and one key: the clocks per block
  std::vector<Hash> st(40);
  for (auto& x : st) {
    x.h = h; x.newh = &x == &st[0];
    u128 acc = 0;
    for (int j = 0; j < 50; j++) { u128 b = r128(); x.blk.push_back(b); acc = gmul(acc ^ b, h); }
    x.want = acc;
  }
  Top T;
  int pass = 0, fail = 0;
  for (int k = 0; k < NC; k++) {
    long bad1, c1, b1, bad2, c2, b2;
    run(T, k, hs, 0.3, rng, bad1, c1, b1);
    run(T, k, st, 0.0, rng, bad2, c2, b2);
    double cpb = (double)c2 / b2;
    bool ok = bad1 == 0 && bad2 == 0 && std::abs(cpb - WANT_CPB[k]) < 0.01;
    printf("  %-44s %d hashes (%ld blocks, bubbles) + 40 x 50 blocks: %ld wrong; %.3f clocks/block back to back (want %.0f) %s\n",
           NAMES[k], n, b1, bad1 + bad2, cpb, WANT_CPB[k], ok ? "ok" : "FAIL");
    if (ok) pass++; else fail++;
  }
  printf("ghash: %d passed, %d failed\n", pass, fail);
  delete T.t;
  return fail ? 1 : 0;
}
