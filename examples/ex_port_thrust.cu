// examples/ex_port_thrust.cu -- porting a Thrust program to sweep: the same calls on the same
// thrust::device_vector with the same thrust::device policy; only the namespace of the algorithms
// changes (`thrust::` -> `sweep::`). docs/porting.md walks through it.
//
// The transform scans keep Thrust's argument order (unary_op before op): sweep takes both that
// and the standard's (docs/api.md).
//
// The program (an event log, one value per event, events grouped by session):
//   1. running total of all values                         inclusive_scan
//   2. each event's offset inside its session              exclusive_scan_by_key
//   3. the events worth keeping (value > threshold)        copy_if
//   4. the kept ones first, order kept                     stable_partition
//   5. running total of squared values                     transform_inclusive_scan
// run_thrust and run_sweep are the same function body with the namespace changed; main checks
// that they agree. `ex_port_thrust --bench [log2 n]` times each step of both on the same data
// (CUDA events, median of 20 runs) and prints one markdown table: the perf row of the port
// (perf/run_device_all.sh runs it on the GPU machine).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <cuda_runtime.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/iterator/constant_iterator.h>
#include <thrust/host_vector.h>
#include <thrust/partition.h>
#include <thrust/scan.h>
#include <thrust/transform_scan.h>
#include <thrust/copy.h>

#include <sweep/thrust.hpp>

namespace {

// Values are unsigned: their running totals wrap in 32 bits the same way on both libraries (the
// accumulator of a scan without init is the input's value type in sweep, as in the standard).
struct above {
    unsigned threshold;
    __host__ __device__ bool operator()(unsigned x) const { return x > threshold; }
};
struct square {
    __host__ __device__ unsigned long long operator()(unsigned x) const { return 1ULL * x * x; }
};

/// The program's buffers (thrust::device_vector, as the original Thrust program had them).
struct event_log {
    thrust::device_vector<unsigned> value;
    thrust::device_vector<int> session;
    thrust::device_vector<unsigned> total;
    thrust::device_vector<unsigned long long> squares;
    thrust::device_vector<int> offset_in_session;
    thrust::device_vector<unsigned> kept, grouped;
    std::int64_t kept_count = 0, first_part = 0;

    explicit event_log(std::int64_t n) : value(n), session(n), total(n), squares(n),
                                         offset_in_session(n), kept(n), grouped(n) {
        thrust::host_vector<unsigned> v(n);
        thrust::host_vector<int> s(n);
        std::uint64_t x = 42;
        int id = 0;
        for (std::int64_t i = 0; i < n; ++i) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            v[i] = static_cast<unsigned>((x >> 33) % 1000);
            if ((x >> 20) % 64 == 0) ++id;  // sessions of 64 events on average
            s[i] = id;
        }
        value = v;
        session = s;
    }
};

// ---- the Thrust program -------------------------------------------------------------------------
// step(k) runs step k alone (for --bench); step(0) runs them all.
void run_thrust(event_log& e, int step = 0) {
    const above keep{900};
    if (step == 0 || step == 1)
        thrust::inclusive_scan(thrust::device, e.value.begin(), e.value.end(), e.total.begin(),
                               thrust::plus<unsigned>());
    if (step == 0 || step == 2)
        thrust::exclusive_scan_by_key(thrust::device, e.session.begin(), e.session.end(),
                                      thrust::make_constant_iterator(1),
                                      e.offset_in_session.begin());
    if (step == 0 || step == 3)
        e.kept_count = thrust::copy_if(thrust::device, e.value.begin(), e.value.end(),
                                       e.kept.begin(), keep) -
                       e.kept.begin();
    if (step == 0 || step == 4) {
        e.grouped = e.value;
        e.first_part = thrust::stable_partition(thrust::device, e.grouped.begin(),
                                                e.grouped.end(), keep) -
                       e.grouped.begin();
    }
    if (step == 0 || step == 5)
        thrust::transform_inclusive_scan(thrust::device, e.value.begin(), e.value.end(),
                                         e.squares.begin(), square{},
                                         thrust::plus<unsigned long long>());
}

// ---- the same program on sweep: only the namespace of the algorithms changed --------------------
void run_sweep(event_log& e, int step = 0) {
    const above keep{900};
    if (step == 0 || step == 1)
        sweep::inclusive_scan(thrust::device, e.value.begin(), e.value.end(), e.total.begin(),
                              thrust::plus<unsigned>());
    if (step == 0 || step == 2)
        sweep::exclusive_scan_by_key(thrust::device, e.session.begin(), e.session.end(),
                                     thrust::make_constant_iterator(1),
                                     e.offset_in_session.begin());
    if (step == 0 || step == 3)
        e.kept_count = sweep::copy_if(thrust::device, e.value.begin(), e.value.end(),
                                      e.kept.begin(), keep) -
                       e.kept.begin();
    if (step == 0 || step == 4) {
        e.grouped = e.value;
        e.first_part = sweep::stable_partition(thrust::device, e.grouped.begin(),
                                               e.grouped.end(), keep) -
                       e.grouped.begin();
    }
    if (step == 0 || step == 5)
        sweep::transform_inclusive_scan(thrust::device, e.value.begin(), e.value.end(),
                                        e.squares.begin(), square{},
                                        thrust::plus<unsigned long long>());
}

template <class T>
bool same(const thrust::device_vector<T>& a, const thrust::device_vector<T>& b, std::int64_t n) {
    thrust::host_vector<T> ha(a.begin(), a.begin() + n), hb(b.begin(), b.begin() + n);
    return std::equal(ha.begin(), ha.end(), hb.begin());
}

const char* step_name(int s) {
    switch (s) {
    case 1: return "inclusive_scan (uint32)";
    case 2: return "exclusive_scan_by_key (constant values)";
    case 3: return "copy_if (10% kept)";
    case 4: return "stable_partition (copy + in place)";
    case 5: return "transform_inclusive_scan (squares)";
    default: return "whole program";
    }
}

template <class F>
float median_ms(F&& f, int reps = 20) {
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    f();  // warm-up
    std::vector<float> t;
    for (int r = 0; r < reps; ++r) {
        cudaEventRecord(a);
        f();
        cudaEventRecord(b);
        cudaEventSynchronize(b);
        float ms = 0;
        cudaEventElapsedTime(&ms, a, b);
        t.push_back(ms);
    }
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    std::nth_element(t.begin(), t.begin() + reps / 2, t.end());
    return t[reps / 2];
}

}  // namespace

int main(int argc, char** argv) {
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        std::printf("ex_port_thrust: no CUDA device, nothing to run\n");
        return 0;
    }
    const bool bench = argc > 1 && std::strcmp(argv[1], "--bench") == 0;
    const int log2n = bench ? (argc > 2 ? std::atoi(argv[2]) : 26) : 20;
    const std::int64_t n = std::int64_t{1} << log2n;

    event_log t(n), s(n);
    run_thrust(t);
    run_sweep(s);
    bool ok = same(t.total, s.total, n) && same(t.offset_in_session, s.offset_in_session, n) &&
              t.kept_count == s.kept_count && same(t.kept, s.kept, t.kept_count) &&
              t.first_part == s.first_part && same(t.grouped, s.grouped, n) &&
              same(t.squares, s.squares, n);
    std::printf("ex_port_thrust: n = 2^%d, sweep %s thrust (kept %lld)\n", log2n,
                ok ? "same as" : "DIFFERENT FROM", static_cast<long long>(s.kept_count));
    if (!bench) return ok ? 0 : 1;

    cudaDeviceProp prop{};
    cudaGetDeviceProperties(&prop, 0);
    std::printf("\n# The Thrust port on %s, n = 2^%d int32 (median of 20, CUDA events)\n\n",
                prop.name, log2n);
    std::printf("| step | thrust ms | sweep ms | sweep speed-up |\n| --- | --- | --- | --- |\n");
    for (int step = 1; step <= 5; ++step) {
        const float a = median_ms([&] { run_thrust(t, step); });
        const float b = median_ms([&] { run_sweep(s, step); });
        std::printf("| %s | %.3f | %.3f | %.2fx |\n", step_name(step), a, b, a / b);
    }
    const float a = median_ms([&] { run_thrust(t); });
    const float b = median_ms([&] { run_sweep(s); });
    std::printf("| %s | %.3f | %.3f | %.2fx |\n", step_name(0), a, b, a / b);
    return ok ? 0 : 1;
}
