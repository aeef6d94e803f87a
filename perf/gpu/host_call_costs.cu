// perf/gpu/host_call_costs.cu -- host time of the CUDA calls a sweep::gpu call makes before its
// launch (session 24): the memory-type query of every raw pointer (is_device_accessible:
// cudaPointerGetAttributes) against the driver's single-attribute queries, and the stream queries
// of the clean-state arena (arena_of: cudaStreamIsCapturing, cudaGetDevice, cudaStreamGetId).
// Each figure is the median over 7 rounds of the mean of 20000 calls, in ns. The answers each
// query gives for device, managed, pinned, pageable and stack memory are printed too. The pointers
// lie 4096 bytes inside their allocations (the trace tool times base pointers: 0.08-0.16 us
// there).
//
// Usage: sweep_perf_gpu_host_call_costs
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "bench_common.cuh"

namespace {

using sweep_bench::ok;

template <class F>
double ns_per_call(F&& f) {
    constexpr int calls = 20000;
    std::vector<double> r;
    for (int round = 0; round < 7; ++round) {
        const auto t0 = std::chrono::steady_clock::now();
        for (int i = 0; i < calls; ++i) f();
        const auto t1 = std::chrono::steady_clock::now();
        r.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count() / calls);
    }
    std::sort(r.begin(), r.end());
    return r[3];
}

using get_attr_t = CUresult (*)(void*, CUpointer_attribute, CUdeviceptr);
using get_attrs_t = CUresult (*)(unsigned, CUpointer_attribute*, void**, CUdeviceptr);

}  // namespace

int main() {
    ok(cudaFree(nullptr), "init");
    void* f1 = nullptr;
    void* f2 = nullptr;
    cudaDriverEntryPointQueryResult q1{}, q2{};
    ok(cudaGetDriverEntryPointByVersion("cuPointerGetAttribute", &f1, 12000, cudaEnableDefault, &q1),
       "entry point");
    ok(cudaGetDriverEntryPointByVersion("cuPointerGetAttributes", &f2, 12000, cudaEnableDefault, &q2),
       "entry point");
    if (q1 != cudaDriverEntryPointSuccess || q2 != cudaDriverEntryPointSuccess || f1 == nullptr ||
        f2 == nullptr) {
        std::fprintf(stderr, "the driver's pointer queries are not available\n");
        return 1;
    }
    const auto get_attr = reinterpret_cast<get_attr_t>(f1);
    const auto get_attrs = reinterpret_cast<get_attrs_t>(f2);

    void *dev = nullptr, *managed = nullptr, *pinned = nullptr;
    ok(cudaMalloc(&dev, 1 << 20), "cudaMalloc");
    ok(cudaMallocManaged(&managed, 1 << 20), "cudaMallocManaged");
    ok(cudaMallocHost(&pinned, 1 << 20), "cudaMallocHost");
    std::vector<char> pageable(1 << 20);
    int stack_word = 0;
    struct named {
        const char* name;
        void* p;
    };
    const named ptrs[] = {{"device", static_cast<char*>(dev) + 4096},
                          {"managed", static_cast<char*>(managed) + 4096},
                          {"pinned", static_cast<char*>(pinned) + 4096},
                          {"pageable", pageable.data() + 4096},
                          {"stack", &stack_word}};

    std::printf("| memory | cudaPointerGetAttributes ns | type | cuPointerGetAttribute(MEMORY_TYPE) ns | "
                "result, type | cuPointerGetAttributes(MEMORY_TYPE, IS_MANAGED) ns | result, type, managed |\n");
    std::printf("|---|---|---|---|---|---|---|\n");
    for (const auto& x : ptrs) {
        cudaPointerAttributes a{};
        const double t_rt = ns_per_call([&] {
            if (cudaPointerGetAttributes(&a, x.p) != cudaSuccess) (void)cudaGetLastError();
        });
        unsigned mt = 0;
        CUresult r1 = CUDA_SUCCESS;
        const double t_one = ns_per_call([&] {
            r1 = get_attr(&mt, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, reinterpret_cast<CUdeviceptr>(x.p));
        });
        unsigned mt2 = 0;
        int is_managed = 0;
        CUpointer_attribute which[2] = {CU_POINTER_ATTRIBUTE_MEMORY_TYPE, CU_POINTER_ATTRIBUTE_IS_MANAGED};
        void* out[2] = {&mt2, &is_managed};
        CUresult r2 = CUDA_SUCCESS;
        const double t_two = ns_per_call([&] {
            r2 = get_attrs(2, which, out, reinterpret_cast<CUdeviceptr>(x.p));
        });
        std::printf("| %s | %.0f | %d | %.0f | %d, %u | %.0f | %d, %u, %d |\n", x.name, t_rt,
                    static_cast<int>(a.type), t_one, static_cast<int>(r1), mt, t_two,
                    static_cast<int>(r2), mt2, is_managed);
    }

    cudaStream_t s;
    ok(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "stream");
    cudaStreamCaptureStatus cs{};
    int device = 0;
    unsigned long long id = 0;
    std::printf("\n| call | ns |\n|---|---|\n");
    std::printf("| cudaStreamIsCapturing | %.0f |\n", ns_per_call([&] { (void)cudaStreamIsCapturing(s, &cs); }));
    std::printf("| cudaGetDevice | %.0f |\n", ns_per_call([&] { (void)cudaGetDevice(&device); }));
    std::printf("| cudaStreamGetId | %.0f |\n", ns_per_call([&] { (void)cudaStreamGetId(s, &id); }));
    std::printf("| cudaGetLastError | %.0f |\n", ns_per_call([&] { (void)cudaGetLastError(); }));
    std::printf("| cudaStreamQuery (idle stream) | %.0f |\n", ns_per_call([&] { (void)cudaStreamQuery(s); }));
    std::printf("| cudaStreamSynchronize (idle stream) | %.0f |\n", ns_per_call([&] { (void)cudaStreamSynchronize(s); }));
    cudaStreamDestroy(s);
    cudaFree(dev);
    cudaFree(managed);
    cudaFreeHost(pinned);
    return 0;
}
