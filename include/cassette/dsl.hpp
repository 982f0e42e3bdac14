// SPDX-License-Identifier: BSL-1.0
// The traced-call DSL: traced functions and the special forms (self, call, if_, let, fold, sum).
// Calling a traced function on values needs the evaluator, which <cassette/function.hpp> adds.
#pragma once

#include <cassette/detail/config.hpp>
#include <cassette/detail/fixed_string.hpp>
#include <cassette/detail/type_name.hpp>
#include <cassette/ir.hpp>
#include <cassette/primitives.hpp>

#include <concepts>
#include <cstddef>
#include <string_view>
#include <type_traits>
#include <utility>

namespace cassette {

namespace detail {
struct traced_base {};

// Defined in overdub.hpp, which includes this header: plain evaluation is overdubbing under
// null_context.
template <class F, class... A>
constexpr auto evaluate(F const& f, A const&... args);
}  // namespace detail

template <class F>
concept traced_function = std::derived_from<std::remove_cvref_t<F>, detail::traced_base>;

// A traced function: its body for N arguments is what Builder returns for N symbolic
// parameters, computed once, in constant evaluation, and stored as a constexpr object.
template <detail::fixed_string Name, class Builder>
struct traced : detail::traced_base {
    static_assert(std::is_default_constructible_v<Builder>,
                  "cassette::function(builder): the builder must be default constructible "
                  "(a captureless lambda or a stateless function object), because the body "
                  "is built from the builder's type alone.");

    static constexpr std::string_view name = Name.view().empty() ? "lambda" : Name.view();

    // The builder's own operator() wins whenever it takes N symbolic parameters (an exact
    // match beats an ellipsis); only when it does not is the ellipsis chosen, and its body
    // says so. So the arity is reported only when it is wrong, and an error inside a body is
    // reported once, as itself, without a wrong-arity message after it.
    struct arity_checked : Builder {
        using Builder::operator();
        template <int = 0>
        constexpr ir::param<0> operator()(...) const {
            static_assert(detail::always_false<arity_checked>,
                          "cassette: a traced function was called with a number of arguments its builder "
                          "does not take; the function is named in 'traced<...{\"name\"}...>' in this "
                          "instantiation.");
            return {};
        }
    };

    // consteval: the builder runs in constant evaluation only, so none of the calls it makes
    // is ever compiled into code (a body of 800 calls: a tenth less compiler memory).
    template <std::size_t N>
    static consteval auto build() {
        return []<std::size_t... I>(std::index_sequence<I...>) {
            using result = decltype(arity_checked{}(ir::param<I>{}...));
            if constexpr (std::is_void_v<result>) {
                static_assert(!std::is_void_v<result>,
                              "cassette: the builder of the traced function named in 'traced<...{\"name\"}...>' "
                              "in this instantiation returns nothing: did you forget `return`?");
                return ir::constant<nothing>{{}};
            } else {
                return ir::as_node(arity_checked{}(ir::param<I>{}...));
            }
        }(std::make_index_sequence<N>{});
    }

    template <std::size_t N>
    using body_type = decltype(build<N>());

    // The body for N arguments, built once per arity in constant evaluation: through a
    // constexpr function, as Clang evaluates an immediate invocation in a constexpr
    // variable's initializer twice (llvm/llvm-project#117321; a body of 1,600 calls: 5% of
    // its compilation).
    template <std::size_t N>
    static constexpr body_type<N> built() {
        return build<N>();
    }
    template <std::size_t N>
    static constexpr body_type<N> body = built<N>();

    // With ordinary values: evaluates the body. With a symbolic value: a call node.
    // Inside a builder, the callee's body for these arguments is built here, so a mistake in
    // the call (the number of arguments) is reported where it was made.
    template <class... A>
    CASSETTE_INLINE constexpr auto operator()(A const&... args) const {
        if constexpr ((ir::expression<A> || ...)) {
            static_assert(ir::expression<body_type<sizeof...(A)>>);
            return ir::make_call(*this, args...);
        } else {
            return detail::evaluate(*this, args...);
        }
    }
};

template <detail::fixed_string Name, class Builder>
constexpr traced<Name, Builder> function(Builder) {
    return {};
}

template <class Builder>
constexpr traced<"", Builder> function(Builder) {
    return {};
}

// The name hooks and listings show: a traced function's given name, a primitive's symbol
// or function name, a callable's own `name` member, or its type's name.
template <class F>
constexpr std::string_view name_of(F const&) noexcept {
    if constexpr (requires { std::string_view(F::name); })
        return F::name;
    else
        return detail::type_name<F>();
}

// A call node to the traced function whose body is being built.
template <class... X>
constexpr auto self(X const&... args) {
    return ir::make_call(ir::self_t{}, args...);
}

// A call node to any callable g (a primitive unless g is traced), whatever its arguments:
// with all of them plain it is still a node, so contexts see it and passes can rewrite it.
template <class G, class... X>
constexpr auto call(G const& g, X const&... args) {
    return ir::make_call(g, args...);
}

// Only the taken branch is evaluated; the result has the branches' common type.
template <class C, class T, class E>
constexpr auto if_(C const& cond, T const& then_value, E const& else_value) {
    detail::stop_speculative_folding();
    return ir::conditional<ir::node_t<C>, ir::node_t<T>, ir::node_t<E>>{
        {}, ir::as_node(cond), ir::as_node(then_value), ir::as_node(else_value)};
}

// Bound variables are identified by the closure type of the lambda that binds them: each
// lambda expression is its own type, so nested forms never capture each other's variables.
template <class V, class Lambda>
constexpr auto let(V const& value, Lambda const& body) {
    detail::stop_speculative_folding();
    auto b = ir::as_node(body(ir::var<Lambda, 0>{}));
    return ir::let_in<Lambda, ir::node_t<V>, decltype(b)>{{}, ir::as_node(value), b};
}

template <class First, class Last, class Init, class Lambda>
constexpr auto fold(First const& first, Last const& last, Init const& init, Lambda const& body) {
    detail::stop_speculative_folding();
    auto b = ir::as_node(body(ir::var<Lambda, 0>{}, ir::var<Lambda, 1>{}));
    return ir::loop<Lambda, ir::node_t<First>, ir::node_t<Last>, ir::node_t<Init>, decltype(b)>{
        {}, ir::as_node(first), ir::as_node(last), ir::as_node(init), b};
}

// sum(first, last, term) is fold(first, last, 0, acc + term(i)): ordinary add calls.
template <class First, class Last, class Term>
constexpr auto sum(First const& first, Last const& last, Term const& term) {
    return cassette::fold(first, last, 0, [term](auto i, auto acc) { return acc + term(i); });
}

}  // namespace cassette
