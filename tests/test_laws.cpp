// Laws, each written once and applied to every primitive and node kind (as Boost.Hana tests
// its concepts): every way of running a body (plain, null_context, hooked, disable_hooks,
// each ready pass) gives the hand-written C++ result bit for bit; a hooked context sees each
// call once; derivatives obey linearity, the product and the chain rule; and scalar and
// vector tangents (derivative, gradient) do the same arithmetic, so they agree bit for bit.
#include <cassette/cassette.hpp>

#include <boost/pfr.hpp>
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <iomanip>
#include <limits>
#include <ostream>
#include <ranges>
#include <sstream>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace ad = cassette::ad;
namespace passes = cassette::passes;

namespace laws {

// Inputs the optimiser cannot see. Given constants, GCC computes std::cbrt(0.4) at compile
// time, correctly rounded, where glibc's cbrt at run time is not: one side of a comparison
// could be folded and the other not.
template <class T>
T opaque(T value) {
    T volatile copy = value;
    return copy;
}

struct point {
    double x, y;
};

// A user primitive (not traced, so hooks see one call), with a derivative rule below.
struct affine_t {
    static constexpr std::string_view name = "affine";
    constexpr double operator()(double a, double b) const { return a * 2.0 + b; }
};
inline constexpr affine_t affine{};

inline constexpr auto helper = cassette::function<"helper">([](auto a, auto b) { return a * b + a; });

// A case: a traced function f of (x, y), `hand` the same computation written in plain C++
// with std::, `calls` the call nodes a hooked run of f sees (counted by hand), and the inputs.
#define LAW_CASE(NAME, CALLS, DSL, HAND, ...)                                                      \
    struct NAME {                                                                                  \
        static constexpr auto f =                                                                  \
            cassette::function<#NAME>([]([[maybe_unused]] auto x, [[maybe_unused]] auto y) { return DSL; }); \
        static constexpr auto hand = []([[maybe_unused]] auto const& x, [[maybe_unused]] auto const& y) { \
            return HAND;                                                                           \
        };                                                                                         \
        static constexpr int calls = CALLS;                                                        \
        static auto args() { return std::tuple{__VA_ARGS__}; }                                     \
    };

namespace c = cassette;

// --- primitives ---
LAW_CASE(add, 1, x + y, x + y, opaque(0.4), opaque(0.9))
LAW_CASE(sub, 1, x - y, x - y, opaque(0.4), opaque(0.9))
LAW_CASE(mul, 1, x * y, x * y, opaque(0.4), opaque(0.9))
LAW_CASE(div, 1, x / y, x / y, opaque(0.4), opaque(0.9))
LAW_CASE(mod, 1, x % y, x % y, opaque(-17), opaque(5))
LAW_CASE(neg, 1, -x, -x, opaque(0.4), opaque(0.9))
LAW_CASE(lt, 1, x < y, x < y, opaque(0.4), opaque(0.9))
LAW_CASE(le, 1, x <= y, x <= y, opaque(0.9), opaque(0.9))
LAW_CASE(gt, 1, x > y, x > y, opaque(0.4), opaque(0.9))
LAW_CASE(ge, 1, x >= y, x >= y, opaque(0.9), opaque(0.4))
LAW_CASE(eq, 1, x == y, x == y, opaque(0.9), opaque(0.9))
LAW_CASE(ne, 1, x != y, x != y, opaque(0.4), opaque(0.9))
LAW_CASE(logical_and, 1, x && y, x && y, opaque(true), opaque(false))
LAW_CASE(logical_or, 1, x || y, x || y, opaque(false), opaque(true))
LAW_CASE(logical_not, 1, !x, !x, opaque(false), opaque(true))
LAW_CASE(sin, 1, c::sin(x), std::sin(x), opaque(0.4), opaque(0.9))
LAW_CASE(cos, 1, c::cos(x), std::cos(x), opaque(0.4), opaque(0.9))
LAW_CASE(tan, 1, c::tan(x), std::tan(x), opaque(0.4), opaque(0.9))
LAW_CASE(asin, 1, c::asin(x), std::asin(x), opaque(0.4), opaque(0.9))
LAW_CASE(acos, 1, c::acos(x), std::acos(x), opaque(0.4), opaque(0.9))
LAW_CASE(atan, 1, c::atan(x), std::atan(x), opaque(0.4), opaque(0.9))
LAW_CASE(atan2, 1, c::atan2(x, y), std::atan2(x, y), opaque(0.4), opaque(0.9))
LAW_CASE(sinh, 1, c::sinh(x), std::sinh(x), opaque(0.4), opaque(0.9))
LAW_CASE(cosh, 1, c::cosh(x), std::cosh(x), opaque(0.4), opaque(0.9))
LAW_CASE(tanh, 1, c::tanh(x), std::tanh(x), opaque(0.4), opaque(0.9))
LAW_CASE(exp, 1, c::exp(x), std::exp(x), opaque(0.4), opaque(0.9))
LAW_CASE(log, 1, c::log(x), std::log(x), opaque(0.4), opaque(0.9))
LAW_CASE(log1p, 1, c::log1p(x), std::log1p(x), opaque(0.4), opaque(0.9))
LAW_CASE(expm1, 1, c::expm1(x), std::expm1(x), opaque(0.4), opaque(0.9))
LAW_CASE(sqrt, 1, c::sqrt(x), std::sqrt(x), opaque(0.4), opaque(0.9))
LAW_CASE(cbrt, 1, c::cbrt(x), std::cbrt(x), opaque(0.4), opaque(0.9))
LAW_CASE(pow_int, 1, c::pow(x, y), std::pow(x, y), opaque(0.4), opaque(3))
LAW_CASE(pow_real, 1, c::pow(x, y), std::pow(x, y), opaque(0.4), opaque(3.5))
// Constant exponents, which strength_reduction looks at (2 becomes square(x); 0.5 stays, as sqrt differs at -0).
LAW_CASE(pow_two, 1, c::pow(x, 2), std::pow(x, 2), opaque(0.4), opaque(0.9))
LAW_CASE(pow_half, 1, c::pow(x, 0.5), std::pow(x, 0.5), opaque(0.4), opaque(0.9))
// std::pow(int or float, int) computes in double; 46341^2 overflows an int.
LAW_CASE(pow_two_int_base, 1, c::pow(x, 2), std::pow(x, 2), opaque(46341), opaque(0))
LAW_CASE(pow_two_float_base, 1, c::pow(x, 2), std::pow(x, 2), opaque(1.1f), opaque(0))
LAW_CASE(abs, 1, c::abs(x), std::abs(x), opaque(-0.4), opaque(0.9))
LAW_CASE(hypot, 1, c::hypot(x, y), std::hypot(x, y), opaque(0.4), opaque(0.9))
LAW_CASE(floor, 1, c::floor(x), std::floor(x), opaque(2.7), opaque(0.9))
LAW_CASE(ceil, 1, c::ceil(x), std::ceil(x), opaque(-2.7), opaque(0.9))
LAW_CASE(min, 1, c::min(x, y), std::min(x, y), opaque(0.4), opaque(0.9))
LAW_CASE(max, 1, c::max(x, y), std::max(x, y), opaque(0.4), opaque(0.9))
// A std::array of two doubles is passed by value into the body, a vector by reference.
LAW_CASE(getindex_array, 1, x[y], x[y], (std::array<double, 2>{opaque(0.25), opaque(1.5)}), opaque(1))
LAW_CASE(getindex_vector, 1, x[y], x[y], (std::vector<double>{opaque(0.25), opaque(1.5), opaque(2.75)}), opaque(2))
LAW_CASE(length, 1, c::length(x), x.size(), (std::vector<double>{opaque(0.25), opaque(1.5)}), opaque(0))
LAW_CASE(get_field, 1, c::get<1>(x), x.y, (point{opaque(0.25), opaque(1.5)}), opaque(0))
LAW_CASE(get_element, 1, c::get<2>(x), std::get<2>(x), (std::array<double, 3>{opaque(0.25), opaque(1.5), opaque(2.75)}),
         opaque(0))
LAW_CASE(make, 1, c::make<point>(x, y), (point{x, y}), opaque(0.4), opaque(0.9))

// --- node kinds ---
LAW_CASE(param, 0, x, x, opaque(0.4), opaque(0.9))
LAW_CASE(constant, 0, 2.5, 2.5, opaque(0.4), opaque(0.9))
// A call whose arguments are all constants: what fold_constants folds.
LAW_CASE(constant_call, 2, x * (c::ir::constant(1.5) + 0.25), x * (1.5 + 0.25), opaque(0.4), opaque(0.9))
// The same subtree twice: what cse shares.
LAW_CASE(repeated, 6, c::sin(x * y) + c::sin(x * y) * x, std::sin(x * y) + std::sin(x * y) * x, opaque(0.4),
         opaque(0.9))
LAW_CASE(traced_call, 4, helper(x, y) * x, (x * y + x) * x, opaque(0.4), opaque(0.9))
LAW_CASE(if_then, 2, c::if_(x < y, x * 2.0, y - x), x < y ? x * 2.0 : y - x, opaque(0.4), opaque(0.9))
LAW_CASE(if_else, 2, c::if_(x < y, x * 2.0, y - x), x < y ? x * 2.0 : y - x, opaque(0.9), opaque(0.4))
LAW_CASE(let, 3, c::let(x * y, [](auto t) { return t + t * t; }), x * y + (x * y) * (x * y), opaque(0.4), opaque(0.9))
LAW_CASE(call_symbolic, 1, c::call(affine, x, y), x * 2.0 + y, opaque(0.4), opaque(0.9))
// The call node is made even though its arguments are plain: hooks must see it.
LAW_CASE(call_constants, 2, c::call(affine, 1.5, 0.25) * x, (1.5 * 2.0 + 0.25) * x, opaque(0.4), opaque(0.9))
#undef LAW_CASE

// acc = x, then acc = acc * x + i for i in [0, n): two calls per step.
struct fold {
    static constexpr auto f = cassette::function<"fold">([](auto x, auto n) {
        return cassette::fold(0, n, x, [=](auto i, auto acc) { return acc * x + i; });
    });
    static double hand(double x, int n) {
        double acc = x;
        for (int i = 0; i < n; ++i) acc = acc * x + i;
        return acc;
    }
    static constexpr int calls = 2 * 3;
    static auto args() { return std::tuple{opaque(0.4), opaque(3)}; }
};

// The sum of squares: length, then getindex twice, * and + per element.
struct sum {
    static constexpr auto f = cassette::function<"sum">([](auto v, [[maybe_unused]] auto y) {
        return cassette::sum(0, cassette::length(v), [=](auto i) { return v[i] * v[i]; });
    });
    static double hand(std::vector<double> const& v, int) {
        double acc = 0;
        for (double e : v) acc = acc + e * e;
        return acc;
    }
    static constexpr int calls = 1 + 4 * 3;
    static auto args() { return std::tuple{std::vector<double>{opaque(0.25), opaque(1.5), opaque(2.75)}, opaque(0)}; }
};

// r(x, n) = x if n < 1, else r(x / 2, n - 1) + x: < * - self + per level, < at the base.
struct self_recursion {
    static constexpr auto f = cassette::function<"self_recursion">([](auto x, auto n) {
        return cassette::if_(n < 1, x, cassette::self(x * 0.5, n - 1) + x);
    });
    static double hand(double x, int n) { return n < 1 ? x : hand(x * 0.5, n - 1) + x; }
    static constexpr int calls = 5 * 3 + 1;
    static auto args() { return std::tuple{opaque(0.4), opaque(3)}; }
};

using all_cases =
    std::tuple<add, sub, mul, div, mod, neg, lt, le, gt, ge, eq, ne, logical_and, logical_or, logical_not, sin, cos, tan,
               asin, acos, atan, atan2, sinh, cosh, tanh, exp, log, log1p, expm1, sqrt, cbrt, pow_int, pow_real, pow_two,
               pow_half, pow_two_int_base, pow_two_float_base, abs, hypot, floor, ceil, min, max, getindex_array,
               getindex_vector, length, get_field, get_element, make, param, constant, constant_call, repeated,
               traced_call, if_then, if_else, let, call_symbolic, call_constants, fold, sum, self_recursion>;

// The cases the derivative laws apply to: a double x (differentiated) and a double result.
template <class C>
concept differentiable = std::is_same_v<std::tuple_element_t<0, decltype(C::args())>, double> &&
                         std::is_same_v<decltype(std::apply(C::hand, C::args())), double>;

template <class... C>
auto only_differentiable(std::tuple<C...>)
    -> decltype(std::tuple_cat(std::conditional_t<differentiable<C>, std::tuple<C>, std::tuple<>>{}...));
using differentiable_cases = decltype(only_differentiable(all_cases{}));

// --- modes ---

// Sees every call: a prehook and a posthook for each.
struct hooked {
    int pre = 0, post = 0;
    void prehook(auto const&, auto const&...) { ++pre; }
    void posthook(auto const&, auto const&, auto const&...) { ++post; }
};

// A pass, and hooks around the calls it leaves.
template <auto const& Pass>
struct with_pass : hooked {
    static constexpr auto pass = Pass;
};
inline constexpr auto all_passes = passes::compose(passes::fold_constants, passes::strength_reduction, passes::cse);

// --- bit-for-bit comparison ---

// Equal bits for floating point (so -0.0 is not 0.0), == for the other scalars, element by
// element for ranges and field by field for aggregates.
template <class T>
bool identical(T const& a, T const& b) {
    if constexpr (std::is_floating_point_v<T>)
        return std::memcmp(&a, &b, sizeof(T)) == 0;
    else if constexpr (std::is_arithmetic_v<T>)
        return a == b;
    else if constexpr (std::ranges::range<T>)
        return std::ranges::equal(a, b, [](auto const& l, auto const& r) { return identical(l, r); });
    else
        return [&]<std::size_t... I>(std::index_sequence<I...>) {
            return (identical(boost::pfr::get<I>(a), boost::pfr::get<I>(b)) && ...);
        }(std::make_index_sequence<boost::pfr::tuple_size_v<T>>{});
}

template <class T>
void describe(std::ostream& os, T const& v) {
    if constexpr (std::is_floating_point_v<T>) {
        os << std::hexfloat << v << std::defaultfloat << " (" << std::setprecision(17) << v << ')';
    } else if constexpr (std::is_arithmetic_v<T>) {
        os << std::boolalpha << v;
    } else {
        char const* separator = "";
        auto const part = [&](auto const& e) {
            os << separator;
            describe(os, e);
            separator = ", ";
        };
        os << '{';
        if constexpr (std::ranges::range<T>)
            std::ranges::for_each(v, part);
        else
            boost::pfr::for_each_field(v, part);
        os << '}';
    }
}

// A value that Catch compares bit for bit and prints in hexadecimal.
template <class T>
struct exact {
    T value;
    friend bool operator==(exact const& a, exact const& b) { return identical(a.value, b.value); }
};
template <class T>
exact(T) -> exact<T>;

template <class Actual, class Expected>
void check_identical(std::string_view mode, Actual const& actual, Expected const& expected) {
    INFO("mode " << mode << ": " << cassette::detail::type_name<Actual>() << ", hand-written "
                 << cassette::detail::type_name<Expected>());
    if constexpr (std::is_same_v<Actual, Expected>)
        CHECK(exact{actual} == exact{expected});
    else
        FAIL_CHECK("the result's type is not the hand-written computation's");
}

// --- functions built from a case's f, for the derivative laws ---

inline constexpr auto inner = cassette::function<"inner">([](auto x) { return x * 0.7 + 0.1; });
inline constexpr auto partner = cassette::function<"partner">([](auto x) { return cassette::sin(x) * x; });
inline constexpr double k = 1.7;

template <auto const& F>
inline constexpr auto plus_partner = cassette::function([](auto x, auto y) { return F(x, y) + partner(x); });
template <auto const& F>
inline constexpr auto times_k = cassette::function([](auto x, auto y) { return k * F(x, y); });
template <auto const& F>
inline constexpr auto times_partner = cassette::function([](auto x, auto y) { return F(x, y) * partner(x); });
// Its tangent is 0.7 times x's, not 1: the rules' arithmetic on the tangent is not trivial.
template <auto const& F>
inline constexpr auto after_inner = cassette::function([](auto x, auto y) { return F(inner(x), y); });
template <auto const& F>
inline constexpr auto packed = cassette::function([](auto p) { return F(p[0], p[1]); });
template <auto const& F>
inline constexpr auto swapped = cassette::function([](auto y, auto x) { return F(x, y); });

// The two sides of a law may round differently (the chain rule's t / u against (1 / u) t),
// so they agree to a few ulps.
inline constexpr double tolerance = 8 * std::numeric_limits<double>::epsilon();

// derivative and gradient of F in x, with scalar tangents, and both partials of F with
// vector tangents (one pass of two lanes): the same arithmetic, so the same bits.
template <auto const& F, class X, class Y>
void check_tangents(X const& x, Y const& y) {
    auto const dx = ad::derivative(F, x, y);
    CHECK(exact{ad::gradient(F, x, y)} == exact{dx});
    if constexpr (std::is_same_v<Y, double>) {
        auto const g = ad::gradient(packed<F>, std::array<double, 2>{x, y});
        CHECK(exact{g[0]} == exact{dx});
        CHECK(exact{g[1]} == exact{ad::derivative(swapped<F>, y, x)});
    }
}

}  // namespace laws

// d affine(a, b) = 2 da + db.
template <>
struct cassette::ad::rule<laws::affine_t> {
    static constexpr auto apply(auto const& p, auto const& a, auto const& b) {
        return ad::dual{p(laws::affine, a.v, b.v), p.add(p.mul(a.d, 2.0), b.d)};
    }
};

template <class T>
struct Catch::StringMaker<laws::exact<T>> {
    static std::string convert(laws::exact<T> const& e) {
        std::ostringstream os;
        laws::describe(os, e.value);
        return os.str();
    }
};

using namespace laws;

TEMPLATE_LIST_TEST_CASE("every mode gives the hand-written result, bit for bit", "[laws][modes]", all_cases) {
    INFO("case " << cassette::name_of(TestType::f));
    auto const args = TestType::args();
    auto const expected = std::apply(TestType::hand, args);
    auto const under = [&](auto&& ctx) {
        return std::apply([&](auto const&... a) { return cassette::overdub(ctx, TestType::f, a...); }, args);
    };
    hooked hooks;
    check_identical("plain", std::apply(TestType::f, args), expected);
    check_identical("null_context", under(cassette::null_context{}), expected);
    check_identical("hooked", under(hooks), expected);
    check_identical("disable_hooks", under(cassette::disable_hooks(hooks)), expected);
    check_identical("fold_constants", under(with_pass<passes::fold_constants>{}), expected);
    check_identical("strength_reduction", under(with_pass<passes::strength_reduction>{}), expected);
    check_identical("cse", under(with_pass<passes::cse>{}), expected);
    check_identical("compose(fold_constants, strength_reduction, cse)", under(with_pass<all_passes>{}), expected);
}

TEMPLATE_LIST_TEST_CASE("hooks see each call once; disable_hooks sees none", "[laws][hooks]", all_cases) {
    INFO("case " << cassette::name_of(TestType::f));
    auto const args = TestType::args();
    hooked hooks, quiet;
    std::apply([&](auto const&... a) { cassette::overdub(hooks, TestType::f, a...); }, args);
    std::apply([&](auto const&... a) { cassette::overdub(cassette::disable_hooks(quiet), TestType::f, a...); }, args);
    CHECK(hooks.pre == TestType::calls);
    CHECK(hooks.post == TestType::calls);
    CHECK(quiet.pre == 0);
    CHECK(quiet.post == 0);
}

TEMPLATE_LIST_TEST_CASE("derivatives are linear and obey the product and chain rules", "[laws][ad]",
                        differentiable_cases) {
    INFO("case " << cassette::name_of(TestType::f));
    constexpr auto const& f = TestType::f;
    auto const [x, y] = TestType::args();
    auto const df = ad::derivative(f, x, y);
    auto const dpartner = ad::derivative(partner, x);
    CHECK(ad::derivative(plus_partner<TestType::f>, x, y) == Approx(df + dpartner).epsilon(tolerance));
    CHECK(ad::derivative(times_k<TestType::f>, x, y) == Approx(k * df).epsilon(tolerance));
    CHECK(ad::derivative(times_partner<TestType::f>, x, y) ==
          Approx(df * partner(x) + f(x, y) * dpartner).epsilon(tolerance));
    CHECK(ad::derivative(after_inner<TestType::f>, x, y) ==
          Approx(ad::derivative(f, inner(x), y) * ad::derivative(inner, x)).epsilon(tolerance));
}

TEMPLATE_LIST_TEST_CASE("derivative and gradient, scalar and vector tangents, agree bit for bit", "[laws][ad]",
                        differentiable_cases) {
    INFO("case " << cassette::name_of(TestType::f));
    auto const [x, y] = TestType::args();
    {
        INFO("f");
        check_tangents<TestType::f>(x, y);
    }
    {
        INFO("f after inner");
        check_tangents<after_inner<TestType::f>>(x, y);
    }
}
