// sweep/backend/tbb/scan.hpp -- par backend (oneTBB): inclusive/exclusive, plain/transform scans.
//
// One chained pass (chained_pass.hpp) over fixed blocks of scan_block elements: reduce each block
// in cache, hand the prefix on, scan the block again from cache with its carry-in. The result
// depends on the block size only, never on `.threads(k)`; for integers it equals seq's.
// `.deterministic()` (operators that are not exact): the same chained pass over blocks of whole
// canonical tiles (detail/canonical.hpp); a block contributes its tiles' aggregates to the chain
// of 32-tile groups (canonical::group_chain, handed from block to block), so the result is the
// canonical tree's whatever the block size or thread count.
#pragma once

#include <cstdint>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include <sweep/backend/tbb/chained_pass.hpp>
#include <sweep/backend/tbb/scan_bricks.hpp>
#include <sweep/detail/canonical.hpp>
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

namespace tbb_backend {
/// `.deterministic()`: the canonical tree, in blocks of whole tiles.
template <bool Exclusive, class Acc, class In, class Out, class Op, class F, class Init>
void canonical_scan(int max_threads, In first, std::int64_t n, Out d_first, Op& op, F& f,
                    Init& init) {
    using G = canonical::geometry<Acc>;
    constexpr std::int64_t tiles_per_block =
        scan_block / G::tile_items > 0 ? scan_block / G::tile_items : 1;
    constexpr std::int64_t block = tiles_per_block * G::tile_items;
    const block_grid grid{n, block};
    using chain_t = canonical::group_chain<Acc>;
    std::optional<chain_t> carry0;
    if constexpr (has_init_v<Init>)
        carry0.emplace(canonical::opt<Acc>(static_cast<Acc>(init)));
    auto get = [&](std::int64_t i) -> Acc { return static_cast<Acc>(f(first[i])); };
    auto put = [&](std::int64_t i, const Acc& v) { d_first[i] = v; };
    chained_pass_linked<chain_t>(
        max_threads, grid.count(), std::move(carry0),
        [&](std::int64_t b) {  // the aggregates of the block's tiles (all full: not the last block)
            canonical::workspace<Acc> ws;
            std::vector<Acc> aggs;
            aggs.reserve(static_cast<std::size_t>(tiles_per_block));
            for (std::int64_t t = 0; t < tiles_per_block; ++t)
                aggs.push_back(canonical::tile_aggregate(ws, get, op, grid.begin(b) + t * G::tile_items));
            return aggs;
        },
        [&](const chain_t* prefix, std::vector<Acc>&& aggs) -> chain_t {
            chain_t c = prefix ? *prefix : chain_t();
            for (const Acc& a : aggs) c.push(a, op);
            return c;
        },
        [&](std::int64_t b, const chain_t* carry) {
            canonical::workspace<Acc> ws;
            chain_t c = carry ? *carry : chain_t();
            for (std::int64_t base = grid.begin(b); base < grid.end(b); base += G::tile_items) {
                const std::int64_t len =
                    grid.end(b) - base < G::tile_items ? grid.end(b) - base : G::tile_items;
                const canonical::opt<Acc> a =
                    canonical::tile_scan<Exclusive>(ws, get, put, op, base, len, c.prefix(op));
                if (a.has) c.push(a.v, op);
            }
        });
}
}  // namespace tbb_backend

template <bool Exclusive, class Acc, class P, class In, class Out, class Op, class F, class Init>
Out scan(par_tag, const P& policy, const char*, In first, std::int64_t n, Out d_first, Op op, F f, Init init) {
    using namespace tbb_backend;
    if (n == 0) return d_first;
    if constexpr (use_canonical_v<P, Acc, Op> && std::is_trivially_copyable_v<Acc>) {
        canonical_scan<Exclusive, Acc>(policy.max_threads, first, n, d_first, op, f, init);
        return d_first + n;
    }
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
