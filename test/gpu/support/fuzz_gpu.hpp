// test/gpu/support/fuzz_gpu.hpp -- the GPU twin of the differential fuzzer (issue 9): one case of
// support/differential.hpp run under sweep::gpu (on device buffers) and under sweep::par, both
// compared with sweep::seq. gpu_check<T> is instantiated once per element type, in its own
// translation unit (test/gpu/fuzz/fuzz_gpu_*.cu), so that the kernels build in parallel.
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

/// "" when gpu and par agree with seq on case c; else which one differs, and where.
template <class T>
std::string gpu_check(const fuzz_case& c);

#ifdef SWEEP_FUZZ_GPU_DEFINE
template <class T>
std::string gpu_check(const fuzz_case& c) {
    const inputs<T> in = make_inputs<T>(c);
    const outcome want = run_case(c, in, sweep::seq, host_mem{});
    std::string r = compare(c, in, want, run_case(c, in, sweep::gpu, device_mem{}));
    if (!r.empty()) return "sweep::gpu: " + r;
    r = compare(c, in, want, run_case(c, in, sweep::par, host_mem{}));
    if (!r.empty()) return "sweep::par: " + r;
    return "";
}
#endif

extern template std::string gpu_check<std::int8_t>(const fuzz_case&);
extern template std::string gpu_check<std::uint16_t>(const fuzz_case&);
extern template std::string gpu_check<std::int32_t>(const fuzz_case&);
extern template std::string gpu_check<std::uint64_t>(const fuzz_case&);
extern template std::string gpu_check<float>(const fuzz_case&);
extern template std::string gpu_check<double>(const fuzz_case&);

}  // namespace sweep_fuzz
