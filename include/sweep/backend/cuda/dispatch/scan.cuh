// sweep/backend/cuda/dispatch/scan.cuh -- GPU backend, host side of the scan: sizes the temporary
// storage, resets the tile states and launches. No algorithm logic here.
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>

#include <cuda_runtime.h>

#include <sweep/backend/cuda/agent/grid_dependency.cuh>
#include <sweep/backend/cuda/agent/scan_bulk_blocked_agent.cuh>
#include <sweep/backend/cuda/kernels/scan_kernels.cuh>
#include <sweep/backend/cuda/lookback/tile_state.cuh>
#include <sweep/backend/cuda/runtime.hpp>
#include <sweep/backend/cuda/tuning/scan_tuning.cuh>
#include <sweep/detail/checks.hpp>

namespace sweep::detail::cuda {

/// Bytes before the tile states: the ticket, alone in its own 128-byte line so that the atomics
/// on it do not contend with the status polls.
inline constexpr std::size_t ticket_bytes = 128;

template <class T>
bool is_aligned16(T it) {
    if constexpr (std::is_pointer_v<T>) {
        return reinterpret_cast<std::uintptr_t>(it) % 16 == 0;
    } else {
        return false;
    }
}

/// Zeroes `vectors` 16-byte vectors: the reset of the tile states before a look-back launch. It
/// lets the launch that follows start at once (programmatic dependent launch): that kernel's
/// blocks wait for this one to finish (griddepcontrol.wait) before they touch the tile states,
/// but their launch and scheduling overlap it.
template <int = 0>
__global__ void reset_tile_states_kernel(uint4* p, std::size_t vectors) {
    pdl::launch_dependents();
    const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
    if (i < vectors) p[i] = make_uint4(0, 0, 0, 0);
}

/// What a launch on the clean arena owes: zeroing the half the previous launch used.
inline lookback::arena_cleanup cleanup_of(const arena_lease& lease) {
    return lookback::arena_cleanup{static_cast<uint4*>(lease.dirty()),
                                   static_cast<unsigned>(lease.dirty_bytes() / 16)};
}

/// The tile states of one look-back launch: the ticket alone in its line, then the status words,
/// then the value slots (split layout only). Launches with the default resource whose states fit
/// take the clean half of their stream's arena (runtime.hpp, arena_lease): no allocation, no
/// reset, a plain launch, and the kernel zeroes what the previous launch used (`cleanup`);
/// call launched() once the kernel is enqueued. Otherwise temporary memory, reset on `s` by a
/// small kernel that the look-back kernel follows as a programmatic dependent launch
/// (`after_reset`).
template <class Acc>
struct lookback_storage {
    using state_t = lookback::tile_state<Acc>;
    arena_lease lease;  // first: temp allocates only without it
    temp_buffer temp;
    state_t state;
    unsigned int* ticket = nullptr;
    lookback::arena_cleanup cleanup{};
    bool after_reset = true;

    static std::size_t status_bytes(std::int64_t tiles) {
        return (ticket_bytes + state_t::status_bytes(tiles) + 15) / 16 * 16;
    }
    static std::size_t total_bytes(std::int64_t tiles) {
        return status_bytes(tiles) + state_t::value_bytes(tiles);
    }

    /// arena_only: take the stream's clean arena or nothing (in_arena() then says false, and
    /// nothing was allocated or enqueued): for callers with another way out (few tiles: one block).
    lookback_storage(const char* name, std::int64_t tiles, stream_t s, const temp_allocator& alloc,
                     bool arena_only = false)
        // A user resource keeps every temporary byte: only the library's own pool gives way.
        : lease(alloc.self == nullptr ? arena_lease(s, total_bytes(tiles)) : arena_lease()),
          temp(alloc, in_arena() || arena_only ? 0 : total_bytes(tiles), s) {
        if (!in_arena() && arena_only) return;
        // std::bad_alloc (from temp) comes before anything is enqueued.
        auto* base = static_cast<unsigned char*>(in_arena() ? lease.states() : temp.get());
        const std::size_t status = status_bytes(tiles);
        if (in_arena()) {
            cleanup = cleanup_of(lease);
            after_reset = false;
        } else {
            // The ticket and the status words (values need none, a slot is read only after its
            // status). docs/decisions/0001-tile-state-reset.md: why not epochs.
            const std::size_t vectors = status / 16;
            constexpr unsigned threads = 256;
            reset_tile_states_kernel<><<<static_cast<unsigned>((vectors + threads - 1) / threads),
                                         threads, 0, s>>>(reinterpret_cast<uint4*>(base), vectors);
            check_launch(name);
        }
        state = state_t::make(base + ticket_bytes, base + status, tiles);
        ticket = reinterpret_cast<unsigned int*>(base);
    }

    /// Whether the states are the clean half of the stream's arena.
    bool in_arena() const noexcept { return lease.states() != nullptr; }

    /// The look-back kernel is enqueued.
    void launched() noexcept { lease.launched(); }
};

/// Launches a look-back kernel: right behind the reset (lookback_storage) as a programmatic
/// dependent launch when `after_reset` (the kernel must execute griddepcontrol.wait before it
/// touches tile states), plainly otherwise.
template <class... Params, class... Args>
void launch_lookback(const char* name, bool after_reset, void (*kernel)(Params...), unsigned grid,
                     int threads, int smem, stream_t s, Args&&... args) {
    cudaLaunchConfig_t cfg{};
    cfg.gridDim = dim3(grid);
    cfg.blockDim = dim3(static_cast<unsigned>(threads));
    cfg.dynamicSmemBytes = static_cast<std::size_t>(smem);
    cfg.stream = static_cast<cudaStream_t>(s);
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr[0].val.programmaticStreamSerializationAllowed = 1;
    cfg.attrs = attr;
    cfg.numAttrs = after_reset ? 1 : 0;
    check(static_cast<int>(cudaLaunchKernelEx(&cfg, kernel, std::forward<Args>(args)...)), name,
          "cudaLaunchKernelEx");
}

/// launch_lookback behind a reset kernel (the segmented offsets form and small segmented inputs,
/// whose validation word needs the reset).
template <class... Params, class... Args>
void launch_after_reset(const char* name, void (*kernel)(Params...), unsigned grid, int threads,
                        int smem, stream_t s, Args&&... args) {
    launch_lookback(name, true, kernel, grid, threads, smem, s, std::forward<Args>(args)...);
}

/// The shared-memory tile agent a bulk tuning names: scan_bulk_agent (warp-wide rounds), or
/// scan_bulk_blocked_agent (the register agent's association: the canonical tree) when
/// Tuning::blocked.
template <class Tuning, class Acc, class In, class Out, class Op, class F>
using bulk_agent_t = std::conditional_t<Tuning::blocked,
                                        scan_bulk_blocked_agent<Tuning, Acc, In, Out, Op, F>,
                                        scan_bulk_agent<Tuning, Acc, In, Out, Op, F>>;

/// The shared-memory tile path: n values in more than one tile, `in`/`out` 16-byte aligned
/// pointers (bulk_agent_t<...>::eligible). Enqueues on `s`.
template <class Tuning, bool Ordered, class Acc, class In, class Out, class Op, class F>
void launch_scan_bulk(const char* name, In in, Out out, std::int64_t n, Op op, F f,
                      const reg_array<Acc, 1>& init, bool exclusive, bool has_init, stream_t s,
                      const temp_allocator& alloc) {
    using agent = bulk_agent_t<Tuning, Acc, In, Out, Op, F>;
    static_assert(agent::eligible);
    scan_mode mode;
    mode.exclusive = exclusive;
    mode.has_init = has_init;
    mode.in_aligned = mode.out_aligned = true;
    const typename agent::params p{in, out, n, op, f, init, mode};
    const std::int64_t tiles = (n + agent::tile_items - 1) / agent::tile_items;
    if (tiles > std::numeric_limits<int>::max())
        throw_invalid_argument(name, "input too large for one launch (more than 2^31 tiles)");
    lookback_storage<Acc> st(name, tiles, s, alloc);
    const auto kernel = scan_bulk_kernel<agent, Ordered, Tuning::speculative,
                                         typename lookback_storage<Acc>::state_t>;
    allow_dynamic_smem(reinterpret_cast<const void*>(kernel), agent::smem_bytes, name);
    launch_lookback(name, st.after_reset, kernel, static_cast<unsigned>(tiles), agent::threads,
                    agent::smem_bytes, s, p, st.state, st.ticket, st.cleanup);
    st.launched();
}

template <class BulkTuning, class Acc, class In, class Out, class Op, class F>
constexpr bool bulk_eligible() {
    if constexpr (std::is_void_v<BulkTuning>) {
        return false;
    } else {
        return bulk_agent_t<BulkTuning, Acc, In, Out, Op, F>::eligible;
    }
}

/// Scans n > 0 values. `In`/`Out` are device iterators (raw pointers where possible), `init`
/// meaningful when mode.has_init. Enqueues on `s`; the caller synchronizes if it must.
/// Contiguous aligned data of one element size takes the shared-memory tile path (BulkTuning);
/// anything else the register path (Tuning); small inputs one block. BulkTuning = void: the
/// register path only (tests of that path).
template <class Tuning, bool Ordered, class Acc, class In, class Out, class Op, class F,
          class BulkTuning = default_scan_bulk_tuning<Acc>>
void launch_scan(const char* name, In in, Out out, std::int64_t n, Op op, F f,
                 const reg_array<Acc, 1>& init, bool exclusive, bool has_init, stream_t s,
                 const temp_allocator& alloc) {
    using agent = scan_agent<Tuning, Acc, In, Out, Op, F>;
    scan_mode mode;
    mode.exclusive = exclusive;
    mode.has_init = has_init;
    mode.in_aligned = is_aligned16(in);
    mode.out_aligned = is_aligned16(out);
    const typename agent::params p{in, out, n, op, f, init, mode};
    const std::int64_t tiles = (n + agent::tile_items - 1) / agent::tile_items;
    if (tiles == 0) return;

    // (Not in the ordered mode: its tiles are chained by groups, lookback::grouped_exclusive_prefix,
    // which the single block's running prefix is not. A few tiles take the look-back kernel.)
    // Two to four tiles take the look-back kernel too when the stream's clean arena is at hand:
    // it costs no more host time than one block, and the tiles run side by side instead of one
    // after another (int32 at 2^14, H100: 11.4 us in one block against 9.2 us for 2^16 on the
    // arena; perf/notes-gpu.md 21).
    // Such few tiles stay on the register path: a shared-memory tile holds several register
    // tiles' worth, so it would be one partial tile, loaded element by element (int8 at 2^14:
    // 18.8 us against 8.8 us in one block, H100).
    const bool few = tiles <= single_block_max_tiles;
    const bool arena_only = !Ordered && few;  // the look-back kernel only on the clean arena
    auto one_block = [&] {
        scan_single_block_kernel<agent><<<1, agent::threads, 0, s>>>(p);
        check_launch(name);
    };
    if (arena_only && (tiles == 1 || alloc.self != nullptr)) {
        one_block();
        return;
    }
    if constexpr (bulk_eligible<BulkTuning, Acc, In, Out, Op, F>()) {
        if (!few && mode.in_aligned && mode.out_aligned && device_has_bulk_copy(name)) {
            launch_scan_bulk<BulkTuning, Ordered, Acc>(name, in, out, n, op, f, init, exclusive,
                                                       has_init, s, alloc);
            return;
        }
    }
    if (tiles > std::numeric_limits<int>::max())
        throw_invalid_argument(name, "input too large for one launch (more than 2^31 tiles)");

    lookback_storage<Acc> st(name, tiles, s, alloc, arena_only);
    if (arena_only && !st.in_arena()) {
        one_block();
        return;
    }
    using state_t = typename lookback_storage<Acc>::state_t;
    if constexpr (agent::stages >= 2) {
        const auto kernel = scan_lookback_pipelined_kernel<agent, Ordered, state_t>;
        const std::int64_t resident = resident_blocks(reinterpret_cast<const void*>(kernel),
                                                      agent::threads, name);
        const auto grid = static_cast<unsigned>(tiles < resident ? tiles : resident);
        launch_lookback(name, st.after_reset, kernel, grid, agent::threads, 0, s, p, st.state,
                        st.ticket, tiles, st.cleanup);
        st.launched();
    } else {
        launch_lookback(name, st.after_reset, scan_lookback_kernel<agent, Ordered, state_t>,
                        static_cast<unsigned>(tiles), agent::threads, 0, s, p, st.state, st.ticket,
                        st.cleanup);
        st.launched();
    }
}

}  // namespace sweep::detail::cuda
