# GPU tests (sweep::gpu). Each executable links gpu_guard.cpp, which exits 77 ("skipped: no CUDA
# device") where no GPU is present, so that they build and report as skipped in CI.
set(_sweep_gpu_guard ${CMAKE_CURRENT_SOURCE_DIR}/gpu/support/gpu_guard.cpp)

function(sweep_add_gpu_test name)
  sweep_add_test(${name} ${ARGN} ${_sweep_gpu_guard})
  target_include_directories(${name} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/gpu/support)
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
sweep_add_gpu_test(test_gpu_compaction_large gpu/compaction_large.cu)
sweep_add_gpu_test(test_gpu_compaction_host_compiled gpu/compaction_host_compiled.cpp)
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
# sweep::automatic on device, managed and pinned memory and on Thrust iterators.
sweep_add_gpu_test(test_gpu_automatic gpu/automatic.cu)
# Thrust containers and fancy iterators through every GPU algorithm (gpu, thrust::device,
# automatic).
sweep_add_gpu_test(test_gpu_thrust_iterators gpu/thrust_iterators.cu)
