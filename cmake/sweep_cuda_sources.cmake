# The CUDA translation units of the library (precompiled kernels for host-compiled callers and
# the runtime: default memory pool, device queries). Listed here so that the GPU backend owns it.
set(SWEEP_CUDA_SOURCES
  ${PROJECT_SOURCE_DIR}/src/cuda/runtime.cu
)
