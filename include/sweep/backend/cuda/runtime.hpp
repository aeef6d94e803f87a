// sweep/backend/cuda/runtime.hpp -- GPU backend, host side: the non-template runtime.
//
// Declares what src/cuda/runtime.cu defines: the one CUDA error helper, the pointer check, and the
// library's default stream-ordered pool. Plain C++ (no CUDA headers) so that g++-compiled callers
// include it too; cudaStream_t is sweep::stream_t, and a cudaError_t travels as an int.
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>
#include <type_traits>

#include <sweep/execution.hpp>

namespace sweep::detail::cuda {

/// Throws sweep::cuda_error naming `algorithm` and `call` when `code` is not cudaSuccess (0).
/// Every CUDA failure of the backend goes through here.
void check(int code, const char* algorithm, const char* call);

/// The last launch error of this thread (cudaGetLastError), checked like `check`.
void check_launch(const char* algorithm);

/// True when `p` is device or managed memory of the current device's address space.
/// Host memory (pageable or pinned) is rejected: API.md promises device-accessible raw pointers.
bool is_device_accessible(const void* p);

/// Where a raw pointer points, as sweep::automatic needs it.
enum class memory_kind : unsigned char { host, device, managed };

/// One cudaPointerGetAttributes. Host memory (pageable, pinned or unregistered), a pointer CUDA
/// does not know, and any pointer on a machine without a usable CUDA device (checked once per
/// process) are `host`; no CUDA error is left behind. Never throws.
memory_kind memory_kind_of(const void* p) noexcept;

/// This host thread's page-locked, device-mapped 64-bit slot (src/cuda/runtime.cu): a kernel
/// writes a result there (compaction's kept count, the in-place partition's point, the
/// segmented offsets check's verdict), so that a call learns it with one stream synchronization
/// and no copy. One per host thread is enough, since every such call waits for it before it
/// returns. Null when page-locked memory could not be had, or in a process started with
/// SWEEP_TEST_NO_MAPPED_SLOT set (a test of that path); the result then travels through device
/// memory and a copy.
std::int64_t* mapped_count_slot();

/// How many blocks of `kernel` (a __global__ function's address) with `threads` threads and
/// `dynamic_smem` bytes of dynamic shared memory fit on the current device at once: SMs times
/// blocks per SM (at least one per SM). Cached per kernel, device and shared-memory size; for
/// more than 48 KB call allow_dynamic_smem first.
int resident_blocks(const void* kernel, int threads, const char* algorithm, int dynamic_smem = 0);

/// Whether the current device has the copy engine's bulk copies (compute capability 9.0 or
/// later), cached per device.
bool device_has_bulk_copy(const char* algorithm);

/// The current device's L2 cache size in bytes (cudaDevAttrL2CacheSize), cached per device.
int l2_cache_bytes(const char* algorithm);

/// The most dynamic shared memory one block may take on the current device
/// (cudaDevAttrMaxSharedMemoryPerBlockOptin: 227 KB on sm_90, 99 KB on sm_86 and sm_89), cached
/// per device.
int max_dynamic_smem(const char* algorithm);

/// Lets `kernel` take `dynamic_smem` bytes of dynamic shared memory (past the default 48 KB) and
/// asks for the largest shared-memory carve-out, once per kernel and device.
void allow_dynamic_smem(const void* kernel, int dynamic_smem, const char* algorithm);

/// Temporary memory from the library's own cudaMallocAsync pool on the current device (release
/// threshold raised so that memory stays cached between calls). Returns null on failure.
void* pool_allocate(std::size_t bytes, stream_t s);
void pool_deallocate(void* p, stream_t s);

/// Bytes of each half of a stream's clean tile-state arena (arena_lease).
inline constexpr std::size_t clean_arena_bytes = 192 * 1024;

/// At most this many arenas per process (two halves each; streams beyond it take the reset path).
inline constexpr int max_clean_arenas = 64;

/// The stream a call on `s` enqueued its work on, as a handle that means the same in every
/// translation unit: `s` itself, or for 0 this translation unit's default stream. An nvcc-compiled
/// caller built with per-thread default streams launched on its thread's stream, which 0 would
/// not name inside the library (src/cuda is compiled with the legacy default stream): waiting on
/// 0 there would not wait for that work. Host-compiled callers enqueue through the precompiled
/// kernels, which are compiled like the library, so 0 stays 0. (Inline, so decided per
/// translation unit, as everything the headers launch is: one program should not share an
/// instantiation between translation units compiled in the two modes.)
inline stream_t launch_stream(stream_t s) {
    if (s != nullptr) return s;
#if defined(__CUDACC__) && defined(CUDA_API_PER_THREAD_DEFAULT_STREAM)
    return cudaStreamPerThread;
#else
    return nullptr;
#endif
}

/// A look-back launch's hold on the clean tile-state arena of its stream (on the current
/// device): library-owned device memory in two halves that take turns. The half a launch gets
/// is all zero; the launch zeroes the other half, which the launch before it on the stream used
/// (its blocks share the work: lookback::leave_clean), so the next launch finds that one clean.
/// No allocation, no reset kernel, no programmatic dependency: the launch is a plain one, and
/// stream order alone keeps launches on one arena apart. The lease holds the arena's lock from
/// construction to launched() (or destruction), so that the halves alternate in the order
/// launches enter the stream even when several host threads share it. docs/decisions/0001-tile-state-reset.md.
///
/// No arena (states() null: the caller resets temporary memory as before) when `s` is being
/// captured into a graph (a replay may run beside later calls on the stream), is the per-thread
/// default stream (one handle, many streams), cannot be identified (cudaStreamGetId), when
/// `bytes` exceed a half, or when the process already holds `max_clean_arenas` arenas. `s` is
/// the caller's stream, 0 included (launch_stream names the default stream the caller's
/// translation unit launches on). Never throws; leaves no CUDA error behind.
class arena_lease {
public:
    arena_lease() noexcept = default;  // no arena
    arena_lease(stream_t s, std::size_t bytes) noexcept { acquire(launch_stream(s), bytes); }
    arena_lease(const arena_lease&) = delete;
    arena_lease& operator=(const arena_lease&) = delete;
    ~arena_lease();

    /// The clean half, or null.
    [[nodiscard]] void* states() const noexcept { return states_; }
    /// What the previous launch on the stream used: this launch must zero it.
    [[nodiscard]] void* dirty() const noexcept { return dirty_; }
    [[nodiscard]] std::size_t dirty_bytes() const noexcept { return dirty_bytes_; }
    /// The launch was enqueued: its half (`bytes` of it) is the next launch's to zero; lets go
    /// of the arena (states() and dirty() stay readable). Not called (the launch failed):
    /// nothing changed on the device, nor here.
    void launched() noexcept;
    /// The clean half could not be made clean again after a failure: no lease on this arena
    /// from now on (its stream takes temporary memory and a reset).
    void retire() noexcept;

private:
    void acquire(stream_t s, std::size_t bytes) noexcept;  // s: a launch_stream handle
    void* arena_ = nullptr;  // the arena's record (src/cuda/runtime.cu), locked while held
    void* states_ = nullptr;
    void* dirty_ = nullptr;
    std::size_t dirty_bytes_ = 0;
    std::size_t bytes_ = 0;
};

/// How many arenas this process has made so far (tests prove the path is taken).
int clean_state_arenas_made() noexcept;

/// The out-of-line waits (src/cuda/runtime.cu); `s` is a launch_stream handle.
void synchronize_stream(stream_t s, const char* algorithm);
std::int64_t wait_for_mapped_on(const std::int64_t* slot, std::int64_t unset, stream_t s,
                                const char* algorithm);

/// Waits for `s` (the synchronous form of a call).
inline void synchronize(stream_t s, const char* algorithm) {
    synchronize_stream(launch_stream(s), algorithm);
}

/// Waits until a kernel enqueued on `s` has written `*slot` (mapped host memory the caller set to
/// `unset` before the launch) and returns the value, without waiting for the rest of the stream.
/// Spins on the word; now and then asks whether `s` has finished or failed without writing it
/// (a CUDA error: sweep::cuda_error; finished without a write: a std::logic_error, a library bug).
inline std::int64_t wait_for_mapped(const std::int64_t* slot, std::int64_t unset, stream_t s,
                                    const char* algorithm) {
    return wait_for_mapped_on(slot, unset, launch_stream(s), algorithm);
}

/// Enqueues a memset of `bytes` at `p` on `s`.
void memset_async(void* p, std::size_t bytes, stream_t s, const char* algorithm);

/// A type-erased memory resource: what the precompiled entry points receive instead of the
/// policy's Resource type.
struct temp_allocator {
    void* self = nullptr;  // the Resource, or null for the default pool
    void* (*allocate)(void* self, std::size_t bytes, std::size_t align, stream_t s) = nullptr;
    void (*deallocate)(void* self, void* p, std::size_t bytes, std::size_t align,
                       stream_t s) = nullptr;
};

template <class Resource>
temp_allocator make_temp_allocator(Resource* r) {
    if constexpr (std::is_same_v<Resource, default_resource>) {
        (void)r;
        return temp_allocator{
            nullptr,
            [](void*, std::size_t bytes, std::size_t, stream_t s) { return pool_allocate(bytes, s); },
            [](void*, void* p, std::size_t, std::size_t, stream_t s) { pool_deallocate(p, s); }};
    } else {
        return temp_allocator{
            r,
            [](void* self, std::size_t bytes, std::size_t align, stream_t s) -> void* {
                return static_cast<Resource*>(self)->allocate(bytes, align, s);
            },
            [](void* self, void* p, std::size_t bytes, std::size_t align, stream_t s) {
                static_cast<Resource*>(self)->deallocate(p, bytes, align, s);
            }};
    }
}

/// Temporary device memory for one call, given back (stream-ordered) when the call's work is
/// enqueued. Construction throws std::bad_alloc when the resource has none: before any output is
/// written, as API.md requires.
class temp_buffer {
public:
    temp_buffer(const temp_allocator& a, std::size_t bytes, stream_t s)
        : alloc_(a), bytes_(bytes), stream_(s) {
        if (bytes_ == 0) return;
        ptr_ = alloc_.allocate(alloc_.self, bytes_, alignment, stream_);
        if (ptr_ == nullptr) throw std::bad_alloc();
    }
    temp_buffer(const temp_buffer&) = delete;
    temp_buffer& operator=(const temp_buffer&) = delete;
    ~temp_buffer() {
        if (ptr_ != nullptr) alloc_.deallocate(alloc_.self, ptr_, bytes_, alignment, stream_);
    }
    [[nodiscard]] void* get() const noexcept { return ptr_; }

    // 256 bytes: cudaMalloc's own alignment, so a resource built on it needs no rounding.
    static constexpr std::size_t alignment = 256;

private:
    temp_allocator alloc_;
    std::size_t bytes_;
    stream_t stream_;
    void* ptr_ = nullptr;
};

}  // namespace sweep::detail::cuda
