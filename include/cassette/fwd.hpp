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

namespace ir {
// Every node's kind, in one place: traversals dispatch on it (a partial specialisation
// matches a node's type without deducing against all of it, as overloading would).
enum class node_kind : unsigned char { param, constant, var, call, conditional, let, loop, extension, other };
}  // namespace ir

namespace detail {

// Constants as classes, as std::integral_constant is, for the traits the library reads per
// node. The values read most (yes and no, node kinds, sizes up to 15: an arity, a leaf's
// height, a small subtree's count) are explicit specialisations: Clang 16 hands a static data
// member of an implicit instantiation, such as std::integral_constant's `value`, to code
// generation again at each use that may be constant-evaluated (about 26,000 instructions
// each, Sema::InstantiateVariableDefinition), but not a member of an explicit specialisation.
template <bool B>
struct bool_constant;
template <ir::node_kind K>
struct kind_constant;
template <std::size_t N>
struct size_constant {
    using value_type = std::size_t;
    static constexpr std::size_t value = N;
};
#define CASSETTE_DETAIL_EXPLICIT(TEMPLATE, T, V)                 \
    template <>                                                  \
    struct TEMPLATE<V> {                                         \
        using value_type = T;                                    \
        static constexpr T value = V;                            \
    };
CASSETTE_DETAIL_EXPLICIT(bool_constant, bool, false)
CASSETTE_DETAIL_EXPLICIT(bool_constant, bool, true)
CASSETTE_DETAIL_EXPLICIT(kind_constant, ir::node_kind, ir::node_kind::param)
CASSETTE_DETAIL_EXPLICIT(kind_constant, ir::node_kind, ir::node_kind::constant)
CASSETTE_DETAIL_EXPLICIT(kind_constant, ir::node_kind, ir::node_kind::var)
CASSETTE_DETAIL_EXPLICIT(kind_constant, ir::node_kind, ir::node_kind::call)
CASSETTE_DETAIL_EXPLICIT(kind_constant, ir::node_kind, ir::node_kind::conditional)
CASSETTE_DETAIL_EXPLICIT(kind_constant, ir::node_kind, ir::node_kind::let)
CASSETTE_DETAIL_EXPLICIT(kind_constant, ir::node_kind, ir::node_kind::loop)
CASSETTE_DETAIL_EXPLICIT(kind_constant, ir::node_kind, ir::node_kind::extension)
CASSETTE_DETAIL_EXPLICIT(kind_constant, ir::node_kind, ir::node_kind::other)
CASSETTE_DETAIL_EXPLICIT(size_constant, std::size_t, 0)
CASSETTE_DETAIL_EXPLICIT(size_constant, std::size_t, 1)
CASSETTE_DETAIL_EXPLICIT(size_constant, std::size_t, 2)
CASSETTE_DETAIL_EXPLICIT(size_constant, std::size_t, 3)
CASSETTE_DETAIL_EXPLICIT(size_constant, std::size_t, 4)
CASSETTE_DETAIL_EXPLICIT(size_constant, std::size_t, 5)
CASSETTE_DETAIL_EXPLICIT(size_constant, std::size_t, 6)
CASSETTE_DETAIL_EXPLICIT(size_constant, std::size_t, 7)
CASSETTE_DETAIL_EXPLICIT(size_constant, std::size_t, 8)
CASSETTE_DETAIL_EXPLICIT(size_constant, std::size_t, 9)
CASSETTE_DETAIL_EXPLICIT(size_constant, std::size_t, 10)
CASSETTE_DETAIL_EXPLICIT(size_constant, std::size_t, 11)
CASSETTE_DETAIL_EXPLICIT(size_constant, std::size_t, 12)
CASSETTE_DETAIL_EXPLICIT(size_constant, std::size_t, 13)
CASSETTE_DETAIL_EXPLICIT(size_constant, std::size_t, 14)
CASSETTE_DETAIL_EXPLICIT(size_constant, std::size_t, 15)
#undef CASSETTE_DETAIL_EXPLICIT
using true_type = bool_constant<true>;
using false_type = bool_constant<false>;

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

// How a primitive computes on plain values: as a constant expression on every compiler
// (fold_constants may run it at compile time), by a call into the C math library (a reverse
// sweep may share and drop repeated calls), or by other code.
enum class computation { constant_expression, libm, other };

// A built-in primitive's traits, which the passes, tagging and AD ask of it; each primitive
// states its own in its row of primitives.hpp.
struct primitive_base {
    static constexpr computation computed = computation::other;
    // Computed on the values under every tag, by code that needs no context: its result has
    // no metadata (length, comparisons), or its parts' (indexing, fields, make). To AD, such a
    // result has no derivative, unless it is a part (ad::detail::is_projection) or make's.
    static constexpr bool sees_through_tags = false;
};
template <class Derived>
struct primitive;
struct getindex_t;
}  // namespace op

template <class T>
concept primitive = std::derived_from<std::remove_cvref_t<T>, op::primitive_base>;

namespace op {
// How any callable computes on plain values, as far as the library knows (a complete type
// deriving from one primitive, publicly, or not a primitive at all).
template <class F>
inline constexpr computation computed_by = computation::other;
template <class F>
    requires std::is_base_of<primitive_base, F>::value
inline constexpr computation computed_by<F> = F::computed;
}  // namespace op

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
