// sweep/segmented_scan.hpp -- public layer: scans that restart at segment boundaries.
//
// Thrust-compatible by-key scans (a segment is a run of consecutive keys for which key_eq holds
// between neighbours), and scans over explicit segments: sweep::offsets(o_first, o_last) with
// k+1 nondecreasing offsets from 0 to n (empty segments allowed), or sweep::head_flags(f_first)
// where element i starts a segment when f[i] != 0 (element 0 always starts one).
// Every form reduces to one backend call over a segment description (detail/segments.hpp):
//     segmented_scan<Exclusive, Acc>(tag, policy, first, n, d_first, segments, op, init)
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <type_traits>
#include <vector>

#include <sweep/detail/canonical.hpp>
#include <sweep/detail/canonical_segmented.hpp>
#include <sweep/detail/checks.hpp>
#include <sweep/detail/compensated.hpp>
#include <sweep/detail/dispatch.hpp>
#include <sweep/detail/scan_common.hpp>
#include <sweep/detail/segments.hpp>
#include <sweep/functional.hpp>

#include <sweep/backend/seq/scan.hpp>
#include <sweep/backend/seq/segmented_scan.hpp>
#if SWEEP_HAS_TBB
#include <sweep/backend/tbb/scan.hpp>
#endif
#if SWEEP_HAS_CUDA
#include <sweep/backend/cuda/scan.hpp>
#endif
#if SWEEP_HAS_TBB && __has_include(<sweep/backend/tbb/segmented_scan.hpp>)
#include <sweep/backend/tbb/segmented_scan.hpp>
#endif
#if SWEEP_HAS_CUDA && __has_include(<sweep/backend/cuda/segmented_scan.hpp>)
#include <sweep/backend/cuda/segmented_scan.hpp>
#endif

namespace sweep {

/// Segments given as k+1 offsets: segment j is [o[j], o[j+1]).
template <class It>
struct offsets_t {
    It first;
    It last;
};
template <detail::random_access It>
constexpr offsets_t<It> offsets(It o_first, It o_last) {
    return {o_first, o_last};
}

/// Segments given as head flags: element i starts a segment when f[i] != 0.
template <class It>
struct head_flags_t {
    It first;
};
template <detail::random_access It>
constexpr head_flags_t<It> head_flags(It f_first) {
    return {f_first};
}

namespace detail {

/// Whether sweep::automatic may send this segmented scan to the GPU from this translation unit.
template <class P, class Acc, class In, class Out, class Segs, class Op>
constexpr bool segmented_on_gpu() {
#if SWEEP_HAS_CUDA && __has_include(<sweep/backend/cuda/segmented_scan.hpp>)
    return cuda::segmented_runs_here_v<sweep_policy_t<P>::numerics, Acc, In, Out, Segs, Op>;
#else
    return false;
#endif
}

/// The first iterator of a segment description (for sweep::automatic's look at the data).
template <class KeyIt, class KeyEq>
KeyIt segments_data(const key_heads<KeyIt, KeyEq>& s) {
    return s.keys;
}
template <class FlagIt>
FlagIt segments_data(const flag_heads<FlagIt>& s) {
    return s.flags;
}
template <class OffIt>
OffIt segments_data(const offset_segments<OffIt>& s) {
    return s.first;
}

#if SWEEP_HAS_CUDA
/// The sweep::gpu side of both canonical branches of segmented_run: the checks they share (no
/// known host iterator, at compile time; device memory, at run time; n == 0 touches nothing),
/// then f(values, segments) with Thrust pointers unwrapped. Instantiated only from a gpu_tag
/// branch, so its static_assert fires only where sweep::gpu is really called.
template <class In, class Out, class Segs, class F>
Out canonical_segmented_on_device(const char* name, In first, std::int64_t n, Out d_first,
                                  const Segs& segs, F&& f) {
    using seg_traits = cuda::segments_on_device<Segs>;
    static_assert(!cuda::is_known_host_iterator_v<In> && !seg_traits::host_iterator,
                  "sweep::gpu: this is a host container's iterator. sweep::gpu needs device "
                  "memory (values, output, keys and flags alike).");
    if (n == 0) return d_first;
    auto values = cuda::unwrap(first);
    cuda::require_device_pointer(values, name,
                                 "the input is not device or managed memory (sweep::gpu)");
    const auto dsegs = seg_traits::convert(segs, name);
    return f(values, dsegs);
}
#endif

/// The backend call of a segmented scan. `.deterministic()` inclusive by-key and head-flag scans
/// whose operator is not exact run as a plain canonical scan over (value, head) pairs
/// (detail/canonical_segmented.hpp), so that every backend gives the same bits.
template <bool Exclusive, class Acc, class P, class In, class Out, class Segs, class Op,
          class Init, class Where>
Out segmented_run(const char* name, const P& policy, const Where& where, In first, std::int64_t n,
                  Out d_first, const Segs& segs, Op op, Init init) {
    if constexpr (!Exclusive && !has_init_v<Init> && is_head_form_v<Segs> &&
                  use_canonical_v<sweep_policy_t<P>, Acc, Op> &&
                  std::is_trivially_copyable_v<Acc>) {
        using S = seg_pair<Acc>;
        return invoke_backend(policy, n, where, [&](auto tag, const auto& pol) {
#if SWEEP_HAS_CUDA
            if constexpr (std::is_same_v<decltype(tag), gpu_tag>) {
                return canonical_segmented_on_device(
                    name, first, n, d_first, segs, [&](auto values, const auto& dsegs) -> Out {
                        using L = seg_load<Acc, decltype(values),
                                           std::remove_cvref_t<decltype(dsegs)>>;
                        return scan<false, S>(tag, pol, name, index_iterator{0}, n, d_first,
                                              seg_op<Op, Acc>{op}, L{values, dsegs}, no_init{});
                    });
            } else
#endif
            {
                using L = seg_load<Acc, In, Segs>;
                return scan<false, S>(tag, pol, name, index_iterator{0}, n, d_first,
                                      seg_op<Op, Acc>{op}, L{first, segs}, no_init{});
            }
        });
    } else if constexpr (Exclusive && has_init_v<Init> && is_head_form_v<Segs> &&
                         use_canonical_v<sweep_policy_t<P>, Acc, Op> &&
                         std::is_trivially_copyable_v<Acc>) {
        using S = seg_pair<Acc>;
        constexpr std::int64_t T = canonical::geometry<S>::tile_items;
        const std::int64_t tiles = (n + T - 1) / T;
        const Acc init_value = static_cast<Acc>(init);
        return invoke_backend(policy, n, where, [&](auto tag, const auto& pol) {
            if constexpr (std::is_same_v<decltype(tag), gpu_tag>) {
#if SWEEP_HAS_CUDA && defined(__CUDACC__)
                return canonical_segmented_on_device(
                    name, first, n, d_first, segs, [&](auto values, const auto& dsegs) -> Out {
                        using D = std::remove_cvref_t<decltype(dsegs)>;
                        if constexpr (std::is_pointer_v<decltype(values)>) {
                            // The inputs before each tile, copied out first (in place: see
                            // seg_load_exclusive): one strided copy on the call's stream.
                            using V = std::remove_cv_t<std::remove_pointer_t<decltype(values)>>;
                            const stream_t s = pol.has_stream ? pol.stream : nullptr;
                            const std::size_t slots =
                                static_cast<std::size_t>(tiles > 1 ? tiles - 1 : 1);
                            const cuda::temp_buffer tb(cuda::make_temp_allocator(pol.resource),
                                                       slots * sizeof(V), s);
                            if (tiles > 1)
                                cuda::check(static_cast<int>(cudaMemcpy2DAsync(
                                                tb.get(), sizeof(V), values + (T - 1),
                                                T * sizeof(V), sizeof(V),
                                                static_cast<std::size_t>(tiles - 1),
                                                cudaMemcpyDeviceToDevice,
                                                static_cast<cudaStream_t>(s))),
                                            name, "cudaMemcpy2DAsync");
                            using L = seg_load_exclusive<Acc, decltype(values), D, const V*>;
                            return scan<false, S>(tag, pol, name, index_iterator{0}, n, d_first,
                                                  seg_op<Op, Acc>{op},
                                                  L{values, dsegs, init_value,
                                                    static_cast<const V*>(tb.get()), T},
                                                  no_init{});
                        } else {
                            using L = seg_load_exclusive<Acc, decltype(values), D, const Acc*>;
                            return scan<false, S>(tag, pol, name, index_iterator{0}, n, d_first,
                                                  seg_op<Op, Acc>{op},
                                                  L{values, dsegs, init_value, nullptr, T},
                                                  no_init{});
                        }
                    });
#else
                static_assert(dependent_false<decltype(tag)>,
                              "sweep::gpu.deterministic() exclusive segmented scans need the call "
                              "site compiled by nvcc (no precompiled kernels for them).");
                return d_first;
#endif
            } else {
                using V = std::remove_cvref_t<decltype(first[0])>;
                std::vector<V> boundary;
                boundary.reserve(static_cast<std::size_t>(tiles > 1 ? tiles - 1 : 0));
                for (std::int64_t t = 1; t < tiles; ++t) boundary.push_back(first[t * T - 1]);
                using L = seg_load_exclusive<Acc, In, Segs, const V*>;
                return scan<false, S>(tag, pol, name, index_iterator{0}, n, d_first,
                                      seg_op<Op, Acc>{op},
                                      L{first, segs, init_value, boundary.data(), T}, no_init{});
            }
        });
    } else if constexpr (Exclusive == has_init_v<Init> && is_offsets_form_v<Segs> &&
                         use_canonical_v<sweep_policy_t<P>, Acc, Op> &&
                         std::is_trivially_copyable_v<Acc>) {
        // .deterministic() over offsets: head flags from the offsets (validated first: invalid
        // offsets throw before any output is written), then the head-flag form above, so that
        // the bits are the canonical pair scan's on every policy.
        return invoke_backend(policy, n, where, [&](auto tag, const auto& pol) -> Out {
            if constexpr (std::is_same_v<decltype(tag), gpu_tag>) {
#if SWEEP_HAS_CUDA && defined(__CUDACC__)
                using seg_traits = cuda::segments_on_device<Segs>;
                static_assert(std::is_same_v<decltype(tag), gpu_tag> &&  // dependent: here only
                                  !cuda::is_known_host_iterator_v<In> && !seg_traits::host_iterator,
                              "sweep::gpu: this is a host container's iterator. sweep::gpu needs "
                              "device memory (values, output and offsets alike).");
                const auto dsegs = seg_traits::convert(segs, name);
                if (n > 0) {  // before the offsets' kernels: host memory is reported as such
                    cuda::require_device_pointer(cuda::unwrap(first), name,
                                                 "the input is not device or managed memory (sweep::gpu)");
                    cuda::require_device_pointer(cuda::unwrap(d_first), name,
                                                 "the output is not device or managed memory (sweep::gpu)");
                }
                const std::int64_t count = static_cast<std::int64_t>(dsegs.last - dsegs.first);
                if (count < 0) throw_invalid_argument(name, "offsets: o_last < o_first");
                if (count == 0) {
                    if (n != 0) throw_invalid_argument(name, "offsets: empty, but the input is not");
                    return d_first;
                }
                const stream_t s = pol.has_stream ? pol.stream : nullptr;
                const cuda::temp_buffer tb(cuda::make_temp_allocator(pol.resource),
                                           16 + static_cast<std::size_t>(n > 0 ? n : 1), s);
                auto* word = static_cast<unsigned*>(tb.get());
                auto* flags = static_cast<unsigned char*>(tb.get()) + 16;
                cuda::offsets_to_head_flags(dsegs, n, flags, word, s, name);  // n == 0 too: o must be {0}
                if (n == 0) return d_first;
                const flag_heads<const unsigned char*> heads{flags};
                return segmented_run<Exclusive, Acc>(name, pol, where, first, n, d_first, heads,
                                                     op, init);
#else
                static_assert(dependent_false<decltype(tag)>,
                              "sweep::gpu.deterministic() segmented scans over offsets need the "
                              "call site compiled by nvcc (no precompiled kernels for them).");
                return d_first;
#endif
            } else {
                // Validated first: nothing is written for invalid offsets.
                std::unique_ptr<unsigned char[]> flags;
#if SWEEP_HAS_TBB && __has_include(<sweep/backend/tbb/segmented_scan.hpp>)
                if constexpr (std::is_same_v<decltype(tag), par_tag>)
                    flags = tbb_backend::offsets_head_flags_par(name, segs.first, segs.last, n,
                                                                pol.max_threads);
                else
#endif
                    flags = offsets_head_flags(name, segs.first, segs.last, n);
                if (n == 0) return d_first;
                const flag_heads<const unsigned char*> heads{flags.get()};
                return segmented_run<Exclusive, Acc>(name, pol, where, first, n, d_first, heads,
                                                     op, init);
            }
        });
    } else {
        return invoke_backend(policy, n, where, [&](auto tag, const auto& pol) {
            return segmented_scan<Exclusive, Acc>(tag, pol, name, first, n, d_first, segs, op,
                                                  init);
        });
    }
}

template <bool Exclusive, class Acc, class P, class In, class Out, class Segs, class Op,
          class Init>
Out segmented_entry(const char* name, const P& policy, In first, std::int64_t n, Out d_first,
                    const Segs& segs, Op op, Init init) {
    if constexpr ((sweep_policy_t<P>::numerics & numerics_compensated) != 0) {
        // .compensated(): the same segmented scan over (sum, carry) pairs; a value x enters as
        // (x, 0) by comp_sum's converting constructor, each output is its pair rounded once.
        static_assert(is_compensable_v<Acc> && is_builtin_plus_v<Op, Acc>,
                      "sweep: .compensated() applies to sum scans over float or double only: the "
                      "accumulator (the value type, or the type of init) must be float or double "
                      "and the operator sweep::plus or std::plus. Drop .compensated() for other "
                      "operators or types.");
        using C = comp_sum<Acc>;
        const auto where = locate<segmented_on_gpu<P, C, In, Out, Segs, comp_plus<Acc>>()>(
            name, first, d_first, segments_data(segs));
        if constexpr (has_init_v<Init>) {
            return segmented_run<Exclusive, C>(name, policy, where, first, n, d_first, segs,
                                               comp_plus<Acc>{}, C(static_cast<Acc>(init)));
        } else {
            return segmented_run<Exclusive, C>(name, policy, where, first, n, d_first, segs,
                                               comp_plus<Acc>{}, init);
        }
    } else {
        const auto where = locate<segmented_on_gpu<P, Acc, In, Out, Segs, Op>()>(
            name, first, d_first, segments_data(segs));
        return segmented_run<Exclusive, Acc>(name, policy, where, first, n, d_first, segs, op,
                                             init);
    }
}

template <class It>
auto make_segments(const offsets_t<It>& o) {
    return offset_segments<It>{o.first, o.last};
}
template <class It>
auto make_segments(const head_flags_t<It>& f) {
    return flag_heads<It>{f.first};
}

}  // namespace detail

// ---- by key (Thrust-compatible) ---------------------------------------------------------------

namespace algo {
/// sweep::inclusive_scan_by_key, a function object: argument-dependent lookup never finds it, so other
/// libraries' unqualified calls with sweep functors stay theirs (docs/architecture.md).
struct inclusive_scan_by_key_fn {
    template <execution_policy P, detail::random_access KeyIt, detail::random_access ValIt, class Out,
              class KeyEq, class Op>
    Out operator()(P&& policy, KeyIt keys_first, KeyIt keys_last, ValIt values_first,
                              Out d_first, KeyEq key_eq, Op op) const {
        const std::int64_t n = detail::checked_distance("inclusive_scan_by_key", keys_first, keys_last);
        return detail::segmented_entry<false, detail::value_t<ValIt>>(
            "inclusive_scan_by_key", policy, values_first, n, d_first,
            detail::key_heads<KeyIt, KeyEq>{keys_first, key_eq}, op, detail::no_init{});
    }

    template <execution_policy P, detail::random_access KeyIt, detail::random_access ValIt, class Out,
              class KeyEq>
    Out operator()(P&& policy, KeyIt keys_first, KeyIt keys_last, ValIt values_first,
                              Out d_first, KeyEq key_eq) const {
        return (*this)(policy, keys_first, keys_last, values_first, d_first,
                                            key_eq, plus<>{});
    }

    template <execution_policy P, detail::random_access KeyIt, detail::random_access ValIt, class Out>
    Out operator()(P&& policy, KeyIt keys_first, KeyIt keys_last, ValIt values_first,
                              Out d_first) const {
        return (*this)(policy, keys_first, keys_last, values_first, d_first,
                                            std::equal_to<>{}, plus<>{});
    }
};
}  // namespace algo
inline constexpr algo::inclusive_scan_by_key_fn inclusive_scan_by_key{};

namespace algo {
/// sweep::exclusive_scan_by_key, a function object: argument-dependent lookup never finds it, so other
/// libraries' unqualified calls with sweep functors stay theirs (docs/architecture.md).
struct exclusive_scan_by_key_fn {
    template <execution_policy P, detail::random_access KeyIt, detail::random_access ValIt, class Out,
              class T, class KeyEq, class Op>
    Out operator()(P&& policy, KeyIt keys_first, KeyIt keys_last, ValIt values_first,
                              Out d_first, T init, KeyEq key_eq, Op op) const {
        const std::int64_t n = detail::checked_distance("exclusive_scan_by_key", keys_first, keys_last);
        return detail::segmented_entry<true, T>(
            "exclusive_scan_by_key", policy, values_first, n, d_first,
            detail::key_heads<KeyIt, KeyEq>{keys_first, key_eq}, op, init);
    }

    template <execution_policy P, detail::random_access KeyIt, detail::random_access ValIt, class Out,
              class T, class KeyEq>
    Out operator()(P&& policy, KeyIt keys_first, KeyIt keys_last, ValIt values_first,
                              Out d_first, T init, KeyEq key_eq) const {
        return (*this)(policy, keys_first, keys_last, values_first, d_first, init,
                                            key_eq, plus<>{});
    }

    template <execution_policy P, detail::random_access KeyIt, detail::random_access ValIt, class Out,
              class T>
    Out operator()(P&& policy, KeyIt keys_first, KeyIt keys_last, ValIt values_first,
                              Out d_first, T init) const {
        return (*this)(policy, keys_first, keys_last, values_first, d_first, init,
                                            std::equal_to<>{}, plus<>{});
    }

    template <execution_policy P, detail::random_access KeyIt, detail::random_access ValIt, class Out>
    Out operator()(P&& policy, KeyIt keys_first, KeyIt keys_last, ValIt values_first,
                              Out d_first) const {
        return (*this)(policy, keys_first, keys_last, values_first, d_first,
                                            detail::value_t<ValIt>{}, std::equal_to<>{}, plus<>{});
    }
};
}  // namespace algo
inline constexpr algo::exclusive_scan_by_key_fn exclusive_scan_by_key{};

// ---- explicit segments -------------------------------------------------------------------------

namespace algo {
/// sweep::segmented_inclusive_scan, a function object: argument-dependent lookup never finds it, so other
/// libraries' unqualified calls with sweep functors stay theirs (docs/architecture.md).
struct segmented_inclusive_scan_fn {
    template <execution_policy P, detail::random_access In, class Out, class Segments, class Op>
    Out operator()(P&& policy, In first, In last, Out d_first, const Segments& segments,
                                 Op op) const {
        const std::int64_t n = detail::checked_distance("segmented_inclusive_scan", first, last);
        return detail::segmented_entry<false, detail::value_t<In>>(
            "segmented_inclusive_scan", policy, first, n, d_first, detail::make_segments(segments), op,
            detail::no_init{});
    }

    template <execution_policy P, detail::random_access In, class Out, class Segments>
    Out operator()(P&& policy, In first, In last, Out d_first, const Segments& segments) const {
        return (*this)(policy, first, last, d_first, segments, plus<>{});
    }
};
}  // namespace algo
inline constexpr algo::segmented_inclusive_scan_fn segmented_inclusive_scan{};

namespace algo {
/// sweep::segmented_exclusive_scan, a function object: argument-dependent lookup never finds it, so other
/// libraries' unqualified calls with sweep functors stay theirs (docs/architecture.md).
struct segmented_exclusive_scan_fn {
    template <execution_policy P, detail::random_access In, class Out, class Segments, class T,
              class Op>
    Out operator()(P&& policy, In first, In last, Out d_first, const Segments& segments,
                                 T init, Op op) const {
        const std::int64_t n = detail::checked_distance("segmented_exclusive_scan", first, last);
        return detail::segmented_entry<true, T>("segmented_exclusive_scan", policy, first, n, d_first,
                                                detail::make_segments(segments), op, init);
    }

    template <execution_policy P, detail::random_access In, class Out, class Segments, class T>
    Out operator()(P&& policy, In first, In last, Out d_first, const Segments& segments,
                                 T init) const {
        return (*this)(policy, first, last, d_first, segments, init, plus<>{});
    }
};
}  // namespace algo
inline constexpr algo::segmented_exclusive_scan_fn segmented_exclusive_scan{};

}  // namespace sweep
