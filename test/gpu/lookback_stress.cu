// test/gpu/lookback_stress.cu -- the look-back engine alone, under stress: the smallest tiles
// (one warp, one item per thread) and millions of them, for each tile-state layout (64-bit word,
// 128-bit word, split slots) and both window combines (tree; ordered left-to-right), with
// non-commutative operators so that any misordered combine shows.
#include <cstdint>
#include <vector>

#include <sweep/scan.hpp>

#include "catch.hpp"
#include "gpu_support.hpp"
#include "random.hpp"
#include "scan_matrix.hpp"

using namespace sweep_gpu_test;
namespace cu = sweep::detail::cuda;

namespace {

template <class Tuning, bool Ordered, class T, class Op>
void stress(Op op, std::int64_t n, std::uint64_t salt, bool exclusive) {
    auto g = sweep_test::rng(salt);
    const auto h = random_values<T>(static_cast<std::size_t>(n), g);
    device_vector<T> in(h), out(h.size());
    std::vector<T> want(h.size());
    const T init = sample_init<T>();
    cu::reg_array<T, 1> iv;
    iv[0] = init;
    cu::launch_scan<Tuning, Ordered, T>("stress", static_cast<const T*>(in.data()), out.data(), n, op,
                                        sweep::detail::identity{}, iv, exclusive, exclusive,
                                        nullptr, cu::make_temp_allocator<sweep::default_resource>(nullptr));
    sweep_gpu_test::cuda_ok(cudaDeviceSynchronize(), "sync");
    if (exclusive)
        sweep::exclusive_scan(sweep::seq, h.begin(), h.end(), want.begin(), init, op);
    else
        sweep::inclusive_scan(sweep::seq, h.begin(), h.end(), want.begin(), op);
    INFO("tiles of " << Tuning::tile_items << ", n = " << n << ", ordered = " << Ordered);
    CHECK(first_mismatch(out.download(), want) == -1);
}

using tiny = cu::scan_tuning<32, 1>;            // 32 items a tile, 4 windows a poll
using tiny_one = cu::scan_tuning<32, 1, 1>;     // one window a poll
using small = cu::scan_tuning<64, 2>;           // 128 items a tile, two warps
using piped = cu::scan_tuning<32, 4, 4, 2>;     // persistent, cp.async into two stages

}  // namespace

TEST_CASE("look-back stress: 64-bit status words, a million tiles, non-commutative", "[gpu][lookback]") {
    const std::int64_t n = std::int64_t{1} << 25;  // 2^20 tiles of 32
    stress<tiny, false, affine16>(affine16_then{}, n, 1, false);
    stress<tiny, true, affine16>(affine16_then{}, n, 2, true);
    stress<small, false, affine16>(affine16_then{}, n + 77, 3, true);
    stress<tiny_one, false, affine16>(affine16_then{}, n + 1, 31, false);
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

TEST_CASE("look-back stress: repeated launches reuse pool memory", "[gpu][lookback]") {
    // The pool hands back the same bytes, holding the last call's final statuses: the reset
    // must make them invisible.
    for (int i = 0; i < 20; ++i) stress<small, false, affine>(affine_then{}, (1 << 20) + i, 10 + i, i % 2);
}
