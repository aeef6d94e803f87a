// test/gpu/numerics_compensated.cu -- sweep::gpu.compensated(): every prefix within the bound of
// docs/numerics.md against an exact superaccumulator (test/support/numerics.hpp) on
// ill-conditioned sums (condition up to 1e16), cancelling pairs and values over 600 binades, for
// inclusive, exclusive-with-init and transform scans; the plain GPU scan's error printed beside.
// With .deterministic() as well: the bits of sweep::seq.deterministic().compensated().
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <vector>

#include <sweep/scan.hpp>
#include <sweep/segmented_scan.hpp>

#include "catch.hpp"
#include "gpu_support.hpp"
#include "numerics.hpp"
#include "numerics_cases.hpp"
#include "random.hpp"

using namespace sweep_gpu_test;
using namespace sweep_test;

namespace {

template <class T>
constexpr double unit_roundoff() {
    return std::is_same_v<T, float> ? 0x1p-24 : 0x1p-53;
}

template <class T>
void check_gpu(const char* data, const std::vector<T>& x) {
    const double u = unit_roundoff<T>();
    device_vector<T> in(x), out(x.size());

    sweep::inclusive_scan(sweep::gpu, in.begin(), in.end(), out.begin());
    const accuracy plain = check_prefixes(x, out.download(), false, 0, u, false);

    out.poison();
    sweep::inclusive_scan(sweep::gpu.compensated(), in.begin(), in.end(), out.begin());
    const accuracy a = check_prefixes(x, out.download(), false, 0, u, false);
    std::printf("gpu compensated %-6s %-26s n=%-9zu worst rel %.3g (bound ratio %.3g); plain gpu "
                "worst rel %.3g\n",
                sizeof(T) == 4 ? "float" : "double", data, x.size(), a.worst_rel, a.worst_ratio,
                plain.worst_rel);
    {
        INFO("gpu.compensated() inclusive on " << data << ", n = " << x.size() << ", seed "
                                               << sweep_test::seed() << ": prefix " << a.first_bad
                                               << " = " << a.bad_result << ", exact "
                                               << a.bad_exact << ", bound " << a.bad_bound);
        CHECK(a.first_bad == -1);
    }

    const T init = static_cast<T>(x.empty() ? 1 : -x[0]);
    out.poison();
    sweep::exclusive_scan(sweep::gpu.compensated(), in.begin(), in.end(), out.begin(), init);
    const accuracy e = check_prefixes(x, out.download(), true, static_cast<double>(init), u, true);
    {
        INFO("gpu.compensated() exclusive with init on " << data << ", n = " << x.size()
                                                         << ", seed " << sweep_test::seed()
                                                         << ": prefix " << e.first_bad << " = "
                                                         << e.bad_result << ", exact "
                                                         << e.bad_exact << ", bound "
                                                         << e.bad_bound);
        CHECK(e.first_bad == -1);
    }

    // Deterministic and compensated: the host's bits.
    std::vector<T> want(x.size());
    sweep::inclusive_scan(sweep::seq.deterministic().compensated(), x.begin(), x.end(),
                          want.begin());
    out.poison();
    sweep::inclusive_scan(sweep::gpu.compensated().deterministic(), in.begin(), in.end(),
                          out.begin());
    const auto got = out.download();
    INFO("gpu.compensated().deterministic() on " << data << ", n = " << x.size() << ", seed "
                                                 << sweep_test::seed()
                                                 << ": first differing index "
                                                 << first_difference(got, want));
    CHECK(same_bits(got, want));
}

template <class T>
void suite(std::uint64_t salt, const std::vector<double>& conds, int binades) {
    using pair_t = sweep::detail::comp_sum<T>;
    for (const std::int64_t n : canonical_edges<pair_t>({1'000'003})) {
        if (n == 0) continue;
        for (const double c : conds) {
            auto g = rng(salt + static_cast<std::uint64_t>(n) + static_cast<std::uint64_t>(std::log10(c)));
            char name[64];
            std::snprintf(name, sizeof name, "ill-conditioned 1e%d", int(std::log10(c)));
            check_gpu<T>(name, ill_conditioned<T>(static_cast<std::size_t>(n), c, g));
        }
        auto g = rng(salt + static_cast<std::uint64_t>(n) + 99);
        check_gpu<T>("cancelling pairs", cancelling<T>(static_cast<std::size_t>(n), g));
        char name[64];
        std::snprintf(name, sizeof name, "%d binades", binades);
        check_gpu<T>(name, wide<T>(static_cast<std::size_t>(n), binades, g));
    }
}

}  // namespace

TEST_CASE("gpu compensated: double", "[gpu][numerics][compensated]") {
    suite<double>(2100, {1e8, 1e16}, 600);
}

TEST_CASE("gpu compensated: float", "[gpu][numerics][compensated]") {
    suite<float>(2200, {1e4, 1e7}, 200);
}

TEST_CASE("gpu compensated: transform scan, 2^24 doubles", "[gpu][numerics][compensated]") {
    auto g = rng(2300);
    const auto x = ill_conditioned<double>(static_cast<std::size_t>(sweep_test::capped(std::int64_t{1} << 24)), 1e14, g);
    std::vector<double> neg(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) neg[i] = -x[i];
    device_vector<double> in(x), out(x.size());
    sweep::transform_inclusive_scan(sweep::gpu.compensated(), in.begin(), in.end(), out.begin(),
                                    std::plus<double>{}, sweep_test::scale_shift{});
    std::vector<double> tx(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) tx[i] = sweep_test::scale_shift{}(x[i]);
    const accuracy a = check_prefixes(tx, out.download(), false, 0, 0x1p-53, false);
    std::printf("gpu compensated transform, 2^24 doubles: worst rel %.3g (bound ratio %.3g)\n",
                a.worst_rel, a.worst_ratio);
    INFO("first bad prefix " << a.first_bad << " = " << a.bad_result << ", exact " << a.bad_exact
                             << ", bound " << a.bad_bound << ", seed " << sweep_test::seed());
    CHECK(a.first_bad == -1);
    (void)neg;
}

TEST_CASE("gpu compensated and deterministic by-key scans", "[gpu][numerics][segmented]") {
    for (const int max_run : {1, 700, 1 << 20}) {
        auto g = rng(2400 + static_cast<std::uint64_t>(max_run));
        const auto n = static_cast<std::size_t>(sweep_test::capped(1'000'003));
        const auto x = ill_conditioned<double>(n, 1e14, g);
        const auto keys = run_keys(n, max_run, g);
        std::vector<char> heads(n);
        for (std::size_t i = 0; i < n; ++i) heads[i] = i == 0 || keys[i] != keys[i - 1];
        device_vector<double> in(x), out(n), out2(n);
        device_vector<int> k(keys);

        sweep::inclusive_scan_by_key(sweep::gpu.compensated(), k.begin(), k.end(), in.begin(),
                                     out.begin());
        accuracy a = check_segmented_prefixes(x, heads, out.download(), false, 0, 0x1p-53, false);
        {
            INFO("gpu.compensated() inclusive_scan_by_key, runs up to "
                 << max_run << ", seed " << sweep_test::seed() << ": prefix " << a.first_bad
                 << " = " << a.bad_result << ", exact " << a.bad_exact << ", bound "
                 << a.bad_bound);
            CHECK(a.first_bad == -1);
        }
        out.poison();
        sweep::exclusive_scan_by_key(sweep::gpu.compensated(), k.begin(), k.end(), in.begin(),
                                     out.begin(), 0.25);
        a = check_segmented_prefixes(x, heads, out.download(), true, 0.25, 0x1p-53, true);
        {
            INFO("gpu.compensated() exclusive_scan_by_key (init 0.25), runs up to "
                 << max_run << ": prefix " << a.first_bad << " = " << a.bad_result << ", exact "
                 << a.bad_exact << ", bound " << a.bad_bound);
            CHECK(a.first_bad == -1);
        }

        // .deterministic(): the same bits on two streams at once (plain float-like sums of
        // doubles, whose association would otherwise follow the look-back's timing).
        cudaStream_t s1, s2;
        cuda_ok(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking), "stream");
        cuda_ok(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking), "stream");
        sweep::inclusive_scan_by_key(sweep::gpu.on(s1).deterministic(), k.begin(), k.end(),
                                     in.begin(), out.begin());
        sweep::inclusive_scan_by_key(sweep::gpu.deterministic().on(s2), k.begin(), k.end(),
                                     in.begin(), out2.begin());
        cuda_ok(cudaStreamSynchronize(s1), "sync");
        cuda_ok(cudaStreamSynchronize(s2), "sync");
        const auto r1 = out.download(), r2 = out2.download();
        INFO("gpu.deterministic() inclusive_scan_by_key on two streams, runs up to "
             << max_run << ": first difference " << first_difference(r1, r2));
        CHECK(same_bits(r1, r2));
        cudaStreamDestroy(s1);
        cudaStreamDestroy(s2);
    }
}

// ---- the shared-memory (bulk) path with the wider pair accumulator -----------------------------
// Contiguous 16-byte aligned float/double data takes scan_bulk_agent::run_tile_wide above the
// one-block size (4 register tiles): sizes at its tile edges, every entry form, in place, and a
// misaligned call (register path) beside it; every prefix checked against the exact sum.

namespace {

namespace cu = sweep::detail::cuda;

template <class T>
using pair_of = sweep::detail::comp_sum<T>;

template <class T>
using wide_agent = cu::scan_bulk_agent<cu::default_scan_bulk_tuning<pair_of<T>>, pair_of<T>,
                                       const T*, T*, sweep::detail::comp_plus<T>,
                                       sweep::detail::to_comp<T, sweep::detail::identity>>;
static_assert(wide_agent<float>::eligible && wide_agent<float>::wide,
              "compensated float sums must reach the wide shared-memory path");
static_assert(wide_agent<double>::eligible && wide_agent<double>::wide,
              "compensated double sums must reach the wide shared-memory path");

/// Sizes at the edges of the wide path's tiles (and of the one-block limit below it).
template <class T>
std::vector<std::int64_t> wide_edges() {
    const std::int64_t b = wide_agent<T>::tile_items;
    const std::int64_t one_block =
        cu::default_scan_tuning<pair_of<T>>::tile_items * cu::single_block_max_tiles;
    const std::int64_t vec = wide_agent<T>::vec;
    // Tile counts above the one-block size (which the register tuning sets).
    const std::int64_t k0 = one_block / b + 1;
    std::vector<std::int64_t> s{one_block, one_block + 1};
    for (const std::int64_t k : {k0, k0 + 1, k0 + 60})
        for (const std::int64_t d : {std::int64_t{-1}, std::int64_t{0}, std::int64_t{1}, vec + 1,
                                     b - 32 * vec - 1})
            s.push_back(k * b + d);
    s.push_back((std::int64_t{1} << 20) + 3);
    return s;
}

/// One check: `what` on `data`, result against the exact prefix sums of `x` (the scan's terms).
template <class T>
void expect_bound(const char* what, const char* data, const std::vector<T>& x,
                  const std::vector<T>& got, bool exclusive, double init, bool has_init) {
    const accuracy a = check_prefixes(x, got, exclusive, init, unit_roundoff<T>(), has_init);
    INFO("gpu.compensated() " << what << " (" << (sizeof(T) == 4 ? "float" : "double") << ") on "
                              << data << ", n = " << x.size() << ", seed " << sweep_test::seed()
                              << ": worst bound ratio " << a.worst_ratio << "; first prefix over "
                              << "the bound " << a.first_bad << " = " << a.bad_result
                              << ", exact " << a.bad_exact << ", bound " << a.bad_bound);
    CHECK(a.first_bad == -1);
}

template <class T>
void wide_case(const char* data, const std::vector<T>& x) {
    const std::size_t n = x.size();
    const T init = static_cast<T>(x.empty() ? 1 : -0.5 * x[0]);
    const auto gc = sweep::gpu.compensated();
    device_vector<T> in(x), out(n);

    sweep::inclusive_scan(gc, in.begin(), in.end(), out.begin());
    expect_bound("inclusive_scan", data, x, out.download(), false, 0, false);

    out.poison();
    sweep::inclusive_scan(gc, in.begin(), in.end(), out.begin(), std::plus<T>{}, init);
    expect_bound("inclusive_scan with init", data, x, out.download(), false, init, true);

    out.poison();
    sweep::exclusive_scan(gc, in.begin(), in.end(), out.begin(), init);
    expect_bound("exclusive_scan", data, x, out.download(), true, init, true);

    // Transform forms: the transform's results are the terms.
    std::vector<T> tx(n);
    for (std::size_t i = 0; i < n; ++i) tx[i] = sweep_test::scale_shift{}(x[i]);
    out.poison();
    sweep::transform_inclusive_scan(gc, in.begin(), in.end(), out.begin(), std::plus<T>{},
                                    sweep_test::scale_shift{});
    expect_bound("transform_inclusive_scan", data, tx, out.download(), false, 0, false);
    out.poison();
    sweep::transform_exclusive_scan(gc, in.begin(), in.end(), out.begin(), init, std::plus<T>{},
                                    sweep_test::scale_shift{});
    expect_bound("transform_exclusive_scan", data, tx, out.download(), true, init, true);

    // In place (the tile is read into shared memory before any of it is overwritten).
    {
        device_vector<T> io(x);
        sweep::inclusive_scan(gc, io.begin(), io.end(), io.begin());
        expect_bound("inclusive_scan in place", data, x, io.download(), false, 0, false);
        io.upload(x);
        sweep::exclusive_scan(gc, io.begin(), io.end(), io.begin(), init);
        expect_bound("exclusive_scan in place", data, x, io.download(), true, init, true);
    }

    // Misaligned by one element: the register path, the same bound.
    if (n > 1) {
        const std::vector<T> x1(x.begin() + 1, x.end());
        out.poison();
        sweep::inclusive_scan(gc, in.begin() + 1, in.end(), out.begin() + 1);
        const auto all = out.download();
        expect_bound("inclusive_scan misaligned", data, x1,
                     std::vector<T>(all.begin() + 1, all.end()), false, 0, false);
    }
}

template <class T>
void wide_suite(std::uint64_t salt, double cond) {
    for (const std::int64_t n : wide_edges<T>()) {
        auto g = rng(salt + static_cast<std::uint64_t>(n));
        char name[64];
        std::snprintf(name, sizeof name, "ill-conditioned 1e%d", int(std::log10(cond)));
        wide_case<T>(name, ill_conditioned<T>(static_cast<std::size_t>(n), cond, g));
    }
    // The other data shapes at one many-tile ragged size.
    const std::int64_t n = 5 * wide_agent<T>::tile_items + 3;
    auto g = rng(salt + 1);
    wide_case<T>("cancelling pairs", cancelling<T>(static_cast<std::size_t>(n), g));
    wide_case<T>("wide binades", wide<T>(static_cast<std::size_t>(n), sizeof(T) == 4 ? 200 : 600, g));
}

}  // namespace

TEST_CASE("gpu compensated: shared-memory path, double", "[gpu][numerics][compensated][bulk]") {
    wide_suite<double>(2500, 1e16);
}

TEST_CASE("gpu compensated: shared-memory path, float", "[gpu][numerics][compensated][bulk]") {
    wide_suite<float>(2600, 1e7);
}
