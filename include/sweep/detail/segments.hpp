// sweep/detail/segments.hpp -- shared by every segmented-scan backend: segment descriptions.
//
// key_heads:       element i starts a segment when i == 0 or !key_eq(keys[i-1], keys[i]).
// flag_heads:      element i starts a segment when i == 0 or flags[i] != 0.
// offset_segments: k+1 offsets; segment j is [o[j], o[j+1]). validate_offsets checks them.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>

#include <sweep/detail/checks.hpp>
#include <sweep/detail/config.hpp>
#include <sweep/detail/fault_injection.hpp>

namespace sweep::detail {

template <class KeyIt, class KeyEq>
struct key_heads {
    KeyIt keys;
    KeyEq key_eq;
    SWEEP_HD bool is_head(std::int64_t i) const {
        return i == 0 || !key_eq(keys[i - 1], keys[i]);
    }
};

template <class FlagIt>
struct flag_heads {
    FlagIt flags;
    SWEEP_HD bool is_head(std::int64_t i) const { return i == 0 || flags[i] != 0; }
};

template <class OffIt>
struct offset_segments {
    OffIt first;
    OffIt last;
};

/// Host-side check of an offsets range against n; throws std::invalid_argument. Reads only
/// o_first .. o_last - 1.
template <class OffIt>
void validate_offsets(const char* algorithm, OffIt first, OffIt last, std::int64_t n) {
    const auto count = static_cast<std::int64_t>(last - first);
    if (count < 0) throw_invalid_argument(algorithm, "offsets: o_last < o_first");
    if (count == 0) {
        if (n != 0) throw_invalid_argument(algorithm, "offsets: empty, but the input is not");
        return;
    }
    if (static_cast<std::int64_t>(first[0]) != 0)
        throw_invalid_argument(algorithm, "offsets: o[0] != 0");
    for (std::int64_t j = 1; j < count; ++j)
        if (static_cast<std::int64_t>(first[j]) < static_cast<std::int64_t>(first[j - 1]))
            throw_invalid_argument(algorithm, "offsets: not nondecreasing");
    if (static_cast<std::int64_t>(first[count - 1]) != n)
        throw_invalid_argument(algorithm, "offsets: o[k] != n");
}

/// Head flags of offsets o[lo, hi) (hi <= k: the last offset, n, starts nothing): flags[o[j]] = 1.
/// An offset equal to n (an empty segment at the end) marks nothing. Atomic byte stores, so that
/// ranges may be marked concurrently (repeated offsets: one byte marked twice).
template <class OffIt>
void mark_offset_heads(OffIt first, std::int64_t lo, std::int64_t hi, std::int64_t n,
                       unsigned char* flags) {
    for (std::int64_t j = lo; j < hi; ++j) {
        const auto o = static_cast<std::int64_t>(first[j]);
        if (o < n) std::atomic_ref<unsigned char>(flags[o]).store(1, std::memory_order_relaxed);
    }
}

/// The offsets as one head flag a byte (the deterministic offsets form's input to the head-flag
/// form: segmented_scan.hpp), after validate_offsets (nothing for n == 0). A counted host
/// temporary (fault injection).
template <class OffIt>
std::unique_ptr<unsigned char[]> offsets_head_flags(const char* algorithm, OffIt first, OffIt last,
                                                    std::int64_t n) {
    validate_offsets(algorithm, first, last, n);
    if (n == 0) return nullptr;
    std::unique_ptr<unsigned char[]> flags(
        new unsigned char[testing::temporary_size(static_cast<std::size_t>(n))]);
    std::memset(flags.get(), 0, static_cast<std::size_t>(n));
    mark_offset_heads(first, 0, static_cast<std::int64_t>(last - first) - 1, n, flags.get());
    return flags;
}

}  // namespace sweep::detail
