// test/gpu/segmented_scan.cu -- sweep::gpu segmented scans against sweep::seq: every form (by key
// with == and a custom key_eq, head flags, int64 offsets with runs of empty segments, int32
// offsets), inclusive and exclusive, over every segment-length distribution (one element per
// segment, mean 100 and 1e4, one segment over every tile, a skewed mix, heads on tile, warp and
// thread edges), at sizes around the tile and the single-block limit; a non-commutative operator;
// in place; Thrust iterators; misaligned pointers; streams; and the errors (bad offsets write
// nothing, host memory, no temporary memory).
#include <cstdint>
#include <functional>
#include <new>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <sweep/scan.hpp>
#include <sweep/segmented_scan.hpp>

#include <thrust/device_vector.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "catch.hpp"
#include "gpu_support.hpp"
#include "random.hpp"
#include "segments.hpp"

using namespace sweep_gpu_test;

namespace {

struct div37 {
    __host__ __device__ std::int64_t operator()(std::int64_t i) const { return i / 37; }
};

template <class T>
using tuning_of = sweep::detail::cuda::default_segmented_tuning<T>;

/// The segment descriptions of one segmentation, on the device.
struct device_forms {
    device_vector<std::int32_t> keys, keys_mod;
    device_vector<std::uint8_t> flags;
    device_vector<std::int64_t> off64;
    device_vector<std::int32_t> off32;
    explicit device_forms(const seg_forms& f)
        : keys(f.keys), keys_mod(f.keys_mod), flags(f.flags), off64(f.off64), off32(f.off32) {}
};

/// Every form on gpu and on seq, out of place and (if asked) in place; compares.
template <class T, class Op>
void check_forms(const std::vector<T>& x, const seg_forms& f, Op op, T init,
                 const std::string& what, bool in_place) {
    const auto n = static_cast<std::int64_t>(x.size());
    const device_forms d(f);
    device_vector<T> in(x), out(x.size());
    std::vector<T> want(x.size());

    // gpu(first, last, d_first) and seq(first, last, d_first) run one form.
    auto run = [&](const char* form, auto gpu, auto seq) {
        seq(x.data(), x.data() + n, want.data());
        {
            INFO(what << ", " << form << ", out of place");
            out.poison();
            T* e = gpu(in.data(), in.data() + n, out.data());
            CHECK(e == out.data() + n);
            CHECK(first_difference(out.download(), want) == -1);
        }
        if (in_place) {
            INFO(what << ", " << form << ", in place");
            device_vector<T> io(x);
            gpu(io.data(), io.data() + n, io.data());
            CHECK(first_difference(io.download(), want) == -1);
        }
    };
    const std::int32_t* hk = f.keys.data();
    const std::int32_t* hm = f.keys_mod.data();
    const std::int32_t* dk = d.keys.data();
    const std::int32_t* dm = d.keys_mod.data();

    run("inclusive by key",
        [&](const T* a, const T* b, T* o) {
            return sweep::inclusive_scan_by_key(sweep::gpu, dk, dk + (b - a), a, o,
                                                std::equal_to<>{}, op);
        },
        [&](const T* a, const T* b, T* o) {
            sweep::inclusive_scan_by_key(sweep::seq, hk, hk + (b - a), a, o, std::equal_to<>{},
                                         op);
        });
    run("inclusive by key, custom key_eq",
        [&](const T* a, const T* b, T* o) {
            return sweep::inclusive_scan_by_key(sweep::gpu, dm, dm + (b - a), a, o, eq_mod1000{},
                                                op);
        },
        [&](const T* a, const T* b, T* o) {
            sweep::inclusive_scan_by_key(sweep::seq, hm, hm + (b - a), a, o, eq_mod1000{}, op);
        });
    run("exclusive by key",
        [&](const T* a, const T* b, T* o) {
            return sweep::exclusive_scan_by_key(sweep::gpu, dk, dk + (b - a), a, o, init,
                                                std::equal_to<>{}, op);
        },
        [&](const T* a, const T* b, T* o) {
            sweep::exclusive_scan_by_key(sweep::seq, hk, hk + (b - a), a, o, init,
                                         std::equal_to<>{}, op);
        });
    run("exclusive by key, custom key_eq",
        [&](const T* a, const T* b, T* o) {
            return sweep::exclusive_scan_by_key(sweep::gpu, dm, dm + (b - a), a, o, init,
                                                eq_mod1000{}, op);
        },
        [&](const T* a, const T* b, T* o) {
            sweep::exclusive_scan_by_key(sweep::seq, hm, hm + (b - a), a, o, init, eq_mod1000{},
                                         op);
        });
    run("inclusive, head flags",
        [&](const T* a, const T* b, T* o) {
            return sweep::segmented_inclusive_scan(sweep::gpu, a, b, o,
                                                   sweep::head_flags(d.flags.data()), op);
        },
        [&](const T* a, const T* b, T* o) {
            sweep::segmented_inclusive_scan(sweep::seq, a, b, o,
                                            sweep::head_flags(f.flags.data()), op);
        });
    run("exclusive, head flags",
        [&](const T* a, const T* b, T* o) {
            return sweep::segmented_exclusive_scan(sweep::gpu, a, b, o,
                                                   sweep::head_flags(d.flags.data()), init, op);
        },
        [&](const T* a, const T* b, T* o) {
            sweep::segmented_exclusive_scan(sweep::seq, a, b, o,
                                            sweep::head_flags(f.flags.data()), init, op);
        });
    run("inclusive, int64 offsets with empty segments",
        [&](const T* a, const T* b, T* o) {
            return sweep::segmented_inclusive_scan(sweep::gpu, a, b, o,
                                                   sweep::offsets(d.off64.begin(), d.off64.end()),
                                                   op);
        },
        [&](const T* a, const T* b, T* o) {
            sweep::segmented_inclusive_scan(sweep::seq, a, b, o,
                                            sweep::offsets(f.off64.begin(), f.off64.end()), op);
        });
    run("exclusive, int64 offsets with empty segments",
        [&](const T* a, const T* b, T* o) {
            return sweep::segmented_exclusive_scan(sweep::gpu, a, b, o,
                                                   sweep::offsets(d.off64.begin(), d.off64.end()),
                                                   init, op);
        },
        [&](const T* a, const T* b, T* o) {
            sweep::segmented_exclusive_scan(sweep::seq, a, b, o,
                                            sweep::offsets(f.off64.begin(), f.off64.end()), init,
                                            op);
        });
    run("inclusive, int32 offsets",
        [&](const T* a, const T* b, T* o) {
            return sweep::segmented_inclusive_scan(sweep::gpu, a, b, o,
                                                   sweep::offsets(d.off32.begin(), d.off32.end()),
                                                   op);
        },
        [&](const T* a, const T* b, T* o) {
            sweep::segmented_inclusive_scan(sweep::seq, a, b, o,
                                            sweep::offsets(f.off32.begin(), f.off32.end()), op);
        });
    run("exclusive, int32 offsets",
        [&](const T* a, const T* b, T* o) {
            return sweep::segmented_exclusive_scan(sweep::gpu, a, b, o,
                                                   sweep::offsets(d.off32.begin(), d.off32.end()),
                                                   init, op);
        },
        [&](const T* a, const T* b, T* o) {
            sweep::segmented_exclusive_scan(sweep::seq, a, b, o,
                                            sweep::offsets(f.off32.begin(), f.off32.end()), init,
                                            op);
        });
}

}  // namespace

TEST_CASE("gpu segmented scans: int32 sums, every form and distribution, at tile edges",
          "[gpu][segmented_scan]") {
    using tn = tuning_of<std::int32_t>;
    std::uint64_t salt = 20000;
    for (const std::int64_t n : edge_sizes(tn::tile_items)) {
        for (const seg_dist dist : all_seg_dists) {
            auto g = sweep_test::rng(++salt);
            const auto h = make_heads(n, dist, tn::tile_items, tn::items, g);
            const seg_forms f = make_forms(h, g);
            const auto x = random_values<std::int32_t>(static_cast<std::size_t>(n), g);
            check_forms<std::int32_t>(x, f, sweep::plus<>{}, 17,
                                      "n = " + std::to_string(n) + ", " + dist_name(dist),
                                      n % 2 == 1);
        }
    }
}

TEST_CASE("gpu segmented scans: the default arguments (plus, ==, T{})", "[gpu][segmented_scan]") {
    auto g = sweep_test::rng(20500);
    const std::int64_t n = sweep_test::capped(1'000'003);
    const auto h = make_heads(n, seg_dist::mean100, 4096, 32, g);
    const seg_forms f = make_forms(h, g);
    const auto x = random_values<std::int32_t>(static_cast<std::size_t>(n), g);
    const device_forms d(f);
    device_vector<std::int32_t> in(x), out(x.size());
    std::vector<std::int32_t> want(x.size());
    sweep::inclusive_scan_by_key(sweep::gpu, d.keys.begin(), d.keys.end(), in.begin(), out.begin());
    sweep::inclusive_scan_by_key(sweep::seq, f.keys.begin(), f.keys.end(), x.begin(), want.begin());
    CHECK(first_difference(out.download(), want) == -1);
    sweep::exclusive_scan_by_key(sweep::gpu, d.keys.begin(), d.keys.end(), in.begin(), out.begin());
    sweep::exclusive_scan_by_key(sweep::seq, f.keys.begin(), f.keys.end(), x.begin(), want.begin());
    CHECK(first_difference(out.download(), want) == -1);
    sweep::exclusive_scan_by_key(sweep::gpu, d.keys.begin(), d.keys.end(), in.begin(), out.begin(),
                                 -4);
    sweep::exclusive_scan_by_key(sweep::seq, f.keys.begin(), f.keys.end(), x.begin(), want.begin(),
                                 -4);
    CHECK(first_difference(out.download(), want) == -1);
    sweep::segmented_inclusive_scan(sweep::gpu, in.begin(), in.end(), out.begin(),
                                    sweep::offsets(d.off32.begin(), d.off32.end()));
    sweep::segmented_inclusive_scan(sweep::seq, x.begin(), x.end(), want.begin(),
                                    sweep::offsets(f.off32.begin(), f.off32.end()));
    CHECK(first_difference(out.download(), want) == -1);
    sweep::segmented_exclusive_scan(sweep::gpu, in.begin(), in.end(), out.begin(),
                                    sweep::head_flags(d.flags.begin()), 9);
    sweep::segmented_exclusive_scan(sweep::seq, x.begin(), x.end(), want.begin(),
                                    sweep::head_flags(f.flags.begin()), 9);
    CHECK(first_difference(out.download(), want) == -1);
}

TEST_CASE("gpu segmented scans: a non-commutative operator (affine maps)",
          "[gpu][segmented_scan]") {
    using tn = tuning_of<affine>;
    std::uint64_t salt = 21000;
    const std::int64_t tile = tn::tile_items;
    for (const std::int64_t n : sweep_test::within_cap({std::int64_t{1}, tile - 1, 4 * tile + 1, 37 * tile + 11,
                                 std::int64_t{1'500'007}})) {
        for (const seg_dist dist : all_seg_dists) {
            auto g = sweep_test::rng(++salt);
            const auto h = make_heads(n, dist, tn::tile_items, tn::items, g);
            const seg_forms f = make_forms(h, g);
            const auto x = random_values<affine>(static_cast<std::size_t>(n), g);
            check_forms<affine>(x, f, affine_then{}, sample_init<affine>(),
                                "affine, n = " + std::to_string(n) + ", " + dist_name(dist),
                                true);
        }
    }
}

TEST_CASE("gpu segmented scans: Thrust iterators", "[gpu][segmented_scan][thrust]") {
    auto g = sweep_test::rng(22000);
    const std::int64_t n = sweep_test::capped(777'777);
    const auto h = make_heads(n, seg_dist::skewed, 2048, 16, g);
    const seg_forms f = make_forms(h, g);
    const auto x = random_values<std::int32_t>(static_cast<std::size_t>(n), g);
    thrust::device_vector<std::int32_t> dk(f.keys.begin(), f.keys.end());
    thrust::device_vector<std::int32_t> dx(x.begin(), x.end());
    thrust::device_vector<std::int64_t> doff(f.off64.begin(), f.off64.end());
    thrust::device_vector<std::int32_t> dout(n);
    std::vector<std::int32_t> want(n), got(n);

    SECTION("device_vector iterators and device_ptr") {
        CHECK(sweep::inclusive_scan_by_key(sweep::gpu, dk.begin(), dk.end(), dx.begin(),
                                           dout.begin()) == dout.end());
        sweep::inclusive_scan_by_key(sweep::seq, f.keys.begin(), f.keys.end(), x.begin(),
                                     want.begin());
        thrust::copy(dout.begin(), dout.end(), got.begin());
        CHECK(first_difference(got, want) == -1);

        sweep::segmented_exclusive_scan(sweep::gpu, dx.data(), dx.data() + n, dout.data(),
                                        sweep::offsets(doff.begin(), doff.end()), 5);
        sweep::segmented_exclusive_scan(sweep::seq, x.begin(), x.end(), want.begin(),
                                        sweep::offsets(f.off64.begin(), f.off64.end()), 5);
        thrust::copy(dout.begin(), dout.end(), got.begin());
        CHECK(first_difference(got, want) == -1);
    }
    SECTION("fancy keys and values") {
        // keys i / 37 (segments of 37), values 2 x[i] through a transform iterator.
        auto keys = thrust::make_transform_iterator(thrust::counting_iterator<std::int64_t>(0),
                                                    div37{});
        auto vals = thrust::make_transform_iterator(dx.begin(), twice{});
        sweep::exclusive_scan_by_key(sweep::gpu, keys, keys + n, vals, dout.begin(), 1);
        std::vector<std::int64_t> hk(n);
        std::vector<std::int32_t> hx(n);
        for (std::int64_t i = 0; i < n; ++i) {
            hk[i] = i / 37;
            hx[i] = 2 * x[i];
        }
        sweep::exclusive_scan_by_key(sweep::seq, hk.begin(), hk.end(), hx.begin(), want.begin(), 1);
        thrust::copy(dout.begin(), dout.end(), got.begin());
        CHECK(first_difference(got, want) == -1);
    }
}

TEST_CASE("gpu segmented scans: misaligned pointers take the element-wise paths",
          "[gpu][segmented_scan]") {
    auto g = sweep_test::rng(23000);
    const std::int64_t n = sweep_test::capped((1 << 20) + 5);
    const auto h = make_heads(n + 8, seg_dist::mean100, 2048, 16, g);
    const seg_forms f = make_forms(h, g);
    const auto x = random_values<std::int32_t>(static_cast<std::size_t>(n + 8), g);
    device_vector<std::int32_t> dk(f.keys), dx(x), dout(x.size());
    device_vector<std::uint8_t> df(f.flags);
    std::vector<std::int32_t> want(x.size());
    for (int a : {0, 1}) {
        for (int b : {0, 3}) {
            for (int c : {0, 1}) {
                INFO("keys/flags offset " << a << ", values offset " << b << ", output offset "
                                          << c);
                dout.poison();
                sweep::inclusive_scan_by_key(sweep::gpu, dk.data() + a, dk.data() + a + n,
                                             dx.data() + b, dout.data() + c);
                sweep::inclusive_scan_by_key(sweep::seq, f.keys.data() + a,
                                             f.keys.data() + a + n, x.data() + b,
                                             want.data() + c);
                auto got = dout.download();
                CHECK(std::equal(got.begin() + c, got.begin() + c + n, want.begin() + c));
                dout.poison();
                sweep::segmented_exclusive_scan(sweep::gpu, dx.data() + b, dx.data() + b + n,
                                                dout.data() + c,
                                                sweep::head_flags(df.data() + a), 2);
                sweep::segmented_exclusive_scan(sweep::seq, x.data() + b, x.data() + b + n,
                                                want.data() + c,
                                                sweep::head_flags(f.flags.data() + a), 2);
                got = dout.download();
                CHECK(std::equal(got.begin() + c, got.begin() + c + n, want.begin() + c));
            }
        }
    }
}

TEST_CASE("gpu segmented scans: on a stream, enqueued back to back", "[gpu][segmented_scan]") {
    auto g = sweep_test::rng(24000);
    const std::int64_t n = sweep_test::capped((1 << 22) + 1);
    const auto h = make_heads(n, seg_dist::mean1e4, 2048, 16, g);
    const seg_forms f = make_forms(h, g);
    const auto x = random_values<std::int32_t>(static_cast<std::size_t>(n), g);
    const device_forms d(f);
    device_vector<std::int32_t> in(x), a(x.size()), b(x.size());
    cudaStream_t s;
    cuda_ok(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "stream");
    // The second reads the first's output with no sync between: stream order alone.
    sweep::inclusive_scan_by_key(sweep::gpu.on(s), d.keys.begin(), d.keys.end(), in.begin(),
                                 a.begin());
    sweep::segmented_exclusive_scan(sweep::gpu.on(s), a.begin(), a.end(), b.begin(),
                                    sweep::head_flags(d.flags.begin()), 0, sweep::maximum<>{});
    cuda_ok(cudaStreamSynchronize(s), "sync");
    std::vector<std::int32_t> wa(x.size()), wb(x.size());
    sweep::inclusive_scan_by_key(sweep::seq, f.keys.begin(), f.keys.end(), x.begin(), wa.begin());
    sweep::segmented_exclusive_scan(sweep::seq, wa.begin(), wa.end(), wb.begin(),
                                    sweep::head_flags(f.flags.begin()), 0, sweep::maximum<>{});
    CHECK(first_difference(a.download(), wa) == -1);
    CHECK(first_difference(b.download(), wb) == -1);
    // The offsets form validates on the device and waits for that verdict before it returns; the
    // scan itself may still run (since session 9), so the result is read after the stream.
    sweep::segmented_inclusive_scan(sweep::gpu.on(s), in.begin(), in.end(), a.begin(),
                                    sweep::offsets(d.off64.begin(), d.off64.end()));
    // Stream order: the next call on s reads a after the offsets scan has written it.
    sweep::inclusive_scan(sweep::gpu.on(s), a.begin(), a.end(), b.begin());
    cuda_ok(cudaStreamSynchronize(s), "sync");
    sweep::segmented_inclusive_scan(sweep::seq, x.begin(), x.end(), wa.begin(),
                                    sweep::offsets(f.off64.begin(), f.off64.end()));
    sweep::inclusive_scan(sweep::seq, wa.begin(), wa.end(), wb.begin());
    CHECK(first_difference(a.download(), wa) == -1);
    CHECK(first_difference(b.download(), wb) == -1);
    // Bad offsets on a stream: std::invalid_argument; out of place the scan's tiles check them
    // and the output may be written, but never the input; in place nothing is written.
    std::vector<std::int64_t> bad(f.off64.begin(), f.off64.end());
    if (bad.size() > 2) std::swap(bad[1], bad[bad.size() - 2]);  // no longer nondecreasing
    device_vector<std::int64_t> dbad(bad);
    CHECK_THROWS_AS(sweep::segmented_inclusive_scan(sweep::gpu.on(s), in.begin(), in.end(), b.begin(),
                                                    sweep::offsets(dbad.begin(), dbad.end())),
                    std::invalid_argument);
    cuda_ok(cudaStreamSynchronize(s), "sync");
    CHECK(in.download() == x);
    CHECK_THROWS_AS(sweep::segmented_inclusive_scan(sweep::gpu.on(s), in.begin(), in.end(),
                                                    in.begin(),
                                                    sweep::offsets(dbad.begin(), dbad.end())),
                    std::invalid_argument);
    cuda_ok(cudaStreamSynchronize(s), "sync");
    CHECK(in.download() == x);
    cudaStreamDestroy(s);
}

namespace {
struct failing_resource {
    void* allocate(std::size_t, std::size_t, cudaStream_t) { return nullptr; }
    void deallocate(void*, std::size_t, std::size_t, cudaStream_t) {}
};
}  // namespace

TEST_CASE("gpu segmented scans: errors", "[gpu][segmented_scan][errors]") {
    SECTION("bad offsets throw std::invalid_argument and leave the input unchanged") {
        // Single-block sizes and look-back sizes; the bad entry near the front, deep inside and
        // at the end; values out of [0, n] (which must not be used as indices). The output is
        // untouched where a kernel checks the offsets before the scan (one-block sizes, and in
        // place); past them, out of place, the scan's tiles check them and it may be written.
        for (const std::int64_t n : {std::int64_t{1000}, sweep_test::capped(3'000'017)}) {
            std::vector<std::int32_t> x(static_cast<std::size_t>(n), 1);
            std::vector<std::int64_t> good(static_cast<std::size_t>(n / 10 + 1));
            for (std::size_t j = 0; j < good.size(); ++j) good[j] = static_cast<std::int64_t>(j) * 10;
            good.back() = n;
            auto expect_throw = [&](std::vector<std::int64_t> o, const char* what) {
                INFO("n = " << n << ": " << what);
                device_vector<std::int64_t> dof(o);
                device_vector<std::int32_t> in(x), out(x.size());
                const auto before = out.download();
                CHECK_THROWS_AS(sweep::segmented_inclusive_scan(sweep::gpu, in.begin(), in.end(),
                                                                out.begin(),
                                                                sweep::offsets(dof.begin(),
                                                                               dof.end())),
                                std::invalid_argument);
                if (n == 1000) CHECK(out.download() == before);
                CHECK(in.download() == x);
                CHECK_THROWS_AS(sweep::segmented_exclusive_scan(sweep::gpu, in.begin(), in.end(),
                                                                in.begin(),
                                                                sweep::offsets(dof.begin(),
                                                                               dof.end()),
                                                                0),
                                std::invalid_argument);
                CHECK(in.download() == x);  // in place: the input is untouched too
            };
            auto o = good;
            o[0] = 1;
            expect_throw(o, "o[0] != 0");
            o = good;
            o.back() = n - 1;
            expect_throw(o, "o[k] < n");
            o = good;
            o.back() = n + 1;
            expect_throw(o, "o[k] > n");
            o = good;
            o[o.size() * 3 / 4] = 5;
            expect_throw(o, "decreasing deep inside");
            o = good;
            o[o.size() / 2] = std::int64_t{1} << 40;
            expect_throw(o, "an offset far past n");
            o = good;
            o[1] = -(std::int64_t{1} << 40);
            expect_throw(o, "a negative offset");
            expect_throw({}, "no offsets for a nonempty input");

            device_vector<std::int64_t> dof(good);
            device_vector<std::int32_t> in(x), out(x.size());
            CHECK_NOTHROW(sweep::segmented_inclusive_scan(sweep::gpu, in.begin(), in.end(),
                                                          out.begin(),
                                                          sweep::offsets(dof.begin(), dof.end())));
        }
        // n = 0: {0} is one empty segment, {} none; {1} is wrong.
        device_vector<std::int32_t> e(0);
        device_vector<std::int64_t> zero(std::vector<std::int64_t>{0}), one(std::vector<std::int64_t>{1});
        CHECK(sweep::segmented_inclusive_scan(sweep::gpu, e.begin(), e.begin(), e.begin(),
                                              sweep::offsets(zero.begin(), zero.end())) ==
              e.begin());
        CHECK_THROWS_AS(sweep::segmented_inclusive_scan(sweep::gpu, e.begin(), e.begin(),
                                                        e.begin(),
                                                        sweep::offsets(one.begin(), one.end())),
                        std::invalid_argument);
    }
    SECTION("host memory is std::invalid_argument") {
        const std::int64_t n = 1000;
        std::vector<std::int32_t> hx(n, 1), hk(n, 0);
        std::vector<std::uint8_t> hf(n, 0);
        std::vector<std::int64_t> ho{0, n};
        device_vector<std::int32_t> dx(hx), dk(hk), out(hx.size());
        device_vector<std::uint8_t> df(hf);
        device_vector<std::int64_t> dof(ho);
        CHECK_THROWS_AS(sweep::inclusive_scan_by_key(sweep::gpu, hk.data(), hk.data() + n,
                                                     dx.data(), out.data()),
                        std::invalid_argument);
        CHECK_THROWS_AS(sweep::inclusive_scan_by_key(sweep::gpu, dk.data(), dk.data() + n,
                                                     hx.data(), out.data()),
                        std::invalid_argument);
        CHECK_THROWS_AS(sweep::inclusive_scan_by_key(sweep::gpu, dk.data(), dk.data() + n,
                                                     dx.data(), hx.data()),
                        std::invalid_argument);
        CHECK_THROWS_AS(sweep::segmented_inclusive_scan(sweep::gpu, dx.data(), dx.data() + n,
                                                        out.data(), sweep::head_flags(hf.data())),
                        std::invalid_argument);
        CHECK_THROWS_AS(sweep::segmented_inclusive_scan(
                            sweep::gpu, dx.data(), dx.data() + n, out.data(),
                            sweep::offsets(ho.data(), ho.data() + ho.size())),
                        std::invalid_argument);
        STATIC_REQUIRE(sweep::detail::cuda::segments_on_device<sweep::detail::key_heads<
                           std::vector<int>::iterator, std::equal_to<>>>::host_iterator);
    }
    SECTION("no temporary memory is std::bad_alloc, before any output is written") {
        failing_resource none;
        const std::int64_t n = sweep_test::capped(1 << 22);
        std::vector<std::int32_t> hk(n);
        for (std::int64_t i = 0; i < n; ++i) hk[i] = static_cast<std::int32_t>(i / 100);
        device_vector<std::int32_t> dk(hk), in(n), out(n);
        const auto before = out.download();
        CHECK_THROWS_AS(sweep::inclusive_scan_by_key(sweep::gpu.with(none), dk.begin(), dk.end(),
                                                     in.begin(), out.begin()),
                        std::bad_alloc);
        CHECK(out.download() == before);
    }
    SECTION("n = 0 touches nothing and returns d_first") {
        std::vector<int> host(10, 1);
        CHECK(sweep::inclusive_scan_by_key(sweep::gpu, host.data(), host.data(), host.data(),
                                           host.data()) == host.data());
    }
}
