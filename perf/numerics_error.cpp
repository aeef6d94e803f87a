// perf/numerics_error.cpp -- relative error against condition number, as CSV, for every mode
// (plain, deterministic, compensated, both) and policy (seq, par, and gpu when a device is
// present: precompiled kernels, so this file needs no nvcc). Inputs: Ogita-Rump-Oishi
// ill-conditioned sums (test/support/numerics.hpp), errors against an exact superaccumulator.
//
// Inputs: uniform [0, 1) (cond 1), uniform [-1, 1) (cond ~ sqrt n), then ill-conditioned sums
// for a range of target conditions (the generator overshoots its target; the actual condition is
// what is printed).
//
// Usage: sweep_numerics_error [log2 n = 20] > errors.csv
// Columns: type,policy,mode,n,cond,rel_err_total,worst_rel_err_prefix
//   cond: sum|x| / |sum x| of the whole input; rel_err_total: the last prefix's relative error;
//   worst_rel_err_prefix: the largest relative error over all prefixes (prefixes with tiny sums
//   are included, so it is dominated by the worst-conditioned prefix).
// Plot (python3 + matplotlib): rel_err_total against cond, one line per (policy, mode), log-log.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <sweep/scan.hpp>

#include "numerics.hpp"

#if SWEEP_HAS_CUDA
#include <cuda_runtime_api.h>
#endif

namespace {

template <class T>
struct measured {
    double total = 0, worst = 0;
};

template <class T>
measured<T> measure(const std::vector<T>& x, const std::vector<T>& r) {
    sweep_test::exact_sum s;
    measured<T> m;
    for (std::size_t i = 0; i < x.size(); ++i) {
        s.add(static_cast<double>(x[i]));
        const double S = s.value();
        const double e = std::fabs(s.error_of(static_cast<double>(r[i])));
        const double rel = S != 0 ? e / std::fabs(S) : (e == 0 ? 0 : INFINITY);
        if (rel > m.worst) m.worst = rel;
        if (i + 1 == x.size()) m.total = rel;
    }
    return m;
}

template <class T, class P>
void host_run(const char* type, const char* policy, const char* mode, P p, const std::vector<T>& x,
              double cond) {
    std::vector<T> r(x.size());
    sweep::inclusive_scan(p, x.begin(), x.end(), r.begin());
    const auto m = measure(x, r);
    std::printf("%s,%s,%s,%zu,%.6g,%.6g,%.6g\n", type, policy, mode, x.size(), cond, m.total,
                m.worst);
}

#if SWEEP_HAS_CUDA
template <class T, class P>
void gpu_run(const char* type, const char* mode, P p, const std::vector<T>& x, double cond) {
    T *in = nullptr, *out = nullptr;
    if (cudaMalloc(reinterpret_cast<void**>(&in), x.size() * sizeof(T)) != cudaSuccess ||
        cudaMalloc(reinterpret_cast<void**>(&out), x.size() * sizeof(T)) != cudaSuccess) {
        std::fprintf(stderr, "cudaMalloc failed\n");
        std::exit(1);
    }
    cudaMemcpy(in, x.data(), x.size() * sizeof(T), cudaMemcpyHostToDevice);
    sweep::inclusive_scan(p, static_cast<const T*>(in), static_cast<const T*>(in) + x.size(), out);
    std::vector<T> r(x.size());
    cudaMemcpy(r.data(), out, x.size() * sizeof(T), cudaMemcpyDeviceToHost);
    cudaFree(in);
    cudaFree(out);
    const auto m = measure(x, r);
    std::printf("%s,gpu,%s,%zu,%.6g,%.6g,%.6g\n", type, mode, x.size(), cond, m.total, m.worst);
}
#endif

template <class T>
void sweep_type(const char* type, std::size_t n, double cmin, double cmax, bool gpu) {
    std::mt19937_64 g(42);
    std::vector<std::vector<T>> inputs;
    {
        std::uniform_real_distribution<double> pos(0.0, 1.0), sym(-1.0, 1.0);
        std::vector<T> a(n), b(n);
        for (auto& v : a) v = static_cast<T>(pos(g));  // cond 1
        for (auto& v : b) v = static_cast<T>(sym(g));  // cond ~ sqrt(n)
        inputs.push_back(a);
        inputs.push_back(b);
    }
    for (double c = cmin; c <= cmax * 1.01; c *= 100) inputs.push_back(sweep_test::ill_conditioned<T>(n, c, g));
    for (const auto& x : inputs) {
        double abs = 0;
        sweep_test::exact_sum s;
        for (const T v : x) {
            abs += std::fabs(static_cast<double>(v));
            s.add(static_cast<double>(v));
        }
        const double cond = abs / std::fabs(s.value());
        host_run(type, "seq", "plain", sweep::seq, x, cond);
        host_run(type, "seq", "deterministic", sweep::seq.deterministic(), x, cond);
        host_run(type, "seq", "compensated", sweep::seq.compensated(), x, cond);
        host_run(type, "seq", "compensated+deterministic", sweep::seq.compensated().deterministic(), x, cond);
        host_run(type, "par", "plain", sweep::par, x, cond);
        host_run(type, "par", "deterministic", sweep::par.deterministic(), x, cond);
        host_run(type, "par", "compensated", sweep::par.compensated(), x, cond);
        host_run(type, "par", "compensated+deterministic", sweep::par.compensated().deterministic(), x, cond);
#if SWEEP_HAS_CUDA
        if (gpu) {
            gpu_run(type, "plain", sweep::gpu, x, cond);
            gpu_run(type, "deterministic", sweep::gpu.deterministic(), x, cond);
            gpu_run(type, "compensated", sweep::gpu.compensated(), x, cond);
            gpu_run(type, "compensated+deterministic", sweep::gpu.compensated().deterministic(), x, cond);
        }
#else
        (void)gpu;
#endif
        std::fflush(stdout);
    }
}

}  // namespace

int main(int argc, char** argv) {
    const int lg = argc > 1 ? std::atoi(argv[1]) : 20;
    const std::size_t n = std::size_t{1} << lg;
    bool gpu = false;
#if SWEEP_HAS_CUDA
    int devices = 0;
    gpu = cudaGetDeviceCount(&devices) == cudaSuccess && devices > 0;
#endif
    std::printf("type,policy,mode,n,cond,rel_err_total,worst_rel_err_prefix\n");
    sweep_type<double>("double", n, 1e2, 1e16, gpu);
    sweep_type<float>("float", n, 1e1, 1e7, gpu);
    return 0;
}
