// examples/demo_gpu.hpp -- the demo's GPU rows (examples/demo_gpu.cpp), kept apart so that the
// demo's host part stays one plain C++ file.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

namespace sweep_demo {

/// (algorithm, seconds, bytes moved, the GPU's device-to-device copy GB/s, result matches seq)
using row_sink = std::function<void(const char*, double, double, double, bool)>;

/// Adds the sweep::gpu rows when the GPU backend is built and a GPU is present; else prints why not.
void gpu_rows(const std::vector<std::int32_t>& in, const row_sink& sink);

}  // namespace sweep_demo
