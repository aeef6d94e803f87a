# Tests of what only the par backend (oneTBB) promises beyond agreeing with seq: thread-count
# independence, partition's documented order, exceptions. Included from test/CMakeLists.txt.
if(SWEEP_ENABLE_TBB)
  sweep_add_test(test_par_backend par/par_backend.cpp)
  sweep_add_test(test_par_radix par/radix_par.cpp)
  sweep_add_test(test_segmented_par par/segmented_par.cpp)
endif()
