// sweep/backend/tbb/scan.hpp -- par backend (oneTBB): inclusive/exclusive, plain/transform scans.
//
// One chained pass (chained_pass.hpp) over fixed blocks of scan_block elements: reduce each block
// in cache, hand the prefix on, scan the block again from cache with its carry-in. The result
// depends on the block size only, never on `.threads(k)`; for integers it equals seq's.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>

#include <sweep/backend/tbb/chained_pass.hpp>
#include <sweep/backend/tbb/scan_bricks.hpp>
#include <sweep/detail/dispatch.hpp>
#include <sweep/detail/scan_common.hpp>

namespace sweep::detail {

namespace tbb_backend {
/// Elements per block. 32K elements are 128 KiB of int32 or 256 KiB of double: input plus output
/// of one block (at most 512 KiB for 8-byte types) stay in a 1 MiB (Zen 4) or 2 MiB (Sapphire
/// Rapids) L2 between the two passes, while a 2^27 input still gives 4096 blocks, so the chain of
/// hand-offs (~0.2 us each) stays far below the block's work (~30 us). Not yet swept by
/// measurement. Changing it changes floating-point results (the association): a constant.
inline constexpr std::int64_t scan_block = std::int64_t{1} << 15;
}  // namespace tbb_backend

template <bool Exclusive, class Acc, class P, class In, class Out, class Op, class F, class Init>
Out scan(par_tag, const P& policy, const char*, In first, std::int64_t n, Out d_first, Op op, F f, Init init) {
    using namespace tbb_backend;
    if (n == 0) return d_first;
    const block_grid grid{n, scan_block};
    std::optional<Acc> carry0;
    if constexpr (has_init_v<Init>) carry0.emplace(std::move(init));
    chained_pass<Acc>(
        policy.max_threads, grid.count(), std::move(carry0),
        [&](std::int64_t b) { return block_reduce<Acc>(first, grid.begin(b), grid.end(b), op, f); },
        [&](const Acc& prefix, Acc&& local) { return Acc(op(prefix, std::move(local))); },
        [&](std::int64_t b, const Acc* carry) {
            block_scan<Exclusive, Acc>(first, grid.begin(b), grid.end(b), d_first, op, f, carry);
        });
    return d_first + n;
}

}  // namespace sweep::detail
