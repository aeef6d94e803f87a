// test/compile_fail/gpu_segmented_host_compiled.cpp -- a segmented scan on sweep::gpu from a
// translation unit compiled by the host compiler, with an operator that has no precompiled kernel
// (a custom one), must fail to compile with a message that says why. With -DSWEEP_CONTROL the same
// call uses a built-in operator (precompiled kernels exist) and must compile, so that the failure
// is the static_assert and nothing else.
#include <sweep/segmented_scan.hpp>

namespace {
struct custom_plus {
    int operator()(int a, int b) const { return a + b; }
};
}  // namespace

int main() {
    int* keys = nullptr;
    int* values = nullptr;
    int* out = nullptr;
#ifndef SWEEP_CONTROL
    sweep::inclusive_scan_by_key(sweep::gpu, keys, keys + 10, values, out, std::equal_to<>{},
                                 custom_plus{});
#else
    sweep::inclusive_scan_by_key(sweep::gpu, keys, keys + 10, values, out, std::equal_to<>{},
                                 sweep::plus<>{});
#endif
    return 0;
}
