// test/support/counting_new.hpp -- replaces the global operator new/delete with versions that count
// live allocations and can be made to fail (allocation-failure injection). Include it in exactly
// ONE translation unit of a test program (the replacement functions are defined here).
//   sweep_test::live_allocations  allocations not yet freed;
//   sweep_test::fail_above        requests larger than this many bytes throw std::bad_alloc.
// The nothrow forms are replaced too (Catch2 uses them): otherwise they would come from a
// sanitizer's runtime and be freed by the replaced operator delete, an alloc-dealloc mismatch
// under ASan.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>

namespace sweep_test {
inline std::atomic<std::int64_t> live_allocations{0};
inline std::atomic<std::size_t> fail_above{~std::size_t{0}};
}  // namespace sweep_test

void* operator new(std::size_t size) {
    if (size > sweep_test::fail_above.load(std::memory_order_relaxed)) throw std::bad_alloc();
    if (void* p = std::malloc(size ? size : 1)) {
        sweep_test::live_allocations.fetch_add(1, std::memory_order_relaxed);
        return p;
    }
    throw std::bad_alloc();
}
void* operator new(std::size_t size, std::align_val_t al) {
    if (size > sweep_test::fail_above.load(std::memory_order_relaxed)) throw std::bad_alloc();
    const auto a = static_cast<std::size_t>(al);
    if (void* p = std::aligned_alloc(a, (size + a - 1) / a * a)) {
        sweep_test::live_allocations.fetch_add(1, std::memory_order_relaxed);
        return p;
    }
    throw std::bad_alloc();
}
void* operator new[](std::size_t size) { return operator new(size); }
void* operator new[](std::size_t size, std::align_val_t al) { return operator new(size, al); }
void operator delete(void* p) noexcept {
    if (!p) return;
    sweep_test::live_allocations.fetch_sub(1, std::memory_order_relaxed);
    std::free(p);
}
void operator delete(void* p, std::size_t) noexcept { operator delete(p); }
void operator delete(void* p, std::align_val_t) noexcept { operator delete(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { operator delete(p); }
void operator delete[](void* p) noexcept { operator delete(p); }
void operator delete[](void* p, std::size_t) noexcept { operator delete(p); }
void operator delete[](void* p, std::align_val_t) noexcept { operator delete(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { operator delete(p); }
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
    try {
        return operator new(size);
    } catch (...) {
        return nullptr;
    }
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
    try {
        return operator new(size);
    } catch (...) {
        return nullptr;
    }
}
void* operator new(std::size_t size, std::align_val_t al, const std::nothrow_t&) noexcept {
    try {
        return operator new(size, al);
    } catch (...) {
        return nullptr;
    }
}
void* operator new[](std::size_t size, std::align_val_t al, const std::nothrow_t&) noexcept {
    try {
        return operator new(size, al);
    } catch (...) {
        return nullptr;
    }
}
void operator delete(void* p, const std::nothrow_t&) noexcept { operator delete(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { operator delete(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { operator delete(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { operator delete(p); }
