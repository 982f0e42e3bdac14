// SPDX-License-Identifier: BSL-1.0
// The vocabulary every part of Cassette shares, declared without cycles.
//
// Definitions (see docs/definitions.md):
//   traced function  a callable whose body is an IR expression built once, at compile time;
//   call node        ir::call<F, Args...>: the callee F applied to argument nodes;
//   primitive        any callee that is not a traced function: it can be overdubbed, not entered;
//   context          any class; its members prehook/posthook/overdub/fallback customise calls;
//   pass             a constexpr function object that rewrites a body before it runs.
#pragma once

#include <concepts>
#include <cstddef>
#include <type_traits>

namespace cassette {

namespace detail {

// Yes and no, as classes whose `value` is a member of an explicit specialisation, where
// std::bool_constant's is one of an implicit instantiation: Clang 16 hands such a member to
// code generation again at each use that may be constant-evaluated (about 26,000 instructions
// each, Sema::InstantiateVariableDefinition), and the library reads dozens per node.
template <bool B>
struct bool_constant;
template <>
struct bool_constant<true> {
    using value_type = bool;
    static constexpr bool value = true;
    constexpr operator bool() const noexcept { return true; }
};
template <>
struct bool_constant<false> {
    using value_type = bool;
    static constexpr bool value = false;
    constexpr operator bool() const noexcept { return false; }
};
using true_type = bool_constant<true>;
using false_type = bool_constant<false>;

// Sizes, the same way up to 15: most of the sizes read per node are small (an arity, a leaf's
// height, a small subtree's count), and each read of a larger one costs what a read of
// std::integral_constant's value does (cse's pass on 400 calls: 2.3% of Clang's instructions).
template <std::size_t N>
struct size_constant {
    using value_type = std::size_t;
    static constexpr std::size_t value = N;
};
#define CASSETTE_DETAIL_SIZE(N)                       \
    template <>                                       \
    struct size_constant<N> {                         \
        using value_type = std::size_t;               \
        static constexpr std::size_t value = N;       \
    };
CASSETTE_DETAIL_SIZE(0)
CASSETTE_DETAIL_SIZE(1)
CASSETTE_DETAIL_SIZE(2)
CASSETTE_DETAIL_SIZE(3)
CASSETTE_DETAIL_SIZE(4)
CASSETTE_DETAIL_SIZE(5)
CASSETTE_DETAIL_SIZE(6)
CASSETTE_DETAIL_SIZE(7)
CASSETTE_DETAIL_SIZE(8)
CASSETTE_DETAIL_SIZE(9)
CASSETTE_DETAIL_SIZE(10)
CASSETTE_DETAIL_SIZE(11)
CASSETTE_DETAIL_SIZE(12)
CASSETTE_DETAIL_SIZE(13)
CASSETTE_DETAIL_SIZE(14)
CASSETTE_DETAIL_SIZE(15)
#undef CASSETTE_DETAIL_SIZE

}  // namespace detail

namespace ir {

struct node_base {};
template <class Derived>
struct symbolic;

template <std::size_t I>
struct param;
template <class T>
struct constant;
template <class F, class... Args>
struct call;
template <class Id, std::size_t K>
struct var;
template <class Cond, class Then, class Else>
struct conditional;
template <class Id, class Value, class Body>
struct let_in;
template <class Id, class First, class Last, class Init, class Body>
struct loop;
struct self_t;

// Every IR node, and so every symbolic value a builder handles, derives from node_base.
// (std::is_base_of rather than std::derived_from: asked for every node a builder makes, and
// the convertibility test derived_from adds costs compile time for nothing here. Its class,
// not is_base_of_v: GCC names every variable template instance it makes, and a node's name
// spells its whole subtree.)
template <class T>
concept expression = std::is_base_of<node_base, std::remove_cvref_t<T>>::value;

}  // namespace ir

namespace op {
struct primitive_base {};
template <class Derived>
struct primitive;
struct getindex_t;
}  // namespace op

template <class T>
concept primitive = std::derived_from<std::remove_cvref_t<T>, op::primitive_base>;

// The result of a call whose callee returns void, so every call has a value hooks can see.
struct nothing {
    friend constexpr bool operator==(nothing, nothing) noexcept { return true; }
};

// The context that does nothing: overdubbing under it is plain evaluation.
struct null_context {};

// The forms a context's region member hears of as the evaluator enters them: an if_, the
// branch it takes, a let, a fold (with its bounds). What the member returns lives until the
// form is left (graph::record draws each as a labelled subgraph).
enum class region_kind : unsigned char { if_, then_, else_, let, fold };

}  // namespace cassette
