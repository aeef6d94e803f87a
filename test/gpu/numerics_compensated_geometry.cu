// test/gpu/numerics_compensated_geometry.cu -- the compensated sum on the shared-memory path with
// a wide accumulator (scan_bulk_agent::run_tile_wide) at the bulk geometries other than the
// default that perf/gpu/bench_gpu_numerics.cu measures (tile size, threads, vectors a lane a round
// in pass 2, Fast2Sum combines), so that a change of the default is already covered: every prefix against an exact
// sum, within the bound of docs/numerics.md, at each geometry's tile edges; inclusive, with init,
// exclusive. Calls the engine (cuda::launch_scan) directly with the tuning under test.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#include <sweep/scan.hpp>

#include "catch.hpp"
#include "gpu_support.hpp"
#include "numerics.hpp"
#include "numerics_cases.hpp"
#include "random.hpp"

using namespace sweep_gpu_test;
using namespace sweep_test;

namespace {

namespace cu = sweep::detail::cuda;

template <class T>
using pair_of = sweep::detail::comp_sum<T>;
template <class T>
using to_pair = sweep::detail::to_comp<T, sweep::detail::identity>;

template <class Bulk, class T>
using agent_of = cu::scan_bulk_agent<Bulk, pair_of<T>, const T*, T*, sweep::detail::comp_plus<T>,
                                     to_pair<T>>;

/// One scan through the engine with bulk tuning Bulk (the register tuning of the default mode
/// decides the one-block limit, as in sweep::gpu).
template <class Bulk, class T>
void scan_with(const T* in, T* out, std::int64_t n, bool exclusive, bool has_init, T init) {
    static_assert(agent_of<Bulk, T>::eligible && agent_of<Bulk, T>::wide);
    cu::reg_array<pair_of<T>, 1> i;
    i[0] = pair_of<T>{init, T(0)};
    const cu::temp_allocator alloc = cu::make_temp_allocator<sweep::default_resource>(nullptr);
    cu::launch_scan<cu::default_scan_tuning<pair_of<T>>, false, pair_of<T>, const T*, T*,
                    sweep::detail::comp_plus<T>, to_pair<T>, Bulk>(
        "test", in, out, n, sweep::detail::comp_plus<T>{}, to_pair<T>{}, i, exclusive, has_init,
        nullptr, alloc);
    cuda_ok(cudaStreamSynchronize(nullptr), "scan");
}

template <class Bulk, class T>
void geometry(const char* label, std::uint64_t salt) {
    using A = agent_of<Bulk, T>;
    const std::int64_t b = A::tile_items;
    const std::int64_t one_block =
        cu::default_scan_tuning<pair_of<T>>::tile_items * cu::single_block_max_tiles;
    const std::int64_t k0 = one_block / b + 1;  // the fewest tiles above the one-block size
    std::vector<std::int64_t> sizes{one_block + 1, (std::int64_t{1} << 18) + 3};
    for (const std::int64_t k : {k0, k0 + 4})
        for (const std::int64_t d : {std::int64_t{-1}, std::int64_t{0}, std::int64_t{1},
                                     std::int64_t{A::vec} + 1})
            if (k * b + d > one_block) sizes.push_back(k * b + d);
    const double u = sizeof(T) == 4 ? 0x1p-24 : 0x1p-53;
    const double cond = sizeof(T) == 4 ? 1e6 : 1e14;
    for (const std::int64_t n : sizes) {
        auto g = rng(salt + static_cast<std::uint64_t>(n));
        const auto x = ill_conditioned<T>(static_cast<std::size_t>(n), cond, g);
        const T init = static_cast<T>(-0.25 * x[0]);
        device_vector<T> in(x), out(x.size());
        struct form {
            const char* name;
            bool exclusive, has_init;
        };
        for (const form f : {form{"inclusive", false, false}, form{"inclusive with init", false, true},
                             form{"exclusive with init", true, true}}) {
            out.poison();
            scan_with<Bulk>(in.data(), out.data(), n, f.exclusive, f.has_init, init);
            const accuracy a = check_prefixes(x, out.download(), f.exclusive,
                                              f.has_init ? static_cast<double>(init) : 0.0, u,
                                              f.has_init);
            INFO("compensated " << (sizeof(T) == 4 ? "float" : "double") << " " << f.name
                                << " on the shared-memory path at " << label << " (tile "
                                << b << " items), n = " << n << ", seed " << sweep_test::seed()
                                << ": first prefix over the bound " << a.first_bad << " = "
                                << a.bad_result << ", exact " << a.bad_exact << ", bound "
                                << a.bad_bound << " (worst ratio " << a.worst_ratio << ")");
            CHECK(a.first_bad == -1);
        }
    }
}

template <class T>
void all_geometries(std::uint64_t salt) {
    geometry<cu::scan_bulk_tuning<128, 16 * 1024, false, 0, 1>, T>("128 x 16 KB, 1 vector a lane", salt);
    geometry<cu::scan_bulk_tuning<128, 16 * 1024, false, 0, 4>, T>("128 x 16 KB, 4 vectors a lane", salt + 1);
    geometry<cu::scan_bulk_tuning<256, 32 * 1024, false, 0, 2>, T>("256 x 32 KB, 2 vectors a lane", salt + 2);
    geometry<cu::scan_bulk_tuning<128, 8 * 1024, false, 0, 2>, T>("128 x 8 KB, 2 vectors a lane", salt + 3);
    geometry<cu::scan_bulk_tuning<128, 16 * 1024, true, 0, 2>, T>("128 x 16 KB, speculative", salt + 4);
    geometry<cu::scan_bulk_tuning<128, 16 * 1024, false, 0, 2, true>, T>("128 x 16 KB, 2, Fast2Sum", salt + 5);
    geometry<cu::scan_bulk_tuning<128, 16 * 1024, false, 0, 4, true>, T>("128 x 16 KB, 4, Fast2Sum", salt + 6);
}

}  // namespace

TEST_CASE("gpu compensated shared-memory path geometries: float", "[gpu][numerics][compensated][bulk]") {
    all_geometries<float>(2700);
}

TEST_CASE("gpu compensated shared-memory path geometries: double", "[gpu][numerics][compensated][bulk]") {
    all_geometries<double>(2800);
}
