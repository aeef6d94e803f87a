// perf/cpu/bench_cpu.cpp -- CPU benchmarks: sweep::par next to its anchors, in one process.
//
// Workloads (n = 2^27 unless --n=N): inclusive sum int32 and double, copy_if int32 with 50% kept,
// partition and stable_partition int32. Anchors: tbb::parallel_scan, std::*(std::execution::par)
// (libstdc++'s PSTL on oneTBB), serial std::inclusive_scan, and a oneTBB-parallel memcpy as the
// ceiling. Method as in /work/shared/ANCHORS.md: inputs generated once (random, never zero), one
// warm-up call, every call timed on the wall clock; the median time gives GB/s, where bytes are
// each byte read plus each byte written once. Partitions run on a fresh copy of the input each
// call; the copy is not timed. Extra flags: --n=N, --threads=K (caps every library via
// tbb::global_control). A summary table (% of memcpy, ratio to each anchor) goes to stderr at the
// end; scripts/perf_table.py builds the same table from --benchmark_format=json output.
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
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_scan.h>

#include <sweep/sweep.hpp>

#include "parallel_memcpy.hpp"

namespace {

std::int64_t g_n = std::int64_t{1} << 27;

// Buffers allocated once; touched first by oneTBB workers so pages are spread as the work is.
template <class T>
struct buffer {
    std::unique_ptr<T[]> p;
    T* data() { return p.get(); }
};

template <class T, class Gen>
buffer<T> make_buffer(std::int64_t n, Gen gen) {
    buffer<T> b{std::unique_ptr<T[]>(new T[static_cast<std::size_t>(n)])};
    T* d = b.data();
    tbb::parallel_for(tbb::blocked_range<std::int64_t>(0, n, 1 << 16), [&](const auto& r) {
        std::mt19937_64 g(0x5eed + static_cast<std::uint64_t>(r.begin()));
        for (std::int64_t i = r.begin(); i != r.end(); ++i) d[i] = gen(g);
    });
    return b;
}

using sweep_perf::parallel_memcpy;

// Nonzero int32 in [-1000, 1000]: prefix sums stay far from overflow (a random walk).
std::int32_t draw_i32(std::mt19937_64& g) {
    const auto v = static_cast<std::int32_t>(g() % 2000);
    return v < 1000 ? v - 1000 : v - 999;
}
double draw_f64(std::mt19937_64& g) { return 0.5 + static_cast<double>(g() >> 11) * 0x1p-53; }
// 50% kept: draw_i32 is symmetric around 0 with no zero.
constexpr auto keep_positive = [](std::int32_t x) { return x > 0; };

struct inputs {
    buffer<std::int32_t> i32 = make_buffer<std::int32_t>(g_n, draw_i32);
    buffer<std::int32_t> i32_out = make_buffer<std::int32_t>(g_n, draw_i32);
    buffer<double> f64 = make_buffer<double>(g_n, draw_f64);
    buffer<double> f64_out = make_buffer<double>(g_n, draw_f64);
};
inputs& data() {
    static inputs d;
    return d;
}

// Median GB/s per benchmark name, for the summary; memcpy is the ceiling.
std::map<std::string, double>& results() {
    static std::map<std::string, double> r;
    return r;
}
double g_memcpy_gbps = 0;
std::string g_current;  // the running benchmark's name (State has no name() in benchmark 1.7)

/// Times each call of `run` (after `prepare`, untimed), reports the median as the iteration time
/// and GB/s, % of memcpy as counters.
template <class Prepare, class Run>
void timed(benchmark::State& state, double bytes, Prepare prepare, Run run) {
    prepare();
    run();  // warm-up
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
    const double gbps = bytes / median / 1e9;
    state.counters["GBps"] = gbps;
    state.counters["median_ms"] = median * 1e3;
    state.counters["n"] = static_cast<double>(g_n);
    if (g_memcpy_gbps > 0) state.counters["pct_memcpy"] = 100.0 * gbps / g_memcpy_gbps;
    results()[g_current] = gbps;
}
constexpr auto no_prepare = [] {};

// ---- ceiling ----------------------------------------------------------------------------------
void memcpy_tbb(benchmark::State& st) {
    auto& d = data();
    const double bytes = 2.0 * static_cast<double>(g_n) * sizeof(std::int32_t);
    timed(st, bytes, no_prepare, [&] {
        parallel_memcpy(d.i32_out.data(), d.i32.data(), static_cast<std::size_t>(g_n) * 4);
    });
    g_memcpy_gbps = results()[g_current];
    st.counters["pct_memcpy"] = 100.0;
}

// ---- inclusive sum ----------------------------------------------------------------------------
template <class T>
T* scan_in() {
    if constexpr (std::is_same_v<T, double>) return data().f64.data();
    else return data().i32.data();
}
template <class T>
T* scan_out() {
    if constexpr (std::is_same_v<T, double>) return data().f64_out.data();
    else return data().i32_out.data();
}
template <class T>
double scan_bytes() { return 2.0 * static_cast<double>(g_n) * sizeof(T); }

template <class T>
void scan_sweep_par(benchmark::State& st) {
    T* in = scan_in<T>();
    T* out = scan_out<T>();
    timed(st, scan_bytes<T>(), no_prepare,
          [&] { sweep::inclusive_scan(sweep::par, in, in + g_n, out); });
}
template <class T>
void scan_tbb(benchmark::State& st) {
    T* in = scan_in<T>();
    T* out = scan_out<T>();
    timed(st, scan_bytes<T>(), no_prepare, [&] {
        tbb::parallel_scan(
            tbb::blocked_range<std::int64_t>(0, g_n), T{0},
            [&](const tbb::blocked_range<std::int64_t>& r, T sum, bool is_final) {
                for (std::int64_t i = r.begin(); i != r.end(); ++i) {
                    sum += in[i];
                    if (is_final) out[i] = sum;
                }
                return sum;
            },
            std::plus<T>());
    });
}
template <class T>
void scan_std_par(benchmark::State& st) {
    T* in = scan_in<T>();
    T* out = scan_out<T>();
    timed(st, scan_bytes<T>(), no_prepare,
          [&] { std::inclusive_scan(std::execution::par, in, in + g_n, out); });
}
template <class T>
void scan_std_serial(benchmark::State& st) {
    T* in = scan_in<T>();
    T* out = scan_out<T>();
    timed(st, scan_bytes<T>(), no_prepare, [&] { std::inclusive_scan(in, in + g_n, out); });
}

// ---- copy_if ----------------------------------------------------------------------------------
double copy_if_bytes() {
    const std::int32_t* in = data().i32.data();
    const auto kept = std::count_if(std::execution::par, in, in + g_n, keep_positive);
    return static_cast<double>(g_n + kept) * sizeof(std::int32_t);  // n read + kept written
}
void copy_if_sweep_par(benchmark::State& st) {
    auto& d = data();
    timed(st, copy_if_bytes(), no_prepare, [&] {
        benchmark::DoNotOptimize(
            sweep::copy_if(sweep::par, d.i32.data(), d.i32.data() + g_n, d.i32_out.data(),
                           keep_positive));
    });
}
void copy_if_std_par(benchmark::State& st) {
    auto& d = data();
    timed(st, copy_if_bytes(), no_prepare, [&] {
        benchmark::DoNotOptimize(std::copy_if(std::execution::par, d.i32.data(),
                                              d.i32.data() + g_n, d.i32_out.data(),
                                              keep_positive));
    });
}

// ---- partition, stable_partition (in place, on a fresh copy each call) -----------------------
template <class Run>
void partition_bench(benchmark::State& st, Run run) {
    auto& d = data();
    const double bytes = 2.0 * static_cast<double>(g_n) * sizeof(std::int32_t);
    timed(
        st, bytes,
        [&] { parallel_memcpy(d.i32_out.data(), d.i32.data(), static_cast<std::size_t>(g_n) * 4); },
        [&] { benchmark::DoNotOptimize(run(d.i32_out.data(), d.i32_out.data() + g_n)); });
}
void partition_sweep_par(benchmark::State& st) {
    partition_bench(st, [](auto f, auto l) { return sweep::partition(sweep::par, f, l, keep_positive); });
}
void partition_std_par(benchmark::State& st) {
    partition_bench(st, [](auto f, auto l) {
        return std::partition(std::execution::par, f, l, keep_positive);
    });
}
void stable_partition_sweep_par(benchmark::State& st) {
    partition_bench(st, [](auto f, auto l) {
        return sweep::stable_partition(sweep::par, f, l, keep_positive);
    });
}
void stable_partition_std_par(benchmark::State& st) {
    partition_bench(st, [](auto f, auto l) {
        return std::stable_partition(std::execution::par, f, l, keep_positive);
    });
}

// ---- summary ----------------------------------------------------------------------------------
struct workload {
    const char* name;
    std::vector<const char*> anchors;
};
const std::vector<workload> workloads = {
    {"inclusive_sum_i32", {"tbb_parallel_scan", "std_par", "std_serial"}},
    {"inclusive_sum_f64", {"tbb_parallel_scan", "std_par", "std_serial"}},
    {"copy_if_i32_50pct", {"std_par"}},
    {"partition_i32", {"std_par"}},
    {"stable_partition_i32", {"std_par"}},
};

void register_all() {
    auto reg = [](const std::string& name, void (*fn)(benchmark::State&)) {
        benchmark::RegisterBenchmark(name.c_str(),
                                     [fn, name](benchmark::State& st) {
                                         g_current = name;
                                         fn(st);
                                     })
            ->UseManualTime()
            ->Unit(benchmark::kMillisecond);
    };
    reg("memcpy/tbb_parallel", memcpy_tbb);
    reg("inclusive_sum_i32/sweep_par", scan_sweep_par<std::int32_t>);
    reg("inclusive_sum_i32/tbb_parallel_scan", scan_tbb<std::int32_t>);
    reg("inclusive_sum_i32/std_par", scan_std_par<std::int32_t>);
    reg("inclusive_sum_i32/std_serial", scan_std_serial<std::int32_t>);
    reg("inclusive_sum_f64/sweep_par", scan_sweep_par<double>);
    reg("inclusive_sum_f64/tbb_parallel_scan", scan_tbb<double>);
    reg("inclusive_sum_f64/std_par", scan_std_par<double>);
    reg("inclusive_sum_f64/std_serial", scan_std_serial<double>);
    reg("copy_if_i32_50pct/sweep_par", copy_if_sweep_par);
    reg("copy_if_i32_50pct/std_par", copy_if_std_par);
    reg("partition_i32/sweep_par", partition_sweep_par);
    reg("partition_i32/std_par", partition_std_par);
    reg("stable_partition_i32/sweep_par", stable_partition_sweep_par);
    reg("stable_partition_i32/std_par", stable_partition_std_par);
}

void print_summary() {
    auto& r = results();
    std::fprintf(stderr, "\nsweep CPU perf, n = %lld, memcpy (tbb parallel) %.1f GB/s\n",
                 static_cast<long long>(g_n), g_memcpy_gbps);
    std::fprintf(stderr, "%-22s %-18s %8s %9s  %s\n", "workload", "impl", "GB/s", "% memcpy",
                 "sweep / anchor");
    for (const auto& w : workloads) {
        const std::string base = w.name;
        for (const char* impl : [&] {
                 std::vector<const char*> v{"sweep_par"};
                 v.insert(v.end(), w.anchors.begin(), w.anchors.end());
                 return v;
             }()) {
            const auto it = r.find(base + "/" + impl);
            if (it == r.end()) continue;
            std::string ratios;
            if (std::string(impl) == "sweep_par") {
                for (const char* a : w.anchors) {
                    const auto ai = r.find(base + "/" + a);
                    if (ai == r.end()) continue;
                    char buf[64];
                    std::snprintf(buf, sizeof buf, "%s%.2fx %s", ratios.empty() ? "" : ", ",
                                  it->second / ai->second, a);
                    ratios += buf;
                }
            }
            std::fprintf(stderr, "%-22s %-18s %8.2f %8.1f%%  %s\n", w.name, impl, it->second,
                         g_memcpy_gbps > 0 ? 100.0 * it->second / g_memcpy_gbps : 0.0,
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
    data();
    register_all();
    benchmark::RunSpecifiedBenchmarks();
    print_summary();
    benchmark::Shutdown();
    return 0;
}
