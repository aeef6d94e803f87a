# The GPU benchmarks (perf/gpu), included by perf/CMakeLists.txt when present.
if(SWEEP_ENABLE_CUDA)
  add_subdirectory(gpu)
endif()
