// test/gpu/segmented_types.cu -- sweep::gpu segmented scans over every built-in value type and
// every built-in key type, against sweep::seq, at sizes around each type's tile.
//
// Values: int8 .. uint64, float, double (sums: exact for integers and for the small
// integer-valued floats of random_values), with int32 keys, head flags and int64 offsets; plus
// min/max. Keys: int8 .. uint64, float, double with int32 values. The fuller semantics (every
// form, distributions, non-commutative operators, errors) are in segmented_scan.cu.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <sweep/segmented_scan.hpp>

#include "catch.hpp"
#include "gpu_support.hpp"
#include "random.hpp"
#include "segments.hpp"

using namespace sweep_gpu_test;

namespace {

template <class T>
void check_value_type(std::uint64_t salt) {
    using tn = sweep::detail::cuda::default_segmented_tuning<T>;
    const std::int64_t tile = tn::tile_items;
    for (const std::int64_t n : sweep_test::within_cap({std::int64_t{1}, tile - 1, tile + 1, 4 * tile, 4 * tile + 1,
                                 37 * tile + 11})) {
        for (const seg_dist dist : {seg_dist::all_heads, seg_dist::mean100, seg_dist::skewed,
                                    seg_dist::tile_edges, seg_dist::one_segment}) {
            auto g = sweep_test::rng(salt++);
            const auto h = make_heads(n, dist, tile, tn::items, g);
            const seg_forms f = make_forms(h, g);
            const auto x = random_values<T>(static_cast<std::size_t>(n), g);
            device_vector<std::int32_t> dk(f.keys);
            device_vector<std::uint8_t> df(f.flags);
            device_vector<std::int64_t> dof(f.off64);
            device_vector<T> in(x), out(x.size());
            std::vector<T> want(x.size());
            const T init = sample_init<T>();
            INFO("n = " << n << ", " << dist_name(dist));

            out.poison();
            sweep::inclusive_scan_by_key(sweep::gpu, dk.begin(), dk.end(), in.begin(), out.begin());
            sweep::inclusive_scan_by_key(sweep::seq, f.keys.begin(), f.keys.end(), x.begin(),
                                         want.begin());
            CHECK(first_difference(out.download(), want) == -1);

            out.poison();
            sweep::exclusive_scan_by_key(sweep::gpu, dk.begin(), dk.end(), in.begin(), out.begin(),
                                         init);
            sweep::exclusive_scan_by_key(sweep::seq, f.keys.begin(), f.keys.end(), x.begin(),
                                         want.begin(), init);
            CHECK(first_difference(out.download(), want) == -1);

            out.poison();
            sweep::segmented_inclusive_scan(sweep::gpu, in.begin(), in.end(), out.begin(),
                                            sweep::head_flags(df.begin()), sweep::maximum<>{});
            sweep::segmented_inclusive_scan(sweep::seq, x.begin(), x.end(), want.begin(),
                                            sweep::head_flags(f.flags.begin()),
                                            sweep::maximum<>{});
            CHECK(first_difference(out.download(), want) == -1);

            out.poison();
            sweep::segmented_exclusive_scan(sweep::gpu, in.begin(), in.end(), out.begin(),
                                            sweep::offsets(dof.begin(), dof.end()), init);
            sweep::segmented_exclusive_scan(sweep::seq, x.begin(), x.end(), want.begin(),
                                            sweep::offsets(f.off64.begin(), f.off64.end()), init);
            CHECK(first_difference(out.download(), want) == -1);

            // In place, min.
            device_vector<T> io(x);
            sweep::segmented_inclusive_scan(sweep::gpu, io.begin(), io.end(), io.begin(),
                                            sweep::offsets(dof.begin(), dof.end()),
                                            sweep::minimum<>{});
            sweep::segmented_inclusive_scan(sweep::seq, x.begin(), x.end(), want.begin(),
                                            sweep::offsets(f.off64.begin(), f.off64.end()),
                                            sweep::minimum<>{});
            CHECK(first_difference(io.download(), want) == -1);
        }
    }
}

template <class K>
void check_key_type(std::uint64_t salt) {
    using tn = sweep::detail::cuda::default_segmented_tuning<std::int32_t>;
    const std::int64_t tile = tn::tile_items;
    for (const std::int64_t n : sweep_test::within_cap({std::int64_t{2}, tile + 1, 37 * tile + 11})) {
        for (const seg_dist dist : {seg_dist::all_heads, seg_dist::mean100, seg_dist::tile_edges}) {
            auto g = sweep_test::rng(salt++);
            const auto h = make_heads(n, dist, tile, tn::items, g);
            const auto keys = keys_as<K>(h);
            const auto x = random_values<std::int32_t>(static_cast<std::size_t>(n), g);
            device_vector<K> dk(keys);
            device_vector<std::int32_t> in(x), out(x.size());
            std::vector<std::int32_t> want(x.size());
            INFO("n = " << n << ", " << dist_name(dist));
            out.poison();
            sweep::inclusive_scan_by_key(sweep::gpu, dk.begin(), dk.end(), in.begin(), out.begin());
            sweep::inclusive_scan_by_key(sweep::seq, keys.begin(), keys.end(), x.begin(),
                                         want.begin());
            CHECK(first_difference(out.download(), want) == -1);
            out.poison();
            sweep::exclusive_scan_by_key(sweep::gpu, dk.begin(), dk.end(), in.begin(), out.begin(),
                                         -1);
            sweep::exclusive_scan_by_key(sweep::seq, keys.begin(), keys.end(), x.begin(),
                                         want.begin(), -1);
            CHECK(first_difference(out.download(), want) == -1);
        }
    }
}

}  // namespace

TEMPLATE_TEST_CASE("gpu segmented scans: value types", "[gpu][segmented_scan][types]",
                   std::int8_t, std::uint8_t, std::int16_t, std::uint16_t, std::int32_t,
                   std::uint32_t, std::int64_t, std::uint64_t, float, double) {
    check_value_type<TestType>(30000 + 100 * sizeof(TestType) +
                               (std::is_floating_point_v<TestType> ? 7 : 0) +
                               (std::is_signed_v<TestType> ? 3 : 0));
}

TEMPLATE_TEST_CASE("gpu segmented scans: key types", "[gpu][segmented_scan][types]", std::int8_t,
                   std::uint8_t, std::int16_t, std::uint16_t, std::uint32_t, std::int64_t,
                   std::uint64_t, float, double) {
    check_key_type<TestType>(31000 + 100 * sizeof(TestType) +
                             (std::is_floating_point_v<TestType> ? 7 : 0));
}
