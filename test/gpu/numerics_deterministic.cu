// test/gpu/numerics_deterministic.cu -- sweep::gpu.deterministic() gives the bits of
// sweep::seq.deterministic() (the host emulation of the canonical tree, detail/canonical.hpp) on
// two streams, run after run: float and double sums (plain, with init, exclusive, transform),
// float min and max (NaNs included), affine-map composition (a non-commutative user operator), at
// the canonical tile edges, the single-block limit (4 tiles) and up to 2^26 elements.
// Built with -fmad=false (test/gpu_tests.cmake), as docs/numerics.md asks of user operators.
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

struct streams {
    cudaStream_t a{}, b{};
    streams() {
        cuda_ok(cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking), "stream");
        cuda_ok(cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking), "stream");
    }
    ~streams() {
        cudaStreamDestroy(a);
        cudaStreamDestroy(b);
    }
};

/// host(policy, in, out) on seq.deterministic() vs dev(policy, in, out) on gpu.deterministic()
/// synchronous, on stream a, on stream b (both in flight at once), and again on a.
template <class T, class Host, class Dev>
void expect_gpu_bits(const char* what, const std::vector<T>& x, Host host, Dev dev) {
    std::vector<T> want(x.size());
    host(sweep::seq.deterministic(), x, want);
    device_vector<T> in(x);
    device_vector<T> o1(x.size()), o2(x.size()), o3(x.size());
    streams s;
    auto report = [&](const char* how, const std::vector<T>& got) {
        const std::int64_t at = first_difference(got, want);
        INFO(what << " on gpu.deterministic() " << how << ", n = " << x.size() << ", seed "
                  << sweep_test::seed() << ": first differing index " << at);
        if (at >= 0 && at < static_cast<std::int64_t>(x.size())) {
            double g = 0, w = 0;
            if constexpr (sizeof(T) == sizeof(float) && std::is_same_v<T, float>) {
                g = got[at];
                w = want[at];
            } else if constexpr (std::is_same_v<T, double>) {
                g = got[at];
                w = want[at];
            }
            INFO("got " << g << ", want " << w);
            CHECK(at == -1);
        } else {
            CHECK(at == -1);
        }
    };
    dev(sweep::gpu.deterministic(), in, o1);
    report("(synchronous)", o1.download());
    o1.poison();
    dev(sweep::gpu.deterministic().on(s.a), in, o1);
    dev(sweep::gpu.on(s.b).deterministic(), in, o2);
    cuda_ok(cudaStreamSynchronize(s.a), "sync a");
    cuda_ok(cudaStreamSynchronize(s.b), "sync b");
    report("on stream a", o1.download());
    report("on stream b", o2.download());
    dev(sweep::gpu.deterministic().on(s.b), in, o3);
    cuda_ok(cudaStreamSynchronize(s.b), "sync b");
    report("second run", o3.download());
}

template <class T>
void sums(std::uint64_t salt, std::vector<std::int64_t> sizes) {
    for (const std::int64_t n : sizes) {
        auto g = rng(salt + static_cast<std::uint64_t>(n));
        const auto x = uniform_values<T>(static_cast<std::size_t>(n), g);
        expect_gpu_bits<T>(
            "inclusive sum", x,
            [](auto p, const auto& in, auto& out) {
                sweep::inclusive_scan(p, in.begin(), in.end(), out.begin());
            },
            [](auto p, const auto& in, auto& out) {
                sweep::inclusive_scan(p, in.begin(), in.end(), out.begin());
            });
        expect_gpu_bits<T>(
            "inclusive sum with init", x,
            [](auto p, const auto& in, auto& out) {
                sweep::inclusive_scan(p, in.begin(), in.end(), out.begin(), std::plus<>{}, T(0.5));
            },
            [](auto p, const auto& in, auto& out) {
                sweep::inclusive_scan(p, in.begin(), in.end(), out.begin(), std::plus<>{}, T(0.5));
            });
        expect_gpu_bits<T>(
            "exclusive sum", x,
            [](auto p, const auto& in, auto& out) {
                sweep::exclusive_scan(p, in.begin(), in.end(), out.begin(), T(-0.25));
            },
            [](auto p, const auto& in, auto& out) {
                sweep::exclusive_scan(p, in.begin(), in.end(), out.begin(), T(-0.25));
            });
        expect_gpu_bits<T>(
            "transform exclusive", x,
            [](auto p, const auto& in, auto& out) {
                sweep::transform_exclusive_scan(p, in.begin(), in.end(), out.begin(), T(1),
                                                sweep::plus<>{}, scale_shift{});
            },
            [](auto p, const auto& in, auto& out) {
                sweep::transform_exclusive_scan(p, in.begin(), in.end(), out.begin(), T(1),
                                                sweep::plus<>{}, scale_shift{});
            });
    }
}

}  // namespace

TEST_CASE("gpu deterministic: float sums", "[gpu][numerics]") {
    sums<float>(1100, canonical_edges<float>({1'000'003, std::int64_t{1} << 26}));
}

TEST_CASE("gpu deterministic: double sums", "[gpu][numerics]") {
    sums<double>(1200, canonical_edges<double>({1'000'003, std::int64_t{1} << 26}));
}

TEST_CASE("gpu deterministic: float min/max with NaNs, affine maps", "[gpu][numerics]") {
    for (const std::int64_t n : canonical_edges<affinef>({1'000'003})) {
        auto g = rng(1300 + static_cast<std::uint64_t>(n));
        const auto x = values_with_nans(static_cast<std::size_t>(n), g);
        auto min_scan = [](auto p, const auto& in, auto& out) {
            sweep::inclusive_scan(p, in.begin(), in.end(), out.begin(), sweep::minimum<>{});
        };
        expect_gpu_bits<float>("float min", x, min_scan, min_scan);
        auto max_scan = [](auto p, const auto& in, auto& out) {
            sweep::exclusive_scan(p, in.begin(), in.end(), out.begin(), -2.0f,
                                  sweep::maximum<float>{});
        };
        expect_gpu_bits<float>("float max, exclusive", x, max_scan, max_scan);
        const auto a = affine_values(static_cast<std::size_t>(n), g);
        auto aff = [](auto p, const auto& in, auto& out) {
            sweep::inclusive_scan(p, in.begin(), in.end(), out.begin(), affinef_then{});
        };
        expect_gpu_bits<affinef>("affine maps", a, aff, aff);
        auto aff_ex = [](auto p, const auto& in, auto& out) {
            sweep::exclusive_scan(p, in.begin(), in.end(), out.begin(), affinef{2.0f, 1.0f},
                                  affinef_then{});
        };
        expect_gpu_bits<affinef>("affine maps, exclusive with init", a, aff_ex, aff_ex);
    }
}

TEST_CASE("gpu deterministic: unaligned and in-place calls keep the bits", "[gpu][numerics]") {
    // The default path would pick another agent for unaligned data; the canonical tree must not.
    const std::int64_t n = sweep_test::capped(300'001);
    auto g = rng(1400);
    const auto x = uniform_values<float>(static_cast<std::size_t>(n + 1), g);
    const std::vector<float> tail(x.begin() + 1, x.end());
    std::vector<float> want(tail.size());
    sweep::inclusive_scan(sweep::seq.deterministic(), tail.begin(), tail.end(), want.begin());
    device_vector<float> in(x), out(x.size());
    sweep::inclusive_scan(sweep::gpu.deterministic(), in.begin() + 1, in.end(), out.begin() + 1);
    auto got = out.download();
    got.erase(got.begin());
    INFO("unaligned input and output: first difference " << first_difference(got, want)
                                                         << ", seed " << sweep_test::seed());
    CHECK(same_bits(got, want));
    sweep::inclusive_scan(sweep::gpu.deterministic(), in.begin() + 1, in.end(), in.begin() + 1);
    got = in.download();
    got.erase(got.begin());
    INFO("in place: first difference " << first_difference(got, want));
    CHECK(same_bits(got, want));
    // Aligned, in place: the shared-memory path (scan_bulk_blocked_agent) overwrites its tile's
    // input with the thread-local scans before it stores.
    std::vector<float> want_all(x.size());
    sweep::exclusive_scan(sweep::seq.deterministic(), x.begin(), x.end(), want_all.begin(), 0.75f);
    device_vector<float> io(x);
    sweep::exclusive_scan(sweep::gpu.deterministic(), io.begin(), io.end(), io.begin(), 0.75f);
    got = io.download();
    INFO("aligned, in place: first difference " << first_difference(got, want_all));
    CHECK(same_bits(got, want_all));
}

TEST_CASE("gpu deterministic: by-key and head-flag scans, inclusive and exclusive", "[gpu][numerics][segmented]") {
    for (const int max_run : {1, 40, 5000, 1 << 22}) {
        for (const std::int64_t n :
             canonical_edges<sweep::detail::seg_pair<double>>({1'000'003, std::int64_t{1} << 24})) {
            auto g = rng(1500 + static_cast<std::uint64_t>(n) + static_cast<std::uint64_t>(max_run));
            const auto keys = run_keys(static_cast<std::size_t>(n), max_run, g);
            const std::vector<char> flags = head_flags_of(keys);
            device_vector<int> dk(keys);
            device_vector<char> df(flags);
            const auto xf = uniform_values<float>(keys.size(), g);
            const auto xd = uniform_values<double>(keys.size(), g);
            expect_gpu_bits<float>(
                "inclusive_scan_by_key float", xf,
                [&](auto p, const auto& in, auto& out) {
                    sweep::inclusive_scan_by_key(p, keys.begin(), keys.end(), in.begin(),
                                                 out.begin());
                },
                [&](auto p, const auto& in, auto& out) {
                    sweep::inclusive_scan_by_key(p, dk.begin(), dk.end(), in.begin(), out.begin());
                });
            expect_gpu_bits<double>(
                "segmented_inclusive_scan double, head flags", xd,
                [&](auto p, const auto& in, auto& out) {
                    sweep::segmented_inclusive_scan(p, in.begin(), in.end(), out.begin(),
                                                    sweep::head_flags(flags.begin()));
                },
                [&](auto p, const auto& in, auto& out) {
                    sweep::segmented_inclusive_scan(p, in.begin(), in.end(), out.begin(),
                                                    sweep::head_flags(df.begin()));
                });
            expect_gpu_bits<float>(
                "exclusive_scan_by_key float, init 0.5", xf,
                [&](auto p, const auto& in, auto& out) {
                    sweep::exclusive_scan_by_key(p, keys.begin(), keys.end(), in.begin(),
                                                 out.begin(), 0.5f);
                },
                [&](auto p, const auto& in, auto& out) {
                    sweep::exclusive_scan_by_key(p, dk.begin(), dk.end(), in.begin(), out.begin(),
                                                 0.5f);
                });
            expect_gpu_bits<double>(
                "segmented_exclusive_scan double, head flags, compensated, init -1", xd,
                [&](auto p, const auto& in, auto& out) {
                    sweep::segmented_exclusive_scan(p.compensated(), in.begin(), in.end(),
                                                    out.begin(), sweep::head_flags(flags.begin()),
                                                    -1.0);
                },
                [&](auto p, const auto& in, auto& out) {
                    sweep::segmented_exclusive_scan(p.compensated(), in.begin(), in.end(),
                                                    out.begin(), sweep::head_flags(df.begin()),
                                                    -1.0);
                });
            {
                // In place: the inputs before each tile are copied out before the scan.
                std::vector<double> want(xd.size());
                sweep::exclusive_scan_by_key(sweep::seq.deterministic(), keys.begin(), keys.end(),
                                             xd.begin(), want.begin(), 0.25);
                device_vector<double> io(xd);
                sweep::exclusive_scan_by_key(sweep::gpu.deterministic(), dk.begin(), dk.end(),
                                             io.begin(), io.begin(), 0.25);
                const auto got = io.download();
                INFO("exclusive_scan_by_key in place on gpu.deterministic(), n = "
                     << n << ", runs up to " << max_run << ", seed " << sweep_test::seed()
                     << ": first difference " << first_difference(got, want));
                CHECK(same_bits(got, want));
            }
            expect_gpu_bits<double>(
                "inclusive_scan_by_key double, compensated", xd,
                [&](auto p, const auto& in, auto& out) {
                    sweep::inclusive_scan_by_key(p.compensated(), keys.begin(), keys.end(),
                                                 in.begin(), out.begin());
                },
                [&](auto p, const auto& in, auto& out) {
                    sweep::inclusive_scan_by_key(p.compensated(), dk.begin(), dk.end(), in.begin(),
                                                 out.begin());
                });
        }
    }
}

TEST_CASE("gpu deterministic: offsets forms, inclusive and exclusive", "[gpu][numerics][segmented]") {
    // Offsets (with empty segments) become head flags on the device, then the pair scan: the bits
    // of seq.deterministic() over the same offsets.
    for (const int max_run : {1, 40, 5000, 1 << 22}) {
        for (const std::int64_t n :
             canonical_edges<sweep::detail::seg_pair<double>>({1'000'003, std::int64_t{1} << 24})) {
            auto g = rng(1700 + static_cast<std::uint64_t>(n) + static_cast<std::uint64_t>(max_run));
            const auto keys = run_keys(static_cast<std::size_t>(n), max_run, g);
            const std::vector<char> flags = head_flags_of(keys);
            const auto o = offsets_of(flags, g);
            const std::vector<int> o32(o.begin(), o.end());
            device_vector<std::int64_t> d64(o);
            device_vector<int> d32(o32);
            const auto xf = uniform_values<float>(keys.size(), g);
            const auto xd = uniform_values<double>(keys.size(), g);
            expect_gpu_bits<float>(
                "segmented_inclusive_scan float, 64-bit offsets", xf,
                [&](auto p, const auto& in, auto& out) {
                    sweep::segmented_inclusive_scan(p, in.begin(), in.end(), out.begin(),
                                                    sweep::offsets(o.begin(), o.end()));
                },
                [&](auto p, const auto& in, auto& out) {
                    sweep::segmented_inclusive_scan(p, in.begin(), in.end(), out.begin(),
                                                    sweep::offsets(d64.begin(), d64.end()));
                });
            expect_gpu_bits<double>(
                "segmented_exclusive_scan double, 32-bit offsets, init -0.5", xd,
                [&](auto p, const auto& in, auto& out) {
                    sweep::segmented_exclusive_scan(p, in.begin(), in.end(), out.begin(),
                                                    sweep::offsets(o32.begin(), o32.end()), -0.5);
                },
                [&](auto p, const auto& in, auto& out) {
                    sweep::segmented_exclusive_scan(p, in.begin(), in.end(), out.begin(),
                                                    sweep::offsets(d32.begin(), d32.end()), -0.5);
                });
            expect_gpu_bits<double>(
                "segmented_inclusive_scan double, offsets, compensated", xd,
                [&](auto p, const auto& in, auto& out) {
                    sweep::segmented_inclusive_scan(p.compensated(), in.begin(), in.end(),
                                                    out.begin(), sweep::offsets(o.begin(), o.end()));
                },
                [&](auto p, const auto& in, auto& out) {
                    sweep::segmented_inclusive_scan(p.compensated(), in.begin(), in.end(),
                                                    out.begin(),
                                                    sweep::offsets(d64.begin(), d64.end()));
                });
        }
    }
    // Invalid offsets: std::invalid_argument, and the output untouched.
    const std::vector<double> x(1000, 1.0);
    device_vector<double> in(x), out(std::vector<double>(1000, 7.0));
    for (const std::vector<std::int64_t>& bad :
         {std::vector<std::int64_t>{1, 500, 1000}, std::vector<std::int64_t>{0, 600, 500, 1000},
          std::vector<std::int64_t>{0, 500, 999}}) {
        device_vector<std::int64_t> db(bad);
        CHECK_THROWS_AS(sweep::segmented_inclusive_scan(sweep::gpu.deterministic(), in.begin(),
                                                        in.end(), out.begin(),
                                                        sweep::offsets(db.begin(), db.end())),
                        std::invalid_argument);
        CHECK(out.download() == std::vector<double>(1000, 7.0));
    }
}
