// SPDX-License-Identifier: BSL-1.0
// Generic traversal of IR expressions: rebuilding a node from rewritten children,
// ir::transform (bottom-up rewriting), and value equality of same-typed expressions.
#pragma once

#include <cassette/ir.hpp>

#include <boost/hana/at.hpp>
#include <boost/hana/basic_tuple.hpp>
#include <boost/hana/unpack.hpp>

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace cassette::ir {

// The same node with each child c replaced by fn(c); leaves (param, constant, var) as they are.
template <class Node, class Fn>
constexpr Node map_children(Node const& n, Fn const&) {
    return n;
}

// Children are visited left to right (a braced list fixes the order), the callee first.
template <class F, class... A, class Fn>
constexpr auto map_children(call<F, A...> const& n, Fn const& fn) {
    auto callee = [&] {
        if constexpr (expression<F>)
            return ir::as_node(fn(n.fn));
        else
            return n.fn;
    }();
    return boost::hana::unpack(n.args, [&](auto const&... args) {
        boost::hana::basic_tuple<node_t<decltype(fn(args))>...> const mapped{ir::as_node(fn(args))...};
        return boost::hana::unpack(mapped, [&](auto const&... m) { return ir::make_call(callee, m...); });
    });
}

// A form's children are mapped left to right (a braced list fixes the order).
template <form_node N, class Fn>
constexpr auto map_children(N const& n, Fn const& fn) {
    return n.visit_children([&](auto const&... c) {
        boost::hana::basic_tuple<node_t<decltype(fn(c))>...> const mapped{ir::as_node(fn(c))...};
        return boost::hana::unpack(mapped, [&](auto const&... m) { return n.with_children(m...); });
    });
}

// What a rule's `before(node)` returns to leave the node to the bottom-up walk, as if it were
// not viable for it. A rule that needs `before` for a few nodes among many can add an overload
// for every node that returns this: Clang 16 writes out a note on every candidate of a call
// that finds no viable one, even where it only asks whether the call is valid, spelling the
// node's whole type (a rule cse once had, on 800 calls: 4% of Clang's instructions).
struct descend {};

namespace detail {

template <class T>
concept replacement = !std::is_same_v<T, descend>;

// Whether a rule has a call operator at all, asked once per rule type (a call operator of this
// base and one of the rule's make the name ambiguous), so that a rule with only `before` is not
// asked of every node whether it takes it: Clang 16 writes out why it does not, spelling the
// rule's type (a rule cse once had named every subtree it bound: 4% of Clang's instructions
// for its pass on 800 calls).
struct call_operator_probe {
    void operator()() const;
};
template <class Rule>
struct probed : Rule, call_operator_probe {};
template <class Rule>
concept bottom_up = !std::is_class_v<Rule> || std::is_final_v<Rule> || !requires { &probed<Rule>::operator(); };
template <class Rule, class Node>
concept takes = bottom_up<Rule> && requires(Rule const& rule, Node const& n) { rule(n); };

// rule(rebuilt) if the rule takes the rebuilt node, else the node.
template <class Node, class Rule>
constexpr auto apply_rule(Node const& rebuilt, Rule const& rule) {
    if constexpr (takes<Rule, Node>)
        return ir::as_node(rule(rebuilt));
    else
        return rebuilt;
}

// A deep body is rewritten in stages, as it is evaluated (cassette::detail::call_height): its
// staged calls first, lowest first, each in a rewrite that takes the staged calls below it from
// a table of those already rewritten, so that neither the nesting of instantiations nor the
// constant evaluator's calls (both compilers stop at 512) grows with the body's depth. The
// staged calls are numbered in the order staged_calls lists them, so those in a subtree are
// numbered consecutively, its own last, and Base is the first number in the subtree rewritten.
struct no_table {};  // a rewrite without stages, or of a subtree without staged calls
template <std::size_t Number, class Rewritten, class Before>
struct table_entry {
    Rewritten const& rewritten;
    Before const& before;
};
template <std::size_t J, std::size_t Number, class R, class Before>
constexpr decltype(auto) table_get(table_entry<Number, R, Before> const& table) {
    if constexpr (J == Number)
        return (table.rewritten);
    else
        return detail::table_get<J>(table.before);
}

}  // namespace detail
template <class Expr, class Rule>
constexpr auto transform(Expr const& e, Rule const& rule);
namespace detail {

template <class N>
struct staged_count : boost::mp11::mp_size<typename cassette::detail::staged_calls<N>::type> {};
template <class N>
struct is_staged : cassette::detail::bool_constant<cassette::detail::call_height<N>::value >= cassette::detail::stage_height &&
                                                   cassette::detail::call_height<N>::value % cassette::detail::stage_height == 0> {};

// What a rewrite does with a node: take it from the table, rewrite it without one (it has no
// staged call), or rebuild it; and the first number in each argument's subtree, of a call whose
// first is Base. Asked of the table, so that a rewrite without one asks nothing of each node
// (an alias instantiates no class).
enum class stage_step : unsigned char { from_table, without_table, rebuild };
template <std::size_t Base, class... A>
consteval std::array<std::size_t, sizeof...(A)> argument_bases() {
    std::array<std::size_t, sizeof...(A)> bases{};
    std::size_t const counts[] = {staged_count<A>::value..., 0};
    std::size_t next = Base;
    for (std::size_t i = 0; i != sizeof...(A); ++i) {
        bases[i] = next;
        next += counts[i];
    }
    return bases;
}
template <std::size_t Arity>
struct no_bases {
    static constexpr std::array<std::size_t, Arity> value{};
};
template <std::size_t Base, class... A>
struct bases_of {
    static constexpr std::array<std::size_t, sizeof...(A)> value = detail::argument_bases<Base, A...>();
};
template <class Table>
struct stage_of {
    template <bool Top, class Expr>
    using step = std::integral_constant<stage_step, stage_step::rebuild>;
    template <std::size_t Base, class... A>
    using bases = no_bases<sizeof...(A)>;
};
template <std::size_t Number, class R, class Before>
struct stage_of<table_entry<Number, R, Before>> {
    template <bool Top, class Expr>
    using step = std::integral_constant<stage_step, !Top && is_staged<Expr>::value      ? stage_step::from_table
                                                    : staged_count<Expr>::value == 0 ? stage_step::without_table
                                                                                     : stage_step::rebuild>;
    template <std::size_t Base, class... A>
    using bases = bases_of<Base, A...>;
};

// A call's argument types, each with its index (none for any other node): what the rewrite of
// a node is specialised on, so that it names each argument's type as a pack element. Named by
// index instead (argument_t<node, I>, five times per argument), they cost Clang 16 3.5% of
// cse's pass on 800 calls (9.08 -> 8.76 billion instructions). No const-qualified node is ever
// rewritten: each comes from a call's argument types or a body's staged calls.
template <class Indices, class... A>
struct arguments {};
template <class N>
struct arguments_shape {
    using type = arguments<std::index_sequence<>>;
};
template <class F, class... A>
struct arguments_shape<call<F, A...>> {
    using type = arguments<std::index_sequence_for<A...>, A...>;
};
template <class N>
using arguments_of = typename arguments_shape<N>::type;

template <class F, class Rule>
constexpr auto rewrite_callee(F const& fn, Rule const& rule);

// The rewrite of e; a staged call is taken from the table, unless it is the one this stage
// rewrites (Top). I... index a call's arguments A...: one function per level of the body, as both
// the nesting of instantiations and the constant evaluator's calls are limited. A static member
// of a class rather than a function template: each argument's rewrite is named twice (its type,
// then the call), and a class's member is found by lookup where a function template's
// arguments are deduced again at each call (Clang 16, cse on 800 calls: 0.7% of the
// instructions; GCC 12: 0.9%). The rebuilt call is made where it is returned, as the rule's
// argument or the result: returned from a variable or a parameter, each level would copy its
// whole subtree, which costs the square of a chain's depth in the constant evaluator (GCC 12,
// fold_constants on a chain 1,000 deep).
template <std::size_t Base, bool Top, class Expr, class Rule, class Table, class Arguments = arguments_of<Expr>>
struct rewriter;
template <std::size_t Base, bool Top, class Expr, class Rule, class Table, std::size_t... I, class... A>
struct rewriter<Base, Top, Expr, Rule, Table, arguments<std::index_sequence<I...>, A...>> {
    static constexpr auto run(Expr const& e, Rule const& rule, Table const& table) {
        constexpr stage_step step = stage_of<Table>::template step<Top, Expr>::value;
        if constexpr (requires { { rule.before(e) } -> detail::replacement; }) {
            // A node or a plain value, which becomes a constant, as rule(node)'s result does;
            // named as a type, not converted by as_node, so that asking instantiates no function
            // per node.
            return node_t<std::remove_cvref_t<decltype(rule.before(e))>>(rule.before(e));
        } else if constexpr (cassette::detail::is(step, stage_step::from_table)) {
            return detail::table_get<Base + staged_count<Expr>::value - 1>(table);
        } else if constexpr (cassette::detail::is(step, stage_step::without_table)) {
            return rewriter<0, false, Expr, Rule, no_table>::run(e, rule, no_table{});
        } else if constexpr (!cassette::detail::is(node_kind_of<Expr>::value, node_kind::call)) {
            // Each of a form's children is a body of its own to staged_calls, which counts the
            // form as a leaf: staged here, if it is deep.
            return detail::apply_rule(ir::map_children(e, [&](auto const& child) { return ir::transform(child, rule); }), rule);
        } else {
            constexpr auto const& bases = stage_of<Table>::template bases<Base, A...>::value;
            using rebuilt = call<std::remove_cvref_t<decltype(detail::rewrite_callee(e.fn, rule))>,
                                 decltype(rewriter<bases[I], false, A, Rule, Table>::run(std::declval<A const&>(), rule, table))...>;
            // A braced list rewrites left to right: the callee, then each argument, reached by a
            // cast to its base in the tuple.
            if constexpr (takes<Rule, rebuilt>)
                return ir::as_node(rule(rebuilt{{},
                                                detail::rewrite_callee(e.fn, rule),
                                                {{rewriter<bases[I], false, A, Rule, Table>::run(
                                                    static_cast<cassette::detail::leaf<I, A> const&>(e.args).value, rule, table)}...}}));
            else
                return rebuilt{{},
                               detail::rewrite_callee(e.fn, rule),
                               {{rewriter<bases[I], false, A, Rule, Table>::run(
                                   static_cast<cassette::detail::leaf<I, A> const&>(e.args).value, rule, table)}...}};
        }
    }
};

// A callee expression is rewritten as a body of its own (staged_calls leaves callees out).
template <class F, class Rule>
constexpr auto rewrite_callee(F const& fn, Rule const& rule) {
    if constexpr (expression<F>)
        return ir::transform(fn, rule);
    else
        return fn;
}

// Where each staged call is: those below a staged call (or below the root: Top), which the
// rewrite of its stage takes from the table.
// (`where` is a cassette::detail::tuple<S const*...>, not spelled so: GCC 12 cannot mangle the
// alias over a pack of pointers in a signature, "sorry, unimplemented: mangling pointer_type".)
template <std::size_t Base, bool Top, class Expr, class Where>
constexpr void locate(Expr const& e, Where& where);
template <std::size_t Base, class Where, std::size_t... I, class... A>
constexpr void locate_in(cassette::detail::tuple_impl<std::index_sequence<I...>, A...> const& args, Where& where) {
    constexpr auto bases = detail::argument_bases<Base, A...>();
    (detail::locate<bases[I], false>(static_cast<cassette::detail::leaf<I, A> const&>(args).value, where), ...);
}
template <std::size_t Base, bool Top, class Expr, class Where>
constexpr void locate(Expr const& e, Where& where) {
    if constexpr (staged_count<Expr>::value == 0)
        return;
    else if constexpr (!Top && is_staged<Expr>::value)
        cassette::detail::get<Base + staged_count<Expr>::value - 1>(where) = &e;
    else
        detail::locate_in<Base>(e.args, where);
}

// The stages from the K-th on, the table holding those before it; then the root's.
template <std::size_t K, class Staged, class Expr, class Rule, class Where, class Table>
constexpr auto rewrite_from(Expr const& e, Rule const& rule, Where const& where, Table const& table) {
    if constexpr (K == boost::mp11::mp_size<Staged>::value) {
        if constexpr (is_staged<Expr>::value)
            return detail::table_get<K - 1>(table);
        else
            return rewriter<0, true, Expr, Rule, Table>::run(e, rule, table);
    } else {
        using staged = boost::mp11::mp_at_c<Staged, K>;
        // Rewritten from a copy: GCC's constant evaluator reads a node through the path from
        // the variable that holds it, so reads deep in a body cost its depth each, and a walk
        // of a chain 2,000 deep exceeded its count of operations.
        staged const subtree = *cassette::detail::get<K>(where);
        auto const rewritten = rewriter<K + 1 - staged_count<staged>::value, true, staged, Rule, Table>::run(subtree, rule, table);
        return detail::rewrite_from<K + 1, Staged>(e, rule, where, table_entry<K, decltype(rewritten), Table>{rewritten, table});
    }
}

// Where each of a deep body's staged calls S... is, in the order staged_calls lists them.
template <class Expr, class... S>
constexpr auto locate_staged(Expr const& e, boost::mp11::mp_list<S...>) {
    constexpr std::size_t n = sizeof...(S);
    cassette::detail::tuple<S const*...> where{};
    if constexpr (is_staged<Expr>::value)
        cassette::detail::get<n - 1>(where) = &e;
    else
        detail::locate<0, true>(e, where);
    // Top down, so that each staged call is located before the calls below it.
    [&]<std::size_t... J>(std::index_sequence<J...>) {
        constexpr std::size_t counts[] = {staged_count<S>::value...};
        (detail::locate<n - J - counts[n - 1 - J], true>(*cassette::detail::get<n - 1 - J>(where), where), ...);
    }(std::make_index_sequence<n>{});
    return where;
}

template <class Expr, class Rule, class... S>
constexpr auto rewrite_staged(Expr const& e, Rule const& rule, boost::mp11::mp_list<S...> staged) {
    return detail::rewrite_from<0, boost::mp11::mp_list<S...>>(e, rule, detail::locate_staged(e, staged), no_table{});
}

}  // namespace detail

// Bottom-up rewrite: `rule(node)` is applied to each node after its children were
// rewritten; a node for which rule is not invocable is kept. Rules are overload sets, so
// they match node types exactly, by pattern (`ir::call<op::pow_t, X, Y>`) or by concept.
// A rule may also rewrite top down: where `rule.before(node)` is viable (and does not return
// ir::descend), it is applied to the node as it is, before (and instead of) rewriting its
// children, and its result replaces the node's whole subtree. Nodes are rewritten in
// evaluation order, except that a deep body's staged calls are rewritten first, lowest first
// (a rule with state sees them so).
template <class Expr, class Rule>
constexpr auto transform(Expr const& e, Rule const& rule) {
    using staged = typename cassette::detail::staged_calls<Expr>::type;
    if constexpr (boost::mp11::mp_empty<staged>::value)
        return detail::rewriter<0, false, Expr, Rule, detail::no_table>::run(e, rule, detail::no_table{});
    else
        return detail::rewrite_staged(e, rule, staged{});
}

// Whether two expressions of the same type are the same expression: constants compare
// their values (floating-point zeros by their sign too); callees compare with == where they can and are otherwise equal only if
// stateless; parameters and variables are identified by their type. (Children are compared
// with unqualified calls, so every overload below is found whatever the nesting.)
template <class Node>
constexpr bool equal(Node const&, Node const&) {
    return true;
}

namespace detail {
// Values that give the same results: floating-point ones compared as bits, since -0.0 == 0.0
// but 1 / -0.0 is not 1 / 0.0 (a long double, with padding, by value and by the bits of the
// double it rounds to, which keeps the sign of a zero).
template <class T>
constexpr bool same_value(T const& a, T const& b) {
    if constexpr (std::is_same_v<T, double>)
        return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
    else if constexpr (std::is_same_v<T, float>)
        return std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b);
    else if constexpr (std::is_floating_point_v<T>)
        return a == b && detail::same_value(static_cast<double>(a), static_cast<double>(b));
    else
        return a == b;
}
template <class T, std::size_t N>
constexpr bool same_value(std::array<T, N> const& a, std::array<T, N> const& b) {
    for (std::size_t i = 0; i != N; ++i)
        if (!detail::same_value(a[i], b[i])) return false;
    return true;
}
}  // namespace detail

template <class T>
constexpr bool equal(constant<T> const& a, constant<T> const& b) {
    return detail::same_value(a.value, b.value);
}

template <class F, class... A>
constexpr bool equal(call<F, A...> const& a, call<F, A...> const& b) {
    bool same_callee = std::is_empty_v<F>;
    if constexpr (expression<F>)
        same_callee = equal(a.fn, b.fn);
    else if constexpr (requires { bool(a.fn == b.fn); })
        same_callee = bool(a.fn == b.fn);
    return same_callee && [&]<std::size_t... I>(std::index_sequence<I...>) {
        return (equal(boost::hana::at_c<I>(a.args), boost::hana::at_c<I>(b.args)) && ...);
    }(std::index_sequence_for<A...>{});
}

template <form_node N>
constexpr bool equal(N const& a, N const& b) {
    return a.visit_children([&](auto const&... x) {
        return b.visit_children([&](auto const&... y) { return (equal(x, y) && ...); });
    });
}

}  // namespace cassette::ir
