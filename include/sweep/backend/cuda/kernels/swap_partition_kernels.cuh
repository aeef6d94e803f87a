// sweep/backend/cuda/kernels/swap_partition_kernels.cuh -- GPU backend, kernels of the unstable
// in-place partition (`partition` on raw pointers): a two-ended exchange pass and its cleanup.
//
// The exchange pass (swap_partition_kernel): persistent blocks take tiles from both ends of the
// range by one ticket counter. A block holds one tile from the front (L) and one from the back
// (R) in shared memory at a time. An L tile's rejected elements and an R tile's kept ones are
// misplaced; the block swaps them pairwise in shared memory until one of its tiles has none left,
// writes back only that tile's swapped elements, and takes the next tile for that end. No tile is
// read or written by any block but the one that took it, so the pass is race-free without any
// ordering between blocks (no look-back: blocks never wait for each other). Each element is read
// once and written only if it moved.
//
// When the tickets run out, each block holds at most one unfinished tile. It writes back what it
// swapped and records the tile and how many misplaced elements it still has. The host then knows
// the partition point k, and which tiles are not yet right: the unfinished ones and those between
// k and the front/back boundary (dispatch/compaction.cuh run_partition_unstable_in_place). The
// cleanup copies those tiles to a temporary (swap_partition_gather_kernel) and puts the kept
// elements back into their slots below k and the rejected ones into the slots from k
// (swap_partition_scatter_kernel: block counts by atomics, since order does not matter).
#pragma once

#include <cstdint>

namespace sweep::detail::cuda {

/// Zeroed before the pass.
struct swap_partition_header {
    unsigned long long claimed;       // tickets taken, from both ends (may pass the tile count)
    unsigned long long left;          // tiles taken from the front: 0, 1, ...
    unsigned long long right;         // tiles taken from the back: tiles - 1, tiles - 2, ...
    unsigned long long true_cursor;   // cleanup: kept elements placed
    unsigned long long false_cursor;  // cleanup: rejected elements placed
    unsigned long long pad[3];
};
static_assert(sizeof(swap_partition_header) == 64);

/// One per block of the exchange pass: the tile it still held at the end (-1: none), its end
/// (0 front, 1 back) and its misplaced elements not yet swapped.
struct swap_partition_record {
    long long tile;
    int side;
    int remaining;
};
static_assert(sizeof(swap_partition_record) == 16);

/// Tile geometry: 256 threads, about 8 KiB of elements a tile (at most 8 a thread); two tiles and
/// their position lists (16-bit) must fit in 40 KiB of static shared memory.
template <class T>
struct swap_partition_geometry {
    static constexpr int threads = 256;
    static constexpr int warps = threads / 32;
    static constexpr int raw_items = static_cast<int>(8192 / (threads * sizeof(T)));
    static constexpr int items = raw_items < 1 ? 1 : (raw_items > 8 ? 8 : raw_items);
    static constexpr int tile = threads * items;
    // Four blocks an SM (64 registers a thread): each holds one tile's loads in flight at a time.
    static constexpr int min_blocks = 4;
    static constexpr std::size_t smem_bytes =
        2 * static_cast<std::size_t>(tile) * (sizeof(T) + sizeof(unsigned short));
    static constexpr bool fits = smem_bytes <= 40 * 1024 && alignof(T) <= 16;
};

namespace swap_partition {

__device__ inline unsigned lanemask_lt() {
    unsigned m;
    asm("mov.u32 %0, %%lanemask_lt;" : "=r"(m));
    return m;
}

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
    int incl = sum;
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
        const int o = __shfl_up_sync(0xffffffffu, incl, d);
        if (lane >= d) incl += o;
    }
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

/// The exchange pass. `rec` has one entry per block.
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
    __shared__ alignas(16) unsigned char raw[2 * S * sizeof(T)];
    __shared__ unsigned short pos[2][S];
    __shared__ int counts[2][IT * W];
    __shared__ unsigned masks[2][IT * W];  // each warp's ballot of each row
    __shared__ int totals[2];
    __shared__ long long next[2];
    T* const tile0 = reinterpret_cast<T*>(raw);
    T* const tile1 = tile0 + S;
    const int tid = static_cast<int>(threadIdx.x);
    const int warp = tid / 32;

    // Thread 0 only. A failed ticket leaves every later one failed (the counter only grows).
    auto claim = [&](int side) -> long long {
        const unsigned long long c = atomicAdd(&h->claimed, 1ull);
        if (c >= static_cast<unsigned long long>(tiles)) return -1;
        if (side == 0) return static_cast<long long>(atomicAdd(&h->left, 1ull));
        return tiles - 1 - static_cast<long long>(atomicAdd(&h->right, 1ull));
    };
    auto tile_size = [&](long long t) -> int {
        const long long rest = n - t * S;
        return rest < S ? static_cast<int>(rest) : S;
    };

    // Block-uniform state of the two held tiles.
    long long idx[2];
    int size[2] = {0, 0};
    int count[2] = {0, 0};  // misplaced elements
    int used[2] = {0, 0};   // of them, swapped already
    bool have[2] = {false, false};
    bool need[2] = {true, true};
    T v[2][IT];

    if (tid == 0) {
        next[0] = claim(0);
        next[1] = next[0] < 0 ? -1 : claim(1);
    }
    __syncthreads();
    idx[0] = next[0];
    idx[1] = next[1];

    // Loads of the needed tiles (need[s], index at[s] >= 0) into registers; issued before the
    // finished tiles' writeback, to overlap it.
    auto issue_loads = [&](const long long (&at)[2]) {
#pragma unroll
        for (int s = 0; s < 2; ++s) {
            if (need[s] && at[s] >= 0) {
                size[s] = tile_size(at[s]);
                const T* src = data + at[s] * S;
#pragma unroll
                for (int i = 0; i < IT; ++i) {
                    const int j = i * TH + tid;
                    if (j < size[s]) v[s][i] = src[j];
                }
            }
        }
    };
    // After a barrier that ends every read of the tiles' shared memory (idx[] now the new
    // tiles): store, flag the misplaced elements, list their positions in order.
    auto finish_loads = [&]() {
#pragma unroll
        for (int s = 0; s < 2; ++s) {
            if (need[s] && idx[s] >= 0) {
                T* const t = s == 0 ? tile0 : tile1;
#pragma unroll
                for (int i = 0; i < IT; ++i) {
                    const int j = i * TH + tid;
                    bool misplaced = false;
                    if (j < size[s]) {
                        t[j] = v[s][i];
                        const bool kept = static_cast<bool>(pred(v[s][i]));
                        misplaced = s == 0 ? !kept : kept;
                    }
                    const unsigned b = __ballot_sync(0xffffffffu, misplaced);
                    if (tid % 32 == 0) {
                        counts[s][i * W + warp] = __popc(b);
                        masks[s][i * W + warp] = b;
                    }
                }
            }
        }
        __syncthreads();
#pragma unroll
        for (int s = 0; s < 2; ++s) {
            if (need[s] && idx[s] >= 0 && warp == s) {
                const int total = swap_partition::warp_exclusive_scan(counts[s], IT * W);
                if (tid % 32 == 0) totals[s] = total;
            }
        }
        __syncthreads();
        const unsigned lt = swap_partition::lanemask_lt();
#pragma unroll
        for (int s = 0; s < 2; ++s) {
            if (need[s] && idx[s] >= 0) {
#pragma unroll
                for (int i = 0; i < IT; ++i) {
                    const unsigned b = masks[s][i * W + warp];
                    if ((b >> (tid % 32)) & 1u)
                        pos[s][counts[s][i * W + warp] + __popc(b & lt)] =
                            static_cast<unsigned short>(i * TH + tid);
                }
                count[s] = totals[s];
                used[s] = 0;
                have[s] = true;
                need[s] = false;
            }
        }
        __syncthreads();
    };
    // Writes the first `upto` misplaced elements of held tile s back (they were swapped).
    auto write_back = [&](int s, int upto) {
        const T* const t = s == 0 ? tile0 : tile1;
        T* const dst = data + idx[s] * S;
        for (int r = tid; r < upto; r += TH) {
            const int p = pos[s][r];
            dst[p] = t[p];
        }
    };

    {
        const long long first[2] = {idx[0], idx[1]};
        issue_loads(first);
    }
    finish_loads();
    while (have[0] && have[1]) {
        const int rem0 = count[0] - used[0];
        const int rem1 = count[1] - used[1];
        const int m = rem0 < rem1 ? rem0 : rem1;
        const bool fin[2] = {rem0 == m, rem1 == m};
        if (tid == 0) {
            // Taken before the swaps, so that the atomics' latency overlaps them.
            next[0] = fin[0] ? claim(0) : -1;
            next[1] = fin[1] ? (fin[0] && next[0] < 0 ? -1 : claim(1)) : -1;
        }
        for (int j = tid; j < m; j += TH) {
            const int a = pos[0][used[0] + j];
            const int b = pos[1][used[1] + j];
            const T x = tile0[a];
            tile0[a] = tile1[b];
            tile1[b] = x;
        }
        used[0] += m;
        used[1] += m;
        __syncthreads();  // the swaps are done; next[] is visible
        const long long fresh[2] = {fin[0] ? next[0] : -1, fin[1] ? next[1] : -1};
#pragma unroll
        for (int s = 0; s < 2; ++s) need[s] = fin[s];
        issue_loads(fresh);
#pragma unroll
        for (int s = 0; s < 2; ++s) {
            if (fin[s]) {
                write_back(s, count[s]);
                have[s] = false;
                idx[s] = fresh[s];
            }
        }
        __syncthreads();  // the writebacks have read the finished tiles
        finish_loads();
    }
    // The tickets ran out: at most one tile is held. Write back what it swapped; record it.
    long long held = -1;
    int side = 0;
    int remaining = 0;
#pragma unroll
    for (int s = 0; s < 2; ++s) {
        if (have[s]) {
            write_back(s, used[s]);
            held = idx[s];
            side = s;
            remaining = count[s] - used[s];
        }
    }
    if (tid == 0) rec[blockIdx.x] = swap_partition_record{held, side, remaining};
}

/// Cleanup, step 1: tiles list[0, count) of `data` (ascending; only the range's last tile may be
/// short, and it can only come last) to tmp, packed.
template <class T>
__global__ void __launch_bounds__(256)
    swap_partition_gather_kernel(const T* data, long long n, const long long* list, long long count,
                                 T* tmp) {
    constexpr int S = swap_partition_geometry<T>::tile;
    for (long long j = blockIdx.x; j < count; j += gridDim.x) {
        const long long t = list[j];
        const long long rest = n - t * S;
        const int size = rest < S ? static_cast<int>(rest) : S;
        const T* src = data + t * S;
        T* dst = tmp + j * S;
        for (int e = static_cast<int>(threadIdx.x); e < size; e += 256) dst[e] = src[e];
    }
}

/// Cleanup, step 2: tmp[0, m) back into the listed tiles' slots (slot q: element q % S of tile
/// list[q / S]), kept elements to slots [0, kept_slots), rejected ones to [kept_slots, m), each
/// block's share placed by two atomics on the header's cursors.
template <class T, class Pred>
__global__ void __launch_bounds__(256)
    swap_partition_scatter_kernel(const T* tmp, long long m, long long kept_slots, T* data,
                                  const long long* list, Pred pred, swap_partition_header* h) {
    constexpr int S = swap_partition_geometry<T>::tile;
    constexpr int TH = 256;
    constexpr int W = TH / 32;
    constexpr int IT = 4;
    __shared__ int counts[IT * W];
    __shared__ unsigned long long base[2];
    const int tid = static_cast<int>(threadIdx.x);
    const int warp = tid / 32;
    const unsigned lt = swap_partition::lanemask_lt();
    for (long long c = static_cast<long long>(blockIdx.x) * TH * IT; c < m;
         c += static_cast<long long>(gridDim.x) * TH * IT) {
        T x[IT];
        unsigned ballots[IT];
#pragma unroll
        for (int i = 0; i < IT; ++i) {
            const long long q = c + i * TH + tid;
            bool kept = false;
            if (q < m) {
                x[i] = tmp[q];
                kept = static_cast<bool>(pred(x[i]));
            }
            ballots[i] = __ballot_sync(0xffffffffu, kept);
            if (tid % 32 == 0) counts[i * W + warp] = __popc(ballots[i]);
        }
        __syncthreads();
        if (warp == 0) {
            const int total = swap_partition::warp_exclusive_scan(counts, IT * W);
            if (tid == 0) {
                const long long len = m - c < TH * IT ? m - c : TH * IT;
                base[0] = atomicAdd(&h->true_cursor, static_cast<unsigned long long>(total));
                base[1] = atomicAdd(&h->false_cursor,
                                    static_cast<unsigned long long>(len - total));
            }
        }
        __syncthreads();
#pragma unroll
        for (int i = 0; i < IT; ++i) {
            const long long q = c + i * TH + tid;
            if (q < m) {
                const int local = i * TH + tid;
                const int kept_before = counts[i * W + warp] + __popc(ballots[i] & lt);
                const bool kept = (ballots[i] >> (tid % 32)) & 1u;
                const long long slot =
                    kept ? static_cast<long long>(base[0]) + kept_before
                         : kept_slots + static_cast<long long>(base[1]) + (local - kept_before);
                data[list[slot / S] * S + slot % S] = x[i];
            }
        }
        __syncthreads();  // counts and base are reused
    }
}

}  // namespace sweep::detail::cuda
