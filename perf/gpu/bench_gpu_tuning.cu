// perf/gpu/bench_gpu_tuning.cu -- the evidence behind tuning/scan_tuning.cuh: one size (2^28 by
// default), several tile geometries of the same engine, plus the engine with the look-back
// replaced by nothing (an upper bound: load, scan and store alone). Times are medians of 25 calls.
#include <sweep/scan.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench_common.cuh"

namespace cu = sweep::detail::cuda;

namespace {

void ok(cudaError_t e, const char* what) {
    if (e != cudaSuccess) {
        std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
        std::exit(1);
    }
}

template <class T>
__global__ void fill(T* p, std::int64_t n) {
    for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < n;
         i += std::int64_t{gridDim.x} * blockDim.x)
        p[i] = static_cast<T>((i * 2654435761u >> 7) % 97 + 1);
}

template <class Agent>
__global__ void __launch_bounds__(Agent::threads) no_lookback_kernel(const typename Agent::params p) {
    __shared__ typename Agent::shared_storage smem;
    using acc = typename Agent::acc_type;
    struct nothing {
        __device__ cu::maybe<acc> operator()(std::int64_t, const acc&) const { return {}; }
    } prefix;
    Agent a(p, smem);
    a.run_tile(blockIdx.x, prefix);
}

template <class F>
double median_us(cudaStream_t s, F&& f) {
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    for (int i = 0; i < 3; ++i) f();
    std::vector<float> ms(25);
    for (auto& m : ms) {
        cudaEventRecord(a, s);
        f();
        cudaEventRecord(b, s);
        ok(cudaEventSynchronize(b), "sync");
        cudaEventElapsedTime(&m, a, b);
    }
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    std::sort(ms.begin(), ms.end());
    return 1000.0 * ms[12];
}

template <class T, int Threads, int Items, int Windows, int Stages = 1, int MinBlocks = 1>
void variant(const char* name, T* in, T* out, std::int64_t n, double copy_us, cudaStream_t s) {
    using tuning = cu::scan_tuning<Threads, Items, Windows, Stages, 0, MinBlocks>;
    using agent = cu::scan_agent<tuning, T, const T*, T*, sweep::plus<T>, sweep::detail::identity>;
    cu::reg_array<T, 1> init;
    init[0] = T{};
    const auto alloc = cu::make_temp_allocator<sweep::default_resource>(nullptr);
    const double full = median_us(s, [&] {
        cu::launch_scan<tuning, false, T>("bench", static_cast<const T*>(in), out, n, sweep::plus<T>{},
                                          sweep::detail::identity{}, init, false, false, s, alloc);
    });
    cu::scan_mode mode;
    mode.in_aligned = mode.out_aligned = true;
    const typename agent::params p{in, out, n, sweep::plus<T>{}, sweep::detail::identity{}, init, mode};
    const auto tiles = static_cast<unsigned>((n + tuning::tile_items - 1) / tuning::tile_items);
    const double bare = median_us(s, [&] { no_lookback_kernel<agent><<<tiles, Threads, 0, s>>>(p); });
    int blocks = 0;
    ok(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
           &blocks, cu::scan_lookback_kernel<agent, false, cu::lookback::tile_state<T>>, Threads, 0),
       "occupancy");
    // sweep's result against a plain sequential check of a few positions is in the tests; here only
    // the last element is checked against the same call with the default tuning.
    std::printf("| %-6s | %4d x %2d | %d | %4u | %6d | %2d | %8.1f | %5.1f%% | %8.1f | %5.1f%% |\n", name,
                Threads, Items, Stages, Windows, tuning::tile_items, blocks, full, 100 * copy_us / full,
                bare, 100 * copy_us / bare);
    std::fflush(stdout);
}

/// The shared-memory tile path (scan_bulk_agent) with Threads per block and Bytes per tile.
template <class T, int Threads, int Bytes, bool Spec = false, unsigned Backoff = 0>
void bulk(const char* name, T* in, T* out, std::int64_t n, double copy_us, cudaStream_t s) {
    using tuning = cu::scan_bulk_tuning<Threads, Bytes, Spec, Backoff>;
    using agent = cu::scan_bulk_agent<tuning, T, const T*, T*, sweep::plus<T>, sweep::detail::identity>;
    cu::reg_array<T, 1> init;
    init[0] = T{};
    const auto alloc = cu::make_temp_allocator<sweep::default_resource>(nullptr);
    const double full = median_us(s, [&] {
        cu::launch_scan_bulk<tuning, false, T>("bench", static_cast<const T*>(in), out, n,
                                               sweep::plus<T>{}, sweep::detail::identity{}, init,
                                               false, false, s, alloc);
    });
    ok(cudaGetLastError(), "bulk launch");
    int blocks = 0;
    ok(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
           &blocks, cu::scan_bulk_kernel<agent, false, Spec, cu::lookback::tile_state<T>>, Threads,
           agent::smem_bytes),
       "occupancy");
    std::printf("| %-6s | bulk %3d x %2d KB%s | %2d bl/SM | %8.1f us | %5.1f%% |\n", name, Threads,
                Bytes / 1024, Spec ? " spec" : "", blocks, full, 100 * copy_us / full);
    std::fflush(stdout);
}

// ---- where the time goes: per-tile timestamps of the shared-memory path -----------------------
// Mode 0: the real kernel; 1: no look-back at all (tile = blockIdx.x, an upper bound); 2: ticket
// and aggregate published, but no waiting (what the waiting costs, results wrong).
struct tile_times {
    unsigned long long start, loaded, published, prefixed, end;
};


template <class Agent, int Mode, class State>
__global__ void __launch_bounds__(Agent::threads)
    diag_kernel(const typename Agent::params p, const State state, unsigned int* ticket, tile_times* rec,
                const cu::lookback::arena_cleanup cleanup) {
    extern __shared__ __align__(128) unsigned char dynamic_smem[];
    using acc_t = typename Agent::acc_type;
    Agent agent(p, dynamic_smem);
    const unsigned long long t0 = sweep_bench::globaltimer_ns();
    cu::wait_for_reset();
    if (threadIdx.x == 0) {
        cu::bulk::init(&agent.h.bar);
        cu::bulk::fence_init();
        const std::int64_t tile = Mode == 1 ? std::int64_t{blockIdx.x} : std::int64_t{atomicAdd(ticket, 1u)};
        if (agent.is_full(tile)) agent.start_copy(tile);
        agent.h.tile = tile;
    }
    __syncthreads();
    const std::int64_t tile = agent.h.tile;
    if (agent.is_full(tile)) {
        cu::bulk::wait(&agent.h.bar, 0);
    } else {
        agent.load_partial(tile);
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        rec[tile].start = t0;
        rec[tile].loaded = sweep_bench::globaltimer_ns();
    }
    cu::lookback_prefix<false, 0, 1, acc_t, typename Agent::op_type, State> inner{
        state, cu::maybe<acc_t>(), p.op, &agent.h.tile_prefix};
    struct timed {
        decltype(inner)& in;
        const State& st;
        tile_times* r;
        __device__ cu::maybe<acc_t> operator()(std::int64_t t, const acc_t& agg) {
            if (threadIdx.x == 0) r[t].published = sweep_bench::globaltimer_ns();
            cu::maybe<acc_t> out;
            if constexpr (Mode == 0) out = in(t, agg);
            if constexpr (Mode == 2) {
                if (threadIdx.x == 0) st.publish(t, cu::lookback::status_aggregate, agg);
            }
            if (threadIdx.x == 0) r[t].prefixed = sweep_bench::globaltimer_ns();
            return out;
        }
    } prefix{inner, state, rec};
    agent.run_tile(tile, prefix);
    __syncthreads();
    if (threadIdx.x == 0) rec[tile].end = sweep_bench::globaltimer_ns();
    cu::lookback::leave_clean(cleanup);
}

template <class T, int Threads, int Bytes, int Mode>
void diagnose(const char* name, T* in, T* out, std::int64_t n, double copy_us, cudaStream_t s) {
    using tuning = cu::scan_bulk_tuning<Threads, Bytes>;
    using agent = cu::scan_bulk_agent<tuning, T, const T*, T*, sweep::plus<T>, sweep::detail::identity>;
    using st = cu::lookback_storage<T>;
    cu::reg_array<T, 1> init;
    init[0] = T{};
    cu::scan_mode mode;
    mode.in_aligned = mode.out_aligned = true;
    const typename agent::params p{in, out, n, sweep::plus<T>{}, sweep::detail::identity{}, init, mode};
    const std::int64_t tiles = (n + agent::tile_items - 1) / agent::tile_items;
    tile_times* rec = nullptr;
    ok(cudaMalloc(&rec, tiles * sizeof(tile_times)), "malloc rec");
    const auto alloc = cu::make_temp_allocator<sweep::default_resource>(nullptr);
    const auto kernel = diag_kernel<agent, Mode, typename st::state_t>;
    cu::allow_dynamic_smem(reinterpret_cast<const void*>(kernel), agent::smem_bytes, "diag");
    const double us = median_us(s, [&] {
        st storage("diag", tiles, s, alloc);
        cu::launch_lookback("diag", storage.after_reset, kernel, static_cast<unsigned>(tiles), Threads,
                            agent::smem_bytes, s, p, storage.state, storage.ticket, rec, storage.cleanup);
        storage.launched();
    });
    ok(cudaStreamSynchronize(s), "diag");
    std::vector<tile_times> h(tiles);
    ok(cudaMemcpy(h.data(), rec, tiles * sizeof(tile_times), cudaMemcpyDeviceToHost), "copy rec");
    cudaFree(rec);
    unsigned long long first = ~0ull, last = 0;
    for (auto& t : h) {
        first = std::min(first, t.start);
        last = std::max(last, t.end);
    }
    std::vector<double> load, wait, store, life;
    for (auto& t : h) {
        load.push_back(double(t.loaded - t.start));
        wait.push_back(double(t.prefixed - t.published));
        store.push_back(double(t.end - t.prefixed));
        life.push_back(double(t.end - t.start));
    }
    auto pct = [](std::vector<double> v, double q) {
        std::sort(v.begin(), v.end());
        return v[static_cast<std::size_t>(q * (v.size() - 1))] / 1000.0;
    };
    std::printf("| %-5s | %3d x %2d KB | mode %d | %7.1f us | %5.1f%% | span %7.1f us | load p50 %5.2f p90 %5.2f p99 %6.2f | wait p50 %5.2f p90 %5.2f p99 %6.2f | pass2 p50 %5.2f | life p50 %5.2f p99 %6.2f |\n",
                name, Threads, Bytes / 1024, Mode, us, 100 * copy_us / us, (last - first) / 1000.0,
                pct(load, .5), pct(load, .9), pct(load, .99), pct(wait, .5), pct(wait, .9), pct(wait, .99),
                pct(store, .5), pct(life, .5), pct(life, .99));
    std::fflush(stdout);
}

template <class T>
struct buffers {
    T *in = nullptr, *out = nullptr;
    std::int64_t n;
    double copy_us;
    buffers(std::int64_t n_, cudaStream_t s) : n(n_) {
        ok(cudaMalloc(&in, n * sizeof(T)), "malloc");
        ok(cudaMalloc(&out, n * sizeof(T)), "malloc");
        fill<<<1024, 256, 0, s>>>(in, n);
        copy_us = median_us(s, [&] { cudaMemcpyAsync(out, in, n * sizeof(T), cudaMemcpyDeviceToDevice, s); });
    }
    ~buffers() {
        cudaFree(in);
        cudaFree(out);
    }
};

}  // namespace

int main(int argc, char** argv) {
    const int lg = argc > 1 ? std::atoi(argv[1]) : 28;
    const bool reg = argc > 2 && std::atoi(argv[2]) != 0;  // also the register-path geometries
    const std::int64_t n = std::int64_t{1} << lg;
    cudaStream_t s;
    ok(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "stream");
    std::printf("n = 2^%d; %% of cudaMemcpy D2D; 'bare' = no look-back (upper bound)\n\n", lg);
    if (reg) {
        std::printf("| type   | geometry  | st | wind | tile   | bl | full us  | %%copy  | bare us  | %%copy  |\n");
        std::printf("|--------|-----------|----|------|--------|----|----------|--------|----------|--------|\n");
        buffers<std::int32_t> b(n, s);
        variant<std::int32_t, 128, 32, 1>("int32", b.in, b.out, n, b.copy_us, s);
        buffers<std::int64_t> c(n, s);
        variant<std::int64_t, 128, 16, 1>("int64", c.in, c.out, n, c.copy_us, s);
    }
    if (argc > 2 && std::string(argv[2]) == "geo") {  // shared-memory path geometries at this size
        std::printf("\n| type | geometry | occupancy | time | %%copy |\n|---|---|---|---|---|\n");
        {
            buffers<std::int32_t> b(n, s);
            bulk<std::int32_t, 256, 32 * 1024>("int32", b.in, b.out, n, b.copy_us, s);
            bulk<std::int32_t, 128, 16 * 1024>("int32", b.in, b.out, n, b.copy_us, s);
            bulk<std::int32_t, 128, 8 * 1024>("int32", b.in, b.out, n, b.copy_us, s);
            bulk<std::int32_t, 64, 8 * 1024>("int32", b.in, b.out, n, b.copy_us, s);
            bulk<std::int32_t, 256, 16 * 1024>("int32", b.in, b.out, n, b.copy_us, s);
            bulk<std::int32_t, 128, 32 * 1024>("int32", b.in, b.out, n, b.copy_us, s);
            bulk<std::int32_t, 128, 24 * 1024>("int32", b.in, b.out, n, b.copy_us, s);
            bulk<std::int32_t, 128, 20 * 1024>("int32", b.in, b.out, n, b.copy_us, s);
            bulk<std::int32_t, 192, 24 * 1024>("int32", b.in, b.out, n, b.copy_us, s);
            bulk<std::int32_t, 128, 16 * 1024, false, 128>("int32", b.in, b.out, n, b.copy_us, s);
            bulk<std::int32_t, 256, 32 * 1024, false, 128>("int32", b.in, b.out, n, b.copy_us, s);
        }
        {
            buffers<std::int64_t> b(n, s);
            bulk<std::int64_t, 256, 32 * 1024>("int64", b.in, b.out, n, b.copy_us, s);
            bulk<std::int64_t, 128, 16 * 1024>("int64", b.in, b.out, n, b.copy_us, s);
            bulk<std::int64_t, 128, 8 * 1024>("int64", b.in, b.out, n, b.copy_us, s);
            bulk<std::int64_t, 64, 8 * 1024>("int64", b.in, b.out, n, b.copy_us, s);
            bulk<std::int64_t, 256, 16 * 1024>("int64", b.in, b.out, n, b.copy_us, s);
            bulk<std::int64_t, 128, 32 * 1024>("int64", b.in, b.out, n, b.copy_us, s);
            bulk<std::int64_t, 128, 24 * 1024>("int64", b.in, b.out, n, b.copy_us, s);
            bulk<std::int64_t, 128, 20 * 1024>("int64", b.in, b.out, n, b.copy_us, s);
            bulk<std::int64_t, 128, 16 * 1024, false, 128>("int64", b.in, b.out, n, b.copy_us, s);
        }
        cudaStreamDestroy(s);
        return 0;
    }
    if (argc > 3) {  // diagnostics only
        buffers<std::int32_t> b(n, s);
        diagnose<std::int32_t, 256, 32 * 1024, 0>("int32", b.in, b.out, n, b.copy_us, s);
        diagnose<std::int32_t, 256, 32 * 1024, 1>("int32", b.in, b.out, n, b.copy_us, s);
        diagnose<std::int32_t, 256, 32 * 1024, 2>("int32", b.in, b.out, n, b.copy_us, s);
        diagnose<std::int32_t, 128, 16 * 1024, 0>("int32", b.in, b.out, n, b.copy_us, s);
        diagnose<std::int32_t, 128, 16 * 1024, 1>("int32", b.in, b.out, n, b.copy_us, s);
        buffers<std::int64_t> c(n, s);
        diagnose<std::int64_t, 256, 32 * 1024, 0>("int64", c.in, c.out, n, c.copy_us, s);
        diagnose<std::int64_t, 256, 32 * 1024, 1>("int64", c.in, c.out, n, c.copy_us, s);
        cudaStreamDestroy(s);
        return 0;
    }
    std::printf("\n| type | geometry | occupancy | time | %%copy |\n|---|---|---|---|---|\n");
    {
        buffers<std::int32_t> b(n, s);
        bulk<std::int32_t, 256, 32 * 1024>("int32", b.in, b.out, n, b.copy_us, s);
        bulk<std::int32_t, 256, 32 * 1024, true>("int32", b.in, b.out, n, b.copy_us, s);
        bulk<std::int32_t, 128, 16 * 1024>("int32", b.in, b.out, n, b.copy_us, s);
        bulk<std::int32_t, 128, 16 * 1024, true>("int32", b.in, b.out, n, b.copy_us, s);
        bulk<std::int32_t, 256, 16 * 1024, true>("int32", b.in, b.out, n, b.copy_us, s);
        bulk<std::int32_t, 256, 48 * 1024, true>("int32", b.in, b.out, n, b.copy_us, s);
        bulk<std::int32_t, 512, 64 * 1024, true>("int32", b.in, b.out, n, b.copy_us, s);
        bulk<std::int32_t, 256, 64 * 1024, true>("int32", b.in, b.out, n, b.copy_us, s);
        bulk<std::int32_t, 128, 32 * 1024, true>("int32", b.in, b.out, n, b.copy_us, s);
        bulk<std::int32_t, 256, 32 * 1024, true, 256>("int32", b.in, b.out, n, b.copy_us, s);
    }
    {
        buffers<std::int64_t> b(n, s);
        bulk<std::int64_t, 256, 32 * 1024>("int64", b.in, b.out, n, b.copy_us, s);
        bulk<std::int64_t, 256, 32 * 1024, true>("int64", b.in, b.out, n, b.copy_us, s);
        bulk<std::int64_t, 128, 16 * 1024, true>("int64", b.in, b.out, n, b.copy_us, s);
        bulk<std::int64_t, 256, 48 * 1024, true>("int64", b.in, b.out, n, b.copy_us, s);
        bulk<std::int64_t, 256, 64 * 1024, true>("int64", b.in, b.out, n, b.copy_us, s);
    }
    {
        buffers<std::int16_t> b(n, s);
        bulk<std::int16_t, 256, 32 * 1024, true>("int16", b.in, b.out, n, b.copy_us, s);
        bulk<std::int16_t, 256, 48 * 1024, true>("int16", b.in, b.out, n, b.copy_us, s);
        bulk<std::int16_t, 512, 64 * 1024, true>("int16", b.in, b.out, n, b.copy_us, s);
    }
    {
        buffers<std::int8_t> b(n, s);
        bulk<std::int8_t, 256, 32 * 1024, true>("int8", b.in, b.out, n, b.copy_us, s);
        bulk<std::int8_t, 256, 48 * 1024, true>("int8", b.in, b.out, n, b.copy_us, s);
        bulk<std::int8_t, 512, 64 * 1024, true>("int8", b.in, b.out, n, b.copy_us, s);
    }
    cudaStreamDestroy(s);
    return 0;
}
