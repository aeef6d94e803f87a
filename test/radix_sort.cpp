// test/radix_sort.cpp -- host tests: radix_sort and radix_sort_by_key, ascending and descending.
//
// The expected order is std::stable_sort of (key, original index) with total_less (oracles.hpp,
// IEEE 754 totalOrder written from its definition), reversed for descending; values are the
// original indices (so stability is checked element by element) or 24-byte records. Keys are
// compared bitwise (NaN payloads, -0.0). Inputs: random, with edge values (min, max, 0, -0.0,
// +-inf, NaNs of both signs, denormals), all equal, sorted, reversed, and three distinct keys.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <vector>

#include <sweep/radix_sort.hpp>

#include "catch.hpp"
#include "generators.hpp"
#include "oracles.hpp"
#include "policies.hpp"
#include "sizes.hpp"
#include "types.hpp"

namespace {

using namespace sweep_test;

template <class K>
std::vector<K> edge_keys() {
    using L = std::numeric_limits<K>;
    if constexpr (std::is_floating_point_v<K>) {
        using U = std::conditional_t<sizeof(K) == 4, std::uint32_t, std::uint64_t>;
        const U sign = U(1) << (8 * sizeof(K) - 1);
        const K qnan = L::quiet_NaN();
        const K nan_payload = std::bit_cast<K>(U(std::bit_cast<U>(qnan) | 5));
        const K snan = L::signaling_NaN();
        const K neg = [&](K x) { return std::bit_cast<K>(U(std::bit_cast<U>(x) ^ sign)); }(qnan);
        const K neg_payload = std::bit_cast<K>(U(std::bit_cast<U>(nan_payload) | sign));
        const K neg_snan = std::bit_cast<K>(U(std::bit_cast<U>(snan) | sign));
        return {L::min(), L::max(), L::lowest(), -L::min(), K(0), -K(0), L::infinity(),
                -L::infinity(), qnan, nan_payload, snan, neg, neg_payload, neg_snan,
                L::denorm_min(), -L::denorm_min(), L::denorm_min() * K(1000),
                -L::denorm_min() * K(77), K(1), K(-1), L::epsilon()};
    } else {
        std::vector<K> v{L::min(), L::max(), K(0), K(1), K(L::max() - 1)};
        if constexpr (std::is_signed_v<K>) v.insert(v.end(), {K(-1), K(L::min() + 1)});
        return v;
    }
}

enum class shape { random, edges, equal, sorted, reversed, three };
const char* name_of(shape s) {
    switch (s) {
        case shape::random: return "random";
        case shape::edges: return "random with edge values";
        case shape::equal: return "all equal";
        case shape::sorted: return "sorted";
        case shape::reversed: return "reversed";
        case shape::three: return "three distinct keys";
    }
    return "?";
}

template <class K>
std::vector<K> make_keys(std::int64_t n, shape s, std::mt19937_64& g) {
    auto k = random_mixed<K>(n, g);
    const auto edges = edge_keys<K>();
    switch (s) {
        case shape::random: break;
        case shape::edges:
            for (auto& x : k)
                if (g() % 4 == 0) x = edges[g() % edges.size()];
            break;
        case shape::equal: std::fill(k.begin(), k.end(), n ? k[0] : K{}); break;
        case shape::sorted: std::sort(k.begin(), k.end(), total_less<K>); break;
        case shape::reversed:
            std::sort(k.begin(), k.end(), total_less<K>);
            std::reverse(k.begin(), k.end());
            break;
        case shape::three: {
            const K v[3] = {edges[0], edges[1], edges[2]};
            for (auto& x : k) x = v[g() % 3];
            break;
        }
    }
    return k;
}

// The expected permutation: original indices in stable (totalOrder) order of their keys.
template <class K>
std::vector<std::uint32_t> stable_order(const std::vector<K>& k, bool descending) {
    std::vector<std::uint32_t> idx(k.size());
    std::iota(idx.begin(), idx.end(), 0u);
    if (descending)
        std::stable_sort(idx.begin(), idx.end(),
                         [&](std::uint32_t a, std::uint32_t b) { return total_less(k[b], k[a]); });
    else
        std::stable_sort(idx.begin(), idx.end(),
                         [&](std::uint32_t a, std::uint32_t b) { return total_less(k[a], k[b]); });
    return idx;
}

enum class policies { all, backends, seq_and_par };

template <class K>
void check_sorts(const std::vector<K>& keys, policies which, bool with_records,
                 bool keys_alone = true) {
    for (const bool desc : {false, true}) {
        INFO((desc ? "descending" : "ascending"));
        const auto order = stable_order(keys, desc);
        std::vector<K> want_keys(keys.size());
        for (std::size_t i = 0; i < keys.size(); ++i) want_keys[i] = keys[order[i]];
        std::vector<K> k;
        std::vector<std::uint32_t> v;
        std::vector<rec24> recs(keys.size()), want_recs(keys.size());
        for (std::size_t i = 0; i < keys.size(); ++i)
            recs[i] = rec24{i, static_cast<std::int32_t>(i), -1, 7, static_cast<std::uint32_t>(i)};
        for (std::size_t i = 0; i < keys.size(); ++i) want_recs[i] = recs[order[i]];

        auto one = [&](const char* name, const auto& pol) {
            INFO("policy " << name);
            if (keys_alone) {
                k = keys;
                if (desc) sweep::radix_sort(pol, k.begin(), k.end(), sweep::descending);
                else sweep::radix_sort(pol, k.begin(), k.end());
                CHECK(bit_mismatch(k, want_keys) == "");
            }

            k = keys;
            v.resize(keys.size());
            std::iota(v.begin(), v.end(), 0u);
            if (desc) sweep::radix_sort_by_key(pol, k.begin(), k.end(), v.begin(), sweep::descending);
            else sweep::radix_sort_by_key(pol, k.begin(), k.end(), v.begin());
            CHECK(bit_mismatch(k, want_keys) == "");
            CHECK(mismatch(v, order) == "");  // stability: equal keys keep input order

            if (with_records) {
                k = keys;
                auto r = recs;
                if (desc) sweep::radix_sort_by_key(pol, k.begin(), k.end(), r.begin(), sweep::descending);
                else sweep::radix_sort_by_key(pol, k.begin(), k.end(), r.begin());
                CHECK(bit_mismatch(k, want_keys) == "");
                CHECK(mismatch(r, want_recs) == "");
            }
        };
        if (which == policies::all) {
            for_each_host_policy(one);
        } else if (which == policies::backends) {
            for_each_backend_policy(one);
        } else {
            one("sweep::seq", sweep::seq);
            one("sweep::par", sweep::par);
        }
    }
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("radix_sort: every key type and shape, every policy", "[radix_sort]",
                        key_types) {
    using K = TestType;
    for (const std::int64_t n : {0, 1, 2, 3, 33, 1023, 1024, 1025, 65537}) {
        for (const auto s : {shape::random, shape::edges, shape::equal, shape::sorted,
                             shape::reversed, shape::three}) {
            INFO("n = " << n << ", " << name_of(s));
            auto g = rng(6000 + static_cast<std::uint64_t>(n) * 8 + static_cast<unsigned>(s));
            check_sorts(make_keys<K>(n, s, g), policies::all, n <= 1025);
        }
    }
}

TEST_CASE("radix_sort: edge-value order spelled out (float and int8)", "[radix_sort]") {
    // totalOrder by hand, independent of total_less: -NaN < -inf < -max < -1 < -denorm < -0 <
    // +0 < denorm < 1 < max < inf < +NaN.
    using L = std::numeric_limits<float>;
    const float pnan = L::quiet_NaN();
    const float nnan = -pnan;
    REQUIRE(std::signbit(nnan));
    const std::vector<float> ordered{nnan, -L::infinity(), L::lowest(), -1.0f, -L::denorm_min(),
                                     -0.0f, 0.0f, L::denorm_min(), 1.0f, L::max(),
                                     L::infinity(), pnan};
    std::vector<float> shuffled = ordered;
    auto g = rng(6100);
    std::shuffle(shuffled.begin(), shuffled.end(), g);
    std::vector<float> rev(ordered.rbegin(), ordered.rend());
    const std::vector<std::int8_t> iord{-128, -127, -1, 0, 1, 126, 127};
    std::vector<std::int8_t> ishuf{1, 127, -128, 0, 126, -1, -127};
    for_each_host_policy([&](const char* name, const auto& pol) {
        INFO("policy " << name);
        auto k = shuffled;
        sweep::radix_sort(pol, k.begin(), k.end());
        CHECK(bit_mismatch(k, ordered) == "");
        k = shuffled;
        sweep::radix_sort(pol, k.begin(), k.end(), sweep::descending);
        CHECK(bit_mismatch(k, rev) == "");
        auto ik = ishuf;
        sweep::radix_sort(pol, ik.begin(), ik.end());
        CHECK(mismatch(ik, iord) == "");
    });
}

TEST_CASE("radix_sort: block edges up to 2^16 + 1", "[radix_sort][large]") {
    for (auto n : block_edge_sizes()) {
        if (n > 65537) continue;
        INFO("n = " << n);
        auto g = rng(6200 + static_cast<std::uint64_t>(n));
        check_sorts(make_keys<std::uint32_t>(n, shape::random, g), policies::all, false);
        check_sorts(make_keys<float>(n, shape::edges, g), policies::backends, false);
    }
}

TEST_CASE("radix_sort: large sizes", "[radix_sort][large]") {
    // The seq backend is itself a comparison sort (the oracle), so these cost seconds: seq and
    // par only.
    {
        auto g = rng(6300);
        INFO("n = 1048577");
        check_sorts(make_keys<std::int64_t>(1048577, shape::random, g), policies::seq_and_par, true);
    }
    {
        auto g = rng(6400);
        INFO("n = 3000017");
        check_sorts(make_keys<double>(3'000'017, shape::edges, g), policies::seq_and_par, false,
                    false);
    }
}
