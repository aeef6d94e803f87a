// sweep/backend/tbb/arena.hpp -- par backend (oneTBB): where a call's workers come from.
//
// `.threads(k)` (par_policy::max_threads) runs the call inside a tbb::task_arena of max
// concurrency k; 0 runs it in the caller's current arena (all cores unless the caller limited it).
#pragma once

#include <algorithm>
#include <cstdint>

#include <tbb/task_arena.h>

namespace sweep::detail::tbb_backend {

/// Calls fn(workers) inside the arena the policy asks for; `workers` is its max concurrency.
template <class F>
void in_arena(int max_threads, F&& fn) {
    if (max_threads <= 0) {
        fn(tbb::this_task_arena::max_concurrency());
        return;
    }
    tbb::task_arena arena(max_threads);
    arena.execute([&] { fn(max_threads); });
}

}  // namespace sweep::detail::tbb_backend
