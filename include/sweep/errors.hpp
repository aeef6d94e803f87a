// sweep/errors.hpp -- public layer: the exception types sweep throws besides the standard ones.
//
// std::invalid_argument: detectable bad input (last < first, host memory given to sweep::gpu,
//                        offsets that are not nondecreasing from 0 to n).
// std::bad_alloc:        temporary memory could not be had (thrown before any output is written).
// sweep::cuda_error:     a CUDA call failed.
#pragma once

#include <stdexcept>
#include <string>

namespace sweep {

/// A CUDA call failed. what() names the algorithm, the CUDA call and CUDA's error string.
class cuda_error : public std::runtime_error {
public:
    cuda_error(const std::string& algorithm, const std::string& call, int code,
               const std::string& cuda_message)
        : std::runtime_error("sweep::" + algorithm + ": " + call + " failed: " + cuda_message +
                             " (CUDA error " + std::to_string(code) + ")"),
          code_(code) {}

    /// The cudaError_t value, as an int.
    [[nodiscard]] int code() const noexcept { return code_; }

private:
    int code_;
};

}  // namespace sweep
