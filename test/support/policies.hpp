// test/support/policies.hpp -- host tests: every host policy, to run one check under each.
//
// for_each_host_policy(f) calls f(name, policy) with sweep::seq, sweep::par, par.threads(1),
// par.threads(2), the four standard policies and sweep::automatic. The policies have different
// types, so f is a generic lambda; name goes into the test's INFO so a failure says which.
#pragma once

#include <execution>

#include <sweep/execution.hpp>

namespace sweep_test {

template <class F>
void for_each_host_policy(F&& f) {
    f("sweep::seq", sweep::seq);
    f("sweep::par", sweep::par);
    f("sweep::par.threads(1)", sweep::par.threads(1));
    f("sweep::par.threads(2)", sweep::par.threads(2));
    f("std::execution::seq", std::execution::seq);
    f("std::execution::par", std::execution::par);
    f("std::execution::par_unseq", std::execution::par_unseq);
#if defined(__cpp_lib_execution) && __cpp_lib_execution >= 201902L
    f("std::execution::unseq", std::execution::unseq);
#endif
    f("sweep::automatic", sweep::automatic);
}

/// The policies that reach distinct backends (seq, par, par with one thread, automatic): for
/// the wide type cross products, where the standard policies add only instantiations.
template <class F>
void for_each_backend_policy(F&& f) {
    f("sweep::seq", sweep::seq);
    f("sweep::par", sweep::par);
    f("sweep::par.threads(1)", sweep::par.threads(1));
    f("sweep::automatic", sweep::automatic);
}

}  // namespace sweep_test
