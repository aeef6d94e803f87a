// perf/gpu/numerics_error.cu -- perf/numerics_error.cpp compiled by nvcc: its gpu rows then run
// on kernels instantiated here instead of the library's precompiled ones, so the target builds
// in a quick device run (-DSWEEP_PRECOMPILED_KERNELS=OFF). Same output (CSV).
#include "../numerics_error.cpp"
