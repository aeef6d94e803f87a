// sweep/backend/cuda/dispatch/compaction.cuh -- GPU backend, host side of stream compaction: sizes
// the temporary storage, resets the tile states, picks the tile path, launches, and brings the kept count back (the
// algorithms return iterators that depend on it, so these calls wait for their work). No
// algorithm logic here.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include <cuda_runtime.h>

#include <sweep/backend/cuda/agent/compaction_agent.cuh>
#include <sweep/backend/cuda/agent/compaction_bulk_agent.cuh>
#include <sweep/backend/cuda/compaction_precompiled.hpp>
#include <sweep/backend/cuda/agent/count_prefix.cuh>
#include <sweep/backend/cuda/dispatch/scan.cuh>  // reset_tile_states_kernel, launch_after_reset
#include <sweep/backend/cuda/kernels/compaction_kernels.cuh>
#include <sweep/backend/cuda/kernels/swap_partition_kernels.cuh>
#include <sweep/backend/cuda/runtime.hpp>
#include <sweep/backend/cuda/tuning/compaction_tuning.cuh>
#include <sweep/backend/cuda/tuning/scan_tuning.cuh>
#include <sweep/detail/checks.hpp>

namespace sweep::detail::cuda {

/// Temporary storage: [ ticket (offset 0) | kept count (offset 64), when there is no mapped slot
/// or the count is handed off (compaction_wait::flag) |
/// direction of a mirrored in-place pass (offset 96) ] in the first 128 bytes, so that the
/// ticket's atomics share no line with the status polls; then one status word per tile.
inline constexpr std::size_t compaction_header_bytes = 128;
inline constexpr std::size_t compaction_count_offset = 64;
inline constexpr std::size_t compaction_direction_offset = 96;

template <class T>
bool compaction_aligned(T it, std::size_t alignment) {
    if constexpr (std::is_pointer_v<T>) {
        return reinterpret_cast<std::uintptr_t>(it) % alignment == 0;
    } else {
        (void)it;
        (void)alignment;
        return false;
    }
}

/// Which tile path a call takes (the benchmark and the tests force one; calls take `automatic`).
/// automatic: the shared-memory path (compaction_bulk_agent) where it can serve the call, the
/// register path (compaction_agent) otherwise. bulk: the same (the register path where it
/// cannot). registers: the register path always.
enum class compaction_path { automatic, registers, bulk };

/// Whether the shared-memory path's tile copies carry the L2::evict_first hint: as
/// tuning/compaction_tuning.cuh says (automatic: calls take it), or forced (the benchmark's
/// same-process comparison).
enum class compaction_l2_hint { automatic, off, on };

/// How a call waits for its count (the call returns it, so it must wait). stream: the pass
/// writes the count to the thread's mapped slot and the call synchronizes the stream (or copies
/// the count back when there is no slot). flag: the pass writes the count to device memory, and
/// compaction_count_handoff_kernel, launched behind it as a programmatic dependent launch, hands
/// it to the mapped slot once the pass's grid has completed; the call spins on the slot
/// (wait_for_mapped) instead of synchronizing the stream. Taken only by passes of several blocks
/// on a thread with a mapped slot (stream otherwise). automatic: stream (flag is an experiment
/// until measured: perf/notes-gpu.md C12). With flag the call returns while the handoff kernel
/// may still be exiting: every output is written and visible (griddepcontrol.wait returned after
/// the pass's grid completed), but the stream is not idle. Before flag could become automatic:
/// the API contract (copy_if and the partitions "synchronize that stream before they return"),
/// docs/api.md ("every call waits for its work") and docs/compaction.md ("it synchronizes its
/// stream before returning") would need a note, and devices without concurrent managed access
/// (cudaDevAttrConcurrentManagedAccess == 0), whose host may not touch managed memory while a
/// kernel runs, would keep the stream wait.
enum class compaction_wait { automatic, stream, flag };

/// The mapped slot's value while compaction_wait::flag waits (no count or mirrored count has it).
inline constexpr std::int64_t compaction_count_unset = std::numeric_limits<std::int64_t>::min();

template <class BulkTuning, class In, class Stencil, class OutT, class OutF, class Pred>
constexpr bool compaction_bulk_eligible() {
    if constexpr (std::is_void_v<BulkTuning>) {
        return false;
    } else {
        return compaction_bulk_agent<BulkTuning, In, Stencil, OutT, OutF, Pred>::eligible;
    }
}

/// One compaction pass over n > 0 elements: the kept ones (pred true: of the stencil element,
/// or of the input element when stencil_is_input) to out_true in order; with `split`, the others
/// to out_false in order. `fenced`: out_true aliases the input (the in-place partitions).
/// Enqueues on `s`, waits for the count and returns it. `hint`: whether the shared-memory path's
/// tile copies carry the L2::evict_first hint (compaction_l2_hint; calls take automatic).
/// `wait`: how the count comes back (compaction_wait; calls take automatic).
///
/// `mirrored` (the in-place pass only: split, fenced, out_true the range, out_false a temporary
/// of n elements): when the shared-memory path serves the call, the reset kernel samples the
/// predicate and the pass may run mirrored (kept elements to the temporary's last k slots,
/// rejected ones in place at the range's end); *mirrored says which. nullptr: forward always.
///
/// Small inputs (at most single_block_max_tiles register tiles): one block. Larger: contiguous
/// 16-byte aligned plain inputs of 1-, 2-, 4- and 8-byte values take the shared-memory tile path
/// (BulkTuning; void: never), anything else the register path (Tuning). Either way the tile
/// states are in the clean half of the stream's arena (runtime.hpp arena_lease), or reset by a
/// kernel that the look-back kernel is launched behind as a programmatic dependent launch
/// (dispatch/scan.cuh: lookback_storage, launch_lookback).
template <class Tuning, class In, class Stencil, class OutT, class OutF, class Pred,
          class BulkTuning = default_compaction_bulk_tuning<compaction_value_t<In>>>
std::int64_t run_compaction(const char* name, In in, Stencil stencil, bool stencil_is_input,
                            OutT out_true, OutF out_false, bool split, bool fenced, std::int64_t n,
                            Pred pred, stream_t s, const temp_allocator& alloc,
                            compaction_path path = compaction_path::automatic,
                            bool* mirrored = nullptr,
                            compaction_l2_hint hint = compaction_l2_hint::automatic,
                            compaction_wait wait = compaction_wait::automatic) {
    if (mirrored != nullptr) *mirrored = false;
    using agent = compaction_agent<Tuning, In, Stencil, OutT, OutF, Pred>;
    std::int64_t tiles = (n + agent::tile_items - 1) / agent::tile_items;
    const bool single = tiles <= single_block_max_tiles;
    bool use_bulk = false;
    if constexpr (compaction_bulk_eligible<BulkTuning, In, Stencil, OutT, OutF, Pred>()) {
        using bulk_agent = compaction_bulk_agent<BulkTuning, In, Stencil, OutT, OutF, Pred>;
        // automatic: copy_if and the in-place pass take the shared-memory path; partition_copy
        // (split, not fenced) from its size on (tuning/compaction_tuning.cuh says why).
        const bool partition_copy_form = split && !fenced;
        const bool wanted =
            path == compaction_path::bulk ||
            (path == compaction_path::automatic &&
             (!partition_copy_form ||
              n >= partition_copy_bulk_min_n<sizeof(compaction_value_t<In>)>));
        use_bulk = !single && wanted && stencil_is_input && compaction_aligned(in, 16) &&
                   device_has_bulk_copy(name);
        if (use_bulk) tiles = (n + bulk_agent::tile_items - 1) / bulk_agent::tile_items;
    }
    if (tiles > std::numeric_limits<int>::max())
        throw_invalid_argument(name, "input too large for one launch (more than 2^31 tiles)");

    // The mirrored pass needs the shared-memory path (the plain form: the sample applies the
    // predicate to the input) and one output type (the two outputs swap roles).
    constexpr bool can_mirror =
        compaction_bulk_eligible<BulkTuning, In, Stencil, OutT, OutF, Pred>() &&
        std::is_same_v<OutT, OutF>;
    const bool choose_direction = can_mirror && use_bulk && mirrored != nullptr && split && fenced;

    // One block with the mapped count slot needs no temporary at all. Otherwise the header and
    // the status words, a whole number of 16-byte vectors (the reset kernel's unit): in the clean
    // half of the stream's arena (dispatch/scan.cuh lookback_storage) when the count travels
    // through the mapped slot, the default resource serves and no sample kernel must run; else
    // in temporary memory.
    std::int64_t* const slot = mapped_count_slot();
    const std::size_t state_bytes =
        (compaction_header_bytes + count_tile_state::status_bytes(tiles) + 15) / 16 * 16;
    arena_lease lease(!single && !choose_direction && slot != nullptr && alloc.self == nullptr
                          ? arena_lease(s, state_bytes)
                          : arena_lease());
    const bool in_arena = lease.states() != nullptr;
    const std::size_t bytes =
        single ? (slot != nullptr ? 0 : compaction_header_bytes) : (in_arena ? 0 : state_bytes);
    temp_buffer temp(alloc, bytes, s);  // std::bad_alloc before anything is enqueued
    auto* base = static_cast<unsigned char*>(in_arena ? lease.states() : temp.get());
    // compaction_wait::flag: the count to the header, then handed to the slot (see the enum).
    const bool flag_wait = wait == compaction_wait::flag && !single && slot != nullptr;
    auto* total = slot != nullptr && !flag_wait
                      ? slot
                      : reinterpret_cast<std::int64_t*>(base + compaction_count_offset);
    if (flag_wait) *static_cast<volatile std::int64_t*>(slot) = compaction_count_unset;
    bool handed_off = false;  // the handoff kernel is enqueued: wait on the slot
    std::int64_t kept = 0;
    cudaError_t copy_rc = cudaSuccess;  // a failed handoff's copy of the count
    typename agent::params p{in,    stencil, out_true, out_false,        n,
                             total, pred,    split,    fenced,           stencil_is_input,
                             compaction_aligned(in, 4),
                             compaction_aligned(stencil, 4)};
    if (use_bulk)
        p.evict_first =
            hint == compaction_l2_hint::on ||
            (hint == compaction_l2_hint::automatic &&
             static_cast<std::uint64_t>(n) * sizeof(compaction_value_t<In>) <=
                 compaction_evict_first_l2_multiple *
                     static_cast<std::uint64_t>(l2_cache_bytes(name)));
    if (single) {
        compaction_single_block_kernel<agent><<<1, agent::threads, 0, s>>>(p);
        check_launch(name);
    } else {
        // The one reset per call (docs/decisions/0001-tile-state-reset.md): ticket + statuses
        // (and the count slot, which needs none); none on the arena, whose half is clean.
        const std::size_t vectors = bytes / 16;
        constexpr unsigned reset_threads = 256;
        const auto reset_blocks =
            static_cast<unsigned>((vectors + reset_threads - 1) / reset_threads);
        const lookback::arena_cleanup cleanup = in_arena ? cleanup_of(lease) : lookback::arena_cleanup{};
        if (!in_arena) {
            bool sampled = false;
            if constexpr (can_mirror) {
                if (choose_direction) {
                    auto* const direction =
                        reinterpret_cast<std::uint32_t*>(base + compaction_direction_offset);
                    p.direction = direction;
                    compaction_reset_and_sample_kernel<<<reset_blocks, reset_threads, 0, s>>>(
                        reinterpret_cast<uint4*>(base), vectors, in, n, pred, direction);
                    sampled = true;
                }
            }
            if (!sampled)
                reset_tile_states_kernel<><<<reset_blocks, reset_threads, 0, s>>>(
                    reinterpret_cast<uint4*>(base), vectors);
            check_launch(name);
        }
        const count_tile_state state =
            count_tile_state::make(base + compaction_header_bytes, nullptr, tiles);
        auto* const ticket = reinterpret_cast<unsigned int*>(base);
        bool launched = false;
        if constexpr (compaction_bulk_eligible<BulkTuning, In, Stencil, OutT, OutF, Pred>()) {
            if (use_bulk) {
                using bulk_agent = compaction_bulk_agent<BulkTuning, In, Stencil, OutT, OutF, Pred>;
                const auto kernel = &compaction_bulk_kernel<bulk_agent>;
                allow_dynamic_smem(reinterpret_cast<const void*>(kernel), bulk_agent::smem_bytes,
                                   name);
                launch_lookback(name, !in_arena, kernel, static_cast<unsigned>(tiles),
                                bulk_agent::threads, bulk_agent::smem_bytes, s, p, state, ticket,
                                tiles, cleanup);
                launched = true;
            }
        }
        if (!launched)
            launch_lookback(name, !in_arena, compaction_lookback_kernel<agent>,
                            static_cast<unsigned>(tiles), agent::threads, 0, s, p, state, ticket,
                            tiles, cleanup);
        // The handoff goes in while the lease still holds the arena: a launch of another thread
        // on the same stream must not come between the pass and the kernel that reads the
        // pass's count from the arena (it would zero that half first). If the handoff cannot be
        // launched, the count comes back the stream's way below (the pass is enqueued and may
        // be writing: no throw before the stream has been waited for).
        // Its fallback, the copy of the count, also goes in under the lease (it reads the same
        // half); its error is reported once the lease is let go.
        if (flag_wait) {
            try {
                launch_lookback(name, true, compaction_count_handoff_kernel<>, 1u, 32, 0, s,
                                static_cast<const std::int64_t*>(total), slot);
                handed_off = true;
            } catch (...) {
                (void)cudaGetLastError();  // a launch error is not sticky; a sticky one reports below
                copy_rc = cudaMemcpyAsync(&kept, total, sizeof(kept), cudaMemcpyDeviceToHost, s);
            }
        }
        lease.launched();  // the pass is enqueued: its half of the arena is used
    }
    if (handed_off) {
        kept = wait_for_mapped(slot, compaction_count_unset, s, name);
    } else {
        // The count is in the slot, or in device memory (no slot, or a handoff that failed: its
        // copy is enqueued already).
        const bool in_slot = total == slot;
        if (flag_wait)
            check(static_cast<int>(copy_rc), name, "cudaMemcpyAsync");
        else if (!in_slot)
            check(static_cast<int>(
                      cudaMemcpyAsync(&kept, total, sizeof(kept), cudaMemcpyDeviceToHost, s)),
                  name, "cudaMemcpyAsync");
        synchronize(s, name);
        if (in_slot) kept = *static_cast<volatile std::int64_t*>(slot);
    }
    if (choose_direction) {
        *mirrored = (kept & compaction_mirrored_bit) != 0;
        kept &= compaction_mirrored_bit - 1;
    }
    return kept;
}

/// The in-place partitions (both stable): one pass writes one part in order into the range itself
/// and the other in order into a temporary of n elements; then the temporary's part is copied
/// into place. Forward: kept -> the range's front, rejected -> temp[0, n - k), copied to
/// range[k, n). Mirrored (the shared-memory path, chosen by a sample when fewer than half look
/// kept): rejected -> the range's back, kept -> temp[n - k, n), copied to range[0, k). `in` reads
/// the range (a const pointer for raw pointers), `first` writes it. Why the pass is race-free:
/// count_prefix.cuh and docs/compaction.md.
/// BulkTuning: the shared-memory path's tile geometry (the benchmark's `tuning` mode varies it).
template <class Tuning, class In, class It, class Pred,
          class BulkTuning = default_compaction_bulk_tuning<compaction_value_t<In>>>
std::int64_t run_partition_in_place(const char* name, In in, It first, std::int64_t n, Pred pred,
                                    stream_t s, const temp_allocator& alloc,
                                    compaction_path path = compaction_path::automatic) {
    using T = compaction_value_t<In>;
    // Allocated before anything moves: std::bad_alloc leaves the range unchanged.
    temp_buffer rejected(alloc, static_cast<std::size_t>(n) * sizeof(T), s);
    T* const r = static_cast<T*>(rejected.get());
    bool mirrored = false;
    const std::int64_t kept = run_compaction<Tuning, In, In, It, T*, Pred, BulkTuning>(
        name, in, in, true, first, r, true, true, n, pred, s, alloc, path, &mirrored);
    // The part in the temporary: [from, from + count) of it goes to range[to, to + count).
    const std::int64_t count = mirrored ? kept : n - kept;
    const std::int64_t from = mirrored ? n - kept : 0;
    const std::int64_t to = mirrored ? 0 : kept;
    if (count > 0) {
        if constexpr (std::is_pointer_v<It>) {
            check(static_cast<int>(cudaMemcpyAsync(first + to, r + from,
                                                   static_cast<std::size_t>(count) * sizeof(T),
                                                   cudaMemcpyDeviceToDevice, s)),
                  name, "cudaMemcpyAsync");
        } else {
            const auto kernel = compaction_copy_kernel<T, It>;
            const std::int64_t resident =
                resident_blocks(reinterpret_cast<const void*>(kernel), 256, name);
            const std::int64_t want = (count + 255) / 256;
            kernel<<<static_cast<unsigned>(want < resident ? want : resident), 256, 0, s>>>(
                r + from, first + to, count);
            check_launch(name);
        }
    }
    synchronize(s, name);
    return kept;
}

/// The unstable in-place partition's two-ended exchange pass and its cleanup
/// (kernels/swap_partition_kernels.cuh) on n > 0 elements at `data`. Returns the partition point.
/// Everything it allocates, it allocates before the range is touched (std::bad_alloc leaves it
/// unchanged). Waits once, at the end (the cleanup is planned on the device).
template <class T, class Pred>
std::int64_t run_swap_partition(const char* name, T* data, std::int64_t n, Pred pred, stream_t s,
                                const temp_allocator& alloc) {
    using G = swap_partition_geometry<T>;
    constexpr std::int64_t S = G::tile;
    constexpr std::int64_t per_block = swap_partition_records_per_block;
    const std::int64_t full = n / S;  // the pass's tiles; the short tail is left to the cleanup
    const bool has_tail = n % S != 0;
    const auto kernel = &swap_partition_kernel<T, Pred>;
    const std::int64_t resident =
        resident_blocks(reinterpret_cast<const void*>(kernel), G::threads, name);
    // Each block ends with at most four unfinished tiles (two an end: the one in work, the one
    // fetched ahead), which the cleanup reads again: at least 8 tiles a block keeps that share
    // small.
    const std::int64_t grid = std::max<std::int64_t>(1, std::min(resident, full / SWEEP_SWAP_PARTITION_MIN_TILES));
    // Tiles the cleanup may touch: the unfinished ones (<= 4 grid), the tail, and those between
    // the partition point and the front/back boundary (a span of at most (4 grid + 1) S
    // elements: <= 4 grid + 2 tiles).
    const std::int64_t dmax = std::min(full + (has_tail ? 1 : 0), 8 * grid + 4);
    // The cleanup names a dirty slot by a 32-bit index (dmax S is ~11 million on an H200).
    if (dmax * S > std::int64_t{0xffffffff})
        throw std::logic_error(std::string("sweep::") + name +
                               ": internal error (too many dirty slots for the cleanup)");
    // The temporary: header, plan and the dirty tiles' bitmap (zeroed), the records, the dirty
    // list, the misplaced elements' slots.
    const std::size_t head_bytes = sizeof(swap_partition_header) + sizeof(swap_partition_plan);
    const std::size_t bitmap_bytes = static_cast<std::size_t>(full / 32 + 1) * sizeof(unsigned);
    const std::size_t zero_bytes = (head_bytes + bitmap_bytes + 15) / 16 * 16;
    const std::size_t records_bytes =
        static_cast<std::size_t>(grid * per_block) * sizeof(swap_partition_record);
    const std::size_t list_offset = zero_bytes + records_bytes;
    const std::size_t pos_offset =
        (list_offset + static_cast<std::size_t>(dmax) * sizeof(long long) + 255) / 256 * 256;
    const std::size_t bytes = pos_offset + static_cast<std::size_t>(dmax * S) * sizeof(unsigned);
    temp_buffer temp(alloc, bytes, s);  // std::bad_alloc before anything is enqueued
    auto* const base = static_cast<unsigned char*>(temp.get());
    auto* const header = reinterpret_cast<swap_partition_header*>(base);
    auto* const plan = reinterpret_cast<swap_partition_plan*>(base + sizeof(swap_partition_header));
    auto* const bitmap = reinterpret_cast<unsigned*>(base + head_bytes);
    auto* const records = reinterpret_cast<swap_partition_record*>(base + zero_bytes);
    auto* const list = reinterpret_cast<long long*>(base + list_offset);
    auto* const pos = reinterpret_cast<unsigned*>(base + pos_offset);
    // The result travels through this thread's mapped slot when there is one (no copy), else
    // through the header's result word and one copy.
    std::int64_t* const slot = mapped_count_slot();
    auto* const result = slot != nullptr ? reinterpret_cast<long long*>(slot) : &header->result;
    // The cleanup's grids (occupancy queried before the first launch: none between launches).
    const auto collect = &swap_partition_collect_kernel<T, Pred>;
    const std::int64_t chunks = (dmax * S + 1023) / 1024;
    const std::int64_t collect_grid = std::min<std::int64_t>(
        chunks, resident_blocks(reinterpret_cast<const void*>(collect), 256, name));
    const auto swap = &swap_partition_swap_kernel<T>;
    const std::int64_t pairs = (dmax * S / 2 + 255) / 256;
    const std::int64_t swap_grid = std::max<std::int64_t>(
        1, std::min<std::int64_t>(pairs,
                                  resident_blocks(reinterpret_cast<const void*>(swap), 256, name)));

    // Everything on the stream, one wait at the end: the reset (a plain launch: it follows the
    // stream's earlier work), then the pass, the plan (one block, from the pass's records: no
    // round trip through the host) and the cleanup sized for the most dirty tiles there can be
    // (its blocks read how many there are from the plan), each a programmatic dependent launch
    // behind the one before (it waits for it in pdl::wait; the launches overlap).
    const auto vectors = zero_bytes / 16;
    reset_tile_states_kernel<><<<static_cast<unsigned>((vectors + 255) / 256), 256, 0, s>>>(
        reinterpret_cast<uint4*>(base), vectors);
    check_launch(name);
    launch_lookback(name, true, kernel, static_cast<unsigned>(grid), G::threads, 0, s, data, n,
                    full, pred, header, records);
    launch_lookback(name, true, &swap_partition_plan_kernel<T>, 1u, 1024, 0, s, n, full,
                    static_cast<const swap_partition_record*>(records), grid * per_block,
                    bitmap, dmax, list, static_cast<const swap_partition_header*>(header), plan);
    launch_lookback(name, true, collect, static_cast<unsigned>(collect_grid), 256, 0, s,
                    static_cast<const T*>(data), static_cast<const long long*>(list),
                    static_cast<const swap_partition_plan*>(plan), pred, header, pos);
    launch_lookback(name, true, swap, static_cast<unsigned>(swap_grid), 256, 0, s, data,
                    static_cast<const long long*>(list),
                    static_cast<const swap_partition_plan*>(plan),
                    static_cast<const unsigned*>(pos),
                    static_cast<const swap_partition_header*>(header), result);
    long long k = 0;
    if (slot == nullptr)
        check(static_cast<int>(
                  cudaMemcpyAsync(&k, result, sizeof(k), cudaMemcpyDeviceToHost, s)),
              name, "cudaMemcpyAsync");
    synchronize(s, name);
    if (slot != nullptr) k = *static_cast<volatile long long*>(result);
    if (k == -1 || k == -2)
        throw std::logic_error(std::string("sweep::") + name +
                               ": internal error (the exchange pass's plan does not add up)");
    if (k < 0)
        throw std::logic_error(std::string("sweep::") + name +
                               ": internal error (the cleanup's counts do not add up)");
    return k;
}

/// Inputs of at least this many elements take the exchange pass; below, the stable pass. H100,
/// int32, 10/50/90 % kept (perf/results/gpu-session13-partition-2026-11-27.md, with the
/// whole-tile writeback and the plan on the device), exchange against stable: 2^22 0.86-0.97x,
/// 2^23 0.95-1.11x, 2^24 1.12-1.44x, 2^26 1.32-1.65x.
inline constexpr std::int64_t swap_partition_min_n = std::int64_t{1} << 24;

/// `partition` in place (unstable): the two-ended exchange pass on 16-byte-aligned raw pointers to
/// types whose four tiles fit in shared memory, on devices with the copy engine (sm_90), for
/// n >= min_n (2^24); the stable pass otherwise.
template <class Tuning, class In, class It, class Pred,
          class BulkTuning = default_compaction_bulk_tuning<compaction_value_t<In>>>
std::int64_t run_partition_unstable_in_place(const char* name, In in, It first, std::int64_t n,
                                             Pred pred, stream_t s, const temp_allocator& alloc,
                                             std::int64_t min_n = swap_partition_min_n) {
    using T = compaction_value_t<In>;
    if constexpr (std::is_pointer_v<It> && swap_partition_geometry<T>::fits) {
        // The copy engine fetches whole 16-byte-aligned tiles.
        if (n >= min_n && compaction_aligned(first, 16) && device_has_bulk_copy(name))
            return run_swap_partition<T, Pred>(name, first, n, pred, s, alloc);
    }
    return run_partition_in_place<Tuning, In, It, Pred, BulkTuning>(name, in, first, n, pred, s,
                                                                    alloc);
}

}  // namespace sweep::detail::cuda
