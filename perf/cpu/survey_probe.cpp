// perf/cpu/survey_probe.cpp -- session 16 probe (not built by CMake: g++ -O3 -std=c++20 survey_probe.cpp -ltbb): survey-like passes over 2^27 u32 keys (DRAM), K threads (argv[1]), 64 chunks taken by ticket as the par radix sort's survey does: OR/AND alone, with the 12-bit histogram, with the sortedness check, and variants of it.
#include <tbb/parallel_for.h>
#include <tbb/global_control.h>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>
#include <algorithm>
using U = std::uint32_t;
template <class F> double med(F f) { std::vector<double> v; for (int r = 0; r < 9; ++r) { auto t = std::chrono::steady_clock::now(); f(); v.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count()); } std::sort(v.begin(), v.end()); return v[4]; }
int main(int argc, char** argv) {
  const int T = argc > 1 ? std::atoi(argv[1]) : 16;
  tbb::global_control gc(tbb::global_control::max_allowed_parallelism, T);
  const std::int64_t n = std::int64_t{1} << 27;
  std::vector<U> k(n);
  tbb::parallel_for(std::int64_t{0}, n / 65536, [&](std::int64_t b) { std::mt19937 g(b); for (std::int64_t i = b * 65536; i < (b + 1) * 65536; ++i) k[i] = g(); });
  const int chunks = 64; const std::int64_t cs = n / chunks;
  std::vector<std::int64_t> hist(std::size_t(chunks) * 4096);
  std::vector<U> acc(T * 16);
  auto run = [&](int mode) {
    std::atomic<int> ticket{0};
    tbb::parallel_for(0, T, [&](int w) {
      U o = 0, a = ~U(0); bool sorted = true;
      for (;;) {
        const int c = ticket.fetch_add(1);
        if (c >= chunks) break;
        std::int64_t* h = hist.data() + std::size_t(c) * 4096;
        std::fill(h, h + 4096, 0);
        const U* p = k.data() + c * cs;
        if (mode == 0) { for (std::int64_t i = 0; i < cs; ++i) { o |= p[i]; a &= p[i]; } }
        else if (mode == 1) { for (std::int64_t i = 0; i < cs; ++i) { const U u = p[i]; o |= u; a &= u; ++h[(u >> 20) & 4095]; } }
        else if (mode == 3) { U prev = 0; unsigned bad = 0; for (std::int64_t i = 0; i < cs; ++i) { const U u = p[i]; o |= u; a &= u; bad |= unsigned(prev > u); prev = u; ++h[(u >> 20) & 4095]; } sorted = !bad; }
        else if (mode == 4) { U prev = 0; unsigned bad = 0; std::int64_t i = 0; for (; i + 1 < cs; i += 2) { const U u0 = p[i], u1 = p[i + 1]; o |= u0 | u1; a &= u0 & u1; bad |= unsigned(prev > u0) | unsigned(u0 > u1); prev = u1; ++h[(u0 >> 20) & 4095]; ++h[(u1 >> 20) & 4095]; } sorted = !bad; }
        else if (mode == 5) { for (std::int64_t i = 0; i < cs; ++i) { const U u = p[i]; ++h[(u >> 20) & 4095]; } for (std::int64_t i = 0; i < cs; ++i) { o |= p[i]; a &= p[i]; } U prev = 0; for (std::int64_t i = 0; i < cs; ++i) { sorted &= prev <= p[i]; prev = p[i]; } }
        else { U prev = 0; for (std::int64_t i = 0; i < cs; ++i) { const U u = p[i]; o |= u; a &= u; sorted &= prev <= u; prev = u; ++h[(u >> 20) & 4095]; } }
      }
      acc[w * 16] = o ^ a ^ sorted;
    }, tbb::simple_partitioner());
  };
  for (int m = 0; m < 6; ++m) std::printf("threads %d mode %s: %.2f ms\n", T, m == 0 ? "or/and" : m == 1 ? "or/and+hist" : m == 2 ? "or/and+hist+sorted" : m == 3 ? "+hist+bad|=" : m == 4 ? "+hist+bad|= x2" : "three loops", med([&] { run(m); }));
}
