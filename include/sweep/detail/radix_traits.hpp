// sweep/detail/radix_traits.hpp -- shared by every radix-sort backend: keys as ordered bits.
//
// to_ordered(k) maps a key to an unsigned integer of the same width whose unsigned order is the
// key's order: signed integers flip the sign bit; IEEE floats flip the sign bit of positives and
// every bit of negatives, which gives IEEE 754 totalOrder:
//   -NaN < -inf < ... < -0.0 < +0.0 < ... < +inf < +NaN.
#pragma once

#include <bit>
#include <concepts>
#include <cstdint>
#include <type_traits>

#include <sweep/detail/config.hpp>

namespace sweep::detail {

/// radix_sort without values.
struct no_values {};

template <std::size_t Bytes> struct unsigned_of_size;
template <> struct unsigned_of_size<1> { using type = std::uint8_t; };
template <> struct unsigned_of_size<2> { using type = std::uint16_t; };
template <> struct unsigned_of_size<4> { using type = std::uint32_t; };
template <> struct unsigned_of_size<8> { using type = std::uint64_t; };

/// Key types radix_sort accepts: integers of 1 to 8 bytes (bool excluded), float, double.
template <class K>
concept radix_key =
    (std::integral<K> && !std::same_as<K, bool> && sizeof(K) <= 8) ||
    std::same_as<K, float> || std::same_as<K, double>;

template <radix_key K>
using ordered_bits_t = typename unsigned_of_size<sizeof(K)>::type;

template <radix_key K>
SWEEP_HD constexpr ordered_bits_t<K> to_ordered(K key) noexcept {
    using U = ordered_bits_t<K>;
    constexpr U sign = U(U(1) << (8 * sizeof(K) - 1));
    if constexpr (std::is_floating_point_v<K>) {
        // Negative (sign set): every bit flipped; positive: the sign bit set. Branch-free: the
        // mask is all ones or the sign alone (two instructions on the GPU).
        const U bits = std::bit_cast<U>(key);
        const U mask = U(U(0) - U(bits >> (8 * sizeof(K) - 1))) | sign;
        return U(bits ^ mask);
    } else if constexpr (std::is_signed_v<K>) {
        return U(U(key) ^ sign);
    } else {
        return U(key);
    }
}

/// The inverse of to_ordered: from_ordered<K>(to_ordered(k)) has k's bits.
template <radix_key K>
SWEEP_HD constexpr K from_ordered(ordered_bits_t<K> u) noexcept {
    using U = ordered_bits_t<K>;
    constexpr U sign = U(U(1) << (8 * sizeof(K) - 1));
    if constexpr (std::is_floating_point_v<K>) {
        // Sign set: a positive key (clear it); clear: a negative one (flip every bit back).
        const U mask = U(U(0) - U(U(1) - U(u >> (8 * sizeof(K) - 1)))) | sign;
        return std::bit_cast<K>(U(u ^ mask));
    } else if constexpr (std::is_signed_v<K>) {
        return static_cast<K>(U(u ^ sign));
    } else {
        return static_cast<K>(u);
    }
}

}  // namespace sweep::detail
