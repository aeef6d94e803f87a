// sweep/backend/cuda/dispatch/segmented_scan.cuh -- GPU backend, host side of the segmented scans:
// validates offsets (and indexes them by tile), sizes the temporary storage, resets the tile
// states and launches, as the scan does (dispatch/scan.cuh). No algorithm logic here.
//
// Offsets: bits of a word in temporary memory say what is wrong with them, and the word comes
// back to the host, which throws std::invalid_argument; so the offsets form waits for that
// verdict before it returns, even with .on(s). In place (and for one-block sizes) a validation
// kernel reads every offset first and the scan kernels, if the word is set, write nothing; out
// of place the scan's tiles check the offsets they read anyway, and the tile index kernel only
// the first and the last (docs/segmented_scan.md).
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>

#include <cuda_runtime.h>

#include <sweep/backend/cuda/dispatch/scan.cuh>  // reset_tile_states_kernel, launch_after_reset
#include <sweep/backend/cuda/kernels/segmented_scan_kernels.cuh>
#include <sweep/backend/cuda/lookback/tile_state.cuh>
#include <sweep/backend/cuda/runtime.hpp>
#include <sweep/backend/cuda/segmented_precompiled.hpp>  // is_offset_segments_v
#include <sweep/backend/cuda/tuning/scan_tuning.cuh>
#include <sweep/backend/cuda/tuning/segmented_tuning.cuh>
#include <sweep/detail/checks.hpp>
#include <sweep/detail/segments.hpp>

namespace sweep::detail::cuda {

/// Bytes of each leading slot of the temporary storage (validation word, ticket): one 128-byte
/// line each, so that the ticket's atomics do not contend with the status polls.
inline constexpr std::size_t segmented_slot_bytes = 128;

/// Whether `segs` is an offsets description (the precompiled kernels' segment type decides at run
/// time: src/cuda/segmented_builtin_impl.cuh overloads these two for it).
template <class Segs>
bool segments_are_offsets(const Segs&) {
    return is_offset_segments_v<Segs>;
}
template <class Segs>
std::int64_t offsets_count(const Segs& segs) {  // k + 1 for offsets, else 0
    if constexpr (is_offset_segments_v<Segs>) return static_cast<std::int64_t>(segs.last - segs.first);
    else return 0;
}

/// Enqueues the validation of k + 1 >= 1 offsets against n (bits into *invalid) and, if `index`
/// is not null, the tile index of tiles of `tile_items` (tiles + 1 entries: kernels/
/// segmented_scan_kernels.cuh).
/// `full`: check every offset (else only the first and the last: the scan's tiles check the
/// rest, validate_offsets_kernel).
template <class OffIt>
void launch_validate_offsets(const offset_segments<OffIt>& segs, std::int64_t n,
                             unsigned* invalid, std::int64_t* index, std::int64_t tiles,
                             std::int64_t tile_items, bool full, stream_t s, const char* name) {
    const auto count = static_cast<std::int64_t>(segs.last - segs.first);
    constexpr int threads = 256;
    const std::int64_t bounds = tiles + 1;  // boundaries to search, a group of lanes each
    const int group = index == nullptr ? 1 : index_search_group(bounds);
    const std::int64_t searchers = index == nullptr ? 0 : bounds * group;
    const std::int64_t work = full && count > searchers ? count : searchers;
    const std::int64_t want = (work + threads - 1) / threads;
    const auto blocks = static_cast<unsigned>(want < 4096 ? (want > 0 ? want : 1) : 4096);
    auto launch = [&](auto kernel) {
        kernel<<<blocks, threads, 0, s>>>(segs.first, count, n, invalid, index, tiles, tile_items,
                                          full);
    };
    switch (group) {
        case 32: launch(validate_offsets_kernel<32, OffIt>); break;
        case 16: launch(validate_offsets_kernel<16, OffIt>); break;
        case 8: launch(validate_offsets_kernel<8, OffIt>); break;
        case 4: launch(validate_offsets_kernel<4, OffIt>); break;
        case 2: launch(validate_offsets_kernel<2, OffIt>); break;
        default: launch(validate_offsets_kernel<1, OffIt>); break;
    }
    check_launch(name);
}
template <class Segs>
void launch_validate_offsets(const Segs&, std::int64_t, unsigned*, std::int64_t*, std::int64_t,
                             std::int64_t, bool, stream_t, const char*) {}

/// Element o[j] starts a segment, for j < count - 1 (the last offset is n): flags[o[j]] = 1.
/// Offsets outside [0, n) are skipped: n itself starts an empty segment at the end (valid);
/// anything else out of range is invalid, and the validation reports it.
template <class OffIt>
__global__ void mark_segment_heads_kernel(OffIt o, std::int64_t count, std::int64_t n,
                                          unsigned char* flags) {
    const std::int64_t stride = std::int64_t{gridDim.x} * blockDim.x;
    for (std::int64_t j = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x; j + 1 < count;
         j += stride) {
        const auto v = static_cast<std::int64_t>(o[j]);
        if (v >= 0 && v < n) flags[v] = 1;
    }
}

/// The deterministic offsets form's head flags (detail/canonical_segmented.hpp: the pair scan
/// reads heads, not offsets): validates the k + 1 >= 1 offsets against n >= 0 and writes the n
/// flags, on `s`, then waits for `s` and throws std::invalid_argument for invalid offsets before
/// any output is written. `word`: one unsigned of device memory.
template <class OffIt>
void offsets_to_head_flags(const offset_segments<OffIt>& segs, std::int64_t n, unsigned char* flags,
                           unsigned* word, stream_t s, const char* name) {
    const auto cs = static_cast<cudaStream_t>(s);
    check(static_cast<int>(cudaMemsetAsync(word, 0, sizeof(unsigned), cs)), name, "cudaMemsetAsync");
    check(static_cast<int>(cudaMemsetAsync(flags, 0, static_cast<std::size_t>(n), cs)), name,
          "cudaMemsetAsync");
    launch_validate_offsets(segs, n, word, nullptr, 0, 1, true, s, name);
    const auto count = static_cast<std::int64_t>(segs.last - segs.first);
    constexpr int threads = 256;
    const std::int64_t want = (count + threads - 1) / threads;
    const auto blocks = static_cast<unsigned>(want < 4096 ? (want > 0 ? want : 1) : 4096);
    mark_segment_heads_kernel<<<blocks, threads, 0, cs>>>(segs.first, count, n, flags);
    check_launch(name);
    unsigned bad = 0;
    check(static_cast<int>(cudaMemcpyAsync(&bad, word, sizeof bad, cudaMemcpyDeviceToHost, cs)),
          name, "cudaMemcpyAsync");
    synchronize(s, name);
    if (bad & offsets_first_not_zero) throw_invalid_argument(name, "offsets: o[0] != 0");
    if (bad & offsets_decreasing) throw_invalid_argument(name, "offsets: not nondecreasing");
    if (bad & offsets_last_not_n) throw_invalid_argument(name, "offsets: o[k] != n");
}

/// Whether the output may share storage with the input: the same pointer (a scan in place);
/// anything but two raw pointers counts as maybe (a fancy input may read the output's memory).
template <class In, class Out>
bool may_share_storage(In in, Out out) {
    if constexpr (std::is_pointer_v<In> && std::is_pointer_v<Out>)
        return static_cast<const void*>(in) == static_cast<const void*>(out);
    else return true;
}

template <class T>
bool aligned16(T it) {
    if constexpr (std::is_pointer_v<T>) return reinterpret_cast<std::uintptr_t>(it) % 16 == 0;
    else return false;
}

/// Scans n >= 0 values (n == 0 only validates offsets) in segments `segs` (key_heads,
/// flag_heads or offset_segments over device iterators; offsets with at least one entry).
/// Enqueues on `s`; the offsets form synchronizes `s` and throws for invalid offsets.
///
/// By key and head flags past four tiles: the look-back states of lookback_storage (the stream's
/// clean arena, or temporary memory and a reset). Otherwise (the offsets form, and small inputs)
/// temporary storage, one allocation (std::bad_alloc before anything is enqueued):
///   [validation word | ticket | status words]  reset by one reset_tile_states_kernel
///   [value slots | tile index]                  written before they are read, no reset
/// each part only when this call needs it. Order on `s`: the reset, the validation (offsets),
/// then the scan kernel as a programmatic dependent launch (launch_after_reset: its blocks are
/// scheduled while the kernel before it runs, and wait for it to finish before they read).
template <class Tuning, bool Ordered, class Acc, class In, class Out, class Op, class Segs>
void launch_segmented_scan(const char* name, In in, Out out, std::int64_t n, Op op,
                           const Segs& segs, const reg_array<Acc, 1>& init, bool exclusive,
                           bool has_init, bool heads_aligned, stream_t s,
                           const temp_allocator& alloc) {
    using agent = segmented_scan_agent<Tuning, Acc, In, Out, Op, Segs>;
    using state_t = lookback::tile_state<Acc>;
    const bool offsets = segments_are_offsets(segs);  // a run-time form for the precompiled kernels

    const std::int64_t tiles = (n + agent::tile_items - 1) / agent::tile_items;
    if (tiles > std::numeric_limits<int>::max())
        throw_invalid_argument(name, "input too large for one launch (more than 2^31 tiles)");
    const bool lookback = tiles > single_block_max_tiles;
    const bool indexed = agent::block_heads && offsets && n > 0;  // block heads: the tile index

    segmented_mode mode;
    mode.exclusive = exclusive;
    mode.has_init = has_init;
    mode.in_aligned = aligned16(in);
    mode.out_aligned = aligned16(out);
    mode.heads_aligned = heads_aligned;

    if (lookback && !offsets) {
        // By key and by head flags: a plain look-back's states (ticket, status words, value
        // slots), from the stream's clean arena when it serves (no allocation, no reset, a plain
        // launch; the blocks zero the half the previous launch used), else temporary memory reset
        // by a kernel that this launch follows (lookback_storage, dispatch/scan.cuh).
        lookback_storage<Acc> st(name, tiles, s, alloc);
        static_assert(std::is_same_v<typename lookback_storage<Acc>::state_t, state_t>);
        const typename agent::params p{in,   out,  n,       op,      segs,   init,
                                       mode, nullptr, nullptr, nullptr, nullptr};
        launch_lookback(name, st.after_reset, segmented_lookback_kernel<agent, Ordered, state_t>,
                        static_cast<unsigned>(tiles), agent::threads, 0, s, p, st.state, st.ticket,
                        st.cleanup);
        st.launched();
        return;
    }

    auto round16 = [](std::size_t b) { return (b + 15) / 16 * 16; };
    // Dense offsets (segments of 16 elements or fewer on average) past the one-block sizes, out
    // of place: checked by the scan's tiles as they read them (each offset read once, as the
    // by-key form reads its keys), the index kernel checking only the first and the last;
    // invalid ones still throw, but the output may have been written, and the verdict comes
    // only once the last tile has started. Otherwise (and in place, or maybe in place):
    // checked by a kernel of their own before the scan, which then writes nothing (a call that
    // throws leaves its input unchanged) and whose verdict comes early; its read is a small
    // fraction of the scan's for sparse offsets, and for dense ones as large as the values'.
    // int32 values, one-element segments, against the by-key form: checked first 1.56x (H100,
    // 2^24, session 9) and 1.71x (H200, 2^28); checked in the scan 1.14x and 1.02x (H100, 2^24
    // and 2^28, session 10). Checking sparse offsets in the scan too cost segments of 100 and
    // more 5-15% at 2^24 (the late verdict), hence the density rule.
    const bool checked_in_scan = lookback && offsets && dense_offsets(offsets_count(segs), n) &&
                                 !may_share_storage(in, out);
    const std::size_t word = offsets ? segmented_slot_bytes : 0;
    const std::size_t ticket = lookback ? segmented_slot_bytes : 0;
    const std::size_t status = lookback ? state_t::status_bytes(tiles) : 0;
    const std::size_t reset = round16(word + ticket + status);
    const std::size_t values = round16(lookback ? state_t::value_bytes(tiles) : 0);
    const std::size_t index_bytes =
        indexed ? static_cast<std::size_t>(tiles + 1) * sizeof(std::int64_t) : 0;
    // The offsets form past four tiles takes the stream's clean arena when all of it fits a half
    // (its word and states must start zero, as the clean half is; the index is written before it
    // is read): no allocation, no reset kernel; the scan kernel zeroes the other half.
    // Whole 16-byte vectors: the next launch zeroes what this one leased in vectors, so a lease
    // must cover every byte written (the index alone may end half-way through a vector).
    const std::size_t arena_bytes = round16(reset + values + index_bytes);
    arena_lease lease(lookback && offsets && alloc.self == nullptr
                          ? arena_lease(s, arena_bytes)
                          : arena_lease());
    const bool in_arena = lease.states() != nullptr;
    const lookback::arena_cleanup cleanup = in_arena ? cleanup_of(lease) : lookback::arena_cleanup{};
    temp_buffer temp(alloc, in_arena ? 0 : reset + values + index_bytes, s);  // bad_alloc first
    auto* base = static_cast<unsigned char*>(in_arena ? lease.states() : temp.get());
    // If the validation is enqueued but the scan kernel is not (a launch that throws), the clean
    // half is clean no more: zero it again on the stream before the lease lets go of it, or, if
    // even that fails, retire the arena (its stream takes temporary memory from then on).
    struct rezero_on_failure {
        arena_lease& lease;
        void* p;
        std::size_t bytes;
        stream_t s;
        bool armed;
        ~rezero_on_failure() {
            if (armed && cudaMemsetAsync(p, 0, bytes, static_cast<cudaStream_t>(s)) != cudaSuccess) {
                (void)cudaGetLastError();
                lease.retire();
            }
        }
    } rezero{lease, base, arena_bytes, s, in_arena};

    // The one reset per call (decision 0001): validation word, ticket and status words.
    if (reset != 0 && !in_arena) {
        const std::size_t vectors = reset / 16;
        constexpr unsigned threads = 256;
        reset_tile_states_kernel<><<<static_cast<unsigned>((vectors + threads - 1) / threads),
                                     threads, 0, s>>>(reinterpret_cast<uint4*>(base), vectors);
        check_launch(name);
    }
    unsigned* invalid = offsets ? reinterpret_cast<unsigned*>(base) : nullptr;
    auto* index = indexed ? reinterpret_cast<std::int64_t*>(base + reset + values) : nullptr;
    // The tiles' count (checked in the scan): in the word's slot, zero with it.
    unsigned* const checked =
        checked_in_scan ? reinterpret_cast<unsigned*>(base + segmented_slot_bytes / 2) : nullptr;
    if (offsets)
        launch_validate_offsets(segs, n, invalid, index, tiles, agent::tile_items,
                                !checked_in_scan, s, name);
    // The verdict comes back through this thread's mapped host word (compaction's count slot),
    // written by the scan kernel: no copy on the stream. Without a scan kernel (n == 0) or a slot,
    // a copy.
    std::int64_t* const verdict = offsets && n > 0 ? mapped_count_slot() : nullptr;
    constexpr std::int64_t no_verdict = -1;  // never a verdict (a few flag bits)
    if (verdict != nullptr) *static_cast<volatile std::int64_t*>(verdict) = no_verdict;

    if (n > 0) {
        const typename agent::params p{in,   out,   n,       op,     segs,
                                       init, mode,  invalid, index,  verdict,
                                       checked};
        if (!lookback) {
            if (reset != 0 || offsets) {
                launch_after_reset(name, segmented_single_block_kernel<agent>, 1, agent::threads, 0,
                                   s, p);
            } else {
                segmented_single_block_kernel<agent><<<1, agent::threads, 0, s>>>(p);
                check_launch(name);
            }
        } else {
            const state_t state = state_t::make(base + word + ticket, base + reset, tiles);
            auto* t = reinterpret_cast<unsigned int*>(base + word);
            // Behind the reset or the validation, whichever came last (programmatic dependent
            // launch: its blocks wait for that kernel before they read).
            launch_after_reset(name, segmented_lookback_kernel<agent, Ordered, state_t>,
                               static_cast<unsigned>(tiles), agent::threads, 0, s, p, state, t,
                               cleanup);
            rezero.armed = false;
            lease.launched();
        }
    }

    if (offsets) {
        // The verdict is all the call waits for: the scan kernel's block 0 writes it once the
        // validation kernel has finished (invalid offsets then make every block of the scan
        // return before it writes anything), or, checked in the scan, the last tile to check
        // its offsets; the scan runs on (with .on(s), as every scan returns once enqueued;
        // without, the caller synchronizes).
        unsigned bad = 0;
        if (verdict != nullptr) {
            bad = static_cast<unsigned>(wait_for_mapped(verdict, no_verdict, s, name));
        } else {
            check(cudaMemcpyAsync(&bad, invalid, sizeof bad, cudaMemcpyDeviceToHost, s), name,
                  "cudaMemcpyAsync");
            synchronize(s, name);
        }
        if (bad & offsets_first_not_zero) throw_invalid_argument(name, "offsets: o[0] != 0");
        if (bad & offsets_decreasing) throw_invalid_argument(name, "offsets: not nondecreasing");
        if (bad & offsets_last_not_n) throw_invalid_argument(name, "offsets: o[k] != n");
    }
}

}  // namespace sweep::detail::cuda
