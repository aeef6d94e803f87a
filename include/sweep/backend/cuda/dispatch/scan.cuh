// sweep/backend/cuda/dispatch/scan.cuh -- GPU backend, host side of the scan: sizes the temporary
// storage, resets the tile states and launches. No algorithm logic here.
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>

#include <cuda_runtime.h>

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
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
    const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
    if (i < vectors) p[i] = make_uint4(0, 0, 0, 0);
}

/// The tile states of one look-back launch in temporary memory, reset on `s`: the ticket alone in
/// its line, then the status words, then the value slots (split layout only).
template <class Acc>
struct lookback_storage {
    using state_t = lookback::tile_state<Acc>;
    temp_buffer temp;
    state_t state;
    unsigned int* ticket;

    static std::size_t status_bytes(std::int64_t tiles) {
        return (ticket_bytes + state_t::status_bytes(tiles) + 15) / 16 * 16;
    }

    lookback_storage(const char* name, std::int64_t tiles, stream_t s, const temp_allocator& alloc)
        : temp(alloc, status_bytes(tiles) + state_t::value_bytes(tiles), s) {
        // std::bad_alloc (from temp) comes before anything is enqueued.
        auto* base = static_cast<unsigned char*>(temp.get());
        const std::size_t status = status_bytes(tiles);
        // The one reset per call: the ticket and the status words (values need none, a slot is
        // read only after its status). docs/decisions/0001-tile-state-reset.md: why not epochs.
        const std::size_t vectors = status / 16;
        constexpr unsigned threads = 256;
        reset_tile_states_kernel<><<<static_cast<unsigned>((vectors + threads - 1) / threads), threads,
                                     0, s>>>(reinterpret_cast<uint4*>(base), vectors);
        check_launch(name);
        state = state_t::make(base + ticket_bytes, base + status, tiles);
        ticket = reinterpret_cast<unsigned int*>(base);
    }
};

/// Launches a look-back kernel right behind the reset (lookback_storage) as a programmatic
/// dependent launch: the kernel must execute griddepcontrol.wait before it touches tile states.
template <class... Params, class... Args>
void launch_after_reset(const char* name, void (*kernel)(Params...), unsigned grid, int threads,
                        int smem, stream_t s, Args&&... args) {
    cudaLaunchConfig_t cfg{};
    cfg.gridDim = dim3(grid);
    cfg.blockDim = dim3(static_cast<unsigned>(threads));
    cfg.dynamicSmemBytes = static_cast<std::size_t>(smem);
    cfg.stream = static_cast<cudaStream_t>(s);
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr[0].val.programmaticStreamSerializationAllowed = 1;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    check(static_cast<int>(cudaLaunchKernelEx(&cfg, kernel, std::forward<Args>(args)...)), name,
          "cudaLaunchKernelEx");
}

/// The shared-memory tile path: n values in more than one tile, `in`/`out` 16-byte aligned
/// pointers (scan_bulk_agent<...>::eligible). Enqueues on `s`.
template <class Tuning, bool Ordered, class Acc, class In, class Out, class Op, class F>
void launch_scan_bulk(const char* name, In in, Out out, std::int64_t n, Op op, F f,
                      const reg_array<Acc, 1>& init, bool exclusive, bool has_init, stream_t s,
                      const temp_allocator& alloc) {
    using agent = scan_bulk_agent<Tuning, Acc, In, Out, Op, F>;
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
    launch_after_reset(name, kernel, static_cast<unsigned>(tiles), agent::threads, agent::smem_bytes,
                       s, p, st.state, st.ticket);
}

template <class BulkTuning, class Acc, class In, class Out, class Op, class F>
constexpr bool bulk_eligible() {
    if constexpr (std::is_void_v<BulkTuning>) {
        return false;
    } else {
        return scan_bulk_agent<BulkTuning, Acc, In, Out, Op, F>::eligible;
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
    if (!Ordered && tiles <= single_block_max_tiles) {
        scan_single_block_kernel<agent><<<1, agent::threads, 0, s>>>(p);
        check_launch(name);
        return;
    }
    if constexpr (bulk_eligible<BulkTuning, Acc, In, Out, Op, F>()) {
        if (mode.in_aligned && mode.out_aligned && device_has_bulk_copy(name)) {
            launch_scan_bulk<BulkTuning, Ordered, Acc>(name, in, out, n, op, f, init, exclusive,
                                                       has_init, s, alloc);
            return;
        }
    }
    if (tiles > std::numeric_limits<int>::max())
        throw_invalid_argument(name, "input too large for one launch (more than 2^31 tiles)");

    lookback_storage<Acc> st(name, tiles, s, alloc);
    using state_t = typename lookback_storage<Acc>::state_t;
    if constexpr (agent::stages >= 2) {
        const auto kernel = scan_lookback_pipelined_kernel<agent, Ordered, state_t>;
        const std::int64_t resident = resident_blocks(reinterpret_cast<const void*>(kernel),
                                                      agent::threads, name);
        const auto grid = static_cast<unsigned>(tiles < resident ? tiles : resident);
        launch_after_reset(name, kernel, grid, agent::threads, 0, s, p, st.state, st.ticket, tiles);
    } else {
        launch_after_reset(name, scan_lookback_kernel<agent, Ordered, state_t>,
                           static_cast<unsigned>(tiles), agent::threads, 0, s, p, st.state, st.ticket);
    }
}

}  // namespace sweep::detail::cuda
