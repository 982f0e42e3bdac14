// SPDX-License-Identifier: BSL-1.0
// The static adjoint: reverse mode generated at compile time from the body's type, for the
// bodies whose structure allows it (see static_adjoint_ok). The reverse sweep walks the body
// from its result to its leaves; the value of each node it needs is recomputed by the
// ordinary evaluator, and the compiler shares what it can between the two. Nothing is
// recorded: no tape, no allocation beyond the gradient itself.
#pragma once

#include <cassette/ad/forward.hpp>

#include <boost/mp11/list.hpp>

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace cassette::ad::detail {

using cassette::detail::is;

// --- which bodies: structure only -----------------------------------------------------------

// WithSelf: self calls allowed (ad::static_adjoint sweeps them, recomputing each level's
// value; ad::reverse records a tape for them, linear in the recursion's depth).
template <class Node, bool WithSelf = true>
consteval bool static_adjoint_ok();

template <class G>
inline constexpr bool is_projection = std::is_same_v<G, op::getindex_t>;
template <std::size_t K>
inline constexpr bool is_projection<op::get_t<K>> = true;

// x[i] and get<K>(x) on a parameter or a variable, at any depth: their adjoints are parts of
// the parameter's or the variable's.
template <class Node, bool WithSelf>
consteval bool addressable() {
    constexpr ir::node_kind kind = ir::node_kind_of<Node>::value;
    if constexpr (detail::is(kind, ir::node_kind::param) || detail::is(kind, ir::node_kind::var))
        return true;
    else if constexpr (detail::is(kind, ir::node_kind::call))
        return []<class G, class Whole, class... Rest>(std::type_identity<ir::call<G, Whole, Rest...>>) {
            return is_projection<G> && addressable<Whole, WithSelf>() && (static_adjoint_ok<Rest, WithSelf>() && ...);
        }(std::type_identity<Node>{});
    else
        return false;
}

// Primitives whose result carries no derivative: length and comparisons.
template <class G>
inline constexpr bool is_flat = cassette::detail::propagates_tags<G> && !is_projection<G>;
template <class T>
inline constexpr bool is_flat<op::make_t<T>> = false;

template <class Id>
struct is_accumulator {
    template <class Node>
    struct of : std::is_same<Node, ir::var<Id, 1>> {};
};

// A fold whose accumulator reaches the result only through + and -, so its value at each
// iteration is never needed by the sweep: the loop runs backwards without storing it.
template <class Id, class Node>
consteval bool linear_in_accumulator() {
    if constexpr (!ir::any_node_of<is_accumulator<Id>::template of, Node>::value)
        return true;
    else if constexpr (std::is_same_v<Node, ir::var<Id, 1>>)
        return true;
    else if constexpr (detail::is(ir::node_kind_of<Node>::value, ir::node_kind::call))
        return []<class G, class... A>(std::type_identity<ir::call<G, A...>>) {
            return (std::is_same_v<G, op::add_t> || std::is_same_v<G, op::sub_t>) &&
                   (linear_in_accumulator<Id, A>() && ...);
        }(std::type_identity<Node>{});
    else
        return false;
}

template <class Node, bool WithSelf>
consteval bool static_adjoint_ok() {
    constexpr ir::node_kind kind = ir::node_kind_of<Node>::value;
    if constexpr (detail::is(kind, ir::node_kind::param) || detail::is(kind, ir::node_kind::constant) ||
                  detail::is(kind, ir::node_kind::var)) {
        return true;
    } else if constexpr (detail::is(kind, ir::node_kind::call)) {
        return []<class G, class... A>(std::type_identity<ir::call<G, A...>>) {
            if constexpr (ir::expression<G>)
                return false;  // higher order: the tape
            else if constexpr (std::is_same_v<G, ir::self_t>)
                return WithSelf && (static_adjoint_ok<A, WithSelf>() && ...);
            else if constexpr (traced_function<G>)
                return (static_adjoint_ok<A, WithSelf>() && ...) &&
                       static_adjoint_ok<std::remove_cvref_t<decltype(G::template body<sizeof...(A)>)>, WithSelf>();
            else if constexpr (is_projection<G>)
                return addressable<ir::call<G, A...>, WithSelf>();
            else if constexpr (is_flat<G> || has_rule<G>)
                return (static_adjoint_ok<A, WithSelf>() && ...);
            else
                return false;  // make<T>, and callables without a derivative rule
        }(std::type_identity<Node>{});
    } else if constexpr (detail::is(kind, ir::node_kind::conditional)) {
        return []<class C, class T, class E>(std::type_identity<ir::conditional<C, T, E>>) {
            return static_adjoint_ok<C, WithSelf>() && static_adjoint_ok<T, WithSelf>() && static_adjoint_ok<E, WithSelf>();
        }(std::type_identity<Node>{});
    } else if constexpr (detail::is(kind, ir::node_kind::let)) {
        return []<class Id, class V, class B>(std::type_identity<ir::let_in<Id, V, B>>) {
            return static_adjoint_ok<V, WithSelf>() && static_adjoint_ok<B, WithSelf>();
        }(std::type_identity<Node>{});
    } else if constexpr (detail::is(kind, ir::node_kind::loop)) {
        return []<class Id, class F, class L, class I, class B>(std::type_identity<ir::loop<Id, F, L, I, B>>) {
            return static_adjoint_ok<F, WithSelf>() && static_adjoint_ok<L, WithSelf>() &&
                   static_adjoint_ok<I, WithSelf>() && static_adjoint_ok<B, WithSelf>() && linear_in_accumulator<Id, B>();
        }(std::type_identity<Node>{});
    } else {
        return false;  // node kinds of their own (a derivative inside the body)
    }
}

// --- which values: activity ------------------------------------------------------------------

// The adjoint of something that is not differentiated.
struct inactive {};

// Adjoints of the variables bound around a node, parallel to the evaluator's scope.
struct no_adjoints {};
template <class Id, class Adjoints, class Outer>
struct adjoint_scope {
    using id = Id;
    Adjoints adjoints;  // a tuple of references
    Outer const& outer;
};

template <class Id, std::size_t K, class S>
constexpr auto& variable_adjoint(S const& s) {
    if constexpr (std::is_same_v<typename S::id, Id>)
        return cassette::detail::get<K>(s.adjoints);
    else
        return detail::variable_adjoint<Id, K>(s.outer);
}

// The evaluator's frame (values) with the adjoints of the parameters and of the variables.
template <class Fr, class Params, class Variables>
struct sweep_frame {
    using params_type = Params;
    Fr const& fr;
    Params const& params;  // a tuple of references: the accumulators, or inactive
    Variables variables;
};

template <class T>
inline constexpr bool is_inactive = std::is_same_v<std::remove_cvref_t<T>, inactive>;

// Whether a node's value depends on the differentiated input, from the frame's types.
template <class Node, class SF>
consteval bool active() {
    constexpr ir::node_kind kind = ir::node_kind_of<Node>::value;
    if constexpr (detail::is(kind, ir::node_kind::param)) {
        return !is_inactive<decltype(cassette::detail::get<Node::index>(std::declval<SF const&>().params))>;
    } else if constexpr (detail::is(kind, ir::node_kind::constant)) {
        return false;
    } else if constexpr (detail::is(kind, ir::node_kind::var)) {
        return []<class Id, std::size_t K>(std::type_identity<ir::var<Id, K>>) {
            return !is_inactive<decltype(detail::variable_adjoint<Id, K>(std::declval<SF const&>().variables))>;
        }(std::type_identity<Node>{});
    } else if constexpr (detail::is(kind, ir::node_kind::call)) {
        return []<class G, class... A>(std::type_identity<ir::call<G, A...>>) {
            if constexpr (is_flat<G>)
                return false;
            else if constexpr (is_projection<G>)
                return active<boost::mp11::mp_front<boost::mp11::mp_list<A...>>, SF>();
            else
                return (active<A, SF>() || ...);
        }(std::type_identity<Node>{});
    } else if constexpr (detail::is(kind, ir::node_kind::conditional)) {
        return []<class C, class T, class E>(std::type_identity<ir::conditional<C, T, E>>) {
            return active<T, SF>() || active<E, SF>();
        }(std::type_identity<Node>{});
    } else {
        return true;  // let and fold: swept (their parts that do not depend on x are skipped)
    }
}

// --- the sweep -----------------------------------------------------------------------------

// The primitives that are calls to libm (op::computation; pow is not: its small integer
// exponents are inlined).
template <class G>
inline constexpr bool libm_call = op::computed_by<G> == op::computation::libm;

template <class G, class... X>
CASSETTE_CONST_FUNCTION auto libm(X... xs) {
    return G::apply(xs...);
}

// The context the sweep recomputes values in: the same values, with libm's calls marked
// const, so that the compiler shares and drops them (a value the sweep asks for twice, or
// computes only to discard, as a rule computes its primal).
struct recomputation {
    template <class G, class... X>
        requires libm_call<G> && (std::is_floating_point_v<X> && ...)
    CASSETTE_INLINE auto overdub(G const&, X const&... xs) const {
        return detail::libm<G>(xs...);
    }
};
inline constexpr recomputation recomputation_instance{};
using recomputing_view = hooks_disabled<recomputation const&>;

template <class Node, class SF>
CASSETTE_INLINE constexpr decltype(auto) value(Node const& n, SF const& sf) {
    return sf.fr.eval(n);
}

// Field K of an aggregate's or a tuple-like's adjoint, for get_t<K>.
template <class G, class T>
CASSETTE_INLINE constexpr auto& field(T& whole) {
    return []<std::size_t K>(std::type_identity<op::get_t<K>>, T& w) -> auto& {
        if constexpr (requires { std::tuple_size<T>::value; })
            return std::get<K>(w);
        else
            return boost::pfr::get<K>(w);
    }(std::type_identity<G>{}, whole);
}

// The accumulator an addressable node's adjoint goes to.
template <class Node, class SF>
CASSETTE_INLINE constexpr auto& adjoint_of(Node const& n, SF const& sf) {
    constexpr ir::node_kind kind = ir::node_kind_of<Node>::value;
    if constexpr (detail::is(kind, ir::node_kind::param)) {
        return cassette::detail::get<Node::index>(sf.params);
    } else if constexpr (detail::is(kind, ir::node_kind::var)) {
        return []<class Id, std::size_t K>(std::type_identity<ir::var<Id, K>>, SF const& s) -> auto& {
            return detail::variable_adjoint<Id, K>(s.variables);
        }(std::type_identity<Node>{}, sf);
    } else {
        auto& whole = detail::adjoint_of(boost::hana::at_c<0>(n.args), sf);
        if constexpr (std::is_same_v<std::remove_cvref_t<decltype(n.fn)>, op::getindex_t>)
            return whole[cassette::detail::primal(detail::value(boost::hana::at_c<1>(n.args), sf))];
        else
            return detail::field<std::remove_cvref_t<decltype(n.fn)>>(whole);
    }
}

template <class T>
constexpr T zero_like(T const& x) {
    T z = x;
    detail::for_each_leaf(z, [](auto& leaf) { leaf = 0; });
    return z;
}

template <class Node, class A, class SF>
CASSETTE_INLINE constexpr void sweep(Node const& n, A const& a, SF const& sf);

template <bool Seeded, class V>
CASSETTE_INLINE constexpr auto seeded_dual(V const& v) {
    if constexpr (Seeded)
        return dual<V const&, double>{v, 1.0};
    else
        return dual<V const&, zero>{v, zero{}};
}

// The derivative of call g(xs...) with respect to argument K, at the arguments' values.
template <std::size_t K, class G, class... V>
CASSETTE_INLINE constexpr auto partial(V const&... vs) {
    return [&]<std::size_t... J>(std::index_sequence<J...>) CASSETTE_INLINE_LAMBDA {
        return rule<G>::apply(detail::arithmetic<recomputation const>{recomputation_instance},
                              detail::seeded_dual<J == K>(vs)...)
            .d;
    }(std::index_sequence_for<V...>{});
}

// to += from, leaf by leaf (the same shape).
template <class T, class U>
CASSETTE_INLINE constexpr void add_leaves(T& to, U const& from) {
    if constexpr (leaf<T>)
        to += from;
    else if constexpr (sequence<T>)
        for (std::size_t k = 0; k != to.size(); ++k) detail::add_leaves(to[k], from[k]);
    else
        [&]<std::size_t... I>(std::index_sequence<I...>) {
            (detail::add_leaves(boost::pfr::get<I>(to), boost::pfr::get<I>(from)), ...);
        }(std::make_index_sequence<boost::pfr::tuple_size_v<T>>{});
}

template <bool Active, class T>
constexpr auto zero_or_inactive(T const& x) {
    if constexpr (Active)
        return detail::zero_like(x);
    else
        return inactive{};
}

// What a traced callee's parameter gathered goes to its argument.
template <bool Active, class Node, class Adjoint, class SF>
CASSETTE_INLINE constexpr void sweep_argument(Node const& n, Adjoint const& adjoint, SF const& sf) {
    if constexpr (Active) detail::sweep(n, adjoint, sf);
}

// A body that calls self is entered through the evaluator first: its self calls' result type
// comes from there, and Clang, which instantiates constexpr bodies as soon as they are named,
// would otherwise meet a self call's type while the body's own is being worked out.
template <class F, class... V>
constexpr void enter_recursion() {
    if constexpr (ir::calls_self<std::remove_cvref_t<decltype(F::template body<sizeof...(V)>)>>)
        (void)&cassette::recurse<recomputing_view, F, V...>;
}

// A traced callee F's body, swept in a frame of its own: its parameters' adjoints then go to
// the arguments.
template <class F, class G, class... A, class Adjoint, class SF>
CASSETTE_INLINE constexpr void sweep_callee(ir::call<G, A...> const& n, Adjoint const& a, SF const& sf) {
    [&]<std::size_t... K>(std::index_sequence<K...>) CASSETTE_INLINE_LAMBDA {
        auto const values = cassette::detail::tuple<std::remove_cvref_t<decltype(detail::value(boost::hana::at_c<K>(n.args), sf))>...>{
            {detail::value(boost::hana::at_c<K>(n.args), sf)}...};
        using args_type = cassette::detail::tuple<std::remove_cvref_t<decltype(cassette::detail::get<K>(values))> const&...>;
        args_type const args{{cassette::detail::get<K>(values)}...};
        detail::enter_recursion<F, std::remove_cvref_t<decltype(cassette::detail::get<K>(values))>...>();
        auto const fr = cassette::body_frame(recomputing_view{recomputation_instance}, F{}, args);
        auto adjoints = cassette::detail::tuple<std::conditional_t<active<A, SF>(), std::remove_cvref_t<decltype(cassette::detail::get<K>(values))>, inactive>...>{
            {detail::zero_or_inactive<active<A, SF>()>(cassette::detail::get<K>(values))}...};
        using params_type = cassette::detail::tuple<decltype(cassette::detail::get<K>(adjoints))&...>;
        params_type const params{{cassette::detail::get<K>(adjoints)}...};
        detail::sweep(F::template body<sizeof...(A)>, a, sweep_frame<std::remove_const_t<decltype(fr)>, params_type, no_adjoints>{fr, params, {}});
        (detail::sweep_argument<active<A, SF>()>(boost::hana::at_c<K>(n.args), cassette::detail::get<K>(adjoints), sf), ...);
    }(std::index_sequence_for<A...>{});
}

// A self call: the same, through a function not forced inline, where the recursion happens
// at run time. Each level recomputes the values it needs, the deeper levels' results
// included: the cost grows with the square of the depth.
template <class F, class Node, class Adjoint, class SF>
constexpr void sweep_self(Node const& n, Adjoint const& a, SF const& sf) {
    detail::sweep_callee<F>(n, a, sf);
}

template <class G, class... A, class Adjoint, class SF>
CASSETTE_INLINE constexpr void sweep_call(ir::call<G, A...> const& n, Adjoint const& a, SF const& sf) {
    [&]<std::size_t... K>(std::index_sequence<K...>) CASSETTE_INLINE_LAMBDA {
        if constexpr (is_projection<G>) {
            detail::add_leaves(detail::adjoint_of(n, sf), a);
        } else if constexpr (traced_function<G>) {
            detail::sweep_callee<G>(n, a, sf);
        } else if constexpr (std::is_same_v<G, ir::self_t>) {
            detail::sweep_self<std::remove_cvref_t<decltype(sf.fr.self)>>(n, a, sf);
        } else {
            auto const values = cassette::detail::tuple<std::remove_cvref_t<decltype(detail::value(boost::hana::at_c<K>(n.args), sf))>...>{
                {detail::value(boost::hana::at_c<K>(n.args), sf)}...};
            auto const each = [&]<std::size_t J>(std::integral_constant<std::size_t, J>) CASSETTE_INLINE_LAMBDA {
                using arg = ir::argument_t<ir::call<G, A...>, J>;
                if constexpr (active<arg, SF>()) {
                    auto const d = detail::partial<J, G>(cassette::detail::get<K>(values)...);
                    if constexpr (!is_zero<decltype(d)>) detail::sweep(boost::hana::at_c<J>(n.args), a * d, sf);
                }
            };
            (each(std::integral_constant<std::size_t, K>{}), ...);
        }
    }(std::index_sequence_for<A...>{});
}

// Sends adjoint a (a number, or an array's or a struct's worth of them, as the node's value)
// from node n to the leaves it depends on.
template <class Node, class A, class SF>
CASSETTE_INLINE constexpr void sweep(Node const& n, A const& a, SF const& sf) {
    constexpr ir::node_kind kind = ir::node_kind_of<Node>::value;
    if constexpr (!active<Node, SF>()) {
        return;
    } else if constexpr (detail::is(kind, ir::node_kind::param) || detail::is(kind, ir::node_kind::var)) {
        detail::add_leaves(detail::adjoint_of(n, sf), a);
    } else if constexpr (detail::is(kind, ir::node_kind::call)) {
        detail::sweep_call(n, a, sf);
    } else if constexpr (detail::is(kind, ir::node_kind::conditional)) {
        if (cassette::detail::truth(detail::value(n.cond, sf)))
            detail::sweep(n.then_, a, sf);
        else
            detail::sweep(n.else_, a, sf);
    } else if constexpr (detail::is(kind, ir::node_kind::let)) {
        []<class Id, class V, class B>(ir::let_in<Id, V, B> const& let, A const& adjoint, SF const& s) CASSETTE_INLINE_LAMBDA {
            auto const v = detail::value(let.value, s);
            cassette::detail::tuple<decltype(v) const&> const bound{{v}};
            auto const fr = s.fr.template bind<Id>(bound);
            std::conditional_t<active<V, SF>(), decltype(zero_like(v)), inactive> v_adjoint{};
            if constexpr (active<V, SF>()) v_adjoint = detail::zero_like(v);
            using adjoints = cassette::detail::tuple<decltype(v_adjoint)&>;
            sweep_frame<decltype(fr), typename SF::params_type, adjoint_scope<Id, adjoints, decltype(s.variables)>> const inside{
                fr, s.params, {adjoints{{v_adjoint}}, s.variables}};
            detail::sweep(let.body, adjoint, inside);
            detail::sweep_argument<active<V, SF>()>(let.value, v_adjoint, s);
        }(n, a, sf);
    } else {
        static_assert(detail::is(kind, ir::node_kind::loop));
        []<class Id, class F, class L, class I, class B>(ir::loop<Id, F, L, I, B> const& loop, A const& adjoint,
                                                          SF const& s) CASSETTE_INLINE_LAMBDA {
            auto const first = cassette::detail::primal(detail::value(loop.first, s));
            auto const last = cassette::detail::primal(detail::value(loop.last, s));
            using index = std::common_type_t<decltype(first), decltype(last)>;
            using acc_type = std::remove_cvref_t<decltype(detail::value(loop, s))>;
            // The accumulator's value is never needed (linear_in_accumulator): any value does.
            acc_type const acc(detail::value(loop.init, s));
            A acc_adjoint = adjoint;
            for (index i = static_cast<index>(last); i-- > static_cast<index>(first);) {
                cassette::detail::tuple<index const&, acc_type const&> const bound{{i}, {acc}};
                auto const fr = s.fr.template bind<Id>(bound);
                A next = detail::zero_like(adjoint);
                inactive none;
                using adjoints = cassette::detail::tuple<inactive&, A&>;
                sweep_frame<decltype(fr), typename SF::params_type, adjoint_scope<Id, adjoints, decltype(s.variables)>> const inside{
                    fr, s.params, {adjoints{{none}, {next}}, s.variables}};
                detail::sweep(loop.body, acc_adjoint, inside);
                acc_adjoint = next;
            }
            detail::sweep(loop.init, acc_adjoint, s);
        }(n, a, sf);
    }
}

}  // namespace cassette::ad::detail
