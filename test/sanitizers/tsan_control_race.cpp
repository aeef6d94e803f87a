// test/sanitizers/tsan_control_race.cpp -- the positive control of scripts/sanitize.sh tsan: a
// data race inside tbb::parallel_for (every task adds to one plain long). ThreadSanitizer, with
// the oneTBB in use, must report it; a setup that does not is not checking anything.
#include <oneapi/tbb/parallel_for.h>

#include <cstdio>

int main() {
    long sum = 0;  // racy on purpose
    tbb::parallel_for(0, 1 << 16, [&](int i) { sum += i; });
    std::printf("%ld\n", sum);
}
