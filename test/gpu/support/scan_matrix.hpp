// test/gpu/support/scan_matrix.hpp -- the scan test matrix: every scan signature on sweep::gpu
// against sweep::seq, for one value type, at every size of edge_sizes(tile).
#pragma once

#include <cstdint>
#include <vector>

#include <sweep/scan.hpp>

#include "catch.hpp"
#include "gpu_support.hpp"
#include "random.hpp"

namespace sweep_gpu_test {

template <class T>
std::int64_t first_mismatch(const std::vector<T>& got, const std::vector<T>& want) {
    for (std::size_t i = 0; i < want.size(); ++i)
        if (!(got[i] == want[i])) return static_cast<std::int64_t>(i);
    return -1;
}

/// Runs the eight signatures. `op` is the operator of the forms that take one (the plain forms
/// use sweep::plus<>); `uop` the transform.
template <class T, class Op, class UOp>
void check_all_signatures(Op op, UOp uop, std::uint64_t salt) {
    for (const std::int64_t n : scan_edge_sizes<T>()) {
        auto g = sweep_test::rng(salt * 1000003 + static_cast<std::uint64_t>(n));
        const std::vector<T> h = random_values<T>(static_cast<std::size_t>(n), g);
        device_vector<T> in(h), out(static_cast<std::size_t>(n));
        std::vector<T> want(static_cast<std::size_t>(n));
        const T init = sample_init<T>();

        auto run = [&](const char* what, auto gpu_call, auto seq_call) {
            out.poison();
            T* e = gpu_call(in.begin(), in.end(), out.begin());
            seq_call(h.begin(), h.end(), want.begin());
            const std::vector<T> got = out.download();
            INFO(what << ", n = " << n);
            CHECK(e == out.end());
            CHECK(first_mismatch(got, want) == -1);
        };
#define SWEEP_SIG(name, ...)                                                                  \
    run(#name "(" #__VA_ARGS__ ")",                                                           \
        [&](auto f, auto l, auto o) { return sweep::name(sweep::gpu, f, l, o, ##__VA_ARGS__); }, \
        [&](auto f, auto l, auto o) { sweep::name(sweep::seq, f, l, o, ##__VA_ARGS__); })
        SWEEP_SIG(inclusive_scan);
        SWEEP_SIG(inclusive_scan, op);
        SWEEP_SIG(inclusive_scan, op, init);
        SWEEP_SIG(exclusive_scan, init);
        SWEEP_SIG(exclusive_scan, init, op);
        SWEEP_SIG(transform_inclusive_scan, sweep::plus<>{}, uop);
        SWEEP_SIG(transform_inclusive_scan, sweep::plus<>{}, uop, init);
        SWEEP_SIG(transform_exclusive_scan, init, sweep::plus<>{}, uop);
#undef SWEEP_SIG
    }
}

}  // namespace sweep_gpu_test
