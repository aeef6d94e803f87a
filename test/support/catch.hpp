// test/support/catch.hpp -- Catch2 v2 (Debian 12) or v3, whichever the system has.
#pragma once
// SWEEP_CATCH_MAJOR comes from test/CMakeLists.txt (the version find_package found): a machine can
// have one version's headers in /usr/include and another's package on CMAKE_PREFIX_PATH.
#if SWEEP_CATCH_MAJOR >= 3
#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>
#include <catch2/catch_template_test_macros.hpp>
#define SWEEP_CATCH3 1
#else
#include <catch2/catch.hpp>
#define SWEEP_CATCH3 0
#endif
