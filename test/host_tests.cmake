# Host-policy tests (seq, par, std policies, automatic). One executable per algorithm family and
# concern, so that they build in parallel and fail separately. Shared helpers: support/.
sweep_add_test(test_scan scan.cpp)
sweep_add_test(test_transform_scan transform_scan.cpp)
sweep_add_test(test_noncommutative noncommutative.cpp)
sweep_add_test(test_inplace inplace.cpp)
sweep_add_test(test_copy_if copy_if.cpp)
sweep_add_test(test_partition partition.cpp)
sweep_add_test(test_radix_sort radix_sort.cpp)
sweep_add_test(test_segmented_scan segmented_scan.cpp)
sweep_add_test(test_errors errors.cpp)
sweep_add_test(test_policies policies.cpp)
sweep_add_test(test_automatic automatic.cpp)
sweep_add_test(test_predicates predicates.cpp)
# .deterministic() / .compensated(): bitwise equality across host policies, compensated accuracy
# against an exact accumulator. Built without floating-point contraction, as the docs require of
# user operators and transforms (docs/numerics.md).
sweep_add_test(test_numerics numerics.cpp)
target_compile_options(test_numerics PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-ffp-contract=off>)
sweep_add_test(test_fuzz_differential fuzz_differential.cpp)
