// sweep/backend/tbb/temporary.hpp -- par backend (oneTBB): the n-sized temporary of
// stable_partition.
//
// A fresh n-sized buffer costs a page fault per 4 KiB page on first touch; at 2^27 int32 that was
// most of stable_partition's time on the 16-core host (perf/cpu). On Linux the buffer is mapped
// directly and marked MADV_HUGEPAGE, so transparent huge pages (enabled=madvise, the common
// default) take one fault per 2 MiB. Uninitialized storage for trivially copyable T only.
#pragma once

#include <sweep/detail/fault_injection.hpp>

#include <cstddef>
#include <cstdint>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace sweep::detail::tbb_backend {

template <class T>
class raw_temporary {
public:
    explicit raw_temporary(std::int64_t n)
        : bytes_(static_cast<std::size_t>(testing::temporary_size(n)) * sizeof(T)) {
#if defined(__linux__)
        constexpr std::size_t huge = std::size_t{1} << 21;  // x86-64 and arm64 THP size
        bytes_ = (bytes_ + huge - 1) / huge * huge;
        void* p = mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) throw std::bad_alloc();
        madvise(p, bytes_, MADV_HUGEPAGE);  // a hint: failure only costs speed
        data_ = static_cast<T*>(p);
#else
        data_ = static_cast<T*>(::operator new(bytes_, std::align_val_t{alignof(T)}));
#endif
    }
    ~raw_temporary() {
#if defined(__linux__)
        munmap(data_, bytes_);
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
