// examples/demo.cpp -- the demo: every algorithm on every available policy, checked against seq.
//
// Usage: sweep_demo [log2_n]   (default 26: 2^26 elements)
// For each algorithm it generates random input, runs sweep::seq (the oracle), sweep::par and,
// when the GPU backend is built and a GPU is present, sweep::gpu; checks each result against
// seq; and prints time, GB/s, % of a parallel memcpy on this machine, and the time of the
// standard library's parallel equivalent. Timings are the median of a few runs, for orientation
// only: the perf/ suite is where claims are measured.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <execution>
#include <functional>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include <sweep/sweep.hpp>

#if SWEEP_HAS_TBB
#include <tbb/parallel_for.h>
#endif

#include "demo_gpu.hpp"

namespace {

using clock_type = std::chrono::steady_clock;

template <class F>
double median_seconds(int runs, F&& f) {
    std::vector<double> t;
    for (int r = 0; r < runs; ++r) {
        const auto t0 = clock_type::now();
        f();
        t.push_back(std::chrono::duration<double>(clock_type::now() - t0).count());
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

// A parallel memcpy: the ceiling every host row is compared against.
double memcpy_gbps(std::size_t bytes) {
    std::vector<char> a(bytes, 1), b(bytes, 0);
    auto copy = [&] {
#if SWEEP_HAS_TBB
        const std::size_t chunk = std::size_t{1} << 20;
        tbb::parallel_for(std::size_t{0}, (bytes + chunk - 1) / chunk, [&](std::size_t c) {
            const std::size_t lo = c * chunk, len = std::min(chunk, bytes - lo);
            std::memcpy(b.data() + lo, a.data() + lo, len);
        });
#else
        std::memcpy(b.data(), a.data(), bytes);
#endif
    };
    copy();
    const double s = median_seconds(5, copy);
    return 2.0 * double(bytes) / s / 1e9;  // bytes read + bytes written
}

struct row {
    std::string algorithm, policy;
    double seconds;
    double bytes;
    double std_seconds;  // < 0: no equivalent
    bool ok;
    double ceiling_gbps = 0;  // 0: the host's parallel memcpy
};

std::vector<row> rows;
double copy_gbps = 1.0;

void print_rows() {
    std::printf("\n%-26s %-8s %10s %9s %10s %12s  %s\n", "algorithm", "policy", "time (ms)",
                "GB/s", "% memcpy", "std par (ms)", "check");
    for (const auto& r : rows) {
        const double gbps = r.bytes / r.seconds / 1e9;
        char stdcol[32] = "-";
        if (r.std_seconds >= 0) std::snprintf(stdcol, sizeof stdcol, "%.2f", r.std_seconds * 1e3);
        const double ceiling = r.ceiling_gbps > 0 ? r.ceiling_gbps : copy_gbps;
        std::printf("%-26s %-8s %10.2f %9.1f %9.1f%% %12s  %s\n", r.algorithm.c_str(),
                    r.policy.c_str(), r.seconds * 1e3, gbps, 100.0 * gbps / ceiling, stdcol,
                    r.ok ? "ok" : "MISMATCH");
    }
}

// Runs `run(policy)` on seq and par, checks par against seq's output via `same`, and records rows.
template <class Out, class Run, class Same>
void host_rows(const char* name, double bytes, double std_seconds, Out& seq_out, Out& par_out,
               Run&& run, Same&& same) {
    const double t_seq = median_seconds(1, [&] { run(sweep::seq, seq_out); });
    rows.push_back({name, "seq", t_seq, bytes, -1, true});
    run(sweep::par, par_out);  // warm-up (thread pool start)
    const double t_par = median_seconds(3, [&] { run(sweep::par, par_out); });
    rows.push_back({name, "par", t_par, bytes, std_seconds, same(seq_out, par_out)});
}

}  // namespace

int main(int argc, char** argv) {
    const int log2n = argc > 1 ? std::atoi(argv[1]) : 26;
    if (log2n < 1 || log2n > 32) {
        std::fprintf(stderr, "usage: %s [log2_n in 1..32]\n", argv[0]);
        return 2;
    }
    const std::size_t n = std::size_t{1} << log2n;
    const auto seed = std::random_device{}();
    std::printf("sweep demo: n = 2^%d = %zu elements, seed %u\n", log2n, n, seed);
    std::mt19937 gen(seed);

    std::vector<std::int32_t> in(n);
    for (auto& x : in) x = std::int32_t(gen() % 1000) - 500;
    copy_gbps = memcpy_gbps(n * sizeof(std::int32_t));
    std::printf("parallel memcpy: %.1f GB/s (bytes read + written)\n", copy_gbps);

    std::vector<std::int32_t> a(n), b(n), c(n), d(n);
    auto equal = [](const auto& x, const auto& y) { return x == y; };
    const double scan_bytes = 2.0 * double(n) * sizeof(std::int32_t);

    // ---- scans ---------------------------------------------------------------------------
    {
        const double t_std = median_seconds(3, [&] {
            std::inclusive_scan(std::execution::par, in.begin(), in.end(), c.begin());
        });
        host_rows("inclusive_scan int32", scan_bytes, t_std, a, b,
                  [&](auto pol, auto& out) { sweep::inclusive_scan(pol, in.begin(), in.end(), out.begin()); },
                  equal);
    }
    {
        const double t_std = median_seconds(3, [&] {
            std::exclusive_scan(std::execution::par, in.begin(), in.end(), c.begin(), 7);
        });
        host_rows("exclusive_scan int32", scan_bytes, t_std, a, b,
                  [&](auto pol, auto& out) { sweep::exclusive_scan(pol, in.begin(), in.end(), out.begin(), 7); },
                  equal);
    }
    {
        auto sq = [](std::int32_t x) { return x * x; };
        const double t_std = median_seconds(3, [&] {
            std::transform_inclusive_scan(std::execution::par, in.begin(), in.end(), c.begin(),
                                          std::plus<>{}, sq);
        });
        host_rows("transform_inclusive_scan", scan_bytes, t_std, a, b,
                  [&](auto pol, auto& out) {
                      sweep::transform_inclusive_scan(pol, in.begin(), in.end(), out.begin(),
                                                      sweep::plus<>{}, sq);
                  },
                  equal);
    }

    // ---- stream compaction --------------------------------------------------------------------
    auto keep = [](std::int32_t x) { return x >= 0; };  // about half
    const std::size_t kept = std::size_t(std::count_if(in.begin(), in.end(), keep));
    const double compact_bytes = double(n + kept) * sizeof(std::int32_t);
    {
        const double t_std = median_seconds(3, [&] {
            std::copy_if(std::execution::par, in.begin(), in.end(), c.begin(), keep);
        });
        host_rows("copy_if int32 (50%)", compact_bytes, t_std, a, b,
                  [&](auto pol, auto& out) { sweep::copy_if(pol, in.begin(), in.end(), out.begin(), keep); },
                  [&](const auto& x, const auto& y) { return std::equal(x.begin(), x.begin() + kept, y.begin()); });
    }
    {
        std::vector<std::int32_t> t(n), f(n), t2(n), f2(n);
        const double t_std = median_seconds(3, [&] {
            std::partition_copy(std::execution::par, in.begin(), in.end(), t.begin(), f.begin(), keep);
        });
        const double t_seq = median_seconds(1, [&] {
            sweep::partition_copy(sweep::seq, in.begin(), in.end(), t.begin(), f.begin(), keep);
        });
        rows.push_back({"partition_copy int32", "seq", t_seq, 2.0 * double(n) * 4, -1, true});
        const double t_par = median_seconds(3, [&] {
            sweep::partition_copy(sweep::par, in.begin(), in.end(), t2.begin(), f2.begin(), keep);
        });
        rows.push_back({"partition_copy int32", "par", t_par, 2.0 * double(n) * 4, t_std,
                        std::equal(t.begin(), t.begin() + kept, t2.begin()) &&
                            std::equal(f.begin(), f.begin() + (n - kept), f2.begin())});
    }
    // In-place algorithms: each run starts from a fresh copy of the input (the copy is timed
    // separately and subtracted).
    auto in_place = [&](const char* name, auto algo, auto std_algo, bool stable) {
        const double t_copy = median_seconds(3, [&] { std::copy(std::execution::par, in.begin(), in.end(), c.begin()); });
        auto timed = [&](auto&& f, std::vector<std::int32_t>& buf) {
            return std::max(1e-9, median_seconds(3, [&] {
                std::copy(std::execution::par, in.begin(), in.end(), buf.begin());
                f(buf);
            }) - t_copy);
        };
        const double t_std = timed([&](auto& v) { std_algo(v); }, c);
        std::int64_t cut_seq = 0, cut_par = 0;
        a = in;
        const double t_seq = median_seconds(1, [&] { cut_seq = algo(sweep::seq, a) ; });
        rows.push_back({name, "seq", t_seq, 2.0 * double(n) * 4, -1, true});
        const double t_par = timed([&](auto& v) { cut_par = algo(sweep::par, v); }, b);
        bool ok = cut_seq == cut_par;
        if (stable) {
            ok = ok && a == b;
        } else {
            ok = ok && std::all_of(b.begin(), b.begin() + cut_par, keep) &&
                 std::none_of(b.begin() + cut_par, b.end(), keep) &&
                 std::accumulate(b.begin(), b.end(), std::int64_t{0}) ==
                     std::accumulate(in.begin(), in.end(), std::int64_t{0});
        }
        rows.push_back({name, "par", t_par, 2.0 * double(n) * 4, t_std, ok});
    };
    in_place("partition int32",
             [&](auto pol, auto& v) { return sweep::partition(pol, v.begin(), v.end(), keep) - v.begin(); },
             [&](auto& v) { std::partition(std::execution::par, v.begin(), v.end(), keep); }, false);
    in_place("stable_partition int32",
             [&](auto pol, auto& v) { return sweep::stable_partition(pol, v.begin(), v.end(), keep) - v.begin(); },
             [&](auto& v) { std::stable_partition(std::execution::par, v.begin(), v.end(), keep); }, true);

    // ---- radix sort ---------------------------------------------------------------------------
    {
        std::vector<std::uint32_t> keys(n), k1(n), k2(n), v1(n), v2(n);
        for (auto& k : keys) k = std::uint32_t(gen());
        std::vector<std::uint32_t> tmp = keys;
        const double t_std = median_seconds(1, [&] { tmp = keys; std::sort(std::execution::par, tmp.begin(), tmp.end()); });
        const double t_seq = median_seconds(1, [&] { k1 = keys; sweep::radix_sort(sweep::seq, k1.begin(), k1.end()); });
        rows.push_back({"radix_sort u32", "seq", t_seq, 2.0 * double(n) * 4, -1, true});
        const double t_par = median_seconds(3, [&] { k2 = keys; sweep::radix_sort(sweep::par, k2.begin(), k2.end()); });
        rows.push_back({"radix_sort u32", "par", t_par, 2.0 * double(n) * 4, t_std, k1 == k2});
        std::iota(v1.begin(), v1.end(), 0u);
        k1 = keys;
        const double t_kv = median_seconds(1, [&] { sweep::radix_sort_by_key(sweep::seq, k1.begin(), k1.end(), v1.begin()); });
        rows.push_back({"radix_sort_by_key u32+u32", "seq", t_kv, 4.0 * double(n) * 4, -1, true});
        std::iota(v2.begin(), v2.end(), 0u);
        k2 = keys;
        const double t_kv_par = median_seconds(1, [&] { sweep::radix_sort_by_key(sweep::par, k2.begin(), k2.end(), v2.begin()); });
        rows.push_back({"radix_sort_by_key u32+u32", "par", t_kv_par, 4.0 * double(n) * 4, -1, k1 == k2 && v1 == v2});
    }

    // ---- segmented scans ------------------------------------------------------------------------
    {
        std::vector<std::int32_t> keys(n);
        std::int32_t key = 0;
        for (auto& k : keys) { if (gen() % 100 == 0) ++key; k = key; }  // segments of ~100
        host_rows("inclusive_scan_by_key", 3.0 * double(n) * 4, -1, a, b,
                  [&](auto pol, auto& out) {
                      sweep::inclusive_scan_by_key(pol, keys.begin(), keys.end(), in.begin(), out.begin());
                  },
                  equal);
        std::vector<std::int64_t> offs{0};
        for (std::size_t i = 1; i < n; ++i) if (keys[i] != keys[i - 1]) offs.push_back(std::int64_t(i));
        offs.push_back(std::int64_t(n));
        host_rows("segmented_exclusive_scan", 2.0 * double(n) * 4, -1, a, b,
                  [&](auto pol, auto& out) {
                      sweep::segmented_exclusive_scan(pol, in.begin(), in.end(), out.begin(),
                                                      sweep::offsets(offs.begin(), offs.end()), 0);
                  },
                  equal);
    }

    // ---- GPU rows -----------------------------------------------------------------------------
    sweep_demo::gpu_rows(in, [&](const char* algo, double s, double bytes, double ceiling, bool ok) {
        rows.push_back({algo, "gpu", s, bytes, -1, ok, ceiling});
    });

    print_rows();
    std::printf("%% memcpy: host rows against the host's parallel memcpy, gpu rows against "
                "cudaMemcpy device-to-device; std par: the standard library's parallel equivalent.\n");
    const bool all_ok = std::all_of(rows.begin(), rows.end(), [](const row& r) { return r.ok; });
    std::printf("\n%s\n", all_ok ? "all results match sweep::seq" : "SOME RESULTS DIFFER FROM sweep::seq");
    return all_ok ? 0 : 1;
}
