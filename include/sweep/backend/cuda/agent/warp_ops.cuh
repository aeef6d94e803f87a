// sweep/backend/cuda/agent/warp_ops.cuh -- GPU backend, agents: register arrays, shuffles of any
// trivially copyable type, and the warp-wide inclusive scan the tile agents are built from.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace sweep::detail::cuda {

inline constexpr unsigned full_mask = 0xffffffffu;
inline constexpr int warp_threads = 32;

/// N values of T in registers without requiring T to be default-constructible (any trivially
/// copyable T is accepted by the scans).
template <class T, int N>
struct reg_array {
    union slot {
        __host__ __device__ slot() {}
        T v;
    };
    slot e[N];
    __host__ __device__ T& operator[](int i) { return e[i].v; }
    __host__ __device__ const T& operator[](int i) const { return e[i].v; }
};

/// N values of T in shared memory (raw bytes: __shared__ objects cannot have constructors).
template <class T, int N>
struct smem_array {
    alignas(alignof(T) < 16 ? 16 : alignof(T)) unsigned char bytes[N * sizeof(T)];
    // Typed accesses (not memcpy): the compiler then knows the alignment and moves whole words.
    __device__ T get(int i) const { return reinterpret_cast<const T*>(bytes)[i]; }
    __device__ void set(int i, const T& v) { reinterpret_cast<T*>(bytes)[i] = v; }
};

/// A value or nothing: the prefix of the first tile of an inclusive scan without init is nothing.
template <class T>
struct maybe {
    reg_array<T, 1> v;
    bool has = false;
    __host__ __device__ maybe() {}
    __host__ __device__ explicit maybe(const T& x) : has(true) { v[0] = x; }
    __host__ __device__ const T& get() const { return v[0]; }
};

/// op(a, b) where a may be nothing.
template <class T, class Op>
__device__ __forceinline__ T combine(const maybe<T>& a, const T& b, Op& op) {
    return a.has ? static_cast<T>(op(a.get(), b)) : b;
}

template <class T, class Op>
__device__ __forceinline__ maybe<T> combine(const maybe<T>& a, const maybe<T>& b, Op& op) {
    if (!a.has) return b;
    if (!b.has) return a;
    return maybe<T>(static_cast<T>(op(a.get(), b.get())));
}

/// The block's warp totals folded left to right: returns the tile's aggregate, and sets `before`
/// to the fold of the warps before `warp` (left as nothing for warp 0). The one association of
/// every scan agent's block level (the canonical tree's, detail/canonical.hpp).
template <class T, int Warps, class Op>
__device__ __forceinline__ T fold_warp_totals(const smem_array<T, Warps>& totals, int warp,
                                              Op& op, maybe<T>& before) {
    reg_array<T, 1> aggregate;
    aggregate[0] = totals.get(0);
    for (int w = 1; w < Warps; ++w) {
        if (w == warp) before = maybe<T>(aggregate[0]);
        aggregate[0] = static_cast<T>(op(aggregate[0], totals.get(w)));
    }
    return aggregate[0];
}

// ---- shuffles of any trivially copyable type, 4 bytes at a time -------------------------------

template <class T>
struct shuffle_words {
    static constexpr int count = (sizeof(T) + 3) / 4;
    std::uint32_t w[count];
};

/// Moves a value of any trivially copyable type through a warp shuffle, one 32-bit word at a
/// time; `shuffle` is one of the __shfl_*_sync intrinsics wrapped in a lambda.
template <class T, class Shuffle>
__device__ __forceinline__ T shuffle_by_words(const T& x, Shuffle shuffle) {
    shuffle_words<T> s;
    std::memcpy(s.w, &x, sizeof(T));
#pragma unroll
    for (int i = 0; i < shuffle_words<T>::count; ++i) s.w[i] = shuffle(s.w[i]);
    reg_array<T, 1> r;
    std::memcpy(&r[0], s.w, sizeof(T));
    return r[0];
}

template <class T>
__device__ __forceinline__ T shfl_idx(const T& x, int src) {
    return shuffle_by_words(x, [src](std::uint32_t w) { return __shfl_sync(full_mask, w, src); });
}

template <class T>
__device__ __forceinline__ T shfl_up(const T& x, int delta) {
    return shuffle_by_words(x,
                            [delta](std::uint32_t w) { return __shfl_up_sync(full_mask, w, delta); });
}

template <class T>
__device__ __forceinline__ T shfl_down(const T& x, int delta) {
    return shuffle_by_words(
        x, [delta](std::uint32_t w) { return __shfl_down_sync(full_mask, w, delta); });
}

/// Inclusive scan across the 32 lanes (Kogge-Stone, 5 steps). The lower lane is always the left
/// operand, so non-commutative operators are fine; the association is fixed (no timing in it).
template <class T, class Op>
__device__ __forceinline__ T warp_inclusive_scan(T x, Op& op, int lane) {
#pragma unroll
    for (int d = 1; d < warp_threads; d *= 2) {
        const T y = shfl_up(x, d);
        if (lane >= d) x = static_cast<T>(op(y, x));
    }
    return x;
}

}  // namespace sweep::detail::cuda
