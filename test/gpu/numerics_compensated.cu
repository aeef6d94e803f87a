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
