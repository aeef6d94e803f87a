// test/gpu/capture_first_use.cu -- the library's first GPU call made inside a stream capture
// (issue 9). Its own executable, so that nothing before it has created the default pool, set a
// kernel's attributes or queried an occupancy: those one-time set-up calls then happen during the
// capture, where the runtime refuses calls it deems unsafe (session 9: cudaMemPoolCreate threw
// "operation not permitted when stream is capturing" when the captured scan test ran alone).
// A global-mode capture (the strictest) of a scan on the shared-memory path, a scan in the
// deterministic mode and a scan by key, all with the default resource; the graph is replayed
// on fresh data and checked against seq each time.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include <sweep/scan.hpp>
#include <sweep/segmented_scan.hpp>

#include "catch.hpp"
#include "gpu_support.hpp"
#include "random.hpp"
#include "scan_matrix.hpp"

using namespace sweep_gpu_test;

TEST_CASE("gpu capture: the first library call inside a global-mode capture", "[gpu][graph]") {
    const std::int64_t n = std::max<std::int64_t>(sweep_test::capped((std::int64_t{1} << 20) + 3),
                                                  64 * 4096 + 3);  // many tiles under any cap
    auto g = sweep_test::rng(900);
    device_vector<std::int32_t> in(static_cast<std::size_t>(n)), out(static_cast<std::size_t>(n)),
        keys(static_cast<std::size_t>(n)), out_keyed(static_cast<std::size_t>(n));
    device_vector<float> fin(static_cast<std::size_t>(n)), fout(static_cast<std::size_t>(n));
    cudaStream_t s;
    cuda_ok(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "stream");

    cudaGraph_t graph;
    cuda_ok(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal), "capture");
    const auto p = sweep::gpu.on(s);
    sweep::inclusive_scan(p, in.begin(), in.end(), out.begin(), sweep::plus<>{}, std::int32_t{9});
    sweep::inclusive_scan(p.deterministic(), fin.begin(), fin.end(), fout.begin());
    sweep::inclusive_scan_by_key(p, keys.begin(), keys.end(), in.begin(), out_keyed.begin());
    cuda_ok(cudaStreamEndCapture(s, &graph), "end capture");
    cudaGraphExec_t exec;
    cuda_ok(cudaGraphInstantiate(&exec, graph, 0), "instantiate");

    for (int replay = 0; replay < 3; ++replay) {
        const auto h = random_values<std::int32_t>(static_cast<std::size_t>(n), g);
        std::vector<std::int32_t> k(h.size());
        std::int32_t key = 0;
        for (auto& x : k) {
            if (g() % 50 == 0) ++key;
            x = key;
        }
        std::vector<float> f(h.size());
        for (std::size_t i = 0; i < f.size(); ++i) f[i] = static_cast<float>(h[i] % 1000) * 0.125f;
        in.upload(h);
        keys.upload(k);
        fin.upload(f);
        out.poison();
        out_keyed.poison();
        fout.poison();
        cuda_ok(cudaGraphLaunch(exec, s), "launch");
        cuda_ok(cudaStreamSynchronize(s), "sync");

        std::vector<std::int32_t> want(h.size()), want_keyed(h.size());
        std::vector<float> want_f(h.size());
        sweep::inclusive_scan(sweep::seq, h.begin(), h.end(), want.begin(), sweep::plus<>{},
                              std::int32_t{9});
        sweep::inclusive_scan_by_key(sweep::seq, k.begin(), k.end(), h.begin(), want_keyed.begin());
        sweep::inclusive_scan(sweep::seq.deterministic(), f.begin(), f.end(), want_f.begin());
        INFO("replay " << replay << ", n = " << n << ", seed " << sweep_test::seed());
        CHECK(first_mismatch(out.download(), want) == -1);
        CHECK(first_mismatch(out_keyed.download(), want_keyed) == -1);
        const auto got_f = fout.download();
        CHECK(std::memcmp(got_f.data(), want_f.data(), want_f.size() * sizeof(float)) == 0);
    }
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
    cudaStreamDestroy(s);
}
