// SPDX-License-Identifier: BSL-1.0
// The built-in primitives: operators, math, indexing, aggregates. Each is a function object
// of type op::NAME_t that computes on plain values and records a call node on symbolic ones.
#pragma once

#include <cassette/detail/config.hpp>
#include <cassette/detail/fixed_string.hpp>
#include <cassette/ir.hpp>

#include <boost/pfr/core.hpp>

#include <cmath>
#include <concepts>
#include <cstdlib>
#include <string_view>  // std::size too
#include <tuple>
#include <utility>

// The operands are the user's, and what were literals in their source (x[0], length(x) - 1)
// are variables here: -Wsign-conversion would report, in this header, conversions that C++
// makes silently for a literal.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wsign-conversion"

namespace cassette::op {

// Constrained, so that "can it be called with these?" is a question contexts and the library's
// own checks can ask, not a hard error inside apply.
template <class Derived>
struct primitive : primitive_base {
    template <class... X>
        requires(ir::expression<X> || ...) || requires(X const&... xs) { Derived::apply(xs...); }
    CASSETTE_INLINE constexpr decltype(auto) operator()(X const&... xs) const {
        if constexpr ((ir::expression<X> || ...)) {
            detail::stop_speculative_folding();
            return ir::call<Derived, ir::node_t<X>...>{{}, static_cast<Derived const&>(*this), {{ir::node_t<X>(xs)}...}};
        } else
            return Derived::apply(xs...);
    }
};

// A primitive in one row: its name, its symbol, its traits (how it computes, whether it sees
// through tags: op::primitive_base), what it computes and its parameters. Each apply has a
// trailing return type so that "not computable for these arguments" is a substitution failure
// that contexts and concepts can test, not a hard error.
#define CASSETTE_DETAIL_OPERATOR(NAME, SYMBOL, COMPUTED, SEES_THROUGH_TAGS, EXPR, ...)     \
    struct NAME##_t : primitive<NAME##_t> {                                                 \
        static constexpr std::string_view name = SYMBOL;                                    \
        static constexpr computation computed = computation::COMPUTED;                      \
        static constexpr bool sees_through_tags = SEES_THROUGH_TAGS;                        \
        CASSETTE_INLINE static constexpr auto apply(__VA_ARGS__) -> decltype(EXPR) { \
            return EXPR;                                                                    \
        }                                                                                   \
    };                                                                                      \
    inline constexpr NAME##_t NAME{};

// The binary operators, once, each a constant expression: their primitives here, their
// symbolic overloads below. A row: name, symbol, whether it sees through tags (comparisons).
#define CASSETTE_DETAIL_BINARY_LIST(M)                                                              \
    M(add, +, false) M(sub, -, false) M(mul, *, false) M(div, /, false) M(mod, %, false)              \
    M(lt, <, true) M(le, <=, true) M(gt, >, true) M(ge, >=, true) M(eq, ==, true) M(ne, !=, true) \
    M(logical_and, &&, false) M(logical_or, ||, false)

#define CASSETTE_DETAIL_BINARY(NAME, OP, SEES_THROUGH_TAGS)                                       \
    CASSETTE_DETAIL_OPERATOR(NAME, #OP, constant_expression, SEES_THROUGH_TAGS, a OP b, auto const& a, \
                             auto const& b)
CASSETTE_DETAIL_BINARY_LIST(CASSETTE_DETAIL_BINARY)
CASSETTE_DETAIL_OPERATOR(neg, "-", constant_expression, false, -x, auto const& x)
CASSETTE_DETAIL_OPERATOR(logical_not, "!", constant_expression, false, !x, auto const& x)
#undef CASSETTE_DETAIL_BINARY

}  // namespace cassette::op

// The math functions, by arity, each with how it computes: most by a call to libm; sqrt, abs,
// floor and ceil are often single instructions, and pow's small integer exponents are inlined.
#define CASSETTE_DETAIL_MATH_LIST(M1, M2)                                                         \
    M1(sin, libm) M1(cos, libm) M1(tan, libm) M1(asin, libm) M1(acos, libm) M1(atan, libm)      \
    M2(atan2, libm) M1(sinh, libm) M1(cosh, libm) M1(tanh, libm) M1(exp, libm) M1(log, libm)    \
    M1(log1p, libm) M1(expm1, libm) M1(sqrt, other) M1(cbrt, libm) M2(pow, other) M1(abs, other) \
    M2(hypot, libm) M1(floor, other) M1(ceil, other)

// Math on plain values is std::NAME or, for user types, what ADL finds, as in generic code
// that writes `using std::sin; sin(x)`.
namespace cassette::detail::math {
using std::abs, std::acos, std::asin, std::atan, std::atan2, std::cbrt, std::ceil, std::cos,
    std::cosh, std::exp, std::expm1, std::floor, std::hypot, std::log, std::log1p, std::pow,
    std::sin, std::sinh, std::sqrt, std::tan, std::tanh;

#define CASSETTE_DETAIL_MATH1(NAME, ...)                                              \
    CASSETTE_INLINE constexpr auto NAME##_(auto const& x) -> decltype(NAME(x)) { \
        return NAME(x);                                                               \
    }
#define CASSETTE_DETAIL_MATH2(NAME, ...)                                         \
    CASSETTE_INLINE constexpr auto NAME##_(auto const& a, auto const& b)  \
        -> decltype(NAME(a, b)) {                                                \
        return NAME(a, b);                                                       \
    }
CASSETTE_DETAIL_MATH_LIST(CASSETTE_DETAIL_MATH1, CASSETTE_DETAIL_MATH2)
#undef CASSETTE_DETAIL_MATH1
#undef CASSETTE_DETAIL_MATH2

// Exponents 0, 1 and 2 by their exact identities (the same correctly rounded results): a
// std::pow whose result is unused stays a libm call, for errno, and under differentiation
// the value of a pow often is unused.
// x * x in the result type of std::pow(x, 2), whose value it is: an int or float x is
// promoted to double first.
CASSETTE_INLINE constexpr auto square_(auto const& x) -> decltype(pow(x, 2)) {
    using result = decltype(pow(x, 2));
    return result(x) * result(x);
}

CASSETTE_INLINE constexpr auto pow_(auto const& a, std::integral auto const& b) -> decltype(pow(a, b)) {
    using result = decltype(pow(a, b));
    if (b == 2) return detail::math::square_(a);
    if (b == 1) return result(a);
    if (b == 0) return result(1);
    return pow(a, b);
}
template <class T>
CASSETTE_INLINE constexpr T value(T const& x) {
    return x;
}
}  // namespace cassette::detail::math

namespace cassette::op {

#define CASSETTE_DETAIL_MATH1(NAME, COMPUTED) \
    CASSETTE_DETAIL_OPERATOR(NAME, #NAME, COMPUTED, false, detail::math::NAME##_(x), auto const& x)
#define CASSETTE_DETAIL_MATH2(NAME, COMPUTED) \
    CASSETTE_DETAIL_OPERATOR(NAME, #NAME, COMPUTED, false, detail::math::NAME##_(a, b), auto const& a, \
                             auto const& b)
CASSETTE_DETAIL_MATH_LIST(CASSETTE_DETAIL_MATH1, CASSETTE_DETAIL_MATH2)
#undef CASSETTE_DETAIL_MATH1
#undef CASSETTE_DETAIL_MATH2

// pow(x, 2), as strength reduction writes it.
CASSETTE_DETAIL_OPERATOR(square, "square", constant_expression, false, detail::math::square_(x), auto const& x)

// min and max keep std's choice at ties (the first argument) and take the common type. They
// return a value, not std's reference to an argument, which a body's temporaries outlive.
CASSETTE_DETAIL_OPERATOR(min, "min", constant_expression, false, detail::math::value(b < a ? b : a),
                         auto const& a, auto const& b)
CASSETTE_DETAIL_OPERATOR(max, "max", constant_expression, false, detail::math::value(a < b ? b : a),
                         auto const& a, auto const& b)

// x[i]: the element by reference, so indexing a parameter copies nothing.
CASSETTE_DETAIL_OPERATOR(getindex, "getindex", other, true, x[i], auto const& x, auto const& i)
CASSETTE_DETAIL_OPERATOR(length, "length", other, true, std::size(x), auto const& x)
#undef CASSETTE_DETAIL_OPERATOR

// Field I of an aggregate (Boost.PFR) or element I of a tuple-like type (std::array, pair).
template <std::size_t I>
struct get_t : primitive<get_t<I>> {
    static constexpr auto spelled = cassette::detail::indexed_name<I>("get");
    static constexpr std::string_view name{spelled.data, spelled.size};
    static constexpr bool sees_through_tags = true;

    template <class P>
    CASSETTE_INLINE static constexpr decltype(auto) apply(P const& p) {
        if constexpr (requires { std::tuple_size<P>::value; })
            return std::get<I>(p);
        else
            return boost::pfr::get<I>(p);
    }
};
template <std::size_t I>
inline constexpr get_t<I> get{};

// Aggregate initialisation of T (std::array included).
template <class T>
struct make_t : primitive<make_t<T>> {
    static constexpr std::string_view name = "make";
    static constexpr bool sees_through_tags = true;

    CASSETTE_INLINE static constexpr auto apply(auto const&... xs) -> decltype(T{xs...}) {
        return T{xs...};
    }
};
template <class T>
inline constexpr make_t<T> make{};

}  // namespace cassette::op

namespace cassette {

#define CASSETTE_DETAIL_EXPORT(NAME, ...) using op::NAME;
CASSETTE_DETAIL_MATH_LIST(CASSETTE_DETAIL_EXPORT, CASSETTE_DETAIL_EXPORT)
CASSETTE_DETAIL_EXPORT(min)
CASSETTE_DETAIL_EXPORT(max)
CASSETTE_DETAIL_EXPORT(length)
#undef CASSETTE_DETAIL_EXPORT

template <std::size_t I, class P>
CASSETTE_INLINE constexpr decltype(auto) get(P const& p) {
    return op::get<I>(p);
}

template <class T, class... X>
CASSETTE_INLINE constexpr auto make(X const&... xs) {
    return op::make<T>(xs...);
}

}  // namespace cassette

// Operators and ADL math on symbolic values: found by argument-dependent lookup, so
// Cassette-unaware generic code (`using std::sin; return sin(x) * x;`) records call nodes.
namespace cassette::ir {

template <class A, class B>
concept symbolic_operands = expression<A> || expression<B>;

// FUNCTION(a, b), a call node to op::NAME built in place (see ir::call).
#define CASSETTE_DETAIL_BINARY_CALL(FUNCTION, NAME)                                            \
    template <class A, class B>                                                                 \
        requires symbolic_operands<A, B>                                                        \
    constexpr auto FUNCTION(A const& a, B const& b) {                                           \
        cassette::detail::stop_speculative_folding();                                          \
        return call<op::NAME##_t, node_t<A>, node_t<B>>{{}, op::NAME, {{node_t<A>(a)}, {node_t<B>(b)}}}; \
    }
#define CASSETTE_DETAIL_BINARY(NAME, OP, ...) CASSETTE_DETAIL_BINARY_CALL(operator OP, NAME)
CASSETTE_DETAIL_BINARY_LIST(CASSETTE_DETAIL_BINARY)
#undef CASSETTE_DETAIL_BINARY_LIST
#undef CASSETTE_DETAIL_BINARY

template <expression X>
constexpr auto operator-(X const& x) {
    return ir::make_call(op::neg, x);
}
template <expression X>
constexpr auto operator!(X const& x) {
    return ir::make_call(op::logical_not, x);
}

#define CASSETTE_DETAIL_ADL1(NAME, ...)                 \
    template <expression X>                             \
    constexpr auto NAME(X const& x) {                   \
        cassette::detail::stop_speculative_folding();   \
        return call<op::NAME##_t, X>{{}, op::NAME, {{x}}}; \
    }
#define CASSETTE_DETAIL_ADL2(NAME, ...) CASSETTE_DETAIL_BINARY_CALL(NAME, NAME)
CASSETTE_DETAIL_MATH_LIST(CASSETTE_DETAIL_ADL1, CASSETTE_DETAIL_ADL2)
CASSETTE_DETAIL_ADL2(min)
CASSETTE_DETAIL_ADL2(max)
#undef CASSETTE_DETAIL_ADL1
#undef CASSETTE_DETAIL_ADL2
#undef CASSETTE_DETAIL_BINARY_CALL
#undef CASSETTE_DETAIL_MATH_LIST

}  // namespace cassette::ir

#pragma GCC diagnostic pop
