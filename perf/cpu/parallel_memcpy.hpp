// perf/cpu/parallel_memcpy.hpp -- the CPU benches' copy ceiling: a oneTBB-parallel memcpy in 1 MiB
// pieces (large enough for full-speed streaming, small enough to balance 2^27 int32, 512 MiB,
// over any core count). "% of copy" in every CPU table is relative to this.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

namespace sweep_perf {

inline void parallel_memcpy(void* dst, const void* src, std::size_t bytes) {
    constexpr std::size_t piece = std::size_t{1} << 20;
    const std::size_t pieces = (bytes + piece - 1) / piece;
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, pieces), [&](const auto& r) {
        const std::size_t lo = r.begin() * piece;
        const std::size_t hi = std::min(bytes, r.end() * piece);
        std::memcpy(static_cast<char*>(dst) + lo, static_cast<const char*>(src) + lo, hi - lo);
    });
}

}  // namespace sweep_perf
