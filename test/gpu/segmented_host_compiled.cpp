// test/gpu/segmented_host_compiled.cpp -- compiled by the host compiler, not nvcc: the segmented
// scans on sweep::gpu with raw device pointers reach the kernels precompiled in the library
// (src/cuda/segmented_builtin*.cu), checked against seq:
//   - every built-in value type with plus, minimum and maximum, by key (int32 keys), by offsets
//     (int64, with empty segments) and by head flags (uint8), inclusive and exclusive, with and
//     without init, at sizes around the tiles (1-byte values: 8192 a tile; 2-byte: 4096;
//     4-byte: 2048; 8: 1024) and past the single-block limit;
//   - every precompiled segment form: keys of 1-8 bytes, bool, float (with -0.0 == +0.0) and
//     double; flags of bool and 1-8 bytes; offsets of 32/64 bits, signed and unsigned;
//   - keys and flags not 16-byte aligned (the scalar head path), in place, .on(stream);
//   - invalid offsets and host memory throw std::invalid_argument.
// A failure prints the seed (SWEEP_TEST_SEED replays it), the type, form, size and first bad index.
#include <cuda_runtime_api.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include <sweep/segmented_scan.hpp>

#include "catch.hpp"
#include "random.hpp"
#include "size_cap.hpp"

#if defined(__CUDACC__)
#error "this test must be compiled by the host compiler"
#endif

namespace {

template <class T>
struct dev {
    T* p = nullptr;
    std::size_t n = 0;
    explicit dev(std::size_t count) : n(count) {
        REQUIRE(cudaMalloc(reinterpret_cast<void**>(&p), (n ? n : 1) * sizeof(T) + 64) ==
                cudaSuccess);
        REQUIRE(cudaMemset(p, 0xA5, (n ? n : 1) * sizeof(T)) == cudaSuccess);
    }
    template <class U>
    explicit dev(const std::vector<U>& h, std::size_t shift = 0) : dev(h.size() + shift) {
        static_assert(std::is_same_v<U, T>);
        std::vector<unsigned char> bytes(h.size() * sizeof(T));  // std::vector<bool> has no data()
        for (std::size_t i = 0; i < h.size(); ++i) {
            const T v = h[i];
            std::memcpy(bytes.data() + i * sizeof(T), &v, sizeof(T));
        }
        if (!h.empty())
            REQUIRE(cudaMemcpy(p + shift, bytes.data(), bytes.size(), cudaMemcpyHostToDevice) ==
                    cudaSuccess);
    }
    dev(const dev&) = delete;
    dev& operator=(const dev&) = delete;
    ~dev() { cudaFree(p); }
};

template <class T>
std::vector<T> download(const T* p, std::size_t n) {
    std::vector<T> h(n);
    if (n) REQUIRE(cudaMemcpy(h.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost) == cudaSuccess);
    return h;
}

/// Bitwise comparison (floating-point results are exact here: small integer values).
template <class T>
std::int64_t first_bad(const std::vector<T>& got, const std::vector<T>& want) {
    if (got.size() != want.size()) return 0;
    for (std::size_t i = 0; i < got.size(); ++i)
        if (std::memcmp(&got[i], &want[i], sizeof(T)) != 0) return static_cast<std::int64_t>(i);
    return -1;
}

/// Head flags with segments of random length (mean `mean`), element 0 a head.
std::vector<char> random_heads(std::int64_t n, std::int64_t mean, std::mt19937_64& g) {
    std::vector<char> h(static_cast<std::size_t>(n), 0);
    std::uniform_int_distribution<std::int64_t> u(0, mean - 1);
    for (auto& x : h) x = u(g) == 0;
    if (n > 0) h[0] = 1;
    return h;
}

/// Segment id mod 100 as K (+0.5 for floating K; bool: the id's parity), so that neighbouring
/// segments differ. Floating keys of id 0 are -0.0 or +0.0 at random: == holds between them, so
/// they form one segment on every backend.
template <class K>
std::vector<K> keys_of(const std::vector<char>& h, std::mt19937_64& g) {
    std::vector<K> k(h.size());
    int id = 0;
    for (std::size_t i = 0; i < h.size(); ++i) {
        if (i > 0 && h[i]) id = (id + 1) % 100;
        if constexpr (std::is_same_v<K, bool>) {
            k[i] = (id % 2) != 0;
        } else if constexpr (std::is_floating_point_v<K>) {
            k[i] = id == 0 ? (g() % 2 ? K(-0.0) : K(0.0)) : static_cast<K>(id) + K(0.5);
        } else {
            k[i] = static_cast<K>(id);
        }
    }
    return k;
}

template <class F>
std::vector<F> flags_of(const std::vector<char>& h, std::mt19937_64& g) {
    std::vector<F> f(h.size());
    for (std::size_t i = 0; i < h.size(); ++i) {
        if constexpr (std::is_same_v<F, bool>) f[i] = h[i] != 0;
        else f[i] = h[i] ? static_cast<F>(1 + g() % 100) : F(0);
    }
    if (!f.empty() && g() % 2) f[0] = F(0);  // element 0 is a head regardless
    return f;
}

template <class O>
std::vector<O> offsets_of(const std::vector<char>& h, std::mt19937_64& g) {
    std::vector<O> o;
    o.push_back(0);  // an empty first segment
    for (std::size_t i = 0; i < h.size(); ++i) {
        if (h[i]) {
            o.push_back(static_cast<O>(i));
            if (g() % 16 == 0) o.push_back(static_cast<O>(i));  // an empty segment
        }
    }
    o.push_back(static_cast<O>(h.size()));
    return o;
}

template <class T>
std::vector<T> small_values(std::int64_t n, std::mt19937_64& g) {
    std::uniform_int_distribution<int> d(std::is_signed_v<T> ? -3 : 0, 3);
    std::vector<T> v(static_cast<std::size_t>(n));
    for (auto& x : v) x = static_cast<T>(d(g));
    return v;
}

template <class T>
std::int64_t tile_of() {
    // tuning/segmented_tuning.cuh (not includable here): 128 x 64, 128 x 32, 128 x 16, 128 x 8.
    return sizeof(T) == 1 ? 8192 : sizeof(T) == 2 ? 4096 : sizeof(T) == 4 ? 2048 : 1024;
}

template <class T>
std::vector<std::int64_t> sizes_of() {
    const std::int64_t t = tile_of<T>();
    return sweep_test::within_cap({1, t - 1, t, t + 1, 4 * t + 1, 37 * t + 11, 300'007});
}

// ---- one value type and operator over the three forms -------------------------------------------

template <class T, class Op>
void check_value_type(Op op, const char* type_name, std::uint64_t salt) {
    for (const std::int64_t n : sizes_of<T>()) {
        for (const std::int64_t mean : {std::int64_t{1}, std::int64_t{100}, std::int64_t{10000}}) {
            auto g = sweep_test::rng(salt + static_cast<std::uint64_t>(n * 7 + mean));
            INFO("seed " << sweep_test::seed() << " salt " << salt << " type " << type_name
                         << " n " << n << " mean segment " << mean);
            const auto heads = random_heads(n, mean, g);
            const auto keys = keys_of<std::int32_t>(heads, g);
            const auto flags = flags_of<std::uint8_t>(heads, g);
            const auto offs = offsets_of<std::int64_t>(heads, g);
            const auto x = small_values<T>(n, g);
            const T init = static_cast<T>(2);
            const auto un = static_cast<std::size_t>(n);
            dev<T> in(x), out(un);
            dev<std::int32_t> dk(keys);
            dev<std::uint8_t> df(flags);
            dev<std::int64_t> d_off(offs);
            std::vector<T> want(un);

            sweep::inclusive_scan_by_key(sweep::seq, keys.begin(), keys.end(), x.begin(),
                                         want.begin(), std::equal_to<>{}, op);
            CHECK(sweep::inclusive_scan_by_key(sweep::gpu, dk.p, dk.p + n, in.p, out.p,
                                               std::equal_to<>{}, op) == out.p + n);
            CHECK(first_bad(download(out.p, un), want) == -1);

            sweep::exclusive_scan_by_key(sweep::seq, keys.begin(), keys.end(), x.begin(),
                                         want.begin(), init, std::equal_to<std::int32_t>{}, op);
            sweep::exclusive_scan_by_key(sweep::gpu, static_cast<const std::int32_t*>(dk.p),
                                         static_cast<const std::int32_t*>(dk.p) + n,
                                         static_cast<const T*>(in.p), out.p, init,
                                         std::equal_to<std::int32_t>{}, op);
            CHECK(first_bad(download(out.p, un), want) == -1);

            const auto so = sweep::offsets(offs.begin(), offs.end());
            const auto dso = sweep::offsets(d_off.p, d_off.p + offs.size());
            sweep::segmented_inclusive_scan(sweep::seq, x.begin(), x.end(), want.begin(), so, op);
            CHECK(sweep::segmented_inclusive_scan(sweep::gpu, in.p, in.p + n, out.p, dso, op) ==
                  out.p + n);
            CHECK(first_bad(download(out.p, un), want) == -1);
            sweep::segmented_exclusive_scan(sweep::seq, x.begin(), x.end(), want.begin(), so,
                                            init, op);
            sweep::segmented_exclusive_scan(sweep::gpu, in.p, in.p + n, out.p, dso, init, op);
            CHECK(first_bad(download(out.p, un), want) == -1);

            const auto sf = sweep::head_flags(flags.begin());
            const auto dsf = sweep::head_flags(df.p);
            sweep::segmented_inclusive_scan(sweep::seq, x.begin(), x.end(), want.begin(), sf, op);
            sweep::segmented_inclusive_scan(sweep::gpu, in.p, in.p + n, out.p, dsf, op);
            CHECK(first_bad(download(out.p, un), want) == -1);
            sweep::segmented_exclusive_scan(sweep::seq, x.begin(), x.end(), want.begin(), sf,
                                            init, op);
            sweep::segmented_exclusive_scan(sweep::gpu, in.p, in.p + n, out.p, dsf, init, op);
            CHECK(first_bad(download(out.p, un), want) == -1);
        }
    }
}

template <class T>
void check_value_type_all_ops(const char* name, std::uint64_t salt) {
    check_value_type<T>(sweep::plus<>{}, name, salt);
    check_value_type<T>(sweep::minimum<T>{}, name, salt + 1);
    check_value_type<T>(sweep::maximum<>{}, name, salt + 2);
}

// ---- the segment forms, over int32 and double values --------------------------------------------

template <class T>
void check_key_type_for(const char* key_name, std::uint64_t salt, auto key_tag, bool misalign) {
    using K = typename decltype(key_tag)::type;
    for (const std::int64_t n : sizes_of<T>()) {
        auto g = sweep_test::rng(salt + static_cast<std::uint64_t>(n));
        INFO("seed " << sweep_test::seed() << " salt " << salt << " keys " << key_name
                     << " values of " << sizeof(T) << " bytes, n " << n
                     << (misalign ? ", keys misaligned" : ""));
        const auto heads = random_heads(n, 50, g);
        const auto keys = keys_of<K>(heads, g);
        const auto x = small_values<T>(n, g);
        const auto un = static_cast<std::size_t>(n);
        const std::size_t shift = misalign ? 1 : 0;
        dev<K> dk(keys, shift);
        dev<T> in(x), out(un);
        std::vector<T> want(un);
        sweep::inclusive_scan_by_key(sweep::seq, keys.begin(), keys.end(), x.begin(),
                                     want.begin());
        sweep::inclusive_scan_by_key(sweep::gpu, dk.p + shift, dk.p + shift + n, in.p, out.p);
        CHECK(first_bad(download(out.p, un), want) == -1);
        sweep::exclusive_scan_by_key(sweep::seq, keys.begin(), keys.end(), x.begin(),
                                     want.begin());
        sweep::exclusive_scan_by_key(sweep::gpu, dk.p + shift, dk.p + shift + n, in.p, out.p);
        CHECK(first_bad(download(out.p, un), want) == -1);
    }
}

template <class K>
struct tag {
    using type = K;
};

template <class F, class T>
void check_flag_type_for(const char* flag_name, std::uint64_t salt, bool misalign) {
    for (const std::int64_t n : sizes_of<T>()) {
        auto g = sweep_test::rng(salt + static_cast<std::uint64_t>(n));
        INFO("seed " << sweep_test::seed() << " salt " << salt << " flags " << flag_name
                     << " values of " << sizeof(T) << " bytes, n " << n
                     << (misalign ? ", flags misaligned" : ""));
        const auto heads = random_heads(n, 30, g);
        const auto flags = flags_of<F>(heads, g);
        const auto x = small_values<T>(n, g);
        const auto un = static_cast<std::size_t>(n);
        const std::size_t shift = misalign ? 1 : 0;
        dev<F> df(flags, shift);
        dev<T> in(x), out(un);
        std::vector<T> want(un);
        sweep::segmented_inclusive_scan(sweep::seq, x.begin(), x.end(), want.begin(),
                                        sweep::head_flags(flags.begin()));
        sweep::segmented_inclusive_scan(sweep::gpu, in.p, in.p + n, out.p,
                                        sweep::head_flags(df.p + shift));
        CHECK(first_bad(download(out.p, un), want) == -1);
    }
}

template <class O, class T>
void check_offset_type_for(const char* off_name, std::uint64_t salt) {
    for (const std::int64_t n : sizes_of<T>()) {
        for (const std::int64_t mean : {std::int64_t{1}, std::int64_t{1000}}) {
            auto g = sweep_test::rng(salt + static_cast<std::uint64_t>(n + mean));
            INFO("seed " << sweep_test::seed() << " salt " << salt << " offsets " << off_name
                         << " values of " << sizeof(T) << " bytes, n " << n << " mean " << mean);
            const auto heads = random_heads(n, mean, g);
            const auto offs = offsets_of<O>(heads, g);
            const auto x = small_values<T>(n, g);
            const auto un = static_cast<std::size_t>(n);
            dev<O> d_off(offs);
            dev<T> in(x), out(un);
            std::vector<T> want(un);
            sweep::segmented_exclusive_scan(sweep::seq, x.begin(), x.end(), want.begin(),
                                            sweep::offsets(offs.begin(), offs.end()), T(1),
                                            sweep::maximum<>{});
            sweep::segmented_exclusive_scan(sweep::gpu, in.p, in.p + n, out.p,
                                            sweep::offsets(d_off.p, d_off.p + offs.size()), T(1),
                                            sweep::maximum<>{});
            CHECK(first_bad(download(out.p, un), want) == -1);
        }
    }
}

}  // namespace

TEST_CASE("host-compiled segmented scans: every built-in value type and operator",
          "[gpu][host][segmented]") {
    check_value_type_all_ops<std::int8_t>("int8", 1000);
    check_value_type_all_ops<std::uint8_t>("uint8", 1010);
    check_value_type_all_ops<std::int16_t>("int16", 1020);
    check_value_type_all_ops<std::uint16_t>("uint16", 1030);
    check_value_type_all_ops<std::int32_t>("int32", 1040);
    check_value_type_all_ops<std::uint32_t>("uint32", 1050);
    check_value_type_all_ops<std::int64_t>("int64", 1060);
    check_value_type_all_ops<std::uint64_t>("uint64", 1070);
    check_value_type_all_ops<float>("float", 1080);
    check_value_type_all_ops<double>("double", 1090);
    // std::plus, as API.md lists it.
    check_value_type<std::int32_t>(std::plus<>{}, "int32 std::plus<>", 1100);
    check_value_type<double>(std::plus<double>{}, "double std::plus<double>", 1110);
}

TEST_CASE("host-compiled segmented scans: every precompiled key type", "[gpu][host][segmented]") {
    for (const bool mis : {false, true}) {
        check_key_type_for<std::int32_t>("int8", 2000, tag<std::int8_t>{}, mis);
        check_key_type_for<std::int8_t>("uint8", 2010, tag<std::uint8_t>{}, mis);
        check_key_type_for<std::int32_t>("bool", 2020, tag<bool>{}, mis);
        check_key_type_for<std::int16_t>("int16", 2030, tag<std::int16_t>{}, mis);
        check_key_type_for<double>("uint16", 2040, tag<std::uint16_t>{}, mis);
        check_key_type_for<std::int32_t>("uint32", 2050, tag<std::uint32_t>{}, mis);
        check_key_type_for<std::int8_t>("int32", 2060, tag<std::int32_t>{}, mis);
        check_key_type_for<std::int32_t>("int64", 2070, tag<std::int64_t>{}, mis);
        check_key_type_for<std::uint8_t>("uint64", 2080, tag<std::uint64_t>{}, mis);
        check_key_type_for<double>("uint64", 2090, tag<std::uint64_t>{}, mis);
        check_key_type_for<std::int32_t>("float (-0.0 == +0.0)", 2100, tag<float>{}, mis);
        check_key_type_for<std::int64_t>("double (-0.0 == +0.0)", 2110, tag<double>{}, mis);
    }
}

TEST_CASE("host-compiled segmented scans: every precompiled flag and offset type",
          "[gpu][host][segmented]") {
    for (const bool mis : {false, true}) {
        check_flag_type_for<bool, std::int32_t>("bool", 3000, mis);
        check_flag_type_for<std::int8_t, std::int8_t>("int8", 3010, mis);
        check_flag_type_for<std::uint16_t, double>("uint16", 3020, mis);
        check_flag_type_for<std::int32_t, std::int32_t>("int32", 3030, mis);
        check_flag_type_for<std::uint64_t, std::int16_t>("uint64", 3040, mis);
    }
    check_offset_type_for<std::int32_t, std::int32_t>("int32", 3100);
    check_offset_type_for<std::uint32_t, std::int8_t>("uint32", 3110);
    check_offset_type_for<std::int64_t, double>("int64", 3120);
    check_offset_type_for<std::uint64_t, std::uint16_t>("uint64 (size_t)", 3130);
}

TEST_CASE("host-compiled segmented scans: in place, streams, errors", "[gpu][host][segmented]") {
    auto g = sweep_test::rng(4000);
    INFO("seed " << sweep_test::seed() << " salt 4000");
    const std::int64_t n = sweep_test::capped(100'003);
    const auto heads = random_heads(n, 40, g);
    const auto keys = keys_of<std::int64_t>(heads, g);
    const auto x = small_values<float>(n, g);
    const auto un = static_cast<std::size_t>(n);
    std::vector<float> want(un);
    sweep::inclusive_scan_by_key(sweep::seq, keys.begin(), keys.end(), x.begin(), want.begin());

    dev<std::int64_t> dk(keys);
    dev<float> io(x);
    sweep::inclusive_scan_by_key(sweep::gpu, dk.p, dk.p + n, io.p, io.p);  // in place
    CHECK(first_bad(download(io.p, un), want) == -1);

    cudaStream_t s = nullptr;
    REQUIRE(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess);
    dev<float> in(x), out(un);
    sweep::inclusive_scan_by_key(sweep::gpu.on(s), dk.p, dk.p + n, in.p, out.p);
    REQUIRE(cudaStreamSynchronize(s) == cudaSuccess);
    CHECK(first_bad(download(out.p, un), want) == -1);
    cudaStreamDestroy(s);

    // Invalid offsets: std::invalid_argument, and the input is not written (out of place the
    // scan's tiles check the offsets, and the output may be; in place nothing is).
    std::vector<std::int32_t> bad = {0, 10, 5, static_cast<std::int32_t>(n)};
    dev<std::int32_t> dbad(bad);
    dev<float> untouched(un);
    CHECK_THROWS_AS(sweep::segmented_inclusive_scan(sweep::gpu, in.p, in.p + n, untouched.p,
                                                    sweep::offsets(dbad.p, dbad.p + 4)),
                    std::invalid_argument);
    CHECK(first_bad(download(in.p, un), x) == -1);
    CHECK_THROWS_AS(sweep::segmented_inclusive_scan(sweep::gpu, in.p, in.p + n, in.p,
                                                    sweep::offsets(dbad.p, dbad.p + 4)),
                    std::invalid_argument);
    CHECK(first_bad(download(in.p, un), x) == -1);
    std::vector<std::int64_t> short_end = {0, 10, n - 1};
    dev<std::int64_t> dshort(short_end);
    CHECK_THROWS_AS(sweep::segmented_inclusive_scan(sweep::gpu, in.p, in.p + n, untouched.p,
                                                    sweep::offsets(dshort.p, dshort.p + 3)),
                    std::invalid_argument);
    // Empty offsets for a non-empty input; host memory anywhere.
    CHECK_THROWS_AS(sweep::segmented_inclusive_scan(sweep::gpu, in.p, in.p + n, out.p,
                                                    sweep::offsets(dshort.p, dshort.p)),
                    std::invalid_argument);
    CHECK_THROWS_AS(sweep::inclusive_scan_by_key(sweep::gpu, keys.data(), keys.data() + n, in.p,
                                                 out.p),
                    std::invalid_argument);
    CHECK_THROWS_AS(sweep::inclusive_scan_by_key(sweep::gpu, dk.p, dk.p + n, x.data(), out.p),
                    std::invalid_argument);
    // n == 0 touches nothing.
    CHECK(sweep::inclusive_scan_by_key(sweep::gpu, dk.p, dk.p, in.p, out.p) == out.p);
}
