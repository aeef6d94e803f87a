// sweep/detail/scan_common.hpp -- shared vocabulary of the scan family, used by every backend.
#pragma once

#include <type_traits>
#include <utility>

#include <sweep/detail/config.hpp>

namespace sweep::detail {

/// "No initial value": an inclusive scan that starts from the first element.
struct no_init {};

template <class Init>
inline constexpr bool has_init_v = !std::is_same_v<Init, no_init>;

/// The transform of a plain scan. Forwards its argument untouched, so proxies stay proxies.
struct identity {
    template <class T>
    SWEEP_HD constexpr T&& operator()(T&& x) const noexcept {
        return static_cast<T&&>(x);
    }
};

}  // namespace sweep::detail
