// test/compile_fail/gpu_compaction_host_compiled.cpp -- compiled by the host compiler with the GPU
// backend on: a sweep::gpu copy_if with a predicate that has no precompiled kernel must NOT
// compile, and must say why (compile the call site with nvcc). With -DSWEEP_CONTROL the same call
// uses sweep::greater_than<int>, which is precompiled, and must compile: the failure comes from
// the predicate alone.
#include <sweep/copy_if.hpp>

int main() {
    int* in = nullptr;
    int* out = nullptr;
#ifdef SWEEP_CONTROL
    int* e = sweep::copy_if(sweep::gpu, in, in + 8, out, sweep::greater_than<int>{0});
#else
    int* e = sweep::copy_if(sweep::gpu, in, in + 8, out, [](int x) { return x > 0; });
#endif
    return e == out ? 0 : 1;
}
