// examples/ex_csr_segmented.cpp -- a segmented scan over CSR offsets: per-row running totals of a
// sparse matrix in one call (rows may be empty), on all CPU cores and on the GPU. The row offsets
// are sweep::offsets(o_first, o_last): k + 1 nondecreasing offsets from 0 to n. docs/porting.md.
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <vector>

#include <sweep/sweep.hpp>

#include "ex_gpu_util.hpp"

int main() {
    // 100000 rows of 0..40 entries (some rows empty).
    std::vector<std::int64_t> row_offsets{0};
    for (int r = 0; r < 100000; ++r)
        row_offsets.push_back(row_offsets.back() + static_cast<std::int64_t>((r * 37) % 41));
    const auto n = static_cast<std::size_t>(row_offsets.back());
    std::vector<double> value(n);
    for (std::size_t i = 0; i < n; ++i) value[i] = static_cast<double>(i % 5);

    // The reference: one std::inclusive_scan per row.
    std::vector<double> want(n);
    for (std::size_t r = 0; r + 1 < row_offsets.size(); ++r)
        std::inclusive_scan(value.begin() + row_offsets[r], value.begin() + row_offsets[r + 1],
                            want.begin() + row_offsets[r]);

    std::vector<double> running(n);
    const auto rows = sweep::offsets(row_offsets.begin(), row_offsets.end());
    sweep::segmented_inclusive_scan(sweep::par, value.begin(), value.end(), running.begin(), rows);
    bool ok = running == want;
    std::printf("par: %zu entries in %zu rows: %s\n", n, row_offsets.size() - 1, ok ? "ok" : "WRONG");

#if SWEEP_HAS_CUDA
    if (ex::have_gpu()) {
        ex::device_copy<double> d(value), out(n);
        ex::device_copy<std::int64_t> d_off(row_offsets);
        // Raw device pointers: precompiled kernels, so this .cpp file needs no nvcc.
        sweep::segmented_inclusive_scan(sweep::gpu, d.p, d.p + n, out.p,
                                        sweep::offsets(d_off.p, d_off.p + row_offsets.size()));
        bool gpu_ok = out.to_host() == want;
        // sweep::automatic finds the device pointers and runs there too.
        sweep::segmented_inclusive_scan(sweep::automatic, d.p, d.p + n, out.p,
                                        sweep::offsets(d_off.p, d_off.p + row_offsets.size()));
        gpu_ok = gpu_ok && out.to_host() == want;
        std::printf("gpu: %s\n", gpu_ok ? "ok" : "WRONG");
        ok = ok && gpu_ok;
    } else {
        std::printf("no CUDA device: the GPU calls are skipped\n");
    }
#endif
    return ok ? 0 : 1;
}
