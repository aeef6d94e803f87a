// perf/gpu/trace_compaction.cu -- where the time of copy_if's shared-memory path goes (session 18,
// issue 4): the library's bulk agent (agent/compaction_bulk_agent.cuh) driven by kernels of this
// file, which time each block's phases with the global timer, and variants of the load.
//
//   sweep_perf_gpu_trace_compaction [log2 n = 28] [kept % = 10] [rows] [interleaved] [log2 buffers]
//
// rows: the traced rows below, comma-separated (default tma,persist,cp.async,tma,persist; x for
// none), with, since session 25 (perf/notes-gpu.md C8), w2/w4/w8 (the tma kernel with 2/4/8
// look-back windows a poll) and q1-q3/rank (the tma kernel behind a ticket gate, gate_cfg).
// interleaved: variants timed with timer::interleaved (one launch of each per repetition,
// rotated): tma, w4, cp.async, q1-q3, rank, cub, cubx1/cubx2 (CUB writing buffers of its own),
// library, thrust (thrust::copy_if, as the bench's contender), mallocfree (a cudaMalloc and a
// cudaFree of 1 MiB: what Thrust's temporaries do between the other calls); since session 28
// (perf/notes-gpu.md C11) the two-pass experiment: 2pass (pass 2 in reverse tile order, launched
// behind pass 1 as a programmatic dependent launch), 2passf (forward), 2passnp (reverse, plain
// launches), 2passh/2passfh (2pass/2passf with L2 eviction hints), count (pass 1 alone), tmah
// (tma with an L2::evict_first hint on the tile copies), memcpy (the input copied), flush (256 MiB
// read); since session 29 segH_T / segnH_T (H tiles of 128 x 24 KB at the head, about T at the
// tail, the library's tiles between, one look-back chain over three kernels; segn without the L2
// hint: launch_segments); "A|B" times A after B (B run and waited for, untimed: what B leaves in
// L2 for A); any variant with "+sync" appended is followed by a cudaStreamSynchronize inside its
// timed interval ("+query", "+event": other waits; since session 29 "+flag"/"+flagsync": the
// library's compaction_count_handoff_kernel, launched behind, hands the count to mapped host
// memory once the grid is complete; tmaht: tmah whose blocks trigger that launch at their entry;
// direct/directflag: the dispatch layer's run_compaction with the stream wait or
// compaction_wait::flag). The two-pass and segmented results are checked against CUB's.
// log2 buffers: allocate the buffers for more elements than n. A sixth argument "whole": as the
// compaction bench, a non-blocking stream, all of the input buffer filled and copied whole.
//
// Kernels (one tile a block in ticket order, as compaction_bulk_kernel; the ticket, tile states
// and gate counters zeroed by one memset before each launch, so every row pays the same):
//   tma       the library's load: thread 0 takes the ticket and issues one cp.async.bulk of the
//             tile (the copy engine)
//   cp.async  every thread copies 16-byte pieces with cp.async.cg (LDGSTS: the requests of all
//             blocks of an SM interleave in the memory pipeline; asks whether the copy engine's
//             order makes the stragglers. Measured: no, the same or 1-2 % slower)
//   persist   (session 24, perf/notes-gpu.md C7) persistent blocks, the resident count, with two
//             tile buffers: the next tile's copy starts as soon as a buffer is free. Measured:
//             0.50-0.65x CUB, each tile's look-back wait now spent by a block on one tile
// After each tma and persist row: the first wave against the rest, and a 16-slice timeline of the
// blocks alive, loading and storing; after each tma row, each tile's wait split into straggle and
// walk, and the first wave's landing order per SM (print_chain).
// (Session 18 also had a "no-wait" row, the look-back not waiting and every tile taking prefix 0;
// meant as the bound the waiting leaves, it was not one: every tile then stores at the same
// addresses, and it ran slower than tma. Removed.)
// Each row: median of 15 launches (events), against cub::DeviceSelect::If and a device memcpy of
// the same bytes in the same process; then one traced launch: per-tile percentiles (us) of
//   ticket  kernel entry -> the ticket back        load   ticket -> tile in shared memory
//   count   load -> counts known (barrier)         wait   count announced -> prefix known
//                                                  (warp 0's placement included)
//   store   prefix -> stores issued (barrier)      life   entry -> end
// and the mean number of blocks alive per SM. Every row's result is checked against CUB's. Two
// more rows, untraced: "tma+sync" (the tma launch and a cudaStreamSynchronize in the timed
// interval: what waiting for the call costs), "direct" (the dispatch layer's run_compaction, as the
// bench's tuning rows call it) and "library" (sweep::copy_if itself, compiled here; it returns the
// count and so waits); then the host time of one device-accessibility check of a pointer
// (cudaPointerGetAttributes), which each call makes for its input and its output.
// The kernel repeats compaction_bulk_agent::run_tile's steps, with timestamps between them: a
// change to run_tile must be made here too.
// SWEEP_BUILD_TUNING only.
#include <cub/device/device_select.cuh>
#include <thrust/copy.h>
#include <thrust/execution_policy.h>

#include <sweep/copy_if.hpp>
#include <sweep/backend/cuda/agent/compaction_bulk_agent.cuh>
#include <sweep/backend/cuda/dispatch/compaction.cuh>
#include <sweep/backend/cuda/agent/count_prefix.cuh>
#include <sweep/backend/cuda/tuning/compaction_tuning.cuh>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "bench_common.cuh"

namespace cu = sweep::detail::cuda;
using sweep_bench::ok;

namespace {

struct le_pred {
    std::int32_t p;
    __host__ __device__ bool operator()(std::int32_t x) const { return x <= p; }
};

using tuning = cu::default_compaction_bulk_tuning<std::int32_t>;
using agent_t = cu::compaction_bulk_agent<tuning, const std::int32_t*, const std::int32_t*,
                                          std::int32_t*, std::int32_t*, le_pred>;

struct tile_rec {
    unsigned long long start, ticket, loaded, counted, prefixed, end;
    unsigned smid, pad;
};

using sweep_bench::globaltimer_ns;

double pct(std::vector<double> v, double q);

/// Session 24 (perf/notes-gpu.md C7): are the blocks' lives locked in waves? The tiles of the
/// first wave (started within 2 us of the first block) against the others: load and life p50;
/// then the grid's span in 16 slices, with the blocks alive, loading (ticket taken, tile not yet
/// in shared memory) and storing (prefix known, not yet ended) in the middle of each.
void print_waves(const std::vector<tile_rec>& r, unsigned long long first, unsigned long long last) {
    std::vector<double> ld0, lf0, ld1, lf1;
    for (const auto& x : r) {
        const bool wave0 = x.start < first + 2000;
        (wave0 ? ld0 : ld1).push_back((x.loaded - x.ticket) / 1e3);
        (wave0 ? lf0 : lf1).push_back((x.end - x.start) / 1e3);
    }
    std::printf("\nfirst wave: %zu tiles, load p50 %.1f us, life p50 %.1f us; the rest: %zu tiles, "
                "load p50 %.1f us, life p50 %.1f us\n",
                ld0.size(), ld0.empty() ? 0.0 : pct(ld0, .5), lf0.empty() ? 0.0 : pct(lf0, .5),
                ld1.size(), ld1.empty() ? 0.0 : pct(ld1, .5), lf1.empty() ? 0.0 : pct(lf1, .5));
    std::printf("| slice (us from the first start) | alive | loading | storing |\n|---|---|---|---|\n");
    const double span = double(last - first);
    for (int k = 0; k < 16; ++k) {
        const unsigned long long at = first + static_cast<unsigned long long>(span * (k + 0.5) / 16);
        int alive = 0, loading = 0, storing = 0;
        for (const auto& x : r) {
            if (x.start > at || x.end <= at) continue;
            ++alive;
            if (x.ticket <= at && x.loaded > at) ++loading;
            if (x.prefixed <= at) ++storing;
        }
        std::printf("| %.1f | %d | %d | %d |\n", (at - first) / 1e3, alive, loading, storing);
    }
    std::printf("\n");
}

/// Session 25: what a tile's look-back wait is made of. ready(t): the time when every tile up to t
/// had its count out (the latest `counted` stamp among tiles 0..t). straggle = ready(t) -
/// counted(t): waiting for a predecessor's count (a slow load ahead); walk = prefixed(t) -
/// ready(t): the look-back's own time once everything it needs is out (its polls, the
/// propagation of inclusive prefixes, and warp 0's placement). Split into the first wave, the
/// middle and the last wave (the last `slots` tiles). Then the first wave per SM: the blocks in
/// the order they took their tickets (rank), when their tiles landed, and which tiles they hold.
void print_chain(const std::vector<tile_rec>& r, unsigned long long first) {
    const std::size_t n = r.size();
    std::size_t wave0 = 0;
    for (const auto& x : r) wave0 += x.start < first + 2000;
    const std::size_t slots = std::max<std::size_t>(wave0, 1);
    std::vector<double> sg[3], wk[3];
    unsigned long long ready = 0;
    for (std::size_t t = 0; t < n; ++t) {
        ready = std::max(ready, r[t].counted);
        const int part = t < slots ? 0 : (t + slots >= n ? 2 : 1);
        sg[part].push_back((ready - r[t].counted) / 1e3);
        wk[part].push_back(r[t].prefixed > ready ? (r[t].prefixed - ready) / 1e3 : 0.0);
    }
    std::printf("| tiles | n | straggle p50/p90/p99 | walk p50/p90/p99 |\n|---|---|---|---|\n");
    const char* names[3] = {"first wave", "middle", "last wave"};
    for (int k = 0; k < 3; ++k)
        if (!sg[k].empty())
            std::printf("| %s | %zu | %.1f/%.1f/%.1f | %.1f/%.1f/%.1f |\n", names[k], sg[k].size(),
                        pct(sg[k], .5), pct(sg[k], .9), pct(sg[k], .99), pct(wk[k], .5),
                        pct(wk[k], .9), pct(wk[k], .99));
    // First wave per SM.
    std::vector<std::vector<std::size_t>> by_sm;
    for (std::size_t t = 0; t < n; ++t) {
        if (r[t].start >= first + 2000) continue;
        if (by_sm.size() <= r[t].smid) by_sm.resize(r[t].smid + 1);
        by_sm[r[t].smid].push_back(t);
    }
    std::vector<std::vector<double>> land(8), tix(8);
    int sms = 0, in_order = 0;
    for (auto& v : by_sm) {
        if (v.empty()) continue;
        std::sort(v.begin(), v.end());  // tile index = ticket number: the order of the tickets
        ++sms;
        bool ordered = true;
        for (std::size_t k = 0; k < v.size(); ++k) {
            if (k < 8) {
                land[k].push_back((r[v[k]].loaded - first) / 1e3);
                tix[k].push_back(double(v[k]));
            }
            if (k > 0 && r[v[k]].loaded < r[v[k - 1]].loaded) ordered = false;
        }
        in_order += ordered;
    }
    std::printf("\nfirst wave on %d SMs, landed in ticket order on %d of them\n| rank on SM | blocks | "
                "landed p10/p50/p90 us | tile p10/p50/p90 |\n|---|---|---|---|\n", sms, in_order);
    for (int k = 0; k < 8; ++k)
        if (!land[k].empty())
            std::printf("| %d | %zu | %.1f/%.1f/%.1f | %.0f/%.0f/%.0f |\n", k, land[k].size(),
                        pct(land[k], .1), pct(land[k], .5), pct(land[k], .9), pct(tix[k], .1),
                        pct(tix[k], .5), pct(tix[k], .9));
    std::printf("\n");
}

// tma_hint_trig (session 29): tma_hint whose blocks let a programmatic dependent launch start at
// their entry (griddepcontrol.launch_dependents), for the "+flag" waits.
enum class mode { tma, cp_async, persist, tma_hint, tma_hint_trig };

/// An L2::evict_last policy (createpolicy) for the whole of an access (the two-pass and scout
/// counts' loads; the tile copies' evict_first hint is the library's, compaction_params::
/// evict_first).
__device__ __forceinline__ std::uint64_t l2_evict_last_policy() {
    std::uint64_t pol;
    asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(pol));
    return pol;
}

__device__ __forceinline__ int4 ld_hint(const int4* p, std::uint64_t pol) {
    int4 v;
    asm volatile("ld.global.L2::cache_hint.v4.s32 {%0, %1, %2, %3}, [%4], %5;"
                 : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
                 : "l"(p), "l"(pol));
    return v;
}

/// The steps of agent.run_tile(tile, tile, false, prefix) on a tile in shared memory, timed:
/// thread 0's stamps go to t_counted and t_prefixed (Trace). Ends after the stores are issued.
template <bool Trace, int W = 1>
__device__ void timed_tile(agent_t& a, std::int64_t tile, std::int64_t tiles,
                           const cu::count_tile_state& state, unsigned long long& t_counted,
                           unsigned long long& t_prefixed) {
    const int len = a.tile_len(tile);
    a.count(len);
    __syncthreads();
    if (Trace && threadIdx.x == 0) t_counted = globaltimer_ns();
    int warp_before = 0;
    const int kept = a.tile_counts(warp_before);
    cu::count_lookback<cu::count_tile_state, W> prefix{state, false};
    if (threadIdx.x < 32) a.announce(tile, kept, prefix);
    const int warp_kept = a.place(len);
    if (threadIdx.x < 32) {
        prefix.resolve(tile, static_cast<std::int64_t>(kept), &a.h.prefix);
        if (Trace && threadIdx.x == 0) t_prefixed = globaltimer_ns();
    }
    __syncthreads();
    const std::int64_t before = a.h.prefix;
    a.store(tile, len, kept, warp_before, warp_kept, before, false);
    if (threadIdx.x == 0 && tile == tiles - 1) *a.p.total = before + kept;
}

/// Thread 0: tile's record, its end stamped now.
__device__ void record_tile(tile_rec* rec, std::int64_t tile, unsigned long long t_start,
                            unsigned long long t_ticket, unsigned long long t_loaded,
                            unsigned long long t_counted, unsigned long long t_prefixed) {
    unsigned smid;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
    rec[tile] = tile_rec{t_start, t_ticket, t_loaded, t_counted, t_prefixed, globaltimer_ns(), smid, 0};
}

/// Session 25: orders of taking tickets (perf/notes-gpu.md C8). An SM's bulk copies land in the
/// order they were issued (call 1 of session 25), so a tile's load waits behind the copies
/// already queued on its SM, and the first wave's tickets are spread over those queue places:
/// every tile then waits for the slowest of its predecessors. Per SM (%smid, 256 counters),
/// `issued` numbers the blocks that started there and `landed` counts their tiles landed.
///   q > 0:  a block takes its ticket only when fewer than q of its SM's copies are in flight
///           (its number k < landed + q), or after 20 us, so tickets follow the order in which
///           tiles will land.
///   rank:   the k-th block to start on an SM, k < rank_waves, takes its ticket only once
///           k * sms tickets have been taken (the first wave: tickets by queue place), or after
///           3 us.
struct gate_cfg {
    unsigned* issued = nullptr;
    unsigned* landed = nullptr;
    unsigned q = 0, rank_waves = 0, sms = 0;
};

__device__ __forceinline__ unsigned ld_relaxed_u32(const unsigned* p) {
    unsigned v;
    asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}

/// Thread 0, before its ticket: waits as the gate says. Returns the block's SM slot (for landed).
__device__ unsigned gate_enter(const gate_cfg& g, const unsigned* ticket) {
    if (g.q == 0 && g.rank_waves == 0) return 0;
    unsigned smid;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
    const unsigned sm = smid & 255u;
    const unsigned k = atomicAdd(g.issued + sm, 1u);
    if (g.q > 0) {
        const unsigned long long t0 = globaltimer_ns();
        while (k >= ld_relaxed_u32(g.landed + sm) + g.q && globaltimer_ns() - t0 < 20000)
            __nanosleep(64);
    } else if (k < g.rank_waves && k > 0) {
        const unsigned long long t0 = globaltimer_ns();
        while (ld_relaxed_u32(ticket) < k * g.sms && globaltimer_ns() - t0 < 3000) __nanosleep(64);
    }
    return sm;
}

template <mode M, bool Trace, int W = 1>
__global__ void __launch_bounds__(agent_t::threads, tuning::min_blocks)
    trace_kernel(const agent_t::params p, const cu::count_tile_state state, unsigned int* ticket,
                 std::int64_t tiles, tile_rec* rec, const gate_cfg g) {
    extern __shared__ __align__(128) unsigned char dynamic_smem[];
    agent_t agent(p, dynamic_smem);
    if constexpr (M == mode::tma_hint_trig) cu::pdl::launch_dependents();
    unsigned long long t_start = 0, t_ticket = 0;
    if (Trace) t_start = globaltimer_ns();
    unsigned sm = 0;
    if (threadIdx.x == 0) {
        cu::bulk::init(&agent.h.bar);
        cu::bulk::fence_init();
        sm = gate_enter(g, ticket);
        const std::int64_t order = atomicAdd(ticket, 1u);
        if (Trace) t_ticket = globaltimer_ns();
        if (M != mode::cp_async && agent.is_full(order)) agent.start_copy(order);
        agent.h.order = order;
    }
    __syncthreads();
    const std::int64_t tile = agent.h.order;
    if (agent.is_full(tile)) {
        if constexpr (M == mode::cp_async) {
            const auto* src = reinterpret_cast<const unsigned char*>(p.in + tile * agent_t::tile_items);
            const auto dst = static_cast<unsigned>(__cvta_generic_to_shared(agent.data));
            for (int i = static_cast<int>(threadIdx.x); i < agent_t::tile_bytes / 16;
                 i += agent_t::threads)
                asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst + 16 * i),
                             "l"(src + 16 * i)
                             : "memory");
            asm volatile("cp.async.commit_group;\ncp.async.wait_group 0;" ::: "memory");
            __syncthreads();
        } else {
            cu::bulk::wait(&agent.h.bar, 0);
        }
    } else {
        agent.load_partial(tile);
        __syncthreads();
    }
    unsigned long long t_loaded = 0, t_counted = 0, t_prefixed = 0;
    if (Trace && threadIdx.x == 0) t_loaded = globaltimer_ns();
    if (g.q > 0 && threadIdx.x == 0) atomicAdd(g.landed + sm, 1u);
    timed_tile<Trace, W>(agent, tile, tiles, state, t_counted, t_prefixed);
    if constexpr (Trace) {
        __syncthreads();
        if (threadIdx.x == 0) record_tile(rec, tile, t_start, t_ticket, t_loaded, t_counted, t_prefixed);
    }
}

/// Session 24 (perf/notes-gpu.md C7): persistent blocks (the resident count) with two tile
/// buffers. A block takes two tickets and starts both tiles' copies; then, in turn, it works on
/// the tile in one buffer (the steps of trace_kernel) and, when done with that buffer, takes the
/// next ticket and starts its copy there, so the copy engine always has a tile of every block in
/// flight. Tickets are taken in increasing order by each block, and a block works on its older
/// tile first; only running blocks take tickets, so the oldest unannounced tile is always one a
/// running block is working on: the look-back always progresses. A tile's aggregate goes out
/// only when its block reaches it (not when it lands). Trace: `start` and `ticket` are both when
/// the ticket was taken and the copy started (the "ticket" column is 0), and `loaded` when the
/// block had the tile and had finished its other tile: "load" and "life" include the time a tile
/// waits behind the block's other buffer.
template <bool Trace>
__global__ void __launch_bounds__(agent_t::threads)
    persist_kernel(const agent_t::params p, const cu::count_tile_state state, unsigned int* ticket,
                   std::int64_t tiles, tile_rec* rec) {
    extern __shared__ __align__(128) unsigned char dynamic_smem[];
    agent_t a0(p, dynamic_smem);
    agent_t a1(p, dynamic_smem + agent_t::smem_bytes);
    unsigned long long t_take[2] = {0, 0};
    if (threadIdx.x == 0) {
        cu::bulk::init(&a0.h.bar);
        cu::bulk::init(&a1.h.bar);
        cu::bulk::fence_init();
        for (int b = 0; b < 2; ++b) {
            agent_t& a = b ? a1 : a0;
            const std::int64_t order = atomicAdd(ticket, 1u);
            if (Trace) t_take[b] = globaltimer_ns();
            a.h.order = order;
            if (order < tiles && a.is_full(order)) a.start_copy(order);
        }
    }
    __syncthreads();
    unsigned parity[2] = {0, 0};
    for (int b = 0;; b ^= 1) {
        agent_t& a = b ? a1 : a0;
        const std::int64_t tile = a.h.order;  // uniform; the other buffer's ticket is later
        if (tile >= tiles) break;
        if (a.is_full(tile)) {
            cu::bulk::wait(&a.h.bar, parity[b]);
            parity[b] ^= 1u;
        } else {
            a.load_partial(tile);
            __syncthreads();
        }
        unsigned long long t_loaded = 0, t_counted = 0, t_prefixed = 0;
        if (Trace && threadIdx.x == 0) t_loaded = globaltimer_ns();
        timed_tile<Trace>(a, tile, tiles, state, t_counted, t_prefixed);
        // Every thread's reads and writes of the buffer before the copy engine writes it again:
        // each fences its own, then meets the issuing thread at the barrier.
        cu::bulk::fence_proxy_async();
        __syncthreads();  // the whole block is done with this buffer
        if (threadIdx.x == 0) {
            if constexpr (Trace)
                record_tile(rec, tile, t_take[b], t_take[b], t_loaded, t_counted, t_prefixed);
            const std::int64_t order = atomicAdd(ticket, 1u);
            if (Trace) t_take[b] = globaltimer_ns();
            a.h.order = order;
            if (order < tiles && a.is_full(order)) a.start_copy(order);
        }
        // a.h.order is read again two steps on, after the barriers of the other buffer's step.
    }
}

// ---- Session 28 (perf/notes-gpu.md C11): two passes for mid sizes, an experiment ----------------
// Pass 1 (count_tiles_kernel) counts each tile's kept elements into counts[tile]: a pure read, no
// chain. Pass 2 (scatter_tiles_kernel) gives each tile its prefix as the sum of counts[0, tile),
// read from L2 while the tile's own copy lands, then places and stores as the agent does: no
// look-back wait in any tile's life. It reads the input twice; taken in reverse order, pass 2's
// first tiles are the ones pass 1 read last, still in L2 (64 MiB of int32 against a 60 MB L2 at
// 2^24). Launched behind pass 1 as a programmatic dependent launch (Pdl), its blocks start their
// copies while pass 1 drains and wait for it (griddepcontrol.wait) only before reading counts.
constexpr int count_threads = 256;

/// Hint: pass 1 reads with L2::evict_last and pass 2's tile copies with L2::evict_first, so that
/// pass 1's lines stay in L2 for pass 2 and leave it once pass 2 has read them.
/// The kept elements of tile `tile` (count_threads threads; the block's total returned in thread
/// 0), the tile read into registers as int4 vectors.
template <bool Hint>
__device__ int count_tile_regs(const std::int32_t* in, std::int64_t n, le_pred pred,
                               std::int64_t tile) {
    constexpr int per = static_cast<int>(agent_t::tile_items) / 4 / count_threads;  // int4 a thread
    static_assert(per * 4 * count_threads == agent_t::tile_items);
    const std::int64_t base = tile * agent_t::tile_items;
    const std::int64_t left = n - base;
    const int tid = static_cast<int>(threadIdx.x);
    int mine = 0;
    if (left >= agent_t::tile_items) {
        const int4* v = reinterpret_cast<const int4*>(in + base) + tid;
        int4 x[per];
        if constexpr (Hint) {
            const std::uint64_t pol = l2_evict_last_policy();
#pragma unroll
            for (int k = 0; k < per; ++k) x[k] = ld_hint(v + k * count_threads, pol);
        } else {
#pragma unroll
            for (int k = 0; k < per; ++k) x[k] = v[k * count_threads];
        }
#pragma unroll
        for (int k = 0; k < per; ++k)
            mine += int(pred(x[k].x)) + int(pred(x[k].y)) + int(pred(x[k].z)) + int(pred(x[k].w));
    } else {
        for (std::int64_t i = tid; i < left; i += count_threads) mine += int(pred(in[base + i]));
    }
    __shared__ int part[count_threads / 32];
    mine = static_cast<int>(__reduce_add_sync(0xffffffffu, static_cast<unsigned>(mine)));
    if (tid % 32 == 0) part[tid / 32] = mine;
    __syncthreads();
    int c = 0;
    if (tid == 0) {
#pragma unroll
        for (int w = 0; w < count_threads / 32; ++w) c += part[w];
    }
    return c;
}

template <bool Pdl, bool Hint = false>
__global__ void __launch_bounds__(count_threads)
    count_tiles_kernel(const std::int32_t* in, std::int64_t n, le_pred pred, int* counts) {
    if constexpr (Pdl) cu::pdl::launch_dependents();
    const int c = count_tile_regs<Hint>(in, n, pred, blockIdx.x);
    if (threadIdx.x == 0) counts[blockIdx.x] = c;
}

// ---- Session 28 (C11): scouts -- the counts run ahead of the scatter, L2 as the buffer ----------
// One grid of 2 x tiles blocks; a block's ticket gives it a role: a scout counts tile i (its input
// read into registers) and announces the count in tile i's status word; a scatter takes tile j
// (one bulk copy, L2::evict_first), places it as the agent does and resolves its prefix by the
// look-back, which finds every count before it already announced. Tickets: the first W are scouts
// 0..W-1, then scouts and scatters alternate (scout W + j, scatter j), then the last scatters; so
// a scatter's tile was read by its scout about W tiles (W x 48 KB) earlier, and should still be in
// L2. Every scout a scatter needs holds an earlier ticket and never waits: no deadlock.
struct scout_role {
    bool scout;
    std::int64_t tile;
};
__device__ __forceinline__ scout_role role_of(std::int64_t k, std::int64_t tiles, std::int64_t w) {
    if (w > tiles) w = tiles;
    if (k < w) return {true, k};
    const std::int64_t m = k - w;
    if (m < 2 * (tiles - w)) return (m % 2 == 0) ? scout_role{true, w + m / 2} : scout_role{false, m / 2};
    return {false, k - (2 * tiles - w) + (tiles - w)};
}

template <bool Hint>
__global__ void __launch_bounds__(agent_t::threads, tuning::min_blocks)
    scout_kernel(const agent_t::params p, const cu::count_tile_state state, unsigned int* ticket,
                 std::int64_t tiles, std::int64_t window) {
    static_assert(agent_t::threads == count_threads);
    extern __shared__ __align__(128) unsigned char dynamic_smem[];
    __shared__ long long shared_tile;
    __shared__ int shared_scout;
    agent_t a(p, dynamic_smem);
    cu::count_lookback<cu::count_tile_state> prefix{state, false};
    if (threadIdx.x == 0) {
        const scout_role r = role_of(atomicAdd(ticket, 1u), tiles, window);
        shared_tile = r.tile;
        shared_scout = r.scout;
        if (!r.scout && a.is_full(r.tile)) {
            cu::bulk::init(&a.h.bar);
            cu::bulk::fence_init();
            a.start_copy(r.tile);  // p.evict_first: set by launch_scout
        }
    }
    __syncthreads();
    const std::int64_t tile = shared_tile;
    if (shared_scout) {
        const int c = count_tile_regs<Hint>(p.in, p.n, p.pred, tile);
        if (threadIdx.x == 0) prefix.announce(tile, c);
        return;
    }
    if (a.is_full(tile)) {
        cu::bulk::wait(&a.h.bar, 0);
    } else {
        a.load_partial(tile);
        __syncthreads();
    }
    const int len = a.tile_len(tile);
    a.count(len);
    __syncthreads();
    int warp_before = 0;
    const int kept = a.tile_counts(warp_before);
    const int warp_kept = a.place(len);
    if (threadIdx.x < 32) prefix.resolve(tile, static_cast<std::int64_t>(kept), &a.h.prefix);
    __syncthreads();
    const std::int64_t before = a.h.prefix;
    a.store(tile, len, kept, warp_before, warp_kept, before, false);
    if (threadIdx.x == 0 && tile == tiles - 1) *a.p.total = before + kept;
}

template <bool Reverse, bool Pdl>
__global__ void __launch_bounds__(agent_t::threads, tuning::min_blocks)
    scatter_tiles_kernel(const agent_t::params p, const int* counts, std::int64_t tiles,
                         std::int64_t* total) {
    extern __shared__ __align__(128) unsigned char dynamic_smem[];
    __shared__ unsigned part[agent_t::warps];
    agent_t a(p, dynamic_smem);
    const std::int64_t tile = Reverse ? tiles - 1 - blockIdx.x : blockIdx.x;
    const bool full = a.is_full(tile);
    if (threadIdx.x == 0) {
        cu::bulk::init(&a.h.bar);
        cu::bulk::fence_init();
        if (full) a.start_copy(tile);  // p.evict_first = Hint (launch_2pass)
    }
    if (!full) a.load_partial(tile);
    if constexpr (Pdl) cu::pdl::wait();
    // The prefix: counts[0, tile) (each <= tile_items, their sum < 2^32 at the sizes tried).
    unsigned sum = 0;
    for (std::int64_t i = threadIdx.x; i < tile; i += agent_t::threads)
        sum += static_cast<unsigned>(counts[i]);
    sum = __reduce_add_sync(0xffffffffu, sum);
    if (a.lane == 0) part[a.warp] = sum;
    __syncthreads();  // also: the barrier's init, load_partial's writes
    if (full) cu::bulk::wait(&a.h.bar, 0);
    const int len = a.tile_len(tile);
    const int warp_kept = a.place(len);
    if (a.lane == 0) a.h.warp_counts[a.warp] = warp_kept;
    __syncthreads();
    std::int64_t before = 0;
#pragma unroll
    for (int w = 0; w < agent_t::warps; ++w) before += part[w];
    int warp_before = 0;
    const int kept = a.tile_counts(warp_before);
    a.store(tile, len, kept, warp_before, warp_kept, before, false);
    if (threadIdx.x == 0 && tile == tiles - 1) *total = before + kept;
}

// ---- Session 29: segments -- smaller tiles at the head and the tail of one chain -----------------
// C7's timeline at 2^24: the first wave's loads land together and then the wave waits and stores
// (DRAM reads idle), and the last ~16 us drain from ~500 blocks alive to none. Here the input is
// cut into up to three segments, each a kernel of its own geometry: `head` tiles of agent_s
// (128 x 24 KB, 8 blocks an SM), then full tiles of the library's geometry (agent_t), then about
// `tail` tiles of agent_s (the remainder). The three share one ticket order for the look-back
// (order = the segment's base + its own ticket) and one set of tile states; each later kernel is a
// programmatic dependent launch of the one before, which lets it start once every block of the
// one before has started (launch_dependents at entry), and it never waits for it
// (griddepcontrol.wait): its tiles depend on the earlier ones only through the look-back, whose
// predecessors have all started. The smaller tiles' shorter lives should shorten the drain, and at
// the head spread the first wave's landings. Nothing on the device makes the last kernel's end
// wait for the earlier ones' last stores; the timing's end event and the check's
// cudaStreamSynchronize cover all three by stream order (each waits for all earlier work).
using tuning_s = cu::compaction_bulk_tuning<128, 24576, 8>;
using agent_s = cu::compaction_bulk_agent<tuning_s, const std::int32_t*, const std::int32_t*,
                                          std::int32_t*, std::int32_t*, le_pred>;

template <class Agent>
__global__ void __launch_bounds__(Agent::threads, Agent::tuning::min_blocks)
    segment_kernel(const typename Agent::params p, const cu::count_tile_state state,
                   unsigned int* ticket, std::int64_t order_base, std::int64_t last_order) {
    extern __shared__ __align__(128) unsigned char dynamic_smem[];
    Agent agent(p, dynamic_smem);
    cu::pdl::launch_dependents();
    if (threadIdx.x == 0) {
        cu::bulk::init(&agent.h.bar);
        cu::bulk::fence_init();
        const std::int64_t tile = atomicAdd(ticket, 1u);
        if (agent.is_full(tile)) agent.start_copy(tile);
        agent.h.order = tile;
    }
    __syncthreads();
    const std::int64_t tile = agent.h.order;
    if (agent.is_full(tile)) {
        cu::bulk::wait(&agent.h.bar, 0);
    } else {
        agent.load_partial(tile);
        __syncthreads();
    }
    cu::count_lookback<cu::count_tile_state> prefix{state, false};
    const std::int64_t total = agent.run_tile(tile, order_base + tile, false, prefix);
    if (threadIdx.x == 0 && order_base + tile == last_order) *p.total = total;
}

// ---- Session 29: the call's wait as a flag --------------------------------------------------------
// cudaStreamSynchronize costs 4.3-5.3 us over the kernel (C11). "+flag": after the timed launch,
// the library's cu::compaction_count_handoff_kernel (compaction_wait::flag) is launched behind it
// as a programmatic dependent launch; it waits for the grid, then hands the count from device
// memory to a word of mapped host memory, on which the host spins instead of synchronizing the
// stream. "+flagsync": the same, then cudaStreamSynchronize (what a wait that must leave the
// stream idle would cost).

/// Reads p[0, n) (a flush of L2's dirty lines: what it leaves there is clean); one word out so the
/// reads are not dropped.
__global__ void read_all(const std::int32_t* p, std::int64_t n, int* sink) {
    int acc = 0;
    for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < n;
         i += std::int64_t{gridDim.x} * blockDim.x)
        acc ^= p[i];
    if (acc == 0x7fffffff) *sink = acc;
}

/// The compaction bench's input: 1..100, so that `x <= k` keeps k %.
__global__ void fill(std::int32_t* p, std::int64_t n, std::uint64_t seed) {
    for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < n;
         i += std::int64_t{gridDim.x} * blockDim.x)
        p[i] = static_cast<std::int32_t>(sweep_bench::mix(seed + i) % 100) + 1;
}

double pct(std::vector<double> v, double q) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[static_cast<std::size_t>(q * double(v.size() - 1))];
}

struct run_ctx {
    std::int64_t n, tiles;
    std::int32_t *in, *out, *ref;
    std::int64_t* total;
    std::uint64_t* words;
    unsigned int* ticket;
    tile_rec* rec;
    le_pred pred;
    cudaStream_t s;
    gate_cfg gate;
    unsigned* gate_words;  // issued[256], landed[256], after the tile states in `words`
    int* counts;               // the two-pass variants' tile counts
    std::int64_t* mapped;      // their count's slot, in mapped host memory (as the library's)
    std::int64_t* flag;        // the "+flag" waits' word, in mapped host memory
};

/// The ticket (16 bytes), the tile states and the gates' counters: one allocation, one memset.
std::size_t words_bytes(std::int64_t tiles) {
    return static_cast<std::size_t>(tiles) * 8 + 16 + 512 * sizeof(unsigned);
}

/// The gate a row or variant name asks for (q1-q3, rank; none otherwise).
gate_cfg gate_of(const std::string& name, const run_ctx& c, unsigned sms) {
    if (name == "q1" || name == "q2" || name == "q3")
        return gate_cfg{c.gate_words, c.gate_words + 256, static_cast<unsigned>(name[1] - '0'), 0u, sms};
    if (name == "rank")
        return gate_cfg{c.gate_words, c.gate_words + 256, 0u,
                        static_cast<unsigned>(tuning::min_blocks), sms};
    return gate_cfg{};
}

/// The persistent kernel's grid: the blocks that fit on the device at once (all must be resident).
template <bool Trace>
unsigned persist_grid(std::int64_t tiles) {
    int per_sm = 0;
    ok(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, persist_kernel<Trace>,
                                                     agent_t::threads, 2 * agent_t::smem_bytes),
       "occupancy");
    cudaDeviceProp prop{};
    ok(cudaGetDeviceProperties(&prop, 0), "props");
    const std::int64_t resident = std::int64_t{per_sm} * prop.multiProcessorCount;
    return static_cast<unsigned>(std::max<std::int64_t>(1, std::min(tiles, resident)));
}

/// The kernel may take `bytes` of dynamic shared memory (once per kernel).
template <class K>
void allow_smem(K kernel, int bytes) {
    ok(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes), "smem");
}

template <mode M, bool Trace, int W = 1>
void launch(run_ctx& c) {
    static const bool allowed = M == mode::persist
        ? (allow_smem(persist_kernel<Trace>, 2 * agent_t::smem_bytes), true)
        : (allow_smem(trace_kernel<M, Trace, W>, agent_t::smem_bytes), true);
    (void)allowed;
    // One memset for the ticket, the tile states and the gates' counters, whatever the row.
    ok(cudaMemsetAsync(c.words, 0, words_bytes(c.tiles), c.s), "memset");
    agent_t::params p{c.in, c.in, c.out, c.out, c.n, c.total, c.pred, false, false, true, true, true};
    p.evict_first = M == mode::tma_hint || M == mode::tma_hint_trig;  // the library's hint
    if constexpr (M == mode::persist) {
        static const unsigned grid = persist_grid<Trace>(c.tiles);
        persist_kernel<Trace><<<grid, agent_t::threads, 2 * agent_t::smem_bytes, c.s>>>(
            p, cu::count_tile_state{c.words + 2}, c.ticket, c.tiles, c.rec);
    } else {
        trace_kernel<M, Trace, W><<<static_cast<unsigned>(c.tiles), agent_t::threads, agent_t::smem_bytes, c.s>>>(
            p, cu::count_tile_state{c.words + 2}, c.ticket, c.tiles, c.rec, c.gate);
    }
    ok(cudaGetLastError(), "launch");
}

/// The two-pass variants (session 28): pass 1, then pass 2 in reverse (or forward) tile order,
/// launched behind it as a programmatic dependent launch (Pdl) or plainly.
template <bool Reverse, bool Pdl, bool Hint = false>
void launch_2pass(run_ctx& c) {
    static const bool allowed =
        (allow_smem(scatter_tiles_kernel<Reverse, Pdl>, agent_t::smem_bytes), true);
    (void)allowed;
    count_tiles_kernel<Pdl, Hint><<<static_cast<unsigned>(c.tiles), count_threads, 0, c.s>>>(
        c.in, c.n, c.pred, c.counts);
    ok(cudaGetLastError(), "count launch");
    agent_t::params p{c.in, c.in, c.out, c.out, c.n, c.mapped, c.pred, false, false, true, true, true};
    p.evict_first = Hint;
    // The library's launch (throws sweep::cuda_error on failure): PDL behind pass 1 when Pdl.
    cu::launch_lookback("scatter", Pdl, scatter_tiles_kernel<Reverse, Pdl>,
                        static_cast<unsigned>(c.tiles), agent_t::threads, agent_t::smem_bytes, c.s,
                        p, static_cast<const int*>(c.counts), c.tiles, c.mapped);
}

/// The scout kernel (session 28) with window w tiles; Hint: the scouts read with L2::evict_last.
template <bool Hint>
void launch_scout(run_ctx& c, std::int64_t w) {
    static const bool allowed = (allow_smem(scout_kernel<Hint>, agent_t::smem_bytes), true);
    (void)allowed;
    ok(cudaMemsetAsync(c.words, 0, words_bytes(c.tiles), c.s), "memset");
    agent_t::params p{c.in, c.in, c.out, c.out, c.n, c.mapped, c.pred, false, false, true, true, true};
    p.evict_first = true;  // the scatters' tile copies
    scout_kernel<Hint><<<static_cast<unsigned>(2 * c.tiles), agent_t::threads, agent_t::smem_bytes, c.s>>>(
        p, cu::count_tile_state{c.words + 2}, c.ticket, c.tiles, w);
    ok(cudaGetLastError(), "scout launch");
}

/// The segmented variant (session 29): `head` agent_s tiles, then agent_t tiles, then about `tail`
/// agent_s tiles (see segment_kernel); the tile copies with the library's L2 hint (Hint).
template <bool Hint>
void launch_segments(run_ctx& c, std::int64_t head, std::int64_t tail) {
    static const bool allowed = (allow_smem(segment_kernel<agent_t>, agent_t::smem_bytes),
                                 allow_smem(segment_kernel<agent_s>, agent_s::smem_bytes), true);
    (void)allowed;
    constexpr std::int64_t big = agent_t::tile_items, small = agent_s::tile_items;
    const std::int64_t n0 = std::min(head * small, c.n);
    const std::int64_t rest = c.n - n0;
    const std::int64_t a = std::max<std::int64_t>(0, (rest - tail * small) / big);
    const std::int64_t n1 = a * big;
    const std::int64_t n2 = rest - n1;
    const std::int64_t t0 = (n0 + small - 1) / small, t1 = a, t2 = (n2 + small - 1) / small;
    const std::int64_t last = t0 + t1 + t2 - 1;
    ok(cudaMemsetAsync(c.words, 0, 16 + static_cast<std::size_t>(last + 1) * 8, c.s), "memset");
    auto* const tickets = reinterpret_cast<unsigned int*>(c.words);
    const cu::count_tile_state state{c.words + 2};
    bool first = true;
    const auto go = [&](auto kernel, int threads, int smem, std::int64_t off, std::int64_t len,
                        std::int64_t tiles, unsigned int* ticket, std::int64_t base) {
        if (tiles == 0) return;
        agent_t::params p{c.in + off, c.in + off, c.out, c.out, len, c.mapped, c.pred,
                          false, false, true, true, true};
        p.evict_first = Hint;
        // The library's launch: a programmatic dependent launch behind the kernel before it.
        cu::launch_lookback("segment", !first, kernel, static_cast<unsigned>(tiles), threads, smem,
                            c.s, p, state, ticket, base, last);
        first = false;
    };
    go(segment_kernel<agent_s>, agent_s::threads, agent_s::smem_bytes, 0, n0, t0, tickets, 0);
    go(segment_kernel<agent_t>, agent_t::threads, agent_t::smem_bytes, n0, n1, t1, tickets + 1, t0);
    go(segment_kernel<agent_s>, agent_s::threads, agent_s::smem_bytes, n0 + n1, n2, t2,
       tickets + 2, t0 + t1);
}

/// The two-pass variant a name asks for ("2pass": reverse + PDL, "2passf": forward + PDL,
/// "2passnp": reverse, plain launches; "2passh"/"2passfh": 2pass/2passf with the L2 hints;
/// "count": pass 1 alone), or none.
std::function<void(run_ctx&)> two_pass_of(const std::string& name) {
    if (name == "2pass") return launch_2pass<true, true>;
    if (name == "2passf") return launch_2pass<false, true>;
    if (name == "2passnp") return launch_2pass<true, false>;
    if (name == "2passh") return launch_2pass<true, true, true>;
    if (name == "2passfh") return launch_2pass<false, true, true>;
    // scoutW / scoutlW: the scout kernel with a window of W tiles (scoutl: scouts read with
    // L2::evict_last).
    if (name.rfind("scout", 0) == 0) {
        const bool last = name.size() > 5 && name[5] == 'l';
        const std::int64_t w = std::atoll(name.c_str() + (last ? 6 : 5));
        if (w <= 0) return {};
        if (last) return [w](run_ctx& c) { launch_scout<true>(c, w); };
        return [w](run_ctx& c) { launch_scout<false>(c, w); };
    }
    // segH_T / segnH_T (session 29): H agent_s tiles at the head, about T at the tail (segn: the
    // tile copies without the L2 hint).
    if (name.rfind("seg", 0) == 0) {
        const bool nohint = name.size() > 3 && name[3] == 'n';
        const std::string rest = name.substr(nohint ? 4 : 3);
        const std::size_t us = rest.find('_');
        if (us == std::string::npos) return {};
        const std::int64_t h = std::atoll(rest.substr(0, us).c_str());
        const std::int64_t t = std::atoll(rest.substr(us + 1).c_str());
        if (nohint) return [h, t](run_ctx& c) { launch_segments<false>(c, h, t); };
        return [h, t](run_ctx& c) { launch_segments<true>(c, h, t); };
    }
    if (name == "count")
        return [](run_ctx& c) {
            count_tiles_kernel<false><<<static_cast<unsigned>(c.tiles), count_threads, 0, c.s>>>(
                c.in, c.n, c.pred, c.counts);
            ok(cudaGetLastError(), "count launch");
        };
    return {};
}

template <mode M, int W = 1>
void row(const char* name, run_ctx& c, sweep_bench::timer& t, double copy_us, double cub_us,
         std::int64_t cub_kept) {
    const double us = t.median_us([&] { launch<M, false, W>(c); }, [] {}, 15);
    ok(cudaStreamSynchronize(c.s), "row");
    std::int64_t kept = 0;
    ok(cudaMemcpy(&kept, c.total, 8, cudaMemcpyDeviceToHost), "kept");
    bool same = kept == cub_kept;
    if (same) {
        std::vector<std::int32_t> a(static_cast<std::size_t>(kept)), b(a.size());
        ok(cudaMemcpy(a.data(), c.out, kept * 4, cudaMemcpyDeviceToHost), "out");
        ok(cudaMemcpy(b.data(), c.ref, kept * 4, cudaMemcpyDeviceToHost), "ref");
        same = a == b;
    }
    const char* check = same ? "ok" : "MISMATCH";
    launch<M, true, W>(c);
    ok(cudaStreamSynchronize(c.s), "trace");
    ok(cudaGetLastError(), "trace");
    std::vector<tile_rec> r(static_cast<std::size_t>(c.tiles));
    ok(cudaMemcpy(r.data(), c.rec, r.size() * sizeof(tile_rec), cudaMemcpyDeviceToHost), "rec");
    std::vector<double> tk, ld, pl, wt, st, lf;
    unsigned long long first = ~0ull, last = 0;
    double alive = 0;
    unsigned sms = 0;
    for (const auto& x : r) {
        tk.push_back((x.ticket - x.start) / 1e3);
        ld.push_back((x.loaded - x.ticket) / 1e3);
        pl.push_back((x.counted - x.loaded) / 1e3);
        wt.push_back((x.prefixed - x.counted) / 1e3);
        st.push_back((x.end - x.prefixed) / 1e3);
        lf.push_back((x.end - x.start) / 1e3);
        first = std::min(first, x.start);
        last = std::max(last, x.end);
        alive += double(x.end - x.start);
        sms = std::max(sms, x.smid + 1);
    }
    const double span = double(last - first);
    std::printf("| %-8s | %7.1f | %5.1f%% | %5.2fx | %5s | %4.1f/%4.1f | %4.1f/%4.1f | %4.1f/%4.1f | "
                "%4.1f/%4.1f | %4.1f/%4.1f | %4.1f/%4.1f | %4.1f |\n",
                name, us, 100 * copy_us / us, cub_us / us, check, pct(tk, .5), pct(tk, .99),
                pct(ld, .5), pct(ld, .99), pct(pl, .5), pct(pl, .99), pct(wt, .5), pct(wt, .99),
                pct(st, .5), pct(st, .99), pct(lf, .5), pct(lf, .99), alive / span / sms);
    std::fflush(stdout);
    if (M != mode::cp_async) print_waves(r, first, last);
    if (M == mode::tma) print_chain(r, first);
}

}  // namespace

int main(int argc, char** argv) {
#if !SWEEP_PERF_TUNING
    (void)argc;
    (void)argv;
    return sweep_bench::tuning_not_built("sweep_perf_gpu_trace_compaction");
#else
    const int lg = argc > 1 ? std::atoi(argv[1]) : 28;
    const int kept_pct = argc > 2 ? std::atoi(argv[2]) : 10;
    // argv[6] = "whole": as the compaction bench, a non-blocking stream; all of `in` filled and
    // copied whole into another buffer (extra[1], which cubx2 also writes) before timing. Otherwise a blocking stream
    // and only the first n elements filled.
    const bool whole = argc > 6 && std::string(argv[6]) == "whole";
    cudaStream_t s;
    ok(cudaStreamCreateWithFlags(&s, whole ? cudaStreamNonBlocking : cudaStreamDefault), "stream");
    run_ctx c{};
    c.n = std::int64_t{1} << lg;
    c.tiles = (c.n + agent_t::tile_items - 1) / agent_t::tile_items;
    c.pred = le_pred{kept_pct};
    c.s = s;
    // argv[5]: the buffers' size as a power of two (at least n): the compaction bench allocates
    // them for its largest n, and its 2^24 rows ran slower in its 2^28 runs (session 25).
    const int alloc_lg = std::max(lg, argc > 5 ? std::atoi(argv[5]) : lg);
    const std::int64_t cap = std::int64_t{1} << alloc_lg;
    ok(cudaMalloc(&c.in, cap * 4), "in");
    ok(cudaMalloc(&c.out, cap * 4), "out");
    ok(cudaMalloc(&c.ref, cap * 4), "ref");
    std::int32_t* extra[2] = {nullptr, nullptr};
    for (auto& e : extra) ok(cudaMalloc(&e, cap * 4), "extra");
    ok(cudaMalloc(&c.total, 8), "total");
    // Room for the segmented variants' states too (their tiles are at least half the size).
    ok(cudaMalloc(&c.words, words_bytes(2 * c.tiles + 2)), "words");
    c.ticket = reinterpret_cast<unsigned int*>(c.words);
    c.gate_words = reinterpret_cast<unsigned*>(c.words + 2 + c.tiles);
    ok(cudaMalloc(&c.rec, static_cast<std::size_t>(c.tiles) * sizeof(tile_rec)), "rec");
    ok(cudaMalloc(&c.counts, static_cast<std::size_t>(c.tiles) * sizeof(int)), "counts");
    ok(cudaHostAlloc(&c.mapped, sizeof(std::int64_t), cudaHostAllocMapped), "mapped");
    ok(cudaHostAlloc(&c.flag, sizeof(std::int64_t), cudaHostAllocMapped), "flag");
    fill<<<1024, 256, 0, s>>>(c.in, whole ? cap : c.n, 12345);
    if (whole) ok(cudaMemcpyAsync(extra[1], c.in, cap * 4, cudaMemcpyDeviceToDevice, s), "pristine");
    int* num = nullptr;
    ok(cudaMalloc(&num, 4), "num");
    std::size_t temp_bytes = 0;
    cub::DeviceSelect::If(nullptr, temp_bytes, c.in, c.ref, num, static_cast<int>(c.n), c.pred, s);
    void* temp = nullptr;
    ok(cudaMalloc(&temp, temp_bytes), "cub temp");
    // CUB into `to` (c.ref, or, for the interleaved variants cubx1/cubx2, one of two more buffers
    // of the same size, as the bench's other contenders write buffers of their own).
    auto cub_into = [&](std::int32_t* to) {
        return [&, to] {
            std::size_t b = temp_bytes;
            cub::DeviceSelect::If(temp, b, c.in, to, num, static_cast<int>(c.n), c.pred, s);
        };
    };
    sweep_bench::timer t(s);
    const double cub_us = t.median_us(cub_into(c.ref), [] {}, 15);
    ok(cudaStreamSynchronize(s), "cub");
    int cub_kept = 0;
    ok(cudaMemcpy(&cub_kept, num, 4, cudaMemcpyDeviceToHost), "cub kept");
    // The copy ceiling of the same bytes: n + kept elements read and written as a memcpy moves
    // them (the benches' convention: bytes = (n + kept) * 4, time against a memcpy of n * 4).
    const double memcpy_us = t.median_us(
        [&] { ok(cudaMemcpyAsync(c.out, c.in, c.n * 4, cudaMemcpyDeviceToDevice, s), "memcpy"); },
        [] {}, 15);
    const double copy_us = memcpy_us * double(c.n + cub_kept) / double(2 * c.n);
    cudaDeviceProp prop{};
    ok(cudaGetDeviceProperties(&prop, 0), "props");
    std::printf("device: %s, %d SMs; int32 2^%d (buffers of 2^%d), %d %% kept (%d), tile %lld x int32, "
                "%d threads, %d B shared a block\n",
                prop.name, prop.multiProcessorCount, lg, alloc_lg, kept_pct, cub_kept,
                static_cast<long long>(agent_t::tile_items), agent_t::threads, agent_t::smem_bytes);
    std::printf("memcpy of n int32: %.1f us; cub::DeviceSelect::If: %.1f us (%.1f%% of copy)\n\n",
                memcpy_us, cub_us, 100 * copy_us / cub_us);
    std::printf("| kernel   | us      | %%copy  | vs cub | check | ticket p50/99 | load p50/99 | "
                "count p50/99 | wait p50/99 | store p50/99 | life p50/99 | alive/SM |\n"
                "|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    // argv[3]: the rows, comma-separated (tma, w2, w4, w8: tma with 2/4/8 look-back windows a
    // poll; q1-q3, rank: the ticket gates;
    // persist, cp.async); default the session-24 set.
    const std::string rows = argc > 3 ? argv[3] : "tma,persist,cp.async,tma,persist";
    const unsigned sms = static_cast<unsigned>(prop.multiProcessorCount);
    for (const std::string& name : sweep_bench::split(rows)) {
        c.gate = gate_of(name, c, sms);
        if (c.gate.q > 0 || c.gate.rank_waves > 0) {
            const std::string label = "tma " + name;
            row<mode::tma>(label.c_str(), c, t, copy_us, cub_us, cub_kept);
        } else if (name == "tma") row<mode::tma>("tma", c, t, copy_us, cub_us, cub_kept);
        else if (name == "w2") row<mode::tma, 2>("tma w2", c, t, copy_us, cub_us, cub_kept);
        else if (name == "w4") row<mode::tma, 4>("tma w4", c, t, copy_us, cub_us, cub_kept);
        else if (name == "w8") row<mode::tma, 8>("tma w8", c, t, copy_us, cub_us, cub_kept);
        else if (name == "persist") row<mode::persist>("persist", c, t, copy_us, cub_us, cub_kept);
        else if (name == "cp.async") row<mode::cp_async>("cp.async", c, t, copy_us, cub_us, cub_kept);
        else if (!name.empty() && name != "x") std::printf("unknown row %s\n", name.c_str());
    }
    c.gate = gate_cfg{};
    // argv[4]: variants timed interleaved (timer::interleaved: one launch of each per
    // repetition, rotated, 41 repetitions, the median of each), so that drift between rows does
    // not pass for a difference: the same names as the rows, untraced, and cub, library; the
    // first is the reference.
    if (argc > 4) {
        std::vector<std::string> names;
        std::vector<sweep_bench::timer::contender> cs;  // setup: the variant's gate
        // Every "+flag" wait's count, against CUB's: how many were read, how many differed.
        long flag_runs = 0, flag_bad = 0;
        cudaEvent_t done_event;
        ok(cudaEventCreateWithFlags(&done_event, cudaEventDisableTiming), "event");
        // A variant's call by name (empty: unknown).
        const auto go_of = [&](const std::string& base) -> std::function<void()> {
            const gate_cfg g = gate_of(base, c, sms);
            if (const auto tp = two_pass_of(base)) return [&c, tp] { tp(c); };
            if (base == "tma" || g.q > 0 || g.rank_waves > 0) return [&] { launch<mode::tma, false>(c); };
            if (base == "w4") return [&] { launch<mode::tma, false, 4>(c); };
            if (base == "tmah") return [&] { launch<mode::tma_hint, false>(c); };
            if (base == "tmaht") return [&] { launch<mode::tma_hint_trig, false>(c); };
            if (base == "cp.async") return [&] { launch<mode::cp_async, false>(c); };
            if (base == "cub") return cub_into(c.ref);
            if (base == "cubx1") return cub_into(extra[0]);
            if (base == "cubx2") return cub_into(extra[1]);
            if (base == "library")
                return [&] { (void)sweep::copy_if(sweep::gpu.on(s), c.in, c.in + c.n, c.out, c.pred); };
            // The dispatch layer's call (as "direct" below), with the stream wait or, since session
            // 29, the count handed back by the flag kernel (compaction_wait::flag).
            if (base == "direct" || base == "directflag") {
                const auto wait = base == "directflag" ? cu::compaction_wait::flag
                                                       : cu::compaction_wait::stream;
                return [&c, s, wait] {
                    const std::int32_t* in = c.in;
                    const std::int64_t k = cu::run_compaction<cu::default_compaction_tuning<std::int32_t>>(
                        "copy_if", in, in, true, c.out, c.out, false, false, c.n, c.pred, s,
                        cu::make_temp_allocator<sweep::default_resource>(nullptr),
                        cu::compaction_path::automatic, nullptr, cu::compaction_l2_hint::automatic,
                        wait);
                    (void)k;
                };
            }
            // As the compaction bench's Thrust contender (its temporaries: cudaMalloc and cudaFree
            // in every call).
            if (base == "thrust")
                return [&] { thrust::copy_if(thrust::cuda::par.on(s), c.in, c.in + c.n, extra[0], c.pred); };
            if (base == "mallocfree")
                return [&] {
                    void* p = nullptr;
                    ok(cudaMalloc(&p, 1 << 20), "malloc");
                    ok(cudaFree(p), "free");
                };
            // The input copied (extra[1], the pristine copy in "whole" mode: the same values).
            if (base == "memcpy")
                return [&] {
                    ok(cudaMemcpyAsync(extra[1], c.in, c.n * 4, cudaMemcpyDeviceToDevice, s), "memcpy");
                };
            // Reads 256 MiB (of extra[0]) so that L2 holds only clean lines of its own.
            if (base == "flush")
                return [&] {
                    const std::int64_t m = std::min<std::int64_t>(cap, std::int64_t{1} << 26);
                    read_all<<<1024, 256, 0, s>>>(extra[0], m, c.counts);
                    ok(cudaGetLastError(), "flush");
                };
            return {};
        };
        for (const std::string& name : sweep_bench::split(argv[4])) {
            if (name.empty() || name == "x") continue;
            // "A|B": A timed, after B (run and waited for, untimed): what A leaves for the next
            // call, or finds after another.
            const std::size_t bar = name.find('|');
            const std::string timed = name.substr(0, bar);
            const std::string before = bar == std::string::npos ? "" : name.substr(bar + 1);
            // "A+sync": A, then cudaStreamSynchronize; "A+query": then a spin on cudaStreamQuery;
            // "A+event": then an event recorded and cudaEventSynchronize (session 28: which wait
            // returns soonest after the work).
            const std::size_t plus = timed.find('+');
            const std::string wait = plus == std::string::npos ? "" : timed.substr(plus + 1);
            const bool then_sync = !wait.empty();
            const std::string base = timed.substr(0, plus);
            const gate_cfg g = gate_of(base, c, sms);
            std::function<void()> go = go_of(base);
            std::function<void()> pre = before.empty() ? std::function<void()>{} : go_of(before);
            if (!go || (!before.empty() && !pre)) {
                std::printf("unknown variant %s (interleaved: tma, tmah, w4, cp.async, q1-q3, rank, "
                            "cub, cubx1, cubx2, library, direct, directflag, thrust, mallocfree, memcpy, flush, "
                            "2pass..., segH_T, "
                            "A+sync, A|B)\n", name.c_str());
                continue;
            }
            if (wait == "sync")
                go = [go, s] {
                    go();
                    ok(cudaStreamSynchronize(s), "sync");
                };
            else if (wait == "query")
                go = [go, s] {
                    go();
                    cudaError_t e;
                    while ((e = cudaStreamQuery(s)) == cudaErrorNotReady) {
                    }
                    ok(e, "query");
                };
            else if (wait == "event")
                go = [go, s, done_event] {
                    go();
                    ok(cudaEventRecord(done_event, s), "record");
                    ok(cudaEventSynchronize(done_event), "event sync");
                };
            else if (wait == "flag" || wait == "flagsync") {
                // The flag kernel hands over c.total: only the variants of launch<> write it (the
                // two-pass, scout and segmented ones write c.mapped).
                const bool writes_total = base == "tma" || base == "tmah" || base == "tmaht" ||
                                          base == "w4" || base == "cp.async" || g.q > 0 ||
                                          g.rank_waves > 0;
                if (!writes_total) {
                    std::printf("%s: +flag needs a variant that writes the count to c.total (tma, "
                                "tmah, tmaht, w4, cp.async, q1-q3, rank)\n", name.c_str());
                    continue;
                }
                go = [go, s, &c, &flag_runs, &flag_bad, cub_kept, also_sync = wait == "flagsync"] {
                    volatile std::int64_t* const f = c.flag;
                    *f = -1;
                    go();
                    cu::launch_lookback("flag", true, cu::compaction_count_handoff_kernel<>, 1u,
                                        32, 0, s, static_cast<const std::int64_t*>(c.total),
                                        c.flag);
                    while (*f == -1) __builtin_ia32_pause();
                    if (also_sync) ok(cudaStreamSynchronize(s), "sync");
                    ++flag_runs;
                    if (*f != cub_kept) ++flag_bad;
                };
            }
            else if (then_sync) {
                std::printf("unknown wait %s\n", wait.c_str());
                continue;
            }
            names.push_back(name);
            // "+flag": c.total poisoned before each call (untimed), so that a count left by an
            // earlier call cannot pass for this one's.
            cs.push_back({go, [&c, g, pre, s, poison = wait == "flag" || wait == "flagsync"] {
                              if (pre) {
                                  pre();
                                  ok(cudaStreamSynchronize(s), "before");
                              }
                              if (poison) {
                                  ok(cudaMemsetAsync(c.total, 0xff, sizeof(std::int64_t), s), "poison");
                                  ok(cudaStreamSynchronize(s), "poison");
                              }
                              c.gate = g;
                          }});
        }
        constexpr int reps = 41;
        const auto med = t.interleaved(cs, reps);
        c.gate = gate_cfg{};
        std::printf("\ninterleaved, %d repetitions (median us; ratio: the first's over this one's)\n"
                    "| variant | median | vs %s |\n|---|---|---|\n",
                    reps, names.empty() ? "" : names[0].c_str());
        for (std::size_t k = 0; k < names.size(); ++k)
            std::printf("| %s | %.1f | %.3f |\n", names[k].c_str(), med[k], med[0] / med[k]);
        if (flag_runs > 0)
            std::printf("counts through the +flag waits: %ld read, %ld not CUB's (%d): %s\n",
                        flag_runs, flag_bad, cub_kept, flag_bad == 0 ? "ok" : "MISMATCH");
        // The two-pass variants' results against CUB's (c.ref): the count and every kept element.
        for (const std::string& name : names) {
            if (name.find('|') != std::string::npos) continue;
            const std::string base = name.substr(0, name.find('+'));
            auto tp = two_pass_of(base);
            if (base == "tmah")
                tp = [](run_ctx& cc) {
                    launch<mode::tma_hint, false>(cc);
                    ok(cudaMemcpyAsync(cc.mapped, cc.total, 8, cudaMemcpyDeviceToHost, cc.s), "total");
                };
            if (base == "direct" || base == "directflag")
                tp = [flag = base == "directflag"](run_ctx& cc) {
                    const std::int32_t* in = cc.in;
                    *cc.mapped = cu::run_compaction<cu::default_compaction_tuning<std::int32_t>>(
                        "copy_if", in, in, true, cc.out, cc.out, false, false, cc.n, cc.pred, cc.s,
                        cu::make_temp_allocator<sweep::default_resource>(nullptr),
                        cu::compaction_path::automatic, nullptr, cu::compaction_l2_hint::automatic,
                        flag ? cu::compaction_wait::flag : cu::compaction_wait::stream);
                };
            if (!tp || base == "count") continue;
            ok(cudaMemsetAsync(c.out, 0xff, c.n * 4, s), "poison");
            *c.mapped = -1;
            tp(c);
            ok(cudaStreamSynchronize(s), "check");
            bool same = *c.mapped == cub_kept;
            if (same) {
                std::vector<std::int32_t> a(static_cast<std::size_t>(cub_kept)), b(a.size());
                ok(cudaMemcpy(a.data(), c.out, a.size() * 4, cudaMemcpyDeviceToHost), "out");
                ok(cudaMemcpy(b.data(), c.ref, b.size() * 4, cudaMemcpyDeviceToHost), "ref");
                same = a == b;
            }
            std::printf("check %s: %s (count %lld, CUB %d)\n", base.c_str(), same ? "ok" : "MISMATCH",
                        static_cast<long long>(*c.mapped), cub_kept);
        }
    }
    const double sync_us = t.median_us(
        [&] {
            launch<mode::tma, false>(c);
            ok(cudaStreamSynchronize(s), "sync");
        },
        [] {}, 15);
    std::int64_t lib_kept = 0;
    const double lib_us = t.median_us(
        [&] { lib_kept = sweep::copy_if(sweep::gpu.on(s), c.in, c.in + c.n, c.out, c.pred) - c.out; },
        [] {}, 15);
    std::int64_t direct_kept = 0;
    const auto alloc = cu::make_temp_allocator<sweep::default_resource>(nullptr);
    const double direct_us = t.median_us(
        [&] {
            const std::int32_t* in = c.in;
            direct_kept = cu::run_compaction<cu::default_compaction_tuning<std::int32_t>>(
                "copy_if", in, in, true, c.out, c.out, false, false, c.n, c.pred, s, alloc);
        },
        [] {}, 15);
    constexpr int checks = 2000;
    const auto t0 = std::chrono::steady_clock::now();
    int accessible = 0;
    for (int i = 0; i < checks; ++i)
        accessible += cu::is_device_accessible(i % 2 ? static_cast<const void*>(c.in)
                                                     : static_cast<const void*>(c.out));
    const double check_us =
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() /
        checks;
    std::printf("| tma+sync | %7.1f | %5.1f%% | %5.2fx |\n", sync_us, 100 * copy_us / sync_us,
                cub_us / sync_us);
    std::printf("| direct   | %7.1f | %5.1f%% | %5.2fx | %5s |\n", direct_us,
                100 * copy_us / direct_us, cub_us / direct_us,
                direct_kept == cub_kept ? "ok" : "MISMATCH");

    std::printf("| library  | %7.1f | %5.1f%% | %5.2fx | %5s |\n", lib_us, 100 * copy_us / lib_us,
                cub_us / lib_us, lib_kept == cub_kept ? "ok" : "MISMATCH");
    std::printf("\none device-accessibility check (cudaPointerGetAttributes): %.2f us on the host "
                "(%d of %d accessible)\n",
                check_us, accessible, checks);
    cudaFree(temp);
    cudaFree(num);
    cudaFree(c.rec);
    cudaFree(c.counts);
    cudaFreeHost(c.mapped);
    cudaFreeHost(c.flag);
    for (auto* e : extra) cudaFree(e);
    cudaFree(c.words);
    cudaFree(c.total);
    cudaFree(c.ref);
    cudaFree(c.out);
    cudaFree(c.in);
    cudaStreamDestroy(s);
    return 0;
#endif
}
