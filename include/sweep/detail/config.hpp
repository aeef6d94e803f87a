// sweep/detail/config.hpp -- the one macro layer: host/device attributes and build switches.
#pragma once

#if defined(__CUDACC__)
#define SWEEP_HD __host__ __device__
#else
#define SWEEP_HD
#endif

// SWEEP_HAS_CUDA / SWEEP_HAS_TBB come from the sweep::sweep target (CMake). A translation unit that
// uses the headers without the target gets the portable subset: seq everywhere, par on seq.
#ifndef SWEEP_HAS_CUDA
#define SWEEP_HAS_CUDA 0
#endif
#ifndef SWEEP_HAS_TBB
#define SWEEP_HAS_TBB 0
#endif

namespace sweep::detail {
template <class...>
inline constexpr bool dependent_false = false;
}  // namespace sweep::detail
