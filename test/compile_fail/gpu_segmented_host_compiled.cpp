// test/compile_fail/gpu_segmented_host_compiled.cpp -- a segmented scan on sweep::gpu from a
// translation unit compiled by the host compiler must fail to compile with a message that says
// why (no precompiled segmented kernels yet). With -DSWEEP_CONTROL the same file calls the par
// backend and must compile, so that the failure is the static_assert and nothing else.
#include <sweep/segmented_scan.hpp>

int main() {
    int* keys = nullptr;
    int* values = nullptr;
    int* out = nullptr;
#ifndef SWEEP_CONTROL
    sweep::inclusive_scan_by_key(sweep::gpu, keys, keys + 10, values, out);
#else
    sweep::inclusive_scan_by_key(sweep::par, keys, keys, values, out);
#endif
    return 0;
}
