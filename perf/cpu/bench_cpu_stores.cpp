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
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include <sweep/scan.hpp>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define SWEEP_BENCH_HAS_STREAM 1
#else
#define SWEEP_BENCH_HAS_STREAM 0
#endif

namespace {

void stream_out(int* to, const int* from, std::size_t count) {
#if SWEEP_BENCH_HAS_STREAM
    auto* d = reinterpret_cast<unsigned char*>(to);
    const auto* s = reinterpret_cast<const unsigned char*>(from);
    std::size_t bytes = count * sizeof(int);
    const std::size_t head = (64 - reinterpret_cast<std::uintptr_t>(d) % 64) % 64;
    if (bytes < head + 64) {
        std::memcpy(d, s, bytes);
        return;
    }
    std::memcpy(d, s, head);
    d += head;
    s += head;
    bytes -= head;
    for (; bytes >= 64; bytes -= 64, d += 64, s += 64) {
        const auto* f = reinterpret_cast<const __m128i*>(s);
        auto* t = reinterpret_cast<__m128i*>(d);
        const __m128i a = _mm_loadu_si128(f), b = _mm_loadu_si128(f + 1);
        const __m128i c = _mm_loadu_si128(f + 2), e = _mm_loadu_si128(f + 3);
        _mm_stream_si128(t, a);
        _mm_stream_si128(t + 1, b);
        _mm_stream_si128(t + 2, c);
        _mm_stream_si128(t + 3, e);
    }
    std::memcpy(d, s, bytes);
#else
    std::memcpy(to, from, count * sizeof(int));
#endif
}

template <class F>
double median_ms(F&& f) {
    f();
    std::vector<double> t;
    for (int i = 0; i < 7; ++i) {
        const auto a = std::chrono::steady_clock::now();
        f();
        const auto b = std::chrono::steady_clock::now();
        t.push_back(std::chrono::duration<double, std::milli>(b - a).count());
    }
    std::sort(t.begin(), t.end());
    return t[3];
}

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
                lg, std::thread::hardware_concurrency(), SWEEP_BENCH_HAS_STREAM ? "yes" : "no");
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
                    stream_out(y.data() + b, buf, e - b);
                }
#if SWEEP_BENCH_HAS_STREAM
                _mm_sfence();
#endif
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
