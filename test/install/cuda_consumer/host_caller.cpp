// Compiled by the host compiler: sweep::gpu and sweep::automatic on raw device pointers of
// built-in types run on the library's precompiled kernels (no nvcc needed here).
#include <cstdint>

#include <sweep/sweep.hpp>

#if defined(__CUDACC__)
#error "host_caller.cpp must be compiled by the host compiler"
#endif

// out = inclusive sums of in; keys_out = per-key sums; returns how many of in are positive.
std::int64_t host_compiled_calls(const int* in, int* out, const int* keys, int* by_key, int* kept,
                                 std::int64_t n) {
    sweep::inclusive_scan(sweep::gpu, in, in + n, out);
    sweep::inclusive_scan_by_key(sweep::automatic, keys, keys + n, in, by_key);
    return sweep::copy_if(sweep::automatic, in, in + n, kept, sweep::greater_than<int>{0}) - kept;
}
