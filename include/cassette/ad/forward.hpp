// SPDX-License-Identifier: BSL-1.0
// Forward-mode automatic differentiation as a context: values are tagged with their tangent,
// and each primitive has a derivative rule. Nested differentiation is free of perturbation
// confusion because every context's tag is distinct from its parent's, and a context computes
// its primal and tangent arithmetic by overdubbing it in its parent.
#pragma once

#include <cassette/detail/config.hpp>
#include <cassette/overdub.hpp>
#include <cassette/tag.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

namespace cassette::ad {

// The tangent of a value that does not depend on the input: arithmetic with it is skipped.
struct zero {
    friend constexpr bool operator==(zero, zero) noexcept { return true; }
};

// A derivative rule for primitive G: specialise with
//   static constexpr auto apply(auto const& p, ad::dual<A> a, ...) -> ad::dual<...>
// computing the value and the tangent with p (see docs/ad.md). No specialisation: no rule.
struct no_rule {};
template <class G>
struct rule : no_rule {};

template <class G>
inline constexpr bool has_rule = !std::is_base_of_v<no_rule, rule<G>>;

// A value and its tangent, as a rule sees its arguments and returns its result.
template <class V, class T>
struct dual {
    V v;
    T d;
};
template <class V, class T>
dual(V, T) -> dual<V, T>;

// Each context's tag: distinct from every enclosing context's, since it names its parent.
template <class Parent>
struct tag {};

namespace detail {

template <class T>
inline constexpr bool is_zero = std::is_same_v<std::remove_cvref_t<T>, zero>;

template <std::size_t W>
inline constexpr std::uint64_t all_lanes = W == 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << W) - 1;
template <std::size_t W, std::uint64_t Live = all_lanes<W>>
struct tangents;

// Arithmetic in the parent context, so that values another (enclosing) context has tagged
// are computed by that context's rules; the tangent operations skip zero tangents.
template <class Parent>
struct arithmetic {
    Parent& parent;

    template <class G, class... X>
    CASSETTE_INLINE constexpr auto operator()(G const& g, X const&... xs) const {
        return cassette::overdub(parent, g, xs...);
    }

    template <class A, class B>
    CASSETTE_INLINE constexpr auto add(A const& a, B const& b) const {
        if constexpr (is_zero<A>)
            return b;
        else if constexpr (is_zero<B>)
            return a;
        else
            return (*this)(op::add, a, b);
    }
    template <class A, class B>
    CASSETTE_INLINE constexpr auto sub(A const& a, B const& b) const {
        if constexpr (is_zero<B>)
            return a;
        else if constexpr (is_zero<A>)
            return (*this)(op::neg, b);
        else
            return (*this)(op::sub, a, b);
    }
    template <class A, class B>
    CASSETTE_INLINE constexpr auto mul(A const& a, B const& b) const {
        if constexpr (is_zero<A> || is_zero<B>)
            return zero{};
        else
            return (*this)(op::mul, a, b);
    }
    template <class A, class B>
    CASSETTE_INLINE constexpr auto div(A const& a, B const& b) const {
        if constexpr (is_zero<A>)
            return zero{};
        else
            return (*this)(op::div, a, b);
    }
    // t * (k * f) and (t / f) / k, the same for scalar and vector tangents, so derivative and
    // gradient give the same bits. The product k * f is taken once, as lanes need it (pow's
    // rule, in every Rosenbrock gradient). A plain scalar tangent takes the factors one at a
    // time, which needs one register copy fewer on x86-64 (g'), where that gives the same
    // bits: for k == 2, as doubling is exact (outside the subnormal range), and in division.
    template <class T, class K, class F>
    CASSETTE_INLINE constexpr auto mul(T const& t, K const& k, F const& f) const {
        if constexpr (std::is_floating_point_v<T> && std::is_arithmetic_v<K> && std::is_arithmetic_v<F>)
            if (k == 2) return mul(mul(t, f), k);
        return mul(t, (*this)(op::mul, k, f));
    }
    template <class T, class K, class F>
    CASSETTE_INLINE constexpr auto div(T const& t, K const& k, F const& f) const {
        return div(div(t, f), k);
    }
    template <class A>
    CASSETTE_INLINE constexpr auto neg(A const& a) const {
        if constexpr (is_zero<A>)
            return zero{};
        else
            return (*this)(op::neg, a);
    }
    // One of two tangents, chosen at run time: a zero becomes a real zero of the other's type.
    template <class A, class B>
    CASSETTE_INLINE constexpr auto select(bool first, A const& a, B const& b) const {
        if constexpr (is_zero<A> && is_zero<B>)
            return zero{};
        else if constexpr (is_zero<A>)
            return first ? B{} : b;
        else if constexpr (is_zero<B>)
            return first ? a : A{};
        else  // lanes live in either
            return first ? std::common_type_t<A, B>(a) : std::common_type_t<A, B>(b);
    }
};

template <class X>
using primal_t = std::remove_cvref_t<decltype(cassette::detail::primal(std::declval<X const&>()))>;

// W directional derivatives carried at once (vector mode): one forward pass gives W
// columns of a gradient or Jacobian. Plain arithmetic, so any parent context computes it.
// Live marks the lanes that may be nonzero, known at compile time: seeded from the fields of
// an aggregate, x * x touches one lane and x * y two, and an operation skips the other
// lanes (which hold 0) instead of multiplying zeros it cannot fold away.
template <std::size_t W, std::uint64_t Live>
struct tangents {
    static_assert(W <= 64, "cassette::ad: at most 64 lanes per pass");
    std::array<double, W> d{};

    constexpr tangents() = default;
    template <class... Lane>
    constexpr explicit tangents(std::in_place_t, Lane... lanes) : d{lanes...} {}
    // Only widening: a value that depends on fewer inputs takes a branch's or an
    // accumulator's wider type.
    template <std::uint64_t L>
        requires(L != Live && (L & ~Live) == 0)
    constexpr tangents(tangents<W, L> const& t) : d(t.d) {}

    // Lane k (as a std::integral_constant) from op where live, else 0; unrolled and built in
    // place, since a loop over a copy makes GCC spill every lane.
    template <class Op>
    CASSETTE_INLINE static constexpr tangents map(Op op) {
        return [&]<std::size_t... K>(std::index_sequence<K...>) CASSETTE_INLINE_LAMBDA {
            return tangents(std::in_place, lane<K>(op)...);
        }(std::make_index_sequence<W>{});
    }
    template <std::size_t K, class Op>
    CASSETTE_INLINE static constexpr double lane(Op& op) {
        if constexpr ((Live >> K & 1) != 0)
            return op(std::integral_constant<std::size_t, K>{});
        else
            return 0.0;
    }

    friend constexpr bool operator==(tangents const&, tangents const&) = default;
};

template <std::size_t W, std::uint64_t A, std::uint64_t B>
constexpr tangents<W, A | B> operator+(tangents<W, A> const& a, tangents<W, B> const& b) {
    return tangents<W, A | B>::map([&](auto k) {
        if constexpr ((A >> k & 1) == 0) return b.d[k];
        else if constexpr ((B >> k & 1) == 0) return a.d[k];
        else return a.d[k] + b.d[k];
    });
}
template <std::size_t W, std::uint64_t A, std::uint64_t B>
constexpr tangents<W, A | B> operator-(tangents<W, A> const& a, tangents<W, B> const& b) {
    return tangents<W, A | B>::map([&](auto k) {
        if constexpr ((A >> k & 1) == 0) return -b.d[k];
        else if constexpr ((B >> k & 1) == 0) return a.d[k];
        else return a.d[k] - b.d[k];
    });
}
template <std::size_t W, std::uint64_t L>
constexpr tangents<W, L> operator-(tangents<W, L> const& a) {
    return tangents<W, L>::map([&](auto k) { return -a.d[k]; });
}
template <std::size_t W, std::uint64_t L>
constexpr tangents<W, L> operator*(tangents<W, L> const& a, double s) {
    return tangents<W, L>::map([&](auto k) { return a.d[k] * s; });
}
template <std::size_t W, std::uint64_t L>
constexpr tangents<W, L> operator*(double s, tangents<W, L> const& a) {
    return tangents<W, L>::map([&](auto k) { return s * a.d[k]; });
}
template <std::size_t W, std::uint64_t L>
constexpr tangents<W, L> operator/(tangents<W, L> const& a, double s) {
    return tangents<W, L>::map([&](auto k) { return a.d[k] / s; });
}

}  // namespace detail

namespace detail {
// A differentiation inside a body runs the enclosing context's pass on every traced function
// it enters, as that context would.
template <class Parent>
struct pass_of {};
template <class Parent>
    requires requires { Parent::pass; }
struct pass_of<Parent> {
    static constexpr auto pass = Parent::pass;
};

// What forward and reverse mode share: the parent context, whose hooks see the calls being
// differentiated on their values, and the refusal of primitives that have no rule.
template <class Parent, class Tag>
struct differentiation : pass_of<Parent> {
    using tag_type = Tag;
    Parent& parent;

    constexpr differentiation(Parent& p) noexcept : parent(p) {}

    template <class G, class... X>
        requires requires(Parent& p, G const& g, untag_t<X, differentiation> const&... xs) { p.prehook(g, xs...); }
    constexpr void prehook(G const& g, X const&... xs) {
        parent.prehook(g, cassette::untag(xs, *this)...);
    }
    template <class R, class G, class... X>
        requires requires(Parent& p, untag_t<R, differentiation> const& r, G const& g,
                          untag_t<X, differentiation> const&... xs) { p.posthook(r, g, xs...); }
    constexpr void posthook(R const& r, G const& g, X const&... xs) {
        parent.posthook(cassette::untag(r, *this), g, cassette::untag(xs, *this)...);
    }
    template <class G, class... X>
        requires requires(Parent& p, G const& g, untag_t<X, differentiation> const&... xs) { p.unwound(g, xs...); }
    constexpr void unwound(G const& g, X const&... xs) noexcept {
        parent.unwound(g, cassette::untag(xs, *this)...);
    }

    template <class X>
    static constexpr bool carries = cassette::detail::layer<tag_type, X>::found;

    // A primitive with no rule: with differentiated arguments, a compile error (no silent
    // wrong answers); otherwise it runs in the parent, which may have tagged the arguments.
    template <class G, class... X>
    CASSETTE_INLINE constexpr auto fallback(G const& g, X const&... xs) const {
        if constexpr ((carries<X> || ...)) {
            static_assert(cassette::detail::always_false<G>,
                          "cassette::ad: a value being differentiated reached a primitive with no derivative "
                          "rule (G in this instantiation). Add one by specialising cassette::ad::rule<G> "
                          "(see docs/ad.md), or keep the primitive away from the differentiated values.");
            return 0;
        } else {
            return detail::arithmetic<Parent>{parent}(g, xs...);
        }
    }
};
}  // namespace detail

// The context of one forward differentiation: its tag marks the values that carry a tangent.
template <class Parent>
struct forward : detail::differentiation<Parent, ad::tag<Parent>> {
    using base = detail::differentiation<Parent, ad::tag<Parent>>;
    using base::base;
    template <class X>
    static constexpr bool carries = base::template carries<X>;

    template <class X>
    CASSETTE_INLINE constexpr auto split(X const& x) const {
        // References into x (values only where untag builds one): a rule only reads its
        // arguments, and copying W-lane tangents for every argument of every call costs.
        if constexpr (carries<X>) {
            using V = decltype(cassette::untag(x, *this));
            using M = decltype(cassette::detail::metadata_by<typename base::tag_type>(x));
            return dual<V, M>{cassette::untag(x, *this), cassette::detail::metadata_by<typename base::tag_type>(x)};
        } else {
            return dual<X const&, zero>{x, zero{}};
        }
    }

    template <class G, class... X>
        requires has_rule<G> && (carries<X> || ...)
    CASSETTE_INLINE constexpr auto overdub(G const& g, X const&... xs) const {
        (void)g;
        auto const r = rule<G>::apply(detail::arithmetic<Parent>{this->parent}, split(xs)...);
        if constexpr (detail::is_zero<decltype(r.d)>)
            return r.v;
        else
            return tagged<typename base::tag_type, decltype(r.v), decltype(r.d)>(r.v, r.d);
    }
};

// --- derivative rules -------------------------------------------------------------------

#define CASSETTE_DETAIL_RULE(NAME, ...)                                        \
    template <>                                                                \
    struct rule<op::NAME##_t> {                                                \
        CASSETTE_INLINE static constexpr auto apply(auto const& p, auto const& a, auto const& b) { \
            __VA_ARGS__                                                        \
        }                                                                      \
    };
#define CASSETTE_DETAIL_RULE1(NAME, ...)                       \
    template <>                                                \
    struct rule<op::NAME##_t> {                                \
        CASSETTE_INLINE static constexpr auto apply(auto const& p, auto const& a) { \
            __VA_ARGS__                                        \
        }                                                      \
    };

CASSETTE_DETAIL_RULE(add, return dual{p(op::add, a.v, b.v), p.add(a.d, b.d)};)
CASSETTE_DETAIL_RULE(sub, return dual{p(op::sub, a.v, b.v), p.sub(a.d, b.d)};)
CASSETTE_DETAIL_RULE(mul, return dual{p(op::mul, a.v, b.v), p.add(p.mul(a.d, b.v), p.mul(a.v, b.d))};)
CASSETTE_DETAIL_RULE(div, auto const v = p(op::div, a.v, b.v);
                     return dual{v, p.div(p.sub(a.d, p.mul(v, b.d)), b.v)};)
// a % b = a - trunc(a / b) * b: the quotient is locally constant.
CASSETTE_DETAIL_RULE(mod, auto const v = p(op::mod, a.v, b.v);
                     return dual{v, p.sub(a.d, p.mul(p(op::div, p(op::sub, a.v, v), b.v), b.d))};)
CASSETTE_DETAIL_RULE1(neg, return dual{p(op::neg, a.v), p.neg(a.d)};)
CASSETTE_DETAIL_RULE1(sin, return dual{p(op::sin, a.v), p.mul(a.d, p(op::cos, a.v))};)
CASSETTE_DETAIL_RULE1(cos, return dual{p(op::cos, a.v), p.neg(p.mul(a.d, p(op::sin, a.v)))};)
CASSETTE_DETAIL_RULE1(tan, auto const v = p(op::tan, a.v);
                      return dual{v, p.mul(a.d, p(op::add, 1.0, p(op::mul, v, v)))};)
CASSETTE_DETAIL_RULE1(asin, return dual{p(op::asin, a.v),
                                        p.div(a.d, p(op::sqrt, p(op::sub, 1.0, p(op::mul, a.v, a.v))))};)
CASSETTE_DETAIL_RULE1(acos, return dual{p(op::acos, a.v),
                                        p.neg(p.div(a.d, p(op::sqrt, p(op::sub, 1.0, p(op::mul, a.v, a.v)))))};)
CASSETTE_DETAIL_RULE1(atan, return dual{p(op::atan, a.v), p.div(a.d, p(op::add, 1.0, p(op::mul, a.v, a.v)))};)
CASSETTE_DETAIL_RULE(atan2, auto const r2 = p(op::add, p(op::mul, a.v, a.v), p(op::mul, b.v, b.v));
                     return dual{p(op::atan2, a.v, b.v), p.div(p.sub(p.mul(a.d, b.v), p.mul(a.v, b.d)), r2)};)
CASSETTE_DETAIL_RULE1(sinh, return dual{p(op::sinh, a.v), p.mul(a.d, p(op::cosh, a.v))};)
CASSETTE_DETAIL_RULE1(cosh, return dual{p(op::cosh, a.v), p.mul(a.d, p(op::sinh, a.v))};)
CASSETTE_DETAIL_RULE1(tanh, auto const v = p(op::tanh, a.v);
                      return dual{v, p.mul(a.d, p(op::sub, 1.0, p(op::mul, v, v)))};)
CASSETTE_DETAIL_RULE1(exp, auto const v = p(op::exp, a.v); return dual{v, p.mul(a.d, v)};)
CASSETTE_DETAIL_RULE1(expm1, return dual{p(op::expm1, a.v), p.mul(a.d, p(op::exp, a.v))};)
CASSETTE_DETAIL_RULE1(log, return dual{p(op::log, a.v), p.div(a.d, a.v)};)
CASSETTE_DETAIL_RULE1(log1p, return dual{p(op::log1p, a.v), p.div(a.d, p(op::add, 1.0, a.v))};)
CASSETTE_DETAIL_RULE1(sqrt, auto const v = p(op::sqrt, a.v); return dual{v, p.div(a.d, 2.0, v)};)
// The same arithmetic as pow's rule with exponent 2, so both give the same bits.
CASSETTE_DETAIL_RULE1(square, return dual{p(op::square, a.v), p.mul(a.d, 2, a.v)};)
CASSETTE_DETAIL_RULE1(cbrt, auto const v = p(op::cbrt, a.v);
                      return dual{v, p.div(a.d, p(op::mul, 3.0, p(op::mul, v, v)))};)
// d(a^b) = b a^(b-1) da + a^b log(a) db; the log term only when b carries a tangent, so a
// constant exponent works for negative a. a^0 is 1 for every a: its da term is 0, also at
// a = 0, where b a^(b-1) is 0 * inf.
CASSETTE_DETAIL_RULE(pow, auto const v = p(op::pow, a.v, b.v);
                     auto const da = p.select(cassette::detail::primal(b.v) == 0, zero{},
                                              p.mul(a.d, b.v, p(op::pow, a.v, p(op::sub, b.v, 1))));
                     if constexpr (detail::is_zero<decltype(b.d)>) return dual{v, da};
                     else return dual{v, p.add(da, p.mul(b.d, p(op::mul, v, p(op::log, a.v))))};)
// Kinks: abs'(0) = +1 (the right derivative); floor and ceil have derivative 0 (everywhere
// but at integers, where none exists); min and max follow the argument they return, the
// first one at a tie, as their values do.
CASSETTE_DETAIL_RULE1(abs, auto const negative = cassette::detail::primal(a.v) < 0;
                      return dual{p(op::abs, a.v), p.select(negative, p.neg(a.d), a.d)};)
CASSETTE_DETAIL_RULE1(floor, return dual{p(op::floor, a.v), zero{}};)
CASSETTE_DETAIL_RULE1(ceil, return dual{p(op::ceil, a.v), zero{}};)
CASSETTE_DETAIL_RULE(hypot, auto const v = p(op::hypot, a.v, b.v);
                     return dual{v, p.div(p.add(p.mul(a.v, a.d), p.mul(b.v, b.d)), v)};)
CASSETTE_DETAIL_RULE(min, bool const second = cassette::detail::primal(b.v) < cassette::detail::primal(a.v);
                     return dual{p(op::min, a.v, b.v), p.select(second, b.d, a.d)};)
CASSETTE_DETAIL_RULE(max, bool const second = cassette::detail::primal(a.v) < cassette::detail::primal(b.v);
                     return dual{p(op::max, a.v, b.v), p.select(second, b.d, a.d)};)
#undef CASSETTE_DETAIL_RULE
#undef CASSETTE_DETAIL_RULE1

// --- differentiation -----------------------------------------------------------------

namespace detail {

// Runs fn with the evaluation's context as a parent a forward context can refer to.
template <class Fr, class Fn>
constexpr auto with_parent(Fr const& fr, Fn const& fn) {
    using context = typename decltype(fr.ref)::context_type;
    if constexpr (std::is_same_v<context, null_context>) {
        null_context none;
        return fn(none);
    } else {
        return fn(fr.ref.ctx);
    }
}

// A derivative that is zero comes out as +0 however it was computed: a lane of a vector
// tangent that no input reaches may have been negated on the way (-0), where a scalar tangent
// known to be zero skips the arithmetic; so every mode gives the same bits. (x + 0 is x for
// every other x.)
template <class T>
constexpr T signless_zero(T const& t) {
    if constexpr (std::is_floating_point_v<T>)
        return t + T(0);
    else
        return t;
}

// The tangent y carries in ctx, or the zero of y's type if it does not depend on the input.
template <class Y, class Ctx>
constexpr auto tangent_of(Y const& y, Ctx const& ctx) {
    if constexpr (cassette::detail::layer<tag_of<Ctx>, Y>::found)
        return detail::signless_zero(cassette::detail::metadata_by<tag_of<Ctx>>(y));
    else
        return std::remove_cvref_t<decltype(cassette::untag(y, ctx))>{};
}

}  // namespace detail

// d body / d var<Id, 0> at `at`: evaluated in a forward context whose parent is the context
// the enclosing body runs in, so an enclosing differentiation sees through it.
template <class Id, class Body, class At>
struct derivative_node : ir::symbolic<derivative_node<Id, Body, At>> {
    Body body;
    At at;
    static constexpr std::string_view name = "derivative";

    constexpr derivative_node(Body b, At a) : body(b), at(a) {}

    template <class Fn>
    constexpr decltype(auto) visit_children(Fn&& fn) const {
        return fn(body, at);
    }
    template <class B, class A>
    constexpr auto with_children(B const& b, A const& a) const {
        return derivative_node<Id, B, A>{b, a};
    }

    // Listed as a region binding the variable of differentiation, like a let.
    template <class Lister>
    auto list(Lister& l) const {
        auto const point = l.operand(at);
        auto const k = l.text(l.number());
        l.line("%" + k + " = derivative at " + point + " in d" + k);
        l.template with_variable<Id, 0>("d" + k, [&] { l.line("yield " + l.operand(body)); });
        l.line("end");
        return "%" + k;
    }

    template <class Fr>
    constexpr auto evaluate(Fr const& fr) const {
        decltype(auto) x = fr.eval(at);
        return detail::with_parent(fr, [&]<class Parent>(Parent& parent) {
            forward<Parent> ctx{parent};
            auto const seeded = cassette::tag(x, ctx, ad::detail::primal_t<decltype(x)>(1));
            cassette::detail::tuple<decltype(seeded) const&> const bound{{seeded}};
            return detail::tangent_of(fr.under(ctx).template bind<Id>(bound).eval(body), ctx);
        });
    }
};

// f' as a traced function of (x, rest...): derivative(f)(x, rest...) == derivative(f, x, rest...).
template <class F>
struct derivative_builder {
    template <class X, class... R>
    constexpr auto operator()(X const& x, R const&... rest) const {
        auto body = ir::as_node(F{}(ir::var<derivative_builder, 0>{}, rest...));
        return derivative_node<derivative_builder, decltype(body), ir::node_t<X>>{body, ir::as_node(x)};
    }
};

template <class F>
constexpr auto derivative(F const&) {
    static_assert(std::is_default_constructible_v<F>,
                  "cassette::ad::derivative(f): f must be a traced function or a captureless lambda.");
    return cassette::function<"derivative">(derivative_builder<F>{});
}

// d f / d x at x; rest is passed through undifferentiated. Inside a builder (a symbolic
// argument, or a lambda capturing the enclosing body's symbolic values) it is a node.
template <class F, class X, class... R>
constexpr auto derivative(F const& f, X const& x, R const&... rest) {
    if constexpr (!std::is_default_constructible_v<F>) {
        auto body = ir::as_node(f(ir::var<F, 0>{}));
        return derivative_node<F, decltype(body), ir::node_t<X>>{body, ir::as_node(x)};
    } else {
        return ad::derivative(f)(x, rest...);
    }
}

// --- gradients, Jacobians, Hessians ------------------------------------------------------
//
// Forward passes in vector mode: each seeds a chunk of the input leaves (doubles, elements of
// std::arrays and std::vectors, fields of plain aggregates, at any nesting) with unit tangents.

namespace detail {

template <class T>
inline constexpr bool is_vector = false;
template <class T, class A>
inline constexpr bool is_vector<std::vector<T, A>> = true;

template <class T>
concept leaf = std::is_arithmetic_v<T>;
template <class T>
concept sequence = cassette::detail::is_std_array<T> || is_vector<T>;

// Instantiated only for a part of an input that cannot carry a derivative: its arguments
// name it in the compiler's message.
template <class Part, class Whole, std::size_t Field>
struct not_differentiable {
    static_assert(cassette::detail::always_false<Part>,
                  "cassette::ad: the input x has a part that is not a floating-point number (Part, "
                  "field number Field of Whole, in this instantiation). gradient, jacobian and hessian "
                  "differentiate with respect to doubles, and std::arrays, std::vectors and plain "
                  "structs of them; pass other data after x, in rest..., where it is not differentiated.");
    static constexpr bool value = false;
};

// Whether every leaf of T is a floating-point number, checked before anything reflects T.
template <class T, class Whole = T, std::size_t Field = 0>
constexpr bool differentiable_input() {
    if constexpr (std::is_floating_point_v<T>)
        return true;
    else if constexpr (sequence<T>)
        return detail::differentiable_input<typename T::value_type, T, 0>();
    else if constexpr (std::is_aggregate_v<T>)
        return []<std::size_t... I>(std::index_sequence<I...>) {
            return (detail::differentiable_input<boost::pfr::tuple_element_t<I, T>, T, I>() && ...);
        }(std::make_index_sequence<boost::pfr::tuple_size_v<T>>{});
    else
        return not_differentiable<T, Whole, Field>::value;
}

// Leaves known at compile time (0 when a std::vector is involved).
template <class T>
constexpr std::size_t static_leaves() {
    if constexpr (leaf<T>)
        return 1;
    else if constexpr (is_vector<T>)
        return 0;
    else if constexpr (cassette::detail::is_std_array<T>)
        return std::tuple_size_v<T> * static_leaves<typename T::value_type>();
    else
        return []<std::size_t... I>(std::index_sequence<I...>) {
            constexpr std::size_t n[] = {static_leaves<boost::pfr::tuple_element_t<I, T>>()..., 1};
            for (std::size_t k = 0; k + 1 != sizeof(n) / sizeof(n[0]); ++k)
                if (n[k] == 0) return std::size_t(0);
            return (static_leaves<boost::pfr::tuple_element_t<I, T>>() + ... + 0);
        }(std::make_index_sequence<boost::pfr::tuple_size_v<T>>{});
}

template <class T, class Fn>
constexpr void for_each_part(T const& x, Fn const& fn) {
    if constexpr (sequence<T>)
        for (auto const& e : x) fn(e);
    else
        boost::pfr::for_each_field(x, fn);
}

template <class T>
constexpr std::size_t leaves(T const& x) {
    if constexpr (leaf<T>) {
        return 1;
    } else {
        std::size_t n = 0;
        detail::for_each_part(x, [&](auto const& part) { n += detail::leaves(part); });
        return n;
    }
}

// The metadata of x's shape that a forward pass with W lanes seeds: a scalar tangent per
// leaf when W is 1 (what nested passes multiply together), else tangents<W, Live>. When one
// pass seeds every leaf, a leaf at a known position (a field, at any depth, not inside an
// array or vector) has one live lane and the elements of an array share their range's.
inline constexpr std::size_t unknown_position = std::size_t(-1);
template <std::size_t W, class T, std::size_t Position, std::uint64_t Live>
struct seed_metadata;
template <std::size_t W, leaf T, std::size_t Position, std::uint64_t Live>
struct seed_metadata<W, T, Position, Live> {
    using type = std::conditional_t<W == 1, double,
                                    tangents<W, Position == unknown_position ? Live : std::uint64_t(1) << Position>>;
};
template <std::size_t W, class T, std::size_t N, std::size_t Position, std::uint64_t Live>
struct seed_metadata<W, std::array<T, N>, Position, Live> {
    static constexpr std::uint64_t live() {
        if constexpr (Position == unknown_position)
            return Live;
        else
            return (all_lanes<W> >> (W - N * static_leaves<T>())) << Position;
    }
    using type = elements<std::array<typename seed_metadata<W, T, unknown_position, live()>::type, N>>;
};
template <std::size_t W, class T, class A, std::size_t Position, std::uint64_t Live>
struct seed_metadata<W, std::vector<T, A>, Position, Live> {
    using type = elements<std::vector<typename seed_metadata<W, T, unknown_position, Live>::type>>;
};
template <std::size_t W, class T, std::size_t Position, std::uint64_t Live>
    requires std::is_aggregate_v<T> && (!cassette::detail::is_std_array<T>)
struct seed_metadata<W, T, Position, Live> {
    template <std::size_t I>
    static constexpr std::size_t field_position() {
        if constexpr (Position == unknown_position)
            return unknown_position;
        else
            return []<std::size_t... J>(std::index_sequence<J...>) {
                return (Position + ... + static_leaves<boost::pfr::tuple_element_t<J, T>>());
            }(std::make_index_sequence<I>{});
    }
    using type = decltype([]<std::size_t... I>(std::index_sequence<I...>) {
        return fields<typename seed_metadata<W, boost::pfr::tuple_element_t<I, T>, field_position<I>(), Live>::type...>{};
    }(std::make_index_sequence<boost::pfr::tuple_size_v<T>>{}));
};

// Sets lane k of leaf first + k of x's metadata m (zero on entry) to 1; `next` counts leaves.
template <std::size_t W, class T, class M>
constexpr void seed(M& m, T const& x, std::size_t first, std::size_t& next) {
    if constexpr (leaf<T>) {
        if (std::size_t const l = next++; l >= first && l - first < W) {
            if constexpr (W == 1)
                m = 1;
            else
                m.d[l - first] = 1;
        }
    } else if constexpr (is_vector<T>) {
        // Element by element: resize would clear the whole block with one memset first.
        m.of.reserve(x.size());
        for (auto const& e : x) detail::seed<W>(m.of.emplace_back(), e, first, next);
    } else if constexpr (sequence<T>) {
        for (std::size_t k = 0; k != x.size(); ++k) detail::seed<W>(m.of[k], x[k], first, next);
    } else {
        [&]<std::size_t... I>(std::index_sequence<I...>) {
            (detail::seed<W>(std::get<I>(m.of), boost::pfr::get<I>(x), first, next), ...);
        }(std::make_index_sequence<boost::pfr::tuple_size_v<T>>{});
    }
}

// `value` tagged by ctx with the seed of the leaves [first, first + W) of `shape` (x itself,
// or x tagged by an outer pass), built in place: the metadata is W times the size of x.
template <std::size_t W, class Ctx, class V, class X>
auto seeded(Ctx const&, V const& value, X const& shape, std::size_t first) {
    constexpr bool one_pass = static_leaves<X>() != 0 && static_leaves<X>() <= W;
    using metadata = typename seed_metadata<W, X, one_pass ? 0 : unknown_position, all_lanes<W>>::type;
    tagged<tag_of<Ctx>, V, metadata> input(value);
    std::size_t next = 0;
    detail::seed<W>(input.meta, shape, first, next);
    return input;
}

// Appends lane `lane` of the tangents of y's leaves, given y's value and its metadata.
template <class V, class M>
void flatten_tangents(V const& value, M const& meta, std::size_t lane, std::vector<double>& out) {
    if constexpr (std::is_same_v<M, no_metadata> || is_zero<M>) {
        out.insert(out.end(), detail::leaves(value), 0.0);
    } else if constexpr (leaf<V> && std::is_arithmetic_v<primal_t<M>>) {
        out.push_back(detail::signless_zero(double(cassette::detail::primal(meta))));
    } else if constexpr (leaf<V>) {
        out.push_back(detail::signless_zero(double(cassette::detail::primal(meta).d[lane])));
    } else if constexpr (sequence<V>) {
        for (std::size_t k = 0; k != value.size(); ++k) detail::flatten_tangents(value[k], meta.of[k], lane, out);
    } else {
        [&]<std::size_t... I>(std::index_sequence<I...>) {
            (detail::flatten_tangents(boost::pfr::get<I>(value), std::get<I>(meta.of), lane, out), ...);
        }(std::make_index_sequence<boost::pfr::tuple_size_v<V>>{});
    }
}

// fn(leaf) for every leaf of x, in order; x may be const.
template <class T, class Fn>
constexpr void for_each_leaf(T& x, Fn const& fn) {
    if constexpr (leaf<std::remove_const_t<T>>)
        fn(x);
    else if constexpr (sequence<std::remove_const_t<T>>)
        for (auto& e : x) detail::for_each_leaf(e, fn);
    else
        boost::pfr::for_each_field(x, [&](auto& field) { detail::for_each_leaf(field, fn); });
}

template <class F>
constexpr auto as_traced(F const& f) {
    if constexpr (traced_function<F>) {
        return f;
    } else {
        static_assert(std::is_default_constructible_v<F>,
                      "cassette::ad: f must be a traced function or a captureless lambda.");
        return cassette::function(f);
    }
}

// How many input leaves one forward pass seeds: all of them when their number is known at
// compile time (up to 10), else 8 per pass. Past 10 lanes (80 bytes of tangents) GCC 12
// stops keeping the tangents in registers and each pass costs several times more.
template <class X>
inline constexpr std::size_t lanes = static_leaves<X>() == 0 ? 8 : cassette::detail::min_of(static_leaves<X>(), std::size_t{10});

// The Jacobian's columns for the n input leaves: one forward pass per lanes<X> of them.
template <class F, class X, class... R>
std::vector<std::vector<double>> columns(F const& f, X const& x, std::size_t n, R const&... rest) {
    constexpr std::size_t W = lanes<X>;
    null_context none;
    forward<null_context> ctx{none};
    std::vector<std::vector<double>> out;
    for (std::size_t first = 0; first < n; first += W) {
        auto const y = cassette::overdub(ctx, f, detail::seeded<W>(ctx, x, x, first), rest...);
        for (std::size_t lane = 0; lane != W && first + lane != n; ++lane)
            detail::flatten_tangents(cassette::untag(y, ctx), cassette::detail::metadata_by<tag_of<decltype(ctx)>>(y),
                                     lane, out.emplace_back());
    }
    return out;
}

// A Rows x Cols matrix: nested std::arrays when both are known at compile time, else vectors.
template <std::size_t Rows, std::size_t Cols>
auto make_matrix(std::size_t rows, std::size_t cols) {
    if constexpr (Rows != 0 && Cols != 0)
        return std::array<std::array<double, Cols>, Rows>{};
    else
        return std::vector<std::vector<double>>(rows, std::vector<double>(cols));
}

}  // namespace detail

namespace detail {

// Writes lane l - first of t into each leaf l of x in [first, first + W); `next` counts leaves.
template <std::size_t W, class T, class Tangent>
void assign_lanes(T& x, std::size_t first, Tangent const& t, std::size_t& next) {
    if constexpr (leaf<T>) {
        std::size_t const l = next++;
        if (l < first || l - first >= W) return;
        if constexpr (requires { t.d; })
            x = T(detail::signless_zero(t.d[l - first]));
        else
            x = T(t);  // a scalar tangent, or 0 when f does not depend on x
    } else if constexpr (sequence<T>) {
        for (auto& e : x) detail::assign_lanes<W>(e, first, t, next);
    } else {
        boost::pfr::for_each_field(x, [&](auto& field) { detail::assign_lanes<W>(field, first, t, next); });
    }
}

}  // namespace detail

// What value_and_derivative and value_and_gradient return (structured bindings work).
template <class V, class D>
struct value_and_derivative_result {
    V value;
    D derivative;
};
template <class V, class G>
struct value_and_gradient_result {
    V value;
    G gradient;
};

namespace detail {

// The forward passes of a gradient: each seeds lanes<X> leaves of x and writes their lanes
// into g (x's shape). With WithValue, also returns f's value (the first pass runs even if x
// has no leaves).
template <bool WithValue, class F, class X, class... R>
auto gradient_passes(F const& tf, X const& x, X& g, R const&... rest) {
    constexpr std::size_t W = detail::lanes<X>;
    null_context none;
    forward<null_context> ctx{none};
    using Y = decltype(cassette::overdub(ctx, tf, detail::seeded<W>(ctx, x, x, 0), rest...));
    using value_type = std::remove_cvref_t<decltype(cassette::untag(std::declval<Y const&>(), ctx))>;
    static_assert(std::is_arithmetic_v<value_type>,
                  "cassette::ad::gradient(f, x): f returns an array, a vector or an aggregate (the "
                  "value_type in this instantiation), not a number; its derivatives are a matrix: "
                  "use cassette::ad::jacobian(f, x).");
    std::conditional_t<WithValue, value_type, nothing> value{};
    std::size_t const n = detail::leaves(x);
    for (std::size_t first = 0; first < n || (WithValue && first == 0); first += W) {
        auto const y = cassette::overdub(ctx, tf, detail::seeded<W>(ctx, x, x, first), rest...);
        if constexpr (WithValue) value = cassette::untag(y, ctx);
        std::size_t leaf = 0;
        detail::assign_lanes<W>(g, first, cassette::detail::primal(detail::tangent_of(y, ctx)), leaf);
    }
    return value;
}

}  // namespace detail

// The gradient of scalar f at x, of x's type and shape: a forward pass per lanes<X> leaves,
// written straight into the result.
template <class F, class X, class... R>
X gradient(F const& f, X const& x, R const&... rest) {
    static_assert(detail::differentiable_input<X>());
    X g = x;
    detail::gradient_passes<false>(detail::as_traced(f), x, g, rest...);
    return g;
}

// f's value with its gradient, from the same passes.
template <class F, class X, class... R>
auto value_and_gradient(F const& f, X const& x, R const&... rest) {
    static_assert(detail::differentiable_input<X>());
    auto const tf = detail::as_traced(f);
    using V = decltype(detail::gradient_passes<true>(tf, x, std::declval<X&>(), rest...));
    value_and_gradient_result<V, X> r{V{}, x};
    r.value = detail::gradient_passes<true>(tf, x, r.gradient, rest...);
    return r;
}

// f's value with d f / d x at scalar x, from one evaluation.
template <class F, class X, class... R>
auto value_and_derivative(F const& f, X const& x, R const&... rest) {
    static_assert(std::is_arithmetic_v<X>,
                  "cassette::ad::value_and_derivative(f, x): x must be a number; for arrays, vectors and "
                  "aggregates use cassette::ad::value_and_gradient(f, x).");
    null_context none;
    forward<null_context> ctx{none};
    auto const y = cassette::overdub(ctx, detail::as_traced(f), cassette::tag(x, ctx, detail::primal_t<X>(1)), rest...);
    using V = std::remove_cvref_t<decltype(cassette::untag(y, ctx))>;
    using D = decltype(detail::tangent_of(y, ctx));
    return value_and_derivative_result<V, D>{cassette::untag(y, ctx), detail::tangent_of(y, ctx)};
}

// J[i][j] = d f_i / d x_j, over the leaves of f's result and of x.
template <class F, class X, class... R>
auto jacobian(F const& f, X const& x, R const&... rest) {
    static_assert(detail::differentiable_input<X>());
    auto const tf = detail::as_traced(f);
    using Y = std::remove_cvref_t<decltype(tf(x, rest...))>;
    std::size_t const n = detail::leaves(x);
    auto const columns = detail::columns(tf, x, n, rest...);
    std::size_t const m = columns.empty() ? detail::leaves(tf(x, rest...)) : columns[0].size();
    auto J = detail::make_matrix<detail::static_leaves<Y>(), detail::static_leaves<X>()>(m, n);
    for (std::size_t i = 0; i != m; ++i)
        for (std::size_t j = 0; j != n; ++j) J[i][j] = columns[j][i];
    return J;
}

// H[i][j] = d2 f / d x_i d x_j, by forward over forward (one pass per pair i >= j).
template <class F, class X, class... R>
auto hessian(F const& f, X const& x, R const&... rest) {
    static_assert(detail::differentiable_input<X>());
    auto const tf = detail::as_traced(f);
    std::size_t const n = detail::leaves(x);
    auto H = detail::make_matrix<detail::static_leaves<X>(), detail::static_leaves<X>()>(n, n);
    null_context none;
    forward<null_context> outer{none};
    forward<forward<null_context>> inner{outer};
    for (std::size_t i = 0; i != n; ++i) {
        for (std::size_t j = 0; j <= i; ++j) {
            auto const xi = detail::seeded<1>(outer, x, x, i);
            auto const y = cassette::overdub(inner, tf, detail::seeded<1>(inner, xi, x, j), rest...);
            H[i][j] = H[j][i] = double(cassette::detail::primal(detail::tangent_of(detail::tangent_of(y, inner), outer)));
        }
    }
    return H;
}

}  // namespace cassette::ad

// Lanes live in either: what a branch or an accumulator of two tangents holds.
template <std::size_t W, std::uint64_t A, std::uint64_t B>
struct std::common_type<cassette::ad::detail::tangents<W, A>, cassette::ad::detail::tangents<W, B>> {
    using type = cassette::ad::detail::tangents<W, A | B>;
};
