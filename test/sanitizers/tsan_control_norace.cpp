// test/sanitizers/tsan_control_norace.cpp -- the negative control of scripts/sanitize.sh tsan: a
// race-free parallel_for and parallel_reduce. ThreadSanitizer must report nothing; with a oneTBB
// that is not built with -fsanitize=thread (Debian's libtbb) it reports the task hand-offs it
// cannot see as races.
#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/parallel_reduce.h>

#include <cstdio>
#include <vector>

int main() {
    std::vector<long> v(1 << 16);
    tbb::parallel_for(0, 1 << 16, [&](int i) { v[static_cast<std::size_t>(i)] = i; });
    const long s = tbb::parallel_reduce(
        tbb::blocked_range<int>(0, 1 << 16), 0L,
        [&](const tbb::blocked_range<int>& r, long a) {
            for (int i = r.begin(); i < r.end(); ++i) a += v[static_cast<std::size_t>(i)];
            return a;
        },
        [](long a, long b) { return a + b; });
    std::printf("%ld\n", s);
    return s == (long{1} << 16) * ((long{1} << 16) - 1) / 2 ? 0 : 1;
}
