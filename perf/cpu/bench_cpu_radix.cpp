// perf/cpu/bench_cpu_radix.cpp -- CPU radix sort: sweep::par next to its anchors, in one process.
//
// Workloads (n = 2^27 unless --n=N): sweep::radix_sort(par) of u32, u64 and float keys and
// radix_sort_by_key of u32 keys with u32 values; uniform keys and two low-entropy inputs (the AND
// of two random words: every bit set with probability 1/4, skewed buckets; and u32 keys & 0xFFFF:
// 16 varying bits, many equal keys). Anchors in the same process: std::sort(std::execution::par)
// and std::stable_sort(par) (libstdc++'s PSTL on oneTBB); pairs are sorted by the anchors as an
// array of {key, value} structs by key. ParlayLib's integer_sort figures from ANCHORS.md (16-core
// host, 2^27) are printed beside the results for comparison; only runs on that host compare.
//
// Method as bench_cpu.cpp: inputs generated once; every timed call sorts a fresh copy of the input
// (the copy, a oneTBB-parallel memcpy, is not timed); one warm-up call; the median of the timed
// calls gives Gkeys/s, and "% of copy" relates it to one oneTBB-parallel memcpy of the keys (and
// values): 100% would be a sort as fast as copying its data once. Flags: --n=N, --threads=K
// (caps every library through tbb::global_control). The summary table goes to stderr at the end.
//
// Built with SWEEP_RADIX_TIMING=1 (target sweep_perf_cpu_radix_phases), the sweep_par rows also
// report the mean wall milliseconds per call of each phase of the parallel sort (ph_*_ms:
// temporaries, survey, chunk offsets, MSD scatter, buckets; docs/radix_sort.md).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <execution>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>

#include <sweep/radix_sort.hpp>

#include "parallel_memcpy.hpp"

namespace {

std::int64_t g_n = std::int64_t{1} << 27;

// ParlayLib integer_sort on the 16-core host, n = 2^27 (/work/shared/ANCHORS.md).
constexpr double parlay_u32_gkeys = 1.34;
constexpr double parlay_u64_gkeys = 0.68;

template <class T>
struct buffer {
    std::unique_ptr<T[]> p;
    T* data() const { return p.get(); }
};

template <class T, class Gen>
buffer<T> make_buffer(std::int64_t n, Gen gen) {
    buffer<T> b{std::unique_ptr<T[]>(new T[static_cast<std::size_t>(n)])};
    T* d = b.data();
    tbb::parallel_for(tbb::blocked_range<std::int64_t>(0, n, 1 << 16), [&](const auto& r) {
        std::mt19937_64 g(0x5eed + static_cast<std::uint64_t>(r.begin()));
        for (std::int64_t i = r.begin(); i != r.end(); ++i) d[i] = gen(g, i);
    });
    return b;
}

using sweep_perf::parallel_memcpy;

struct kv {
    std::uint32_t key;
    std::uint32_t value;
};

// ---- inputs -----------------------------------------------------------------------------------
enum class dist { uniform, and2, mask16 };

template <class K>
K draw(std::mt19937_64& g, dist d) {
    if constexpr (std::is_same_v<K, float>) {
        // Reals over a wide range, both signs.
        return static_cast<float>((static_cast<double>(g() >> 11) * 0x1p-53 - 0.5) * 2e6);
    } else {
        switch (d) {
            case dist::uniform: return static_cast<K>(g());
            case dist::and2: return static_cast<K>(g() & g());
            case dist::mask16: return static_cast<K>(g() & 0xFFFF);
        }
        return 0;
    }
}

template <class K>
buffer<K>& input(dist d) {
    static std::map<dist, buffer<K>> cache;
    auto it = cache.find(d);
    if (it == cache.end())
        it = cache.emplace(d, make_buffer<K>(g_n, [d](std::mt19937_64& g, std::int64_t) {
                                 return draw<K>(g, d);
                             })).first;
    return it->second;
}
template <class K>
buffer<K>& work() {
    static buffer<K> b{std::unique_ptr<K[]>(new K[static_cast<std::size_t>(g_n)])};
    return b;
}
buffer<std::uint32_t>& pair_values() {
    static buffer<std::uint32_t> b = make_buffer<std::uint32_t>(
        g_n, [](std::mt19937_64&, std::int64_t i) { return static_cast<std::uint32_t>(i); });
    return b;
}
buffer<std::uint32_t>& pair_values_work() {
    static buffer<std::uint32_t> b{
        std::unique_ptr<std::uint32_t[]>(new std::uint32_t[static_cast<std::size_t>(g_n)])};
    return b;
}
buffer<kv>& kv_input() {
    static buffer<kv> b = [] {
        const auto& k = input<std::uint32_t>(dist::uniform);
        return make_buffer<kv>(g_n, [&](std::mt19937_64&, std::int64_t i) {
            return kv{k.data()[i], static_cast<std::uint32_t>(i)};
        });
    }();
    return b;
}
buffer<kv>& kv_work() {
    static buffer<kv> b{std::unique_ptr<kv[]>(new kv[static_cast<std::size_t>(g_n)])};
    return b;
}

// ---- timing -----------------------------------------------------------------------------------
struct result {
    double gkeys;
    double bytes_per_key;
};
std::map<std::string, result>& results() {
    static std::map<std::string, result> r;
    return r;
}
double g_memcpy_gbps = 0;
std::string g_current;

template <class Prepare, class Run>
void timed(benchmark::State& state, double bytes_per_key, Prepare prepare, Run run) {
    prepare();
    run();  // warm-up
#if SWEEP_RADIX_TIMING
    namespace rx = sweep::detail::tbb_backend::radix;
    for (auto& p : rx::phase_ns) p = 0;
    rx::phase_calls = 0;
#endif
    std::vector<double> secs;
    for (auto _ : state) {
        prepare();
        const auto t0 = std::chrono::steady_clock::now();
        run();
        const auto t1 = std::chrono::steady_clock::now();
        const double s = std::chrono::duration<double>(t1 - t0).count();
        secs.push_back(s);
        state.SetIterationTime(s);
    }
    std::nth_element(secs.begin(), secs.begin() + static_cast<std::ptrdiff_t>(secs.size() / 2),
                     secs.end());
    const double median = secs[secs.size() / 2];
    const double gkeys = static_cast<double>(g_n) / median / 1e9;
    state.counters["Gkeys_per_s"] = gkeys;
    state.counters["median_ms"] = median * 1e3;
    state.counters["n"] = static_cast<double>(g_n);
    if (g_memcpy_gbps > 0)
        state.counters["pct_copy"] = 100.0 * gkeys * bytes_per_key / g_memcpy_gbps;
    results()[g_current] = {gkeys, bytes_per_key};
#if SWEEP_RADIX_TIMING
    if (const auto calls = rx::phase_calls.load()) {
        const char* const names[rx::phase_count] = {"ph_memory_ms", "ph_survey_ms",
                                                    "ph_offsets_ms", "ph_scatter_ms",
                                                    "ph_buckets_ms"};
        for (int i = 0; i < rx::phase_count; ++i)
            state.counters[names[i]] =
                static_cast<double>(rx::phase_ns[static_cast<std::size_t>(i)].load()) / 1e6 /
                static_cast<double>(calls);
    }
#endif
}

void memcpy_tbb(benchmark::State& st) {
    const auto& in = input<std::uint32_t>(dist::uniform);
    auto& out = work<std::uint32_t>();
    timed(st, 2.0 * sizeof(std::uint32_t), [] {}, [&] {
        parallel_memcpy(out.data(), in.data(), static_cast<std::size_t>(g_n) * 4);
    });
    // GB/s: bytes read + written per key times keys per second.
    g_memcpy_gbps = results()[g_current].gkeys * 8.0;
    st.counters["pct_copy"] = 100.0;
}

// ---- keys only --------------------------------------------------------------------------------
enum class impl { sweep_par, std_sort_par, std_stable_sort_par };

template <class K, dist D, impl I>
void keys_bench(benchmark::State& st) {
    const auto& in = input<K>(D);
    auto& w = work<K>();
    K* f = w.data();
    K* l = w.data() + g_n;
    timed(
        st, 2.0 * sizeof(K),
        [&] { parallel_memcpy(w.data(), in.data(), static_cast<std::size_t>(g_n) * sizeof(K)); },
        [&] {
            if constexpr (I == impl::sweep_par) sweep::radix_sort(sweep::par, f, l);
            else if constexpr (I == impl::std_sort_par) std::sort(std::execution::par, f, l);
            else std::stable_sort(std::execution::par, f, l);
            benchmark::ClobberMemory();
        });
}

// ---- pairs ------------------------------------------------------------------------------------
template <impl I>
void pairs_bench(benchmark::State& st) {
    constexpr double bytes = 2.0 * 8;
    if constexpr (I == impl::sweep_par) {
        const auto& k = input<std::uint32_t>(dist::uniform);
        const auto& v = pair_values();
        auto& kw = work<std::uint32_t>();
        auto& vw = pair_values_work();
        timed(
            st, bytes,
            [&] {
                parallel_memcpy(kw.data(), k.data(), static_cast<std::size_t>(g_n) * 4);
                parallel_memcpy(vw.data(), v.data(), static_cast<std::size_t>(g_n) * 4);
            },
            [&] {
                sweep::radix_sort_by_key(sweep::par, kw.data(), kw.data() + g_n, vw.data());
                benchmark::ClobberMemory();
            });
    } else {
        const auto& in = kv_input();
        auto& w = kv_work();
        const auto by_key = [](const kv& a, const kv& b) { return a.key < b.key; };
        timed(
            st, bytes,
            [&] { parallel_memcpy(w.data(), in.data(), static_cast<std::size_t>(g_n) * sizeof(kv)); },
            [&] {
                if constexpr (I == impl::std_sort_par)
                    std::sort(std::execution::par, w.data(), w.data() + g_n, by_key);
                else std::stable_sort(std::execution::par, w.data(), w.data() + g_n, by_key);
                benchmark::ClobberMemory();
            });
    }
}

// ---- registry and summary ---------------------------------------------------------------------
struct workload {
    const char* name;
    double parlay_gkeys;  // 0: no ParlayLib figure
};
const std::vector<workload> workloads = {
    {"u32_uniform", parlay_u32_gkeys}, {"u32_and2", 0},    {"u32_mask16", 0},
    {"u64_uniform", parlay_u64_gkeys}, {"u64_and2", 0},    {"float_uniform", 0},
    {"u32_u32_pairs_uniform", 0},
};
const char* const anchors[] = {"std_sort_par", "std_stable_sort_par"};

template <class K, dist D>
void reg_keys(const std::string& name) {
    auto reg = [](const std::string& full, void (*fn)(benchmark::State&)) {
        benchmark::RegisterBenchmark(full.c_str(),
                                     [fn, full](benchmark::State& st) {
                                         g_current = full;
                                         fn(st);
                                     })
            ->UseManualTime()
            ->Unit(benchmark::kMillisecond);
    };
    reg(name + "/sweep_par", keys_bench<K, D, impl::sweep_par>);
    reg(name + "/std_sort_par", keys_bench<K, D, impl::std_sort_par>);
    reg(name + "/std_stable_sort_par", keys_bench<K, D, impl::std_stable_sort_par>);
}

void register_all() {
    auto reg = [](const std::string& full, void (*fn)(benchmark::State&)) {
        benchmark::RegisterBenchmark(full.c_str(),
                                     [fn, full](benchmark::State& st) {
                                         g_current = full;
                                         fn(st);
                                     })
            ->UseManualTime()
            ->Unit(benchmark::kMillisecond);
    };
    reg("memcpy/tbb_parallel", memcpy_tbb);
    reg_keys<std::uint32_t, dist::uniform>("u32_uniform");
    reg_keys<std::uint32_t, dist::and2>("u32_and2");
    reg_keys<std::uint32_t, dist::mask16>("u32_mask16");
    reg_keys<std::uint64_t, dist::uniform>("u64_uniform");
    reg_keys<std::uint64_t, dist::and2>("u64_and2");
    reg_keys<float, dist::uniform>("float_uniform");
    reg("u32_u32_pairs_uniform/sweep_par", pairs_bench<impl::sweep_par>);
    reg("u32_u32_pairs_uniform/std_sort_par", pairs_bench<impl::std_sort_par>);
    reg("u32_u32_pairs_uniform/std_stable_sort_par", pairs_bench<impl::std_stable_sort_par>);
}

void print_summary() {
    auto& r = results();
    std::fprintf(stderr, "\nsweep CPU radix sort, n = %lld, memcpy (tbb parallel) %.1f GB/s\n",
                 static_cast<long long>(g_n), g_memcpy_gbps);
    std::fprintf(stderr, "%-22s %-20s %8s %8s  %s\n", "workload", "impl", "Gkeys/s", "% copy",
                 "sweep / anchor");
    for (const auto& w : workloads) {
        const std::string base = w.name;
        std::vector<std::string> impls{"sweep_par"};
        for (const char* a : anchors) impls.push_back(a);
        for (const auto& impl_name : impls) {
            const auto it = r.find(base + "/" + impl_name);
            if (it == r.end()) continue;
            std::string ratios;
            if (impl_name == "sweep_par") {
                for (const char* a : anchors) {
                    const auto ai = r.find(base + "/" + a);
                    if (ai == r.end()) continue;
                    char buf[64];
                    std::snprintf(buf, sizeof buf, "%s%.2fx %s", ratios.empty() ? "" : ", ",
                                  it->second.gkeys / ai->second.gkeys, a);
                    ratios += buf;
                }
                if (w.parlay_gkeys > 0) {
                    char buf[96];
                    std::snprintf(buf, sizeof buf,
                                  "%s%.2fx ParlayLib (%.2f Gkeys/s, 16-core host, 2^27)",
                                  ratios.empty() ? "" : ", ", it->second.gkeys / w.parlay_gkeys,
                                  w.parlay_gkeys);
                    ratios += buf;
                }
            }
            std::fprintf(stderr, "%-22s %-20s %8.3f %7.1f%%  %s\n", w.name, impl_name.c_str(),
                         it->second.gkeys,
                         g_memcpy_gbps > 0
                             ? 100.0 * it->second.gkeys * it->second.bytes_per_key / g_memcpy_gbps
                             : 0.0,
                         ratios.c_str());
        }
    }
}

}  // namespace

int main(int argc, char** argv) {
    int threads = 0;
    std::vector<char*> rest;
    for (int i = 0; i < argc; ++i) {
        if (std::strncmp(argv[i], "--n=", 4) == 0) g_n = std::atoll(argv[i] + 4);
        else if (std::strncmp(argv[i], "--threads=", 10) == 0) threads = std::atoi(argv[i] + 10);
        else rest.push_back(argv[i]);
    }
    std::unique_ptr<tbb::global_control> cap;
    if (threads > 0)
        cap = std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism,
                                                    static_cast<std::size_t>(threads));
    int rest_argc = static_cast<int>(rest.size());
    benchmark::Initialize(&rest_argc, rest.data());
    if (benchmark::ReportUnrecognizedArguments(rest_argc, rest.data())) return 1;
    benchmark::AddCustomContext("n", std::to_string(g_n));
    benchmark::AddCustomContext("threads", std::to_string(threads));
    register_all();
    benchmark::RunSpecifiedBenchmarks();
    print_summary();
    benchmark::Shutdown();
    return 0;
}
