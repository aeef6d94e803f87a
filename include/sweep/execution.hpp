// sweep/execution.hpp -- public layer: the execution policies.
//
// A policy is a small value type. Modifiers return a new value and chain:
//   sweep::gpu.on(stream).with(pool), sweep::par.threads(4).
// The policy says *where* a call runs; include/sweep/detail/dispatch.hpp is the one place that
// turns it into a backend tag. Standard and Thrust policies are mapped there too.
#pragma once

#include <cstddef>
#include <type_traits>

// The CUDA stream handle, named without the CUDA headers so that CPU-only builds see the same
// policy types. cudaStream_t is `struct CUstream_st*`, so the two are the same type.
struct CUstream_st;

namespace sweep {

using stream_t = CUstream_st*;

namespace detail {
// Numerics flags carried in a policy's type, set by .deterministic() and .compensated() (flags
// combine: both may be set). In the type, so that the backends choose their code at compile time.
// docs/numerics.md says what each mode guarantees.
inline constexpr unsigned numerics_plain = 0;
inline constexpr unsigned numerics_deterministic = 1;
inline constexpr unsigned numerics_compensated = 2;
}  // namespace detail

/// Temporary device memory from the library's stream-ordered pool (cudaMallocAsync).
struct default_resource {};

/// One host thread: the reference semantics, and the oracle of every other backend.
template <unsigned Flags = detail::numerics_plain>
struct seq_policy {
    static constexpr unsigned numerics = Flags;

    /// Results are a pure function of the inputs, bitwise equal on every policy (docs/numerics.md).
    [[nodiscard]] constexpr seq_policy<Flags | detail::numerics_deterministic> deterministic()
        const noexcept {
        return {};
    }
    /// float/double sum scans accumulate compensated (sum, carry) pairs (docs/numerics.md).
    [[nodiscard]] constexpr seq_policy<Flags | detail::numerics_compensated> compensated()
        const noexcept {
        return {};
    }
};

/// All host cores, on oneTBB. `.threads(k)` caps the worker count (0: no cap).
template <unsigned Flags = detail::numerics_plain>
struct par_policy {
    static constexpr unsigned numerics = Flags;
    int max_threads = 0;

    [[nodiscard]] constexpr par_policy threads(int k) const noexcept {
        par_policy p = *this;
        p.max_threads = k > 0 ? k : 0;
        return p;
    }

    [[nodiscard]] constexpr par_policy<Flags | detail::numerics_deterministic> deterministic()
        const noexcept {
        return {max_threads};
    }
    [[nodiscard]] constexpr par_policy<Flags | detail::numerics_compensated> compensated()
        const noexcept {
        return {max_threads};
    }
};

/// The current CUDA device, through sweep's decoupled look-back engine.
/// `.on(s)`: run on stream `s`, asynchronously where API.md allows.
/// `.with(r)`: take temporaries from `r` (held by reference: `r` must outlive the call).
template <unsigned Flags = detail::numerics_plain, class Resource = default_resource>
struct gpu_policy {
    static constexpr unsigned numerics = Flags;
    using resource_type = Resource;

    stream_t stream = nullptr;
    bool has_stream = false;          // false: synchronous on the default stream
    Resource* resource = nullptr;     // null for default_resource

    [[nodiscard]] constexpr gpu_policy on(stream_t s) const noexcept {
        gpu_policy p = *this;
        p.stream = s;
        p.has_stream = true;
        return p;
    }

    template <class R>
    [[nodiscard]] constexpr gpu_policy<Flags, R> with(R& r) const noexcept {
        return gpu_policy<Flags, R>{stream, has_stream, &r};
    }

    [[nodiscard]] constexpr gpu_policy<Flags | detail::numerics_deterministic, Resource>
    deterministic() const noexcept {
        return {stream, has_stream, resource};
    }
    [[nodiscard]] constexpr gpu_policy<Flags | detail::numerics_compensated, Resource>
    compensated() const noexcept {
        return {stream, has_stream, resource};
    }
};

/// Decides per call: device or managed data -> gpu; small host inputs -> seq; else par.
template <unsigned Flags = detail::numerics_plain, class Resource = default_resource>
struct automatic_policy {
    static constexpr unsigned numerics = Flags;
    using resource_type = Resource;

    stream_t stream = nullptr;
    bool has_stream = false;
    Resource* resource = nullptr;
    int max_threads = 0;

    [[nodiscard]] constexpr automatic_policy on(stream_t s) const noexcept {
        automatic_policy p = *this;
        p.stream = s;
        p.has_stream = true;
        return p;
    }

    template <class R>
    [[nodiscard]] constexpr automatic_policy<Flags, R> with(R& r) const noexcept {
        return automatic_policy<Flags, R>{stream, has_stream, &r, max_threads};
    }

    [[nodiscard]] constexpr automatic_policy threads(int k) const noexcept {
        automatic_policy p = *this;
        p.max_threads = k > 0 ? k : 0;
        return p;
    }

    [[nodiscard]] constexpr automatic_policy<Flags | detail::numerics_deterministic, Resource>
    deterministic() const noexcept {
        return {stream, has_stream, resource, max_threads};
    }
    [[nodiscard]] constexpr automatic_policy<Flags | detail::numerics_compensated, Resource>
    compensated() const noexcept {
        return {stream, has_stream, resource, max_threads};
    }
};

inline constexpr seq_policy<> seq{};
inline constexpr par_policy<> par{};
inline constexpr gpu_policy<> gpu{};
inline constexpr automatic_policy<> automatic{};

}  // namespace sweep
