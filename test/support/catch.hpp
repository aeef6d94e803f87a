// test/support/catch.hpp -- Catch2 v2 (Debian 12) or v3, whichever the system has.
#pragma once
#if __has_include(<catch2/catch_test_macros.hpp>)
#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>
#include <catch2/catch_template_test_macros.hpp>
#define SWEEP_CATCH3 1
#else
#include <catch2/catch.hpp>
#define SWEEP_CATCH3 0
#endif
