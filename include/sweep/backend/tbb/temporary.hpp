// sweep/backend/tbb/temporary.hpp -- par backend (oneTBB): the n-sized temporaries of
// stable_partition and the radix sort.
//
// A fresh n-sized buffer costs a page fault per 4 KiB page on first touch; at 2^27 int32 that was
// most of stable_partition's time on the 16-core host (perf/cpu). On Linux the buffer is mapped
// directly and marked MADV_HUGEPAGE, so transparent huge pages (enabled=madvise, the common
// default) take one fault per 2 MiB. A released mapping is kept, lazily freed, for the next call
// (spare_mappings). Uninitialized storage for trivially copyable T only.
#pragma once

#include <sweep/detail/fault_injection.hpp>

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <new>
#include <utility>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace sweep::detail::tbb_backend {

#if defined(__linux__)
/// The mappings a finished call leaves for the next one: up to two (a sort with values maps its
/// keys' and its values' temporaries), marked MADV_FREE. A fresh mapping is cleared by the kernel
/// page by page on first touch (about 5 % of a 2^27-key radix sort on the 16-core host); a spare
/// one is reused as it is, its contents garbage (the temporaries are written before they are
/// read). MADV_FREE lets the kernel take the pages back whenever it needs memory (a reused page it
/// took comes back cleared, as a fresh one), so keeping them costs no memory the system wants;
/// they do count in the process's RSS until then. release_spare_mappings() unmaps them.
class spare_mappings {
public:
    /// Never destroyed (a temporary released during static destruction still finds it); the
    /// spares go with the process.
    static spare_mappings& instance() noexcept {
        static spare_mappings* const s = new spare_mappings;
        return *s;
    }
    /// The smallest spare of at least `bytes` (its size in `got`), or nullptr.
    void* take(std::size_t bytes, std::size_t& got) noexcept {
        std::lock_guard<std::mutex> lock(m_);
        int best = -1;
        for (int i = 0; i < slots; ++i)
            if (held_[i].p != nullptr && held_[i].bytes >= bytes &&
                (best < 0 || held_[i].bytes < held_[best].bytes))
                best = i;
        if (best < 0) return nullptr;
        void* p = held_[best].p;
        got = held_[best].bytes;
        held_[best] = {};
        return p;
    }
    /// Keeps p (bytes long) as a spare, in place of a smaller one if both slots are held; unmaps
    /// whichever is not kept.
    void give(void* p, std::size_t bytes) noexcept {
#if defined(MADV_FREE)
        if (madvise(p, bytes, MADV_FREE) != 0) {  // a kernel before Linux 4.5: not kept
            munmap(p, bytes);
            return;
        }
#else
        munmap(p, bytes);  // headers without MADV_FREE: not kept
        return;
#endif
        entry out{p, bytes};
        {
            std::lock_guard<std::mutex> lock(m_);
            int slot = 0;
            for (int i = 1; i < slots; ++i)
                if (held_[i].bytes < held_[slot].bytes) slot = i;  // an empty slot has 0 bytes
            if (held_[slot].bytes < bytes) std::swap(out, held_[slot]);
        }
        if (out.p != nullptr) munmap(out.p, out.bytes);
    }
    void release() noexcept {
        entry out[slots];
        {
            std::lock_guard<std::mutex> lock(m_);
            for (int i = 0; i < slots; ++i) std::swap(out[i], held_[i]);
        }
        for (const entry& e : out)
            if (e.p != nullptr) munmap(e.p, e.bytes);
    }

private:
    struct entry {
        void* p = nullptr;
        std::size_t bytes = 0;
    };
    static constexpr int slots = 2;
    std::mutex m_;
    entry held_[slots];
};
#endif

/// Unmaps the spare temporaries kept for the next call (a no-op where none are kept).
inline void release_spare_mappings() noexcept {
#if defined(__linux__)
    spare_mappings::instance().release();
#endif
}

template <class T>
class raw_temporary {
public:
    explicit raw_temporary(std::int64_t n)
        : bytes_(static_cast<std::size_t>(testing::temporary_size(n)) * sizeof(T)) {
#if defined(__linux__)
        constexpr std::size_t huge = std::size_t{1} << 21;  // x86-64 and arm64 THP size
        bytes_ = (bytes_ + huge - 1) / huge * huge;
        std::size_t got = 0;
        if (void* spare = spare_mappings::instance().take(bytes_, got)) {
            bytes_ = got;
            data_ = static_cast<T*>(spare);
            return;
        }
        auto map = [&] {
            return mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        };
        void* p = map();
        if (p == MAP_FAILED) {  // the spares too small, and in the way of an address-space limit
            spare_mappings::instance().release();
            p = map();
        }
        if (p == MAP_FAILED) throw std::bad_alloc();
        madvise(p, bytes_, MADV_HUGEPAGE);  // a hint: failure only costs speed
        data_ = static_cast<T*>(p);
#else
        data_ = static_cast<T*>(::operator new(bytes_, std::align_val_t{alignof(T)}));
#endif
    }
    ~raw_temporary() {
#if defined(__linux__)
        spare_mappings::instance().give(data_, bytes_);
#else
        ::operator delete(data_, std::align_val_t{alignof(T)});
#endif
    }
    raw_temporary(const raw_temporary&) = delete;
    raw_temporary& operator=(const raw_temporary&) = delete;
    T* get() const noexcept { return data_; }

private:
    std::size_t bytes_;
    T* data_ = nullptr;
};

}  // namespace sweep::detail::tbb_backend
