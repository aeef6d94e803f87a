// sweep/backend/cuda/agent/grid_dependency.cuh -- GPU backend: programmatic dependent launch
// (PDL) on the device side. A kernel launched with cudaLaunchAttributeProgrammaticStream-
// Serialization (dispatch/scan.cuh launch_lookback) may start while the grid before it on the
// stream still runs; these are the two instructions that make that safe and useful. Both are
// no-ops before sm_90 and when the kernel was launched plainly.
#pragma once

namespace sweep::detail::cuda::pdl {

/// Waits until the grid this one was launched behind has finished and its writes are visible
/// (PTX griddepcontrol.wait). By induction it covers every earlier grid of such a chain too: none
/// of them finished before its own wait had returned.
__device__ __forceinline__ void wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

/// Lets the grid launched behind this one start early (PTX griddepcontrol.launch_dependents): it
/// is scheduled once every block of this grid has executed this or exited, so each of them is
/// already running or done and the early blocks (waiting in wait()) cannot starve them. Implies
/// nothing about the visibility of this grid's writes.
__device__ __forceinline__ void launch_dependents() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

}  // namespace sweep::detail::cuda::pdl
