// test/gpu/radix_host_compiled.cpp -- compiled by the host compiler, not nvcc: radix_sort and
// radix_sort_by_key on sweep::gpu with raw device pointers reach the sorts precompiled in the
// library, for every built-in key type, keys only and with 4- and 8-byte values, both
// directions, on the single-block and the Onesweep paths. Checked bitwise against seq.
#include <cuda_runtime_api.h>

#include <bit>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include <sweep/radix_sort.hpp>

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
    std::size_t n;
    explicit dev(const std::vector<T>& h) : n(h.size()) {
        REQUIRE(cudaMalloc(reinterpret_cast<void**>(&p), (n ? n : 1) * sizeof(T)) == cudaSuccess);
        REQUIRE(cudaMemcpy(p, h.data(), n * sizeof(T), cudaMemcpyHostToDevice) == cudaSuccess);
    }
    ~dev() { cudaFree(p); }
    std::vector<T> download() const {
        std::vector<T> h(n);
        REQUIRE(cudaMemcpy(h.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost) == cudaSuccess);
        return h;
    }
};

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
    return a.size() == b.size() &&
           (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

/// Keys from a few hundred values (equal keys: stability shows in the values) and uniform bits.
template <class K>
std::vector<K> keys_of(std::int64_t n, std::mt19937_64& g) {
    using U = sweep::detail::ordered_bits_t<K>;
    std::vector<K> h(static_cast<std::size_t>(n));
    for (auto& x : h) {
        const std::uint64_t b = (g() & 1) ? g() : g() % 300;
        x = std::bit_cast<K>(static_cast<U>(b));
    }
    return h;
}

/// A 4-byte value type that is not an integer: the precompiled sorts move any 4-byte type.
struct two_halves {
    std::uint16_t lo, hi;
};

template <class K, class V, bool Descending>
void check(std::int64_t n, std::mt19937_64& g) {
    INFO("n " << n << ", key bytes " << sizeof(K) << ", value bytes " << sizeof(V)
              << (Descending ? ", descending" : ", ascending") << ", seed " << sweep_test::seed());
    const std::vector<K> keys = keys_of<K>(n, g);
    std::vector<V> values(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) {
        if constexpr (std::is_same_v<V, two_halves>)
            values[i] = two_halves{static_cast<std::uint16_t>(i), static_cast<std::uint16_t>(i >> 16)};
        else values[i] = static_cast<V>(i);
    }
    // keys only
    {
        std::vector<K> want = keys;
        dev<K> d(keys);
        if constexpr (Descending) {
            sweep::radix_sort(sweep::seq, want.begin(), want.end(), sweep::descending);
            sweep::radix_sort(sweep::gpu, d.p, d.p + n, sweep::descending);
        } else {
            sweep::radix_sort(sweep::seq, want.begin(), want.end());
            sweep::radix_sort(sweep::gpu, d.p, d.p + n);
        }
        CHECK(same_bits(d.download(), want));
    }
    // pairs
    {
        std::vector<K> want_k = keys;
        std::vector<V> want_v = values;
        dev<K> dk(keys);
        dev<V> dv(values);
        if constexpr (Descending) {
            sweep::radix_sort_by_key(sweep::seq, want_k.begin(), want_k.end(), want_v.begin(),
                                     sweep::descending);
            sweep::radix_sort_by_key(sweep::gpu, dk.p, dk.p + n, dv.p, sweep::descending);
        } else {
            sweep::radix_sort_by_key(sweep::seq, want_k.begin(), want_k.end(), want_v.begin());
            sweep::radix_sort_by_key(sweep::gpu, dk.p, dk.p + n, dv.p);
        }
        CHECK(same_bits(dk.download(), want_k));
        CHECK(same_bits(dv.download(), want_v));
    }
}

template <class K>
void all_for_key(std::uint64_t salt) {
    auto g = sweep_test::rng(salt);
    // One block (small), a few tiles, many tiles.
    for (const std::int64_t n : {std::int64_t{0}, std::int64_t{1}, std::int64_t{777},
                                 std::int64_t{20'000}, sweep_test::capped(1'000'003)}) {
        check<K, std::uint32_t, false>(n, g);
        check<K, std::uint64_t, true>(n, g);
        check<K, two_halves, true>(n, g);
        check<K, double, false>(n, g);
    }
}

}  // namespace

TEST_CASE("host-compiled radix sorts: 8-bit keys", "[gpu][radix][host-compiled]") {
    all_for_key<std::int8_t>(401);
    all_for_key<std::uint8_t>(402);
}
TEST_CASE("host-compiled radix sorts: 16-bit keys", "[gpu][radix][host-compiled]") {
    all_for_key<std::int16_t>(403);
    all_for_key<std::uint16_t>(404);
}
TEST_CASE("host-compiled radix sorts: 32-bit keys", "[gpu][radix][host-compiled]") {
    all_for_key<std::int32_t>(405);
    all_for_key<std::uint32_t>(406);
    all_for_key<float>(407);
}
TEST_CASE("host-compiled radix sorts: 64-bit keys", "[gpu][radix][host-compiled]") {
    all_for_key<std::int64_t>(408);
    all_for_key<std::uint64_t>(409);
    all_for_key<double>(410);
}
