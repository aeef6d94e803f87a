// sweep/backend/cuda/kernels/swap_partition_kernels.cuh -- GPU backend, kernels of the unstable
// in-place partition (`partition` on raw pointers): a two-ended exchange pass and its cleanup.
//
// The exchange pass (swap_partition_kernel): persistent blocks take tiles from both ends of the
// range by one ticket counter. A block holds one tile from the front (L) and one from the back
// (R) in shared memory at a time. An L tile's rejected elements and an R tile's kept ones are
// misplaced; the block swaps them pairwise in shared memory until one of its tiles has none left,
// writes back that tile (only its swapped elements, or the whole tile by the copy engine when many
// moved), and takes the next tile for that end. No tile is read or written by any block but the
// one that took it, so the pass is race-free without any ordering between blocks (no look-back:
// blocks never wait for each other). Each element is read once and written only if it moved (or
// its tile was written whole).
//
// When the tickets run out, each block holds at most four unfinished tiles (the one in work and
// the one fetched ahead, at each end). It writes back what it swapped and records each tile and
// how many misplaced elements it still has. One block (swap_partition_plan_kernel) then computes
// the partition point k and lists the tiles not yet right: the unfinished ones, the short tail and
// those between k and the front/back boundary (dispatch/compaction.cuh run_swap_partition). The
// cleanup lists the misplaced elements of those tiles, rejected ones below k and kept ones from k
// (swap_partition_collect_kernel: block counts by atomics, since order does not matter), and
// swaps the two lists pairwise in place (swap_partition_swap_kernel). The reset of the header is a
// plain launch; the pass, the plan and the cleanup's kernels are programmatic dependent launches,
// each behind the one before, and wait for it first (pdl::wait, agent/grid_dependency.cuh).
#pragma once

#include <cstddef>
#include <cstdint>

#include <sweep/backend/cuda/agent/bulk_copy.cuh>
#include <sweep/backend/cuda/agent/grid_dependency.cuh>
#include <sweep/backend/cuda/agent/warp_ops.cuh>

namespace sweep::detail::cuda {

/// Zeroed before the pass.
struct swap_partition_header {
    unsigned long long claimed;       // tickets taken, from both ends (may pass the tile count)
    unsigned long long left;          // tiles taken from the front: 0, 1, ...
    unsigned long long right;         // tiles taken from the back: tiles - 1, tiles - 2, ...
    unsigned long long misplaced_below;  // cleanup: rejected elements found below k
    unsigned long long misplaced_above;  // cleanup: kept elements found from k
    unsigned long long tail_kept;     // kept elements in the short tail after the last full tile
    long long result;  // the call's result (swap kernel), when the thread has no mapped slot
    unsigned long long pad;
};
static_assert(sizeof(swap_partition_header) == 64);

/// The cleanup's plan, made on the device by swap_partition_plan_kernel from the header and the
/// records; read by the cleanup's kernels.
struct swap_partition_plan {
    long long k;           // the partition point
    long long slots;       // their elements
    long long kept_slots;  // of them, below k
    unsigned long long error;  // 1: the records do not add up; 2: more dirty tiles than room
    unsigned long long pad[4];
};
static_assert(sizeof(swap_partition_plan) == 64);

/// Up to four per block of the exchange pass (slot 2 * end + {0: the tile in work, 1: the tile
/// fetched ahead}): a tile it still held at the end (-1: none), its end (0 front, 1 back) and its
/// misplaced elements not yet swapped.
struct swap_partition_record {
    long long tile;
    int side;
    int remaining;
};
static_assert(sizeof(swap_partition_record) == 16);
inline constexpr int swap_partition_records_per_block = 4;

// Tuning knobs for perf experiments only. They must be the same in every translation unit of a
// program (the kernels are inline templates), and the library's precompiled kernels use the
// defaults:
//   SWEEP_SWAP_PARTITION_BULK_DIV   a finished tile with at least tile / DIV swapped elements is
//                                   written back whole (default 4)
//   SWEEP_SWAP_PARTITION_MIN_TILES  the pass's grid gives each block at least this many tiles
//                                   (dispatch/compaction.cuh; default 8)
#ifndef SWEEP_SWAP_PARTITION_BULK_DIV
#define SWEEP_SWAP_PARTITION_BULK_DIV 4
#endif
#ifndef SWEEP_SWAP_PARTITION_MIN_TILES
#define SWEEP_SWAP_PARTITION_MIN_TILES 8
#endif
static_assert(SWEEP_SWAP_PARTITION_BULK_DIV > 0 && SWEEP_SWAP_PARTITION_MIN_TILES > 0,
              "SWEEP_SWAP_PARTITION_BULK_DIV and _MIN_TILES are positive");

/// Tile geometry: 256 threads, about 8 KiB of elements a tile (at most 8 a thread, whole 16-byte
/// vectors: 256 * sizeof(T) * items is a multiple of 16). Each end has two tile buffers (the tile
/// in work and the next, fetched ahead by the copy engine) and one position list (16-bit): all in
/// 44 KiB of static shared memory.
template <class T>
struct swap_partition_geometry {
    static constexpr int threads = 256;
    static constexpr int warps = threads / 32;
    static constexpr int raw_items = static_cast<int>(8192 / (threads * sizeof(T)));
    static constexpr int items = raw_items < 1 ? 1 : (raw_items > 8 ? 8 : raw_items);
    static constexpr int tile = threads * items;
    static constexpr unsigned tile_bytes = static_cast<unsigned>(tile * sizeof(T));
    static constexpr std::size_t smem_bytes =
        4 * static_cast<std::size_t>(tile_bytes) + 2 * static_cast<std::size_t>(tile) * 2;
    static constexpr bool fits = smem_bytes <= 44 * 1024 && alignof(T) <= 16;
    // As many blocks an SM as shared memory allows (5 at 41-42 KiB of 228): registers capped
    // to match (51 a thread).
    static constexpr int min_blocks = 5;
    /// A finished tile with at least this many swapped elements is written back whole by the copy
    /// engine (full lines, one instruction) rather than element by element: at a quarter of the
    /// elements, nearly every 32-byte sector of a tile of elements up to 8 bytes is written anyway.
    static constexpr int bulk_writeback_min =
        sizeof(T) <= 8 ? tile / SWEEP_SWAP_PARTITION_BULK_DIV : tile + 1;
    static_assert(tile_bytes % 16 == 0);
};

namespace swap_partition {

/// The lanes below this one.
__device__ inline unsigned lanemask_lt() { return (1u << (threadIdx.x % 32)) - 1u; }

/// Exclusive scan in place of counts[0, len) (len <= 128) by one warp; returns the total to every
/// lane of that warp.
__device__ inline int warp_exclusive_scan(int* counts, int len) {
    const int lane = static_cast<int>(threadIdx.x % 32);
    int v[4];
    int sum = 0;
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        const int j = lane * 4 + i;
        v[i] = j < len ? counts[j] : 0;
        sum += v[i];
    }
    auto add = [](int a, int b) { return a + b; };
    const int incl = warp_inclusive_scan(sum, add, lane);
    int run = incl - sum;
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        const int j = lane * 4 + i;
        if (j < len) counts[j] = run;
        run += v[i];
    }
    return __shfl_sync(0xffffffffu, incl, 31);
}

}  // namespace swap_partition

/// The exchange pass over the first `tiles` full tiles of data (16-byte aligned); block 0 also
/// counts the kept elements of the short tail [tiles * S, n). `rec` has
/// swap_partition_records_per_block entries per block.
template <class T, class Pred>
__global__ void __launch_bounds__(swap_partition_geometry<T>::threads,
                                  swap_partition_geometry<T>::min_blocks)
    swap_partition_kernel(T* data, long long n, long long tiles, Pred pred,
                          swap_partition_header* h, swap_partition_record* rec) {
    using G = swap_partition_geometry<T>;
    constexpr int TH = G::threads;
    constexpr int IT = G::items;
    constexpr int S = G::tile;
    constexpr int W = G::warps;
    // Buffer b = 2 * end + slot.
    __shared__ alignas(128) unsigned char raw[4 * G::tile_bytes];
    __shared__ alignas(8) std::uint64_t bars[4];
    __shared__ unsigned short pos[2][S];
    __shared__ int counts[2][IT * W];
    __shared__ unsigned masks[2][IT * W];  // each warp's ballot of each row
    __shared__ int totals[2];
    __shared__ long long next[4];
    // Launched behind the reset of the header and the bitmap (wait for it); the plan is launched
    // behind this grid.
    pdl::wait();
    pdl::launch_dependents();
    const int tid = static_cast<int>(threadIdx.x);
    const int warp = tid / 32;
    auto buffer = [&](int b) { return reinterpret_cast<T*>(raw + b * G::tile_bytes); };

    // Thread 0 only. A failed ticket leaves every later one failed (the counter only grows).
    auto claim = [&](int side) -> long long {
        const unsigned long long c = atomicAdd(&h->claimed, 1ull);
        if (c >= static_cast<unsigned long long>(tiles)) return -1;
        if (side == 0) return static_cast<long long>(atomicAdd(&h->left, 1ull));
        return tiles - 1 - static_cast<long long>(atomicAdd(&h->right, 1ull));
    };
    // Thread 0 only: the copy engine fetches tile t into buffer b.
    auto fetch = [&](int b, long long t) {
        bulk::arrive_expect(&bars[b], G::tile_bytes);
        bulk::copy_to_shared(buffer(b), data + t * S, G::tile_bytes, &bars[b]);
    };
    unsigned parity = 0;  // bit b: the phase of bars[b] to wait for next
    auto wait_for = [&](int b) {
        bulk::wait(&bars[b], (parity >> b) & 1u);
        parity ^= 1u << b;
    };
    // Lists the misplaced elements of buffer b (an end-s tile) in pos[s], in order; returns their
    // number (every thread). Starts and ends with every thread past a barrier.
    auto rank = [&](int b, int s) -> int {
        const T* const t = buffer(b);
#pragma unroll
        for (int i = 0; i < IT; ++i) {
            const bool kept = static_cast<bool>(pred(t[i * TH + tid]));
            const unsigned m = __ballot_sync(0xffffffffu, s == 0 ? !kept : kept);
            if (tid % 32 == 0) {
                counts[s][i * W + warp] = __popc(m);
                masks[s][i * W + warp] = m;
            }
        }
        __syncthreads();
        if (warp == 0) {
            const int total = swap_partition::warp_exclusive_scan(counts[s], IT * W);
            if (tid == 0) totals[s] = total;
        }
        __syncthreads();
        const unsigned lt = swap_partition::lanemask_lt();
#pragma unroll
        for (int i = 0; i < IT; ++i) {
            const unsigned m = masks[s][i * W + warp];
            if ((m >> (tid % 32)) & 1u)
                pos[s][counts[s][i * W + warp] + __popc(m & lt)] =
                    static_cast<unsigned short>(i * TH + tid);
        }
        const int total = totals[s];
        __syncthreads();
        return total;
    };
    // Writes the first `upto` listed elements of buffer b (tile t) back: they were swapped.
    auto write_back = [&](int b, int s, long long t, int upto) {
        const T* const src = buffer(b);
        T* const dst = data + t * S;
        for (int r = tid; r < upto; r += TH) {
            const int p = pos[s][r];
            dst[p] = src[p];
        }
    };
    // The same for a finished tile: whole, by the copy engine, when it swapped many elements
    // (block-uniform). The swaps were fenced for the async proxy before the last barrier. Returns
    // whether a bulk copy reads buffer b now (it must not be refilled before wait_read_all).
    auto write_back_finished = [&](int b, int s, long long t, int upto) -> bool {
        if (upto >= G::bulk_writeback_min) {
            if (tid == 0) {
                bulk::copy_to_global(data + t * S, buffer(b), G::tile_bytes);
                bulk::commit();
            }
            return true;
        }
        write_back(b, s, t, upto);
        return false;
    };

    if (blockIdx.x == 0) {
        // The tail's kept elements (the plan needs them; the pass never takes the tail).
        int kept = 0;
        for (long long i = tiles * S + tid; i < n; i += TH) kept += static_cast<bool>(pred(data[i]));
        kept = __reduce_add_sync(0xffffffffu, static_cast<unsigned>(kept));
        if (tid % 32 == 0 && kept != 0)
            atomicAdd(&h->tail_kept, static_cast<unsigned long long>(kept));
    }
    if (tid == 0) {
#pragma unroll
        for (int b = 0; b < 4; ++b) bulk::init(&bars[b]);
        bulk::fence_init();
        // In work: front, back; ahead: front, back. Buffers 0, 2, 1, 3.
        next[0] = claim(0);
        next[1] = next[0] < 0 ? -1 : claim(1);
        next[2] = next[1] < 0 ? -1 : claim(0);
        next[3] = next[2] < 0 ? -1 : claim(1);
        if (next[0] >= 0) fetch(0, next[0]);
        if (next[1] >= 0) fetch(2, next[1]);
        if (next[2] >= 0) fetch(1, next[2]);
        if (next[3] >= 0) fetch(3, next[3]);
    }
    __syncthreads();
    // Block-uniform state of each end: the tile in work (cur, in slot `slot`), the one ahead.
    long long cur[2] = {next[0], next[1]};
    long long ahead[2] = {next[2], next[3]};
    int slot[2] = {0, 0};
    int count[2] = {0, 0};  // misplaced elements of the tile in work
    int used[2] = {0, 0};   // of them, swapped already
    __syncthreads();        // next[] is read
#pragma unroll
    for (int s = 0; s < 2; ++s) {
        if (cur[s] >= 0) {
            wait_for(2 * s);
            count[s] = rank(2 * s, s);
        }
    }

    while (cur[0] >= 0 && cur[1] >= 0) {
        const int rem0 = count[0] - used[0];
        const int rem1 = count[1] - used[1];
        const int m = rem0 < rem1 ? rem0 : rem1;
        const bool fin[2] = {rem0 == m, rem1 == m};
        if (tid == 0) {
            // The refill tickets, taken before the swaps so that their latency overlaps them; none
            // for an end with nothing ahead (that end is done: the block stops).
#pragma unroll
            for (int s = 0; s < 2; ++s) next[s] = fin[s] && ahead[s] >= 0 ? claim(s) : -1;
        }
        T* const t0 = buffer(slot[0]);
        T* const t1 = buffer(2 + slot[1]);
        for (int j = tid; j < m; j += TH) {
            const int a = pos[0][used[0] + j];
            const int b = pos[1][used[1] + j];
            const T x = t0[a];
            t0[a] = t1[b];
            t1[b] = x;
        }
        used[0] += m;
        used[1] += m;
        bulk::fence_proxy_async();  // the swaps, before a whole-tile writeback reads them
        __syncthreads();  // the swaps are done; next[] is visible
        const long long refill[2] = {next[0], next[1]};
        bool reading = false;  // a bulk writeback may still read a freed buffer
#pragma unroll
        for (int s = 0; s < 2; ++s)
            if (fin[s]) reading |= write_back_finished(2 * s + slot[s], s, cur[s], count[s]);
        __syncthreads();  // the writebacks have read the finished tiles' buffers
#pragma unroll
        for (int s = 0; s < 2; ++s) {
            if (!fin[s]) continue;
            const int freed = 2 * s + slot[s];
            if (tid == 0 && refill[s] >= 0) {
                if (reading) {
                    bulk::wait_read_all();
                    reading = false;
                }
                bulk::fence_proxy_async();  // after the barrier: the block's reads of the buffer
                fetch(freed, refill[s]);
            }
            cur[s] = ahead[s];
            ahead[s] = refill[s];
            slot[s] ^= 1;
            used[s] = 0;
            count[s] = 0;
            if (cur[s] >= 0) {
                wait_for(2 * s + slot[s]);
                count[s] = rank(2 * s + slot[s], s);
            }
        }
    }
    // An end ran out of tiles. Write back what the tile in work swapped; record it and the tile
    // ahead (waited for and counted: no copy may be in flight when the block exits).
    swap_partition_record out[4] = {{-1, 0, 0}, {-1, 1, 0}, {-1, 0, 0}, {-1, 1, 0}};
#pragma unroll
    for (int s = 0; s < 2; ++s) {
        if (cur[s] >= 0) {
            write_back(2 * s + slot[s], s, cur[s], used[s]);
            out[2 * s] = swap_partition_record{cur[s], s, count[s] - used[s]};
        }
    }
    __syncthreads();  // the writebacks have read pos[]
#pragma unroll
    for (int s = 0; s < 2; ++s) {
        if (ahead[s] >= 0) {
            const int b = 2 * s + (slot[s] ^ 1);
            wait_for(b);
            out[2 * s + 1] = swap_partition_record{ahead[s], s, rank(b, s)};
        }
    }
    if (tid == 0) {
#pragma unroll
        for (int j = 0; j < 4; ++j) rec[swap_partition_records_per_block * blockIdx.x + j] = out[j];
        bulk::wait_all();  // the whole-tile writebacks are performed before the block exits
    }
}

/// The plan (one block of 1024 threads), from the pass's header and its `nrec` records. Front
/// tiles [0, a) are all kept or unfinished, back tiles [a, full) all rejected or unfinished, then
/// the short tail; X rejected elements are left in unfinished front tiles, Y kept ones in
/// unfinished back tiles and the tail. The partition point is k = a S - X + Y. Outside the
/// unfinished tiles and the tail, a tile is wrong only if it lies between k and a S. Those tiles
/// are marked in `bitmap` (full / 32 + 1 words, zeroed before the pass) and listed in ascending
/// order into list[0, count) (at most dmax entries).
template <class T>
__global__ void __launch_bounds__(1024)
    swap_partition_plan_kernel(long long n, long long full, const swap_partition_record* rec,
                               long long nrec, unsigned* bitmap, long long dmax, long long* list,
                               const swap_partition_header* h, swap_partition_plan* plan) {
    constexpr long long S = swap_partition_geometry<T>::tile;
    constexpr int TH = 1024;
    __shared__ unsigned long long sum[4];  // X, Y, slots, kept slots
    __shared__ long long warp_total[TH / 32];
    __shared__ long long point;
    __shared__ int bad;
    pdl::wait();  // the pass
    pdl::launch_dependents();
    const int tid = static_cast<int>(threadIdx.x);
    const int lane = tid % 32;
    const int warp = tid / 32;
    if (tid < 4) sum[tid] = 0;
    __syncthreads();
    unsigned long long x = 0, y = 0;
    for (long long i = tid; i < nrec; i += TH) {
        const swap_partition_record r = rec[i];
        if (r.tile < 0) continue;
        atomicOr(&bitmap[r.tile / 32], 1u << (r.tile % 32));
        (r.side == 0 ? x : y) += static_cast<unsigned long long>(r.remaining);
    }
    // Sums and offsets by warp scans (warp_ops.cuh); one shared atomic a warp (64-bit shared
    // atomics are compare-and-swap loops: one a thread serialized the block for tens of
    // microseconds).
    auto add = [](auto a, auto b) { return a + b; };
    x = warp_inclusive_scan(x, add, lane);
    y = warp_inclusive_scan(y, add, lane);
    if (lane == 31) {
        if (x != 0) atomicAdd(&sum[0], x);
        if (y != 0) atomicAdd(&sum[1], y);
    }
    __syncthreads();
    const long long front_end = static_cast<long long>(h->left) * S;
    if (tid == 0) {
        const long long k = front_end - static_cast<long long>(sum[0]) +
                            static_cast<long long>(h->tail_kept + sum[1]);
        point = k;
        bad = h->left + h->right != static_cast<unsigned long long>(full) || k < 0 || k > n;
    }
    __syncthreads();
    const long long k = point;
    if (bad) {
        if (tid == 0) *plan = swap_partition_plan{k, 0, 0, 1, {}};
        return;
    }
    const long long lo = k < front_end ? k : front_end;
    const long long hi = k < front_end ? front_end : k;
    if (lo < hi)
        for (long long t = lo / S + tid; t < (hi + S - 1) / S; t += TH)
            atomicOr(&bitmap[t / 32], 1u << (t % 32));
    if (tid == 0 && n % S != 0) atomicOr(&bitmap[full / 32], 1u << (full % 32));
    __syncthreads();  // the block's atomics on bitmap are visible to the block
    // The marked tiles in ascending order: each thread a run of words, offsets by a block scan.
    const long long words = full / 32 + 1;
    const long long per = (words + TH - 1) / TH;
    const long long w0 = tid * per < words ? tid * per : words;
    const long long w1 = w0 + per < words ? w0 + per : words;
    long long mine = 0;
    for (long long w = w0; w < w1; ++w) mine += __popc(bitmap[w]);
    const long long incl = warp_inclusive_scan(mine, add, lane);
    if (lane == 31) warp_total[warp] = incl;
    __syncthreads();
    if (warp == 0) warp_total[lane] = warp_inclusive_scan(warp_total[lane], add, lane);  // over warps
    __syncthreads();
    const long long total = warp_total[TH / 32 - 1];
    if (total > dmax) {
        if (tid == 0) *plan = swap_partition_plan{k, 0, 0, 2, {}};
        return;
    }
    long long at = (warp > 0 ? warp_total[warp - 1] : 0) + incl - mine;
    unsigned long long slots = 0, kept_slots = 0;
    for (long long w = w0; w < w1; ++w) {
        unsigned bits = bitmap[w];
        while (bits != 0) {
            const long long t = w * 32 + (__ffs(bits) - 1);
            bits &= bits - 1;
            list[at++] = t;
            const long long b0 = t * S;
            const long long b1 = b0 + S < n ? b0 + S : n;
            slots += static_cast<unsigned long long>(b1 - b0);
            const long long below = (b1 < k ? b1 : k) - b0;
            if (below > 0) kept_slots += static_cast<unsigned long long>(below);
        }
    }
    slots = warp_inclusive_scan(slots, add, lane);
    kept_slots = warp_inclusive_scan(kept_slots, add, lane);
    if (lane == 31) {
        if (slots != 0) atomicAdd(&sum[2], slots);
        if (kept_slots != 0) atomicAdd(&sum[3], kept_slots);
    }
    __syncthreads();
    if (tid == 0)
        *plan = swap_partition_plan{k, static_cast<long long>(sum[2]),
                                    static_cast<long long>(sum[3]), 0, {}};
}

/// Cleanup, step 1 (launched behind the plan): finds the misplaced elements of the dirty tiles.
/// Slot q is element q % S of tile list[q / S]; slots [0, kept_slots) lie below the partition
/// point, the rest at or above it (the list is ascending). A rejected element in a slot below k
/// is misplaced, and so is a kept one in a slot from k; there are as many of one kind as of the
/// other. Their slots go to pos[0, ...) and pos[kept_slots, ...), each block's share placed by
/// two atomics on the header's counters (order does not matter: `partition` is unstable).
template <class T, class Pred>
__global__ void __launch_bounds__(256)
    swap_partition_collect_kernel(const T* data, const long long* list,
                                  const swap_partition_plan* plan, Pred pred,
                                  swap_partition_header* h, unsigned* pos) {
    pdl::wait();
    pdl::launch_dependents();
    constexpr int S = swap_partition_geometry<T>::tile;
    constexpr int TH = 256;
    constexpr int W = TH / 32;
    constexpr int IT = 4;
    const long long m = plan->slots;
    const long long kept_slots = plan->kept_slots;
    __shared__ int counts[2][IT * W];
    __shared__ unsigned long long base[2];
    const int tid = static_cast<int>(threadIdx.x);
    const int warp = tid / 32;
    const unsigned lt = swap_partition::lanemask_lt();
    for (long long c = static_cast<long long>(blockIdx.x) * TH * IT; c < m;
         c += static_cast<long long>(gridDim.x) * TH * IT) {
        unsigned below[IT], above[IT];  // ballots: misplaced below k, misplaced from k
#pragma unroll
        for (int i = 0; i < IT; ++i) {
            const long long q = c + i * TH + tid;
            bool wrong = false;
            if (q < m) {
                const bool kept = static_cast<bool>(pred(data[list[q / S] * S + q % S]));
                wrong = q < kept_slots ? !kept : kept;
            }
            below[i] = __ballot_sync(0xffffffffu, wrong && q < kept_slots);
            above[i] = __ballot_sync(0xffffffffu, wrong && q >= kept_slots);
            if (tid % 32 == 0) {
                counts[0][i * W + warp] = __popc(below[i]);
                counts[1][i * W + warp] = __popc(above[i]);
            }
        }
        __syncthreads();
        if (warp < 2) {
            const int total = swap_partition::warp_exclusive_scan(counts[warp], IT * W);
            if (tid % 32 == 0)
                base[warp] = total == 0 ? 0
                                        : atomicAdd(warp == 0 ? &h->misplaced_below
                                                              : &h->misplaced_above,
                                                    static_cast<unsigned long long>(total));
        }
        __syncthreads();
#pragma unroll
        for (int i = 0; i < IT; ++i) {
            const unsigned q = static_cast<unsigned>(c + i * TH + tid);
            if ((below[i] >> (tid % 32)) & 1u)
                pos[base[0] + counts[0][i * W + warp] + __popc(below[i] & lt)] = q;
            if ((above[i] >> (tid % 32)) & 1u)
                pos[kept_slots + static_cast<long long>(base[1]) + counts[1][i * W + warp] +
                    __popc(above[i] & lt)] = q;
        }
        __syncthreads();  // counts and base are reused
    }
}

/// Cleanup, step 2 (launched behind step 1): swaps the i-th misplaced element below k with the
/// i-th from k. Each slot is in one pair at most, so the swaps are race-free. Block 0 also writes
/// the call's result to `result`: the partition point, or -1 when the plan found the records
/// inconsistent, -2 when there were more dirty tiles than room, -3 when the two kinds of
/// misplaced elements are not as many.
template <class T>
__global__ void __launch_bounds__(256)
    swap_partition_swap_kernel(T* data, const long long* list, const swap_partition_plan* plan,
                               const unsigned* pos, const swap_partition_header* h,
                               long long* result) {
    pdl::wait();
    constexpr long long S = swap_partition_geometry<T>::tile;
    const unsigned long long below = h->misplaced_below;
    const unsigned long long above = h->misplaced_above;
    const long long kept_slots = plan->kept_slots;
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        const unsigned long long error = plan->error;
        *result = error != 0 ? -static_cast<long long>(error) : below != above ? -3 : plan->k;
    }
    const long long r = static_cast<long long>(below < above ? below : above);
    const unsigned* const upper = pos + kept_slots;
    for (long long i = static_cast<long long>(blockIdx.x) * 256 + threadIdx.x; i < r;
         i += static_cast<long long>(gridDim.x) * 256) {
        const unsigned a = pos[i];
        const unsigned b = upper[i];
        T* const x = data + list[a / S] * S + a % S;
        T* const y = data + list[b / S] * S + b % S;
        const T t = *x;
        *x = *y;
        *y = t;
    }
}

}  // namespace sweep::detail::cuda
