// test/gpu/concurrency.cu -- the GPU backend called from 8 host threads at once (issue 9): each
// thread calls every GPU algorithm in a loop on its own data (sizes and seeds differ per thread
// and round) and checks every result against seq. Once with a stream per thread, once with one
// stream shared by all threads; half the calls take the default pool, half a user resource.
//
// SWEEP_TEST_MAX_N caps the sizes (runs under compute-sanitizer).
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <sweep/sweep.hpp>

#include "catch.hpp"
#include "gpu_support.hpp"
#include "random.hpp"

using namespace sweep_gpu_test;

namespace {

std::int64_t max_n() {
    const char* e = std::getenv("SWEEP_TEST_MAX_N");
    return e != nullptr ? std::atoll(e) : std::int64_t{1} << 62;
}

struct counting_resource {
    std::atomic<long> live{0}, calls{0};
    void* allocate(std::size_t bytes, std::size_t, cudaStream_t s) {
        void* p = nullptr;
        if (cudaMallocAsync(&p, bytes, s) != cudaSuccess) return nullptr;
        ++live;
        ++calls;
        return p;
    }
    void deallocate(void* p, std::size_t, std::size_t, cudaStream_t s) {
        cudaFreeAsync(p, s);
        --live;
    }
};

struct pred_mod3 {
    __host__ __device__ bool operator()(std::int64_t x) const { return x % 3 == 0; }
};

/// A device buffer whose copies go through stream `s` (the tests' streams are non-blocking: the
/// legacy stream's cudaMemcpy would not wait for them).
template <class T>
struct sbuf {
    T* p = nullptr;
    std::size_t n;
    cudaStream_t s;
    sbuf(std::size_t n_, cudaStream_t s_) : n(n_), s(s_) {
        cuda_ok(cudaMallocAsync(&p, (n ? n : 1) * sizeof(T), s), "cudaMallocAsync");
        cuda_ok(cudaMemsetAsync(p, 0xA5, n * sizeof(T), s), "memset");
    }
    sbuf(const std::vector<T>& h, cudaStream_t s_) : sbuf(h.size(), s_) {
        cuda_ok(cudaMemcpyAsync(p, h.data(), n * sizeof(T), cudaMemcpyHostToDevice, s), "H2D");
        cuda_ok(cudaStreamSynchronize(s), "sync");
    }
    ~sbuf() { cudaFreeAsync(p, s); }
    std::vector<T> get() const {
        std::vector<T> h(n);
        cuda_ok(cudaMemcpyAsync(h.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost, s), "D2H");
        cuda_ok(cudaStreamSynchronize(s), "sync");
        return h;
    }
    T* begin() const { return p; }
    T* end() const { return p + n; }
};

std::mutex report_mutex;
// SWEEP_TEST_SERIALIZE=1 (sanitizer runs only): the threads take turns, a round each, so that no
// two launch at the same moment (racecheck's "failure to track a kernel launch" when several
// threads launch into one stream, docs/reliability.md); the rounds still interleave on the stream.
std::mutex turn_mutex;
const bool serialize_rounds = sweep_test::test_knob("SWEEP_TEST_SERIALIZE", 0) != 0;

#ifdef SWEEP_HAS_GPU_RADIX_SORT
constexpr long calls_per_round = 10;
#else
constexpr long calls_per_round = 9;
#endif

/// One thread's loop. Returns the number of wrong results (each reported with its seed).
template <class P>
int worker(int t, int rounds, cudaStream_t s, P pol_default, counting_resource& res,
           std::atomic<long>& calls) {
    int wrong = 0;
    auto report = [&](const char* what, std::int64_t n, std::uint64_t salt) {
        std::lock_guard<std::mutex> lock(report_mutex);
        std::printf("FAIL thread %d: %s, n = %lld, salt %llu (seed %llu)\n", t, what,
                    static_cast<long long>(n), static_cast<unsigned long long>(salt),
                    static_cast<unsigned long long>(sweep_test::seed()));
        ++wrong;
    };
    for (int round = 0; round < rounds; ++round) {
        std::unique_lock<std::mutex> turn(turn_mutex, std::defer_lock);
        if (serialize_rounds) turn.lock();  // the whole round: its buffers' set-up too
        const std::uint64_t salt = 10000 + 100 * static_cast<std::uint64_t>(t) + static_cast<std::uint64_t>(round);
        auto g = sweep_test::rng(salt);
        std::int64_t n = 1 + static_cast<std::int64_t>(g() % (std::uint64_t{1} << (round % 2 ? 21 : 14)));
        n = std::min(n, max_n());
        const auto N = static_cast<std::size_t>(n);
        std::vector<std::int64_t> h(N), keys(N);
        std::vector<std::uint8_t> flags(N);
        std::vector<std::int64_t> offs{0};
        for (std::size_t i = 0; i < N; ++i) {
            h[i] = static_cast<std::int64_t>(g() % 2001) - 1000;
            const bool head = i == 0 || g() % 97 == 0;
            keys[i] = i == 0 ? 0 : keys[i - 1] + (head ? 1 : 0);
            flags[i] = head;
            if (head && i > 0) offs.push_back(static_cast<std::int64_t>(i));
        }
        offs.push_back(n);
        sbuf<std::int64_t> in(h, s), k(keys, s), out(N, s), out2(N, s), o(offs, s);
        sbuf<std::uint8_t> f(flags, s);
        std::vector<std::int64_t> want(N), want2(N);
        auto run = [&](const auto& pol) {
            // Scans (asynchronous with .on(s): read back through the stream).
            sweep::inclusive_scan(pol, in.begin(), in.end(), out.begin());
            sweep::inclusive_scan(sweep::seq, h.begin(), h.end(), want.begin());
            if (out.get() != want) report("inclusive_scan", n, salt);
            sweep::exclusive_scan(pol, in.begin(), in.end(), out.begin(), std::int64_t{7},
                                  sweep::maximum<>{});
            sweep::exclusive_scan(sweep::seq, h.begin(), h.end(), want.begin(), std::int64_t{7},
                                  sweep::maximum<>{});
            if (out.get() != want) report("exclusive_scan(max)", n, salt);
            // Compaction (synchronizes the stream before returning).
            const auto e = sweep::copy_if(pol, in.begin(), in.end(), out.begin(), pred_mod3{});
            const auto we = sweep::copy_if(sweep::seq, h.begin(), h.end(), want.begin(), pred_mod3{});
            const auto got = out.get();
            if (e - out.begin() != we - want.begin() ||
                !std::equal(want.begin(), we, got.begin()))
                report("copy_if", n, salt);
            const auto [et, ef] = sweep::partition_copy(pol, in.begin(), in.end(), out.begin(),
                                                        out2.begin(), pred_mod3{});
            const auto [wt, wf] = sweep::partition_copy(sweep::seq, h.begin(), h.end(),
                                                        want.begin(), want2.begin(), pred_mod3{});
            const auto g1 = out.get(), g2 = out2.get();
            if (et - out.begin() != wt - want.begin() || ef - out2.begin() != wf - want2.begin() ||
                !std::equal(want.begin(), wt, g1.begin()) || !std::equal(want2.begin(), wf, g2.begin()))
                report("partition_copy", n, salt);
            {
                sbuf<std::int64_t> r(h, s);
                auto stable = h;
                const auto m = sweep::stable_partition(pol, r.begin(), r.end(), pred_mod3{});
                const auto wm = sweep::stable_partition(sweep::seq, stable.begin(), stable.end(), pred_mod3{});
                if (m - r.begin() != wm - stable.begin() || r.get() != stable)
                    report("stable_partition", n, salt);
                sbuf<std::int64_t> r2(h, s);
                const auto m2 = sweep::partition(pol, r2.begin(), r2.end(), pred_mod3{});
                // Unstable from 2^24 elements: the kept ones first, and a permutation.
                auto got2 = r2.get();
                const auto k2 = m2 - r2.begin();
                bool ok2 = k2 == wm - stable.begin();
                for (std::int64_t i = 0; ok2 && i < static_cast<std::int64_t>(got2.size()); ++i)
                    ok2 = pred_mod3{}(got2[i]) == (i < k2);
                auto sorted_in = h;
                std::sort(got2.begin(), got2.end());
                std::sort(sorted_in.begin(), sorted_in.end());
                if (!ok2 || got2 != sorted_in) report("partition", n, salt);
            }
            // Segmented scans.
            sweep::inclusive_scan_by_key(pol, k.begin(), k.end(), in.begin(), out.begin());
            sweep::inclusive_scan_by_key(sweep::seq, keys.begin(), keys.end(), h.begin(), want.begin());
            if (out.get() != want) report("inclusive_scan_by_key", n, salt);
            sweep::segmented_exclusive_scan(pol, in.begin(), in.end(), out.begin(),
                                            sweep::offsets(o.begin(), o.end()), std::int64_t{3});
            sweep::segmented_exclusive_scan(sweep::seq, h.begin(), h.end(), want.begin(),
                                            sweep::offsets(offs.begin(), offs.end()), std::int64_t{3});
            if (out.get() != want) report("segmented_exclusive_scan(offsets)", n, salt);
            sweep::segmented_inclusive_scan(pol, in.begin(), in.end(), out.begin(),
                                            sweep::head_flags(f.begin()), sweep::plus<>{});
            sweep::segmented_inclusive_scan(sweep::seq, h.begin(), h.end(), want.begin(),
                                            sweep::head_flags(flags.begin()), sweep::plus<>{});
            if (out.get() != want) report("segmented_inclusive_scan(flags)", n, salt);
#ifdef SWEEP_HAS_GPU_RADIX_SORT
            {
                sbuf<std::int64_t> r(h, s);
                auto sorted = h;
                sweep::radix_sort(pol, r.begin(), r.end());
                sweep::radix_sort(sweep::seq, sorted.begin(), sorted.end());
                if (r.get() != sorted) report("radix_sort", n, salt);
            }
#endif
            calls += calls_per_round;
        };
        if (round % 2) run(pol_default.with(res));
        else run(pol_default);
    }
    return wrong;
}

template <class MakeStream>
void run_threads(int threads, int rounds, MakeStream stream_of, counting_resource& res) {
    std::vector<std::thread> pool;
    std::atomic<int> wrong{0};
    std::atomic<int> errors{0};
    std::atomic<long> calls{0};
    for (int t = 0; t < threads; ++t) {
        pool.emplace_back([&, t] {
            try {
                cudaStream_t s = stream_of(t);
                wrong += worker(t, rounds, s, sweep::gpu.on(s), res, calls);
            } catch (const std::exception& e) {
                std::lock_guard<std::mutex> lock(report_mutex);
                std::printf("FAIL thread %d threw: %s\n", t, e.what());
                ++errors;
            }
        });
    }
    for (auto& th : pool) th.join();
    std::printf("%d threads x %d rounds: %ld algorithm calls checked, %d wrong, %d exceptions\n",
                threads, rounds, calls.load(), wrong.load(), errors.load());
    CHECK(wrong == 0);
    CHECK(errors == 0);
    CHECK(calls == static_cast<long>(threads) * rounds * calls_per_round);
}

}  // namespace

TEST_CASE("gpu concurrency: 8 host threads, a stream each, every algorithm", "[gpu][concurrency]") {
    const int threads = sweep_test::test_threads(8);  // SWEEP_TEST_THREADS (sanitizer runs)
    std::vector<cudaStream_t> streams(static_cast<std::size_t>(threads));
    for (auto& s : streams) cuda_ok(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "stream");
    counting_resource res;
    // At least two rounds: the odd ones take the user resource.
    run_threads(threads, std::max(2, sweep_test::test_rounds(6)),
                [&](int t) { return streams[static_cast<std::size_t>(t)]; }, res);
    for (auto& s : streams) cudaStreamDestroy(s);
    CHECK(res.live == 0);
    CHECK(res.calls > 0);
}

TEST_CASE("gpu concurrency: 8 host threads sharing one stream, every algorithm",
          "[gpu][concurrency]") {
    cudaStream_t shared;
    cuda_ok(cudaStreamCreateWithFlags(&shared, cudaStreamNonBlocking), "stream");
    counting_resource res;
    run_threads(std::max(2, sweep_test::test_threads(8)), std::max(2, sweep_test::test_rounds(6)),
                [&](int) { return shared; }, res);
    cudaStreamDestroy(shared);
    CHECK(res.live == 0);
    CHECK(res.calls > 0);
}
