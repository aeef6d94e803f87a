// test/fuzz/libfuzzer_host.cpp -- coverage-guided fuzzing of the host paths (issue 9): libFuzzer
// bytes decoded into (algorithm, type, operator, layout, size, data), run under sweep::par and
// sweep::seq (support/differential.hpp), any difference an abort with the case described.
//
// Bytes: [0] algorithm, [1] element type, [2] operator, [3] layout and empty segments,
// [4..5] size (small, or k tiles +-1 of the par backend's blocks), [6] selectivity, [7] mean
// segment; the rest are the values themselves (repeated to n; sanitized per type as in
// differential.hpp so that every association order gives the same bits). Built by
// -DSWEEP_BUILD_FUZZERS=ON with clang++ (test/fuzz/CMakeLists.txt).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "differential.hpp"

namespace {

template <class T>
T from_byte(std::uint8_t b, std::uint8_t b2) {
    if constexpr (std::is_floating_point_v<T>) {
        return static_cast<T>(static_cast<int>(b % 17) - 8);
    } else if constexpr (std::is_same_v<T, std::int32_t>) {
        return static_cast<T>(static_cast<int>((b << 8 | b2) % 1001) - 500);
    } else {
        T v;
        std::uint8_t raw[sizeof(T)];
        for (std::size_t i = 0; i < sizeof(T); ++i) raw[i] = i % 2 ? b2 : static_cast<std::uint8_t>(b + i);
        std::memcpy(&v, raw, sizeof(T));
        return v;
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 8) return 0;
    using namespace sweep_fuzz;
    fuzz_case c;
    std::uint64_t h = 0;
    for (std::size_t i = 0; i < size; ++i) h = mix(h ^ data[i]);
    c.seed = h;
    c.a = static_cast<algo>(data[0] % static_cast<int>(algo::count));
    c.t = static_cast<elem>(data[1] % static_cast<int>(elem::count));
    c.op = static_cast<opk>(data[2] % static_cast<int>(opk::count));
    c.data = static_cast<layout>(data[3] % static_cast<int>(layout::count));
    c.empty_segments = (data[3] & 0x80) != 0;
    const unsigned s = static_cast<unsigned>(data[4]) | static_cast<unsigned>(data[5]) << 8;
    static const std::int64_t tiles[] = {256, 512, 1 << 15, 1 << 16, 1 << 17, 1 << 18};
    if (s < 0x8000) {
        c.n = s % 2048;
    } else {
        c.n = tiles[s % 6] * (1 + (s >> 3) % 2) + static_cast<std::int64_t>((s >> 5) % 3) - 1;
    }
    c.keep_percent = data[6] % 101;
    static const std::int64_t means[] = {1, 2, 7, 100, 1000, 10000, 1 << 20};
    c.seg_mean = means[data[7] % 7];
    const std::uint8_t* payload = data + 8;
    const std::size_t plen = size - 8;

    std::string bad;
    with_type(c.t, [&](auto tv) {
        using T = decltype(tv);
        inputs<T> in = make_inputs<T>(c);
        if (plen > 0 && c.data == layout::random)
            for (std::size_t i = 0; i < in.x.size(); ++i)
                in.x[i] = from_byte<T>(payload[i % plen], payload[(i + 1) % plen]);
        const outcome want = run_case(c, in, sweep::seq, host_mem{});
        const outcome got = run_case(c, in, sweep::par, host_mem{});
        bad = compare(c, in, want, got);
    });
    if (!bad.empty()) {
        std::fprintf(stderr, "sweep_fuzz_host: par differs from seq: %s\n  %s\n",
                     describe(c).c_str(), bad.c_str());
        std::abort();
    }
    return 0;
}
