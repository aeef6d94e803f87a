// sweep/detail/dispatch.hpp -- dispatch layer: the one place that looks at a policy.
//
// policy_traits<P> maps every accepted policy type (sweep's own, the standard ones, Thrust's) to
// a backend tag and to the sweep policy value it stands for. The public entry points call
// `detail::to_sweep(policy)` once and then overload the backend call on `backend_t<P>`.
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>

#include <sweep/detail/checks.hpp>
#include <sweep/detail/config.hpp>
#include <sweep/execution.hpp>
#include <sweep/detail/std_policies.hpp>

namespace sweep::detail {

struct seq_tag {};
struct par_tag {};
struct gpu_tag {};
struct automatic_tag {};

template <class P>
struct policy_traits {};  // not a policy: no `tag`

template <unsigned F>
struct policy_traits<seq_policy<F>> {
    using tag = seq_tag;
    static constexpr seq_policy<F> convert(const seq_policy<F>& p) noexcept { return p; }
};
template <unsigned F>
struct policy_traits<par_policy<F>> {
    using tag = par_tag;
    static constexpr par_policy<F> convert(const par_policy<F>& p) noexcept { return p; }
};
template <unsigned F, class R>
struct policy_traits<gpu_policy<F, R>> {
    using tag = gpu_tag;
    static constexpr gpu_policy<F, R> convert(const gpu_policy<F, R>& p) noexcept { return p; }
};
template <unsigned F, class R>
struct policy_traits<automatic_policy<F, R>> {
    using tag = automatic_tag;
    static constexpr automatic_policy<F, R> convert(const automatic_policy<F, R>& p) noexcept {
        return p;
    }
};

// std::execution::seq -> sweep::seq; par, par_unseq, unseq -> sweep::par.
template <>
struct policy_traits<std_policies::sequenced_policy> {
    using tag = seq_tag;
    static constexpr seq_policy<> convert(const std_policies::sequenced_policy&) noexcept {
        return {};
    }
};
template <>
struct policy_traits<std_policies::parallel_policy> {
    using tag = par_tag;
    static constexpr par_policy<> convert(const std_policies::parallel_policy&) noexcept {
        return {};
    }
};
template <>
struct policy_traits<std_policies::parallel_unsequenced_policy> {
    using tag = par_tag;
    static constexpr par_policy<> convert(
        const std_policies::parallel_unsequenced_policy&) noexcept {
        return {};
    }
};
#if SWEEP_STD_HAS_UNSEQ
template <>
struct policy_traits<std_policies::unsequenced_policy> {
    using tag = par_tag;
    static constexpr par_policy<> convert(const std_policies::unsequenced_policy&) noexcept {
        return {};
    }
};
#endif

}  // namespace sweep::detail

namespace sweep {

/// Anything sweep accepts in the policy position.
template <class P>
concept execution_policy =
    requires { typename detail::policy_traits<std::remove_cvref_t<P>>::tag; };

}  // namespace sweep

namespace sweep::detail {

template <class P>
using backend_t = typename policy_traits<std::remove_cvref_t<P>>::tag;

/// The sweep policy value a policy stands for.
template <class P>
constexpr auto to_sweep(const P& p) noexcept {
    return policy_traits<std::remove_cvref_t<P>>::convert(p);
}

template <class P>
using sweep_policy_t = decltype(to_sweep(std::declval<const P&>()));

template <class P>
inline constexpr bool is_gpu_v = std::is_same_v<backend_t<P>, gpu_tag>;

}  // namespace sweep::detail

namespace sweep::detail {

// ---- where the data lives (sweep::automatic) --------------------------------------------------
// Each iterator of a call is classified at compile time:
//   device   Thrust device iterators (device_ptr, device_vector iterators, fancy iterators over
//            them) of a CUDA device system: the call runs on the GPU, decided at compile time
//   host     every other iterator type (std::vector<T>::iterator, host_vector, custom ones)
//   pointer  raw pointers: where they point is asked of CUDA at run time (one
//            cudaPointerGetAttributes per call, on the first raw pointer of the call)
//   neutral  iterators with no memory of their own (Thrust's counting, constant and discard
//            iterators): they follow the others
// A call's residence is the strongest of its iterators' in the order device > host > pointer >
// neutral (all neutral: host). A host iterator with a raw pointer runs on the host: the pointer is
// then the caller's promise of host memory.
enum class residence : unsigned char { neutral = 0, pointer = 1, host = 2, device = 3 };

template <class It>
struct iterator_residence {
    static constexpr residence value = std::is_pointer_v<It> ? residence::pointer : residence::host;
};

}  // namespace sweep::detail

#if defined(THRUST_VERSION) || defined(SWEEP_THRUST_INTEROP)
#include <sweep/detail/thrust_policies.hpp>
#endif
#if defined(THRUST_VERSION) || defined(SWEEP_THRUST_INTEROP) || (defined(__CUDACC__) && SWEEP_HAS_CUDA)
#include <sweep/detail/thrust_residence.hpp>
#endif

#if SWEEP_HAS_CUDA
#include <sweep/backend/cuda/runtime.hpp>  // plain C++: the pointer query, stream waits
#endif

namespace sweep::detail {

/// Below this many elements, sweep::automatic runs host data on one thread (seq), from here on
/// all cores (par). Measured on the GPU machine's 16-core host (perf/cpu/bench_automatic.cpp,
/// docs/api.md): par wins from 256 (copy_if, scan_by_key), 512 (radix), 65536 (scan) and 92682
/// (stable_partition) elements; 2^15 loses at most 9% (scan) and 21% (stable_partition) there.
inline constexpr std::int64_t automatic_seq_below = std::int64_t{1} << 15;

/// From this many elements, sweep::automatic runs data in CUDA managed memory on the GPU; below,
/// on the host (seq or par by size). A small managed range is cheaper on the host: a GPU call
/// costs a launch and a stream synchronization (~10-20 us) plus, when the pages were last
/// touched by the CPU, their migration there and back, while the host reads them in place.
/// Measured (perf/gpu/bench_gpu_automatic.cu, docs/api.md): host-touched managed data is cheaper
/// on the host at every size, GPU-resident managed data 2-250x cheaper on the GPU; sweep cannot
/// tell them apart cheaply, and 2^20 keeps a wrong guess cheap on both sides.
inline constexpr std::int64_t automatic_managed_gpu_from = std::int64_t{1} << 20;

template <class It>
inline constexpr residence residence_v = iterator_residence<std::remove_cvref_t<It>>::value;

/// What sweep::automatic knows of a call's data: the residence of its iterators (compile time),
/// the first raw pointer among them (asked of CUDA at run time), and whether the GPU backend can
/// run this call in this translation unit (nvcc-compiled, or precompiled kernels that fit).
template <bool GpuCallable, residence R>
struct data_location {
    static constexpr bool gpu_callable = GpuCallable;
    static constexpr residence where = R;
    const char* name = "";
    const void* probe = nullptr;
};

template <class It>
constexpr const void* pointer_of(const It& it) noexcept {
    if constexpr (std::is_pointer_v<It> && !std::is_function_v<std::remove_pointer_t<It>>)
        return static_cast<const void*>(it);
    else return nullptr;
}

/// The location of a call over iterators `its` (inputs first: the first raw pointer is probed).
template <bool GpuCallable, class... Its>
constexpr auto locate(const char* name, const Its&... its) noexcept {
    constexpr residence r = [] {
        residence m = residence::neutral;
        ((m = residence_v<Its> > m ? residence_v<Its> : m), ...);
        return m;
    }();
    const void* probe = nullptr;
    ((probe = probe != nullptr ? probe : pointer_of(its)), ...);
    return data_location<GpuCallable, r>{name, probe};
}

/// No location known: host data (what the three-argument invoke_backend assumes).
using host_location = data_location<false, residence::host>;

template <unsigned F, class R>
constexpr gpu_policy<F, R> as_gpu(const automatic_policy<F, R>& p) noexcept {
    return gpu_policy<F, R>{p.stream, p.has_stream, p.resource};
}

/// Calls f(tag, sweep_policy) with the backend that will run the call. This is where policies
/// that decide late (sweep::automatic) decide, and where a missing backend is reported.
template <class P, bool G, residence R, class F>
decltype(auto) invoke_backend(const P& policy, std::int64_t n, const data_location<G, R>& where,
                              F&& f) {
    using tag = backend_t<P>;
    static_assert(!std::is_same_v<tag, gpu_tag> || SWEEP_HAS_CUDA,
                  "sweep::gpu: the GPU backend is not built. Configure sweep with a CUDA toolkit "
                  "and SWEEP_ENABLE_CUDA=ON, or use sweep::par / sweep::seq.");
    const auto p = to_sweep(policy);
    if constexpr (std::is_same_v<tag, automatic_tag>) {
        constexpr unsigned flags = std::remove_cvref_t<decltype(p)>::numerics;
        if constexpr (R == residence::device) {
            static_assert(SWEEP_HAS_CUDA || R != residence::device,
                          "sweep::automatic: these are Thrust device iterators, but the GPU "
                          "backend is not built (SWEEP_ENABLE_CUDA=ON and a CUDA toolkit).");
            static_assert(G || !SWEEP_HAS_CUDA,
                          "sweep::automatic: these are Thrust device iterators, but this call "
                          "cannot run on the GPU from this translation unit (not precompiled; "
                          "compile the call site with nvcc).");
            return f(gpu_tag{}, as_gpu(p));
        } else {
#if SWEEP_HAS_CUDA
            if constexpr (R == residence::pointer) {
                // Asked for n == 0 too: an offsets range of an empty input is still read.
                if (where.probe != nullptr) {
                    const cuda::memory_kind kind = cuda::memory_kind_of(where.probe);
                    const bool to_gpu = kind == cuda::memory_kind::device ||
                                        (kind == cuda::memory_kind::managed &&
                                         n >= automatic_managed_gpu_from);
                    if (to_gpu) {
                        if constexpr (G) {
                            return f(gpu_tag{}, as_gpu(p));
                        } else if (kind == cuda::memory_kind::device) {
                            throw_invalid_argument(
                                where.name,
                                "the data is in device memory (sweep::automatic), but this call "
                                "cannot run on the GPU from a translation unit not compiled by "
                                "nvcc (no precompiled kernels for its types, operator or "
                                "iterators). Compile the call site with nvcc.");
                        }
                    }
                    // Managed memory run on the host: the work the caller enqueued on the
                    // policy's stream comes first.
                    if (kind == cuda::memory_kind::managed && p.has_stream)
                        cuda::synchronize(p.stream, where.name);
                }
            }
#endif
            if (n < automatic_seq_below) return f(seq_tag{}, seq_policy<flags>{});
            if constexpr (SWEEP_HAS_TBB) {
                return f(par_tag{}, par_policy<flags>{p.max_threads});
            } else {
                return f(seq_tag{}, seq_policy<flags>{});
            }
        }
    } else if constexpr (std::is_same_v<tag, par_tag> && !SWEEP_HAS_TBB) {
        // Built without oneTBB: sweep::par keeps its meaning (same results) on one thread.
        (void)where;
        return f(seq_tag{}, seq_policy<std::remove_cvref_t<decltype(p)>::numerics>{});
    } else {
        (void)where;
        return f(tag{}, p);
    }
}

/// The same, for a call whose data is host data (no iterators given).
template <class P, class F>
decltype(auto) invoke_backend(const P& policy, std::int64_t n, F&& f) {
    return invoke_backend(policy, n, host_location{}, std::forward<F>(f));
}

}  // namespace sweep::detail
