# Tests of what only the par backend (oneTBB) promises beyond agreeing with seq: thread-count
# independence, partition's documented order, exceptions. Included from test/CMakeLists.txt.
if(SWEEP_ENABLE_TBB)
  sweep_add_test(test_par_backend par/par_backend.cpp)
  sweep_add_test(test_par_radix par/radix_par.cpp)
  # The same sort with its constants shrunk (streaming stores, small leaves): its own executable.
  sweep_add_test(test_par_radix_stream par/radix_par_stream.cpp)
  # The AVX-512 bricks against plain loops, and the sort with them on and off (skipped, exit 77,
  # on CPUs without AVX-512).
  sweep_add_test(test_par_radix_simd par/radix_simd.cpp)
  sweep_add_test(test_segmented_par par/segmented_par.cpp)
  # The SIMD scan pass of compensated sums (backend/tbb/comp_scan_simd.hpp).
  sweep_add_test(test_par_comp_simd par/comp_simd.cpp)
endif()
# Reliability (issue 9): allocation failure at every host temporary (the fault-injection hook of
# sweep/detail/fault_injection.hpp, compiled in for this executable only), concurrent par calls.
if(SWEEP_ENABLE_TBB)
  sweep_add_test(test_par_oom par/oom.cpp)
  target_compile_definitions(test_par_oom PRIVATE SWEEP_FAULT_INJECTION=1)
  sweep_add_test(test_par_concurrency par/concurrency.cpp)
endif()
