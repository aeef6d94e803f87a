// test/policies.cpp -- host tests: the policy layer (execution.hpp, detail/dispatch.hpp).
//
// Which backend tag each accepted policy maps to (std::execution::* included), that modifiers
// return new values, chain and keep what they were given, that sweep::gpu is a policy of its own
// type, and where sweep::automatic sends a call. Most of it holds at compile time (static_assert);
// the same facts are also CHECKed so the test reports them.
//
// Not tested here: "calling with sweep::gpu in a CPU-only build does not compile". The refusal is
// a static_assert inside detail::invoke_backend, i.e. in a function body, which a
// requires-expression cannot observe (it only checks the declaration), so a concept check would
// report the call as valid. Testing it needs a try_compile-style negative build; see the report.
#include <cstdint>
#include <execution>
#include <vector>
#include <type_traits>

#include <sweep/sweep.hpp>

#include "catch.hpp"

namespace {

using sweep::detail::automatic_tag;
using sweep::detail::backend_t;
using sweep::detail::gpu_tag;
using sweep::detail::par_tag;
using sweep::detail::seq_tag;

// ---- policy -> backend tag -----------------------------------------------------------------------
static_assert(std::is_same_v<backend_t<decltype(sweep::seq)>, seq_tag>);
static_assert(std::is_same_v<backend_t<decltype(sweep::par)>, par_tag>);
static_assert(std::is_same_v<backend_t<decltype(sweep::par.threads(2))>, par_tag>);
static_assert(std::is_same_v<backend_t<decltype(sweep::gpu)>, gpu_tag>);
static_assert(std::is_same_v<backend_t<decltype(sweep::automatic)>, automatic_tag>);
static_assert(std::is_same_v<backend_t<decltype(std::execution::seq)>, seq_tag>);
static_assert(std::is_same_v<backend_t<decltype(std::execution::par)>, par_tag>);
static_assert(std::is_same_v<backend_t<decltype(std::execution::par_unseq)>, par_tag>);
#if defined(__cpp_lib_execution) && __cpp_lib_execution >= 201902L
static_assert(std::is_same_v<backend_t<decltype(std::execution::unseq)>, par_tag>);
#endif
// References and const are looked through (the entry points take P&&).
static_assert(std::is_same_v<backend_t<const sweep::par_policy<>&>, par_tag>);
static_assert(std::is_same_v<backend_t<std::execution::parallel_policy&&>, par_tag>);

// ---- what counts as a policy ----------------------------------------------------------------------
static_assert(sweep::execution_policy<decltype(sweep::seq)>);
static_assert(sweep::execution_policy<decltype(sweep::gpu)>);
static_assert(sweep::execution_policy<const std::execution::sequenced_policy&>);
static_assert(!sweep::execution_policy<int>);
static_assert(!sweep::execution_policy<int*>);
static_assert(!sweep::execution_policy<std::vector<int>::iterator>);

// ---- sweep::gpu is its own type --------------------------------------------------------------------
static_assert(!std::is_same_v<std::remove_cv_t<decltype(sweep::gpu)>,
                              std::remove_cv_t<decltype(sweep::par)>>);
static_assert(!std::is_same_v<std::remove_cv_t<decltype(sweep::gpu)>,
                              std::remove_cv_t<decltype(sweep::seq)>>);
static_assert(!std::is_same_v<std::remove_cv_t<decltype(sweep::gpu)>,
                              std::remove_cv_t<decltype(sweep::automatic)>>);
static_assert(sweep::detail::is_gpu_v<decltype(sweep::gpu)>);
static_assert(!sweep::detail::is_gpu_v<decltype(sweep::par)>);
static_assert(!sweep::detail::is_gpu_v<decltype(std::execution::par)>);

// ---- the standard policies stand for sweep's --------------------------------------------------------
static_assert(std::is_same_v<sweep::detail::sweep_policy_t<std::execution::sequenced_policy>,
                             sweep::seq_policy<>>);
static_assert(std::is_same_v<sweep::detail::sweep_policy_t<std::execution::parallel_policy>,
                             sweep::par_policy<>>);
static_assert(
    std::is_same_v<sweep::detail::sweep_policy_t<std::execution::parallel_unsequenced_policy>,
                   sweep::par_policy<>>);

// ---- modifiers are constexpr and return new values ------------------------------------------------
static_assert(sweep::par.threads(3).max_threads == 3);
static_assert(sweep::par.max_threads == 0);
static_assert(sweep::automatic.threads(5).max_threads == 5);

}  // namespace

TEST_CASE("policies: .threads(k) is stored, returns a new value, and chains", "[policies]") {
    const auto p = sweep::par;
    const auto q = p.threads(4);
    CHECK(q.max_threads == 4);
    CHECK(p.max_threads == 0);  // the original is untouched
    CHECK(q.threads(2).max_threads == 2);
    CHECK(q.max_threads == 4);
    CHECK(sweep::par.threads(0).max_threads == 0);   // 0: no cap
    CHECK(sweep::par.threads(-3).max_threads == 0);  // negative: no cap
    static_assert(std::is_same_v<decltype(q), const sweep::par_policy<>>);
}

TEST_CASE("policies: gpu and automatic modifiers chain and keep earlier settings", "[policies]") {
    auto* s = reinterpret_cast<sweep::stream_t>(std::uintptr_t{0x1234});
    struct resource {
        int tag = 7;
    } r;
    const auto g0 = sweep::gpu;
    const auto g1 = g0.on(s);
    CHECK(!g0.has_stream);
    CHECK(g0.stream == nullptr);
    CHECK(g1.has_stream);
    CHECK(g1.stream == s);
    const auto g2 = g1.with(r);
    CHECK(g2.stream == s);  // .with keeps .on
    CHECK(g2.has_stream);
    CHECK(g2.resource == &r);
    static_assert(std::is_same_v<std::remove_cv_t<decltype(g2)>, sweep::gpu_policy<0, resource>>);
    CHECK(std::is_same_v<backend_t<decltype(g2)>, gpu_tag>);
    const auto g3 = g0.with(r).on(s);  // either order
    CHECK(g3.stream == s);
    CHECK(g3.resource == &r);

    const auto a = sweep::automatic.threads(3).on(s).with(r);
    CHECK(a.max_threads == 3);
    CHECK(a.stream == s);
    CHECK(a.has_stream);
    CHECK(a.resource == &r);
    CHECK(sweep::automatic.max_threads == 0);
    CHECK(!sweep::automatic.has_stream);
}

TEST_CASE("policies: every policy is accepted by the algorithms and reaches a backend",
          "[policies]") {
    // The backend each call actually runs on, as invoke_backend reports it.
    auto tag_of = [](const auto& pol, std::int64_t n) {
        return sweep::detail::invoke_backend(pol, n, [](auto tag, const auto&) {
            if constexpr (std::is_same_v<decltype(tag), seq_tag>) return 's';
            else if constexpr (std::is_same_v<decltype(tag), par_tag>) return 'p';
            else return '?';
        });
    };
    const char par_or_seq = SWEEP_HAS_TBB ? 'p' : 's';  // par without oneTBB runs on seq
    CHECK(tag_of(sweep::seq, 10) == 's');
    CHECK(tag_of(sweep::par, 10) == par_or_seq);
    CHECK(tag_of(std::execution::seq, 1 << 20) == 's');
    CHECK(tag_of(std::execution::par, 10) == par_or_seq);
    CHECK(tag_of(std::execution::par_unseq, 10) == par_or_seq);
    // sweep::automatic: small host inputs run on seq, larger ones on par (API.md).
    const auto t = sweep::detail::automatic_seq_below;
    CHECK(tag_of(sweep::automatic, 0) == 's');
    CHECK(tag_of(sweep::automatic, t - 1) == 's');
    CHECK(tag_of(sweep::automatic, t) == par_or_seq);
    CHECK(tag_of(sweep::automatic, std::int64_t{1} << 40) == par_or_seq);
    // .threads(k) on automatic reaches the par policy it picks.
    const int k = sweep::detail::invoke_backend(
        sweep::automatic.threads(3), t, [](auto, const auto& pol) {
            if constexpr (requires { pol.max_threads; }) return pol.max_threads;
            else return -1;
        });
    CHECK(k == (SWEEP_HAS_TBB ? 3 : -1));
}

// ---- sweep's algorithms are never found by argument-dependent lookup ----------------------------
// Other libraries (Thrust, for one) call their own algorithms unqualified, with the caller's
// functors as arguments. If sweep's entry points were function templates, a sweep functor among
// those arguments would make ADL consider them, and sweep's forwarding-reference signatures would
// win over the library's own: the library would silently run sweep instead of itself.
namespace other_lib {
// Policies as Thrust has them: a CRTP base, and the library's algorithms take the base.
template <class Derived>
struct policy_base {};
struct policy : policy_base<policy> {};

inline int own_calls = 0;

template <class D, class In, class Out, class Op>
Out inclusive_scan(const policy_base<D>&, In first, In last, Out d_first, Op) {
    ++own_calls;
    return d_first + (last - first);
}
template <class D, class In, class Out, class Pred>
Out copy_if(const policy_base<D>&, In, In, Out d_first, Pred) {
    ++own_calls;
    return d_first;
}

// What such a library does internally: an unqualified call with the derived policy.
template <class Policy, class In, class Out, class Op>
Out call_scan_unqualified(const Policy& p, In first, In last, Out d_first, Op op) {
    return inclusive_scan(p, first, last, d_first, op);
}
template <class Policy, class In, class Out, class Pred>
Out call_copy_if_unqualified(const Policy& p, In first, In last, Out d_first, Pred pred) {
    return copy_if(p, first, last, d_first, pred);
}
}  // namespace other_lib

// sweep accepts the other library's policy (as it accepts Thrust's): it maps to sweep::seq.
template <>
struct sweep::detail::policy_traits<other_lib::policy> {
    using tag = seq_tag;
    static constexpr seq_policy<> convert(const other_lib::policy&) noexcept { return {}; }
};

TEST_CASE("policies: another library's unqualified calls with sweep functors stay its own",
          "[policies]") {
    std::vector<int> in{1, 2, 3}, out(3, 0);
    other_lib::own_calls = 0;
    // With function templates, ADL through sweep::plus<> / sweep::greater_than would find sweep's
    // overloads, whose P&& parameter matches other_lib::policy exactly, better than the library's
    // own policy_base<D>& (a derived-to-base conversion): sweep's would run.
    other_lib::call_scan_unqualified(other_lib::policy{}, in.begin(), in.end(), out.begin(),
                                     sweep::plus<>{});
    other_lib::call_copy_if_unqualified(other_lib::policy{}, in.begin(), in.end(), out.begin(),
                                        sweep::greater_than<int>{1});
    CHECK(other_lib::own_calls == 2);
    CHECK(out == std::vector<int>{0, 0, 0});  // sweep did not write the output
    // And sweep's objects are still called as functions, qualified or after a using-declaration.
    using sweep::inclusive_scan;
    inclusive_scan(sweep::seq, in.begin(), in.end(), out.begin());
    CHECK(out == std::vector<int>{1, 3, 6});
}
