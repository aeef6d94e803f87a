// test/gpu/partition_exchange.cu -- the unstable in-place partition's exchange pass
// (kernels/swap_partition_kernels.cuh, dispatch/compaction.cuh run_swap_partition) forced at every
// size (sweep::partition takes it from 2^24 elements on raw pointers), against seq: at the edges
// of its tile and of its cleanup (one block, a few tiles a block, many), for selectivities
// 0/1/50/99/100 %, random runs, and inputs already partitioned, reversed and alternating. The
// result must be a partition (kept elements first, at the point seq finds) and a permutation of
// the input; guard elements before and after the range must stay untouched.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <string>
#include <vector>

#include <sweep/partition.hpp>
#include <sweep/backend/cuda/dispatch/compaction.cuh>

#include "catch.hpp"
#include "compaction_matrix.hpp"
#include "gpu_support.hpp"
#include "random.hpp"

using namespace sweep_gpu_test;

namespace {

namespace cu = sweep::detail::cuda;

struct three32 {
    std::int32_t a, b, c;
};
struct wide40 {
    std::int64_t w[5];
};
struct wide80 {  // two tiles do not fit in shared memory: the stable pass serves it
    std::int64_t w[10];
};

template <class T>
std::vector<std::int64_t> exchange_sizes() {
    const std::int64_t t = cu::swap_partition_geometry<T>::tile;
    std::vector<std::int64_t> s;
    for (const std::int64_t n :
         {std::int64_t{1}, std::int64_t{2}, t - 1, t, t + 1, 2 * t - 1, 2 * t, 2 * t + 1,
          8 * t - 1, 8 * t, 8 * t + 1, 16 * t + 1, 37 * t + 11, 1000 * t + 5,
          std::int64_t{3'000'017}})
        if (n <= max_test_size()) s.push_back(n);
    return s;
}

constexpr std::int64_t guard = 64;

/// One input through the exchange pass (min_n = 1) against seq.
template <class T>
void check_exchange(const std::vector<T>& h, keep_percent pred, const std::string& what) {
    const auto n = static_cast<std::int64_t>(h.size());
    INFO(what << ", n = " << n);
    auto stable = h;
    const std::int64_t k =
        sweep::stable_partition(sweep::seq, stable.begin(), stable.end(), pred) - stable.begin();
    device_vector<T> buf(h.size() + 2 * guard);  // poisoned
    REQUIRE(cudaMemcpy(buf.data() + guard, h.data(), h.size() * sizeof(T),
                       cudaMemcpyHostToDevice) == cudaSuccess);
    const auto alloc = cu::make_temp_allocator<sweep::default_resource>(nullptr);
    using tuning = cu::default_compaction_tuning<T>;
    T* const range = buf.data() + guard;
    const std::int64_t got_k = cu::run_partition_unstable_in_place<tuning>(
        "partition", static_cast<const T*>(range), range, n, pred, nullptr, alloc, 1);
    CHECK(got_k == k);
    const auto all = buf.download();
    CHECK(poisoned(all.data(), guard));
    CHECK(poisoned(all.data() + guard + n, guard));
    const std::vector<T> got(all.begin() + guard, all.begin() + guard + n);
    CHECK(is_partition_of(got, h, k, pred));
}

template <class T>
void check_exchange_type(std::uint64_t salt) {
    for (const std::int64_t n : exchange_sizes<T>()) {
        auto g = sweep_test::rng(salt * 1000003 + static_cast<std::uint64_t>(n));
        const auto h = random_inputs<T>(n, g);
        for (const unsigned pct : {0u, 1u, 50u, 99u, 100u})
            check_exchange(h, keep_percent{pct}, "keep " + std::to_string(pct) + " %");
        for (const std::int64_t max_run : {std::int64_t{40}, std::int64_t{5000}}) {
            const auto hr = inputs_with_flags<T>(random_runs(n, max_run, g), g);
            check_exchange(hr, keep_percent{50}, "random runs of up to " + std::to_string(max_run));
        }
        // Flags by position: already partitioned (nothing misplaced), reversed (everything
        // misplaced), alternating, and kept only in the last tenth.
        const std::vector<std::string> names = {"already partitioned", "reversed", "alternating",
                                                "kept in the last tenth"};
        for (int shape = 0; shape < 4; ++shape) {
            std::vector<bool> flags(static_cast<std::size_t>(n));
            for (std::int64_t i = 0; i < n; ++i)
                flags[i] = shape == 0   ? i < n / 3
                           : shape == 1 ? i >= n / 3
                           : shape == 2 ? i % 2 == 0
                                        : i >= n - n / 10;
            check_exchange(inputs_with_flags<T>(flags, g), keep_percent{50}, names[shape]);
        }
    }
}

}  // namespace

TEST_CASE("gpu partition exchange pass: int8, int16", "[gpu][compaction][exchange]") {
    check_exchange_type<std::int8_t>(1);
    check_exchange_type<std::int16_t>(2);
}

TEST_CASE("gpu partition exchange pass: int32, float", "[gpu][compaction][exchange]") {
    check_exchange_type<std::int32_t>(3);
    check_exchange_type<float>(4);
}

TEST_CASE("gpu partition exchange pass: int64, double", "[gpu][compaction][exchange]") {
    check_exchange_type<std::int64_t>(5);
    check_exchange_type<double>(6);
}

TEST_CASE("gpu partition exchange pass: 12- and 40-byte structs; an 80-byte struct falls back",
          "[gpu][compaction][exchange]") {
    STATIC_REQUIRE(cu::swap_partition_geometry<three32>::fits);
    STATIC_REQUIRE(cu::swap_partition_geometry<wide40>::fits);
    STATIC_REQUIRE_FALSE(cu::swap_partition_geometry<wide80>::fits);
    check_exchange_type<three32>(7);
    check_exchange_type<wide40>(8);
    auto g = sweep_test::rng(9);
    for (const std::int64_t n : {std::int64_t{1}, std::int64_t{5000}, std::int64_t{70'001}}) {
        const auto h = random_inputs<wide80>(std::min(n, max_test_size()), g);
        check_exchange(h, keep_percent{50}, "80-byte struct (the stable pass)");
    }
}

TEST_CASE("gpu partition: the public call takes the exchange pass from 2^24 elements",
          "[gpu][compaction][exchange]") {
    // Many elements misplaced at both ends: kept values at the back, rejected at the front.
    STATIC_REQUIRE(cu::swap_partition_min_n == std::int64_t{1} << 24);
    const std::int64_t n = std::min((std::int64_t{1} << 24) + 12345, max_test_size());
    auto g = sweep_test::rng(10);
    std::vector<bool> flags(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) flags[i] = i >= n / 2 ? (g() % 10) != 0 : (g() % 10) == 0;
    const auto h = inputs_with_flags<std::int32_t>(flags, g);
    const keep_percent pred{50};
    const auto k = std::count_if(h.begin(), h.end(), [&](std::int32_t x) { return pred(x); });
    device_vector<std::int32_t> a(h);
    CHECK(sweep::partition(sweep::gpu, a.begin(), a.end(), pred) - a.begin() == k);
    CHECK(is_partition_of(a.download(), h, k, pred));
}

TEST_CASE("gpu partition with .deterministic(): the stable result, also past 2^24",
          "[gpu][compaction][exchange][deterministic]") {
    // API.md: under .deterministic() every policy gives seq's result, the stable one; the
    // exchange pass (not reproducible run to run) is not taken.
    const std::int64_t n = std::min((std::int64_t{1} << 24) + 777, max_test_size());
    auto g = sweep_test::rng(12);
    const auto h = random_inputs<std::int32_t>(n, g);
    const keep_percent pred{50};
    auto want = h;
    const auto k =
        sweep::stable_partition(sweep::seq, want.begin(), want.end(), pred) - want.begin();
    device_vector<std::int32_t> a(h);
    CHECK(sweep::partition(sweep::gpu.deterministic(), a.begin(), a.end(), pred) - a.begin() == k);
    CHECK(a.download() == want);
}

TEST_CASE("gpu partition exchange pass: a range not 16-byte aligned takes the stable pass",
          "[gpu][compaction][exchange]") {
    // The copy engine fetches whole aligned tiles; one int32 past an aligned start is not.
    const std::int64_t n = std::min(std::int64_t{300'001}, max_test_size());
    auto g = sweep_test::rng(11);
    const auto h = random_inputs<std::int32_t>(n, g);
    const keep_percent pred{50};
    auto stable = h;
    const auto k = sweep::stable_partition(sweep::seq, stable.begin(), stable.end(), pred) -
                   stable.begin();
    device_vector<std::int32_t> buf(h.size() + 1);
    REQUIRE(cudaMemcpy(buf.data() + 1, h.data(), h.size() * sizeof(std::int32_t),
                       cudaMemcpyHostToDevice) == cudaSuccess);
    const auto alloc = cu::make_temp_allocator<sweep::default_resource>(nullptr);
    using tuning = cu::default_compaction_tuning<std::int32_t>;
    std::int32_t* const range = buf.data() + 1;
    CHECK(cu::run_partition_unstable_in_place<tuning>("partition",
                                                      static_cast<const std::int32_t*>(range),
                                                      range, n, pred, nullptr, alloc, 1) == k);
    const auto all = buf.download();
    CHECK(std::vector<std::int32_t>(all.begin() + 1, all.end()) == stable);  // the stable result
}

namespace {
/// Hands out nothing: every allocation fails.
struct no_memory {
    void* allocate(std::size_t, std::size_t, cudaStream_t) { return nullptr; }
    void deallocate(void*, std::size_t, std::size_t, cudaStream_t) {}
};
}  // namespace

TEST_CASE("gpu partition exchange pass: no temporary memory -> bad_alloc, range unchanged",
          "[gpu][compaction][exchange][errors]") {
    // The pass allocates everything (records, dirty list, cleanup room) before it starts.
    const std::int64_t n = std::min(std::int64_t{1'000'003}, max_test_size());
    auto g = sweep_test::rng(13);
    const auto h = random_inputs<std::int32_t>(n, g);
    device_vector<std::int32_t> a(h);
    no_memory none;
    const auto alloc = cu::make_temp_allocator<no_memory>(&none);
    using tuning = cu::default_compaction_tuning<std::int32_t>;
    CHECK_THROWS_AS(cu::run_partition_unstable_in_place<tuning>(
                        "partition", static_cast<const std::int32_t*>(a.data()), a.data(), n,
                        keep_percent{50}, nullptr, alloc, 1),
                    std::bad_alloc);
    CHECK(a.download() == h);
}

TEST_CASE("gpu partition exchange pass: the result through the mapped slot, or without it",
          "[gpu][compaction][exchange]") {
    // ctest runs this executable twice: as is (the partition point comes back through the
    // thread's page-locked mapped slot) and as test_gpu_partition_exchange_no_mapped_slot with
    // SWEEP_TEST_NO_MAPPED_SLOT=1 (no slot: through the header's result word and a copy). Every
    // other case of the file then runs on that path too; this one says which path it is.
    const char* e = std::getenv("SWEEP_TEST_NO_MAPPED_SLOT");
    const bool off = e != nullptr && e[0] != '\0' && !(e[0] == '0' && e[1] == '\0');
    INFO("SWEEP_TEST_NO_MAPPED_SLOT " << (off ? "set" : "not set"));
    CHECK((cu::mapped_count_slot() == nullptr) == off);
    auto g = sweep_test::rng(14);
    const std::int64_t t = cu::swap_partition_geometry<std::int32_t>::tile;
    for (const std::int64_t n : {std::int64_t{1}, 8 * t + 1, std::int64_t{3'000'017}}) {
        if (n > max_test_size()) continue;
        check_exchange(random_inputs<std::int32_t>(n, g), keep_percent{50},
                       off ? "without the mapped slot" : "through the mapped slot");
    }
}
