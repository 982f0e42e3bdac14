// Reverse mode: gradients, Jacobians, Hessians and Hessian-vector products against derivatives
// worked out by hand and against forward mode; values with derivatives; the tape's reuse,
// threads and exceptions.
#include <cassette/cassette.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <new>
#include <stdexcept>
#include <thread>
#include <vector>

namespace ad = cassette::ad;
using cassette::function;

// Counts allocations, to check that a kept tape stops allocating.
namespace {
std::atomic<long> allocations{0};
}
// Every form of new and delete is replaced, so that each pair matches (AddressSanitizer checks).
// GCC 12 warns that free receives what the inlined replacement new got from malloc, as if from
// new itself, depending on what it inlines (GCC bug 103993).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif
void* operator new(std::size_t n, std::nothrow_t const&) noexcept {
    ++allocations;
    return std::malloc(n == 0 ? 1 : n);
}
void* operator new(std::size_t n) {
    if (void* p = operator new(n, std::nothrow)) return p;
    throw std::bad_alloc();
}
void* operator new[](std::size_t n, std::nothrow_t const& tag) noexcept { return operator new(n, tag); }
void* operator new[](std::size_t n) { return operator new(n); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::nothrow_t const&) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::nothrow_t const&) noexcept { std::free(p); }

namespace {

constexpr auto identity = function<"identity">([](auto x) { return x; });
constexpr auto constant = function<"constant">([](auto) { return 4.0; });
constexpr auto second = function<"second">([](auto x) { return x[1]; });
constexpr auto square = function<"square">([](auto x) { return x * x; });

constexpr auto rosenbrock = function<"rosenbrock">([](auto x) {
    return cassette::sum(0, cassette::length(x) - 1, [=](auto i) {
        return cassette::pow(1.0 - x[i], 2) + 100.0 * cassette::pow(x[i + 1] - x[i] * x[i], 2);
    });
});

template <class X>
X rosenbrock_gradient(X const& x) {
    X g(x);
    for (auto& v : g) v = 0;
    for (std::size_t i = 0; i + 1 < x.size(); ++i) {
        double const a = 1.0 - x[i], b = x[i + 1] - x[i] * x[i];
        g[i] += -2.0 * a - 400.0 * x[i] * b;
        g[i + 1] += 200.0 * b;
    }
    return g;
}

template <class X>
X rosenbrock_input() {
    X x{};
    if constexpr (requires { x.resize(0); }) x.resize(10);
    for (std::size_t i = 0; i != x.size(); ++i) x[i] = 0.5 + 0.01 * double(i);
    return x;
}

struct point {
    double x, y, z;
};
constexpr auto energy = function<"energy">([](auto p) {
    auto const x = cassette::get<0>(p);
    auto const y = cassette::get<1>(p);
    auto const z = cassette::get<2>(p);
    return 0.5 * (x * x + y * y + z * z) + cassette::sin(x * y * z);
});

// prod x_i: the fold's partials depend on the accumulator.
constexpr auto product = function<"product">([](auto x) {
    return cassette::fold(0, cassette::length(x), 1.0, [=](auto i, auto acc) { return acc * x[i]; });
});

// x^n by recursion on n, with x first.
constexpr auto power = function<"power">([](auto x, auto n) {
    return cassette::if_(n == 0, 1.0, x * cassette::self(x, n - 1));
});

struct normal {
    double mu, sigma;
};
// The log-likelihood of data under N(mu, sigma^2), without its constant.
constexpr auto log_likelihood = function<"log_likelihood">([](auto theta, auto data) {
    auto const mu = cassette::get<0>(theta);
    auto const sigma = cassette::get<1>(theta);
    return cassette::sum(0, cassette::length(data), [=](auto i) {
        auto const z = (data[i] - mu) / sigma;
        return -0.5 * z * z - cassette::log(sigma);
    });
});

constexpr auto inner = function<"inner">([](auto a, auto b) { return cassette::exp(a) * b; });
constexpr auto outer = function<"outer">([](auto x) {
    return cassette::let(inner(x[0], x[1]), [=](auto t) { return cassette::if_(t > 1.0, t * t, -t) + x[1]; });
});

struct throwing {
    double operator()(double v) const {
        if (v > 1.0) throw std::domain_error("too large");
        return v;
    }
};

bool near(double a, double b, double tolerance = 1e-14) {
    return std::abs(a - b) <= tolerance * std::max(1.0, std::abs(b));
}

}  // namespace

TEST_CASE("reverse mode on the bodies users write first") {
    CHECK(ad::gradient(identity, 3.0, ad::reverse) == 1.0);
    CHECK(ad::gradient(constant, 3.0, ad::reverse) == 0.0);
    CHECK(ad::gradient(square, 3.0, ad::reverse) == 6.0);
    CHECK(ad::gradient(second, std::array{1.0, 2.0, 3.0}, ad::reverse) == std::array{0.0, 1.0, 0.0});
    CHECK(ad::gradient([](auto x) { return x[0] * x[2]; }, std::vector{2.0, 5.0, 7.0}, ad::reverse) ==
          std::vector{7.0, 0.0, 2.0});
}

TEST_CASE("reverse-mode gradients equal the hand-written ones") {
    auto const a = rosenbrock_input<std::array<double, 10>>();
    auto const ga = ad::gradient(rosenbrock, a, ad::reverse);
    auto const va = ad::gradient(rosenbrock, rosenbrock_input<std::vector<double>>(), ad::reverse);
    auto const want = rosenbrock_gradient(a);
    for (std::size_t i = 0; i != a.size(); ++i) {
        CHECK(near(ga[i], want[i]));
        CHECK(near(va[i], want[i]));
    }

    point const p{1.0, 2.0, 3.0};
    point const g = ad::gradient(energy, p, ad::reverse);
    double const c = std::cos(6.0);
    CHECK(near(g.x, 1.0 + c * 6.0));
    CHECK(near(g.y, 2.0 + c * 3.0));
    CHECK(near(g.z, 3.0 + c * 2.0));

    std::array<double, 4> const x{1.5, -2.0, 0.5, 3.0};
    auto const gp = ad::gradient(product, x, ad::reverse);
    for (std::size_t i = 0; i != x.size(); ++i) CHECK(near(gp[i], -4.5 / x[i]));

    CHECK(near(ad::gradient(power, 1.3, ad::reverse, 5), 5 * std::pow(1.3, 4)));
}

TEST_CASE("reverse mode through let, if_, nested traced functions and data passed after x") {
    // outer = (t > 1 ? t^2 : -t) + x1 with t = e^x0 x1.
    for (std::array<double, 2> const x : {std::array{0.5, 2.0}, std::array{-3.0, 1.0}}) {
        double const t = std::exp(x[0]) * x[1];
        double const dt = t > 1.0 ? 2.0 * t : -1.0;
        auto const g = ad::gradient(outer, x, ad::reverse);
        CHECK(near(g[0], dt * t));
        CHECK(near(g[1], dt * std::exp(x[0]) + 1.0));
    }

    std::vector<double> const data{1.2, 0.7, 2.5, 1.9};
    normal const theta{1.1, 0.8};
    normal const g = ad::gradient(log_likelihood, theta, ad::reverse, data);
    double dmu = 0, dsigma = 0;
    for (double d : data) {
        double const r = d - theta.mu;
        dmu += r / (theta.sigma * theta.sigma);
        dsigma += r * r / (theta.sigma * theta.sigma * theta.sigma) - 1.0 / theta.sigma;
    }
    CHECK(near(g.mu, dmu));
    CHECK(near(g.sigma, dsigma));
}

TEST_CASE("reverse mode gives forward mode's results") {
    auto const x = rosenbrock_input<std::array<double, 6>>();
    auto const forward = ad::gradient(rosenbrock, x);
    auto const reverse = ad::gradient(rosenbrock, x, ad::reverse);
    for (std::size_t i = 0; i != x.size(); ++i) CHECK(near(reverse[i], forward[i]));

    auto const f = [](auto v) {
        return cassette::make<std::array<double, 3>>(v[0] * v[1], cassette::sin(v[1]), 2.0);
    };
    std::array<double, 2> const v{0.3, 1.7};
    auto const jf = ad::jacobian(f, v);
    auto const jr = ad::jacobian(f, v, ad::reverse);
    for (std::size_t i = 0; i != 3; ++i)
        for (std::size_t j = 0; j != 2; ++j) CHECK(near(jr[i][j], jf[i][j]));
    CHECK(jr[1][0] == 0.0);
    CHECK(jr[2][1] == 0.0);

    auto const hf = ad::hessian(rosenbrock, x);
    auto const hr = ad::hessian(rosenbrock, x, ad::reverse);
    for (std::size_t i = 0; i != x.size(); ++i)
        for (std::size_t j = 0; j != x.size(); ++j) CHECK(near(hr[i][j], hf[i][j]));
}

TEST_CASE("a Hessian-vector product is the Hessian times the vector") {
    auto const x = rosenbrock_input<std::array<double, 5>>();
    std::array<double, 5> const v{1.0, -2.0, 0.5, 0.0, 3.0};
    auto const h = ad::hessian(rosenbrock, x);
    auto const hv = ad::hvp(rosenbrock, x, v);
    for (std::size_t i = 0; i != x.size(); ++i) {
        double want = 0;
        for (std::size_t j = 0; j != x.size(); ++j) want += h[i][j] * v[j];
        CHECK(near(hv[i], want));
    }
    // For energy: H = I + d2 sin(xyz), by hand at (1, 2, 3) along (1, 0, 0).
    point const hp = ad::hvp(energy, point{1.0, 2.0, 3.0}, point{1.0, 0.0, 0.0});
    double const s = std::sin(6.0), c = std::cos(6.0);
    CHECK(near(hp.x, 1.0 - s * 36.0));
    CHECK(near(hp.y, c * 3.0 - s * 6.0 * 3.0));
    CHECK(near(hp.z, c * 2.0 - s * 6.0 * 2.0));
}

TEST_CASE("values come with their derivatives from one evaluation") {
    auto const f = [](auto x) { return cassette::sin(x) * x; };
    auto const [value, derivative] = ad::value_and_derivative(f, 0.5);
    CHECK(value == std::sin(0.5) * 0.5);
    CHECK(near(derivative, std::cos(0.5) * 0.5 + std::sin(0.5)));
    auto const r = ad::value_and_derivative(f, 0.5, ad::reverse);
    CHECK(r.value == value);
    CHECK(near(r.derivative, derivative));

    auto const x = rosenbrock_input<std::array<double, 4>>();
    auto const [vf, gf] = ad::value_and_gradient(rosenbrock, x);
    auto const [vr, gr] = ad::value_and_gradient(rosenbrock, x, ad::reverse);
    double want = 0;
    for (std::size_t i = 0; i + 1 < x.size(); ++i)
        want += std::pow(1.0 - x[i], 2) + 100.0 * std::pow(x[i + 1] - x[i] * x[i], 2);
    CHECK(near(vf, want));
    CHECK(vr == vf);
    CHECK(gf == ad::gradient(rosenbrock, x));
    for (std::size_t i = 0; i != x.size(); ++i) CHECK(near(gr[i], gf[i]));

    // No leaves: the value still comes from an evaluation.
    CHECK(ad::value_and_gradient([](auto) { return 2.5; }, std::vector<double>{}).value == 2.5);
}

TEST_CASE("nested differentiation mixing modes is free of perturbation confusion") {
    auto const g = function([](auto x) { return x * ad::derivative([=](auto y) { return x + y; }, 1.0); });
    CHECK(ad::derivative(g, 1.0) == 1.0);
    CHECK(ad::gradient(g, 1.0, ad::reverse) == 1.0);
}

constexpr auto pair_product = function<"pair_product">([](auto a) { return a[0] * a[1]; });
constexpr auto through_array = function<"through_array">([](auto x) {
    return pair_product(cassette::make<std::array<double, 2>>(x[0] * x[1], x[0] + x[1]));
});
constexpr auto climb = function<"climb">([](auto x, auto n) {
    return cassette::if_(n == 0, x, cassette::self(x + x * 0.5, n - 1));
});
constexpr auto descend = function<"descend">([](auto x, auto n) {
    return cassette::if_(n == 0, x[0] * x[1], cassette::self(x, n - 1) + cassette::sin(x[0]));
});
constexpr auto sum_of_squares = function<"sum_of_squares">([](auto x) { return x[0] * x[0] + x[1] * x[1]; });

TEST_CASE("the tape records a slot per value that needs one, not per call") {
    // x0 x0 + x1 x1 is one recorded value with an edge per occurrence of x0 and x1.
    ad::tape tape;
    CHECK(ad::gradient(sum_of_squares, std::array{3.0, -2.0}, ad::reverse(tape)) == std::array{6.0, -4.0});
    CHECK(tape.values() == 2 + 1);
    CHECK(tape.edges() == 4);
    // The accumulator takes a slot each iteration, with two edges for acc * x[i] (the first
    // from slot 0, the constants', where the plain initial value 1 sits).
    std::array<double, 4> const q{1.5, -2.0, 0.5, 3.0};
    CHECK(ad::gradient(product, q, ad::reverse(tape)) == std::array{-2.0 * 0.5 * 3.0, 1.5 * 0.5 * 3.0, 1.5 * -2.0 * 3.0, 1.5 * -2.0 * 0.5});
    CHECK(tape.values() == 4 + 4);
    CHECK(tape.edges() == 2 * 4);
}

TEST_CASE("values computed from several inputs enter arrays and traced functions") {
    // (x0 x1)(x0 + x1): d/dx0 = 2 x0 x1 + x1^2, d/dx1 = x0^2 + 2 x0 x1.
    CHECK(ad::gradient(through_array, std::array{2.0, 3.0}, ad::reverse) == std::array{21.0, 16.0});
    // x 1.5^n, each level's argument computed from the last: d/dx = 1.5^n.
    CHECK(ad::gradient(climb, 0.7, ad::reverse, 3) == 1.5 * 1.5 * 1.5);
}

TEST_CASE("a kept tape stops allocating") {
    auto const x = rosenbrock_input<std::array<double, 10>>();
    ad::tape tape;
    auto const first = ad::gradient(rosenbrock, x, ad::reverse(tape));
    CHECK(tape.values() > 0);
    long const before = allocations.load();
    auto const again = ad::gradient(rosenbrock, x, ad::reverse(tape));
    CHECK(allocations.load() == before);
    CHECK(again == first);
}

TEST_CASE("an exception leaves the tape usable") {
    auto const f = [](auto x) { return cassette::sin(x) * cassette::call(throwing{}, 2.0); };
    ad::tape tape;
    CHECK_THROWS_AS(ad::gradient(f, 0.5, ad::reverse(tape)), std::domain_error);
    CHECK(ad::gradient(square, 3.0, ad::reverse(tape)) == 6.0);
}

TEST_CASE("gradients on many threads at once, each with its own tape") {
    auto const x = rosenbrock_input<std::array<double, 10>>();
    ad::tape first;
    auto const want = ad::gradient(rosenbrock, x, ad::reverse(first));
    std::atomic<int> mismatches{0};
    std::vector<std::thread> threads;
    for (int t = 0; t != 8; ++t)
        threads.emplace_back([&] {
            ad::tape tape;
            for (int k = 0; k != 10000; ++k)
                if (ad::gradient(rosenbrock, x, ad::reverse(tape)) != want) ++mismatches;
        });
    for (auto& t : threads) t.join();
    CHECK(mismatches == 0);
}

TEST_CASE("reverse mode, as the reference shows it") {
    //[reverse_reference
    constexpr auto dot_with_self = cassette::function([](auto v) { return v[0] * v[0] + v[1] * v[1]; });
    CHECK(ad::gradient(dot_with_self, std::array{1.0, 2.0}, ad::reverse) == std::array{2.0, 4.0});
    ad::tape tape;  // kept: the next gradients reuse its buffers
    CHECK(ad::gradient(dot_with_self, std::vector{3.0, 4.0}, ad::reverse(tape)) == std::vector{6.0, 8.0});
    auto const [value, gradient] = ad::value_and_gradient(dot_with_self, std::array{3.0, 4.0}, ad::reverse);
    CHECK(value == 25.0);
    CHECK(gradient == std::array{6.0, 8.0});
    CHECK(ad::hvp(dot_with_self, std::array{3.0, 4.0}, std::array{1.0, -1.0}) == std::array{2.0, -2.0});
    //]
    //[value_and_reference
    auto const [y, dy] = ad::value_and_derivative([](auto x) { return x * x * x; }, 2.0);
    CHECK(y == 8.0);
    CHECK(dy == 12.0);
    //]
}

namespace {
constexpr auto norm2 = function<"norm2">([](auto v) {
    return cassette::sum(0, cassette::length(v), [=](auto i) { return v[i] * v[i]; });
});
// A traced function taking the whole array: its parameter's adjoint goes back part by part.
constexpr auto scaled_norm = function<"scaled_norm">([](auto x) { return 3.0 * norm2(x) + x[0]; });
// Adjoints that are arrays and structs: a let binding a struct, an if_ choosing an array.
constexpr auto let_struct = function<"let_struct">([](auto p) {
    return cassette::let(p, [](auto q) { return cassette::get<0>(q) * cassette::get<1>(q); });
});
constexpr auto chosen_norm = function<"chosen_norm">([](auto x, auto y) {
    return norm2(cassette::if_(x[0] > 0.0, x, y));
});
}  // namespace

TEST_CASE("the static adjoint and the tape agree, and the choice between them is the body's") {
    // Bodies with a fixed structure: generated at compile time (forced with ad::static_adjoint).
    auto const x = rosenbrock_input<std::array<double, 10>>();
    ad::tape tape;
    auto const taped = ad::gradient(rosenbrock, x, ad::reverse(tape));
    auto const generated = ad::gradient(rosenbrock, x, ad::static_adjoint);
    CHECK(ad::gradient(rosenbrock, x, ad::reverse) == generated);  // ad::reverse chose it
    for (std::size_t i = 0; i != x.size(); ++i) CHECK(near(generated[i], taped[i]));

    point const p{1.0, 2.0, 3.0};
    point const ps = ad::gradient(energy, p, ad::static_adjoint);
    point const pt = ad::gradient(energy, p, ad::reverse(tape));
    CHECK((near(ps.x, pt.x) && near(ps.y, pt.y) && near(ps.z, pt.z)));

    for (std::array<double, 2> const y : {std::array{0.5, 2.0}, std::array{-3.0, 1.0}}) {
        auto const s = ad::gradient(outer, y, ad::static_adjoint);
        auto const t = ad::gradient(outer, y, ad::reverse(tape));
        CHECK((near(s[0], t[0]) && near(s[1], t[1])));
    }

    std::vector<double> const data{1.2, 0.7, 2.5, 1.9};
    normal const ls = ad::gradient(log_likelihood, normal{1.1, 0.8}, ad::static_adjoint, data);
    normal const lt = ad::gradient(log_likelihood, normal{1.1, 0.8}, ad::reverse(tape), data);
    CHECK((near(ls.mu, lt.mu) && near(ls.sigma, lt.sigma)));

    std::array<double, 3> const v{1.0, -2.0, 0.5};
    auto const g = ad::gradient(scaled_norm, v, ad::static_adjoint);
    CHECK(g == std::array{6.0 + 1.0, -12.0, 3.0});
    auto const [value, gradient] = ad::value_and_gradient(scaled_norm, v, ad::static_adjoint);
    CHECK(value == 3.0 * 5.25 + 1.0);
    CHECK(gradient == g);

    point const lp = ad::gradient(let_struct, point{2.0, 3.0, 4.0}, ad::static_adjoint);
    CHECK((lp.x == 3.0 && lp.y == 2.0 && lp.z == 0.0));
    std::array<double, 2> const other{5.0, 6.0};
    CHECK(ad::gradient(chosen_norm, std::array{1.0, 2.0}, ad::static_adjoint, other) == std::array{2.0, 4.0});
    CHECK(ad::gradient(chosen_norm, std::array{-1.0, 2.0}, ad::static_adjoint, other) == std::array{0.0, 0.0});

    // A fold whose accumulator is multiplied, and self recursion: ad::reverse records a tape.
    std::array<double, 4> const q{1.5, -2.0, 0.5, 3.0};
    ad::tape product_tape;
    CHECK(ad::gradient(product, q, ad::reverse) == ad::gradient(product, q, ad::reverse(product_tape)));
    CHECK(product_tape.values() == 4 + 4);  // the inputs, and acc * x[i] four times
    CHECK(near(ad::gradient(power, 1.3, ad::reverse, 5), 5 * std::pow(1.3, 4)));

    // Self recursion under the static adjoint: each level's body swept in its own frame.
    auto const [power_value, dp] = ad::value_and_gradient(power, 1.3, ad::static_adjoint, 5);
    CHECK(near(power_value, std::pow(1.3, 5)));
    CHECK(near(dp, 5 * std::pow(1.3, 4)));
    CHECK(ad::gradient(climb, 0.7, ad::static_adjoint, 3) == 1.5 * 1.5 * 1.5);
    // x0 x1 + 3 sin(x0): (x1 + 3 cos(x0), x0).
    auto const d = ad::gradient(descend, std::array{0.4, 2.5}, ad::static_adjoint, 3);
    CHECK((near(d[0], 2.5 + 3 * std::cos(0.4)) && d[1] == 0.4));
    auto const t = ad::gradient(descend, std::array{0.4, 2.5}, ad::reverse, 3);
    CHECK((near(t[0], d[0]) && t[1] == d[1]));
}
