// test/support/differential.hpp -- differential fuzzing (issue 9): one random case of one
// algorithm, run under any policy on any memory, and the comparison of two runs.
//
// A case is a pure function of its 64-bit seed (draw_case): algorithm, element type, operator
// (non-commutative ones included), size biased to the tile edges the caller names, selectivity,
// data layout and segment layout. run_case() executes it under a policy, with buffers made by a
// `Mem` (host vectors, or device buffers in the GPU twin), and returns every output byte plus the
// returned positions; compare() says where two runs differ ("" when they agree). Used by
// test/fuzz_differential.cpp (par vs seq), test/gpu/fuzz_differential*.cu (gpu and par vs seq) and
// test/fuzz/libfuzzer_host.cpp (bytes -> case, par vs seq).
//
// Values are chosen so that every association order gives the same bits: floating-point values
// are small integers (sums stay exact below 2^24), signed integers are bounded so that no sum
// overflows (signed overflow would be undefined behaviour, and UBSan runs this test).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include <sweep/sweep.hpp>

namespace sweep_fuzz {

// ---- the case ---------------------------------------------------------------------------------

enum class algo : int {
    inclusive_scan, inclusive_scan_op, inclusive_scan_op_init, exclusive_scan, exclusive_scan_op,
    transform_inclusive_scan, transform_inclusive_scan_init, transform_exclusive_scan,
    copy_if, copy_if_stencil, partition_copy, partition, stable_partition,
    radix_sort, radix_sort_descending, radix_sort_by_key, radix_sort_by_key_descending,
    inclusive_scan_by_key, exclusive_scan_by_key,
    segmented_inclusive_offsets, segmented_exclusive_offsets, segmented_inclusive_flags,
    segmented_exclusive_flags,
    count
};
inline const char* name(algo a) {
    static const char* const n[] = {
        "inclusive_scan", "inclusive_scan(op)", "inclusive_scan(op, init)", "exclusive_scan(init)",
        "exclusive_scan(init, op)", "transform_inclusive_scan", "transform_inclusive_scan(init)",
        "transform_exclusive_scan", "copy_if", "copy_if(stencil)", "partition_copy", "partition",
        "stable_partition", "radix_sort", "radix_sort(descending)", "radix_sort_by_key",
        "radix_sort_by_key(descending)", "inclusive_scan_by_key(eq, op)",
        "exclusive_scan_by_key(init, eq, op)", "segmented_inclusive_scan(offsets, op)",
        "segmented_exclusive_scan(offsets, init, op)", "segmented_inclusive_scan(flags, op)",
        "segmented_exclusive_scan(flags, init, op)"};
    return n[static_cast<int>(a)];
}
inline bool takes_op(algo a) {
    switch (a) {
    case algo::inclusive_scan_op: case algo::inclusive_scan_op_init: case algo::exclusive_scan_op:
    case algo::inclusive_scan_by_key: case algo::exclusive_scan_by_key:
    case algo::segmented_inclusive_offsets: case algo::segmented_exclusive_offsets:
    case algo::segmented_inclusive_flags: case algo::segmented_exclusive_flags: return true;
    default: return false;
    }
}
inline bool is_radix(algo a) {
    return a == algo::radix_sort || a == algo::radix_sort_descending ||
           a == algo::radix_sort_by_key || a == algo::radix_sort_by_key_descending;
}

enum class elem : int { i8, u16, i32, u64, f32, f64, count };
inline const char* name(elem t) {
    static const char* const n[] = {"int8", "uint16", "int32", "uint64", "float", "double"};
    return n[static_cast<int>(t)];
}

/// The operators: plus, maximum (commutative), and a non-commutative one (affine maps for
/// integers, "first nonzero" for floating point).
enum class opk : int { plus, maximum, noncommutative, count };
inline const char* name(opk o) {
    static const char* const n[] = {"plus", "maximum", "non-commutative"};
    return n[static_cast<int>(o)];
}

/// How the values are laid out: random; runs of equal values (so selections come in runs); all
/// equal; ascending; descending; mostly zero.
enum class layout : int { random, runs, all_equal, ascending, descending, sparse, count };
inline const char* name(layout l) {
    static const char* const n[] = {"random", "runs", "all equal", "ascending", "descending",
                                    "mostly zero"};
    return n[static_cast<int>(l)];
}

struct fuzz_case {
    std::uint64_t seed = 0;  // everything below, and the data, derive from it
    algo a = algo::inclusive_scan;
    elem t = elem::i32;
    opk op = opk::plus;
    std::int64_t n = 0;
    unsigned keep_percent = 50;       // compaction selectivity
    layout data = layout::random;
    std::int64_t seg_mean = 100;      // mean segment length (1: every element a head)
    bool empty_segments = false;      // offsets with empty segments inserted
};

inline std::string describe(const fuzz_case& c) {
    std::ostringstream s;
    s << name(c.a) << " on " << name(c.t) << ", n = " << c.n;
    if (takes_op(c.a)) s << ", op " << name(c.op);
    s << ", data " << name(c.data) << ", keep " << c.keep_percent << " %, mean segment "
      << c.seg_mean << (c.empty_segments ? " (with empty segments)" : "") << ", case seed "
      << c.seed;
    return s.str();
}

inline std::uint64_t mix(std::uint64_t z) {
    z += 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/// The size: 15 % tiny (0..40), 55 % k * tile + d for a tile of the caller's list, k in 1..4 (or
/// up to 40 now and then) and d in {-1, 0, 1} (or a few more), 30 % uniform up to max_n.
inline std::int64_t draw_size(std::mt19937_64& g, const std::vector<std::int64_t>& tiles,
                              std::int64_t max_n) {
    const auto r = g() % 100;
    std::int64_t n;
    if (r < 15 || tiles.empty()) {
        n = static_cast<std::int64_t>(g() % 41);
    } else if (r < 70) {
        const std::int64_t tile = tiles[g() % tiles.size()];
        const std::int64_t k = (g() % 8 == 0) ? 1 + static_cast<std::int64_t>(g() % 40)
                                              : 1 + static_cast<std::int64_t>(g() % 4);
        const std::int64_t d = (g() % 4 == 0) ? static_cast<std::int64_t>(g() % 65) - 32
                                              : static_cast<std::int64_t>(g() % 3) - 1;
        n = k * tile + d;
    } else {
        n = static_cast<std::int64_t>(g() % static_cast<std::uint64_t>(max_n + 1));
    }
    return std::clamp<std::int64_t>(n, 0, max_n);
}

/// The case of `seed`, over the algorithms in [0, algo_count) (a GPU build without GPU radix sort
/// still draws radix cases: they run under par and seq only).
inline fuzz_case draw_case(std::uint64_t seed, const std::vector<std::int64_t>& tiles,
                           std::int64_t max_n) {
    std::mt19937_64 g(mix(seed));
    fuzz_case c;
    c.seed = seed;
    c.a = static_cast<algo>(g() % static_cast<int>(algo::count));
    c.t = static_cast<elem>(g() % static_cast<int>(elem::count));
    c.op = static_cast<opk>(g() % static_cast<int>(opk::count));
    c.n = draw_size(g, tiles, max_n);
    static const unsigned pcts[] = {0, 1, 50, 99, 100};
    c.keep_percent = g() % 3 == 0 ? static_cast<unsigned>(g() % 101) : pcts[g() % 5];
    c.data = static_cast<layout>(g() % static_cast<int>(layout::count));
    static const std::int64_t means[] = {1, 2, 7, 100, 1000, 10000, 1 << 20};
    c.seg_mean = means[g() % 7];
    c.empty_segments = g() % 2 == 0;
    return c;
}

// ---- operators (host and device) --------------------------------------------------------------

/// A 64-bit mix of an object's bits: the selectivity source (one predicate for every type).
template <class T>
SWEEP_HD std::uint64_t bits_hash(const T& x) {
    std::uint64_t w = 0;
    memcpy(&w, &x, sizeof(T) < 8 ? sizeof(T) : 8);
    std::uint64_t h = (w ^ 0x9E3779B97F4A7C15ull) * 0xBF58476D1CE4E5B9ull;
    h ^= h >> 31;
    h *= 0x94D049BB133111EBull;
    return h ^ (h >> 29);
}

/// Keeps about `percent` % of the values, by their bits.
struct keep_percent {
    unsigned percent;
    template <class T>
    SWEEP_HD bool operator()(const T& x) const {
        return (bits_hash(x) >> 40) % 100 < percent;
    }
};

template <class T>
struct unsigned_of {
    using type = std::make_unsigned_t<T>;
};

/// Non-commutative and associative. Integers: the bits split in two halves (a, b) are the
/// affine map v -> a v + b modulo 2^(bits/2); x op y applies x, then y. Floating point: the
/// first nonzero operand.
template <class T>
struct noncommutative {
    SWEEP_HD T operator()(const T& x, const T& y) const {
        if constexpr (std::is_floating_point_v<T>) {
            return x != T(0) ? x : y;
        } else {
            using U = typename unsigned_of<T>::type;
            constexpr int h = 4 * static_cast<int>(sizeof(T));
            constexpr std::uint64_t m = (std::uint64_t{1} << h) - 1;
            const std::uint64_t ux = static_cast<U>(x), uy = static_cast<U>(y);
            const std::uint64_t a1 = ux & m, b1 = (ux >> h) & m, a2 = uy & m, b2 = (uy >> h) & m;
            const std::uint64_t a = (a1 * a2) & m, b = (b1 * a2 + b2) & m;
            return static_cast<T>(static_cast<U>(a | (b << h)));
        }
    }
};

/// The transform of the transform scans: x + 1 (in T).
struct add_one {
    template <class T>
    SWEEP_HD T operator()(const T& x) const {
        return static_cast<T>(x + T(1));
    }
};

template <class T, class F>
void with_op(opk o, F&& f) {
    switch (o) {
    case opk::plus: f(sweep::plus<T>{}); break;
    case opk::maximum: f(sweep::maximum<T>{}); break;
    default: f(noncommutative<T>{}); break;
    }
}

template <class F>
void with_type(elem t, F&& f) {
    switch (t) {
    case elem::i8: f(std::int8_t{}); break;
    case elem::u16: f(std::uint16_t{}); break;
    case elem::i32: f(std::int32_t{}); break;
    case elem::u64: f(std::uint64_t{}); break;
    case elem::f32: f(float{}); break;
    default: f(double{}); break;
    }
}

// ---- the data of a case -----------------------------------------------------------------------

template <class T>
struct inputs {
    std::vector<T> x;
    std::vector<std::int32_t> keys;     // by-key forms: segment id mod 100 (neighbours differ)
    std::vector<std::uint8_t> flags;    // head flags
    std::vector<std::int64_t> offs;     // offsets (with empty segments where the case says)
    std::vector<std::uint8_t> stencil;  // copy_if's stencil
    std::vector<std::uint32_t> index;   // radix_sort_by_key's values: the original positions
    T init{};
};

template <class T>
T random_value(std::mt19937_64& g, bool radix) {
    if constexpr (std::is_floating_point_v<T>) {
        // Small integers: every sum of up to 2^20 of them is exact in float.
        if (radix && g() % 50 == 0) {
            static const T special[] = {T(-0.0), T(0.0), -std::numeric_limits<T>::infinity(),
                                        std::numeric_limits<T>::infinity(),
                                        std::numeric_limits<T>::quiet_NaN(),
                                        -std::numeric_limits<T>::quiet_NaN(),
                                        std::numeric_limits<T>::denorm_min(),
                                        std::numeric_limits<T>::max()};
            return special[g() % 8];
        }
        return static_cast<T>(static_cast<int>(g() % 17) - 8);
    } else if constexpr (std::is_same_v<T, std::int32_t>) {
        return static_cast<T>(static_cast<std::int64_t>(g() % 1001) - 500);  // |sum| < 2^31 for n < 4e6
    } else if constexpr (std::is_same_v<T, std::int64_t>) {
        return static_cast<T>(static_cast<std::int32_t>(g()));
    } else {
        return static_cast<T>(g());  // 8- and 16-bit: promoted, no overflow; unsigned: wraps
    }
}

template <class T>
inputs<T> make_inputs(const fuzz_case& c) {
    std::mt19937_64 g(mix(c.seed ^ 0xDA7A));
    const auto n = static_cast<std::size_t>(c.n);
    const bool radix = is_radix(c.a);
    inputs<T> in;
    in.x.resize(n);
    switch (c.data) {
    case layout::random:
        for (auto& v : in.x) v = random_value<T>(g, radix);
        break;
    case layout::runs:
        for (std::size_t i = 0; i < n;) {
            const T v = random_value<T>(g, radix);
            const std::size_t e = std::min(n, i + 1 + static_cast<std::size_t>(g() % 3000));
            for (; i < e; ++i) in.x[i] = v;
        }
        break;
    case layout::all_equal: {
        const T v = random_value<T>(g, radix);
        std::fill(in.x.begin(), in.x.end(), v);
        break;
    }
    case layout::ascending:
    case layout::descending:
        for (auto& v : in.x) v = random_value<T>(g, false);
        std::sort(in.x.begin(), in.x.end());
        if (c.data == layout::descending) std::reverse(in.x.begin(), in.x.end());
        break;
    default:
        for (auto& v : in.x) v = g() % 8 == 0 ? random_value<T>(g, radix) : T(0);
        break;
    }
    in.init = random_value<T>(g, false);
    // Segments: heads at random with the case's mean length.
    std::vector<char> head(n, 0);
    for (std::size_t i = 0; i < n; ++i)
        head[i] = c.seg_mean <= 1 || g() % static_cast<std::uint64_t>(c.seg_mean) == 0;
    if (n > 0) head[0] = 1;
    in.keys.resize(n);
    in.flags.resize(n);
    std::int32_t id = 0;
    for (std::size_t i = 0; i < n; ++i) {
        if (i > 0 && head[i]) id = (id + 1) % 100;
        in.keys[i] = id;
        in.flags[i] = head[i] ? static_cast<std::uint8_t>(1 + g() % 255) : 0;
    }
    if (n > 0 && g() % 2) in.flags[0] = 0;  // element 0 starts a segment regardless
    in.offs.push_back(0);
    for (std::size_t i = 1; i < n; ++i)
        if (head[i]) {
            in.offs.push_back(static_cast<std::int64_t>(i));
            if (c.empty_segments && g() % 4 == 0)
                for (auto k = g() % 4; k > 0; --k) in.offs.push_back(static_cast<std::int64_t>(i));
        }
    if (c.empty_segments && g() % 2) in.offs.insert(in.offs.begin(), 0);
    in.offs.push_back(static_cast<std::int64_t>(n));
    if (c.empty_segments && g() % 2) in.offs.push_back(static_cast<std::int64_t>(n));
    in.stencil.resize(n);
    for (auto& s : in.stencil)
        s = g() % 100 < c.keep_percent ? static_cast<std::uint8_t>(1 + g() % 255) : 0;
    in.index.resize(n);
    for (std::size_t i = 0; i < n; ++i) in.index[i] = static_cast<std::uint32_t>(i);
    return in;
}

// ---- running a case ---------------------------------------------------------------------------

/// What a run produced: every output buffer's bytes (outputs are made `slack` elements longer
/// than n and filled with 0xA5, so that a write past the end shows) and the returned positions.
struct outcome {
    std::vector<unsigned char> out1, out2;
    std::int64_t r1 = -1, r2 = -1;
    bool ran = true;  // false: this policy does not run this algorithm (GPU radix sort absent)
};

inline constexpr std::size_t slack = 3;

template <class U>
std::vector<unsigned char> bytes_of(const std::vector<U>& v) {
    std::vector<unsigned char> b(v.size() * sizeof(U));
    if (!b.empty()) std::memcpy(b.data(), v.data(), b.size());
    return b;
}
template <class U>
std::vector<U> poisoned(std::size_t n) {
    std::vector<U> v(n);
    if (n) std::memset(static_cast<void*>(v.data()), 0xA5, n * sizeof(U));
    return v;
}

/// Host memory for run_case: buffers are std::vectors, iterators raw pointers.
struct host_mem {
    template <class U>
    struct buffer {
        std::vector<U> v;
        U* begin() { return v.data(); }
        U* end() { return v.data() + v.size(); }
        std::vector<U> download() const { return v; }
    };
    template <class U>
    buffer<U> make(const std::vector<U>& h) const {
        return buffer<U>{h};
    }
};

template <class P>
constexpr bool is_gpu_policy =
    std::is_same_v<sweep::detail::backend_t<P>, sweep::detail::gpu_tag>;

template <class P>
constexpr bool runs_radix =
#ifdef SWEEP_HAS_GPU_RADIX_SORT  // switch: GPU radix sort exists (sweep/radix_sort.hpp sets it)
    true;
#else
    !is_gpu_policy<P>;
#endif

/// Runs case `c` on inputs `in` under `pol`, with buffers from `mem`.
template <class T, class P, class Mem>
outcome run_case(const fuzz_case& c, const inputs<T>& in, const P& pol, const Mem& mem) {
    outcome o;
    const std::size_t n = in.x.size();
    auto x = mem.make(in.x);
    auto out = mem.make(poisoned<T>(n + slack));
    auto out2 = mem.make(poisoned<T>(n + slack));
    const T* f = x.begin();
    const T* l = x.begin() + n;
    T* d = out.begin();
    const T init = in.init;
    const keep_percent pred{c.keep_percent};
    auto finish1 = [&](T* e) {
        o.r1 = e - d;
        o.out1 = bytes_of(out.download());
    };
    switch (c.a) {
    case algo::inclusive_scan: finish1(sweep::inclusive_scan(pol, f, l, d)); break;
    case algo::inclusive_scan_op:
        with_op<T>(c.op, [&](auto op) { finish1(sweep::inclusive_scan(pol, f, l, d, op)); });
        break;
    case algo::inclusive_scan_op_init:
        with_op<T>(c.op, [&](auto op) { finish1(sweep::inclusive_scan(pol, f, l, d, op, init)); });
        break;
    case algo::exclusive_scan: finish1(sweep::exclusive_scan(pol, f, l, d, init)); break;
    case algo::exclusive_scan_op:
        with_op<T>(c.op, [&](auto op) { finish1(sweep::exclusive_scan(pol, f, l, d, init, op)); });
        break;
    case algo::transform_inclusive_scan:
        finish1(sweep::transform_inclusive_scan(pol, f, l, d, sweep::plus<T>{}, add_one{}));
        break;
    case algo::transform_inclusive_scan_init:
        finish1(sweep::transform_inclusive_scan(pol, f, l, d, sweep::plus<T>{}, add_one{}, init));
        break;
    case algo::transform_exclusive_scan:
        finish1(sweep::transform_exclusive_scan(pol, f, l, d, init, sweep::plus<T>{}, add_one{}));
        break;
    case algo::copy_if: finish1(sweep::copy_if(pol, f, l, d, pred)); break;
    case algo::copy_if_stencil: {
        auto st = mem.make(in.stencil);
        finish1(sweep::copy_if(pol, f, l, static_cast<const std::uint8_t*>(st.begin()), d,
                               sweep::nonzero<>{}));
        break;
    }
    case algo::partition_copy: {
        const auto [et, ef] = sweep::partition_copy(pol, f, l, d, out2.begin(), pred);
        o.r1 = et - d;
        o.r2 = ef - out2.begin();
        o.out1 = bytes_of(out.download());
        o.out2 = bytes_of(out2.download());
        break;
    }
    case algo::partition:
    case algo::stable_partition: {
        auto r = mem.make(in.x);
        T* m = c.a == algo::partition ? sweep::partition(pol, r.begin(), r.begin() + n, pred)
                                      : sweep::stable_partition(pol, r.begin(), r.begin() + n, pred);
        o.r1 = m - r.begin();
        o.out1 = bytes_of(r.download());
        break;
    }
    case algo::radix_sort:
    case algo::radix_sort_descending:
    case algo::radix_sort_by_key:
    case algo::radix_sort_by_key_descending:
        if constexpr (runs_radix<P>) {
            auto k = mem.make(in.x);
            auto v = mem.make(in.index);
            T* kf = k.begin();
            T* kl = k.begin() + n;
            switch (c.a) {
            case algo::radix_sort: sweep::radix_sort(pol, kf, kl); break;
            case algo::radix_sort_descending: sweep::radix_sort(pol, kf, kl, sweep::descending); break;
            case algo::radix_sort_by_key: sweep::radix_sort_by_key(pol, kf, kl, v.begin()); break;
            default: sweep::radix_sort_by_key(pol, kf, kl, v.begin(), sweep::descending); break;
            }
            o.out1 = bytes_of(k.download());
            o.out2 = bytes_of(v.download());
        } else {
            o.ran = false;
        }
        break;
    case algo::inclusive_scan_by_key:
    case algo::exclusive_scan_by_key: {
        auto k = mem.make(in.keys);
        const std::int32_t* kf = k.begin();
        with_op<T>(c.op, [&](auto op) {
            if (c.a == algo::inclusive_scan_by_key)
                finish1(sweep::inclusive_scan_by_key(pol, kf, kf + n, f, d, std::equal_to<>{},
                                                     op));
            else
                finish1(sweep::exclusive_scan_by_key(pol, kf, kf + n, f, d, init,
                                                     std::equal_to<>{}, op));
        });
        break;
    }
    case algo::segmented_inclusive_offsets:
    case algo::segmented_exclusive_offsets: {
        auto ob = mem.make(in.offs);
        const std::int64_t* of = ob.begin();
        const auto segs = sweep::offsets(of, of + in.offs.size());
        with_op<T>(c.op, [&](auto op) {
            if (c.a == algo::segmented_inclusive_offsets)
                finish1(sweep::segmented_inclusive_scan(pol, f, l, d, segs, op));
            else
                finish1(sweep::segmented_exclusive_scan(pol, f, l, d, segs, init, op));
        });
        break;
    }
    default: {
        auto fb = mem.make(in.flags);
        const auto segs = sweep::head_flags(static_cast<const std::uint8_t*>(fb.begin()));
        with_op<T>(c.op, [&](auto op) {
            if (c.a == algo::segmented_inclusive_flags)
                finish1(sweep::segmented_inclusive_scan(pol, f, l, d, segs, op));
            else
                finish1(sweep::segmented_exclusive_scan(pol, f, l, d, segs, init, op));
        });
        break;
    }
    }
    return o;
}

// ---- comparing two runs -----------------------------------------------------------------------

template <class T>
std::vector<T> as_values(const std::vector<unsigned char>& b) {
    std::vector<T> v(b.size() / sizeof(T));
    if (!v.empty()) std::memcpy(static_cast<void*>(v.data()), b.data(), v.size() * sizeof(T));
    return v;
}

template <class T>
std::string first_byte_difference(const char* what, const std::vector<unsigned char>& want,
                                  const std::vector<unsigned char>& got, std::size_t elem_size) {
    if (want.size() != got.size())
        return std::string(what) + ": sizes differ (" + std::to_string(want.size()) + " vs " +
               std::to_string(got.size()) + " bytes)";
    for (std::size_t i = 0; i < want.size(); ++i)
        if (want[i] != got[i]) {
            const std::size_t e = i / elem_size;
            std::ostringstream s;
            s << what << ": first difference at element " << e << " (bytes";
            for (std::size_t j = e * elem_size; j < (e + 1) * elem_size; ++j)
                s << ' ' << std::hex << int(want[j]) << '/' << int(got[j]) << std::dec;
            s << ", want/got)";
            return s.str();
        }
    return "";
}

/// "" when `got` (the policy under test) agrees with `want` (seq) on case `c`, else where not.
/// partition is unstable under par (its documented order differs from seq's): there the returned
/// position must agree, [0, k) hold exactly the kept values and the range be a permutation of the
/// input (the same multiset of bit patterns as seq's result).
template <class T>
std::string compare(const fuzz_case& c, const inputs<T>& in, const outcome& want,
                    const outcome& got) {
    if (!got.ran) return "";
    if (want.r1 != got.r1)
        return "returned position differs: want " + std::to_string(want.r1) + ", got " +
               std::to_string(got.r1);
    if (want.r2 != got.r2)
        return "second returned position differs: want " + std::to_string(want.r2) + ", got " +
               std::to_string(got.r2);
    if (c.a == algo::partition) {
        const auto v = as_values<T>(got.out1);
        const keep_percent pred{c.keep_percent};
        for (std::size_t i = 0; i < v.size(); ++i)
            if (pred(v[i]) != (static_cast<std::int64_t>(i) < got.r1))
                return "partition: element " + std::to_string(i) + " on the wrong side of " +
                       std::to_string(got.r1);
        auto bits = [](std::vector<unsigned char> b) {
            std::vector<std::vector<unsigned char>> e;
            for (std::size_t i = 0; i < b.size(); i += sizeof(T))
                e.emplace_back(b.begin() + static_cast<std::ptrdiff_t>(i),
                               b.begin() + static_cast<std::ptrdiff_t>(i + sizeof(T)));
            std::sort(e.begin(), e.end());
            return e;
        };
        if (bits(got.out1) != bits(bytes_of(in.x)))
            return "partition: the result is not a permutation of the input";
        return "";
    }
    const std::size_t second_size = is_radix(c.a) ? sizeof(std::uint32_t) : sizeof(T);
    std::string s = first_byte_difference<T>("output", want.out1, got.out1, sizeof(T));
    if (s.empty()) s = first_byte_difference<T>("second output", want.out2, got.out2, second_size);
    return s;
}

/// Runs case `c` under seq and under `pol`; "" when they agree.
template <class P, class Mem>
std::string check_case(const fuzz_case& c, const P& pol, const Mem& mem) {
    std::string r;
    with_type(c.t, [&](auto tv) {
        using T = decltype(tv);
        const inputs<T> in = make_inputs<T>(c);
        const outcome want = run_case(c, in, sweep::seq, host_mem{});
        const outcome got = run_case(c, in, pol, mem);
        r = compare(c, in, want, got);
    });
    return r;
}

}  // namespace sweep_fuzz
