# Host-policy tests (seq, par, std policies). One executable per algorithm family so that they
# build in parallel and fail separately.
sweep_add_test(test_smoke smoke.cpp)
