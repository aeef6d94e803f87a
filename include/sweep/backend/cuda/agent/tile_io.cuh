// sweep/backend/cuda/agent/tile_io.cuh -- GPU backend, agents: moving one warp's share of a tile
// between global memory and registers with 16-byte accesses.
//
// Global memory wants a warp to touch consecutive 16-byte vectors (lane l, vector j*32 + l:
// "striped"); a scan wants each thread to hold consecutive items ("blocked"). The warp transposes
// through its own slice of shared memory, 16 bytes at a time. One 16-byte pad chunk after every
// 8 chunks makes both the striped and the blocked accesses conflict-free for 1, 2, 4 or 8 chunks
// per thread (8 lanes form one 128-byte shared-memory wavefront; with the pad, lane l's chunk
// l*c + j lands in 16-byte bank group (l*c + j + (l*c + j)/8) mod 8, all different for l = 0..7).
#pragma once

#include <cstdint>
#include <cstring>

#include <sweep/backend/cuda/agent/warp_ops.cuh>

namespace sweep::detail::cuda {

/// Bytes of shared memory one warp needs to transpose `items` values of `bytes` each per lane.
constexpr int warp_io_bytes(int items, int bytes) {
    const int raw = warp_threads * items * bytes;
    return raw + raw / 128 * 16;
}

__device__ __forceinline__ int padded_chunk(int c) { return c + (c >> 3); }

/// Loads the warp's segment (32 * Items values starting at `seg`, 16-byte aligned) and returns
/// lane's Items consecutive values. All global loads are issued before the first is used.
template <int Items, class T>
__device__ __forceinline__ void load_warp_blocked(const T* seg, unsigned char* smem, int lane,
                                                  reg_array<T, Items>& out) {
    static_assert(Items * sizeof(T) % 16 == 0);
    constexpr int chunks = Items * sizeof(T) / 16;
    const uint4* g = reinterpret_cast<const uint4*>(seg);
    uint4* s = reinterpret_cast<uint4*>(smem);
    uint4 r[chunks];
#pragma unroll
    for (int j = 0; j < chunks; ++j) r[j] = g[j * warp_threads + lane];
    __syncwarp();  // the slice may still be read by the previous tile's store
#pragma unroll
    for (int j = 0; j < chunks; ++j) s[padded_chunk(j * warp_threads + lane)] = r[j];
    __syncwarp();
#pragma unroll
    for (int j = 0; j < chunks; ++j) r[j] = s[padded_chunk(lane * chunks + j)];
    std::memcpy(&out, r, sizeof(r));
}

/// Starts copying the warp's segment into its shared-memory slice (cp.async, 16 bytes a lane,
/// bypassing L1); read_warp_blocked reads it once the copy's group is complete.
template <int Items, class T>
__device__ __forceinline__ void prefetch_warp(const T* seg, unsigned char* smem, int lane) {
    static_assert(Items * sizeof(T) % 16 == 0);
    constexpr int chunks = Items * sizeof(T) / 16;
    const uint4* g = reinterpret_cast<const uint4*>(seg);
    uint4* s = reinterpret_cast<uint4*>(smem);
#pragma unroll
    for (int j = 0; j < chunks; ++j) {
        const auto dst = static_cast<unsigned>(__cvta_generic_to_shared(s + padded_chunk(j * warp_threads + lane)));
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(g + j * warp_threads + lane)
                     : "memory");
    }
}

/// Closes the group of copies issued since the last commit (an empty group is fine).
__device__ __forceinline__ void commit_copies() { asm volatile("cp.async.commit_group;" ::: "memory"); }

/// Waits until all but the newest `Pending` groups of this thread's copies are complete.
template <int Pending>
__device__ __forceinline__ void wait_copies() {
    asm volatile("cp.async.wait_group %0;" ::"n"(Pending) : "memory");
}

/// Lane's Items consecutive values from a slice filled by prefetch_warp (after wait_copies).
template <int Items, class T>
__device__ __forceinline__ void read_warp_blocked(const unsigned char* smem, int lane,
                                                  reg_array<T, Items>& out) {
    constexpr int chunks = Items * sizeof(T) / 16;
    const uint4* s = reinterpret_cast<const uint4*>(smem);
    uint4 r[chunks];
    __syncwarp();  // every lane's copies are complete and visible to the warp
#pragma unroll
    for (int j = 0; j < chunks; ++j) r[j] = s[padded_chunk(lane * chunks + j)];
    std::memcpy(&out, r, sizeof(r));
}

/// Stores lane's Items consecutive values into the warp's segment (16-byte aligned).
template <int Items, class T>
__device__ __forceinline__ void store_warp_blocked(T* seg, unsigned char* smem, int lane,
                                                   const reg_array<T, Items>& in) {
    static_assert(Items * sizeof(T) % 16 == 0);
    constexpr int chunks = Items * sizeof(T) / 16;
    uint4* g = reinterpret_cast<uint4*>(seg);
    uint4* s = reinterpret_cast<uint4*>(smem);
    uint4 r[chunks];
    std::memcpy(r, &in, sizeof(r));
    __syncwarp();  // every lane is done reading the slice in load_warp_blocked
#pragma unroll
    for (int j = 0; j < chunks; ++j) s[padded_chunk(lane * chunks + j)] = r[j];
    __syncwarp();
#pragma unroll
    for (int j = 0; j < chunks; ++j) r[j] = s[padded_chunk(j * warp_threads + lane)];
#pragma unroll
    for (int j = 0; j < chunks; ++j) g[j * warp_threads + lane] = r[j];
}

}  // namespace sweep::detail::cuda
