// test/support/main.cpp -- the Catch2 entry point of every test executable. It draws the random
// seed (or takes SWEEP_TEST_SEED from the environment) and prints it first, so that any failure
// can be replayed: SWEEP_TEST_SEED=<seed> ctest ...
#if SWEEP_CATCH_MAJOR >= 3
#include <catch2/catch_session.hpp>
#else
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#endif

#include <cstdio>

#include "random.hpp"

int main(int argc, char* argv[]) {
    const auto seed = sweep_test::seed();
    std::printf("sweep tests: seed %llu (replay with SWEEP_TEST_SEED=%llu)\n",
                static_cast<unsigned long long>(seed), static_cast<unsigned long long>(seed));
    std::fflush(stdout);
    return Catch::Session().run(argc, argv);
}
