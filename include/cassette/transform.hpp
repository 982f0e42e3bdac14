// SPDX-License-Identifier: BSL-1.0
// Generic traversal of IR expressions: rebuilding a node from rewritten children,
// ir::transform (bottom-up rewriting), and value equality of same-typed expressions.
#pragma once

#include <cassette/ir.hpp>

#include <boost/hana/at.hpp>
#include <boost/hana/basic_tuple.hpp>
#include <boost/hana/unpack.hpp>

#include <algorithm>
#include <cstddef>
#include <type_traits>
#include <utility>

namespace cassette::ir {

namespace detail {
struct child_types {
    template <class... C>
    constexpr boost::mp11::mp_list<C...> operator()(C const&...) const {
        return {};
    }
};
}  // namespace detail

// A node other than a call or a leaf: if_, let, fold, and node kinds defined outside the IR
// (ad::derivative's). Every traversal reaches its children through two members:
// visit_children(fn), fn called with references to the children, and with_children(c...),
// the same node over new children.
template <class T>
concept form_node = expression<T> && requires(T const& n) { n.visit_children(detail::child_types{}); };
template <class T>
using children_of = decltype(std::declval<T const&>().visit_children(detail::child_types{}));

// Every node's kind, in one place: traversals dispatch on it (a partial specialisation
// matches a node's type without deducing against all of it, as overloading would).
enum class node_kind : unsigned char { param, constant, var, call, conditional, let, loop, extension, other };

// The traits below asked of every node are classes deriving from std::integral_constant,
// with variable templates over them for users: GCC gives every variable template instance
// (and static data member) a mangled name, which spells the node's whole subtree, so the
// library itself reads the classes' `value` (shared by all nodes of an answer). A body of N
// calls nested D deep otherwise costs names of N * D characters per trait.
namespace detail {
template <node_kind K>
using kind_constant = std::integral_constant<node_kind, K>;
template <class T>
struct kind_of_unqualified : kind_constant<form_node<T> ? node_kind::extension : node_kind::other> {};
template <std::size_t I>
struct kind_of_unqualified<param<I>> : kind_constant<node_kind::param> {};
template <class T>
struct kind_of_unqualified<constant<T>> : kind_constant<node_kind::constant> {};
template <class Id, std::size_t K>
struct kind_of_unqualified<var<Id, K>> : kind_constant<node_kind::var> {};
template <class F, class... A>
struct kind_of_unqualified<call<F, A...>> : kind_constant<node_kind::call> {};
template <class C, class T, class E>
struct kind_of_unqualified<conditional<C, T, E>> : kind_constant<node_kind::conditional> {};
template <class Id, class V, class B>
struct kind_of_unqualified<let_in<Id, V, B>> : kind_constant<node_kind::let> {};
template <class Id, class F, class L, class I, class B>
struct kind_of_unqualified<loop<Id, F, L, I, B>> : kind_constant<node_kind::loop> {};
}  // namespace detail

// A pass may write a node type const-qualified (decltype of a const variable).
template <class T>
struct node_kind_of : detail::kind_of_unqualified<std::remove_cv_t<T>> {};
template <class T>
inline constexpr node_kind kind_of = node_kind_of<T>::value;

// The largest Value<node>::value over every node of a tree, special forms and the nodes in
// them included (0 for a tree of none); any_node_of is its yes-or-no form. Classes, read by
// the library, with a variable template for users (see node_kind_of).
template <template <class> class Value, class Node>
struct max_over_nodes;
template <template <class> class Value, class Node, class... Children>
using max_over_node_and = std::integral_constant<
    std::size_t, std::max({std::size_t{Value<Node>::value}, std::size_t{max_over_nodes<Value, Children>::value}...})>;

template <template <class> class Value, class Node>
struct max_over_nodes : max_over_node_and<Value, Node> {};
template <template <class> class Value, class F, class... Args>
struct max_over_nodes<Value, call<F, Args...>> : max_over_node_and<Value, call<F, Args...>, F, Args...> {};
template <template <class> class Value, class N, class Children>
struct max_over_form;
template <template <class> class Value, class N, class... C>
struct max_over_form<Value, N, boost::mp11::mp_list<C...>> : max_over_node_and<Value, N, C...> {};
template <template <class> class Value, form_node N>
struct max_over_nodes<Value, N> : max_over_form<Value, N, children_of<N>> {};

// Whether some node of a tree satisfies Is (a trait with `value`).
template <template <class> class Is, class Node>
struct any_node_of : std::bool_constant<max_over_nodes<Is, Node>::value != 0> {};
template <template <class> class Is, class Node>
inline constexpr bool any_node = any_node_of<Is, Node>::value;

template <class Node>
struct is_self_call : std::false_type {};
template <class... Args>
struct is_self_call<call<self_t, Args...>> : std::true_type {};

// Whether a subtree calls cassette::self.
template <class Node>
inline constexpr bool calls_self = any_node_of<is_self_call, Node>::value;

// The number of arguments of a call node.
template <class T>
struct arity_of : std::integral_constant<std::size_t, 0> {};
template <class F, class... A>
struct arity_of<call<F, A...>> : std::integral_constant<std::size_t, sizeof...(A)> {};
template <class F, class... A>
struct arity_of<call<F, A...> const> : arity_of<call<F, A...>> {};
template <class T>
inline constexpr std::size_t arity = arity_of<T>::value;

// The calls in a node's subtree, those of callee expressions included.
template <class T>
struct call_count_of : std::integral_constant<std::size_t, 0> {};
template <class F, class... A>
struct call_count_of<call<F, A...>>
    : std::integral_constant<std::size_t, 1 + call_count_of<F>::value + (call_count_of<A>::value + ... + 0)> {};
template <class F, class... A>
struct call_count_of<call<F, A...> const> : call_count_of<call<F, A...>> {};
template <class T>
inline constexpr std::size_t call_count = call_count_of<T>::value;

// Node kinds, for passes that match "any node of this kind".
template <class T>
inline constexpr bool is_call = node_kind_of<T>::value == node_kind::call;
template <class T>
inline constexpr bool is_constant = is_constant_node<T>::value;

// Special forms evaluate lazily or bind variables: conditional, let_in, loop, extension nodes.
template <class T>
struct special_form_of : std::bool_constant<form_node<T>> {};
template <class T>
inline constexpr bool is_special_form = special_form_of<T>::value;

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

namespace detail {

// The recursion of transform nests one function per level of the body (two for a call of
// another arity or with a callee expression, through rewrite_call); with apply_rule, each
// node instantiates two, named with its whole subtree: what a large body's passes cost to
// compile.
template <class F, class Rule, std::size_t... I, class... A>
constexpr auto rewrite_call(F const& fn, cassette::detail::tuple_impl<std::index_sequence<I...>, A...> const& args,
                            Rule const& rule);
template <class Node, class Rule>
constexpr auto rewrite_children(Node const& n, Rule const& rule);

// rule(rebuilt) if the rule takes the rebuilt node, else the node.
template <class Node, class Rule>
constexpr auto apply_rule(Node const& rebuilt, Rule const& rule) {
    if constexpr (std::is_invocable<Rule const&, Node const&>::value)
        return ir::as_node(rule(rebuilt));
    else
        return rebuilt;
}

}  // namespace detail

// Bottom-up rewrite: `rule(node)` is applied to each node after its children were
// rewritten; a node for which rule is not invocable is kept. Rules are overload sets, so
// they match node types exactly, by pattern (`ir::call<op::pow_t, X, Y>`) or by concept.
template <class Expr, class Rule>
constexpr auto transform(Expr const& e, Rule const& rule) {
    using node = std::remove_cv_t<Expr>;
    if constexpr (node_kind_of<node>::value != node_kind::call) {
        return detail::apply_rule(detail::rewrite_children(e, rule), rule);
    } else if constexpr (expression<decltype(node::fn)> || arity_of<node>::value == 0 || arity_of<node>::value > 2) {
        return detail::rewrite_call(e.fn, e.args, rule);
    } else {
        // Unary and binary calls rebuilt here, as rewrite_call does: one function per level of
        // the body rather than two in the nesting of instantiations and of the constant
        // evaluator's calls, which both compilers limit.
        using callee = std::remove_cv_t<decltype(node::fn)>;
        auto const& a = static_cast<cassette::detail::leaf<0, argument_t<node, 0>> const&>(e.args).value;
        if constexpr (arity_of<node>::value == 1) {
            return detail::apply_rule(call<callee, decltype(ir::transform(a, rule))>{{}, e.fn, {{ir::transform(a, rule)}}}, rule);
        } else {
            auto const& b = static_cast<cassette::detail::leaf<1, argument_t<node, 1>> const&>(e.args).value;
            return detail::apply_rule(call<callee, decltype(ir::transform(a, rule)), decltype(ir::transform(b, rule))>{
                                          {}, e.fn, {{ir::transform(a, rule)}, {ir::transform(b, rule)}}},
                                      rule);
        }
    }
}

namespace detail {

template <class F, class Rule>
constexpr decltype(auto) rewrite_callee(F const& fn, Rule const& rule) {
    if constexpr (expression<F>)
        return ir::transform(fn, rule);
    else
        return (fn);
}

// The call rebuilt from its rewritten callee and arguments (a braced list rewrites them left
// to right, each argument reached by a cast to its base in the tuple), then the rule.
template <class F, class Rule, std::size_t... I, class... A>
constexpr auto rewrite_call(F const& fn, cassette::detail::tuple_impl<std::index_sequence<I...>, A...> const& args,
                            Rule const& rule) {
    using callee = std::remove_cvref_t<decltype(detail::rewrite_callee(fn, rule))>;
    return detail::apply_rule(call<callee, decltype(ir::transform(std::declval<A const&>(), rule))...>{
                                  {},
                                  detail::rewrite_callee(fn, rule),
                                  {{ir::transform(static_cast<cassette::detail::leaf<I, A> const&>(args).value, rule)}...}},
                              rule);
}

template <class Node, class Rule>
constexpr auto rewrite_children(Node const& n, Rule const& rule) {
    return ir::map_children(n, [&](auto const& child) { return ir::transform(child, rule); });
}

}  // namespace detail

// Whether two expressions of the same type are the same expression: constants compare
// their values; callees compare with == where they can and are otherwise equal only if
// stateless; parameters and variables are identified by their type. (Children are compared
// with unqualified calls, so every overload below is found whatever the nesting.)
template <class Node>
constexpr bool equal(Node const&, Node const&) {
    return true;
}

template <class T>
constexpr bool equal(constant<T> const& a, constant<T> const& b) {
    return a.value == b.value;
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
