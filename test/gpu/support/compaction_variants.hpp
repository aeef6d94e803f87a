// test/gpu/support/compaction_variants.hpp -- the shared-memory (bulk) compaction path with a
// given tile geometry (tuning/compaction_tuning.cuh compaction_bulk_tuning, e.g. the two-stage
// variants that the perf suite's `tuning` mode times and that are not the default) against seq:
// copy_if, partition_copy and the in-place pass (forward and mirrored), through the dispatch
// layer's run_compaction with compaction_path::bulk.
//
// Sizes: the edges of the variant's tile (1, tile - 1, tile, tile + 1: these small ones take the
// single-block kernel, as every call of at most 4 register tiles does), of 5 tiles, of a warp's
// segment and of a 512-byte round inside the last tile, 37 tiles + 11, and "many": more than
// three times the tiles the device holds at once (blocks of the two-stage kernel then loop over
// several tickets each, the partial tile inside a loop), both directions of the in-place pass.
// Outputs are poisoned: nothing may be written past a returned end.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <sweep/copy_if.hpp>
#include <sweep/partition.hpp>
#include <sweep/backend/cuda/dispatch/compaction.cuh>

#include "catch.hpp"
#include "compaction_matrix.hpp"
#include "gpu_support.hpp"
#include "random.hpp"

namespace sweep_gpu_test {

namespace cuv = sweep::detail::cuda;

template <class T, class Bulk>
using variant_agent = cuv::compaction_bulk_agent<Bulk, const T*, const T*, T*, T*, keep_percent>;

template <class Bulk>
std::string variant_name() {
    return "bulk " + std::to_string(Bulk::threads) + " threads x " +
           std::to_string(Bulk::tile_bytes) + " B, min blocks " + std::to_string(Bulk::min_blocks) +
           ", stages " + std::to_string(Bulk::stages);
}

/// How many blocks of the variant's kernel the device holds at once.
template <class T, class Bulk>
std::int64_t variant_resident_blocks() {
    using agent = variant_agent<T, Bulk>;
    const auto kernel = reinterpret_cast<const void*>(cuv::compaction_bulk_kernel_for<agent>());
    cuv::allow_dynamic_smem(kernel, agent::smem_bytes, "test");
    return cuv::resident_blocks(kernel, agent::threads, "test", agent::smem_bytes);
}

template <class T, class Bulk>
std::vector<std::int64_t> variant_sizes(std::int64_t& many) {
    using agent = variant_agent<T, Bulk>;
    const std::int64_t bt = agent::tile_items;
    const std::int64_t warp = agent::warp_items;  // a placing warp's segment
    const std::int64_t round = agent::round_items;
    many = (3 * variant_resident_blocks<T, Bulk>() + 2) * bt + 5;
    std::vector<std::int64_t> s;
    for (const std::int64_t n :
         {std::int64_t{1}, bt - 1, bt, bt + 1, 5 * bt - 1, 5 * bt, 5 * bt + 1, 6 * bt + warp,
          6 * bt + warp + 1, 6 * bt + 2 * warp + round - 1, 6 * bt + 3 * warp + round + 1,
          37 * bt + 11, many})
        if (n <= max_test_size()) s.push_back(n);
    if (many > max_test_size()) WARN("SWEEP_TEST_MAX_N leaves out the size " << many);
    return s;
}

/// copy_if, partition_copy and the in-place pass on the bulk path with tile geometry Bulk.
template <class T, class Bulk>
void check_variant(const std::vector<T>& h, unsigned pct, const std::string& what) {
    const keep_percent pred{pct};
    const auto n = static_cast<std::int64_t>(h.size());
    const std::size_t slack = 33;
    using agent = variant_agent<T, Bulk>;
    INFO(variant_name<Bulk>() << " (tile " << agent::tile_items << " elements of " << sizeof(T)
                              << " B), " << what << ", n = " << n << ", seed "
                              << sweep_test::seed());
    std::vector<T> want(h.size()), want_f(h.size());
    const auto [et, ef] =
        sweep::partition_copy(sweep::seq, h.begin(), h.end(), want.begin(), want_f.begin(), pred);
    (void)ef;
    const std::int64_t k = et - want.begin();

    device_vector<T> in(h), out(h.size() + slack), out2(h.size() + slack);
    const auto alloc = cuv::make_temp_allocator<sweep::default_resource>(nullptr);
    const T* src = in.data();
    using reg = cuv::default_compaction_tuning<T>;
    const auto run = [&](const char* name, const T* from, T* t, T* f, bool split, bool fenced,
                         bool* mirrored) {
        return cuv::run_compaction<reg, const T*, const T*, T*, T*, keep_percent, Bulk>(
            name, from, from, true, t, f, split, fenced, n, pred, nullptr, alloc,
            cuv::compaction_path::bulk, mirrored);
    };
    {
        INFO("copy_if");
        const std::int64_t got_k = run("copy_if", src, out.data(), out.data(), false, false, nullptr);
        REQUIRE(got_k == k);
        const auto got = out.download();
        check_kept(got, want, k);
    }
    {
        INFO("partition_copy");
        out.poison();
        const std::int64_t got_k =
            run("partition_copy", src, out.data(), out2.data(), true, false, nullptr);
        REQUIRE(got_k == k);
        const auto got_t = out.download();
        const auto got_f = out2.download();
        check_split(got_t, got_f, want, want_f, n, k);
    }
    {
        // The in-place pass by hand (as run_partition_in_place): kept in place at the front and
        // rejected to the temporary, or mirrored (the sample saw fewer than half kept): rejected
        // in place at the back, kept to the temporary's last k slots.
        device_vector<T> range(h), temp(h.size());
        bool mirrored = false;
        const std::int64_t got_k = run("stable_partition", static_cast<const T*>(range.data()),
                                       range.data(), temp.data(), true, true, &mirrored);
        INFO("in place, " << (mirrored ? "mirrored" : "forward"));
        REQUIRE(got_k == k);
        // Past 4 register tiles the bulk path serves the call and the sample decides.
        if (n > 4 * compaction_tile_of<T>() && (pct == 0 || pct == 100)) CHECK(mirrored == (pct == 0));
        const auto r = range.download();
        const auto t = temp.download();
        if (mirrored) {
            CHECK(same_bits(t.data() + (n - k), want.data(), static_cast<std::size_t>(k)));
            CHECK(same_bits(r.data() + k, want_f.data(), static_cast<std::size_t>(n - k)));
        } else {
            CHECK(same_bits(r.data(), want.data(), static_cast<std::size_t>(k)));
            CHECK(same_bits(t.data(), want_f.data(), static_cast<std::size_t>(n - k)));
        }
    }
}

template <class T, class Bulk>
void check_variant_sizes(std::uint64_t salt) {
    // compaction_path::bulk falls back to the register path below sm_90: the cases would then not
    // test the variant at all.
    int device = 0, major = 0;
    cuda_ok(cudaGetDevice(&device), "cudaGetDevice");
    cuda_ok(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device), "attr");
    INFO("compute capability major " << major << ": cp.async.bulk needs sm_90");
    REQUIRE(major >= 9);
    std::int64_t many = 0;
    for (const std::int64_t n : variant_sizes<T, Bulk>(many)) {
        auto g = sweep_test::rng(salt * 1000003 + static_cast<std::uint64_t>(n));
        const auto h = random_inputs<T>(n, g);
        for (const unsigned pct : {0u, 1u, 50u, 99u, 100u})
            check_variant<T, Bulk>(h, pct, "keep " + std::to_string(pct) + " %");
        for (const std::int64_t max_run : {std::int64_t{40}, std::int64_t{5000}}) {
            if (n == many && max_run == 40) continue;  // (time: one runs case at this size)
            const auto hr = inputs_with_flags<T>(random_runs(n, max_run, g), g);
            check_variant<T, Bulk>(hr, 50, "random runs of up to " + std::to_string(max_run));
        }
    }
}

/// The tile geometries of the perf suite's `tuning` mode that are not the default.
using stage2_128_16k = cuv::compaction_bulk_tuning<128, 16 * 1024, 6, 2>;
using stage2_128_24k = cuv::compaction_bulk_tuning<128, 24 * 1024, 4, 2>;
using stage2_128_12k = cuv::compaction_bulk_tuning<128, 12 * 1024, 8, 2>;
using stage2_256_16k = cuv::compaction_bulk_tuning<256, 16 * 1024, 6, 2>;
using stage2_256_24k = cuv::compaction_bulk_tuning<256, 24 * 1024, 4, 2>;
using stage3_160_16k = cuv::compaction_bulk_tuning<160, 16 * 1024, 4, 3>;
using stage3_160_8k = cuv::compaction_bulk_tuning<160, 8 * 1024, 8, 3>;
using stage3_288_16k = cuv::compaction_bulk_tuning<288, 16 * 1024, 4, 3>;

}  // namespace sweep_gpu_test

/// One TEST_CASE per (value type, variant), so that a run (or a sanitizer) can pick one by name,
/// e.g. "gpu compaction variants: int32, 2-stage 128 x 16K".
#define SWEEP_COMPACTION_VARIANT_CASE(T, type_name, V, variant_name, salt)                        \
    TEST_CASE("gpu compaction variants: " type_name ", " variant_name,                           \
              "[gpu][compaction][variants]") {                                                   \
        sweep_gpu_test::check_variant_sizes<T, sweep_gpu_test::V>(salt);                        \
    }

/// The eight variants for one value type (salts salt * 8 + 0..7).
#define SWEEP_COMPACTION_VARIANT_CASES(T, type_name, salt)                                        \
    SWEEP_COMPACTION_VARIANT_CASE(T, type_name, stage2_128_16k, "2-stage 128 x 16K", salt * 8 + 0) \
    SWEEP_COMPACTION_VARIANT_CASE(T, type_name, stage2_128_24k, "2-stage 128 x 24K", salt * 8 + 1) \
    SWEEP_COMPACTION_VARIANT_CASE(T, type_name, stage2_128_12k, "2-stage 128 x 12K", salt * 8 + 2) \
    SWEEP_COMPACTION_VARIANT_CASE(T, type_name, stage2_256_16k, "2-stage 256 x 16K", salt * 8 + 3) \
    SWEEP_COMPACTION_VARIANT_CASE(T, type_name, stage2_256_24k, "2-stage 256 x 24K", salt * 8 + 4) \
    SWEEP_COMPACTION_VARIANT_CASE(T, type_name, stage3_160_16k, "3-stage 160 x 16K", salt * 8 + 5) \
    SWEEP_COMPACTION_VARIANT_CASE(T, type_name, stage3_160_8k, "3-stage 160 x 8K", salt * 8 + 6)   \
    SWEEP_COMPACTION_VARIANT_CASE(T, type_name, stage3_288_16k, "3-stage 288 x 16K", salt * 8 + 7)
