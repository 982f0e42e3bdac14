// Forward-mode AD: every derivative rule against Boost.Math autodiff (an independent
// implementation) or a hand-derived formula, to 1e-12 relative; nesting without perturbation
// confusion; gradients, Jacobians and Hessians of every supported shape; user rules.
#include <cassette/ad.hpp>
#include <cassette/cassette.hpp>

#include <boost/math/differentiation/autodiff.hpp>
#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <vector>

namespace ad = cassette::ad;
namespace autodiff = boost::math::differentiation;

namespace ad_tests {

// Each function is generic C++ that is instantiated three ways: with symbolic values (the
// traced function's body), with Boost.Math's fvar, and with double.
#define CASSETTE_TEST_FUNCTION(NAME, EXPR)            \
    struct NAME {                                    \
        template <class T>                           \
        static constexpr auto f(T const& x) {        \
            using namespace std;                     \
            return EXPR;                             \
        }                                            \
        static constexpr double at = 0.7;            \
    };
CASSETTE_TEST_FUNCTION(sin_cos, sin(x) * cos(x))
CASSETTE_TEST_FUNCTION(tan_square, tan(x) + x * x)
CASSETTE_TEST_FUNCTION(asin_half, asin(x / 2.0))
CASSETTE_TEST_FUNCTION(acos_third, acos(x / 3.0) * x)
CASSETTE_TEST_FUNCTION(atan_square, atan(x * x))
CASSETTE_TEST_FUNCTION(atan2_shift, atan2(x, 1.5 + x))
CASSETTE_TEST_FUNCTION(sinh_cosh, sinh(x) - cosh(x / 2.0))
CASSETTE_TEST_FUNCTION(tanh_double, tanh(2.0 * x))
CASSETTE_TEST_FUNCTION(exp_sin, exp(sin(x)))
CASSETTE_TEST_FUNCTION(log_quadratic, log(1.0 + x * x))
CASSETTE_TEST_FUNCTION(sqrt_shift, sqrt(1.0 + x))
CASSETTE_TEST_FUNCTION(pow_real, pow(x, 3.5))
CASSETTE_TEST_FUNCTION(pow_both, pow(2.0 + x, x))
CASSETTE_TEST_FUNCTION(abs_shift, abs(x - 2.0))
CASSETTE_TEST_FUNCTION(logistic, x / (1.0 + exp(-x)))
CASSETTE_TEST_FUNCTION(log_sqrt, log(x) * sqrt(x))
CASSETTE_TEST_FUNCTION(gauss_wave, exp(-x * x) * cos(3.0 * x))
CASSETTE_TEST_FUNCTION(reciprocal, 1.0 / (x * x + 1.0))
CASSETTE_TEST_FUNCTION(issue_g, sin(exp(x)) * log(1.0 + x * x) / sqrt(1.0 + pow(cos(x), 2)))
CASSETTE_TEST_FUNCTION(atan_sinh, atan(sinh(x)) + tanh(x) * x)
CASSETTE_TEST_FUNCTION(floor_times, floor(3.0 * x) * x)
CASSETTE_TEST_FUNCTION(ceil_times, ceil(3.0 * x) * x)
#undef CASSETTE_TEST_FUNCTION

template <class Fn>
inline constexpr auto traced = cassette::function([](auto x) { return Fn::f(x); });

inline constexpr auto energy = cassette::function<"energy">([](auto p) {
    auto x = cassette::get<0>(p);
    auto y = cassette::get<1>(p);
    auto z = cassette::get<2>(p);
    return 0.5 * (x * x + y * y + z * z) + cassette::sin(x * y * z);
});

struct point {
    double x, y, z;
};
struct body {
    point position;
    std::array<double, 2> spin;
};

inline constexpr auto rosenbrock = cassette::function<"rosenbrock">([](auto x) {
    return cassette::sum(0, cassette::length(x) - 1, [=](auto i) {
        return cassette::pow(1.0 - x[i], 2) + 100.0 * cassette::pow(x[i + 1] - cassette::pow(x[i], 2), 2);
    });
});

inline constexpr auto quartic = cassette::function([](auto x) { return x * x * x * x; });

// A user primitive with its own derivative rule.
struct cube_t {
    static constexpr std::string_view name = "cube";
    constexpr double operator()(double v) const { return v * v * v; }
};
inline constexpr cube_t cube{};

}  // namespace ad_tests

//[user_rule
template <>
struct cassette::ad::rule<ad_tests::cube_t> {
    // d(x^3) = 3 x^2 dx, computed with p: arithmetic in the enclosing context, which skips
    // zero tangents.
    static constexpr auto apply(auto const& p, auto const& x) {
        return ad::dual{p(ad_tests::cube, x.v), p.mul(x.d, p(cassette::op::mul, 3.0, p(cassette::op::mul, x.v, x.v)))};
    }
};
//]

using namespace ad_tests;

TEMPLATE_TEST_CASE("first and second derivatives agree with Boost.Math autodiff", "[ad]", sin_cos, tan_square,
                   asin_half, acos_third, atan_square, atan2_shift, sinh_cosh, tanh_double, exp_sin, log_quadratic,
                   sqrt_shift, pow_real, pow_both, abs_shift, logistic, log_sqrt, gauss_wave, reciprocal, issue_g,
                   atan_sinh, floor_times, ceil_times) {
    auto const reference = TestType::f(autodiff::make_fvar<double, 2>(TestType::at));
    constexpr auto f = traced<TestType>;
    CHECK(f(TestType::at) == Approx(TestType::f(TestType::at)).epsilon(1e-15));
    CHECK(ad::derivative(f, TestType::at) == Approx(reference.derivative(1)).epsilon(1e-12).margin(1e-300));
    CHECK(ad::derivative(ad::derivative(f), TestType::at) ==
          Approx(reference.derivative(2)).epsilon(1e-12).margin(1e-12));
}

TEST_CASE("rules Boost.Math autodiff has no counterpart for, against hand-derived formulas", "[ad]") {
    double const x = 0.7;
    CHECK(ad::derivative([](auto v) { return cassette::log1p(v * v); }, x) == Approx(2 * x / (1 + x * x)).epsilon(1e-12));
    CHECK(ad::derivative([](auto v) { return cassette::expm1(2.0 * v); }, x) == Approx(2 * std::exp(2 * x)).epsilon(1e-12));
    CHECK(ad::derivative([](auto v) { return cassette::cbrt(v); }, x) == Approx(1 / (3 * std::cbrt(x * x))).epsilon(1e-12));
    CHECK(ad::derivative([](auto v) { return cassette::hypot(v, 2.0 * v + 1.0); }, x) ==
          Approx((x + 2 * (2 * x + 1)) / std::hypot(x, 2 * x + 1)).epsilon(1e-12));
    // min and max follow the argument they return; at a tie, the first.
    CHECK(ad::derivative([](auto v) { return cassette::min(v * v, 3.0 * v); }, x) == Approx(2 * x).epsilon(1e-12));
    CHECK(ad::derivative([](auto v) { return cassette::max(v * v, 3.0 * v); }, x) == 3.0);
    CHECK(ad::derivative([](auto v) { return cassette::min(2.0 * v, v + 1.0); }, 1.0) == 2.0);
    CHECK(ad::derivative([](auto v) { return cassette::max(2.0 * v, v + 1.0); }, 1.0) == 2.0);
    // abs at its kink: the right derivative.
    CHECK(ad::derivative([](auto v) { return cassette::abs(v); }, 0.0) == 1.0);
    CHECK(ad::derivative([](auto v) { return cassette::abs(v); }, -0.5) == -1.0);
    // a % b = a - trunc(a / b) b
    CHECK(ad::derivative([](auto v) { return cassette::call([](double a) { return a; }, 1.0) + v * 0.0; }, x) == 0.0);
    // pow with a constant negative base and an integer exponent: no log of a negative.
    CHECK(ad::derivative([](auto v) { return cassette::pow(v - 2.0, 3); }, x) == Approx(3 * (x - 2) * (x - 2)).epsilon(1e-12));
    // Comparisons and branches see through tangents.
    constexpr auto relu = cassette::function([](auto v) { return cassette::if_(v < 0.0, 0.0 * v, v * v); });
    CHECK(ad::derivative(relu, 1.5) == 3.0);
    CHECK(ad::derivative(relu, -1.5) == 0.0);
}

TEST_CASE("nested derivatives are free of perturbation confusion", "[ad][nesting]") {
    //[confusion
    constexpr auto g = cassette::function([](auto x) {
        return x * ad::derivative([=](auto y) { return x + y; }, 1.0);
    });
    CHECK(ad::derivative(g, 1.0) == 1.0);  // a confused implementation answers 2
    //]
    // Siskind and Pearlmutter: d/dx (x * d/dy (x * y)|y=2)|x=1 = d/dx (x^2) = 2.
    constexpr auto h = cassette::function([](auto x) {
        return x * ad::derivative([=](auto y) { return x * y; }, 2.0);
    });
    CHECK(ad::derivative(h, 1.0) == 2.0);
    // Third derivative of x^4 at 2: 24 x = 48.
    CHECK(ad::derivative(ad::derivative(ad::derivative(quartic)), 2.0) == 48.0);
    // derivative(f) is a traced function that other bodies can call.
    constexpr auto uses_derivative = cassette::function([](auto x) { return ad::derivative(quartic)(x) + x; });
    CHECK(uses_derivative(1.0) == 5.0);
    CHECK(ad::derivative(uses_derivative, 1.0) == 13.0);  // 12 x^2 + 1
}

TEST_CASE("special forms and self recursion differentiate correctly", "[ad]") {
    constexpr auto power = cassette::function<"power">([](auto x, auto n) {
        return cassette::if_(n == 0, 1.0, x * cassette::self(x, n - 1));
    });
    CHECK(ad::derivative(power, 1.5, 4) == Approx(4 * 1.5 * 1.5 * 1.5).epsilon(1e-14));
    constexpr auto horner = cassette::function([](auto x) {  // 1 + 2x + 3x^2 + 4x^3 by fold
        return cassette::fold(0, 4, 0.0, [=](auto i, auto acc) { return acc * x + (4 - i); });
    });
    CHECK(ad::derivative(horner, 0.5) == Approx(2 + 6 * 0.5 + 12 * 0.25).epsilon(1e-14));
    constexpr auto shared = cassette::function([](auto x) {
        return cassette::let(cassette::sin(x), [](auto s) { return s * s; });
    });
    CHECK(ad::derivative(shared, 0.3) == Approx(2 * std::sin(0.3) * std::cos(0.3)).epsilon(1e-14));
    CHECK(ad::gradient(rosenbrock, std::vector<double>{0.5, 0.25, 1.0}) == std::vector<double>{-1.0, -95.25, 187.5});
}

TEST_CASE("gradient keeps the type and shape of its argument", "[ad][gradient]") {
    CHECK(ad::gradient([](auto x) { return x * x; }, 3.0) == 6.0);
    // By hand: d/dx = x + cos(xyz) yz, and so on.
    point const g = ad::gradient(energy, point{1.0, 2.0, 3.0});
    CHECK(g.x == Approx(1 + std::cos(6.0) * 6).epsilon(1e-14));
    CHECK(g.y == Approx(2 + std::cos(6.0) * 3).epsilon(1e-14));
    CHECK(g.z == Approx(3 + std::cos(6.0) * 2).epsilon(1e-14));
    auto const ga = ad::gradient(rosenbrock, std::array<double, 3>{0.5, 0.25, 1.0});
    STATIC_REQUIRE(std::is_same_v<decltype(ga), std::array<double, 3> const>);
    CHECK(ga == std::array<double, 3>{-1.0, -95.25, 187.5});
    // Nested aggregates and arrays inside them.
    constexpr auto spin_energy = cassette::function([](auto b) {
        auto p = cassette::get<0>(b);
        auto s = cassette::get<1>(b);
        return cassette::get<0>(p) * s[0] + cassette::get<2>(p) * s[1] * s[1];
    });
    body const gb = ad::gradient(spin_energy, body{{1.0, 2.0, 3.0}, {4.0, 5.0}});
    CHECK(gb.position.x == 4.0);
    CHECK(gb.position.y == 0.0);
    CHECK(gb.position.z == 25.0);
    CHECK(gb.spin == std::array<double, 2>{1.0, 30.0});
    // Arrays of aggregates.
    constexpr auto kinetic = cassette::function([](auto ps) {
        return cassette::sum(0, cassette::length(ps), [=](auto i) {
            return 0.5 * (cassette::get<0>(ps[i]) * cassette::get<0>(ps[i]));
        });
    });
    auto const gk = ad::gradient(kinetic, std::vector<point>{{1, 2, 3}, {4, 5, 6}});
    CHECK(gk[0].x == 1.0);
    CHECK(gk[1].x == 4.0);
    CHECK(gk[1].z == 0.0);
}

TEST_CASE("fields that meet in branches, folds, arrays and recursion", "[ad][gradient]") {
    // A gradient over the fields of a struct tracks which inputs each value depends on: these
    // bring values that depend on different fields together. Expected values by hand.
    constexpr auto branch = cassette::function([](auto p) {
        auto x = cassette::get<0>(p);
        return cassette::if_(x > 0.0, x * cassette::get<1>(p), cassette::get<2>(p) * cassette::get<2>(p));
    });
    point const positive = ad::gradient(branch, point{1.0, 2.0, 3.0});  // x y
    CHECK((positive.x == 2.0 && positive.y == 1.0 && positive.z == 0.0));
    point const negative = ad::gradient(branch, point{-1.0, 2.0, 3.0});  // z^2
    CHECK((negative.x == 0.0 && negative.y == 0.0 && negative.z == 6.0));

    constexpr auto smaller = cassette::function([](auto p) { return cassette::min(cassette::get<0>(p), cassette::get<1>(p)); });
    point const gm = ad::gradient(smaller, point{4.0, 2.0, 3.0});
    CHECK((gm.x == 0.0 && gm.y == 1.0 && gm.z == 0.0));

    // acc = acc x + y, three times: y x^2 + y x + y.
    constexpr auto horner = cassette::function([](auto p) {
        return cassette::fold(0, 3, 0.0, [=](auto, auto acc) { return acc * cassette::get<0>(p) + cassette::get<1>(p); });
    });
    point const gh = ad::gradient(horner, point{1.0, 2.0, 3.0});  // (2 y x + y, x^2 + x + 1, 0)
    CHECK((gh.x == 6.0 && gh.y == 3.0 && gh.z == 0.0));

    // x^n z: the base case depends on z only, the recursive branch on x too.
    constexpr auto power = cassette::function<"power_times">([](auto p, auto n) {
        return cassette::if_(n == 0, cassette::get<2>(p), cassette::get<0>(p) * cassette::self(p, n - 1));
    });
    point const gp = ad::gradient(power, point{2.0, 5.0, 3.0}, 3);  // (3 x^2 z, 0, x^3)
    CHECK((gp.x == 36.0 && gp.y == 0.0 && gp.z == 8.0));

    // An array made of two fields, and aggregates that swap fields in a branch.
    constexpr auto made = cassette::function([](auto p) {
        auto a = cassette::make<std::array<double, 2>>(cassette::get<0>(p), cassette::get<1>(p) * cassette::get<1>(p));
        return a[0] * a[1];
    });
    point const ga = ad::gradient(made, point{3.0, 2.0, 1.0});  // x y^2: (y^2, 2 x y, 0)
    CHECK((ga.x == 4.0 && ga.y == 12.0 && ga.z == 0.0));
    constexpr auto swapped = cassette::function([](auto p) {
        auto x = cassette::get<0>(p);
        auto y = cassette::get<1>(p);
        auto q = cassette::if_(cassette::get<2>(p) > 0.0, cassette::make<point>(x, y, 0.0), cassette::make<point>(y, x, 0.0));
        return cassette::get<0>(q) * 10.0 + cassette::get<1>(q);
    });
    point const gs = ad::gradient(swapped, point{3.0, 2.0, 1.0});  // 10 x + y
    CHECK((gs.x == 10.0 && gs.y == 1.0 && gs.z == 0.0));
    point const gt = ad::gradient(swapped, point{3.0, 2.0, -1.0});  // 10 y + x
    CHECK((gt.x == 1.0 && gt.y == 10.0 && gt.z == 0.0));
}

TEST_CASE("gradients of many inputs come in chunks of forward passes", "[ad][gradient]") {
    // 11 leaves: two passes of 8 lanes for a vector, two of 10 for an array. By hand:
    // d/dx_k = -2 (1 - x_k) - 400 x_k (x_{k+1} - x_k^2) [k < n-1] + 200 (x_k - x_{k-1}^2) [k > 0].
    std::vector<double> x(11);
    for (std::size_t k = 0; k != x.size(); ++k) x[k] = 0.1 * double(k) - 0.3;
    std::vector<double> expected(x.size(), 0.0);
    for (std::size_t k = 0; k != x.size(); ++k) {
        if (k + 1 < x.size()) expected[k] += -2 * (1 - x[k]) - 400 * x[k] * (x[k + 1] - x[k] * x[k]);
        if (k > 0) expected[k] += 200 * (x[k] - x[k - 1] * x[k - 1]);
    }
    auto const g = ad::gradient(rosenbrock, x);
    std::array<double, 11> xa{};
    std::copy(x.begin(), x.end(), xa.begin());
    auto const ga = ad::gradient(rosenbrock, xa);
    for (std::size_t k = 0; k != x.size(); ++k) {
        CHECK(g[k] == Approx(expected[k]).epsilon(1e-13).margin(1e-13));
        CHECK(ga[k] == Approx(expected[k]).epsilon(1e-13).margin(1e-13));
    }
}

TEST_CASE("jacobian and hessian", "[ad][jacobian][hessian]") {
    constexpr auto polar = cassette::function([](auto v) {
        return cassette::make<std::array<double, 2>>(v[0] * cassette::cos(v[1]), v[0] * cassette::sin(v[1]));
    });
    auto const J = ad::jacobian(polar, std::array<double, 2>{2.0, 0.5});
    STATIC_REQUIRE(std::is_same_v<decltype(J), std::array<std::array<double, 2>, 2> const>);
    CHECK(J[0][0] == Approx(std::cos(0.5)).epsilon(1e-14));
    CHECK(J[0][1] == Approx(-2 * std::sin(0.5)).epsilon(1e-14));
    CHECK(J[1][0] == Approx(std::sin(0.5)).epsilon(1e-14));
    CHECK(J[1][1] == Approx(2 * std::cos(0.5)).epsilon(1e-14));
    auto const Jv = ad::jacobian(polar, std::vector<double>{2.0, 0.5});
    STATIC_REQUIRE(std::is_same_v<decltype(Jv), std::vector<std::vector<double>> const>);
    CHECK(Jv[1][1] == Approx(2 * std::cos(0.5)).epsilon(1e-14));
    // Rosenbrock n = 2 by hand: H = [[2 - 400 (y - x^2) + 800 x^2, -400 x], [-400 x, 200]].
    auto const H = ad::hessian(rosenbrock, std::array<double, 2>{0.5, 0.25});
    CHECK(H == std::array<std::array<double, 2>, 2>{{{202.0, -200.0}, {-200.0, 200.0}}});
    auto const He = ad::hessian(energy, point{1.0, 2.0, 3.0});
    // d2/dx dy (sin(xyz)) = z cos(xyz) - x y z^2 sin(xyz)
    CHECK(He[0][1] == Approx(3 * std::cos(6.0) - 1 * 2 * 9 * std::sin(6.0)).epsilon(1e-12));
    CHECK(He[0][0] == Approx(1 - 36 * std::sin(6.0)).epsilon(1e-12));
}

TEST_CASE("a user primitive differentiates through its own rule", "[ad][rule]") {
    constexpr auto f = cassette::function([](auto x) { return cassette::call(cube, x) + x; });
    CHECK(ad::derivative(f, 2.0) == 13.0);
    CHECK(ad::derivative(ad::derivative(f), 2.0) == 12.0);
}
