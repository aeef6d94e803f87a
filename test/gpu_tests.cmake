# GPU tests (sweep::gpu). Each executable links gpu_guard.cpp, which exits 77 ("skipped: no CUDA
# device") where no GPU is present, so that they build and report as skipped in CI.
set(_sweep_gpu_guard ${CMAKE_CURRENT_SOURCE_DIR}/gpu/support/gpu_guard.cpp)

# SWEEP_GPU_TESTS_BUILD_ONLY (no GPU to run them: CMakeLists.txt, which also makes every
# target's device code PTX only): host code at -O0. The .cu files of this directory are all GPU
# tests, so the CUDA flags of the optimized configurations are changed here; the host-compiled
# GPU tests get -O0 in sweep_add_gpu_test (after the configuration's -O3: the last one counts).
if(SWEEP_GPU_TESTS_BUILD_ONLY)
  foreach(_c RELEASE RELWITHDEBINFO MINSIZEREL)
    string(REGEX REPLACE "-O[0-9s]" "-O0" CMAKE_CUDA_FLAGS_${_c} "${CMAKE_CUDA_FLAGS_${_c}}")
  endforeach()
  message(STATUS "sweep: GPU tests built to compile only (host -O0): no GPU to run them")
endif()

function(sweep_add_gpu_test name)
  sweep_add_test(${name} ${ARGN} ${_sweep_gpu_guard})
  target_include_directories(${name} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/gpu/support)
  if(SWEEP_GPU_TESTS_BUILD_ONLY)
    target_compile_options(${name} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-O0>)
  endif()
endfunction()

sweep_add_gpu_test(test_gpu_scan_types_int gpu/scan_types_int.cu)
sweep_add_gpu_test(test_gpu_scan_types_float gpu/scan_types_float.cu)
sweep_add_gpu_test(test_gpu_scan_types_struct gpu/scan_types_struct.cu)
sweep_add_gpu_test(test_gpu_scan_semantics gpu/scan_semantics.cu)
sweep_add_gpu_test(test_gpu_scan_large gpu/scan_large.cu)
sweep_add_gpu_test(test_gpu_lookback_stress gpu/lookback_stress.cu)
# Compiled by the host compiler: proves the precompiled kernels serve host-compiled callers.
sweep_add_gpu_test(test_gpu_scan_host_compiled gpu/scan_host_compiled.cpp)
sweep_add_gpu_test(test_gpu_segmented_scan gpu/segmented_scan.cu)
sweep_add_gpu_test(test_gpu_segmented_types gpu/segmented_types.cu)
# The offsets form's block-derived heads (tile index, shared-memory marks) at their edges.
sweep_add_gpu_test(test_gpu_segmented_offsets gpu/segmented_offsets.cu)
# Segmented-scan variants that are not the default yet (the look-behind), through the internal
# launch API: proven correct in the run that measures them (sweep_perf_gpu_segmented tune).
if(SWEEP_BUILD_TUNING)
  sweep_add_gpu_test(test_gpu_segmented_variants gpu/segmented_variants.cu)
endif()
sweep_add_gpu_test(test_gpu_segmented_large gpu/segmented_large.cu)
# Compiled by the host compiler: the precompiled segmented scans (src/cuda/segmented_builtin*.cu).
sweep_add_gpu_test(test_gpu_segmented_host_compiled gpu/segmented_host_compiled.cpp)
# Compiled by the host compiler: every algorithm with sweep::gpu and sweep::automatic.
sweep_add_gpu_test(test_gpu_all_algorithms_host_compiled gpu/all_algorithms_host_compiled.cpp)
# A host-compiled sweep::gpu segmented scan with a custom operator fails to compile with its
# message; the control (a built-in operator: precompiled) compiles.
add_test(NAME gpu_segmented_host_compiled_does_not_compile COMMAND ${CMAKE_CXX_COMPILER} -std=c++20 -fsyntax-only -I${PROJECT_SOURCE_DIR}/include -DSWEEP_HAS_CUDA=1 ${CMAKE_CURRENT_SOURCE_DIR}/compile_fail/gpu_segmented_host_compiled.cpp)
set_tests_properties(gpu_segmented_host_compiled_does_not_compile PROPERTIES PASS_REGULAR_EXPRESSION "only the precompiled kernels are available")
add_test(NAME gpu_segmented_host_compiled_control_compiles COMMAND ${CMAKE_CXX_COMPILER} -std=c++20 -fsyntax-only -I${PROJECT_SOURCE_DIR}/include -DSWEEP_HAS_CUDA=1 -DSWEEP_CONTROL ${CMAKE_CURRENT_SOURCE_DIR}/compile_fail/gpu_segmented_host_compiled.cpp)
sweep_add_gpu_test(test_gpu_compaction gpu/compaction.cu)
sweep_add_gpu_test(test_gpu_compaction_types_int gpu/compaction_types_int.cu)
sweep_add_gpu_test(test_gpu_compaction_types_other gpu/compaction_types_other.cu)
# Both tile paths (register, shared-memory bulk) forced, against seq at the edges of both tiles.
sweep_add_gpu_test(test_gpu_compaction_paths gpu/compaction_paths.cu)
sweep_add_gpu_test(test_gpu_compaction_large gpu/compaction_large.cu)
# partition's two-ended exchange pass forced at every size, against seq.
sweep_add_gpu_test(test_gpu_partition_exchange gpu/partition_exchange.cu)
sweep_add_gpu_test(test_gpu_compaction_host_compiled gpu/compaction_host_compiled.cpp)
# The same executables without the mapped result slot (SWEEP_TEST_NO_MAPPED_SLOT=1,
# src/cuda/runtime.cu): copy_if's count, partition's point and the offsets check's verdict then
# travel through device memory and a copy. test_gpu_partition_exchange asserts which path it is on.
foreach(_t test_gpu_compaction test_gpu_partition_exchange test_gpu_segmented_offsets)
  add_test(NAME ${_t}_no_mapped_slot COMMAND ${_t})
  set_tests_properties(${_t}_no_mapped_slot PROPERTIES SKIP_RETURN_CODE 77
                       ENVIRONMENT SWEEP_TEST_NO_MAPPED_SLOT=1)
endforeach()
# From a host-compiled file, compaction with a predicate that is not precompiled fails to compile
# with a message that says why; the control (a precompiled predicate) compiles.
set(_sweep_cf_compaction ${CMAKE_CURRENT_SOURCE_DIR}/compile_fail/gpu_compaction_host_compiled.cpp)
add_test(NAME gpu_compaction_custom_predicate_host_compiled_does_not_compile
  COMMAND ${CMAKE_CXX_COMPILER} -std=c++20 -fsyntax-only -I${PROJECT_SOURCE_DIR}/include
          -DSWEEP_HAS_CUDA=1 -DSWEEP_HAS_TBB=0 ${_sweep_cf_compaction})
set_tests_properties(gpu_compaction_custom_predicate_host_compiled_does_not_compile PROPERTIES
  PASS_REGULAR_EXPRESSION "only the precompiled kernels are available")
add_test(NAME gpu_compaction_builtin_predicate_host_compiled_compiles
  COMMAND ${CMAKE_CXX_COMPILER} -std=c++20 -fsyntax-only -I${PROJECT_SOURCE_DIR}/include
          -DSWEEP_HAS_CUDA=1 -DSWEEP_HAS_TBB=0 -DSWEEP_CONTROL ${_sweep_cf_compaction})
# Radix sort (docs/radix_sort.md): the key types, pairs, semantics and errors, 8-bit keys past 2^31.
sweep_add_gpu_test(test_gpu_radix_keys_int gpu/radix_keys_int.cu)
sweep_add_gpu_test(test_gpu_radix_keys_float gpu/radix_keys_float.cu)
sweep_add_gpu_test(test_gpu_radix_pairs gpu/radix_pairs.cu)
# Compiled by the host compiler: the precompiled radix sorts serve host-compiled callers.
sweep_add_gpu_test(test_gpu_radix_host_compiled gpu/radix_host_compiled.cpp)
sweep_add_gpu_test(test_gpu_radix_semantics gpu/radix_semantics.cu)
sweep_add_gpu_test(test_gpu_radix_large gpu/radix_large.cu)
# Built with SWEEP_BUILD_TUNING only (the device runs that measure them):
if(SWEEP_BUILD_TUNING)
  # The ranking variants that are not the default yet (tuning/radix_tuning.cuh), through the
  # internal launch API: proven correct in the same device run that measures them.
  sweep_add_gpu_test(test_gpu_radix_variants_32 gpu/radix_variants_32.cu)
  sweep_add_gpu_test(test_gpu_radix_variants_other gpu/radix_variants_other.cu)
  # The session-4 variants (padded last tile, predicate ballots; perf/notes-gpu.md R3) and the
  # 3- and 4-blocks-per-SM shapes of the tune run.
  sweep_add_gpu_test(test_gpu_radix_variants_lean_32 gpu/radix_variants_lean_32.cu)
  sweep_add_gpu_test(test_gpu_radix_variants_lean_other gpu/radix_variants_lean_other.cu)
endif()
# From a host-compiled file, radix_sort_by_key with values of a size that is not precompiled fails
# to compile with a message that says why; the control (8-byte values) compiles.
set(_sweep_cf_radix ${CMAKE_CURRENT_SOURCE_DIR}/compile_fail/gpu_radix_host_compiled.cpp)
add_test(NAME gpu_radix_odd_values_host_compiled_does_not_compile
  COMMAND ${CMAKE_CXX_COMPILER} -std=c++20 -fsyntax-only -I${PROJECT_SOURCE_DIR}/include
          -DSWEEP_HAS_CUDA=1 -DSWEEP_HAS_TBB=0 ${_sweep_cf_radix})
set_tests_properties(gpu_radix_odd_values_host_compiled_does_not_compile PROPERTIES
  PASS_REGULAR_EXPRESSION "only the precompiled sorts are available")
add_test(NAME gpu_radix_8byte_values_host_compiled_compiles
  COMMAND ${CMAKE_CXX_COMPILER} -std=c++20 -fsyntax-only -I${PROJECT_SOURCE_DIR}/include
          -DSWEEP_HAS_CUDA=1 -DSWEEP_HAS_TBB=0 -DSWEEP_CONTROL ${_sweep_cf_radix})
# .deterministic() / .compensated() on sweep::gpu against the host (bitwise) and an exact
# accumulator. Built without FMA contraction (-fmad=false), as docs/numerics.md asks of user
# operators and transforms on the deterministic path.
sweep_add_gpu_test(test_gpu_numerics_deterministic gpu/numerics_deterministic.cu)
sweep_add_gpu_test(test_gpu_numerics_compensated gpu/numerics_compensated.cu)
# The compensated sum's shared-memory path at the non-default bulk geometries the bench measures
# (SWEEP_BUILD_TUNING only).
set(_sweep_numerics_tests test_gpu_numerics_deterministic test_gpu_numerics_compensated)
if(SWEEP_BUILD_TUNING)
  sweep_add_gpu_test(test_gpu_numerics_compensated_geometry gpu/numerics_compensated_geometry.cu)
  list(APPEND _sweep_numerics_tests test_gpu_numerics_compensated_geometry)
endif()
foreach(_t ${_sweep_numerics_tests})
  target_compile_options(${_t} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-fmad=false -Xcompiler=-ffp-contract=off>
                                       $<$<COMPILE_LANGUAGE:CXX>:-ffp-contract=off>)
endforeach()
# Compiled by the host compiler: the precompiled deterministic/compensated float and double sums.
sweep_add_gpu_test(test_gpu_numerics_host_compiled gpu/numerics_host_compiled.cpp)
target_compile_options(test_gpu_numerics_host_compiled PRIVATE -ffp-contract=off)
# Reliability (issue 9, docs/reliability.md). The differential fuzzer's per-type kernels are in
# test/gpu/fuzz/, one translation unit each, so that they build in parallel.
sweep_add_gpu_test(test_gpu_fuzz_differential gpu/fuzz_differential.cu
  gpu/fuzz/fuzz_gpu_int8.cu gpu/fuzz/fuzz_gpu_uint16.cu gpu/fuzz/fuzz_gpu_int32.cu
  gpu/fuzz/fuzz_gpu_uint64.cu gpu/fuzz/fuzz_gpu_float.cu gpu/fuzz/fuzz_gpu_double.cu)
sweep_add_gpu_test(test_gpu_reliability_errors gpu/reliability_errors.cu)
sweep_add_gpu_test(test_gpu_concurrency gpu/concurrency.cu)
sweep_add_gpu_test(test_gpu_forward_progress gpu/forward_progress.cu)
# The library's first call inside a stream capture: its own process (nothing set up before it).
sweep_add_gpu_test(test_gpu_capture_first_use gpu/capture_first_use.cu)
# Calls without a stream from a translation unit built with per-thread default streams.
sweep_add_gpu_test(test_gpu_per_thread_stream gpu/per_thread_stream.cu)
target_compile_options(test_gpu_per_thread_stream PRIVATE
  $<$<COMPILE_LANGUAGE:CUDA>:--default-stream=per-thread>)
sweep_add_gpu_test(test_gpu_large_sizes gpu/large_sizes.cu)
# sweep::automatic on device, managed and pinned memory and on Thrust iterators.
sweep_add_gpu_test(test_gpu_automatic gpu/automatic.cu)
# Thrust containers and fancy iterators through every GPU algorithm (gpu, thrust::device,
# automatic).
sweep_add_gpu_test(test_gpu_thrust_iterators gpu/thrust_iterators.cu)
