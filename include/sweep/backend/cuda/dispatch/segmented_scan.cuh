// sweep/backend/cuda/dispatch/segmented_scan.cuh -- GPU backend, host side of the segmented scans:
// validates offsets, sizes the temporary storage, resets the tile states and launches. No
// algorithm logic here.
//
// Offsets: a validation kernel reads them once and sets bits of a word in temporary memory; the
// scan kernels read that word first and, if it is set, write nothing; the word then comes back
// to the host, which throws std::invalid_argument. So the offsets form waits for its stream
// before it returns, even with .on(s) (as copy_if does: its result must be known to return).
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>

#include <cuda_runtime.h>

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

/// Enqueues the validation of k + 1 >= 1 offsets against n (bits into *invalid).
template <class OffIt>
void launch_validate_offsets(const offset_segments<OffIt>& segs, std::int64_t n,
                             unsigned* invalid, stream_t s, const char* name) {
    const auto count = static_cast<std::int64_t>(segs.last - segs.first);
    constexpr int threads = 256;
    const std::int64_t want = (count + threads - 1) / threads;
    const auto blocks = static_cast<unsigned>(want < 4096 ? (want > 0 ? want : 1) : 4096);
    validate_offsets_kernel<<<blocks, threads, 0, s>>>(segs.first, count, n, invalid);
    check_launch(name);
}
template <class Segs>
void launch_validate_offsets(const Segs&, std::int64_t, unsigned*, stream_t, const char*) {}

template <class T>
bool aligned16(T it) {
    if constexpr (std::is_pointer_v<T>) return reinterpret_cast<std::uintptr_t>(it) % 16 == 0;
    else return false;
}

/// Scans n >= 0 values (n == 0 only validates offsets) in segments `segs` (key_heads,
/// flag_heads or offset_segments over device iterators; offsets with at least one entry).
/// Enqueues on `s`; the offsets form synchronizes `s` and throws for invalid offsets.
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

    // [validation word | ticket | status words | value slots], the parts this call needs.
    const std::size_t word = offsets ? segmented_slot_bytes : 0;
    const std::size_t ticket = lookback ? segmented_slot_bytes : 0;
    const std::size_t status = lookback ? state_t::status_bytes(tiles) : 0;
    const std::size_t values = lookback ? state_t::value_bytes(tiles) : 0;
    temp_buffer temp(alloc, word + ticket + status + values, s);  // bad_alloc before any work
    auto* base = static_cast<unsigned char*>(temp.get());
    // The one reset per call: validation word, ticket and status words (decision 0001).
    if (word + ticket + status != 0) memset_async(base, word + ticket + status, s, name);

    unsigned* invalid = offsets ? reinterpret_cast<unsigned*>(base) : nullptr;
    if (offsets) launch_validate_offsets(segs, n, invalid, s, name);

    if (n > 0) {
        segmented_mode mode;
        mode.exclusive = exclusive;
        mode.has_init = has_init;
        mode.in_aligned = aligned16(in);
        mode.out_aligned = aligned16(out);
        mode.heads_aligned = heads_aligned;
        const typename agent::params p{in, out, n, op, segs, init, mode, invalid};
        if (!lookback) {
            segmented_single_block_kernel<agent><<<1, agent::threads, 0, s>>>(p);
        } else {
            const state_t state = state_t::make(base + word + ticket, base + word + ticket + status,
                                                tiles);
            auto* t = reinterpret_cast<unsigned int*>(base + word);
            segmented_lookback_kernel<agent, Ordered, state_t>
                <<<static_cast<unsigned>(tiles), agent::threads, 0, s>>>(p, state, t);
        }
        check_launch(name);
    }

    if (offsets) {
        unsigned bad = 0;
        check(cudaMemcpyAsync(&bad, invalid, sizeof bad, cudaMemcpyDeviceToHost, s), name,
              "cudaMemcpyAsync");
        synchronize(s, name);
        if (bad & offsets_first_not_zero) throw_invalid_argument(name, "offsets: o[0] != 0");
        if (bad & offsets_decreasing) throw_invalid_argument(name, "offsets: not nondecreasing");
        if (bad & offsets_last_not_n) throw_invalid_argument(name, "offsets: o[k] != n");
    }
}

}  // namespace sweep::detail::cuda
