// src/cuda/runtime.cu -- GPU backend, non-template runtime: CUDA error helper, pointer checks and
// the library's default stream-ordered temporary pool (one cudaMemPool per device, made lazily).
#include <cuda_runtime.h>

#include <cstdlib>

#include <map>
#include <stdexcept>
#include <string>
#include <memory>
#include <thread>
#include <tuple>
#include <set>
#include <mutex>
#include <utility>
#include <vector>

#include <sweep/backend/cuda/runtime.hpp>
#include <sweep/errors.hpp>

namespace sweep::detail::cuda {

void check(int code, const char* algorithm, const char* call) {
    if (code == cudaSuccess) return;
    const auto e = static_cast<cudaError_t>(code);
    throw cuda_error(algorithm, call, code, cudaGetErrorString(e));
}

void check_launch(const char* algorithm) {
    check(cudaGetLastError(), algorithm, "kernel launch");
}

bool is_device_accessible(const void* p) {
    cudaPointerAttributes a{};
    const cudaError_t e = cudaPointerGetAttributes(&a, p);
    if (e != cudaSuccess) {
        (void)cudaGetLastError();  // unregistered host memory may set a sticky-free error
        return false;
    }
    return a.type == cudaMemoryTypeDevice || a.type == cudaMemoryTypeManaged;
}

memory_kind memory_kind_of(const void* p) noexcept {
    // Without a device every query fails; the first answer is kept so that a CPU-only machine
    // pays for one failed initialisation per process, not one per call.
    static const bool have_device = [] {
        int count = 0;
        const bool ok = cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
        if (!ok) (void)cudaGetLastError();
        return ok;
    }();
    if (!have_device || p == nullptr) return memory_kind::host;
    cudaPointerAttributes a{};
    if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
        (void)cudaGetLastError();
        return memory_kind::host;
    }
    if (a.type == cudaMemoryTypeDevice) return memory_kind::device;
    if (a.type == cudaMemoryTypeManaged) return memory_kind::managed;
    return memory_kind::host;
}

namespace {

/// Lets this thread make the library's one-time set-up calls (creating the pool, setting kernel
/// attributes, occupancy queries, the page-locked count slot) while a stream capture is under
/// way: in global and thread-local capture mode the runtime refuses calls it deems unsafe during
/// a capture (cudaMemPoolCreate did, when a scan's first use of the default pool was inside a
/// capture: "operation not permitted when stream is capturing"); relaxed mode lets this thread
/// make them without invalidating the capture. Restores the thread's mode when it goes.
struct relaxed_capture_mode {
    cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
    bool exchanged;
    relaxed_capture_mode() : exchanged(cudaThreadExchangeStreamCaptureMode(&mode) == cudaSuccess) {
        if (!exchanged) (void)cudaGetLastError();
    }
    ~relaxed_capture_mode() {
        if (exchanged) (void)cudaThreadExchangeStreamCaptureMode(&mode);
    }
    relaxed_capture_mode(const relaxed_capture_mode&) = delete;
    relaxed_capture_mode& operator=(const relaxed_capture_mode&) = delete;
};

// One pool per device. The release threshold is raised to "keep everything": the default of 0
// gives memory back to the driver at every synchronization, so a loop of synchronous scans would
// pay for a fresh mapping each call.
cudaMemPool_t pool_of(int device) {
    static std::mutex m;
    static std::vector<cudaMemPool_t> pools;
    std::lock_guard<std::mutex> lock(m);
    if (pools.size() <= static_cast<std::size_t>(device)) pools.resize(device + 1, nullptr);
    if (pools[device] == nullptr) {
        cudaMemPoolProps props{};
        props.allocType = cudaMemAllocationTypePinned;
        props.handleTypes = cudaMemHandleTypeNone;
        props.location.type = cudaMemLocationTypeDevice;
        props.location.id = device;
        cudaMemPool_t p = nullptr;
        const relaxed_capture_mode relaxed;
        check(cudaMemPoolCreate(&p, &props), "gpu", "cudaMemPoolCreate");
        unsigned long long keep = ~0ull;
        check(cudaMemPoolSetAttribute(p, cudaMemPoolAttrReleaseThreshold, &keep), "gpu",
              "cudaMemPoolSetAttribute");
        pools[device] = p;
    }
    return pools[device];
}

}  // namespace

void* pool_allocate(std::size_t bytes, stream_t s) {
    int device = 0;
    check(cudaGetDevice(&device), "gpu", "cudaGetDevice");
    void* p = nullptr;
    const cudaError_t e = cudaMallocFromPoolAsync(&p, bytes, pool_of(device), s);
    if (e == cudaErrorMemoryAllocation) {
        (void)cudaGetLastError();
        return nullptr;
    }
    check(e, "gpu", "cudaMallocFromPoolAsync");
    return p;
}

void pool_deallocate(void* p, stream_t s) {
    // Called from destructors: a failure here cannot be reported by throwing.
    if (cudaFreeAsync(p, s) != cudaSuccess) (void)cudaGetLastError();
}

namespace {
/// A device attribute of the current device, cached per (device, attribute).
int device_attribute(cudaDeviceAttr attr, const char* algorithm) {
    int device = 0;
    check(cudaGetDevice(&device), algorithm, "cudaGetDevice");
    static std::mutex m;
    static std::map<std::pair<int, int>, int> cache;
    std::lock_guard<std::mutex> lock(m);
    const auto key = std::make_pair(device, static_cast<int>(attr));
    if (auto it = cache.find(key); it != cache.end()) return it->second;
    int value = 0;
    check(cudaDeviceGetAttribute(&value, attr, device), algorithm, "cudaDeviceGetAttribute");
    return cache.emplace(key, value).first->second;
}
}  // namespace

bool device_has_bulk_copy(const char* algorithm) {
    return device_attribute(cudaDevAttrComputeCapabilityMajor, algorithm) >= 9;
}

int l2_cache_bytes(const char* algorithm) {
    return device_attribute(cudaDevAttrL2CacheSize, algorithm);
}

int max_dynamic_smem(const char* algorithm) {
    return device_attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin, algorithm);
}

void allow_dynamic_smem(const void* kernel, int dynamic_smem, const char* algorithm) {
    int device = 0;
    check(cudaGetDevice(&device), algorithm, "cudaGetDevice");
    static std::mutex m;
    static std::set<std::pair<const void*, int>> done;
    std::lock_guard<std::mutex> lock(m);
    const auto key = std::make_pair(kernel, device);
    if (done.count(key) != 0) return;
    const relaxed_capture_mode relaxed;
    check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, dynamic_smem),
          algorithm, "cudaFuncSetAttribute(MaxDynamicSharedMemorySize)");
    check(cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                               cudaSharedmemCarveoutMaxShared),
          algorithm, "cudaFuncSetAttribute(PreferredSharedMemoryCarveout)");
    done.insert(key);  // only once both are set: a failure is tried again by the next call
}

int resident_blocks(const void* kernel, int threads, const char* algorithm, int dynamic_smem) {
    int device = 0;
    check(cudaGetDevice(&device), algorithm, "cudaGetDevice");
    static std::mutex m;
    static std::map<std::tuple<const void*, int, int>, int> cache;
    std::lock_guard<std::mutex> lock(m);
    const auto key = std::make_tuple(kernel, device, dynamic_smem);
    if (auto it = cache.find(key); it != cache.end()) return it->second;
    int per_sm = 0, sms = 0;
    const relaxed_capture_mode relaxed;
    check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads,
                                                        static_cast<std::size_t>(dynamic_smem)),
          algorithm, "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
    check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), algorithm,
          "cudaDeviceGetAttribute");
    const int blocks = (per_sm > 0 ? per_sm : 1) * sms;
    cache.emplace(key, blocks);
    return blocks;
}

namespace {
struct arena_record {
    int device;
    unsigned long long stream_id;
    unsigned char* base;  // two halves of clean_arena_bytes
    int half = 0;         // the clean half, the next launch's
    std::size_t dirty_bytes = 0;  // of the other half, used by the last launch
    bool retired = false;         // arena_lease::retire: never leased again
    std::mutex lock;
};
std::mutex arenas_mutex;
std::vector<std::unique_ptr<arena_record>> arenas;  // few streams: a linear search

/// Frees every arena at process exit. Registered with std::atexit once the first arena's
/// cudaMalloc has initialized the CUDA runtime, so that it runs before the runtime's own exit
/// handler (handlers run in reverse order of registration) and the memory goes back while the
/// context is alive: nothing the library allocated outlives it (compute-sanitizer's leak check
/// sees no arena). Errors are ignored: at exit there is nobody to tell.
void free_arenas_at_exit() {
    std::lock_guard<std::mutex> guard(arenas_mutex);
    for (auto& a : arenas) {
        // A thread still inside a lease at exit keeps its arena (and its record): freeing it
        // under that thread would be worse than leaving it to the driver's teardown.
        if (!a->lock.try_lock()) {
            a.release();
            continue;
        }
        a->lock.unlock();
        int current = 0;
        if (cudaGetDevice(&current) == cudaSuccess && current != a->device)
            (void)cudaSetDevice(a->device);
        (void)cudaFree(a->base);
        if (current != a->device) (void)cudaSetDevice(current);
    }
    arenas.clear();
    (void)cudaGetLastError();
}

arena_record* arena_of(stream_t s) noexcept {
    if (s == cudaStreamPerThread) return nullptr;
    if (s == nullptr) s = cudaStreamLegacy;  // here 0 is the legacy default stream
    cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
    if (cudaStreamIsCapturing(s, &capture) != cudaSuccess) {
        (void)cudaGetLastError();
        return nullptr;
    }
    if (capture != cudaStreamCaptureStatusNone) return nullptr;
    int device = 0;
    unsigned long long id = 0;  // never reused within a context
    if (cudaGetDevice(&device) != cudaSuccess || cudaStreamGetId(s, &id) != cudaSuccess) {
        (void)cudaGetLastError();
        return nullptr;
    }
    std::lock_guard<std::mutex> guard(arenas_mutex);
    for (const auto& a : arenas)
        if (a->device == device && a->stream_id == id) return a.get();
    if (arenas.size() >= static_cast<std::size_t>(max_clean_arenas)) return nullptr;
    // cudaMalloc is not allowed while another thread captures in global mode: relaxed mode.
    void* base = nullptr;
    cudaError_t e;
    {
        const relaxed_capture_mode relaxed;
        e = cudaMalloc(&base, 2 * clean_arena_bytes);
    }
    if (e != cudaSuccess) {
        (void)cudaGetLastError();
        return nullptr;
    }
    // Zeroed on the stream itself: ordered before the first launch that uses it.
    if (cudaMemsetAsync(base, 0, 2 * clean_arena_bytes, s) != cudaSuccess) {
        (void)cudaGetLastError();
        (void)cudaFree(base);
        return nullptr;
    }
    static const bool exit_handler = std::atexit(free_arenas_at_exit) == 0;
    (void)exit_handler;
    auto rec = std::make_unique<arena_record>();
    rec->device = device;
    rec->stream_id = id;
    rec->base = static_cast<unsigned char*>(base);
    arenas.push_back(std::move(rec));
    return arenas.back().get();
}
}  // namespace

void arena_lease::acquire(stream_t s, std::size_t bytes) noexcept {
    // Whole 16-byte vectors: the next launch zeroes the bytes recorded here in vectors
    // (lookback::leave_clean), so a lease that ended mid-vector would leave its tail dirty.
    bytes = (bytes + 15) / 16 * 16;
    if (bytes > clean_arena_bytes) return;
    arena_record* a = arena_of(s);
    if (a == nullptr) return;
    a->lock.lock();
    if (a->retired) {
        a->lock.unlock();
        return;
    }
    arena_ = a;
    bytes_ = bytes;
    states_ = a->base + static_cast<std::size_t>(a->half) * clean_arena_bytes;
    dirty_ = a->base + static_cast<std::size_t>(1 - a->half) * clean_arena_bytes;
    dirty_bytes_ = a->dirty_bytes;
}

void arena_lease::launched() noexcept {
    auto* a = static_cast<arena_record*>(arena_);
    if (a == nullptr) return;
    a->half = 1 - a->half;
    a->dirty_bytes = bytes_;
    a->lock.unlock();
    arena_ = nullptr;
}

void arena_lease::retire() noexcept {
    if (arena_ != nullptr) static_cast<arena_record*>(arena_)->retired = true;
}

arena_lease::~arena_lease() {
    if (arena_ != nullptr) static_cast<arena_record*>(arena_)->lock.unlock();
}

int clean_state_arenas_made() noexcept {
    std::lock_guard<std::mutex> guard(arenas_mutex);
    return static_cast<int>(arenas.size());
}

void synchronize_stream(stream_t s, const char* algorithm) {
    check(cudaStreamSynchronize(s), algorithm, "cudaStreamSynchronize");
}

namespace {
/// One step of a host spin: a pause hint (x86), or a yield elsewhere.
inline void spin_pause() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#else
    std::this_thread::yield();
#endif
}
}  // namespace

std::int64_t wait_for_mapped_on(const std::int64_t* slot, std::int64_t unset, stream_t s,
                                const char* algorithm) {
    // Acquire loads: the word may gate the caller's reads of what the kernel wrote
    // (compaction_wait::flag), and none of those may move before it (a plain load on x86; on
    // weaker hosts such as aarch64 an ordered one).
    const auto load = [slot] { return __atomic_load_n(slot, __ATOMIC_ACQUIRE); };
    for (unsigned spin = 0;; ++spin) {
        const std::int64_t v = load();
        if (v != unset) return v;
        spin_pause();
        if (spin % 256 == 255) {
            const cudaError_t e = cudaStreamQuery(s);
            if (e == cudaErrorNotReady) continue;
            check(e, algorithm, "cudaStreamQuery");
            const std::int64_t last = load();  // the stream is done: the write, if any, is visible
            if (last != unset) return last;
            throw std::logic_error(std::string(algorithm) +
                                   ": the kernel finished without writing its result");
        }
    }
}

void memset_async(void* p, std::size_t bytes, stream_t s, const char* algorithm) {
    check(cudaMemsetAsync(p, 0, bytes, s), algorithm, "cudaMemsetAsync");
}

// mapped_count_slot (runtime.hpp). Here, not with the precompiled kernels: nvcc-compiled
// compaction and segmented scans need it too.
namespace {
/// Page-locked, mapped into every device's address space (portable), so that a kernel on any
/// device can write it through the same pointer (unified addressing).
struct count_slot {
    std::int64_t* p = nullptr;
    count_slot() {
        // Testing: a process started with SWEEP_TEST_NO_MAPPED_SLOT set (not "0") has no slot, so
        // that its results take the fallback through device memory and a copy (ctest's
        // *_no_mapped_slot entries, test/gpu_tests.cmake). Read once per thread.
        if (const char* e = std::getenv("SWEEP_TEST_NO_MAPPED_SLOT");
            e != nullptr && e[0] != '\0' && !(e[0] == '0' && e[1] == '\0'))
            return;
        const relaxed_capture_mode relaxed;
        void* q = nullptr;
        if (cudaHostAlloc(&q, sizeof(std::int64_t), cudaHostAllocMapped | cudaHostAllocPortable) ==
            cudaSuccess)
            p = static_cast<std::int64_t*>(q);
        else
            (void)cudaGetLastError();  // not sticky; the caller falls back to a copy
    }
    ~count_slot() {
        if (p != nullptr) (void)cudaFreeHost(p);  // at thread exit; may fail at process exit
    }
    count_slot(const count_slot&) = delete;
    count_slot& operator=(const count_slot&) = delete;
};
}  // namespace

std::int64_t* mapped_count_slot() {
    thread_local count_slot slot;
    return slot.p;
}

}  // namespace sweep::detail::cuda
