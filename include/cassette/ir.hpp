// SPDX-License-Identifier: BSL-1.0
// The IR: the node types a body is made of. Every node is a symbolic value, so builders and
// passes make new nodes with the same operators and functions (see primitives.hpp).
#pragma once

#include <cassette/detail/config.hpp>
#include <cassette/detail/tuple.hpp>
#include <cassette/fwd.hpp>

#include <boost/hana/at.hpp>
#include <boost/hana/unpack.hpp>
#include <boost/mp11/algorithm.hpp>
#include <boost/mp11/list.hpp>

#include <cstddef>
#include <type_traits>

namespace cassette::detail {

template <class T, class...>
struct dependent {
    using type = T;
};

template <class...>
inline constexpr bool always_false = false;

// Called first by a body's run and by every function a builder calls to make a node.
// Compilers fold calls to constexpr functions speculatively, by evaluating them as constants:
// calls with constant arguments in ordinary code (`long r = fib(20);`), and with GCC 12 every
// call in every function it has compiled (cp_fold, gcc/cp/cp-gimplify.cc). A deep recursion
// then costs seconds and gigabytes; in a builder, whose calls take calls down to the
// parameters, each try evaluates the calls below it and copies their nodes before it fails,
// and keeps what it allocated until the function is done. Such a try is not manifestly
// constant-evaluated, so it ends here: GCC's at the question, Clang's at the call of
// at_run_time, which is not constexpr. A build or a constant evaluation goes on; at run time
// this is nothing. (GCC 12, the type and value of a random body of 1,600 calls: 2.8 -> 1.8 s
// and 412 -> 268 MiB; docs/compile-time.md.)
inline void at_run_time() noexcept {}
constexpr void stop_speculative_folding() noexcept {
    if (!std::is_constant_evaluated()) at_run_time();
}

// Whether an enumerator is another, asked as a call: `a == b` on enumerations is overload
// resolution among built-in candidates, which Clang 16 makes for every pair of arithmetic types
// (about 150, each trying a conversion), each time a template that compares node kinds or
// dispatch steps is instantiated (cse on 400 calls: 8% of Clang's instructions).
template <class E>
    requires std::is_enum_v<E>
constexpr bool is(E a, E b) noexcept {
    return a == b;
}

// The largest and the smallest of some sizes (0 and SIZE_MAX of none), without <algorithm>;
// over a list, not a fold expression, which Clang nests no deeper than 256 (cse's lists of a
// region's calls are longer).
template <class... T>
constexpr std::size_t max_of(T... v) {
    std::size_t const values[] = {0, std::size_t{v}...};
    std::size_t m = 0;
    for (std::size_t x : values) m = x > m ? x : m;
    return m;
}
template <class... T>
constexpr std::size_t min_of(T... v) {
    std::size_t const values[] = {static_cast<std::size_t>(-1), std::size_t{v}...};
    std::size_t m = values[0];
    for (std::size_t x : values) m = x < m ? x : m;
    return m;
}

// A call's height and the calls to stage in it (see call_height below).
inline constexpr std::size_t stage_height = 128;
template <class Node>
struct call_height;
template <class Node, bool Deep = (call_height<Node>::value >= stage_height)>
struct staged_calls;
// What call<F, A...> makes of its arguments with its type (a class, named, instantiates nothing).
template <bool Deep>
struct made_when {
    template <class A>
    using of = staged_calls<A>;
};
template <>
struct made_when<false> {
    template <class A>
    using of = cassette::detail::true_type;
};
template <class A>
using made_with_parent = typename made_when<(call_height<A>::value >= stage_height)>::template of<A>;

// Trait<Call> instantiated for each of Calls in order: a left fold, which compilers expand from
// its first element (Clang expands a right fold from its last).
template <template <class> class Trait, class Calls>
struct stage;
template <template <class> class Trait, class... Calls>
struct stage<Trait, boost::mp11::mp_list<Calls...>> : cassette::detail::bool_constant<(1 + ... + sizeof(Trait<Calls>)) != 0> {};
template <template <class> class Trait, class Node>
using stage_for = stage<Trait, typename staged_calls<Node>::type>;

}  // namespace cassette::detail

namespace cassette::ir {

// The node an operand becomes: a symbolic value itself, a plain value a constant, and a
// string literal the pointer to its characters (arrays cannot be held by value). A class, not
// the type of as_node's result, so that naming it instantiates no function.
template <class X>
struct node_type {
    using type = constant<X>;
};
template <expression X>
struct node_type<X> {
    using type = X;
};
template <class T, std::size_t N>
struct node_type<T[N]> {
    static_assert(std::is_same_v<T, char>,
                  "cassette: a built-in array cannot be a constant in a body (constants are held by "
                  "value); use a std::array.");
    using type = constant<char const*>;
};
template <class X>
using node_t = typename node_type<std::remove_cv_t<X>>::type;

// An operand as a node: a symbolic value by reference (a node is copied once, into its
// parent, which matters to the compiler's constant evaluation of a large body).
template <class X>
constexpr decltype(auto) as_node(X const& x) {
    if constexpr (expression<X>)
        return (x);
    else
        return node_t<X>{x};
}

// The call node fn(xs...). The builder's operators and math functions build theirs in place,
// as here, rather than through this function (see call).
template <class F, class... X>
constexpr auto make_call(F const& fn, X const&... xs) {
    cassette::detail::stop_speculative_folding();
    return call<F, node_t<X>...>{{}, fn, {{node_t<X>(xs)}...}};
}

// What every node can do while a body is being built: refuse to be a bool, because a branch on
// a symbolic value cannot be recorded, and be indexed and called (higher order), below.
// Nodes are copied, never moved. Moving a node whose move constructor was never needed before
// makes Clang define the implicit move constructors of its whole subtree, each inside its
// parent's, which exhausts its stack for a body a few hundred calls deep; copy constructors
// are defined bottom up, as the builder copies each node into its parent. A deleted move
// constructor here makes each node's own defaulted one deleted, which overload resolution
// ignores: a node is moved by its copy constructor.
// One class for every node, not one per node type: a call node, the most numerous, has it as
// its only base (see call).
struct value_node : node_base {
    value_node() = default;
    value_node(value_node const&) = default;
    value_node(value_node&&) = delete;
    value_node& operator=(value_node const&) = default;

    // consteval, so that a branch asking for the conversion instantiates it there and then,
    // before any error the branch leads to (a `return` of another type, ?: operands of
    // different types): GCC otherwise reports errors in function bodies last.
    template <class Delay = void>
    consteval explicit operator bool() const {
        static_assert(detail::always_false<Delay>,
                      "cassette: a symbolic value has no truth value while a body is being built. "
                      "Branch with cassette::if_(condition, then_value, else_value) "
                      "instead of if, ?: or bool().");
        return false;
    }

    // A symbolic value handed to a plain C++ function (std::sin(x), a function taking double)
    // converts here, only to say why that cannot work; consteval for the reason above. The
    // DSL's own operators and functions match exactly and never come here.
    template <class Delay = void>
    consteval operator double() const {
        static_assert(detail::always_false<Delay>,
                      "cassette: a symbolic value was passed to a plain C++ function (std::sin, a "
                      "function taking double, ...), which cannot record a call. Use cassette::sin and "
                      "the other cassette:: functions, an unqualified call after `using std::sin;`, "
                      "a traced function, or cassette::call(function, arguments...).");
        return 0;
    }
};

// The members by which a node of type SELF is indexed or called: a call recorded on it.
#define CASSETTE_DETAIL_NODE_CALLS(SELF)                                                                       \
    template <class Index>                                                                                     \
    constexpr auto operator[](Index const& i) const {                                                          \
        return ir::make_call(typename detail::dependent<op::getindex_t, Index>::type{}, static_cast<SELF const&>(*this), \
                             i);                                                                               \
    }                                                                                                          \
    template <class... X>                                                                                      \
    constexpr auto operator()(X const&... xs) const {                                                          \
        return ir::make_call(static_cast<SELF const&>(*this), xs...);                                          \
    }

// The base of every node type but call: a symbolic value (ir::expression).
template <class Derived>
struct symbolic : value_node {
    CASSETTE_DETAIL_NODE_CALLS(Derived)
};

// The I-th parameter of the traced function whose body this is.
// Leaves carry a byte: Clang copies empty classes through nested constexpr calls, which
// runs into its evaluation depth limit for bodies of a few hundred nodes.
template <std::size_t I>
struct param : symbolic<param<I>> {
    static constexpr std::size_t index = I;
    char nonempty_ = 0;
};

// A plain value embedded in a body.
template <class T>
struct constant : symbolic<constant<T>> {
    T value;
    constexpr explicit constant(T v) : value(v) {}
};
template <class T>
struct is_constant_node : cassette::detail::false_type {};
template <class T>
struct is_constant_node<constant<T>> : cassette::detail::true_type {};
template <class T>
struct is_constant_node<T const> : is_constant_node<T> {};

// `fn(args...)`. `fn` is a primitive, a traced function, any other callable, a node
// (higher order: evaluated to the callable) or self_t (the enclosing traced function).
// `args` is a Boost.Hana sequence (boost::hana::at_c, boost::hana::unpack).
// An aggregate, `call<F, A...>{{}, fn, {{a}...}}`, which the builder's operators initialise in
// place: the constant evaluator copies a node's whole subtree once per function that returns
// it or constructor that takes it, and GCC names every constructor instance with the node's
// type (GCC 12, with the class traits of transform.hpp: a plain call of 1,600 nodes 660 -> 523
// MiB, a chain of 600 calls 1,840 -> 877 MiB and 54 -> 10.5 s).
// Its base is value_node, not symbolic<call>: a base class per call is one more class, with
// its members' declarations, to instantiate per call (Clang 16, a hooked context, 200 calls:
// 1.3% fewer instructions).
template <class F, class... Args>
struct call : value_node {
    [[no_unique_address]] F fn;
    detail::tuple<Args...> args;
    CASSETTE_DETAIL_NODE_CALLS(call)

    static_assert((1 + ... + sizeof(cassette::detail::made_with_parent<Args>)) != 0);  // see detail::call_height
};
#undef CASSETTE_DETAIL_NODE_CALLS

// The type of a call node's I-th argument. The first three by pattern: the evaluator asks for
// them of every call, and Boost.Mp11's mp_at_c, without the built-in GCC 12 lacks, instantiates
// half a dozen classes over the arguments each time (GCC 12, a plain call of 1,600 nodes:
// 5.4 -> 4.3 s). A class per index with one pattern each, so that no call's type is matched
// against another index's pattern nor are patterns ordered (Clang 16, a hooked context, 200
// calls: 0.7% fewer instructions than four patterns of one class).
template <std::size_t I>
struct argument_at {
    template <class Call>
    struct of;
    template <class F, class... A>
    struct of<call<F, A...>> {
        using type = boost::mp11::mp_at_c<boost::mp11::mp_list<A...>, I>;
    };
};
template <>
struct argument_at<0> {
    template <class Call>
    struct of;
    template <class F, class A0, class... A>
    struct of<call<F, A0, A...>> {
        using type = A0;
    };
};
template <>
struct argument_at<1> {
    template <class Call>
    struct of;
    template <class F, class A0, class A1, class... A>
    struct of<call<F, A0, A1, A...>> {
        using type = A1;
    };
};
template <>
struct argument_at<2> {
    template <class Call>
    struct of;
    template <class F, class A0, class A1, class A2, class... A>
    struct of<call<F, A0, A1, A2, A...>> {
        using type = A2;
    };
};
template <class Call, std::size_t I>
using argument_t = typename argument_at<I>::template of<Call>::type;

// The callee of cassette::self(...): resolved to the traced function being run.
struct self_t {
    static constexpr char const name[] = "self";
};

// A variable bound by the special form identified by Id (let: K = 0; fold: 0 index, 1 acc).
template <class Id, std::size_t K>
struct var : symbolic<var<Id, K>> {
    char nonempty_ = 0;  // see param
};

// The special forms, each an aggregate for the reason given at call
// (`conditional<C, T, E>{{}, c, t, e}`). Each is all in one place, through the members any
// node kind of a library's own has too (see ir::form_node): visit_children(fn) calls fn with
// references to its children, with_children(c...) is the same form over new ones, and
// evaluate(frame) is what it means, its children evaluated with frame.eval(child),
// list(lister) how code_lowered writes it, its children's texts from lister.operand(child),
// and draw(drawer) how graph::static_graph draws it, its children's nodes from drawer.draw(child).

// cassette::if_: only the taken branch is evaluated.
template <class Cond, class Then, class Else>
struct conditional : symbolic<conditional<Cond, Then, Else>> {
    Cond cond;
    Then then_;
    Else else_;

    template <class Fn>
    constexpr decltype(auto) visit_children(Fn&& fn) const {
        return fn(cond, then_, else_);
    }
    template <class C, class T, class E>
    constexpr auto with_children(C const& c, T const& t, E const& e) const {
        return conditional<C, T, E>{{}, c, t, e};
    }

    // The result type is spelled out, so a branch that calls self is not needed to deduce it.
    template <class Fr>
    CASSETTE_INLINE constexpr auto evaluate(Fr const& fr) const -> typename Fr::template branch_type<Then, Else> {
        [[maybe_unused]] auto const form = fr.region(region_kind::if_);
        if (fr.truth(fr.eval(cond))) {
            [[maybe_unused]] auto const branch = fr.region(region_kind::then_);
            return fr.eval(then_);
        }
        [[maybe_unused]] auto const branch = fr.region(region_kind::else_);
        return fr.eval(else_);
    }

    // An if_ on a constant (what passes write) is already decided: only the live branch is
    // listed, as only it is ever evaluated.
    template <class Lister>
    auto list(Lister& l) const {
        if constexpr (is_constant_node<Cond>::value) {
            return cond.value ? l.operand(then_) : l.operand(else_);
        } else {
            auto const condition = l.operand(cond);
            auto const result = "%" + l.text(l.number());
            l.line(result + " = if " + condition);
            l.nested([&] { l.line("yield " + l.operand(then_)); });
            l.line("else");
            l.nested([&] { l.line("yield " + l.operand(else_)); });
            l.line("end");
            return result;
        }
    }

    // A cluster per branch inside the if_'s, and the if_'s node fed by the condition and both.
    template <class Drawer>
    constexpr std::size_t draw(Drawer const& d) const {
        std::size_t const condition = d.draw(cond);
        auto const form = d.region(region_kind::if_);
        std::size_t const then_value = form.region(region_kind::then_).draw(then_);
        std::size_t const else_value = form.region(region_kind::else_).draw(else_);
        return d.form("if_", condition, then_value, else_value);
    }
};

// cassette::let: `value` evaluated once, bound to var<Id, 0> in `body`.
template <class Id, class Value, class Body>
struct let_in : symbolic<let_in<Id, Value, Body>> {
    Value value;
    Body body;

    template <class Fn>
    constexpr decltype(auto) visit_children(Fn&& fn) const {
        return fn(value, body);
    }
    template <class V, class B>
    constexpr auto with_children(V const& v, B const& b) const {
        return let_in<Id, V, B>{{}, v, b};
    }

    template <class Fr>
    CASSETTE_INLINE constexpr auto evaluate(Fr const& fr) const {
        [[maybe_unused]] auto const form = fr.region(region_kind::let);
        decltype(auto) bound_value = fr.eval(value);
        detail::tuple<decltype(bound_value) const&> const bound{{bound_value}};
        return fr.template bind<Id>(bound).eval(body);
    }

    // The variable reads as the value it names.
    template <class Lister>
    auto list(Lister& l) const {
        return l.template with_variables<Id>({l.operand(value)}, [&] { return l.operand(body); });
    }

    // A cluster where the variable is its value's node.
    template <class Drawer>
    constexpr std::size_t draw(Drawer const& d) const {
        auto const inside = d.region(region_kind::let);
        return inside.template bind<Id>(inside.draw(value)).draw(body);
    }
};

// cassette::fold: acc = init; for i in [first, last): acc = body(var<Id, 0> = i, var<Id, 1> = acc).
template <class Id, class First, class Last, class Init, class Body>
struct loop : symbolic<loop<Id, First, Last, Init, Body>> {
    First first;
    Last last;
    Init init;
    Body body;

    template <class Fn>
    constexpr decltype(auto) visit_children(Fn&& fn) const {
        return fn(first, last, init, body);
    }
    template <class F, class L, class I, class B>
    constexpr auto with_children(F const& f, L const& l, I const& i, B const& b) const {
        return loop<Id, F, L, I, B>{{}, f, l, i, b};
    }

    template <class Fr>
    CASSETTE_INLINE constexpr auto evaluate(Fr const& fr) const {
        decltype(auto) first_value = fr.eval(first);
        decltype(auto) last_value = fr.eval(last);
        [[maybe_unused]] auto const form = fr.region(region_kind::fold, first_value, last_value);
        // The bounds without their tags: a loop counter is plain, whatever a context has tagged.
        auto const from = fr.primal(first_value);
        auto const to = fr.primal(last_value);
        decltype(auto) init_value = fr.eval(init);
        using index = std::common_type_t<std::remove_cvref_t<decltype(from)>, std::remove_cvref_t<decltype(to)>>;
        using acc_type = typename Fr::template accumulator_type<Id, index, std::remove_cvref_t<decltype(init_value)>, Body>;
        acc_type acc(init_value);
        index const end = static_cast<index>(to);
        for (index i = static_cast<index>(from); i < end; ++i) {
            detail::tuple<index const&, acc_type const&> const bound{{i}, {acc}};
            acc = fr.template bind<Id>(bound).eval(body);
        }
        return acc;
    }

    template <class Lister>
    auto list(Lister& l) const {
        auto const from = l.operand(first), to = l.operand(last), start = l.operand(init);
        auto const k = l.text(l.number());
        l.line("%" + k + " = for i" + k + " in " + from + ":" + to + ", acc" + k + " = " + start);
        auto const result = l.template with_variables<Id>({"i" + k, "acc" + k}, [&] {
            l.nested([&] { l.line("acc" + k + " = " + l.operand(body)); });
            return "%" + k;
        });
        l.line("end");
        return result;
    }

    // A cluster labelled with the bounds, holding the index and the accumulator (fed by init
    // and by the body's result), and the fold's node.
    template <class Drawer>
    constexpr std::size_t draw(Drawer const& d) const {
        std::size_t const from = d.draw(first), to = d.draw(last), start = d.draw(init);
        auto const inside = d.region(region_kind::fold, from, to);
        std::size_t const index = inside.variable("i", from, to);
        std::size_t const acc = inside.variable("acc", start);
        std::size_t const next = inside.template bind<Id>(index, acc).draw(body);
        d.add_input(acc, next);
        return d.form("fold", from, to, start, next);
    }
};

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
// A call (a height above 0, made with its type) is ruled out before visit_children is asked of
// it: Clang 16 writes out the message of a requirement that fails, here spelling the call's
// whole subtree (cse's pass on 800 calls: 1.5% of Clang's instructions).
template <class T>
concept form_node = expression<T> && cassette::detail::call_height<std::remove_cv_t<T>>::value == 0 &&
                    requires(T const& n) { n.visit_children(detail::child_types{}); };
template <class T>
using children_of = decltype(std::declval<T const&>().visit_children(detail::child_types{}));

// The traits below asked of every node are classes with a `value`, with variable templates
// over them for users: GCC gives every variable template instance (and static data member) a
// mangled name, which spells the node's whole subtree, so the library itself reads the
// classes' `value` (shared by all nodes of an answer). A body of N calls nested D deep
// otherwise costs names of N * D characters per trait. (The node kinds, and the constants the
// traits derive from, are in fwd.hpp.)
namespace detail {
using cassette::detail::kind_constant;
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
    std::size_t, cassette::detail::max_of(std::size_t{Value<Node>::value}, std::size_t{max_over_nodes<Value, Children>::value}...)>;

template <template <class> class Value, class Node>
struct max_over_nodes : max_over_node_and<Value, Node> {};
template <template <class> class Value, class F, class... Args>
struct max_over_nodes<Value, call<F, Args...>> : max_over_node_and<Value, call<F, Args...>, F, Args...> {};
template <template <class> class Value>
struct max_over {
    template <class N>
    using of = max_over_nodes<Value, N>;
};
// A form's child, staged as a body of its own (cassette::detail::call_height counts the form as
// a leaf) before the form's answer asks it.
template <template <class> class Value, class Child>
struct staged_child {
    static_assert(cassette::detail::stage_for<max_over<Value>::template of, Child>::value);
    using type = Child;
};
template <template <class> class Value, class N, class Children>
struct max_over_form;
template <template <class> class Value, class N, class... C>
struct max_over_form<Value, N, boost::mp11::mp_list<C...>> : max_over_node_and<Value, N, typename staged_child<Value, C>::type...> {};
template <template <class> class Value, form_node N>
struct max_over_nodes<Value, N> : max_over_form<Value, N, children_of<N>> {};

// Whether some node of a tree satisfies Is (a trait with `value`).
// Staged (see staged_child): asked of a deep body's root, it nests no deeper than a stage.
template <template <class> class Is, class Node>
struct any_node_of : cassette::detail::bool_constant<max_over_nodes<Is, typename staged_child<Is, Node>::type>::value != 0> {};
template <template <class> class Is, class Node>
inline constexpr bool any_node = any_node_of<Is, Node>::value;

template <class Node>
struct is_self_call : cassette::detail::false_type {};
template <class... Args>
struct is_self_call<call<self_t, Args...>> : cassette::detail::true_type {};

// Whether a subtree calls cassette::self. Asked of every body that runs, so a call's answer is
// made with its type (cassette::detail::call_height), from its arguments', and read here.
template <class F, class... Args>
struct max_over_nodes<is_self_call, call<F, Args...>>
    : cassette::detail::size_constant<cassette::detail::call_height<call<F, Args...>>::calls_self::value> {};
template <class Node>
inline constexpr bool calls_self = any_node_of<is_self_call, Node>::value;

// The number of arguments of a call node.
template <class T>
struct arity_of : cassette::detail::size_constant<0> {};
template <class F, class... A>
struct arity_of<call<F, A...>> : cassette::detail::size_constant<sizeof...(A)> {};
template <class F, class... A>
struct arity_of<call<F, A...> const> : arity_of<call<F, A...>> {};
template <class T>
inline constexpr std::size_t arity = arity_of<T>::value;

// The calls in a node's subtree, those of callee expressions included.
template <class T>
struct call_count_of : cassette::detail::size_constant<0> {};
template <class F, class... A>
struct call_count_of<call<F, A...>>
    : cassette::detail::size_constant<1 + call_count_of<F>::value + (call_count_of<A>::value + ... + 0)> {};
template <class F, class... A>
struct call_count_of<call<F, A...> const> : call_count_of<call<F, A...>> {};
template <class T>
inline constexpr std::size_t call_count = call_count_of<T>::value;

// Node kinds, for passes that match "any node of this kind".
template <class T>
inline constexpr bool is_call = cassette::detail::is(node_kind_of<T>::value, node_kind::call);
template <class T>
inline constexpr bool is_constant = is_constant_node<T>::value;

// Special forms evaluate lazily or bind variables: conditional, let_in, loop, extension nodes.
template <class T>
struct special_form_of : cassette::detail::bool_constant<form_node<T>> {};
template <class T>
inline constexpr bool is_special_form = special_form_of<T>::value;

}  // namespace cassette::ir

namespace cassette::detail {

// A body's calls are evaluated by functions nested as deep as the body, each with a result
// type worked out from its arguments', and other facts about a subtree are worked out from its
// children's. Asked first of a deep body's root, each nests as many instantiations as the body
// is deep, and a chain of a few hundred calls meets the compilers' limits (GCC's 900, Clang's
// 1,024). So they are first asked of the call subtrees whose height (through calls; any other
// node counts as a leaf) is a multiple of stage_height, lowest first (staged_calls lists them
// so; stage instantiates a trait of each), and no question asked later nests more than
// stage_height levels below it. A call's height, and the staged list of a call at least
// stage_height high, are made with the call's type (its static_assert), from its arguments',
// made before it: bottom up, so asking them of a deep body nests no instantiations either.
template <class Node>
struct call_height : cassette::detail::size_constant<0> {};

// With a call's height, whether its subtree calls cassette::self (ir::calls_self), from its
// callee's and arguments': a call's made with its type, anything else's by a walk (of a form:
// it stops at the calls in it). Chosen by height, which only calls have, so that asking
// instantiates no class per call.
template <bool Call>
struct self_calls_in {
    template <class Node>
    using of = cassette::detail::bool_constant<ir::any_node_of<ir::is_self_call, Node>::value>;
};
template <>
struct self_calls_in<true> {
    template <class Node>
    using of = typename call_height<Node>::calls_self;
};

template <class F, class... A>
struct call_height<ir::call<F, A...>> : cassette::detail::size_constant<1 + detail::max_of(call_height<A>::value...)> {
    using calls_self = cassette::detail::bool_constant<std::is_same<F, ir::self_t>::value ||
                                                       self_calls_in<(call_height<F>::value != 0)>::template of<F>::value ||
                                                       (self_calls_in<(call_height<A>::value != 0)>::template of<A>::value || ...)>;
};

template <class Node, bool Deep>
struct staged_calls {
    using type = boost::mp11::mp_list<>;
};
template <class F, class... A>
struct staged_calls<ir::call<F, A...>, true> {
    using type = boost::mp11::mp_append<typename staged_calls<A>::type...,
                                        std::conditional_t<call_height<ir::call<F, A...>>::value % stage_height == 0,
                                                           boost::mp11::mp_list<ir::call<F, A...>>, boost::mp11::mp_list<>>>;
};

}  // namespace cassette::detail
