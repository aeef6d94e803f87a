// sweep/detail/fault_injection.hpp -- testing hook (issue 9): allocation-failure injection for the
// par backend's host temporaries.
//
// Every place where the par backend takes temporary host memory calls host_temporary() first.
// Compiled normally it is an empty inline function (no cost). A test built with
// -DSWEEP_FAULT_INJECTION=1 (test/par/oom.cpp) gets a counter instead: each call counts, and the
// call numbered `fail_at` (1-based; 0: none) throws std::bad_alloc, as the allocation itself
// would. The counters are global atomics (temporaries are taken on worker threads too); the
// whole program must be built with the same setting.
#pragma once

#if defined(SWEEP_FAULT_INJECTION) && SWEEP_FAULT_INJECTION
#include <atomic>
#include <new>
#endif

namespace sweep::detail::testing {

#if defined(SWEEP_FAULT_INJECTION) && SWEEP_FAULT_INJECTION
inline std::atomic<long> host_temporaries{0};  // calls so far
inline std::atomic<long> fail_at{0};           // the call that throws (0: none)

inline void host_temporary() {
    const long k = host_temporaries.fetch_add(1, std::memory_order_relaxed) + 1;
    if (k == fail_at.load(std::memory_order_relaxed)) throw std::bad_alloc();
}
#else
inline constexpr void host_temporary() noexcept {}
#endif

}  // namespace sweep::detail::testing

namespace sweep::detail::testing {

/// The size of a temporary about to be allocated, counted (and maybe failed) when it is nonzero:
/// wraps the size argument where a temporary is made (`std::vector<T> v(temporary_size(n))`).
template <class N>
constexpr N temporary_size(N n) {
    if (n > 0) host_temporary();
    return n;
}

}  // namespace sweep::detail::testing
