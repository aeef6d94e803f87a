// perf/cpu/bench_cpu_stores.cpp -- a diagnostic for the host: is the par scan's ceiling (about
// 65% of a parallel memcpy for int32 and double sums on the 16-core host, sessions 3-5) the
// read-for-ownership of its output? An ordinary store first reads the line it writes (3 transfers
// an element: read x, read y's line, write y), while glibc's memcpy of large chunks writes with
// non-temporal stores or `rep movsb` (2 transfers): 2/3 = 67%. If so, a scan pass that streams
// its output (scan an L1-sized chunk into a buffer, then non-temporal stores of whole lines) would
// approach the copy. This program measures, per thread count, with std::thread over equal chunks
// of one int32 array:
//   memcpy       the ceiling (glibc memcpy of each chunk)
//   read         a sum of the input (the read bandwidth alone)
//   scan plain   a serial scan of each chunk with ordinary stores
//   scan stream  the same scan into a 2048-element L1 buffer, copied out with _mm_stream_si128
//   sweep::par   sweep::inclusive_scan(sweep::par.threads(T)) over the whole array
// Median of 7 runs after a warm-up; GB/s counts bytes read plus bytes written (read: bytes read).
// On the 2-core development VM (AMD EPYC) the streamed scan was slower than the plain one (8.3
// against 11.6 GB/s on one thread); the 16-core host is where the question is open.
//
// Usage: sweep_perf_cpu_stores [log2 n = 27] [thread counts = 1,2,4,8,16]
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include <sweep/scan.hpp>
#include <sweep/backend/tbb/radix_bricks.hpp>

#include "median_ms.hpp"

namespace {

using sweep_perf::median_ms;
// The radix sort's copy with non-temporal stores of whole lines (ordinary stores at the ends).
using sweep::detail::tbb_backend::radix::stream_copy;
using sweep::detail::tbb_backend::radix::stream_fence;

/// Runs body(lo, hi) on T threads over equal chunks of [0, n).
template <class Body>
void on_threads(int T, std::size_t n, Body body) {
    std::vector<std::thread> th;
    th.reserve(static_cast<std::size_t>(T));
    for (int t = 0; t < T; ++t) {
        const std::size_t lo = n / T * t, hi = t + 1 == T ? n : n / T * (t + 1);
        th.emplace_back([=] { body(lo, hi); });
    }
    for (auto& t : th) t.join();
}

}  // namespace

int main(int argc, char** argv) {
    const int lg = argc > 1 ? std::atoi(argv[1]) : 27;
    std::vector<int> threads;
    const std::string arg = argc > 2 ? argv[2] : "1,2,4,8,16";
    for (std::size_t pos = 0; pos < arg.size();) {
        const std::size_t comma = arg.find(',', pos);
        threads.push_back(std::atoi(arg.substr(pos, comma - pos).c_str()));
        pos = comma == std::string::npos ? arg.size() : comma + 1;
    }
    const std::size_t n = std::size_t{1} << lg;
    std::vector<int> x(n), y(n);
    for (std::size_t i = 0; i < n; ++i) x[i] = static_cast<int>((i * 2654435761u) >> 22);
    std::vector<long long> sums(64);

    std::printf("int32, n = 2^%d, %u hardware threads; GB/s = (bytes read + bytes written) / time; "
                "streaming stores: %s\n",
                lg, std::thread::hardware_concurrency(),
#if defined(__x86_64__) || defined(__i386__)
                "yes"
#else
                "no (plain memcpy)"
#endif
    );
    std::printf("| threads | memcpy GB/s | read GB/s | scan plain GB/s | scan stream GB/s | "
                "sweep::par GB/s | plain %% of memcpy | stream %% of memcpy | sweep %% of memcpy |\n");
    std::printf("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
    const double rw = 8.0 * static_cast<double>(n) * 1e-6;  // MB read + written, per ms -> GB/s
    for (const int T : threads) {
        const double t_copy = median_ms([&] {
            on_threads(T, n, [&](std::size_t lo, std::size_t hi) {
                std::memcpy(y.data() + lo, x.data() + lo, (hi - lo) * sizeof(int));
            });
        });
        const double t_read = median_ms([&] {
            on_threads(T, n, [&](std::size_t lo, std::size_t hi) {
                long long s = 0;
                for (std::size_t i = lo; i < hi; ++i) s += x[i];
                sums[static_cast<std::size_t>(lo * 63 / n)] = s;
            });
        });
        const double t_plain = median_ms([&] {
            on_threads(T, n, [&](std::size_t lo, std::size_t hi) {
                int acc = 0;
                for (std::size_t i = lo; i < hi; ++i) {
                    acc += x[i];
                    y[i] = acc;
                }
            });
        });
        const double t_stream = median_ms([&] {
            on_threads(T, n, [&](std::size_t lo, std::size_t hi) {
                alignas(64) int buf[2048];
                int acc = 0;
                for (std::size_t b = lo; b < hi; b += 2048) {
                    const std::size_t e = std::min(hi, b + 2048);
                    for (std::size_t i = b; i < e; ++i) {
                        acc += x[i];
                        buf[i - b] = acc;
                    }
                    stream_copy(y.data() + b, buf, (e - b) * sizeof(int));
                }
                stream_fence();
            });
        });
        const double t_sweep = median_ms([&] {
            sweep::inclusive_scan(sweep::par.threads(T), x.begin(), x.end(), y.begin());
        });
        std::printf("| %d | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f%% | %.1f%% | %.1f%% |\n", T,
                    rw / t_copy, rw / 2 / t_read, rw / t_plain, rw / t_stream, rw / t_sweep,
                    100 * t_copy / t_plain, 100 * t_copy / t_stream, 100 * t_copy / t_sweep);
        std::fflush(stdout);
    }
    long long keep = 0;
    for (const long long s : sums) keep += s;
    std::printf("(checksum %lld)\n", keep);
}
