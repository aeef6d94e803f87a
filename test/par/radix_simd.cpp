// test/par/radix_simd.cpp -- the par radix sort's AVX-512 bricks (backend/tbb/radix_simd.hpp).
// Where the CPU lacks AVX-512 F, CD or VPOPCNTDQ, the executable says so and exits 77 (ctest:
// skipped); test_par_radix then covers the scalar bricks only.
//
// - count_u32 and scatter_u32 against a plain loop written here: 1 to 4 digits, lengths around
//   the 16-key vector (0, 1, 15, 16, 17, 31, 33, ...) and long ones, keys drawn so that lanes
//   repeat a digit often (all equal, two values, a few, uniform), offsets starting anywhere;
//   the whole destination and the advanced offsets compared.
// - survey_u32 (OR, AND, sortedness, histogram through an integer's or a float's codec) against
//   a plain loop, on random, sorted and almost sorted keys.
// - the whole sort (u32, int32, float; ascending and descending; keys alone and with 4- and 8-byte
//   values) with the vector bricks on and off gives the same bits, and both equal sweep::seq; the
//   bricks' call counters show that the vector path ran (on) and did not (off).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include <sweep/backend/tbb/radix_simd.hpp>
#include <sweep/radix_sort.hpp>

#include "catch.hpp"
#include "random.hpp"

namespace {

namespace simd = sweep::detail::tbb_backend::radix::simd;

struct skip_without_avx512 {
    skip_without_avx512() {
        if (!simd::available()) {
            std::printf("skipped: this CPU has no AVX-512 F/CD/VPOPCNTDQ (the scalar bricks are "
                        "test_par_radix's)\n");
            std::fflush(stdout);
            std::_Exit(77);
        }
    }
} const guard;

/// Restores the mode a test case found.
struct mode_scope {
    unsigned old;
    explicit mode_scope(unsigned m) : old(simd::set_mode_for_tests(m)) {}
    ~mode_scope() { simd::set_mode_for_tests(old); }
};

const std::int64_t lengths[] = {0, 1, 2, 15, 16, 17, 31, 32, 33, 47, 100, 1000, 4099, 65536 + 7};

enum class draw { equal, two, few, uniform };
const draw draws[] = {draw::equal, draw::two, draw::few, draw::uniform};

std::vector<std::uint32_t> keys_of(draw how, std::int64_t n, std::mt19937_64& g) {
    std::vector<std::uint32_t> k(static_cast<std::size_t>(n));
    const std::uint32_t a = static_cast<std::uint32_t>(g()), b = static_cast<std::uint32_t>(g());
    std::uint32_t pool[5];
    for (auto& p : pool) p = static_cast<std::uint32_t>(g());
    for (auto& x : k) {
        switch (how) {
            case draw::equal: x = a; break;
            case draw::two: x = (g() & 1) ? a : b; break;
            case draw::few: x = pool[g() % 5]; break;
            case draw::uniform: x = static_cast<std::uint32_t>(g()); break;
        }
    }
    return k;
}

}  // namespace

TEST_CASE("radix AVX-512 bricks: on by default on the measured CPUs only", "[par][radix][simd]") {
    // The CPU as /proc/cpuinfo names it (the library asks cpuid): the bricks are on by default
    // for Intel family 6 models 143 and 207 (Sapphire and Emerald Rapids), off elsewhere.
    const char* env = std::getenv("SWEEP_RADIX_AVX512");
    if (env != nullptr && env[0] != '\0') {
        WARN("SWEEP_RADIX_AVX512 is set: the default is not checked");
        return;
    }
    std::FILE* f = std::fopen("/proc/cpuinfo", "r");
    if (f == nullptr) {
        WARN("no /proc/cpuinfo: the default is not checked");
        return;
    }
    std::string vendor;
    int family = -1, model = -1;
    char line[512];
    while (std::fgets(line, sizeof line, f) != nullptr) {
        const std::string l(line);
        auto value = [&] { return l.substr(l.find(':') + 2, l.find_last_not_of("\n") - l.find(':') - 1); };
        if (l.rfind("vendor_id", 0) == 0 && vendor.empty()) vendor = value();
        else if (l.rfind("cpu family", 0) == 0 && family < 0) family = std::stoi(value());
        else if (l.rfind("model\t", 0) == 0 && model < 0) model = std::stoi(value());
    }
    std::fclose(f);
    INFO("vendor " << vendor << " family " << family << " model " << model);
    const bool measured = vendor == "GenuineIntel" && family == 6 && (model == 143 || model == 207);
    REQUIRE(simd::default_mode() == (measured ? 7u : 0u));
}

TEST_CASE("radix AVX-512 count_u32 equals the plain count", "[par][radix][simd]") {
    auto g = sweep_test::rng(41);
    const int shapes[][4] = {{0, 11, 0, 0}, {0, 11, 21, 0}, {3, 13, 22, 0}, {0, 8, 16, 24}};
    const int widths[][4] = {{11, 10, 0, 0}, {11, 10, 11, 0}, {10, 9, 10, 0}, {8, 8, 8, 8}};
    for (int digits = 1; digits <= 4; ++digits) {
        for (int s = 0; s < 4; ++s) {
            int shift[4];
            std::uint32_t mask[4];
            int widest = 0;
            const int used = digits;
            for (int j = 0; j < digits; ++j) {
                const int w = widths[s][j] == 0 ? 8 : widths[s][j];
                shift[j] = std::min(shapes[s][j], 32 - w);
                mask[j] = (1u << w) - 1;
                widest = std::max(widest, w);
            }
            const std::int64_t stride = std::int64_t{1} << widest;
            for (const std::int64_t n : lengths) {
                for (const draw how : draws) {
                    INFO("digits " << used << " shape " << s << " n " << n << " draw " << int(how));
                    const auto k = keys_of(how, n, g);
                    // Counters start non-zero: the bricks add to them.
                    std::vector<std::uint32_t> want(static_cast<std::size_t>(used * stride));
                    for (auto& c : want) c = static_cast<std::uint32_t>(g() % 1000);
                    std::vector<std::uint32_t> got = want;
                    for (std::int64_t i = 0; i < n; ++i)
                        for (int j = 0; j < used; ++j)
                            ++want[static_cast<std::size_t>(j * stride + ((k[i] >> shift[j]) & mask[j]))];
                    simd::count_u32(k.data(), n, used, shift, mask, stride, got.data());
                    REQUIRE(got == want);
                }
            }
        }
    }
}

TEST_CASE("radix AVX-512 scatter_u32 equals the plain stable scatter", "[par][radix][simd]") {
    auto g = sweep_test::rng(42);
    const int widths[] = {1, 4, 8, 10, 11, 12};
    for (const int w : widths) {
        for (const int shift : {0, 7, 32 - w}) {
            const std::uint32_t mask = (1u << w) - 1;
            for (const std::int64_t n : lengths) {
                for (const draw how : draws) {
                    INFO("width " << w << " shift " << shift << " n " << n << " draw " << int(how));
                    const auto k = keys_of(how, n, g);
                    // Offsets: the exclusive sums of the counts, after a gap at the front, so that
                    // positions do not start at 0.
                    const std::int64_t gap = static_cast<std::int64_t>(g() % 50);
                    std::vector<std::uint32_t> off(std::size_t{1} << w, 0);
                    for (std::int64_t i = 0; i < n; ++i) ++off[(k[i] >> shift) & mask];
                    std::uint32_t sum = static_cast<std::uint32_t>(gap);
                    for (auto& o : off) {
                        const std::uint32_t c = o;
                        o = sum;
                        sum += c;
                    }
                    std::vector<std::uint32_t> want(static_cast<std::size_t>(n + gap + 3), 0xDEADBEEFu);
                    std::vector<std::uint32_t> got = want;
                    std::vector<std::uint32_t> off_want = off, off_got = off;
                    for (std::int64_t i = 0; i < n; ++i) want[off_want[(k[i] >> shift) & mask]++] = k[i];
                    simd::scatter_u32(k.data(), n, shift, mask, got.data(), off_got.data());
                    REQUIRE(got == want);
                    REQUIRE(off_got == off_want);
                }
            }
        }
    }
}

TEST_CASE("radix AVX-512 survey_u32 equals the plain survey", "[par][radix][simd]") {
    auto g = sweep_test::rng(44);
    for (const bool is_float : {false, true}) {
        for (const std::uint32_t flip : {0u, 0x80000000u, 0xFFFFFFFFu}) {
            for (const std::int64_t n : lengths) {
                // Orders: random; ascending; ascending but for one pair swapped at a random
                // place, across the first two vectors (15, 16), or at the very end (the tail).
                for (const int order : {0, 1, 2, 3, 4}) {
                  // prev: 0, the first key, or above it (then the range is out of order at once).
                  for (const int prev_kind : {0, 1, 2}) {
                    for (const bool check : {false, true}) {
                        INFO("float " << is_float << " flip " << flip << " n " << n << " order "
                                      << order << " prev " << prev_kind << " check " << check);
                        auto w = keys_of(draw::uniform, n, g);
                        // Ordered bits u as the brick must see them; words w made from them.
                        auto enc = [&](std::uint32_t x) {
                            if (is_float) x ^= (x & 0x80000000u) ? 0xFFFFFFFFu : 0x80000000u;
                            return x ^ flip;
                        };
                        auto dec = [&](std::uint32_t u) {
                            u ^= flip;
                            return is_float ? u ^ ((u & 0x80000000u) ? 0x80000000u : 0xFFFFFFFFu) : u;
                        };
                        std::vector<std::uint32_t> u(w.size());
                        for (std::size_t i = 0; i < w.size(); ++i) u[i] = enc(w[i]);
                        if (order > 0) std::sort(u.begin(), u.end());
                        std::size_t at = w.size();  // the pair (at, at + 1) to swap
                        if (order == 2 && n > 2) at = static_cast<std::size_t>(g() % static_cast<std::uint64_t>(n - 1));
                        if (order == 3 && n > 16) at = 15;
                        if (order == 4 && n > 1) at = static_cast<std::size_t>(n - 2);
                        if (at + 1 < w.size() && u[at] != u[at + 1]) std::swap(u[at], u[at + 1]);
                        for (std::size_t i = 0; i < w.size(); ++i) {
                            w[i] = dec(u[i]);
                            REQUIRE(enc(w[i]) == u[i]);
                        }
                        const std::uint32_t first = n > 0 ? u[0] : 0u;
                        const std::uint32_t prev = prev_kind == 0   ? 0u
                                                   : prev_kind == 1 ? first
                                                                    : (first == ~0u ? first : first + 1);
                        const int shift = static_cast<int>(g() % 21);
                        const std::uint32_t mask = (1u << 11) - 1;
                        const std::uint32_t or0 = static_cast<std::uint32_t>(g()) & 0x10u;
                        const std::uint32_t and0 = ~(static_cast<std::uint32_t>(g()) & 0x20u);
                        std::vector<std::uint32_t> want(2048, 7), got(2048, 7);
                        simd::survey_acc32 a_want{or0, and0, true};
                        std::uint32_t p = prev;
                        for (const std::uint32_t x : u) {
                            a_want.or_all |= x;
                            a_want.and_all &= x;
                            if (check && p > x) a_want.sorted = false;
                            p = x;
                            ++want[(x >> shift) & mask];
                        }
                        simd::survey_acc32 a_got{or0, and0, true};
                        simd::survey_u32(w.data(), n, is_float, flip, shift, mask, check, prev,
                                         got.data(), a_got);
                        REQUIRE(got == want);
                        REQUIRE(a_got.or_all == a_want.or_all);
                        REQUIRE(a_got.and_all == a_want.and_all);
                        REQUIRE(a_got.sorted == a_want.sorted);
                    }
                  }
                }
            }
        }
    }
}

namespace {

template <class K>
std::vector<K> sort_keys_input(std::int64_t n, std::mt19937_64& g, int shape) {
    std::vector<K> v(static_cast<std::size_t>(n));
    std::uint32_t i = 0;
    for (auto& x : v) {
        std::uint32_t b = static_cast<std::uint32_t>(g());
        if (shape == 1) b &= 0x1FFFFF;           // top bits constant: surveyed again lower down
        else if (shape == 2) b = b % 7 * 0x01010101u;  // few values: long equal runs
        else if (shape == 3) b = i * 97u;        // ascending (positive ints and floats alike)
        ++i;
        std::memcpy(&x, &b, sizeof(K));
    }
    return v;
}

/// Sorts keys (and values, when V is not void: the original indices) with policy p.
template <bool Desc, class P, class K, class V>
void sort_with(P p, std::vector<K>& k, std::vector<V>& v) {
    if constexpr (std::is_same_v<V, char>) {
        if constexpr (Desc) sweep::radix_sort(p, k.begin(), k.end(), sweep::descending);
        else sweep::radix_sort(p, k.begin(), k.end());
    } else {
        if constexpr (Desc) sweep::radix_sort_by_key(p, k.begin(), k.end(), v.begin(), sweep::descending);
        else sweep::radix_sort_by_key(p, k.begin(), k.end(), v.begin());
    }
}

/// The sort with every brick on, then with all off, against seq; V = char: keys alone. With the
/// bricks on, a parallel sort (n past serial_below) must have run every brick of its kind: the
/// survey always, the leaves' count and scatter for keys alone.
template <class K, class V, bool Desc>
void sort_both_ways(std::int64_t n, int shape, std::mt19937_64& g) {
    const auto in = sort_keys_input<K>(n, g, shape);
    std::vector<V> vin(std::is_same_v<V, char> ? 0 : in.size());
    for (std::size_t i = 0; i < vin.size(); ++i) vin[i] = static_cast<V>(i);
    std::vector<K> on = in, off = in, oracle = in;
    std::vector<V> von = vin, voff = vin, voracle = vin;
    const auto c0 = simd::calls_for_tests();
    // Four workers whatever the machine's cores, so that sizes past serial_below take the
    // parallel path (and its bricks) on a one-core machine too.
    {
        mode_scope m(7);
        sort_with<Desc>(sweep::par.threads(4), on, von);
    }
    const auto c1 = simd::calls_for_tests();
    {
        mode_scope m(0);
        sort_with<Desc>(sweep::par.threads(4), off, voff);
    }
    const auto c2 = simd::calls_for_tests();
    sort_with<Desc>(sweep::seq, oracle, voracle);
    REQUIRE(std::memcmp(on.data(), oracle.data(), on.size() * sizeof(K)) == 0);
    REQUIRE(std::memcmp(off.data(), oracle.data(), off.size() * sizeof(K)) == 0);
    REQUIRE(von == voracle);
    REQUIRE(voff == voracle);
    // Mode 0 runs no vector brick; mode 7 the survey of every parallel sort whose keys are not
    // all equal in their sorted bits, and for keys alone the leaves' bricks where keys still
    // differ below the MSD digit.
    REQUIRE(c2.count == c1.count);
    REQUIRE(c2.scatter == c1.scatter);
    REQUIRE(c2.survey == c1.survey);
    if (n > 65536) {
        CHECK(c1.survey > c0.survey);
        if (std::is_same_v<V, char> && (shape == 0 || shape == 1)) {
            CHECK(c1.count > c0.count);
            CHECK(c1.scatter > c0.scatter);
        }
    }
}

}  // namespace

TEMPLATE_TEST_CASE("par radix with and without the AVX-512 bricks: same bits as seq", "[par][radix][simd]",
                   std::uint32_t, std::int32_t, float) {
    auto g = sweep_test::rng(43);
    // 2^23 + 3 keys: past stream_bytes (4 MiB), so the MSD pass writes with streaming stores.
    for (const std::int64_t n : {std::int64_t{1000}, std::int64_t{65536 + 5}, std::int64_t{1} << 20,
                                 std::int64_t{3000017}, (std::int64_t{1} << 23) + 3}) {
        for (int shape = 0; shape < 4; ++shape) {
            INFO("n " << n << " shape " << shape);
            sort_both_ways<TestType, char, false>(n, shape, g);
            sort_both_ways<TestType, char, true>(n, shape, g);
            if (n < (std::int64_t{1} << 23)) {
                sort_both_ways<TestType, std::uint32_t, false>(n, shape, g);
                sort_both_ways<TestType, std::uint64_t, true>(n, shape, g);
            }
        }
    }
}
