// test/gpu/radix_keys_float.cu -- sweep::gpu radix_sort of float and double keys in IEEE 754
// totalOrder (-NaN < -inf < ... < -0.0 < +0.0 < ... < +inf < +NaN, NaN payloads kept and ordered
// by their bits), ascending and descending, every input pattern at the tile edges, against seq;
// plus the order of the edge values spelled out.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "catch.hpp"
#include "radix_matrix.hpp"

using namespace sweep_gpu_test;

TEST_CASE("gpu radix_sort: float keys", "[gpu][radix][keys]") { radix_matrix<float>(201); }
TEST_CASE("gpu radix_sort: double keys", "[gpu][radix][keys]") { radix_matrix<double>(202); }

template <class F>
void total_order_spelled_out() {
    using L = std::numeric_limits<F>;
    const F nan = L::quiet_NaN();
    // The expected ascending order, written out.
    const std::vector<F> order{-nan, -L::infinity(), -L::max(), F(-1), -L::min(), -L::denorm_min(),
                               F(-0.0), F(0.0), L::denorm_min(), L::min(), F(1), L::max(),
                               L::infinity(), nan};
    std::vector<F> shuffled{order[5], order[12], order[0], order[7], order[3], order[13], order[6],
                            order[1], order[9], order[11], order[2], order[8], order[4], order[10]};
    device_vector<F> d(shuffled);
    sweep::radix_sort(sweep::gpu, d.begin(), d.end());
    const auto got = d.download();
    REQUIRE(std::memcmp(got.data(), order.data(), order.size() * sizeof(F)) == 0);
    d.upload(shuffled);
    sweep::radix_sort(sweep::gpu, d.begin(), d.end(), sweep::descending);
    auto want = order;
    std::reverse(want.begin(), want.end());
    const auto got_desc = d.download();
    REQUIRE(std::memcmp(got_desc.data(), want.data(), want.size() * sizeof(F)) == 0);
}

TEST_CASE("gpu radix_sort: totalOrder of the IEEE edge values", "[gpu][radix][keys]") {
    total_order_spelled_out<float>();
    total_order_spelled_out<double>();
}
