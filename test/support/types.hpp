// test/support/types.hpp -- host tests: the element types and operators the tests run over.
//
// The type families of the host suite (every built-in integer width, float, double, and a 24-byte
// trivially copyable record with its own associative operator), plus two non-commutative
// operators over integers mod 2^32 (affine-map composition, 2x2 matrix product).
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <tuple>
#include <type_traits>

#include <sweep/functional.hpp>

namespace sweep_test {

/// A 24-byte trivially copyable record. Its operator is associative but not commutative
/// (first/last keep the left and right ends), so it also catches operand swaps.
struct rec24 {
    std::uint64_t sum;    // wraps mod 2^64: exact under any association
    std::int32_t lo;
    std::int32_t hi;
    std::uint32_t first;
    std::uint32_t last;
    friend bool operator==(const rec24&, const rec24&) = default;
};
static_assert(sizeof(rec24) == 24 && std::is_trivially_copyable_v<rec24>);

struct rec24_op {
    rec24 operator()(const rec24& a, const rec24& b) const {
        return {a.sum + b.sum, std::min(a.lo, b.lo), std::max(a.hi, b.hi), a.first, b.last};
    }
};

/// The affine map x -> a*x + b over Z/2^32. op(f, g) is "f, then g": g(f(x)).
struct affine {
    std::uint32_t a;
    std::uint32_t b;
    friend bool operator==(const affine&, const affine&) = default;
};
struct affine_then {
    affine operator()(const affine& f, const affine& g) const {
        return {g.a * f.a, g.a * f.b + g.b};
    }
};

/// A 2x2 matrix over Z/2^32, row major; the operator is the matrix product l * r.
struct mat2 {
    std::uint32_t m[4];
    friend bool operator==(const mat2&, const mat2&) = default;
};
struct mat2_mul {
    mat2 operator()(const mat2& l, const mat2& r) const {
        return {{l.m[0] * r.m[0] + l.m[1] * r.m[2], l.m[0] * r.m[1] + l.m[1] * r.m[3],
                 l.m[2] * r.m[0] + l.m[3] * r.m[2], l.m[2] * r.m[1] + l.m[3] * r.m[3]}};
    }
};

/// The arithmetic element types of the API's "built-in element types".
using integer_types = std::tuple<std::int8_t, std::uint8_t, std::int16_t, std::int32_t,
                                 std::uint32_t, std::int64_t, std::uint64_t>;
using arithmetic_types = std::tuple<std::int8_t, std::uint8_t, std::int16_t, std::int32_t,
                                    std::uint32_t, std::int64_t, std::uint64_t, float, double>;
/// Every element type of the scan/compaction families: arithmetic plus the 24-byte record.
using element_types = std::tuple<std::int8_t, std::uint8_t, std::int16_t, std::int32_t,
                                 std::uint32_t, std::int64_t, std::uint64_t, float, double, rec24>;
/// radix_sort keys (API.md: integers of 1 to 8 bytes, float, double).
using key_types = std::tuple<std::int8_t, std::uint8_t, std::int16_t, std::uint16_t, std::int32_t,
                             std::uint32_t, std::int64_t, std::uint64_t, float, double>;

/// The "sum" operator of a type: sweep::plus<> for arithmetic types, rec24_op for the record.
template <class T>
auto sum_op() {
    if constexpr (std::is_same_v<T, rec24>) return rec24_op{};
    else return sweep::plus<>{};
}

/// A second associative operator per type (max; the record's own op again for rec24).
template <class T>
auto max_op() {
    if constexpr (std::is_same_v<T, rec24>) return rec24_op{};
    else return sweep::maximum<>{};
}

/// A value to seed exclusive scans / inits with.
template <class T>
T some_init() {
    if constexpr (std::is_same_v<T, rec24>) return rec24{7, 3, 3, 11, 13};
    else return T(3);
}

}  // namespace sweep_test
