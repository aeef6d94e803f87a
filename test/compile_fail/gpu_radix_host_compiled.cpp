// test/compile_fail/gpu_radix_host_compiled.cpp -- radix_sort_by_key on sweep::gpu from a
// translation unit compiled by the host compiler, with values of a size that has no precompiled
// sort (12 bytes), must fail to compile with a message that says why. With -DSWEEP_CONTROL the
// same call with 8-byte values (precompiled) must compile, so that the failure is the
// static_assert and nothing else.
#include <cstdint>

#include <sweep/radix_sort.hpp>

namespace {
struct twelve {
    std::uint32_t a, b, c;
};
}  // namespace

int main() {
    std::uint32_t* keys = nullptr;
#ifndef SWEEP_CONTROL
    twelve* values = nullptr;
#else
    std::uint64_t* values = nullptr;
#endif
    sweep::radix_sort_by_key(sweep::gpu, keys, keys + 10, values);
    return 0;
}
