// A user's program: one scan on each host policy, checked against the standard library.
#include <cstdio>
#include <numeric>
#include <vector>

#include <sweep/sweep.hpp>

int main() {
    std::vector<long> v(100000), a(v.size()), b(v.size()), ref(v.size());
    std::iota(v.begin(), v.end(), 1);
    std::inclusive_scan(v.begin(), v.end(), ref.begin());
    sweep::inclusive_scan(sweep::seq, v.begin(), v.end(), a.begin());
    sweep::inclusive_scan(sweep::par, v.begin(), v.end(), b.begin());
    const bool ok = a == ref && b == ref;
    std::printf("consumer: %s (cuda backend %s, tbb backend %s)\n", ok ? "ok" : "WRONG",
                SWEEP_HAS_CUDA ? "on" : "off", SWEEP_HAS_TBB ? "on" : "off");
    return ok ? 0 : 1;
}
