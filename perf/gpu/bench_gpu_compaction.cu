// perf/gpu/bench_gpu_compaction.cu -- GPU side of the perf suite: stream compaction on sweep::gpu
// next to cub::DeviceSelect::If, cub::DevicePartition::If, thrust::copy_if,
// thrust::partition_copy, thrust::partition and thrust::stable_partition, in one process, int32,
// 10 %, 50 % and 90 % kept, n = 2^24 .. 2^28.
//
// Method (as bench_gpu_scan.cu and shared/ANCHORS.md): device buffers allocated once, inputs
// random in [1, 100] (never zero) generated on the device, the predicate x <= p keeps p %; 3
// warm-up calls, then the median of 25 calls, each timed alone with CUDA events on one stream.
// The contenders of a row (sweep, regs, cub, cub+count, cub+mapped, thrust, the memcpy of the "% copy"
// columns; for partition also the forced exchange pass) are timed interleaved since
// session 25: each repetition times one call of each, in an order rotated from one repetition
// to the next (timer::interleaved), Thrust's excepted since session 27 (timed after the others,
// in a loop of its own: its calls, with Thrust's default allocator, slowed the call after them,
// perf/notes-gpu.md C10), so that the machine's drift during a run (rows apart by
// seconds differed by up to 5 % on the same code) falls on all of them alike.
// The in-place partitions get a fresh copy of the input before every call, outside the timed
// interval. Bandwidth: copy_if counts n values read + kept written; the partitions n read + n
// written (kept + rejected), as ANCHORS.md. "% copy" divides by cudaMemcpyAsync device-to-device
// of n values in this process. CUB's temporary storage is allocated once (its best case) and
// its count stays on the device; the column "cub+count" adds what a call returning an end
// iterator must do (copy the count to the host and wait), which sweep and Thrust do; the column
// "cub+mapped" (session 27) does it the way sweep does: the kernel writes the count into mapped
// host memory, the stream is synchronized, the count read. sweep's copy_if and partitions must
// wait for their stream before they return (API.md: their result depends on the count), so its
// timed interval holds that wait and the end event's submission after it; "vs cub+mapped"
// compares two intervals that both end with the wait (CUB's with its two launches, sweep's with
// one, and for the in-place partitions sweep's copy back of the temporary), "vs CUB" -- the
// anchor of ANCHORS.md and of the bars -- an interval with the wait against one without.
//
// "sweep us" is the default (the shared-memory tile path, agent/compaction_bulk_agent.cuh, for
// these aligned int32 inputs); "regs us" forces the register path (agent/compaction_agent.cuh,
// the default before session 4) through the dispatch layer, and "new/regs" is their ratio (> 1:
// the default is faster). SWEEP_BENCH_SECOND=nohint: in the copy_if table that column times
// sweep's own path with its tiles' L2::evict_first hint forced off instead ("nohint us",
// "new/nohint"; session 28); SWEEP_BENCH_SECOND=flag: with the count handed back through
// compaction_wait::flag instead of a stream synchronization ("flag us", "new/flag"; session 29).
//
// Usage: sweep_perf_gpu_compaction [max_log2 = 28] [min_log2 = 24] [what = all]
//   what: copy_if | partition_copy | partition | stable_partition | tuning | exchange | all
//   exchange: the partition's exchange pass forced, at every size from min to max (step 1), next
//   to the stable pass and CUB (for its knobs, SWEEP_SWAP_PARTITION_*)
//   tuning: copy_if and partition_copy at 50 % through several tile geometries of both paths
//   (tuning/compaction_tuning.cuh), sweep only; the shared-memory rows also time the in-place
//   pass, and check all three against the host at the smallest size (column "check"). Built
//   with -DSWEEP_BUILD_TUNING=ON only.
#include <cub/device/device_partition.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/copy.h>
#include <thrust/execution_policy.h>
#include <thrust/partition.h>

#include "bench_common.cuh"
#include <sweep/copy_if.hpp>
#include <sweep/partition.hpp>
#include <sweep/backend/cuda/dispatch/compaction.cuh>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <limits>
#include <map>
#include <string>
#include <vector>

namespace {

using sweep_bench::ok;
using sweep_bench::timer;
using sweep_bench::mix;

__global__ void fill(std::int32_t* p, std::int64_t n, std::uint64_t seed) {
    for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < n;
         i += std::int64_t{gridDim.x} * blockDim.x)
        p[i] = static_cast<std::int32_t>(mix(seed + i) % 100) + 1;
}


std::vector<std::int32_t> host(const std::int32_t* p, std::int64_t n) {
    std::vector<std::int32_t> h(static_cast<std::size_t>(n));
    ok(cudaMemcpy(h.data(), p, n * sizeof(std::int32_t), cudaMemcpyDeviceToHost), "D2H");
    return h;
}

// The anchors get a predicate of this file's own: with sweep::less_or_equal, Thrust's internal
// unqualified calls would find sweep's algorithms by argument-dependent lookup (before sweep's
// entry points became function objects, they did: the Thrust columns measured sweep).
struct anchor_le {
    std::int32_t p;
    __host__ __device__ bool operator()(std::int32_t x) const { return x <= p; }
};

/// Thrust's temporary storage, through an allocator passed to its policy (one instantiation of
/// each Thrust algorithm for both modes). SWEEP_BENCH_THRUST unset or "malloc": a cudaMalloc and
/// a cudaFree in every call, as thrust::cuda::par does by itself (thrust's malloc_and_free.h).
/// "cached": freed blocks are kept and reused for requests of the same size, as a Thrust user who
/// cares for speed would arrange (session 26: does Thrust's cudaFree between the other
/// contenders' calls slow them?).
struct thrust_temp {
    using value_type = char;
    bool cache = false;
    std::multimap<std::size_t, char*> idle;  // kept blocks, by size (cached mode)
    char* allocate(std::ptrdiff_t n) {
        const auto bytes = static_cast<std::size_t>(n);
        if (cache) {
            if (const auto it = idle.find(bytes); it != idle.end()) {  // the same size only
                char* p = it->second;
                idle.erase(it);
                return p;
            }
        }
        void* p = nullptr;
        ok(cudaMalloc(&p, bytes), "thrust temporary");
        return static_cast<char*>(p);
    }
    void deallocate(char* p, std::size_t bytes) {  // Thrust passes allocate's count back
        if (cache) idle.emplace(bytes, p);
        else ok(cudaFree(p), "thrust temporary");
    }
    /// The kept blocks freed (main, before the process's CUDA context goes).
    void release() {
        for (const auto& [bytes, p] : idle) ok(cudaFree(p), "thrust temporary");
        idle.clear();
    }
};
thrust_temp thrust_alloc;

/// Thrust's policy on stream s, with its temporaries from thrust_alloc.
auto thrust_on(cudaStream_t s) { return thrust::cuda::par(thrust_alloc).on(s); }

/// SWEEP_BENCH_ONLY (copy_if rows only, a diagnostic): a comma-separated list of the contenders
/// to time (copy_if_contenders); the others run as empty calls and print as nan (session 26:
/// which neighbours slow sweep's 2^24 rows with large buffers?).
constexpr const char* copy_if_contenders[] = {"sweep",  "regs",   "cub",   "cub+count",
                                              "cub+mapped", "thrust", "memcpy"};
std::vector<std::string> bench_only;  // empty: all of them
bool timed(const char* name) {
    return bench_only.empty() || std::find(bench_only.begin(), bench_only.end(), name) != bench_only.end();
}
sweep_bench::timer::contender pick(const char* name, sweep_bench::timer::contender c) {
    if (timed(name)) return c;
    return {[] {}};
}

struct buffers {
    std::int64_t nmax;
    std::int32_t *in, *pristine, *out, *out2, *ref;
    int* num;       // CUB's count
    int* num_host;  // page-locked, for cub+count
    int* num_mapped;      // mapped page-locked host memory, for cub+mapped (host address)
    int* num_mapped_dev;  // the same, as the device sees it
    void* cub_temp = nullptr;
    std::size_t cub_bytes = 0;
};

/// CUB's select and partition of in[0, n) into ref (count into `num`, by default the device
/// word b.num), with the buffers' temporary.
void cub_select(buffers& b, std::int64_t n, anchor_le pred, cudaStream_t s, int* num = nullptr) {
    std::size_t bytes = b.cub_bytes;
    ok(cub::DeviceSelect::If(b.cub_temp, bytes, b.in, b.ref, num ? num : b.num,
                             static_cast<int>(n), pred, s),
       "cub::DeviceSelect::If");
}
void cub_partition(buffers& b, std::int64_t n, anchor_le pred, cudaStream_t s, int* num = nullptr) {
    std::size_t bytes = b.cub_bytes;
    ok(cub::DevicePartition::If(b.cub_temp, bytes, b.in, b.ref, num ? num : b.num,
                                static_cast<int>(n), pred, s),
       "cub::DevicePartition::If");
}
/// CUB's count to the host, waited for (the "cub+count" column).
void cub_wait_count(buffers& b, cudaStream_t s) {
    ok(cudaMemcpyAsync(b.num_host, b.num, sizeof(int), cudaMemcpyDeviceToHost, s), "D2H");
    ok(cudaStreamSynchronize(s), "sync");
}
/// The "cub+count" contender: CUB's call `cub` (given where its count goes: the device word
/// b.num), then its count to the host, waited for.
template <class F>
sweep_bench::timer::contender cub_counted(buffers& b, cudaStream_t s, F cub) {
    return {[&b, s, cub] {
        cub(b.num);
        cub_wait_count(b, s);
    }};
}
/// The "cub+mapped" contender: CUB's call `cub` (given where its count goes) with the count
/// written by the kernel straight into mapped host memory, the stream waited for, the count read:
/// how sweep's own synchronous calls return their count (runtime.hpp mapped_count_slot), so both
/// timed intervals end the same way (a stream synchronize, the count on the host, the end event
/// enqueued after the host returns).
volatile int cub_mapped_sink = 0;
template <class F>
sweep_bench::timer::contender cub_mapped(buffers& b, cudaStream_t s, F cub) {
    return {[&b, s, cub] {
        cub(b.num_mapped_dev);
        ok(cudaStreamSynchronize(s), "sync");
        cub_mapped_sink = *static_cast<volatile int*>(b.num_mapped);
    }};
}
/// The contender of the "% copy" columns: n values copied device to device.
sweep_bench::timer::contender memcpy_of(std::int32_t* to, const std::int32_t* from, std::int64_t n,
                                        cudaStream_t s) {
    return {[=] { ok(cudaMemcpyAsync(to, from, n * 4, cudaMemcpyDeviceToDevice, s), "memcpy"); }};
}

// The register path, forced (the default before session 4), for the "regs" columns.
using regs_tuning = sweep::detail::cuda::default_compaction_tuning<std::int32_t>;
constexpr auto regs_path = sweep::detail::cuda::compaction_path::registers;

// SWEEP_BENCH_SECOND=nohint (session 28): the copy_if table's second sweep column ("regs") times
// sweep's own path with the L2::evict_first hint of its tile copies forced off instead of the
// register path, for a same-process comparison of the hint (tuning/compaction_tuning.cuh
// compaction_evict_first_l2_multiple; partition_copy takes the hinted path only from 2^26, where
// the hint is off anyway).
// SWEEP_BENCH_SECOND=flag (session 29, perf/notes-gpu.md C12): that column times sweep's own
// path with the count handed back through compaction_wait::flag (a dependent kernel writes it to
// the mapped slot once the pass is complete; the call spins on it) instead of a stream
// synchronization.
enum class second_mode { regs, nohint, flag };
second_mode second = second_mode::regs;
const char* second_label() {
    return second == second_mode::nohint ? "nohint" : second == second_mode::flag ? "flag" : "regs";
}
sweep::detail::cuda::compaction_path second_path() {
    return second == second_mode::regs ? regs_path : sweep::detail::cuda::compaction_path::automatic;
}
sweep::detail::cuda::compaction_l2_hint second_hint() {
    return second == second_mode::nohint ? sweep::detail::cuda::compaction_l2_hint::off
                                         : sweep::detail::cuda::compaction_l2_hint::automatic;
}
sweep::detail::cuda::compaction_wait second_wait() {
    return second == second_mode::flag ? sweep::detail::cuda::compaction_wait::flag
                                       : sweep::detail::cuda::compaction_wait::automatic;
}

/// `second`: the label of the second sweep column (regs, or nohint in the copy_if table under
/// SWEEP_BENCH_SECOND=nohint).
void print_header(const char* algo, const char* second = "regs") {
    std::printf("\n%s, int32; times in us, median of 25; each row's contenders (memcpy included) "
                "timed interleaved (one call of each per repetition, rotated, walked forward and "
                "backward in turn), Thrust's after them in a loop of its own\n\n", algo);
    const std::string time_label = std::string(second) + " us", ratio_label = std::string("new/") + second;
    std::printf("| n    | kept | memcpy us | sweep us  | %%copy  | %-10s| %%copy  | %-8s | cub us    | %%copy  | cub+count us | cub+mapped us | thrust us | %%copy  | vs CUB | vs cub+mapped | vs thrust | check |\n",
                time_label.c_str(), ratio_label.c_str());
    std::printf("|------|------|-----------|-----------|--------|-----------|--------|----------|-----------|--------|--------------|---------------|-----------|--------|--------|---------------|-----------|-------|\n");
}

void print_row(std::FILE* csv, const char* algo, int lg, int pct, double bytes, double copy_us,
               double sweep_us, double regs_us, double cub_us, double cub_count_us,
               double cub_mapped_us, double thrust_us, const char* check) {
    const double copy_gbs = 2.0 * double(std::int64_t{1} << lg) * 4 / copy_us * 1e-3;
    auto pc = [&](double us) { return 100.0 * (bytes / us * 1e-3) / copy_gbs; };
    std::printf("| 2^%-2d | %3d%% | %9.1f | %9.1f | %5.1f%% | %9.1f | %5.1f%% | %7.2fx | %9.1f | %5.1f%% | %12.1f | %13.1f | %9.1f | %5.1f%% | %5.2fx | %12.2fx | %8.2fx | %s |\n",
                lg, pct, copy_us, sweep_us, pc(sweep_us), regs_us, pc(regs_us), regs_us / sweep_us,
                cub_us, pc(cub_us), cub_count_us, cub_mapped_us, thrust_us, pc(thrust_us),
                cub_us / sweep_us, cub_mapped_us / sweep_us, thrust_us / sweep_us, check);
    std::fflush(stdout);
    if (csv)
        // Columns: algo, log2 n, % kept, memcpy, sweep, regs, cub, cub+count, thrust (as before
        // session 27), then cub+mapped (appended, so that older readers keep their positions).
        std::fprintf(csv, "%s,%d,%d,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f\n", algo, lg, pct, copy_us,
                     sweep_us, regs_us, cub_us, cub_count_us, thrust_us, cub_mapped_us);
}

sweep::detail::cuda::temp_allocator default_alloc() {
    return sweep::detail::cuda::make_temp_allocator<sweep::default_resource>(nullptr);
}

void bench(const std::string& what, buffers& b, int lo, int hi, cudaStream_t s, std::FILE* csv) {
    timer t(s);
    const int pcts[] = {10, 50, 90};
    const bool all = what == "all";

    if (all || what == "copy_if") {
        print_header("copy_if (sweep::copy_if / cub::DeviceSelect::If / thrust::copy_if)",
                     second_label());
        for (int lg = lo; lg <= hi; lg += 2) {
            const std::int64_t n = std::int64_t{1} << lg;
            for (const int pct : pcts) {
                const sweep::less_or_equal<std::int32_t> pred{pct};
                const anchor_le apred{pct};
                std::int64_t kept = 0;
                auto mine = [&] {
                    kept = sweep::copy_if(sweep::gpu.on(s), b.in, b.in + n, b.out, pred) - b.out;
                };
                std::int64_t regs_kept = 0;
                auto regs = [&] {
                    const std::int32_t* in = b.in;
                    regs_kept = sweep::detail::cuda::run_compaction<regs_tuning>(
                        "copy_if", in, in, true, b.out2, b.out2, false, false, n, pred, s,
                        default_alloc(), second_path(), nullptr, second_hint(), second_wait());
                };
                const auto cub_into = [&b, n, apred, s](int* num) { cub_select(b, n, apred, s, num); };
                const auto us = t.interleaved({
                    pick(copy_if_contenders[0], {mine}),
                    pick(copy_if_contenders[1], {regs}),
                    pick(copy_if_contenders[2], {[&] { cub_into(b.num); }}),
                    pick(copy_if_contenders[3], cub_counted(b, s, cub_into)),
                    pick(copy_if_contenders[4], cub_mapped(b, s, cub_into)),
                    pick(copy_if_contenders[5], {[&] { thrust::copy_if(thrust_on(s), b.in, b.in + n, b.out2, apred); }, [] {}, true}),
                    pick(copy_if_contenders[6], memcpy_of(b.out, b.in, n, s)),
                });
                const auto shown = [&](int k) {
                    return timed(copy_if_contenders[k]) ? us[static_cast<std::size_t>(k)]
                                                        : std::numeric_limits<double>::quiet_NaN();
                };
                const double sweep_us = shown(0), regs_us = shown(1), cub_us = shown(2),
                             cub_count_us = shown(3), cub_mapped_us = shown(4),
                             thrust_us = shown(5), copy_us = shown(6);
                // The checks, on one more call of each (thrust's writes out2 as well).
                mine();
                regs();
                const bool regs_same = regs_kept == kept && host(b.out2, kept) == host(b.out, kept);
                cub_select(b, n, apred, s);
                cub_wait_count(b, s);
                ok(cudaGetLastError(), "bench");
                const bool same = kept == *b.num_host && host(b.out, kept) == host(b.ref, kept) &&
                                  (!timed("cub+mapped") || kept == cub_mapped_sink);
                print_row(csv, "copy_if", lg, pct, double(n + kept) * 4, copy_us, sweep_us, regs_us,
                          cub_us, cub_count_us, cub_mapped_us, thrust_us,
                          !same ? "MISMATCH" : regs_same ? "ok" : "REGS MISMATCH");
            }
        }
    }

    if (all || what == "partition_copy") {
        print_header("partition_copy (sweep::partition_copy / cub::DevicePartition::If / thrust::partition_copy)");
        for (int lg = lo; lg <= hi; lg += 2) {
            const std::int64_t n = std::int64_t{1} << lg;
            for (const int pct : pcts) {
                const sweep::less_or_equal<std::int32_t> pred{pct};
                const anchor_le apred{pct};
                std::int64_t kept = 0;
                auto mine = [&] {
                    kept = sweep::partition_copy(sweep::gpu.on(s), b.in, b.in + n, b.out, b.out2, pred).first - b.out;
                };
                std::int64_t regs_kept = 0;
                auto regs = [&] {
                    const std::int32_t* in = b.in;
                    regs_kept = sweep::detail::cuda::run_compaction<regs_tuning>(
                        "partition_copy", in, in, true, b.out, b.out2, true, false, n, pred, s,
                        default_alloc(), regs_path);
                };
                // thrust writes into ref (+ the pristine buffer's room is not touched).
                std::int32_t* t_false = b.ref + n;
                const auto cub_into = [&b, n, apred, s](int* num) { cub_partition(b, n, apred, s, num); };
                const auto us = t.interleaved({
                    {mine},
                    {regs},
                    {[&] { cub_into(b.num); }},
                    cub_counted(b, s, cub_into),
                    cub_mapped(b, s, cub_into),
                    {[&] { thrust::partition_copy(thrust_on(s), b.in, b.in + n, b.ref, t_false, apred); }, [] {}, true},
                    memcpy_of(b.out, b.in, n, s),
                });
                const double sweep_us = us[0], regs_us = us[1], cub_us = us[2],
                             cub_count_us = us[3], cub_mapped_us = us[4], thrust_us = us[5],
                             copy_us = us[6];
                // The checks, on one more call of each (sweep's and the register path's share
                // their outputs).
                mine();
                const auto sweep_t = host(b.out, kept);
                const auto sweep_f = host(b.out2, n - kept);
                regs();
                const bool regs_same = regs_kept == kept && host(b.out, kept) == sweep_t &&
                                       host(b.out2, n - kept) == sweep_f;
                ok(cudaGetLastError(), "bench");
                // Check against CUB: selected in order, then the rejected reversed.
                cub_partition(b, n, apred, s);
                cub_wait_count(b, s);
                const auto r = host(b.ref, n);
                auto rej = sweep_f;
                std::reverse(rej.begin(), rej.end());
                const bool same = kept == *b.num_host && kept == cub_mapped_sink &&
                                  sweep_t == std::vector<std::int32_t>(r.begin(), r.begin() + kept) &&
                                  rej == std::vector<std::int32_t>(r.begin() + kept, r.end());
                print_row(csv, "partition_copy", lg, pct, double(2 * n) * 4, copy_us, sweep_us,
                          regs_us, cub_us, cub_count_us, cub_mapped_us, thrust_us,
                          !same ? "MISMATCH" : regs_same ? "ok" : "REGS MISMATCH");
            }
        }
    }

    for (const bool stable : {false, true}) {
        const char* algo = stable ? "stable_partition" : "partition";
        if (!all && what != algo) continue;
        print_header(stable ? "stable_partition in place (sweep / cub::DevicePartition::If out of place / thrust::stable_partition)"
                            : "partition in place (sweep / cub::DevicePartition::If out of place / thrust::partition)");
        for (int lg = lo; lg <= hi; lg += 2) {
            const std::int64_t n = std::int64_t{1} << lg;
            auto restore = [&] {
                ok(cudaMemcpyAsync(b.out, b.pristine, n * 4, cudaMemcpyDeviceToDevice, s), "restore");
            };
            for (const int pct : pcts) {
                const sweep::less_or_equal<std::int32_t> pred{pct};
                const anchor_le apred{pct};
                auto run_mine = [&] {
                    if (stable) sweep::stable_partition(sweep::gpu.on(s), b.out, b.out + n, pred);
                    else sweep::partition(sweep::gpu.on(s), b.out, b.out + n, pred);
                };
                // The "regs" column: stable_partition forced onto the register path;
                // partition through the stable pass (automatic path), i.e. before the exchange
                // pass (session 12).
                auto run_regs = [&] {
                    sweep::detail::cuda::run_partition_in_place<regs_tuning>(
                        algo, static_cast<const std::int32_t*>(b.out), b.out, n, pred, s,
                        default_alloc(),
                        stable ? regs_path : sweep::detail::cuda::compaction_path::automatic);
                };
                // The exchange pass forced at every size (partition only; the public call takes
                // it from swap_partition_min_n = 2^24): the figures that set that threshold.
                auto run_exchange = [&] {
                    sweep::detail::cuda::run_partition_unstable_in_place<regs_tuning>(
                        algo, static_cast<const std::int32_t*>(b.out), b.out, n, pred, s,
                        default_alloc(), 1);
                };
                const auto cub_into = [&b, n, apred, s](int* num) { cub_partition(b, n, apred, s, num); };
                std::vector<sweep_bench::timer::contender> cs = {
                    {run_mine, restore},
                    {run_regs, restore},
                    {[&] { cub_into(b.num); }},
                    cub_counted(b, s, cub_into),
                    cub_mapped(b, s, cub_into),
                    {[&] {
                         if (stable) thrust::stable_partition(thrust_on(s), b.out, b.out + n, apred);
                         else thrust::partition(thrust_on(s), b.out, b.out + n, apred);
                     },
                     restore, true},
                    memcpy_of(b.out2, b.in, n, s),
                };
                if (!stable) cs.push_back({run_exchange, restore});
                const auto us = t.interleaved(cs);
                const double sweep_us = us[0], regs_us = us[1], cub_us = us[2],
                             cub_count_us = us[3], cub_mapped_us = us[4], thrust_us = us[5],
                             copy_us = us[6];
                // The checks, on one more call of each.
                restore();
                run_mine();
                const auto mine = host(b.out, n);
                restore();
                run_regs();
                const auto regs_result = host(b.out, n);
                ok(cudaGetLastError(), "bench");
                // stable_partition: the same as thrust::stable_partition. partition (unstable
                // from 2^20): the kept ones first, at the same point, and a permutation of it.
                restore();
                thrust::stable_partition(thrust_on(s), b.out, b.out + n, apred);
                ok(cudaStreamSynchronize(s), "check");
                const auto ref = host(b.out, n);
                const auto ref_kept = std::count_if(ref.begin(), ref.end(),
                                                    [&](std::int32_t x) { return x <= pct; });
                auto as_partition = [&](std::vector<std::int32_t> v) {
                    for (std::int64_t i = 0; i < n; ++i)
                        if ((v[i] <= pct) != (i < ref_kept)) return false;
                    auto r = ref;
                    std::sort(v.begin(), v.end());
                    std::sort(r.begin(), r.end());
                    return v == r;
                };
                const bool same = (stable ? mine == ref : as_partition(mine)) &&
                                  cub_mapped_sink == ref_kept;
                const bool regs_same = regs_result == ref;
                print_row(csv, algo, lg, pct, double(2 * n) * 4, copy_us, sweep_us, regs_us,
                          cub_us, cub_count_us, cub_mapped_us, thrust_us,
                          !same ? "MISMATCH" : regs_same ? "ok" : "REGS MISMATCH");
                if (!stable) {
                    const double ex_us = us[7];
                    restore();
                    run_exchange();
                    const bool ex_ok = as_partition(host(b.out, n));
                    std::printf("|      |      | exchange pass forced: %9.1f us | %5.1f%% copy | "
                                "%5.2fx stable pass | %5.2fx CUB | %s |\n",
                                ex_us, 100.0 * copy_us / ex_us, regs_us / ex_us, cub_us / ex_us,
                                ex_ok ? "ok" : "MISMATCH");
                }
            }
        }
    }
}

// ---- exchange: the partition's exchange pass alone (quick; for its tuning knobs) ----------------

/// Every size from lo to hi (step 1), 10 / 50 / 90 % kept: the stable pass, the exchange pass
/// forced, CUB's out-of-place partition; the exchange result checked in O(n) (the kept ones first,
/// as many as in the input). The whole checks (a permutation too) are the tests' and `partition`.
void exchange(buffers& b, int lo, int hi, cudaStream_t s) {
    timer t(s);
    const int pcts[] = {10, 50, 90};
    std::printf("\npartition in place: the exchange pass forced, the stable pass, CUB out of place; "
                "int32, us, median of 25 (bulk writeback from tile / %d, >= %d tiles a block)\n\n",
                SWEEP_SWAP_PARTITION_BULK_DIV, SWEEP_SWAP_PARTITION_MIN_TILES);
    std::printf("| n    | kept | memcpy us | exchange us | %%copy  | stable us | cub us    | ex/stable | ex vs CUB | check |\n");
    std::printf("|------|------|-----------|-------------|--------|-----------|-----------|-----------|-----------|-------|\n");
    for (int lg = lo; lg <= hi; ++lg) {
        const std::int64_t n = std::int64_t{1} << lg;
        const double copy_us = t.median_us([&] {
            ok(cudaMemcpyAsync(b.out, b.in, n * 4, cudaMemcpyDeviceToDevice, s), "memcpy");
        });
        auto restore = [&] {
            ok(cudaMemcpyAsync(b.out, b.pristine, n * 4, cudaMemcpyDeviceToDevice, s), "restore");
        };
        const auto input = host(b.pristine, n);
        for (const int pct : pcts) {
            const sweep::less_or_equal<std::int32_t> pred{pct};
            const anchor_le apred{pct};
            const double ex_us = t.median_us(
                [&] {
                    sweep::detail::cuda::run_partition_unstable_in_place<regs_tuning>(
                        "partition", static_cast<const std::int32_t*>(b.out), b.out, n, pred, s,
                        default_alloc(), 1);
                },
                restore);
            const auto mine = host(b.out, n);
            const double st_us = t.median_us(
                [&] {
                    sweep::detail::cuda::run_partition_in_place<regs_tuning>(
                        "partition", static_cast<const std::int32_t*>(b.out), b.out, n, pred, s,
                        default_alloc());
                },
                restore);
            const double cub_us = t.median_us([&] {
                cub_partition(b, n, apred, s);
            });
            ok(cudaGetLastError(), "bench");
            const auto k = std::count_if(input.begin(), input.end(), [&](std::int32_t x) { return x <= pct; });
            bool good = true;
            for (std::int64_t i = 0; i < n && good; ++i) good = (mine[i] <= pct) == (i < k);
            std::printf("| 2^%-2d | %3d%% | %9.1f | %11.1f | %5.1f%% | %9.1f | %9.1f | %8.2fx | %8.2fx | %s |\n",
                        lg, pct, copy_us, ex_us, 100.0 * copy_us / ex_us, st_us, cub_us,
                        st_us / ex_us, cub_us / ex_us, good ? "ok" : "MISMATCH");
            std::fflush(stdout);
        }
    }
}

#if SWEEP_PERF_TUNING
// ---- tuning: the tile geometry of tuning/compaction_tuning.cuh ----------------------------------

int tune_pct = 50;  // the tuning rows' kept percentage (SWEEP_TUNE_KEPT)

template <class Tuning>
void tune_one(const char* name, buffers& b, int lg, cudaStream_t s, double copy_us) {
    using namespace sweep::detail::cuda;
    timer t(s);
    const std::int64_t n = std::int64_t{1} << lg;
    const sweep::less_or_equal<std::int32_t> pred{tune_pct};
    const temp_allocator alloc = make_temp_allocator<sweep::default_resource>(nullptr);
    const std::int32_t* in = b.in;
    std::int64_t kept = 0;
    const double sel_us = t.median_us([&] {
        kept = run_compaction<Tuning>("copy_if", in, in, true, b.out, b.out, false, false, n, pred, s, alloc, compaction_path::registers);
    });
    const double part_us = t.median_us([&] {
        run_compaction<Tuning>("partition_copy", in, in, true, b.out, b.out2, true, false, n, pred, s, alloc, compaction_path::registers);
    });
    using agent = compaction_agent<Tuning, const std::int32_t*, const std::int32_t*, std::int32_t*,
                                   std::int32_t*, sweep::less_or_equal<std::int32_t>>;
    cudaFuncAttributes attr{};
    ok(cudaFuncGetAttributes(&attr, compaction_lookback_kernel<agent>), "attributes");
    int per_sm = 0;
    ok(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, compaction_lookback_kernel<agent>,
                                                     agent::threads, 0),
       "occupancy");
    const double copy_gbs = 2.0 * n * 4 / copy_us * 1e-3;
    const double sel = double(n + kept) * 4 / sel_us * 1e-3 / copy_gbs * 100;
    const double part = double(2 * n) * 4 / part_us * 1e-3 / copy_gbs * 100;
    std::printf("| %-27s | 2^%d | %4d | %3d | %2d | %9.1f | %5.1f%% | %9.1f | %5.1f%% | - | - | - |\n",
                name, lg, agent::tile_items, attr.numRegs, per_sm, sel_us, sel, part_us, part);
    std::fflush(stdout);
}

int check_lg = 0;  // tune_bulk checks its outputs at this size

/// The shared-memory path with tile geometry BulkTuning (the register tuning is the default; it
/// serves only the single-block sizes, none here).
template <class BulkTuning>
void tune_bulk(const char* name, buffers& b, int lg, cudaStream_t s, double copy_us) {
    using namespace sweep::detail::cuda;
    using pred_t = sweep::less_or_equal<std::int32_t>;
    using in_t = const std::int32_t*;
    using reg_t = default_compaction_tuning<std::int32_t>;
    timer t(s);
    const std::int64_t n = std::int64_t{1} << lg;
    const pred_t pred{tune_pct};
    const temp_allocator alloc = make_temp_allocator<sweep::default_resource>(nullptr);
    const std::int32_t* in = b.in;
    std::int64_t kept = 0;
    const double sel_us = t.median_us([&] {
        kept = run_compaction<reg_t, in_t, in_t, std::int32_t*, std::int32_t*, pred_t, BulkTuning>(
            "copy_if", in, in, true, b.out, b.out, false, false, n, pred, s, alloc,
            compaction_path::bulk);
    });
    // Checked against the host at the smallest size (host copies of 2^28 would take seconds).
    const bool check = lg == check_lg;
    std::vector<std::int32_t> want_t, want_f;
    bool same = true;
    if (check) {
        const auto h = host(b.in, n);
        for (const std::int32_t x : h) (pred(x) ? want_t : want_f).push_back(x);
        same = kept == static_cast<std::int64_t>(want_t.size()) && host(b.out, kept) == want_t;
    }
    const double part_us = t.median_us([&] {
        run_compaction<reg_t, in_t, in_t, std::int32_t*, std::int32_t*, pred_t, BulkTuning>(
            "partition_copy", in, in, true, b.out, b.out2, true, false, n, pred, s, alloc,
            compaction_path::bulk);
    });
    if (check)
        same = same && host(b.out, kept) == want_t && host(b.out2, n - kept) == want_f;
    // The in-place pass (stable_partition; mirrored below half kept, forward here at 50 %).
    const auto restore = [&] {
        ok(cudaMemcpyAsync(b.out, b.pristine, n * 4, cudaMemcpyDeviceToDevice, s), "restore");
    };
    const double inplace_us = t.median_us(
        [&] {
            run_partition_in_place<reg_t, in_t, std::int32_t*, pred_t, BulkTuning>(
                "stable_partition", static_cast<in_t>(b.out), b.out, n, pred, s, alloc,
                compaction_path::bulk);
        },
        restore);
    if (check) {
        auto all = want_t;
        all.insert(all.end(), want_f.begin(), want_f.end());
        same = same && host(b.out, n) == all;
    }
    using agent = compaction_bulk_agent<BulkTuning, in_t, in_t, std::int32_t*, std::int32_t*, pred_t>;
    cudaFuncAttributes attr{};
    ok(cudaFuncGetAttributes(&attr, compaction_bulk_kernel<agent>), "attributes");
    int per_sm = 0;
    ok(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, compaction_bulk_kernel<agent>,
                                                     agent::threads, agent::smem_bytes),
       "occupancy");
    const double copy_gbs = 2.0 * n * 4 / copy_us * 1e-3;
    const double sel = double(n + kept) * 4 / sel_us * 1e-3 / copy_gbs * 100;
    const double part = double(2 * n) * 4 / part_us * 1e-3 / copy_gbs * 100;
    const double inplace = double(2 * n) * 4 / inplace_us * 1e-3 / copy_gbs * 100;
    std::printf("| %-27s | 2^%d | %4d | %3d | %2d | %9.1f | %5.1f%% | %9.1f | %5.1f%% | %9.1f | %5.1f%% | %s |\n",
                name, lg, static_cast<int>(agent::tile_items), attr.numRegs, per_sm, sel_us, sel,
                part_us, part, inplace_us, inplace, !check ? "-" : same ? "ok" : "MISMATCH");
    std::fflush(stdout);
}

/// CUB's DeviceSelect::If and DevicePartition::If (out of place) in the tuning table's columns.
void tune_cub(buffers& b, int lg, cudaStream_t s, double copy_us) {
    timer t(s);
    const std::int64_t n = std::int64_t{1} << lg;
    const anchor_le apred{tune_pct};
    const double sel_us = t.median_us([&] { cub_select(b, n, apred, s); });
    const double part_us = t.median_us([&] { cub_partition(b, n, apred, s); });
    ok(cudaStreamSynchronize(s), "cub");
    const double copy_gbs = 2.0 * n * 4 / copy_us * 1e-3;
    const double kept = double(n) * tune_pct / 100;
    std::printf("| %-27s | 2^%d |      |     |    | %9.1f | %5.1f%% | %9.1f | %5.1f%% | - | - | - |\n",
                "cub", lg, sel_us, (n + kept) * 4 / sel_us * 1e-3 / copy_gbs * 100, part_us,
                2.0 * n * 4 / part_us * 1e-3 / copy_gbs * 100);
    std::fflush(stdout);
}

void tuning(buffers& b, int lo, int hi, cudaStream_t s) {
    using sweep::detail::cuda::compaction_tuning;
    if (const char* e = std::getenv("SWEEP_TUNE_KEPT")) tune_pct = std::atoi(e);
    std::printf("\ntile geometry, int32, %d %% kept (copy_if, partition_copy; bulk rows also the in-place\n"
                "pass, and at 2^%d a check of all three against the host); register path, then bulk;\n"
                "the cub row: DeviceSelect::If and DevicePartition::If (out of place) in the same columns\n\n",
                tune_pct, lo);
    check_lg = lo;
    std::printf("| threads x rounds, min blocks | n    | tile | reg | /SM | copy_if us | %%copy  | part. us  | %%copy  | in-place us | %%copy | check |\n");
    std::printf("|-----------------------------|------|------|-----|----|-----------|--------|-----------|--------|-----------|--------|-------|\n");
    timer t(s);
    for (int lg = lo; lg <= hi; lg += 2) {
        const std::int64_t n = std::int64_t{1} << lg;
        const double copy_us = t.median_us([&] {
            ok(cudaMemcpyAsync(b.out, b.in, n * 4, cudaMemcpyDeviceToDevice, s), "memcpy");
        });
        tune_cub(b, lg, s, copy_us);
        tune_one<compaction_tuning<128, 32, 10>>("128 x 32, 10 (default)", b, lg, s, copy_us);
        tune_one<compaction_tuning<128, 32, 8>>("128 x 32, 8", b, lg, s, copy_us);
        using sweep::detail::cuda::compaction_bulk_tuning;
        tune_bulk<compaction_bulk_tuning<128, 24576, 8>>("bulk 128 x 24K, 8", b, lg, s, copy_us);
        tune_bulk<compaction_bulk_tuning<128, 16384, 12>>("bulk 128 x 16K, 12", b, lg, s, copy_us);
        tune_bulk<compaction_bulk_tuning<256, 40960, 5>>("bulk 256 x 40K, 5", b, lg, s, copy_us);
        tune_bulk<compaction_bulk_tuning<256, 24576, 8>>("bulk 256 x 24K, 8", b, lg, s, copy_us);
        tune_bulk<compaction_bulk_tuning<256, 32768, 6>>("bulk 256 x 32K, 6", b, lg, s, copy_us);
        tune_bulk<compaction_bulk_tuning<256, 49152, 4>>("bulk 256 x 48K, 4 (default)", b, lg, s, copy_us);
        tune_bulk<compaction_bulk_tuning<384, 49152, 4>>("bulk 384 x 48K, 4", b, lg, s, copy_us);
        tune_bulk<compaction_bulk_tuning<128, 32768, 6>>("bulk 128 x 32K, 6", b, lg, s, copy_us);
        // More bytes in flight an SM than 4 x 48 KB (192 KB): fewer waves at 2^24 (session 21).
        tune_bulk<compaction_bulk_tuning<256, 53248, 4>>("bulk 256 x 52K, 4", b, lg, s, copy_us);
        tune_bulk<compaction_bulk_tuning<256, 36864, 6>>("bulk 256 x 36K, 6", b, lg, s, copy_us);
        tune_bulk<compaction_bulk_tuning<512, 98304, 2>>("bulk 512 x 96K, 2", b, lg, s, copy_us);
    }
}
#endif

}  // namespace

int main(int argc, char** argv) {
    const int hi = argc > 1 ? std::atoi(argv[1]) : 28;
    const int lo = argc > 2 ? std::atoi(argv[2]) : 24;
    const std::string what = argc > 3 ? argv[3] : "all";
    std::FILE* csv = std::getenv("SWEEP_PERF_CSV") ? std::fopen(std::getenv("SWEEP_PERF_CSV"), "w") : nullptr;
    cudaDeviceProp prop{};
    ok(cudaGetDeviceProperties(&prop, 0), "props");
    std::printf("device: %s, %d SMs, L2 %d MB\n", prop.name, prop.multiProcessorCount,
                prop.l2CacheSize >> 20);

    cudaStream_t s;
    ok(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "stream");
    buffers b{};
    // SWEEP_BENCH_ALLOC_LG: buffers for 2^k elements when that is more than 2^hi (session 25:
    // the 2^24 rows of `28 24` runs were slower for sweep than those of `24 24` runs).
    // At most 2^30 (CUB's counts are int).
    const int alloc_lg = sweep_bench::env_int("SWEEP_BENCH_ALLOC_LG", 0, 30, 0);
    b.nmax = std::int64_t{1} << std::max(hi, alloc_lg);
    if (alloc_lg > hi) std::printf("buffers for 2^%d elements (SWEEP_BENCH_ALLOC_LG)\n", alloc_lg);
    if (const char* e = std::getenv("SWEEP_BENCH_ONLY"); e && *e) {
        bench_only = sweep_bench::split(e);
        for (const std::string& name : bench_only) {
            if (std::none_of(std::begin(copy_if_contenders), std::end(copy_if_contenders),
                             [&](const char* c) { return name == c; }))
                std::fprintf(stderr, "SWEEP_BENCH_ONLY: no contender \"%s\" (sweep, regs, cub, "
                                     "cub+count, cub+mapped, thrust, memcpy)\n", name.c_str());
        }
        std::printf("copy_if rows: only %s timed (SWEEP_BENCH_ONLY; the others print as nan)\n", e);
    }
    if (const char* e = std::getenv("SWEEP_BENCH_SECOND"); e && *e) {
        if (std::string(e) == "nohint") {
            second = second_mode::nohint;
            std::printf("copy_if's second sweep column: the L2::evict_first hint forced off "
                        "(SWEEP_BENCH_SECOND=nohint)\n");
        } else if (std::string(e) == "flag") {
            second = second_mode::flag;
            std::printf("copy_if's second sweep column: the count handed back by a dependent "
                        "kernel through the mapped slot, no stream synchronization "
                        "(SWEEP_BENCH_SECOND=flag)\n");
        } else if (std::string(e) != "regs") {
            std::fprintf(stderr, "SWEEP_BENCH_SECOND: \"%s\" is none of regs, nohint, flag; regs\n", e);
        }
    }
    if (const char* e = std::getenv("SWEEP_BENCH_THRUST"); e && *e) {
        if (std::string(e) == "cached") {
            thrust_alloc.cache = true;
            std::printf("thrust's temporaries cached (SWEEP_BENCH_THRUST=cached)\n");
        } else if (std::string(e) != "malloc") {
            std::fprintf(stderr, "SWEEP_BENCH_THRUST: \"%s\" is neither malloc nor cached; malloc\n", e);
        }
    }
    // SWEEP_BENCH_OFFSET_MB=k (a diagnostic, session 26): in, pristine, out and out2 start k MiB
    // into allocations k MiB larger (does the 2^24 rows' dependence on the buffers follow the
    // allocation's size or the data's place in it?).
    const std::size_t offset = std::size_t(sweep_bench::env_int("SWEEP_BENCH_OFFSET_MB", 0, 4096, 0)) << 20;
    if (offset != 0) std::printf("buffers start %zu MiB into their allocations (SWEEP_BENCH_OFFSET_MB)\n", offset >> 20);
    void* bases[4] = {};
    std::int32_t** const shifted[4] = {&b.in, &b.pristine, &b.out, &b.out2};
    for (int k = 0; k < 4; ++k) {
        ok(cudaMalloc(&bases[k], b.nmax * 4 + offset), "cudaMalloc");
        *shifted[k] = reinterpret_cast<std::int32_t*>(static_cast<char*>(bases[k]) + offset);
    }
    ok(cudaMalloc(&b.ref, 2 * b.nmax * 4), "cudaMalloc");
    const auto mib_from_in = [&](const std::int32_t* p) {
        return static_cast<long long>((reinterpret_cast<std::intptr_t>(p) -
                                       reinterpret_cast<std::intptr_t>(b.in)) >> 20);
    };
    std::printf("buffers (offsets from in, MiB): pristine %+lld, out %+lld, out2 %+lld, ref %+lld\n",
                mib_from_in(b.pristine), mib_from_in(b.out), mib_from_in(b.out2), mib_from_in(b.ref));
    ok(cudaMalloc(&b.num, sizeof(int)), "cudaMalloc");
    ok(cudaMallocHost(&b.num_host, sizeof(int)), "cudaMallocHost");
    ok(cudaHostAlloc(&b.num_mapped, sizeof(int), cudaHostAllocMapped), "cudaHostAlloc mapped");
    ok(cudaHostGetDevicePointer(reinterpret_cast<void**>(&b.num_mapped_dev), b.num_mapped, 0),
       "cudaHostGetDevicePointer");
    fill<<<1024, 256, 0, s>>>(b.in, b.nmax, 12345);
    ok(cudaMemcpyAsync(b.pristine, b.in, b.nmax * 4, cudaMemcpyDeviceToDevice, s), "copy");
    ok(cudaStreamSynchronize(s), "fill");
    // CUB temporary storage, sized once for the largest n (the larger of select and partition).
    const anchor_le pred{50};
    std::size_t a = 0, c = 0;
    cub::DeviceSelect::If(nullptr, a, b.in, b.ref, b.num, static_cast<int>(b.nmax), pred, s);
    cub::DevicePartition::If(nullptr, c, b.in, b.ref, b.num, static_cast<int>(b.nmax), pred, s);
    b.cub_bytes = std::max(a, c);
    ok(cudaMalloc(&b.cub_temp, b.cub_bytes), "cudaMalloc cub");

    if (what == "tuning") {
#if SWEEP_PERF_TUNING
        tuning(b, lo, hi, s);
#else
        return sweep_bench::tuning_not_built("tuning");
#endif
    }
    else if (what == "exchange") exchange(b, lo, hi, s);
    else bench(what, b, lo, hi, s, csv);

    thrust_alloc.release();
    cudaFree(b.cub_temp);
    for (void* base : bases) cudaFree(base);
    cudaFree(b.ref);
    cudaFree(b.num);
    cudaFreeHost(b.num_host);
    cudaFreeHost(b.num_mapped);
    cudaStreamDestroy(s);
    if (csv) std::fclose(csv);
    return 0;
}
