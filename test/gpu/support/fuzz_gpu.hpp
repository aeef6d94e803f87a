// test/gpu/support/fuzz_gpu.hpp -- the GPU twin of the differential fuzzer (issue 9): one case of
// support/differential.hpp run under sweep::gpu (on device buffers) and compared with sweep::seq.
// par against seq is test_fuzz_differential's work (the same cases' generator): running it here
// too compiled every par algorithm into each of these nvcc translation units, a quarter of their
// build time, for no coverage the host fuzzer lacks. gpu_check<T> is instantiated once per element
// type, in its own translation unit (test/gpu/fuzz/fuzz_gpu_*.cu), so that the kernels build in
// parallel.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "differential.hpp"
#include "gpu_support.hpp"

namespace sweep_fuzz {

/// Device memory for run_case: sweep_gpu_test::device_vector (synchronous copies).
struct device_mem {
    template <class U>
    sweep_gpu_test::device_vector<U> make(const std::vector<U>& h) const {
        return sweep_gpu_test::device_vector<U>(h);
    }
};

/// "" when gpu agrees with seq on case c; else where it differs.
template <class T>
std::string gpu_check(const fuzz_case& c);

#ifdef SWEEP_FUZZ_GPU_DEFINE
template <class T>
std::string gpu_check(const fuzz_case& c) {
    const inputs<T> in = make_inputs<T>(c);
    const outcome want = run_case(c, in, sweep::seq, host_mem{});
    const std::string r = compare(c, in, want, run_case(c, in, sweep::gpu, device_mem{}));
    return r.empty() ? r : "sweep::gpu: " + r;
}
#endif

extern template std::string gpu_check<std::int8_t>(const fuzz_case&);
extern template std::string gpu_check<std::uint16_t>(const fuzz_case&);
extern template std::string gpu_check<std::int32_t>(const fuzz_case&);
extern template std::string gpu_check<std::uint64_t>(const fuzz_case&);
extern template std::string gpu_check<float>(const fuzz_case&);
extern template std::string gpu_check<double>(const fuzz_case&);

}  // namespace sweep_fuzz
