// SPDX-License-Identifier: BSL-1.0
// Ready passes: constexpr function objects mapping a body to a new body, for a context's
// `static constexpr auto pass = ...;`.
#pragma once

#include <cassette/detail/type_name.hpp>
#include <cassette/function.hpp>
#include <cassette/transform.hpp>

#include <boost/hana/at.hpp>
#include <boost/hana/unpack.hpp>
#include <boost/mp11/algorithm.hpp>
#include <boost/mp11/list.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

namespace cassette::passes {

// Every call to `from` becomes a call to `to`, with the same arguments. Callees of an empty
// type are matched by type; callees with state (function pointers, lambdas with captures)
// by value, through an if_ decided at compile time: `from` is a value, not a type.
template <class From, class To>
constexpr auto replace(From const& from, To const& to) {
    static_assert(std::is_empty_v<From> || std::equality_comparable<From>,
                  "cassette::passes::replace(from, to): `from` carries state but cannot be compared "
                  "with ==, so the pass cannot tell its calls from calls to other objects of its type. "
                  "Give the callee an operator==, or pass a function pointer or a stateless object.");
    return [=](auto const& body) {  // `from` is read only when it carries state
        return ir::transform(body, [&]<class... A>(ir::call<From, A...> const& c) {
            auto replaced = boost::hana::unpack(c.args, [&](auto const&... args) { return ir::make_call(to, args...); });
            if constexpr (std::is_empty_v<From>)
                return replaced;
            else
                return ir::conditional<ir::constant<bool>, decltype(replaced), ir::call<From, A...>>{
                    ir::constant<bool>(c.fn == from), replaced, c};
        });
    };
}

namespace detail {
template <class Body>
constexpr auto apply_in_order(Body const& body) {
    return body;
}
template <class Body, class P, class... Rest>
constexpr auto apply_in_order(Body const& body, P const& p, Rest const&... rest) {
    return detail::apply_in_order(p(body), rest...);
}
}  // namespace detail

// p1 first, then p2, ...
template <class... P>
constexpr auto compose(P const&... p) {
    return [p...](auto const& body) { return detail::apply_in_order(body, p...); };
}

// The primitives fold_constants evaluates at compile time: those whose plain computation is
// a constant expression on every compiler. Specialise it for your own constexpr callables.
template <class F>
inline constexpr bool constant_foldable = false;
#define CASSETTE_DETAIL_FOLDABLE(NAME) \
    template <>                        \
    inline constexpr bool constant_foldable<op::NAME##_t> = true;
CASSETTE_DETAIL_FOLDABLE(add)
CASSETTE_DETAIL_FOLDABLE(sub)
CASSETTE_DETAIL_FOLDABLE(mul)
CASSETTE_DETAIL_FOLDABLE(div)
CASSETTE_DETAIL_FOLDABLE(mod)
CASSETTE_DETAIL_FOLDABLE(neg)
CASSETTE_DETAIL_FOLDABLE(lt)
CASSETTE_DETAIL_FOLDABLE(le)
CASSETTE_DETAIL_FOLDABLE(gt)
CASSETTE_DETAIL_FOLDABLE(ge)
CASSETTE_DETAIL_FOLDABLE(eq)
CASSETTE_DETAIL_FOLDABLE(ne)
CASSETTE_DETAIL_FOLDABLE(logical_and)
CASSETTE_DETAIL_FOLDABLE(logical_or)
CASSETTE_DETAIL_FOLDABLE(logical_not)
CASSETTE_DETAIL_FOLDABLE(min)
CASSETTE_DETAIL_FOLDABLE(max)
CASSETTE_DETAIL_FOLDABLE(square)
#undef CASSETTE_DETAIL_FOLDABLE

// A call whose arguments are all constants becomes the constant it computes.
struct fold_constants_t {
    struct rule {
        template <class F, class T, class... Ts>
            requires constant_foldable<F>
        constexpr auto operator()(ir::call<F, ir::constant<T>, ir::constant<Ts>...> const& c) const {
            return boost::hana::unpack(c.args, [&](auto const&... k) { return c.fn(k.value...); });
        }
    };

    template <class Body>
    constexpr auto operator()(Body const& body) const {
        return ir::transform(body, rule{});
    }
};
inline constexpr fold_constants_t fold_constants{};

namespace detail {

// Ids of the variables CSE introduces, distinct from any lambda's closure type.
template <class Subtree>
struct cse_variable {};

}  // namespace detail

// pow(x, 2) to square(x): x * x in pow's result type, with no call to pow. The exponent is a
// value, not a type, so the rewrite is a decided if_: `if_(constant true/false, square, pow)`,
// whose dead branch the evaluator never takes and the optimiser removes; listings show the
// live one. pow(x, 0.5) is left alone: sqrt(x) differs from it at -0 and -inf.
struct strength_reduction_t {
    struct rule {
        template <class X, class E>
        constexpr auto operator()(ir::call<op::pow_t, X, ir::constant<E>> const& c) const {
            auto const squared = op::square(boost::hana::at_c<0>(c.args));
            return ir::conditional<ir::constant<bool>, decltype(squared), ir::call<op::pow_t, X, ir::constant<E>>>{
                ir::constant<bool>(boost::hana::at_c<1>(c.args).value == 2), squared, c};
        }
    };

    template <class Body>
    constexpr auto operator()(Body const& body) const {
        return ir::transform(body, rule{});
    }
};
inline constexpr strength_reduction_t strength_reduction{};

// Purity, as common-subexpression elimination assumes it: the same arguments give the same
// result, and evaluating the call once instead of twice changes nothing the program relies
// on. Built-in primitives are taken as pure; calls through a higher-order parameter and
// other callables are not, unless specialised to true. A traced function is pure when its
// body is (for the number of arguments of the call), whatever this trait says of it.
template <class F>
inline constexpr bool is_pure = cassette::primitive<F> || std::is_same_v<F, ir::self_t>;

namespace detail {

// The call nodes of a region (a body outside any special form), in evaluation order.
template <class N>
struct region_calls {
    using type = boost::mp11::mp_list<>;
};
template <class F, class... A>
struct region_calls<ir::call<F, A...>> {
    using type = boost::mp11::mp_append<typename region_calls<F>::type, typename region_calls<A>::type...,
                                        boost::mp11::mp_list<ir::call<F, A...>>>;
};

template <class N>
inline constexpr bool pure_tree = true;

template <class F, std::size_t Arity>
constexpr bool pure_callee() {
    if constexpr (traced_function<F>)
        return pure_tree<typename F::template body_type<Arity>>;
    else
        return is_pure<F>;
}

template <class F, class... A>
inline constexpr bool pure_tree<ir::call<F, A...>> = detail::pure_callee<F, sizeof...(A)>() && (pure_tree<A> && ...);

template <class Children>
inline constexpr bool pure_children = false;
template <class... C>
inline constexpr bool pure_children<boost::hana::basic_tuple<C...>> = (pure_tree<C> && ...);
template <ir::extension_node N>
inline constexpr bool pure_tree<N> = pure_children<decltype(std::declval<N const&>().children())>;
template <class C, class T, class E>
inline constexpr bool pure_tree<ir::conditional<C, T, E>> = pure_tree<C> && pure_tree<T> && pure_tree<E>;
template <class Id, class V, class B>
inline constexpr bool pure_tree<ir::let_in<Id, V, B>> = pure_tree<V> && pure_tree<B>;
template <class Id, class F, class L, class I, class B>
inline constexpr bool pure_tree<ir::loop<Id, F, L, I, B>> = pure_tree<F> && pure_tree<L> && pure_tree<I> && pure_tree<B>;

template <class N>
inline constexpr std::size_t node_count = 1;
template <class F, class... A>
inline constexpr std::size_t node_count<ir::call<F, A...>> = 1 + (node_count<A> + ... + 0);

template <class N>
inline constexpr bool has_constant = ir::is_constant<N>;
template <class F, class... A>
inline constexpr bool has_constant<ir::call<F, A...>> = has_constant<F> || (has_constant<A> || ...);

inline constexpr std::size_t none = std::size_t(-1);

// Indices ordered by decreasing size, then increasing index. A class, not a lambda, for the
// same reason as use_of: std::sort's functions are named with it.
struct larger_first {
    std::size_t const* size;
    constexpr bool operator()(std::size_t a, std::size_t b) const { return size[a] != size[b] ? size[a] > size[b] : a < b; }
};

// The first occurrence of the largest pure call type that occurs at least twice in the
// region, or none. Types are compared by identity (cassette::detail::type_key's address) in
// one constant evaluation: comparing them as types would instantiate a trait for every pair.
// Same-typed calls have the same size, so only calls of one size are compared, largest first.
template <class... T>
constexpr std::size_t best_candidate(boost::mp11::mp_list<T...>) {
    constexpr std::size_t n = sizeof...(T);
    if constexpr (n == 0) {
        return none;
    } else {
        constexpr void const* key[] = {&cassette::detail::type_key<T>...};
        constexpr std::size_t size[] = {node_count<T>...};
        constexpr bool pure[] = {pure_tree<T>...};
        std::array<std::size_t, n> order{};
        for (std::size_t i = 0; i != n; ++i) order[i] = i;
        std::sort(order.begin(), order.end(), larger_first{size});
        for (std::size_t first = 0, last = 0; first != n; first = last) {
            while (last != n && size[order[last]] == size[order[first]]) ++last;
            for (std::size_t p = first; p != last; ++p) {
                if (!pure[order[p]]) continue;
                for (std::size_t q = p + 1; q != last; ++q)
                    if (key[order[q]] == key[order[p]]) return order[p];
            }
        }
        return none;
    }
}

// A constant of its own, so that it is computed once per region type, not again (counting
// against the compiler's constant-evaluation step limit) in every evaluation that uses it.
template <class Calls>
inline constexpr std::size_t best_candidate_in = detail::best_candidate(Calls{});

// The region with each occurrence s of S replaced by fn(s), in evaluation order. A call
// smaller than S holds none (unless its callee is an expression), and is kept as it is.
template <class S, class F, class Fn, std::size_t... I, class... A>
constexpr auto replace_in_call(F const& callee, cassette::detail::tuple_impl<std::index_sequence<I...>, A...> const& args,
                               Fn const& fn);

template <class S, class N, class Fn>
constexpr auto replace_in_region(N const& n, Fn const& fn) {
    if constexpr (std::is_same_v<N, S>) {
        return fn(n);
    } else if constexpr (ir::is_call<N>) {
        if constexpr (ir::expression<decltype(n.fn)> || node_count<N> > node_count<S>)
            return detail::replace_in_call<S>(n.fn, n.args, fn);
        else
            return n;
    } else {
        return n;
    }
}

template <class S, class F, class Fn, std::size_t... I, class... A>
constexpr auto replace_in_call(F const& callee, cassette::detail::tuple_impl<std::index_sequence<I...>, A...> const& args,
                               Fn const& fn) {
    // A braced list replaces left to right: the callee, then the arguments.
    if constexpr (ir::expression<F>) {
        using callee_type = decltype(detail::replace_in_region<S>(callee, fn));
        return ir::call<callee_type, decltype(detail::replace_in_region<S>(std::declval<A const&>(), fn))...>{
            detail::replace_in_region<S>(callee, fn),
            detail::replace_in_region<S>(static_cast<cassette::detail::leaf<I, A> const&>(args).value, fn)...};
    } else {
        return ir::call<F, decltype(detail::replace_in_region<S>(std::declval<A const&>(), fn))...>{
            callee, detail::replace_in_region<S>(static_cast<cassette::detail::leaf<I, A> const&>(args).value, fn)...};
    }
}

// What an occurrence s of S becomes: the variable bound to the first occurrence, which it
// records. A class rather than a lambda in cse_region: the functions replace_in_region
// instantiates are named with it, and a lambda's type names the whole region (GCC builds every
// such name: cubic in the body's size).
template <class S>
struct use_of {
    S const*& first;

    constexpr auto operator()(S const& s) const {
        using t = ir::var<cse_variable<S>, 0>;
        if (first == nullptr) first = &s;
        if constexpr (has_constant<S>)
            return ir::conditional<ir::constant<bool>, t, S>{ir::constant<bool>(ir::equal(s, *first)), t{}, s};
        else
            return t{};
    }
};

// Binds the largest repeated subtree once at the region's root, then the next, and so on.
// Same-typed subtrees are the same expression unless their constants differ: such an
// occurrence keeps its own expression behind a decided if_ on the values' equality.
template <class R>
constexpr auto cse_region(R const& region) {
    using calls = typename region_calls<R>::type;
    constexpr std::size_t k = best_candidate_in<calls>;
    if constexpr (k == none) {
        return region;
    } else {
        using S = boost::mp11::mp_at_c<calls, k>;
        S const* first = nullptr;
        auto const uses = detail::replace_in_region<S>(region, use_of<S>{first});
        auto const rest = detail::cse_region(uses);
        return ir::let_in<cse_variable<S>, S, std::remove_const_t<decltype(rest)>>{*first, rest};
    }
}

}  // namespace detail

// Common-subexpression elimination: in each region (the body outside special forms, and each
// child of a special form), a pure subtree that occurs twice or more is evaluated once, at
// the start of the region, and its uses read the value. Hooks then see one call instead of
// several, earlier than before. Valid for pure callees only (see is_pure).
struct cse_t {
    struct rule {
        template <class N>
            requires ir::is_special_form<N>
        constexpr auto operator()(N const& n) const {
            return ir::map_children(n, [](auto const& child) { return detail::cse_region(child); });
        }
    };

    template <class Body>
    constexpr auto operator()(Body const& body) const {
        return detail::cse_region(ir::transform(body, rule{}));
    }
};
inline constexpr cse_t cse{};

}  // namespace cassette::passes
