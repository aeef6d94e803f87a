// test/gpu/compaction_paths.cu -- both tile paths of the compaction engine against seq: the
// register path (agent/compaction_agent.cuh) and the shared-memory path (agent/
// compaction_bulk_agent.cuh), each forced through the dispatch layer's compaction_path, for
// copy_if, partition_copy and the in-place pass, at the edges of both tiles (the bulk tile is
// 16 KB; the register tile differs for 1-byte values), at the edges of a warp's segment and of a
// 512-byte round inside the last tile, and for selectivities 0/1/50/99/100 % and random runs.
// Outputs are poisoned: nothing may be written past a returned end.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <sweep/copy_if.hpp>
#include <sweep/errors.hpp>
#include <sweep/partition.hpp>
#include <sweep/backend/cuda/dispatch/compaction.cuh>

#include "catch.hpp"
#include "compaction_matrix.hpp"
#include "gpu_support.hpp"
#include "random.hpp"

using namespace sweep_gpu_test;

namespace {

namespace cu = sweep::detail::cuda;

/// An 8-byte struct of two 4-byte fields (alignment 4): moved as one 64-bit word by the bulk path.
struct pair32 {
    std::int32_t a, b;
};

const char* path_name(cu::compaction_path p) {
    return p == cu::compaction_path::registers ? "register path" : "shared-memory (bulk) path";
}

template <class T>
using bulk_agent_of = cu::compaction_bulk_agent<cu::default_compaction_bulk_tuning<T>, const T*,
                                                const T*, T*, T*, keep_percent>;

template <class T>
std::int64_t compaction_bulk_tile_of() {
    return bulk_agent_of<T>::tile_items;
}

template <class T>
std::vector<std::int64_t> path_sizes() {
    const std::int64_t rt = compaction_tile_of<T>();  // the register tile
    const std::int64_t bt = compaction_bulk_tile_of<T>();
    const std::int64_t round = 512 / static_cast<std::int64_t>(sizeof(T));
    const std::int64_t warp = bulk_agent_of<T>::warp_items;  // a warp's segment of the bulk tile
    std::vector<std::int64_t> s;
    for (const std::int64_t n :
         {std::int64_t{1}, std::int64_t{31}, 4 * rt, 4 * rt + 1, bt - 1, bt, bt + 1, 5 * bt - 1,
          5 * bt, 5 * bt + 1, 6 * bt + warp, 6 * bt + warp + 1, 6 * bt + 2 * warp + round - 1,
          6 * bt + 3 * warp + round + 1, 37 * bt + 11, std::int64_t{3'000'017}})
        if (n <= max_test_size()) s.push_back(n);
    return s;
}

/// Whether a pass over n elements of T runs in one block (both paths: the register tiles decide).
template <class T>
bool one_block(std::int64_t n) {
    return n <= cu::single_block_max_tiles * compaction_tile_of<T>();
}

/// After a call with compaction_wait::flag that the flag wait applies to (several blocks, a
/// mapped slot): the handoff kernel ran, i.e. the slot holds the count. A handoff that failed to
/// launch leaves compaction_count_unset there (the pass wrote its count to device memory and the
/// call fell back to the stream wait), which the results alone would not show.
template <class T>
void check_handed_off(std::int64_t n, std::int64_t got) {
    const std::int64_t* const slot = cu::mapped_count_slot();
    if (slot == nullptr || one_block<T>(n)) return;
    CHECK(*static_cast<const volatile std::int64_t*>(slot) == got);
}

/// copy_if, partition_copy and the in-place pass through `path`, against seq.
template <class T>
void check_path(const std::vector<T>& h, keep_percent pred, cu::compaction_path path,
                const std::string& what) {
    const auto n = static_cast<std::int64_t>(h.size());
    const std::size_t slack = 33;
    INFO(path_name(path) << ", " << what << ", n = " << n << " (bulk tile " << compaction_bulk_tile_of<T>()
                         << ", register tile " << compaction_tile_of<T>() << ")");
    std::vector<T> want(h.size()), want_f(h.size()), stable = h;
    const auto k =
        sweep::copy_if(sweep::seq, h.begin(), h.end(), want.begin(), pred) - want.begin();
    sweep::partition_copy(sweep::seq, h.begin(), h.end(), want.begin(), want_f.begin(), pred);
    sweep::stable_partition(sweep::seq, stable.begin(), stable.end(), pred);

    device_vector<T> in(h), out(h.size() + slack), out2(h.size() + slack), range(h);
    const auto alloc = cu::make_temp_allocator<sweep::default_resource>(nullptr);
    const T* src = in.data();
    using tuning = cu::default_compaction_tuning<T>;
    // Both ways of bringing the count back (compaction_wait): the stream synchronization and
    // the handoff kernel's flag, each on outputs poisoned again.
    for (const auto wait : {cu::compaction_wait::stream, cu::compaction_wait::flag}) {
        INFO((wait == cu::compaction_wait::flag ? "count handed back by the flag kernel"
                                                : "count after a stream synchronization"));
        {
            INFO("copy_if");
            out.poison();
            const std::int64_t got_k = cu::run_compaction<tuning>(
                "copy_if", src, src, true, out.data(), out.data(), false, false, n, pred, nullptr,
                alloc, path, nullptr, cu::compaction_l2_hint::automatic, wait);
            REQUIRE(got_k == k);
            if (wait == cu::compaction_wait::flag) check_handed_off<T>(n, got_k);
            const auto got = out.download();
            check_kept(got, want, k);
        }
        {
            INFO("partition_copy");
            out.poison();
            out2.poison();
            const std::int64_t got_k = cu::run_compaction<tuning>(
                "partition_copy", src, src, true, out.data(), out2.data(), true, false, n, pred,
                nullptr, alloc, path, nullptr, cu::compaction_l2_hint::automatic, wait);
            REQUIRE(got_k == k);
            if (wait == cu::compaction_wait::flag) check_handed_off<T>(n, got_k);
            const auto got_t = out.download();
            const auto got_f = out2.download();
            check_split(got_t, got_f, want, want_f, n, k);
        }
    }
    {
        INFO("stable_partition in place");
        const std::int64_t got_k = cu::run_partition_in_place<tuning>(
            "stable_partition", static_cast<const T*>(range.data()), range.data(), n, pred,
            nullptr, alloc, path);
        CHECK(got_k == k);
        const auto got = range.download();
        CHECK(same_bits(got.data(), stable.data(), stable.size()));
    }
}

template <class T>
void check_paths(std::uint64_t salt) {
    for (const auto path : {cu::compaction_path::registers, cu::compaction_path::bulk}) {
        for (const std::int64_t n : path_sizes<T>()) {
            auto g = sweep_test::rng(salt * 1000003 + static_cast<std::uint64_t>(n));
            const auto h = random_inputs<T>(n, g);
            for (const unsigned pct : {0u, 1u, 50u, 99u, 100u})
                check_path(h, keep_percent{pct}, path, "keep " + std::to_string(pct) + " %");
            for (const std::int64_t max_run : {std::int64_t{40}, std::int64_t{5000}}) {
                const auto hr = inputs_with_flags<T>(random_runs(n, max_run, g), g);
                check_path(hr, keep_percent{50}, path,
                           "random runs of up to " + std::to_string(max_run));
            }
        }
    }
}

}  // namespace

TEST_CASE("gpu compaction paths: the device has the copy engine the bulk path needs",
          "[gpu][compaction][paths]") {
    // Otherwise compaction_path::bulk falls back to the register path, and the cases below would
    // test that path twice.
    int device = 0, major = 0;
    cuda_ok(cudaGetDevice(&device), "cudaGetDevice");
    cuda_ok(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device), "attr");
    INFO("compute capability major " << major << ": cp.async.bulk needs sm_90");
    CHECK(major >= 9);
}

TEST_CASE("gpu compaction paths: int8, int16", "[gpu][compaction][paths]") {
    check_paths<std::int8_t>(101);
    check_paths<std::uint16_t>(102);
}

TEST_CASE("gpu compaction paths: int32, float", "[gpu][compaction][paths]") {
    check_paths<std::int32_t>(103);
    check_paths<float>(104);
}

TEST_CASE("gpu compaction paths: int64, double, an 8-byte struct", "[gpu][compaction][paths]") {
    check_paths<std::uint64_t>(105);
    check_paths<double>(106);
    check_paths<pair32>(107);
}

TEST_CASE("gpu compaction paths: an input that is not 16-byte aligned takes the register path",
          "[gpu][compaction][paths]") {
    // One element past a cudaMalloc'd base: 4-byte aligned, not 16. compaction_path::bulk must
    // fall back (cp.async.bulk needs 16-byte aligned addresses) and still be right.
    auto g = sweep_test::rng(108);
    const std::int64_t n = 5 * compaction_bulk_tile_of<std::int32_t>() + 3;
    const auto h = random_inputs<std::int32_t>(n + 1, g);
    const std::vector<std::int32_t> tail(h.begin() + 1, h.end());
    const keep_percent pred{50};
    std::vector<std::int32_t> want(tail.size());
    const auto k = sweep::copy_if(sweep::seq, tail.begin(), tail.end(), want.begin(), pred) -
                   want.begin();
    device_vector<std::int32_t> in(h), out(tail.size());
    const auto alloc = cu::make_temp_allocator<sweep::default_resource>(nullptr);
    const std::int32_t* src = in.data() + 1;
    const std::int64_t got_k = cu::run_compaction<cu::default_compaction_tuning<std::int32_t>>(
        "copy_if", src, src, true, out.data(), out.data(), false, false, n, pred, nullptr, alloc,
        cu::compaction_path::bulk);
    REQUIRE(got_k == k);
    const auto got = out.download();
    CHECK(same_bits(got.data(), want.data(), static_cast<std::size_t>(k)));
}

TEST_CASE("gpu compaction paths: the in-place pass runs mirrored when few are kept",
          "[gpu][compaction][paths][inplace]") {
    // The pass by hand (as run_partition_in_place does it): with 1 % kept the sample must choose
    // the mirrored direction (rejected elements in place at the range's end, kept ones in the
    // temporary's last k slots), with 99 % the forward one; both against seq.
    using tuning = cu::default_compaction_tuning<std::int32_t>;
    const auto alloc = cu::make_temp_allocator<sweep::default_resource>(nullptr);
    const std::int64_t n = std::min<std::int64_t>(37 * compaction_bulk_tile_of<std::int32_t>() + 11,
                                                   max_test_size());
    if (n <= 4 * compaction_tile_of<std::int32_t>()) {
        WARN("skipped: SWEEP_TEST_MAX_N leaves only the single-block sizes");
        return;
    }
    auto g = sweep_test::rng(109);
    for (const unsigned pct : {1u, 99u}) {
        const auto h = random_inputs<std::int32_t>(n, g);
        const keep_percent pred{pct};
        std::vector<std::int32_t> want_t(h.size()), want_f(h.size());
        const auto [et, ef] = sweep::partition_copy(sweep::seq, h.begin(), h.end(), want_t.begin(),
                                                    want_f.begin(), pred);
        const std::int64_t k = et - want_t.begin();
        (void)ef;
        device_vector<std::int32_t> range(h), temp(h.size());
        bool mirrored = false;
        const std::int64_t got_k = cu::run_compaction<tuning>(
            "stable_partition", static_cast<const std::int32_t*>(range.data()),
            static_cast<const std::int32_t*>(range.data()), true, range.data(), temp.data(), true,
            true, n, pred, nullptr, alloc, cu::compaction_path::bulk, &mirrored);
        INFO("keep " << pct << " %, n = " << n << ", k = " << k);
        REQUIRE(got_k == k);
        CHECK(mirrored == (pct < 50));
        const auto r = range.download();
        const auto t = temp.download();
        if (mirrored) {
            CHECK(same_bits(t.data() + (n - k), want_t.data(), static_cast<std::size_t>(k)));
            CHECK(same_bits(r.data() + k, want_f.data(), static_cast<std::size_t>(n - k)));
        } else {
            CHECK(same_bits(r.data(), want_t.data(), static_cast<std::size_t>(k)));
            CHECK(same_bits(t.data(), want_f.data(), static_cast<std::size_t>(n - k)));
        }
    }
}

TEST_CASE("gpu compaction paths: partition_copy of 4-byte values on either side of the size where "
          "it moves to the shared-memory path",
          "[gpu][compaction][paths]") {
    // The public call (compaction_path::automatic): below partition_copy_bulk_min_n<4> the register
    // path, from it on the shared-memory path (tuning/compaction_tuning.cuh), both against seq.
    auto g = sweep_test::rng(110);
    constexpr std::int64_t from = cu::partition_copy_bulk_min_n<4>;
    for (const std::int64_t n : {from - 1, from, from + 3 * 4096 + 7}) {
        if (n > max_test_size()) {
            WARN("skipped: SWEEP_TEST_MAX_N is below " << n);
            continue;
        }
        const auto h = random_inputs<std::int32_t>(n, g);
        for (const unsigned pct : {10u, 50u}) {
            INFO("n = " << n << ", keep " << pct << " %");
            const keep_percent pred{pct};
            std::vector<std::int32_t> want_t(h.size()), want_f(h.size());
            const auto [et, ef] = sweep::partition_copy(sweep::seq, h.begin(), h.end(),
                                                        want_t.begin(), want_f.begin(), pred);
            const std::int64_t k = et - want_t.begin();
            REQUIRE(ef - want_f.begin() == n - k);
            device_vector<std::int32_t> in(h), out_t(h.size() + 33), out_f(h.size() + 33);
            const auto [gt, gf] = sweep::partition_copy(sweep::gpu, in.data(), in.data() + n,
                                                        out_t.data(), out_f.data(), pred);
            REQUIRE(gt - out_t.data() == k);
            REQUIRE(gf - out_f.data() == n - k);
            const auto got_t = out_t.download();
            const auto got_f = out_f.download();
            check_split(got_t, got_f, want_t, want_f, n, k);
        }
    }
}

namespace {

/// A non-blocking stream.
struct owned_stream {
    cudaStream_t s = nullptr;
    owned_stream() { cuda_ok(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "stream"); }
    ~owned_stream() {
        (void)cudaStreamSynchronize(s);
        cudaStreamDestroy(s);
    }
    owned_stream(const owned_stream&) = delete;
    owned_stream& operator=(const owned_stream&) = delete;
};

}  // namespace

TEST_CASE("gpu compaction paths: every output is in place when the call returns",
          "[gpu][compaction][paths][publish]") {
    // API.md: copy_if and partition_copy on a stream synchronize it before they return. Their
    // outputs are read at once, with nothing that waits for the kernel: by the host through
    // managed memory, and by a copy on another non-blocking stream. Every element must be there
    // (the poison would show through). Session 24 tried returning as soon as the block that
    // finishes last had published the count (perf/notes-gpu.md C6, not kept); this test was
    // written for it and guards any such change. Both waits of compaction_wait (session 29: the
    // flag, a dependent kernel that hands the count over once the pass's grid is complete).
    using T = std::int32_t;
    using tuning = cu::default_compaction_tuning<T>;
    const auto alloc = cu::make_temp_allocator<sweep::default_resource>(nullptr);
    int dev = 0, concurrent = 0;
    cuda_ok(cudaGetDevice(&dev), "cudaGetDevice");
    cuda_ok(cudaDeviceGetAttribute(&concurrent, cudaDevAttrConcurrentManagedAccess, dev),
            "cudaDeviceGetAttribute");
    if (concurrent == 0)
        WARN("the device has no concurrent managed access: the host reads managed outputs only "
             "after a device synchronize (the copy on another stream is still checked)");
    const owned_stream call_stream, other_stream;
    const cudaStream_t s = call_stream.s, other = other_stream.s;
    const std::int64_t bt = compaction_bulk_tile_of<T>();
    // 1000 elements: one block (both paths then take the single-block kernel); the others:
    // several tiles of either path.
    std::vector<std::int64_t> sizes;
    for (const std::int64_t n : {std::int64_t{1000}, 3 * bt + 5, 37 * bt + 11,
                                 std::int64_t{1} << 22})
        if (n <= max_test_size()) sizes.push_back(n);
    auto g = sweep_test::rng(111);
    for (const std::int64_t n : sizes) {
        const auto h = random_inputs<T>(n, g);
        const pinned_buffer<T> host_copy(h.size());
        T* const pinned = host_copy.p;
        device_vector<T> in(h), out_d(h.size());
        const managed_buffer<T> out_t(h.size()), out_f(h.size());
        // 0xA5 bytes, written by the device (the pages then live there), waited for.
        const auto poison = [&](const managed_buffer<T>& m) {
            cuda_ok(cudaMemset(m.p, 0xA5, h.size() * sizeof(T)), "cudaMemset");
            cuda_ok(cudaDeviceSynchronize(), "sync");
        };
        const auto read_now = [&](const managed_buffer<T>& m) {
            return std::vector<T>(m.p, m.p + h.size());
        };
        for (const unsigned pct : {50u, 90u}) {
            const keep_percent pred{pct};
            std::vector<T> want_t(h.size()), want_f(h.size());
            const auto k = sweep::partition_copy(sweep::seq, h.begin(), h.end(), want_t.begin(),
                                                 want_f.begin(), pred)
                               .first -
                           want_t.begin();
            for (const auto path : {cu::compaction_path::registers, cu::compaction_path::bulk})
            for (const auto wait : {cu::compaction_wait::stream, cu::compaction_wait::flag}) {
                INFO((one_block<T>(n) ? "one block" : path_name(path))
                     << ", n = " << n << ", keep " << pct << " %, "
                     << (wait == cu::compaction_wait::flag ? "count by the flag kernel"
                                                           : "stream synchronized"));
                for (int rep = 0; rep < 3; ++rep) {
                    // partition_copy into managed memory, read by the host at once.
                    poison(out_t);
                    poison(out_f);
                    const T* src = in.data();
                    const std::int64_t got_k = cu::run_compaction<tuning>(
                        "partition_copy", src, src, true, out_t.p, out_f.p, true, false, n,
                        pred, s, alloc, path, nullptr, cu::compaction_l2_hint::automatic, wait);
                    if (concurrent == 0) cuda_ok(cudaDeviceSynchronize(), "sync");
                    const auto got_t = read_now(out_t);
                    const auto got_f = read_now(out_f);
                    REQUIRE(got_k == k);
                    if (wait == cu::compaction_wait::flag) check_handed_off<T>(n, got_k);
                    check_split(got_t, got_f, want_t, want_f, n, k);
                    // copy_if into device memory, copied out on another stream at once.
                    out_d.poison();
                    const std::int64_t got_c = cu::run_compaction<tuning>(
                        "copy_if", src, src, true, out_d.data(), out_d.data(), false, false,
                        n, pred, s, alloc, path, nullptr, cu::compaction_l2_hint::automatic, wait);
                    cuda_ok(cudaMemcpyAsync(pinned, out_d.data(), n * sizeof(T),
                                            cudaMemcpyDeviceToHost, other),
                            "cudaMemcpyAsync");
                    cuda_ok(cudaStreamSynchronize(other), "sync");
                    REQUIRE(got_c == k);
                    if (wait == cu::compaction_wait::flag) check_handed_off<T>(n, got_c);
                    check_kept(std::vector<T>(pinned, pinned + n), want_t, k);
                }
            }
        }
        cuda_ok(cudaStreamSynchronize(s), "sync");
    }
}

TEST_CASE("gpu compaction paths: the flag wait inside a CUDA graph capture is a cuda_error, not a "
          "hang",
          "[gpu][compaction][paths][graph]") {
    // compaction_wait::flag spins on the mapped slot; under a capture nothing runs, and the spin's
    // periodic stream query must turn that into an error (as the stream synchronization does for
    // the default wait: compaction.cu's capture test).
    using T = std::int32_t;
    using tuning = cu::default_compaction_tuning<T>;
    const auto alloc = cu::make_temp_allocator<sweep::default_resource>(nullptr);
    const std::int64_t n =
        std::min<std::int64_t>(37 * compaction_bulk_tile_of<T>() + 11, max_test_size());
    // The flag wait is taken by passes of several blocks on a thread with a mapped slot.
    if (one_block<T>(n) || cu::mapped_count_slot() == nullptr) {
        WARN("skipped: one block (SWEEP_TEST_MAX_N) or no mapped slot: the flag wait is not taken");
        return;
    }
    auto g = sweep_test::rng(112);
    const auto h = random_inputs<T>(n, g);
    device_vector<T> in(h), out(h.size());
    const keep_percent pred{50};
    std::vector<T> want(h.size());
    const auto k = sweep::copy_if(sweep::seq, h.begin(), h.end(), want.begin(), pred) - want.begin();
    const owned_stream call_stream;
    const cudaStream_t s = call_stream.s;
    const T* src = in.data();
    const auto run = [&] {
        return cu::run_compaction<tuning>("copy_if", src, src, true, out.data(), out.data(), false,
                                          false, n, pred, s, alloc, cu::compaction_path::automatic,
                                          nullptr, cu::compaction_l2_hint::automatic,
                                          cu::compaction_wait::flag);
    };
    REQUIRE(run() == k);  // warm: the thread's mapped slot exists
    check_handed_off<T>(n, k);  // the flag path is taken (not the stream wait's fallback)
    cuda_ok(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal), "capture");
    CHECK_THROWS_AS(run(), sweep::cuda_error);
    cudaGraph_t graph = nullptr;
    (void)cudaStreamEndCapture(s, &graph);  // invalidated: an error is expected here
    if (graph != nullptr) cudaGraphDestroy(graph);
    (void)cudaGetLastError();
    // The stream works as before, and the flag wait on it.
    out.poison();
    CHECK(run() == k);
    check_handed_off<T>(n, k);
    const auto got = out.download();
    check_kept(got, want, k);
}
