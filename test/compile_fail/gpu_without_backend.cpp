// test/compile_fail/gpu_without_backend.cpp -- must NOT compile when sweep is built without its
// GPU backend (SWEEP_HAS_CUDA=0): a call with sweep::gpu is a compile-time error that says so,
// never a silent run on the CPU. With -DSWEEP_CONTROL it uses sweep::seq and must compile, which
// proves that the failure comes from the policy alone.
#include <sweep/scan.hpp>

#include <vector>

int main() {
    std::vector<int> v(8, 1), out(8);
#ifdef SWEEP_CONTROL
    sweep::inclusive_scan(sweep::seq, v.begin(), v.end(), out.begin());
#else
    sweep::inclusive_scan(sweep::gpu, v.begin(), v.end(), out.begin());
#endif
    return out[7] == 8 ? 0 : 1;
}
