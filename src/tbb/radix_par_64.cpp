// src/tbb/radix_par_64.cpp -- the par radix sort compiled once, for the stored types (stored_t) of
// this file's built-in keys (signed and unsigned alike; keys alone, and with std::uint32_t or
// std::uint64_t values), both directions (a runtime codec), with
// the default tuning; callers find them through the extern declarations at the end of
// <sweep/backend/tbb/radix_sort.hpp>. Split by key size so that the files build in parallel.
#include <sweep/backend/tbb/radix_sort.hpp>

#if !SWEEP_RADIX_PRECOMPILED
#error "the library's radix sort is compiled with the default tuning"
#endif

namespace sweep::detail::tbb_backend::radix {

#define SWEEP_RADIX_DEFINE(S) SWEEP_RADIX_INSTANCES(template, S)
SWEEP_RADIX_DEFINE(std::uint64_t)
SWEEP_RADIX_DEFINE(double)

}  // namespace sweep::detail::tbb_backend::radix
