// perf/cpu/faults_probe.cpp -- diagnostic (built on request): what first-touch page faults cost a
// fresh n-sized temporary on this host (the par radix sort's MSD scatter writes into one per call,
// backend/tbb/temporary.hpp). Maps `MiB` MiB (default 512: 2^27 u32 keys), touches it with all
// workers (tbb::parallel_for, 64 KiB pieces), then touches it again (no faults), for:
//   plain      mmap, 4 KiB pages
//   huge       mmap + MADV_HUGEPAGE (what temporary.hpp does)
//   huge2m     the same, the start aligned to 2 MiB (over-map and trim)
// and prints wall ms of both touches and the /proc/vmstat THP counters' change.
// Usage: sweep_perf_cpu_faults_probe [MiB] [rounds]
#include <sys/mman.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <string>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

namespace {

std::map<std::string, long long> vmstat() {
    std::map<std::string, long long> m;
    std::ifstream f("/proc/vmstat");
    std::string k;
    long long v;
    while (f >> k >> v)
        if (k.rfind("thp_", 0) == 0 || k == "pgfault" || k == "compact_stall") m[k] = v;
    return m;
}

double touch(unsigned char* p, std::size_t bytes, unsigned char value) {
    const auto t0 = std::chrono::steady_clock::now();
    constexpr std::size_t piece = 64 << 10;
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, bytes / piece), [&](const auto& r) {
        for (std::size_t i = r.begin(); i != r.end(); ++i) std::memset(p + i * piece, value, piece);
    });
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

void one(const char* name, std::size_t bytes, bool huge, bool align) {
    constexpr std::size_t h = std::size_t{1} << 21;
    const std::size_t span = align ? bytes + h : bytes;
    void* raw = mmap(nullptr, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED) {
        std::printf("%s: mmap failed\n", name);
        return;
    }
    auto* p = static_cast<unsigned char*>(raw);
    if (align) p = reinterpret_cast<unsigned char*>((reinterpret_cast<std::uintptr_t>(p) + h - 1) / h * h);
    if (huge) madvise(p, bytes, MADV_HUGEPAGE);
    const auto before = vmstat();
    const double first = touch(p, bytes, 1);
    const auto after = vmstat();
    const double second = touch(p, bytes, 2);
    std::printf("%-8s first touch %8.2f ms (%6.1f GB/s)  second %8.2f ms (%6.1f GB/s) ", name, first,
                bytes / first / 1e6, second, bytes / second / 1e6);
    for (const auto& [k, v] : after) {
        const long long d = v - before.at(k);
        if (d != 0) std::printf(" %s+%lld", k.c_str(), d);
    }
    std::printf("\n");
    munmap(raw, span);
}

}  // namespace

int main(int argc, char** argv) {
    const std::size_t mib = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 512;
    const int rounds = argc > 2 ? std::atoi(argv[2]) : 3;
    const std::size_t bytes = mib << 20;
    std::printf("faults probe: %zu MiB, %d rounds\n", mib, rounds);
    for (int r = 0; r < rounds; ++r) {
        one("plain", bytes, false, false);
        one("huge", bytes, true, false);
        one("huge2m", bytes, true, true);
    }
}
