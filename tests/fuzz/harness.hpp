// The differential fuzzer's checks. Each generated program P (see generate.py) provides:
//   P::fn                                  the traced function under test;
//   P::twin(calls, args...)                its hand-written twin: generic C++ that computes the
//                                          same value and counts in `calls` every call the
//                                          DSL body makes;
//   P::inputs()                            argument tuples, inside every primitive's domain;
//   P::origin[s]                           the id of the input leaf (see leaf_id) that input s
//                                          returns unchanged, or 0 if it returns a computed value;
//   P::replace (optional)                  a replace pass that keeps the result and the calls.
// check<P> compares, at every input, the DSL under every way of running it with the twin.
#pragma once

#include <cassette/cassette.hpp>

#include <boost/math/differentiation/autodiff.hpp>
#include <boost/pfr/core.hpp>

#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <sstream>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace fuzz {

// Plain structs for get<I> and make<T>; templates so that the twin can hold fvars in them.
template <class T>
struct S2 {
    T a, b;
};
template <class T>
struct S3 {
    T a, b, c;
};

// A callable that is not a traced function, for cassette::call(halve, constants...).
struct halve_t {
    static constexpr std::string_view name = "halve";
    constexpr double operator()(double v) const { return v * 0.5; }
};
inline constexpr halve_t halve{};

// Counts the calls a twin makes: the twin wraps every call of the DSL body in calls(...).
struct counter {
    std::size_t n = 0;
    template <class X>
    X operator()(X const& x) {
        ++n;
        return x;
    }
};

using fvar = decltype(boost::math::differentiation::make_fvar<double, 2>(0.0));

// The math a twin computes with: what cassette documents, std::NAME on plain values, found
// with `using std::NAME` so that Boost's overloads serve fvar.
namespace math {
#define FUZZ_MATH1(NAME)               \
    inline auto NAME(auto const& x) {  \
        using std::NAME;               \
        return NAME(x);                \
    }
#define FUZZ_MATH2(NAME)                            \
    inline auto NAME(auto const& a, auto const& b) { \
        using std::NAME;                            \
        return NAME(a, b);                          \
    }
FUZZ_MATH1(sin) FUZZ_MATH1(cos) FUZZ_MATH1(tan) FUZZ_MATH1(asin) FUZZ_MATH1(acos) FUZZ_MATH1(atan)
FUZZ_MATH1(sinh) FUZZ_MATH1(cosh) FUZZ_MATH1(exp) FUZZ_MATH1(log) FUZZ_MATH1(sqrt) FUZZ_MATH1(abs)
FUZZ_MATH1(floor) FUZZ_MATH1(ceil) FUZZ_MATH2(atan2) FUZZ_MATH2(pow)
#undef FUZZ_MATH1
#undef FUZZ_MATH2

template <class X>
double value(X const& x) {
    if constexpr (std::is_same_v<X, fvar>)
        return x.derivative(0);
    else
        return double(x);
}

// Boost.Math autodiff has no log1p, expm1, cbrt, hypot, min or max, and computes tanh as
// (exp(2 x) - 1) / (exp(2 x) + 1): on fvar, the twin computes them by such definitions,
// whose derivatives are the same, with the value std::NAME gives (set_root), as cassette's
// rules do. Values an ulp apart would move the derivatives of what follows by far more than
// 1e-12 where that is ill-conditioned: cos(u) near a zero of cos, say.
inline fvar with_value(fvar y, double v) {
    return y.set_root(v);
}

template <class X>
auto tanh(X const& x) {
    if constexpr (std::is_arithmetic_v<X>)
        return std::tanh(x);
    else
        return with_value(boost::math::differentiation::detail::tanh(x), std::tanh(value(x)));
}
template <class X>
auto log1p(X const& x) {
    if constexpr (std::is_arithmetic_v<X>)
        return std::log1p(x);
    else
        return with_value(log(1.0 + x), std::log1p(value(x)));
}
template <class X>
auto expm1(X const& x) {
    if constexpr (std::is_arithmetic_v<X>)
        return std::expm1(x);
    else
        return with_value(exp(x) - 1.0, std::expm1(value(x)));
}
template <class X>
auto cbrt(X const& x) {
    if constexpr (std::is_arithmetic_v<X>)
        return std::cbrt(x);
    else
        return with_value(x < 0.0 ? -pow(-x, 1.0 / 3) : pow(x, 1.0 / 3), std::cbrt(value(x)));
}
template <class A, class B>
auto hypot(A const& a, B const& b) {
    if constexpr (std::is_arithmetic_v<A> && std::is_arithmetic_v<B>)
        return std::hypot(a, b);
    else
        return with_value(sqrt(a * a + b * b), std::hypot(value(a), value(b)));
}
// cassette's min and max: the first argument at ties, the common type.
template <class A, class B>
auto min(A const& a, B const& b) {
    using R = std::common_type_t<A, B>;
    return b < a ? R(b) : R(a);
}
template <class A, class B>
auto max(A const& a, B const& b) {
    using R = std::common_type_t<A, B>;
    return a < b ? R(b) : R(a);
}
}  // namespace math

// make<T>(xs...) of cassette with T = S2<double>, S3<double> or std::array<double, N>: in
// the twin, of fvars when an argument is one.
template <class... X>
auto make_s2(X const&... xs) {
    return S2<std::common_type_t<double, X...>>{xs...};
}
template <class... X>
auto make_s3(X const&... xs) {
    return S3<std::common_type_t<double, X...>>{xs...};
}
template <class... X>
auto make_array(X const&... xs) {
    return std::array<std::common_type_t<double, X...>, sizeof...(X)>{xs...};
}

// --- the twin's branch, let and loops: lazy, and typed as cassette types them ------------

template <class Then, class Else>
auto if_(bool c, Then const& then_value, Else const& else_value) {
    using R = std::common_type_t<decltype(then_value()), decltype(else_value())>;
    return c ? R(then_value()) : R(else_value());
}

// fold: the index has the bounds' common type; the accumulator the common type of the
// initial value and the body's result (two steps settle it for the generated bodies).
template <class First, class Last, class Init, class Body>
auto fold(First const& first, Last const& last, Init const& init, Body const& body) {
    using index = std::common_type_t<First, Last>;
    using widened = std::common_type_t<Init, decltype(body(index{}, init))>;
    using acc_type = std::common_type_t<widened, decltype(body(index{}, std::declval<widened const&>()))>;
    acc_type acc(init);
    index const end = last;
    for (index i = first; i < end; ++i) acc = body(i, std::as_const(acc));
    return acc;
}

// sum(first, last, term) is fold(first, last, 0, acc + term(i)), the additions counted.
template <class First, class Last, class Term>
auto sum(counter& calls, First const& first, Last const& last, Term const& term) {
    return fuzz::fold(first, last, 0, [&](auto i, auto const& acc) { return calls(acc + term(i)); });
}

// --- arguments ---------------------------------------------------------------------------

// Every double of an argument is a leaf: the gradient's and the tags' unit. Leaf j of
// argument k is tagged with metadata leaf_id(k, j), never 0 (the value-initialised metadata).
constexpr int leaf_id(std::size_t k, std::size_t j) { return int(1000 * (k + 1) + j); }

template <class T>
inline constexpr bool is_leaf = std::is_same_v<T, double> || std::is_same_v<T, fvar>;

// The argument with its doubles as V: the twin's argument under differentiation.
template <class V, class X>
auto lift(X const& x) {
    if constexpr (std::is_same_v<X, double>)
        return V(x);
    else if constexpr (std::is_same_v<X, std::vector<double>>)
        return std::vector<V>(x.begin(), x.end());
    else if constexpr (requires { std::tuple_size<X>::value; })
        return [&]<std::size_t... I>(std::index_sequence<I...>) {
            return std::array<V, sizeof...(I)>{V(x[I])...};
        }(std::make_index_sequence<std::tuple_size_v<X>>{});
    else if constexpr (std::is_same_v<X, S2<double>>)
        return S2<V>{V(x.a), V(x.b)};
    else if constexpr (std::is_same_v<X, S3<double>>)
        return S3<V>{V(x.a), V(x.b), V(x.c)};
    else
        return x;  // int and float arguments are not differentiated
}

// Calls fn on each leaf of x, in order.
template <class X, class Fn>
void for_each_leaf(X& x, Fn const& fn) {
    if constexpr (is_leaf<std::remove_const_t<X>>)
        fn(x);
    else if constexpr (std::is_arithmetic_v<std::remove_const_t<X>>)
        return;
    else if constexpr (requires { x.begin(); })
        for (auto& e : x) fuzz::for_each_leaf(e, fn);
    else
        boost::pfr::for_each_field(x, [&](auto& field) { fuzz::for_each_leaf(field, fn); });
}

// x tagged by ctx leaf by leaf with leaf_id(k, j); int and float arguments stay plain.
template <class Ctx, class X>
auto tag_leaves(Ctx const& ctx, std::size_t k, X const& x) {
    if constexpr (std::is_same_v<X, double>) {
        return cassette::tag(x, ctx, leaf_id(k, 0));
    } else if constexpr (std::is_same_v<X, std::vector<double>>) {
        std::vector<int> ids;
        for (std::size_t j = 0; j != x.size(); ++j) ids.push_back(leaf_id(k, j));
        return cassette::tag(x, ctx, cassette::elements(ids));
    } else if constexpr (requires { std::tuple_size<X>::value; }) {
        return [&]<std::size_t... I>(std::index_sequence<I...>) {
            return cassette::tag(x, ctx, cassette::elements(std::array<int, sizeof...(I)>{leaf_id(k, I)...}));
        }(std::make_index_sequence<std::tuple_size_v<X>>{});
    } else if constexpr (std::is_same_v<X, S2<double>>) {
        return cassette::tag(x, ctx, cassette::fields(leaf_id(k, 0), leaf_id(k, 1)));
    } else if constexpr (std::is_same_v<X, S3<double>>) {
        return cassette::tag(x, ctx, cassette::fields(leaf_id(k, 0), leaf_id(k, 1), leaf_id(k, 2)));
    } else {
        return x;
    }
}

// f(x_k, x_0, ..., x_{k-1}, x_{k+1}, ...) as a traced function of x_k first, for
// derivative and gradient, which differentiate with respect to the first argument.
template <class F, std::size_t K>
struct moved_first {
    template <class X, class... R>
    constexpr auto operator()(X const& x, R const&... rest) const {
        auto const others = std::tie(rest...);
        return [&]<std::size_t... I, std::size_t... J>(std::index_sequence<I...>, std::index_sequence<J...>) {
            return F{}(std::get<I>(others)..., x, std::get<K + J>(others)...);
        }(std::make_index_sequence<K>{}, std::make_index_sequence<sizeof...(R) - K>{});
    }
};

// With respect to argument 0, the program itself; otherwise a traced wrapper.
template <class F, std::size_t K>
constexpr auto with_respect_to() {
    if constexpr (K == 0)
        return F{};
    else
        return cassette::function<"wrt">(moved_first<F, K>{});
}

// fn(args[K], the other args in order).
template <std::size_t K, class Fn, class Args>
decltype(auto) apply_moved(Fn const& fn, Args const& args) {
    constexpr std::size_t n = std::tuple_size_v<Args>;
    return [&]<std::size_t... I, std::size_t... J>(std::index_sequence<I...>, std::index_sequence<J...>) {
        return fn(std::get<K>(args), std::get<I>(args)..., std::get<K + 1 + J>(args)...);
    }(std::make_index_sequence<K>{}, std::make_index_sequence<n - K - 1>{});
}

// --- comparison and reporting ------------------------------------------------------------

template <class X>
std::string show(X const& x) {
    std::ostringstream os;
    os.precision(17);
    os << x;
    if constexpr (std::is_floating_point_v<X>) os << " (" << std::hexfloat << x << ")";
    os << " [" << cassette::detail::type_name<X>() << "]";
    return os.str();
}

// Bit-identical, or both NaN.
template <class X>
bool identical(X const& a, X const& b) {
    if constexpr (std::is_floating_point_v<X>)
        return (std::isnan(a) && std::isnan(b)) || std::bit_cast<std::array<unsigned char, sizeof(X)>>(a) ==
                                                       std::bit_cast<std::array<unsigned char, sizeof(X)>>(b);
    else
        return a == b;
}

// Derivatives by two implementations: 1e-12 relative for first derivatives, with a floor of
// 1e-12 times the function's scale (at least 1) for derivatives that cancel to nearly zero.
// A second derivative sums more products of rounded terms, so the two round further apart:
// on one program, against 50-digit mpmath, cassette was 9e-13 off and Boost 3.2e-12.
inline constexpr double first_order = 1e-12, second_order = 1e-11;
inline bool close(double a, double b, double scale, double tolerance) {
    if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
    return std::abs(a - b) <= tolerance * std::max({std::abs(a), std::abs(b), scale});
}

class report {
public:
    explicit report(unsigned long seed) : seed_(seed) {}

    // One line per failed check, which fuzz.sh turns into a reproducer.
    void fail(std::string const& check, std::size_t input, std::string const& detail) {
        ++mismatches_;
        std::printf("mismatch: seed %lu program %d check %s input %zu: %s\n", seed_, program_, check.c_str(), input,
                    detail.c_str());
    }

    // The same type and value.
    template <class Got, class Want>
    void same(std::string const& check, std::size_t input, Got const& got, Want const& want) {
        ++checks_;
        bool equal = false;
        if constexpr (std::is_same_v<Got, Want>) equal = identical(got, want);
        if (!equal) fail(check, input, "dsl " + show(got) + ", twin " + show(want));
    }

    void near(std::string const& check, std::size_t input, double got, double want, double scale,
              double tolerance = first_order) {
        ++checks_;
        if (!close(got, want, scale, tolerance)) fail(check, input, "dsl " + show(got) + ", boost " + show(want));
    }

    void begin(int program) {
        program_ = program;
        ++programs_;
    }

    int finish() const {
        std::printf("summary: %d programs, %zu checks, %zu mismatches\n", programs_, checks_, mismatches_);
        return mismatches_ == 0 ? 0 : 1;
    }

private:
    unsigned long seed_;
    int program_ = -1;
    int programs_ = 0;
    std::size_t checks_ = 0;
    std::size_t mismatches_ = 0;
};

// --- the checks ----------------------------------------------------------------------------

template <auto const& Pass>
struct with_pass {
    static constexpr auto pass = Pass;
};
inline constexpr auto all_passes =
    cassette::passes::compose(cassette::passes::fold_constants, cassette::passes::strength_reduction, cassette::passes::cse);

template <class P>
struct replacing : cassette::contexts::call_counter {
    static constexpr auto pass = P::replace;
};
template <class P>
struct replacing_all {
    static constexpr auto pass = cassette::passes::compose(P::replace, all_passes);
};
// Passes after cse, which rewrite the values it holds too.
inline constexpr auto cse_then_strength = cassette::passes::compose(cassette::passes::cse, cassette::passes::strength_reduction);
template <class P>
struct replacing_after_cse {
    static constexpr auto pass = cassette::passes::compose(cassette::passes::cse, P::replace);
};

struct tagging {};  // a context with no members: only the engine propagates its tags

// value, d/dx, d2/dx2 of a twin's result, whose type is fvar if it depends on the seeded leaf.
template <class Y>
std::array<double, 3> taylor(Y const& y) {
    if constexpr (std::is_same_v<Y, fvar>)
        return {y.derivative(0), y.derivative(1), y.derivative(2)};
    else
        return {double(y), 0.0, 0.0};
}

// The twin under Boost.Math autodiff, with leaf `target` of all its arguments seeded.
template <class P, class Args>
std::array<double, 3> twin_taylor(Args const& args, std::size_t target) {
    auto lifted = std::apply([](auto const&... a) { return std::make_tuple(fuzz::lift<fvar>(a)...); }, args);
    std::size_t leaf = 0;
    std::apply([&](auto&... a) { (fuzz::for_each_leaf(a, [&](fvar& v) {
                                      if (leaf++ == target)
                                          v = boost::math::differentiation::make_fvar<double, 2>(double(v));
                                  }), ...); },
               lifted);
    counter calls;
    return fuzz::taylor(std::apply([&](auto const&... a) { return P::twin(calls, a...); }, lifted));
}

// gradient with respect to argument K, and for a double, derivative and
// derivative(derivative): against the twin under Boost.Math autodiff, leaf by leaf.
template <class P, std::size_t K, class Args>
void check_derivatives(report& r, std::size_t s, Args const& args, double scale, std::size_t& first_leaf) {
    namespace ad = cassette::ad;
    using X = std::remove_cvref_t<std::tuple_element_t<K, Args>>;
    if constexpr (!std::is_same_v<X, int> && !std::is_same_v<X, float>) {
        constexpr auto f = fuzz::with_respect_to<std::remove_cvref_t<decltype(P::fn)>, K>();
        auto const at = [&](auto const& derivative) { return fuzz::apply_moved<K>(derivative, args); };
        std::string const name = "(x" + std::to_string(K) + ")";
        X const gradient = at([&](auto const&... a) { return ad::gradient(f, a...); });
        // Reverse mode, with the value from the same evaluation.
        auto const [value, reverse] =
            at([&](auto const& x, auto const&... rest) { return ad::value_and_gradient(f, x, ad::reverse, rest...); });
        r.same("value_and_gradient(reverse).value" + name, s, value,
               std::apply([](auto const&... a) { return P::fn(a...); }, args));
        std::vector<double> reverse_leaves, taped_leaves;
        fuzz::for_each_leaf(reverse, [&](double const& g) { reverse_leaves.push_back(g); });
        ad::tape tape;  // the tape, whichever ad::reverse chose
        X const taped = at([&](auto const& x, auto const&... rest) { return ad::gradient(f, x, ad::reverse(tape), rest...); });
        fuzz::for_each_leaf(taped, [&](double const& g) { taped_leaves.push_back(g); });
        // A body that calls self: ad::reverse chose the tape, and the static adjoint sweeps it too.
        using traced = std::remove_cvref_t<decltype(ad::detail::as_traced(f))>;
        constexpr std::size_t arity = std::tuple_size_v<Args>;
        constexpr bool static_with_self = ad::detail::has_static_adjoint<traced, arity, true> &&
                                          !ad::detail::has_static_adjoint<traced, arity, false>;
        std::vector<double> static_leaves;
        if constexpr (static_with_self) {
            X const swept =
                at([&](auto const& x, auto const&... rest) { return ad::gradient(f, x, ad::static_adjoint, rest...); });
            fuzz::for_each_leaf(swept, [&](double const& g) { static_leaves.push_back(g); });
        }
        std::size_t j = 0;  // the leaf's index in argument K
        fuzz::for_each_leaf(gradient, [&](double const& g) {
            auto const want = fuzz::twin_taylor<P>(args, first_leaf + j);
            r.near("gradient(reverse)" + name + "[" + std::to_string(j) + "]", s, reverse_leaves[j], want[1], scale);
            r.near("gradient(reverse(tape))" + name + "[" + std::to_string(j) + "]", s, taped_leaves[j], want[1], scale);
            if constexpr (static_with_self)
                r.near("gradient(static_adjoint)" + name + "[" + std::to_string(j) + "]", s, static_leaves[j], want[1],
                       scale);
            r.near("gradient" + name + "[" + std::to_string(j++) + "]", s, g, want[1], scale);
            if constexpr (std::is_same_v<X, double>) {
                r.near("hvp" + name, s,
                       at([&](auto const& x, auto const&... rest) { return ad::hvp(f, x, 1.0, rest...); }), want[2],
                       scale, second_order);
                r.near("derivative" + name, s, double(at([&](auto const&... a) { return ad::derivative(f, a...); })),
                       want[1], scale);
                r.near("derivative(derivative)" + name, s,
                       double(at([&](auto const&... a) { return ad::derivative(ad::derivative(f), a...); })), want[2],
                       scale, second_order);
            }
        });
        first_leaf += j;
    }
}

template <class P, class... A>
void check_at(report& r, std::size_t s, A const&... args) {
    using cassette::overdub;
    counter calls;
    auto const want = P::twin(calls, args...);

    r.same("plain", s, P::fn(args...), want);
    r.same("null_context", s, overdub(cassette::null_context{}, P::fn, args...), want);
    cassette::contexts::call_counter counting;
    r.same("call_counter", s, overdub(counting, P::fn, args...), want);
    r.same("call_counter.total", s, counting.total(), calls.n);
    cassette::contexts::call_counter silent;
    r.same("disable_hooks", s, overdub(cassette::disable_hooks(silent), P::fn, args...), want);
    r.same("disable_hooks.total", s, silent.total(), std::size_t(0));

    namespace passes = cassette::passes;
    r.same("fold_constants", s, overdub(with_pass<passes::fold_constants>{}, P::fn, args...), want);
    r.same("strength_reduction", s, overdub(with_pass<passes::strength_reduction>{}, P::fn, args...), want);
    r.same("cse", s, overdub(with_pass<passes::cse>{}, P::fn, args...), want);
    r.same("compose", s, overdub(with_pass<all_passes>{}, P::fn, args...), want);
    r.same("compose(cse, strength_reduction)", s, overdub(with_pass<cse_then_strength>{}, P::fn, args...), want);
    if constexpr (requires { P::replace; }) {
        replacing<P> replaced;
        r.same("replace", s, overdub(replaced, P::fn, args...), want);
        r.same("replace.total", s, replaced.total(), calls.n);
        r.same("compose(replace)", s, overdub(replacing_all<P>{}, P::fn, args...), want);
        r.same("compose(cse, replace)", s, overdub(replacing_after_cse<P>{}, P::fn, args...), want);
    }

    tagging t;
    auto const tagged = [&]<std::size_t... K>(std::index_sequence<K...>) {
        return overdub(t, P::fn, fuzz::tag_leaves(t, K, args)...);
    }(std::index_sequence_for<A...>{});
    r.same("tagged", s, std::remove_cvref_t<decltype(cassette::untag(tagged, t))>(cassette::untag(tagged, t)), want);
    if (int const origin = P::origin[s]; origin != 0) {
        if constexpr (cassette::has_metadata(tagged, t))
            r.same("tagged.metadata", s, int(cassette::metadata(tagged, t)), origin);
        else
            r.fail("tagged.metadata", s, "the result carries no metadata, the twin's is " + std::to_string(origin));
    }

    // The function's scale at this input, at least 1: the derivatives' absolute floor.
    double const scale = std::max(1.0, std::abs(double(want)));
    auto const tuple = std::tie(args...);
    std::size_t first_leaf = 0;
    [&]<std::size_t... K>(std::index_sequence<K...>) {
        (fuzz::check_derivatives<P, K>(r, s, tuple, scale, first_leaf), ...);
    }(std::index_sequence_for<A...>{});
}

template <class P>
void check(report& r) {
    r.begin(P::id);
    auto const inputs = P::inputs();
    for (std::size_t s = 0; s != inputs.size(); ++s)
        std::apply([&](auto const&... args) { fuzz::check_at<P>(r, s, args...); }, inputs[s]);
}

}  // namespace fuzz
