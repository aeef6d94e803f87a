// perf/cpu/radix_leaf_probe.cpp -- diagnostic (built on request): what the par radix sort's leaf
// phase costs per key, and what other leaf shapes would cost, on this host.
//
// After the parallel MSD pass every bucket ("leaf", about 2^16 keys at n = 2^27) is sorted on one
// thread. This probe lays out n keys as leaves of m keys (random in their low b bits, as after an
// 11-bit MSD digit: u32 b = 21, u64 b = 53), written with streaming stores (as the MSD pass leaves
// them), and sorts every leaf into a destination on all threads at once, by each method:
//   lsd11    the library's serial LSD, digits of up to 11 bits, in L2 (the current leaf);
//   lsd8     the same with 8-bit digits;
//   tileK    one split on the top bits into sub-buckets of about 2^K keys (L1), then an 8-bit LSD
//            on each sub-bucket;
//   msdins   one wide split (sub-buckets of about 8 keys), then an insertion sort of each;
//   count2   only the one read that counts two digits (the LSD's first step);
//   pass11   only one 11-bit scatter pass from the leaf into scratch.
// Prints ns per key per thread (median of 5) and checks every sorting method's output.
// Usage: sweep_perf_cpu_radix_leaf_probe [--threads=K] [--n=N]
#include <sweep/backend/tbb/radix_bricks.hpp>

#include <tbb/blocked_range.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace sweep::detail::tbb_backend::radix;

int ceil_log2(std::int64_t x) { return x <= 1 ? 0 : std::bit_width(static_cast<std::uint64_t>(x - 1)); }

template <class U>
struct probe {
    std::int64_t n, m;
    int b;
    std::vector<U> pristine, src, dst;
    int slots;
    std::vector<std::vector<U>> scratch;
    std::vector<std::vector<std::uint32_t>> counts;
    std::vector<std::vector<std::uint32_t>> offs;

    probe(std::int64_t n_, std::int64_t m_, int b_) : n(n_ / m_ * m_), m(m_), b(b_) {
        pristine.resize(static_cast<std::size_t>(n));
        src.resize(pristine.size());
        dst.resize(pristine.size());
        const U mask = b >= int(8 * sizeof(U)) ? U(~U(0)) : U((U(1) << b) - 1);
        tbb::parallel_for(tbb::blocked_range<std::int64_t>(0, n, 1 << 16), [&](const auto& r) {
            std::mt19937_64 g(0x1eaf + static_cast<std::uint64_t>(r.begin()));
            for (std::int64_t i = r.begin(); i != r.end(); ++i)
                pristine[static_cast<std::size_t>(i)] = static_cast<U>(g()) & mask;
        });
        slots = tbb::this_task_arena::max_concurrency() + 1;
        scratch.assign(static_cast<std::size_t>(slots), std::vector<U>(static_cast<std::size_t>(m)));
        counts.assign(static_cast<std::size_t>(slots), std::vector<std::uint32_t>(std::size_t{1} << 17));
        offs.assign(static_cast<std::size_t>(slots), std::vector<std::uint32_t>(std::size_t{1} << 17));
    }

    void restore() {
        tbb::parallel_for(tbb::blocked_range<std::int64_t>(0, n, 1 << 16), [&](const auto& r) {
            stream_copy(src.data() + r.begin(), pristine.data() + r.begin(),
                        static_cast<std::size_t>(r.end() - r.begin()) * sizeof(U));
            stream_fence();
        });
    }

    // Split x[0, len) on bits [lo_bits, hi) into s (offsets relative to s), returning the bounds.
    void split(const bits_side<U, no_value>& x, const bits_side<U, no_value>& s, std::int64_t len,
               digit d, std::uint32_t* cnt, std::uint32_t* bound) {
        std::fill(cnt, cnt + d.radix(), 0u);
        count_digit(x, len, d, cnt);
        std::uint32_t sum = 0;
        for (std::uint32_t j = 0; j < d.radix(); ++j) {
            bound[j] = sum;
            sum += cnt[j];
            cnt[j] = bound[j];
        }
        bound[d.radix()] = sum;
        scatter_digit(x, len, d, s, cnt);
    }

    void leaf(const std::string& how, std::int64_t i, int slot) {
        bits_side<U, no_value> x{src.data() + i * m, nullptr};
        caller_side<U, no_value> c{dst.data() + i * m, nullptr, {}};
        bits_side<U, no_value> s{scratch[static_cast<std::size_t>(slot)].data(), nullptr};
        std::uint32_t* cnt = counts[static_cast<std::size_t>(slot)].data();
        std::uint32_t* bound = offs[static_cast<std::size_t>(slot)].data();
        if (how == "lsd11") {
            serial_lsd<11>(x, c, s, m, 0, b, std::clamp(ceil_log2(m) - 2, 4, 11), cnt, true);
        } else if (how == "lsd8") {
            serial_lsd<8>(x, c, s, m, 0, b, 8, cnt, true);
        } else if (how.rfind("tile", 0) == 0 || how == "msdins") {
            // One split on the top t bits into s, then each sub-bucket: insertion-sorted up to
            // `small` keys, else an 8-bit LSD back into x's place.
            const bool tile = how != "msdins";
            const int t = tile ? std::clamp(ceil_log2(m) - std::stoi(how.substr(4)), 1, b)
                               : std::clamp(ceil_log2(m) - 3, 1, std::min(b, 16));
            const std::int64_t small = tile ? 16 : 48;
            const digit d{b - t, t};
            split(x, s, m, d, cnt, bound);
            for (std::uint32_t j = 0; j < d.radix(); ++j) {
                const std::int64_t lo = bound[j], len = bound[j + 1] - bound[j];
                if (len == 0) continue;
                if (len <= small) insertion_sort(s.at(lo), x.at(lo), c.at(lo), len);
                else serial_lsd<8>(s.at(lo), c.at(lo), x.at(lo), len, 0, b - t, 8, cnt, true);
            }
        } else if (how == "count2") {
            const digit_list dl(0, std::min(b, 22), 11);
            std::fill(cnt, cnt + (2 << 11), 0u);
            count_digits(x, m, dl, 1 << 11, cnt);
        } else if (how == "pass11") {
            const digit d{0, 11};
            std::fill(cnt, cnt + 2048, 0u);
            for (std::int64_t q = 0; q < m; ++q) ++cnt[d.of(x.key(q))];
            scatter_digit(x, m, d, s, to_offsets(cnt, 2048));
        }
    }

    double run(const std::string& how) {
        std::vector<double> t;
        for (int rep = 0; rep < 5; ++rep) {
            restore();
            const auto t0 = std::chrono::steady_clock::now();
            tbb::parallel_for(tbb::blocked_range<std::int64_t>(0, n / m, 1), [&](const auto& r) {
                const int slot = tbb::this_task_arena::current_thread_index();
                for (std::int64_t i = r.begin(); i != r.end(); ++i) leaf(how, i, slot);
            }, tbb::simple_partitioner());
            t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        }
        std::sort(t.begin(), t.end());
        return t[2];
    }

    bool check() {
        std::vector<U> ref(static_cast<std::size_t>(m));
        for (std::int64_t i = 0; i < n / m; i += 97) {
            std::copy(pristine.begin() + i * m, pristine.begin() + (i + 1) * m, ref.begin());
            std::stable_sort(ref.begin(), ref.end());
            if (!std::equal(ref.begin(), ref.end(), dst.begin() + i * m)) return false;
        }
        return true;
    }
};

template <class U>
void table(const char* name, std::int64_t n, std::int64_t m, int b, int threads) {
    probe<U> p(n, m, b);
    std::printf("%s: n = %lld, leaf %lld keys, %d bits, %d threads\n", name,
                static_cast<long long>(p.n), static_cast<long long>(m), b, threads);
    for (const char* how : {"lsd11", "lsd8", "tile11", "tile12", "tile13", "msdins", "count2", "pass11"}) {
        std::fill(p.dst.begin(), p.dst.end(), U(0));
        const double s = p.run(how);
        const bool sorts = std::strcmp(how, "count2") != 0 && std::strcmp(how, "pass11") != 0;
        std::printf("  %-8s %7.2f ms  %6.2f ns/key/thread  %s\n", how, s * 1e3,
                    s * 1e9 * threads / static_cast<double>(p.n),
                    sorts ? (p.check() ? "sorted" : "WRONG") : "");
    }
}

}  // namespace

int main(int argc, char** argv) {
    std::int64_t n = std::int64_t{1} << 27;
    int threads = 0;
    for (int i = 1; i < argc; ++i) {
        if (std::strncmp(argv[i], "--n=", 4) == 0) n = std::atoll(argv[i] + 4);
        else if (std::strncmp(argv[i], "--threads=", 10) == 0) threads = std::atoi(argv[i] + 10);
    }
    std::unique_ptr<tbb::global_control> cap;
    if (threads > 0)
        cap = std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism,
                                                    static_cast<std::size_t>(threads));
    const int t = threads > 0 ? threads : tbb::this_task_arena::max_concurrency();
    table<std::uint32_t>("u32", n, std::int64_t{1} << 16, 21, t);
    table<std::uint64_t>("u64", n, std::int64_t{1} << 16, 53, t);
    table<std::uint64_t>("u64 (leaf 2^15)", n, std::int64_t{1} << 15, 53, t);
    return 0;
}
