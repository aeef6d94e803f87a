# The CUDA translation units of the library (precompiled kernels for host-compiled callers and
# the runtime: default memory pool, device queries). Listed here so that the GPU backend owns it.
# The precompiled scans, compactions and radix sorts are split by element size so that they build
# in parallel.
# The precompiled scans, compactions and segmented scans are split by element size so that they
# build in parallel.
set(SWEEP_CUDA_SOURCES
  ${PROJECT_SOURCE_DIR}/src/cuda/runtime.cu
  ${PROJECT_SOURCE_DIR}/src/cuda/scan_builtin.cu
  ${PROJECT_SOURCE_DIR}/src/cuda/scan_builtin_8_16.cu
  ${PROJECT_SOURCE_DIR}/src/cuda/scan_builtin_32.cu
  ${PROJECT_SOURCE_DIR}/src/cuda/scan_builtin_64.cu
  ${PROJECT_SOURCE_DIR}/src/cuda/scan_numerics_f32.cu
  ${PROJECT_SOURCE_DIR}/src/cuda/scan_numerics_f64.cu
  ${PROJECT_SOURCE_DIR}/src/cuda/compaction_builtin.cu
  ${PROJECT_SOURCE_DIR}/src/cuda/compaction_builtin_plain_8_16.cu
  ${PROJECT_SOURCE_DIR}/src/cuda/compaction_builtin_plain_32_64.cu
  ${PROJECT_SOURCE_DIR}/src/cuda/compaction_builtin_stencil_1.cu
  ${PROJECT_SOURCE_DIR}/src/cuda/compaction_builtin_stencil_2.cu
  ${PROJECT_SOURCE_DIR}/src/cuda/compaction_builtin_stencil_4.cu
  ${PROJECT_SOURCE_DIR}/src/cuda/compaction_builtin_stencil_8.cu
  ${PROJECT_SOURCE_DIR}/src/cuda/radix_builtin.cu
  ${PROJECT_SOURCE_DIR}/src/cuda/radix_builtin_keys_8_16.cu
  ${PROJECT_SOURCE_DIR}/src/cuda/radix_builtin_keys_32_64.cu
  ${PROJECT_SOURCE_DIR}/src/cuda/radix_builtin_pairs_8_16.cu
  ${PROJECT_SOURCE_DIR}/src/cuda/radix_builtin_pairs_32.cu
  ${PROJECT_SOURCE_DIR}/src/cuda/radix_builtin_pairs_64.cu
  ${PROJECT_SOURCE_DIR}/src/cuda/segmented_builtin.cu
  ${PROJECT_SOURCE_DIR}/src/cuda/segmented_builtin_8.cu
  ${PROJECT_SOURCE_DIR}/src/cuda/segmented_builtin_16.cu
  ${PROJECT_SOURCE_DIR}/src/cuda/segmented_builtin_32.cu
  ${PROJECT_SOURCE_DIR}/src/cuda/segmented_builtin_64.cu
)
