// test/compile_fail/compensated_not_sum.cpp -- must NOT compile: .compensated() on an integer sum
// (SWEEP_CASE=1) or on a float min (SWEEP_CASE=2) is a compile-time error that says so. With
// -DSWEEP_CONTROL the same calls without the bad combination compile.
#include <sweep/scan.hpp>

#include <vector>

int main() {
    std::vector<int> v(8, 1), out(8);
    std::vector<float> f(8, 1.0f), fo(8);
#ifdef SWEEP_CONTROL
    sweep::inclusive_scan(sweep::seq.compensated(), f.begin(), f.end(), fo.begin());
    sweep::inclusive_scan(sweep::par.deterministic(), f.begin(), f.end(), fo.begin(),
                          sweep::minimum<>{});
    sweep::inclusive_scan(sweep::seq.deterministic(), v.begin(), v.end(), out.begin());
#elif SWEEP_CASE == 1
    sweep::inclusive_scan(sweep::seq.compensated(), v.begin(), v.end(), out.begin());
#else
    sweep::inclusive_scan(sweep::par.compensated(), f.begin(), f.end(), fo.begin(),
                          sweep::minimum<>{});
#endif
    return out[7] == 8 ? 0 : 1;
}
