// sweep/detail/checks.hpp -- public layer helpers: contract checks and the one error helper.
//
// Every std::invalid_argument sweep throws goes through throw_invalid_argument, so that each
// message has the same shape: "sweep::<algorithm>: <what is wrong>".
#pragma once

#include <cstdint>
#include <iterator>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace sweep::detail {

[[noreturn]] inline void throw_invalid_argument(const char* algorithm, const char* what) {
    throw std::invalid_argument(std::string("sweep::") + algorithm + ": " + what);
}

/// last - first as a 64-bit count; throws std::invalid_argument when last < first.
template <class It>
std::int64_t checked_distance(const char* algorithm, It first, It last) {
    const auto d = static_cast<std::int64_t>(last - first);
    if (d < 0) throw_invalid_argument(algorithm, "last < first");
    return d;
}

/// Scans: the output may equal the input (in place) but not overlap it otherwise (API.md; the
/// standard's rule). Checked where it is cheap and certain: raw pointers, by address; other
/// iterators are not checked (docs/reliability.md, docs/decisions/0004-aliasing-checks.md).
template <class In, class Out>
void check_scan_aliasing(const char* algorithm, In first, std::int64_t n, Out d_first) {
    if constexpr (std::is_pointer_v<In> && std::is_pointer_v<Out>) {
        if (n == 0) return;
        const auto in_b = reinterpret_cast<std::uintptr_t>(first);
        const auto out_b = reinterpret_cast<std::uintptr_t>(d_first);
        if (in_b == out_b) return;
        const auto in_e = in_b + static_cast<std::uintptr_t>(n) * sizeof(*first);
        const auto out_e = out_b + static_cast<std::uintptr_t>(n) * sizeof(*d_first);
        if (out_b < in_e && in_b < out_e)
            throw_invalid_argument(algorithm, "the output overlaps the input (only d_first == "
                                              "first, in place, is allowed)");
    }
}

/// A random-access iterator in either the C++20 or the legacy sense (Thrust's iterators model
/// the legacy one; their references can be proxies).
template <class It>
concept random_access =
    std::random_access_iterator<It> ||
    std::is_base_of_v<std::random_access_iterator_tag,
                      typename std::iterator_traits<It>::iterator_category>;

template <class It>
using value_t = typename std::iterator_traits<It>::value_type;

template <class It>
using reference_t = typename std::iterator_traits<It>::reference;

}  // namespace sweep::detail
