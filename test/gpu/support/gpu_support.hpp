// test/gpu/support/gpu_support.hpp -- helpers of the GPU tests: device buffers, the value types
// of the type matrix, input generators and the sizes at tile edges.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <sweep/backend/cuda/tuning/scan_tuning.cuh>

#include "size_cap.hpp"

namespace sweep_gpu_test {

inline void cuda_ok(cudaError_t e, const char* what) {
    if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

/// A device array that can be filled from and read into host vectors. Starts poisoned (0xA5
/// bytes) so that an element the scan failed to write shows up.
template <class T>
class device_vector {
public:
    explicit device_vector(std::size_t n) : n_(n) {
        cuda_ok(cudaMalloc(&p_, n_ == 0 ? 1 : n_ * sizeof(T)), "cudaMalloc");
        poison();
    }
    explicit device_vector(const std::vector<T>& h) : device_vector(h.size()) { upload(h); }
    device_vector(const device_vector&) = delete;
    device_vector& operator=(const device_vector&) = delete;
    ~device_vector() { cudaFree(p_); }

    // Both finish before returning: the tests run scans on non-blocking streams, which do not
    // wait for the legacy default stream (cudaMemset is asynchronous there, and a pageable
    // cudaMemcpy may return before its DMA is done).
    void upload(const std::vector<T>& h) {
        cuda_ok(cudaMemcpy(p_, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice), "H2D");
        cuda_ok(cudaStreamSynchronize(cudaStreamLegacy), "sync");
    }
    std::vector<T> download() const {
        std::vector<T> h(n_);
        cuda_ok(cudaMemcpy(h.data(), p_, n_ * sizeof(T), cudaMemcpyDeviceToHost), "D2H");
        return h;
    }
    void poison() {
        cuda_ok(cudaMemset(p_, 0xA5, n_ * sizeof(T)), "cudaMemset");
        cuda_ok(cudaStreamSynchronize(cudaStreamLegacy), "sync");
    }
    T* data() const { return p_; }
    T* begin() const { return p_; }
    T* end() const { return p_ + n_; }
    std::size_t size() const { return n_; }

private:
    T* p_ = nullptr;
    std::size_t n_;
};

/// cudaMallocManaged memory for n values (uninitialized).
template <class T>
struct managed_buffer {
    T* p = nullptr;
    explicit managed_buffer(std::size_t n) {
        cuda_ok(cudaMallocManaged(reinterpret_cast<void**>(&p), (n ? n : 1) * sizeof(T)),
                "cudaMallocManaged");
    }
    ~managed_buffer() { cudaFree(p); }
    managed_buffer(const managed_buffer&) = delete;
    managed_buffer& operator=(const managed_buffer&) = delete;
};

/// Page-locked host memory (cudaMallocHost) for n values (uninitialized).
template <class T>
struct pinned_buffer {
    T* p = nullptr;
    explicit pinned_buffer(std::size_t n) {
        cuda_ok(cudaMallocHost(reinterpret_cast<void**>(&p), (n ? n : 1) * sizeof(T)),
                "cudaMallocHost");
    }
    ~pinned_buffer() { cudaFreeHost(p); }
    pinned_buffer(const pinned_buffer&) = delete;
    pinned_buffer& operator=(const pinned_buffer&) = delete;
};

// ---- value types beyond the built-in ones ------------------------------------------------------

/// 16 bytes: four 32-bit lanes, added lane by lane (wrapping).
struct vec4 {
    std::uint32_t v[4];
    friend __host__ __device__ vec4 operator+(const vec4& a, const vec4& b) {
        return vec4{{a.v[0] + b.v[0], a.v[1] + b.v[1], a.v[2] + b.v[2], a.v[3] + b.v[3]}};
    }
    friend __host__ __device__ bool operator==(const vec4& a, const vec4& b) {
        return a.v[0] == b.v[0] && a.v[1] == b.v[1] && a.v[2] == b.v[2] && a.v[3] == b.v[3];
    }
};

/// 24 bytes: three 64-bit lanes.
struct triple {
    std::int64_t a, b, c;
    friend __host__ __device__ triple operator+(const triple& x, const triple& y) {
        return triple{x.a + y.a, x.b + y.b, x.c + y.c};
    }
    friend __host__ __device__ bool operator==(const triple& x, const triple& y) {
        return x.a == y.a && x.b == y.b && x.c == y.c;
    }
};

/// 2x2 matrices of 32-bit integers modulo 2^32 under the matrix product: associative, not
/// commutative, 16 bytes.
struct mat2 {
    std::uint32_t a, b, c, d;
    friend __host__ __device__ bool operator==(const mat2& x, const mat2& y) {
        return x.a == y.a && x.b == y.b && x.c == y.c && x.d == y.d;
    }
};
struct mat2_product {
    __host__ __device__ mat2 operator()(const mat2& x, const mat2& y) const {
        return mat2{x.a * y.a + x.b * y.c, x.a * y.b + x.b * y.d, x.c * y.a + x.d * y.c,
                    x.c * y.b + x.d * y.d};
    }
};

/// Affine maps x -> m*x + k (mod 2^32), composed "first the left, then the right": associative,
/// not commutative, 8 bytes (the 128-bit status word).
struct affine {
    std::uint32_t m, k;
    friend __host__ __device__ bool operator==(const affine& x, const affine& y) {
        return x.m == y.m && x.k == y.k;
    }
};
struct affine_then {
    __host__ __device__ affine operator()(const affine& f, const affine& g) const {
        return affine{g.m * f.m, g.m * f.k + g.k};
    }
};

/// The same maps on 16-bit halves, packed in 4 bytes (the 64-bit status word).
struct affine16 {
    std::uint16_t m, k;
    friend __host__ __device__ bool operator==(const affine16& x, const affine16& y) {
        return x.m == y.m && x.k == y.k;
    }
};
struct affine16_then {
    __host__ __device__ affine16 operator()(const affine16& f, const affine16& g) const {
        return affine16{static_cast<std::uint16_t>(g.m * f.m),
                        static_cast<std::uint16_t>(g.m * f.k + g.k)};
    }
};

/// x + x: a transform that changes every value, for every type with operator+.
struct twice {
    template <class T>
    __host__ __device__ T operator()(const T& x) const {
        return static_cast<T>(x + x);
    }
};

/// Random values that keep every partial sum exact (floats: small integers) and never all zero.
template <class T>
std::vector<T> random_values(std::size_t n, std::mt19937_64& g) {
    std::vector<T> h(n);
    if constexpr (std::is_same_v<T, vec4>) {
        for (auto& x : h) x = vec4{{std::uint32_t(g()), std::uint32_t(g()), std::uint32_t(g()), std::uint32_t(g())}};
    } else if constexpr (std::is_same_v<T, triple>) {
        std::uniform_int_distribution<std::int64_t> d(-1000000, 1000000);
        for (auto& x : h) x = triple{d(g), d(g), d(g)};
    } else if constexpr (std::is_same_v<T, mat2>) {
        for (auto& x : h) x = mat2{std::uint32_t(g()), std::uint32_t(g()), std::uint32_t(g()), std::uint32_t(g())};
    } else if constexpr (std::is_same_v<T, affine>) {
        for (auto& x : h) x = affine{std::uint32_t(g()) | 1u, std::uint32_t(g())};
    } else if constexpr (std::is_same_v<T, affine16>) {
        for (auto& x : h) x = affine16{std::uint16_t(g() | 1u), std::uint16_t(g())};
    } else if constexpr (std::is_floating_point_v<T>) {
        // |partial sums of twice(x)| <= 4 n < 2^24 for n < 4M: every association is exact.
        std::uniform_int_distribution<int> d(-2, 2);
        for (auto& x : h) x = static_cast<T>(d(g));
    } else {
        // Small magnitudes: sums of up to a few million stay inside 32 bits; 8/16-bit types wrap
        // (well defined: the arithmetic is done in int and converted back).
        std::uniform_int_distribution<int> d(std::is_signed_v<T> ? -100 : 0, 100);
        for (auto& x : h) x = static_cast<T>(d(g));
    }
    return h;
}

template <class T>
T sample_init() {
    if constexpr (std::is_same_v<T, vec4>) return vec4{{1, 2, 3, 4}};
    else if constexpr (std::is_same_v<T, triple>) return triple{5, -6, 7};
    else if constexpr (std::is_same_v<T, mat2>) return mat2{3, 1, 4, 1};
    else if constexpr (std::is_same_v<T, affine>) return affine{5, 9};
    else if constexpr (std::is_same_v<T, affine16>) return affine16{3, 2};
    else return static_cast<T>(7);
}

/// The sizes that matter for a tile of `tile` items: around one tile, around the single-block
/// limit, many tiles, and a few million.
inline std::vector<std::int64_t> edge_sizes(std::int64_t tile) {
    const std::int64_t sb = tile * sweep::detail::cuda::single_block_max_tiles;
    return sweep_test::within_cap(
        {0, 1, 2, 31, tile - 1, tile, tile + 1, sb - 1, sb, sb + 1, 37 * tile + 11, 3'000'017});
}

template <class T>
std::int64_t tile_of() {
    return sweep::detail::cuda::default_scan_tuning<T>::tile_items;
}

/// Items of a tile of the shared-memory path (contiguous aligned data, sizeof(T) dividing 16).
template <class T>
std::int64_t bulk_tile_of() {
    return sweep::detail::cuda::default_scan_bulk_tuning<T>::tile_bytes /
           static_cast<std::int64_t>(sizeof(T));
}

/// Sizes at the edges of both tile geometries a scan of T can take (register tiles, and the
/// shared-memory tiles above the one-block size).
template <class T>
std::vector<std::int64_t> scan_edge_sizes() {
    std::vector<std::int64_t> v = edge_sizes(tile_of<T>());
    if (16 % sizeof(T) == 0) {
        const std::int64_t b = bulk_tile_of<T>();
        for (std::int64_t k : {5, 6, 64})
            for (std::int64_t d : {-1, 0, 1}) v.push_back(k * b + d);
    }
    return sweep_test::within_cap(v);
}

}  // namespace sweep_gpu_test
