// test/gpu/lookback_stress.cu -- the look-back engine alone, under stress: the smallest tiles
// (one warp, one item per thread) and millions of them, for each tile-state layout (64-bit word,
// 128-bit word, split slots, paired 128-bit words) and both window combines (tree; ordered
// left-to-right), with non-commutative operators so that any misordered combine shows.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <type_traits>
#include <vector>

#include <sweep/copy_if.hpp>
#include <sweep/backend/cuda/dispatch/compaction.cuh>
#include <sweep/scan.hpp>
#include <sweep/segmented_scan.hpp>

#include "catch.hpp"
#include "gpu_support.hpp"
#include "random.hpp"
#include "scan_matrix.hpp"

using namespace sweep_gpu_test;
namespace cu = sweep::detail::cuda;

namespace {
/// mat2 again, as a distinct type that opts into the paired tile-state layout (tile_state_pair,
/// the layout of compensated double pairs): 16 bytes, exact and non-commutative, so that a value
/// put together from two different publications of a tile (A's half and P's half) shows.
struct mat2p {
    std::uint32_t a, b, c, d;
    friend __host__ __device__ bool operator==(const mat2p& x, const mat2p& y) {
        return x.a == y.a && x.b == y.b && x.c == y.c && x.d == y.d;
    }
};
struct mat2p_product {
    __host__ __device__ mat2p operator()(const mat2p& x, const mat2p& y) const {
        return mat2p{x.a * y.a + x.b * y.c, x.a * y.b + x.b * y.d, x.c * y.a + x.d * y.c,
                     x.c * y.b + x.d * y.d};
    }
};
}  // namespace

namespace sweep::detail::cuda::lookback {
template <>
inline constexpr bool paired_state_v<mat2p> = true;
}  // namespace sweep::detail::cuda::lookback
static_assert(std::is_same_v<cu::lookback::tile_state<mat2p>, cu::lookback::tile_state_pair<mat2p>>);

namespace {

/// Bulk = void: the register path (Tuning); else the shared-memory path with tuning Bulk.
template <class Tuning, bool Ordered, class T, class Op, class Bulk = void>
void stress(Op op, std::int64_t n, std::uint64_t salt, bool exclusive) {
    n = sweep_test::capped(n);  // SWEEP_TEST_MAX_N (sanitizer runs): fewer tiles, same paths
    auto g = sweep_test::rng(salt);
    const auto h = random_values<T>(static_cast<std::size_t>(n), g);
    device_vector<T> in(h), out(h.size());
    std::vector<T> want(h.size());
    const T init = sample_init<T>();
    cu::reg_array<T, 1> iv;
    iv[0] = init;
    cu::launch_scan<Tuning, Ordered, T, const T*, T*, Op, sweep::detail::identity, Bulk>(
        "stress", static_cast<const T*>(in.data()), out.data(), n, op, sweep::detail::identity{}, iv,
        exclusive, exclusive, nullptr, cu::make_temp_allocator<sweep::default_resource>(nullptr));
    sweep_gpu_test::cuda_ok(cudaDeviceSynchronize(), "sync");
    if (exclusive)
        sweep::exclusive_scan(sweep::seq, h.begin(), h.end(), want.begin(), init, op);
    else
        sweep::inclusive_scan(sweep::seq, h.begin(), h.end(), want.begin(), op);
    if constexpr (std::is_void_v<Bulk>) {
        INFO("register tiles of " << Tuning::tile_items);
    } else {
        INFO("shared-memory tiles of " << Bulk::tile_bytes << " bytes, " << Bulk::threads << " threads");
    }
    INFO("n = " << n << ", ordered = " << Ordered << ", exclusive = " << exclusive);
    CHECK(first_mismatch(out.download(), want) == -1);
}

/// The paired layout (mat2p): as stress(), with the values drawn here.
template <class Tuning, bool Ordered, class Bulk = void>
void stress_paired(std::int64_t n, std::uint64_t salt, bool exclusive) {
    auto g = sweep_test::rng(salt);
    std::vector<mat2p> h(static_cast<std::size_t>(n));
    for (auto& x : h)
        x = mat2p{std::uint32_t(g()), std::uint32_t(g()), std::uint32_t(g()), std::uint32_t(g())};
    device_vector<mat2p> in(h), out(h.size());
    std::vector<mat2p> want(h.size());
    const mat2p init{3, 1, 4, 1};
    cu::reg_array<mat2p, 1> iv;
    iv[0] = init;
    cu::launch_scan<Tuning, Ordered, mat2p, const mat2p*, mat2p*, mat2p_product,
                    sweep::detail::identity, Bulk>(
        "stress", static_cast<const mat2p*>(in.data()), out.data(), n, mat2p_product{},
        sweep::detail::identity{}, iv, exclusive, exclusive, nullptr,
        cu::make_temp_allocator<sweep::default_resource>(nullptr));
    sweep_gpu_test::cuda_ok(cudaDeviceSynchronize(), "sync");
    if (exclusive)
        sweep::exclusive_scan(sweep::seq, h.begin(), h.end(), want.begin(), init, mat2p_product{});
    else
        sweep::inclusive_scan(sweep::seq, h.begin(), h.end(), want.begin(), mat2p_product{});
    INFO("paired tile states (tile_state_pair), n = " << n << ", ordered = " << Ordered
                                                      << ", exclusive = " << exclusive
                                                      << ", shared-memory path = "
                                                      << !std::is_void_v<Bulk> << ", seed "
                                                      << sweep_test::seed());
    CHECK(first_mismatch(out.download(), want) == -1);
}

using tiny = cu::scan_tuning<32, 1>;            // 32 items a tile, 4 windows a poll
using tiny_one = cu::scan_tuning<32, 1, 1>;     // one window a poll
using small = cu::scan_tuning<64, 2>;           // 128 items a tile, two warps
using piped = cu::scan_tuning<32, 4, 4, 2>;     // persistent, cp.async into two stages
// Shared-memory path: the smallest tiles (one warp, one round of 32 vectors) and a multi-warp,
// multi-round geometry; speculative starts on and off.
using bulk_tiny = cu::scan_bulk_tuning<32, 512>;
using bulk_tiny_spec = cu::scan_bulk_tuning<32, 512, true>;
using bulk_small = cu::scan_bulk_tuning<64, 4096, true>;  // 2 warps x 4 rounds
// Shared-memory path with the register agent's association (scan_bulk_blocked_agent, what
// .deterministic() runs): 1, 2, 4 and 8 vectors a thread (every rotation width), one and two warps.
template <int Threads, int Items, class T>
using blocked = cu::scan_bulk_blocked_tuning<Threads, Items, sizeof(T)>;

}  // namespace

TEST_CASE("look-back stress: 64-bit status words, a million tiles, non-commutative", "[gpu][lookback]") {
    const std::int64_t n = std::int64_t{1} << 25;  // 2^20 tiles of 32
    stress<tiny, false, affine16>(affine16_then{}, n, 1, false);
    stress<tiny, true, affine16>(affine16_then{}, n, 2, true);
    stress<small, false, affine16>(affine16_then{}, n + 77, 3, true);
    stress<tiny_one, false, affine16>(affine16_then{}, n + 1, 31, false);
    // Ordered: the grouped chain of .deterministic() (lookback::grouped_exclusive_prefix; the
    // window count does not enter it), over ~31,000 groups of 32 tiles: walks of several groups
    // and, when the groups' last tiles lag, past 32 groups (group_prefix_far).
    stress<tiny_one, true, affine16>(affine16_then{}, n + 2, 33, true);
    stress<piped, false, affine16>(affine16_then{}, n + 3, 32, true);
}

TEST_CASE("look-back stress: 128-bit status words, non-commutative", "[gpu][lookback]") {
    const std::int64_t n = (std::int64_t{1} << 25) + 5;
    stress<tiny, false, affine>(affine_then{}, n, 4, false);
    stress<tiny, true, affine>(affine_then{}, n, 5, true);
    stress<small, false, affine>(affine_then{}, n, 6, true);
    stress<piped, false, affine>(affine_then{}, n, 61, false);
}

TEST_CASE("look-back stress: split status and value slots, non-commutative", "[gpu][lookback]") {
    const std::int64_t n = (std::int64_t{1} << 24) + 3;
    stress<tiny, false, mat2>(mat2_product{}, n, 7, false);
    stress<tiny, true, mat2>(mat2_product{}, n, 8, true);
    stress<small, false, mat2>(mat2_product{}, n, 9, true);
}

TEST_CASE("look-back stress: paired status words (16-byte values), non-commutative", "[gpu][lookback]") {
    const std::int64_t n = (std::int64_t{1} << 24) + 3;
    stress_paired<tiny, false>(n, 71, false);
    stress_paired<tiny, true>(n + 1, 72, true);
    stress_paired<tiny_one, true>(n + 2, 73, false);
    stress_paired<small, false>(n, 74, true);
    stress_paired<tiny, false, bulk_tiny_spec>(n / 2 + 7, 75, false);
    stress_paired<tiny, true, bulk_small>(n / 2 + 9, 76, true);
}

TEST_CASE("look-back stress: shared-memory tiles, non-commutative", "[gpu][lookback][bulk]") {
    const std::int64_t n = std::int64_t{1} << 25;
    // affine16: 4 bytes (4 a vector, 64-bit status words); affine: 8 bytes (2 a vector, 128-bit
    // words); mat2: 16 bytes (1 a vector, split slots).
    stress<tiny, false, affine16, affine16_then, bulk_tiny>(affine16_then{}, n, 41, false);
    stress<tiny, false, affine16, affine16_then, bulk_tiny_spec>(affine16_then{}, n + 3, 42, true);
    stress<tiny, true, affine16, affine16_then, bulk_small>(affine16_then{}, n + 1, 43, true);
    stress<tiny, false, affine, affine_then, bulk_tiny_spec>(affine_then{}, n + 5, 44, false);
    stress<tiny, false, affine, affine_then, bulk_small>(affine_then{}, n - 1, 45, true);
    stress<tiny, false, mat2, mat2_product, bulk_tiny_spec>(mat2_product{}, n / 2 + 7, 46, false);
    stress<tiny, true, mat2, mat2_product, bulk_small>(mat2_product{}, n / 2 + 9, 47, true);
}

TEST_CASE("look-back stress: shared-memory tiles, the register agent's association", "[gpu][lookback][bulk]") {
    const std::int64_t n = std::int64_t{1} << 24;
    // affine16 (4 bytes, 4 a vector): threads' spans of 1, 2, 4 and 8 vectors.
    stress<tiny, false, affine16, affine16_then, blocked<32, 4, affine16>>(affine16_then{}, n, 141, false);
    stress<tiny, true, affine16, affine16_then, blocked<32, 8, affine16>>(affine16_then{}, n + 3, 142, true);
    stress<tiny, true, affine16, affine16_then, blocked<64, 16, affine16>>(affine16_then{}, n + 1, 143, false);
    stress<tiny, false, affine16, affine16_then, blocked<64, 32, affine16>>(affine16_then{}, n - 1, 144, true);
    stress<tiny, true, affine16, affine16_then, blocked<128, 32, affine16>>(affine16_then{}, n + 77, 145, true);
    // affine (8 bytes, 2 a vector), mat2 (16 bytes, 1 a vector).
    stress<tiny, true, affine, affine_then, blocked<32, 2, affine>>(affine_then{}, n + 5, 146, false);
    stress<tiny, false, affine, affine_then, blocked<64, 8, affine>>(affine_then{}, n - 3, 147, true);
    stress<tiny, true, affine, affine_then, blocked<128, 16, affine>>(affine_then{}, n + 9, 148, true);
    stress<tiny, true, mat2, mat2_product, blocked<32, 1, mat2>>(mat2_product{}, n / 2 + 7, 149, true);
    stress<tiny, false, mat2, mat2_product, blocked<64, 8, mat2>>(mat2_product{}, n / 2 + 9, 150, false);
}

TEST_CASE("look-back stress: repeated launches reuse pool memory", "[gpu][lookback]") {
    // The pool hands back the same bytes, holding the last call's final statuses: the reset
    // must make them invisible.
    for (int i = 0; i < 20; ++i) stress<small, false, affine>(affine_then{}, (1 << 20) + i, 10 + i, i % 2);
    for (int i = 0; i < 10; ++i)
        stress<small, false, affine, affine_then, bulk_small>(affine_then{}, (1 << 20) + i, 50 + i, i % 2);
}

namespace {
/// Not associative (h(h(a, b), c) != h(a, h(b, c)) in general): any change of the tree shows.
struct hash_op {
    __host__ __device__ std::uint32_t operator()(std::uint32_t a, std::uint32_t b) const {
        return a * 31u + b;
    }
};

/// One warp per entry of `tiles`: the grouped chain's exclusive prefix of that tile over a tile
/// state the host filled in before the launch (nothing waits).
__global__ void grouped_prefix_kernel(cu::lookback::tile_state_64<std::uint32_t> state,
                                      const std::int64_t* tiles, const std::uint32_t* aggs,
                                      std::uint32_t* out, int has_init, std::uint32_t init) {
    const std::int64_t t = tiles[blockIdx.x];
    hash_op op;
    const cu::maybe<std::uint32_t> i = has_init ? cu::maybe<std::uint32_t>(init) : cu::maybe<std::uint32_t>();
    const cu::maybe<std::uint32_t> e =
        cu::lookback::grouped_exclusive_prefix<0>(state, t, aggs[t], i, op, static_cast<int>(threadIdx.x));
    if (threadIdx.x == 0) out[blockIdx.x] = e.has ? e.get() : 0xFFFFFFFFu;
}
}  // namespace

TEST_CASE("look-back: the grouped chain's walks, past 32 groups and to the start", "[gpu][lookback]") {
    // 45 groups of 32 tiles and 7 more, every aggregate published; the groups' prefixes (P at
    // their last tile) published only for `with_p`. Tiles far from any P walk past 32 groups
    // (group_prefix_far) or to the start (the init); the result must be the host's group_chain.
    constexpr std::int64_t tiles = 45 * 32 + 7;
    auto g = sweep_test::rng(90);
    std::vector<std::uint32_t> a(tiles);
    for (auto& x : a) x = static_cast<std::uint32_t>(g());
    // (Tile 31 would republish group 0's P, which the {0, 40} case prepublishes: 30 instead.)
    const std::vector<std::int64_t> probe{0, 1, 30, 32, 33, 63, 64, 700, 1055, 1056, 1100, 1407,
                                          1408, 1414, 1439, 1440, 1446};
    hash_op op;
    for (const bool has_init : {false, true}) {
        for (const std::vector<std::int64_t>& with_p :
             {std::vector<std::int64_t>{}, std::vector<std::int64_t>{2}, std::vector<std::int64_t>{0, 40}}) {
            const std::uint32_t init = 12345u;
            using chain = sweep::detail::canonical::group_chain<std::uint32_t>;
            const auto opt_init = has_init ? sweep::detail::canonical::opt<std::uint32_t>(init)
                                           : sweep::detail::canonical::opt<std::uint32_t>();
            // Host: the words, and each probe's expected prefix.
            std::vector<std::uint64_t> words(tiles);
            chain c(opt_init);
            std::vector<std::uint32_t> want;
            for (std::int64_t t = 0; t < tiles; ++t) words[t] = (std::uint64_t{a[t]} << 32) | 1u;
            {
                chain w(opt_init);
                for (std::int64_t t = 0; t < tiles; ++t) {
                    w.push(a[t], op);
                    const std::int64_t grp = t / 32;
                    if (t % 32 == 31 && std::find(with_p.begin(), with_p.end(), grp) != with_p.end())
                        words[t] = (std::uint64_t{w.before.v} << 32) | 2u;  // G_grp as P
                }
            }
            for (const std::int64_t t : probe) {
                chain p(opt_init);
                for (std::int64_t u = 0; u < t; ++u) p.push(a[u], op);
                const auto e = p.prefix(op);
                want.push_back(e.has ? e.v : 0xFFFFFFFFu);
            }
            device_vector<std::uint64_t> dw(words);
            device_vector<std::uint32_t> da(a), dout(probe.size());
            device_vector<std::int64_t> dt(probe);
            grouped_prefix_kernel<<<static_cast<unsigned>(probe.size()), 32>>>(
                cu::lookback::tile_state_64<std::uint32_t>{dw.data()}, dt.data(), da.data(),
                dout.data(), has_init ? 1 : 0, init);
            cuda_ok(cudaGetLastError(), "launch");
            cuda_ok(cudaDeviceSynchronize(), "sync");
            const auto got = dout.download();
            for (std::size_t i = 0; i < probe.size(); ++i) {
                INFO("tile " << probe[i] << ", init " << has_init << ", prefixes at "
                             << with_p.size() << " groups");
                CHECK(got[i] == want[i]);
            }
        }
    }
}

namespace {
/// A scan enqueued on `s` and not waited for; check() compares its output with seq once the
/// stream is done. The buffers live as long as the closure.
template <class Tuning, bool Ordered, class T, class Op, class Bulk = void>
std::function<void()> enqueue(Op op, std::int64_t n, std::uint64_t salt, cudaStream_t s,
                              const char* what) {
    auto g = sweep_test::rng(salt);
    const auto h = random_values<T>(static_cast<std::size_t>(n), g);
    auto in = std::make_shared<device_vector<T>>(h);
    auto out = std::make_shared<device_vector<T>>(h.size());
    cu::reg_array<T, 1> iv;
    iv[0] = sample_init<T>();
    cu::launch_scan<Tuning, Ordered, T, const T*, T*, Op, sweep::detail::identity, Bulk>(
        "arena", static_cast<const T*>(in->data()), out->data(), n, op, sweep::detail::identity{},
        iv, false, false, s, cu::make_temp_allocator<sweep::default_resource>(nullptr));
    std::vector<T> want(h.size());
    sweep::inclusive_scan(sweep::seq, h.begin(), h.end(), want.begin(), op);
    return [in, out, want = std::move(want), n, what] {
        INFO(what << ", n = " << n << ", seed " << sweep_test::seed());
        CHECK(first_mismatch(out->download(), want) == -1);
    };
}

/// copy_if on `s` (it waits for its count): compaction's tile states take the same arena.
/// `flag`: through the dispatch layer with compaction_wait::flag, whose handoff kernel reads the
/// count from the arena half the pass used (no launch of another thread on the stream may come
/// between the two: dispatch/compaction.cuh launches both under the arena's lease).
std::function<void()> enqueue_copy_if(std::int64_t n, std::uint64_t salt, cudaStream_t s,
                                      bool flag = false) {
    auto g = sweep_test::rng(salt);
    std::vector<std::int32_t> h(static_cast<std::size_t>(n));
    for (auto& x : h) x = static_cast<std::int32_t>(g() % 1000);
    device_vector<std::int32_t> in(h), out(h.size());
    auto odd = [] __host__ __device__(std::int32_t x) { return (x & 1) != 0; };
    const std::int32_t* src = in.data();
    const std::int64_t kept =
        flag ? cu::run_compaction<cu::default_compaction_tuning<std::int32_t>>(
                   "copy_if", src, src, true, out.data(), out.data(), false, false, n, odd, s,
                   cu::make_temp_allocator<sweep::default_resource>(nullptr),
                   cu::compaction_path::automatic, nullptr, cu::compaction_l2_hint::automatic,
                   cu::compaction_wait::flag)
             : sweep::copy_if(sweep::gpu.on(s), in.begin(), in.end(), out.begin(), odd) -
                   out.begin();
    // With the flag: the handoff kernel ran (the slot holds the count; a failed handoff launch
    // leaves compaction_count_unset there and falls back to the stream wait).
    const std::int64_t* const slot = cu::mapped_count_slot();
    const bool handed = !flag || slot == nullptr || *static_cast<const volatile std::int64_t*>(slot) == kept;
    std::vector<std::int32_t> want;
    for (auto x : h)
        if (x & 1) want.push_back(x);
    auto got = out.download();
    got.resize(static_cast<std::size_t>(kept < 0 ? 0 : kept));
    return [got = std::move(got), want = std::move(want), n, flag, handed] {
        INFO("copy_if" << (flag ? " (count by the flag kernel)" : "") << ", n = " << n
                       << ", seed " << sweep_test::seed());
        CHECK(handed);
        CHECK(got == want);
    };
}

/// inclusive_scan_by_key on `s`, not waited for: the segmented scans take the same arena (by key
/// and by head flags, since session 9), with the (head, value) pair's tile-state layout.
std::function<void()> enqueue_by_key(std::int64_t n, std::uint64_t salt, cudaStream_t s) {
    auto g = sweep_test::rng(salt);
    std::vector<std::int32_t> keys(static_cast<std::size_t>(n)), vals(keys.size());
    std::int32_t key = 0;
    for (std::size_t i = 0; i < keys.size(); ++i) {
        if (g() % 97 == 0) ++key;  // segments of about 97
        keys[i] = key;
        vals[i] = static_cast<std::int32_t>(g() % 2001) - 1000;
    }
    auto dk = std::make_shared<device_vector<std::int32_t>>(keys);
    auto dv = std::make_shared<device_vector<std::int32_t>>(vals);
    auto out = std::make_shared<device_vector<std::int32_t>>(keys.size());
    sweep::inclusive_scan_by_key(sweep::gpu.on(s), dk->begin(), dk->end(), dv->begin(), out->begin());
    std::vector<std::int32_t> want(keys.size());
    sweep::inclusive_scan_by_key(sweep::seq, keys.begin(), keys.end(), vals.begin(), want.begin());
    return [dk, dv, out, want = std::move(want), n] {
        INFO("inclusive_scan_by_key, n = " << n << ", seed " << sweep_test::seed());
        CHECK(first_mismatch(out->download(), want) == -1);
    };
}

/// segmented_inclusive_scan over offsets on `s` (it waits for the offsets' verdict only): the
/// validation word, the states and the tile index in the arena.
std::function<void()> enqueue_offsets(std::int64_t n, std::uint64_t salt, cudaStream_t s) {
    auto g = sweep_test::rng(salt);
    std::vector<std::int64_t> offs{0};
    std::vector<std::int32_t> vals(static_cast<std::size_t>(n));
    for (std::size_t i = 0; i < vals.size(); ++i) {
        if (i > 0 && g() % 61 == 0) offs.push_back(static_cast<std::int64_t>(i));
        vals[i] = static_cast<std::int32_t>(g() % 2001) - 1000;
    }
    offs.push_back(n);
    auto dofs = std::make_shared<device_vector<std::int64_t>>(offs);
    auto dv = std::make_shared<device_vector<std::int32_t>>(vals);
    auto out = std::make_shared<device_vector<std::int32_t>>(vals.size());
    sweep::segmented_inclusive_scan(sweep::gpu.on(s), dv->begin(), dv->end(), out->begin(),
                                    sweep::offsets(dofs->begin(), dofs->end()));
    std::vector<std::int32_t> want(vals.size());
    sweep::segmented_inclusive_scan(sweep::seq, vals.begin(), vals.end(), want.begin(),
                                    sweep::offsets(offs.begin(), offs.end()));
    return [dofs, dv, out, want = std::move(want), n] {
        INFO("segmented_inclusive_scan over offsets, n = " << n << ", seed " << sweep_test::seed());
        CHECK(first_mismatch(out->download(), want) == -1);
    };
}

/// Launches of every tile-state layout and path on `s`, back to back: tile counts at the capacity
/// of an arena's half and one past it (temporary memory and a reset instead), large calls between
/// small ones, few tiles after many, layouts after one another (a launch's status words where the
/// last one's value slots were). Each must find the tile states clean.
std::vector<std::function<void()>> arena_sequence(cudaStream_t s, std::uint64_t salt) {
    // 64-bit words: (half - 128) / 8 tiles of 32 fill a half exactly.
    constexpr std::int64_t fill64 = (cu::clean_arena_bytes - cu::ticket_bytes) / 8 * 32;
    constexpr std::int64_t fill128 = (cu::clean_arena_bytes - cu::ticket_bytes) / 16 * 32;
    std::vector<std::function<void()>> checks;
    for (int round = 0; round < 3; ++round) {
        const std::uint64_t k = salt + 100 * round;
        checks.push_back(enqueue<tiny, false, affine16>(affine16_then{}, fill64, k + 1, s, "64-bit words, arena full"));
        checks.push_back(enqueue<tiny, false, affine16>(affine16_then{}, 5 * 32, k + 2, s, "64-bit words, 5 tiles"));
        checks.push_back(enqueue<tiny, false, affine16>(affine16_then{}, fill64 + 1, k + 3, s, "64-bit words, one tile past the arena"));
        checks.push_back(enqueue<tiny, true, affine16>(affine16_then{}, 40 * 32 + 3, k + 4, s, "ordered (grouped chain)"));
        checks.push_back(enqueue<tiny, false, affine>(affine_then{}, fill128, k + 5, s, "128-bit words, arena full"));
        checks.push_back(enqueue<tiny, false, affine16>(affine16_then{}, std::int64_t{1} << 20, k + 6, s, "64-bit words, 2^15 tiles"));
        checks.push_back(enqueue<tiny, false, mat2>(mat2_product{}, 300 * 32 + 1, k + 7, s, "split slots"));
        checks.push_back(enqueue<piped, false, affine16>(affine16_then{}, 1500 * 128 + 9, k + 8, s, "persistent kernel"));
        checks.push_back(enqueue<tiny, false, affine16, affine16_then, bulk_small>(
            affine16_then{}, 1500 * 1024 + 7, k + 9, s, "shared-memory tiles"));
        checks.push_back(enqueue<tiny, false, affine16, affine16_then, bulk_tiny_spec>(
            affine16_then{}, 2000 * 128 + 1, k + 10, s, "shared-memory tiles, speculative"));
        checks.push_back(enqueue_copy_if(100000 + 17 * round, k + 11, s));
        checks.push_back(enqueue_copy_if(1500000 + 13 * round, k + 15, s, true));
        checks.push_back(enqueue_by_key(300000 + 31 * round, k + 12, s));
        checks.push_back(enqueue_offsets(200000 + 7 * round, k + 14, s));
        checks.push_back(enqueue<tiny, true, affine16, affine16_then, blocked<64, 16, affine16>>(
            affine16_then{}, 900 * 1024 + 5, k + 13, s, "shared-memory tiles, blocked, ordered"));
    }
    return checks;
}

/// The half of `named`'s arena that the next launch gets is all zero (the launch before zeroed
/// what the one before it used). The stream must be idle.
void arena_is_clean(cudaStream_t named) {
    cu::arena_lease lease(named, cu::clean_arena_bytes);  // never launched(): nothing changes
    REQUIRE(lease.states() != nullptr);
    std::vector<unsigned char> bytes(cu::clean_arena_bytes, 0xFF);
    sweep_gpu_test::cuda_ok(cudaMemcpy(bytes.data(), lease.states(), bytes.size(), cudaMemcpyDeviceToHost), "D2H");
    CHECK(std::count(bytes.begin(), bytes.end(), 0) == static_cast<std::ptrdiff_t>(bytes.size()));
}
}  // namespace

TEST_CASE("look-back: launches on a stream's clean arena leave it clean", "[gpu][lookback][arena]") {
    cudaStream_t s;
    sweep_gpu_test::cuda_ok(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "stream");
    const int made = cu::clean_state_arenas_made();
    auto checks = arena_sequence(s, 900);
    // A new stream got its arena (the path under test is taken).
    if (made < cu::max_clean_arenas) CHECK(cu::clean_state_arenas_made() == made + 1);
    sweep_gpu_test::cuda_ok(cudaStreamSynchronize(s), "sync");
    for (auto& c : checks) c();
    arena_is_clean(s);

    // Captured calls take temporary memory and a reset node: a replay runs beside later calls on
    // the stream's arena, and both stay right.
    const std::int64_t n = 700 * 32 + 5;
    auto g = sweep_test::rng(950);
    auto h = random_values<affine16>(static_cast<std::size_t>(n), g);
    device_vector<affine16> in(h), out(h.size());
    cudaGraph_t graph;
    sweep_gpu_test::cuda_ok(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal), "capture");
    cu::reg_array<affine16, 1> iv;
    cu::launch_scan<tiny, false, affine16, const affine16*, affine16*, affine16_then, sweep::detail::identity, void>(
        "arena", static_cast<const affine16*>(in.data()), out.data(), n, affine16_then{},
        sweep::detail::identity{}, iv, false, false, s, cu::make_temp_allocator<sweep::default_resource>(nullptr));
    sweep_gpu_test::cuda_ok(cudaStreamEndCapture(s, &graph), "end capture");
    cudaGraphExec_t exec;
    sweep_gpu_test::cuda_ok(cudaGraphInstantiate(&exec, graph, 0), "instantiate");
    std::vector<affine16> want(h.size());
    for (int replay = 0; replay < 3; ++replay) {
        h = random_values<affine16>(static_cast<std::size_t>(n), g);
        in.upload(h);
        out.poison();
        sweep_gpu_test::cuda_ok(cudaGraphLaunch(exec, s), "launch");
        auto more = arena_sequence(s, 960 + replay);
        sweep_gpu_test::cuda_ok(cudaStreamSynchronize(s), "sync");
        for (auto& c : more) c();
        sweep::inclusive_scan(sweep::seq, h.begin(), h.end(), want.begin(), affine16_then{});
        INFO("graph replay " << replay);
        CHECK(first_mismatch(out.download(), want) == -1);
    }
    arena_is_clean(s);
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
    cudaStreamDestroy(s);
}

TEST_CASE("look-back: clean arenas under several host threads", "[gpu][lookback][arena]") {
    // Half the threads (four; SWEEP_TEST_THREADS / 2 in sanitizer runs, at least two) share the
    // legacy default stream (one arena, stream order between them); as many more have a stream
    // each (an arena each).
    const int half = std::max(2, sweep_test::test_threads(8) / 2);
    const int all = 2 * half;
    std::vector<std::thread> pool;
    std::mutex m;
    std::vector<std::function<void()>> checks;
    std::vector<cudaStream_t> streams(static_cast<std::size_t>(all), nullptr);
    for (int t = half; t < all; ++t)
        sweep_gpu_test::cuda_ok(cudaStreamCreateWithFlags(&streams[t], cudaStreamNonBlocking), "stream");
    // SWEEP_TEST_SERIALIZE=1 (racecheck runs): the threads take turns, a whole sequence each
    // (racecheck fails to track launches made at the same moment into one stream).
    const bool serialize = sweep_test::test_knob("SWEEP_TEST_SERIALIZE", 0) != 0;
    std::mutex turn_mutex;
    for (int t = 0; t < all; ++t) {
        pool.emplace_back([t, &m, &checks, &turn_mutex, serialize, s = streams[t]] {
            std::unique_lock<std::mutex> turn(turn_mutex, std::defer_lock);
            if (serialize) turn.lock();
            auto mine = arena_sequence(s, 1000 + 50 * t);
            sweep_gpu_test::cuda_ok(cudaStreamSynchronize(s), "sync");
            if (serialize) turn.unlock();
            std::lock_guard<std::mutex> lock(m);
            for (auto& c : mine) checks.push_back(std::move(c));
        });
    }
    for (auto& th : pool) th.join();
    // Catch2's assertions on the main thread only.
    for (auto& c : checks) c();
    for (int t = half; t < all; ++t) {
        arena_is_clean(streams[t]);
        cudaStreamDestroy(streams[t]);
    }
    arena_is_clean(cudaStreamLegacy);
}
