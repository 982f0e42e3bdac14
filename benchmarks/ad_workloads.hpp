// The workloads of "Speed, measured side by side": each derivative computed by hand-written
// code, by Cassette (cassette::ad) and by three peers: Boost.Math autodiff (fvar), Ceres'
// Jet<double, N> and Eigen's AutoDiffScalar (fixed-size derivative vectors). Shared by
// benchmarks/ad.cpp (time) and tests/ad_instructions/ (instruction counts); both are built
// only when Eigen 3 and Ceres' header ceres/jet.h are found (benchmarks/ad_peers.cmake).
#pragma once

#include <cassette/ad.hpp>
#include <cassette/cassette.hpp>

#include <boost/math/differentiation/autodiff.hpp>
#if defined(AD_WORKLOADS_REVERSE_PEERS)
#include <Sacado_trad.hpp>
#include <adolc/adolc.h>
#endif
#include <ceres/jet.h>
#include <unsupported/Eigen/AutoDiff>

#include <array>
#include <cmath>
#include <cstddef>
#include <string_view>
#include <type_traits>
#include <vector>

namespace ad_workloads {

namespace ad = cassette::ad;
namespace autodiff = boost::math::differentiation;

// --- helpers that let one generic source serve every number type ------------------------

template <class T>
inline constexpr bool is_jet = false;
template <class T, int N>
inline constexpr bool is_jet<ceres::Jet<T, N>> = true;

// A constant: a double, except for Ceres' nested Jet<Jet<double, 1>, 1>, whose operators
// take only its own scalar type (Jet<double, 1>).
template <class T>
constexpr auto literal(double v) {
    if constexpr (is_jet<T>)
        return typename T::Scalar(v);
    else
        return v;
}

// The result as a T: Eigen's AutoDiffScalar operators return expression templates that
// refer to temporaries of the full expression, so they must not leave the function
// unevaluated. Cassette's symbolic values are the body being built: returned as they are.
template <class T, class E>
constexpr auto concrete(E const& e) {
    if constexpr (cassette::ir::expression<T>)
        return e;
    else
        return T(e);
}

// An Eigen AutoDiffScalar whose derivatives are doubles (not a nested one).
template <class T>
inline constexpr bool is_first_order_eigen = false;
template <class D>
inline constexpr bool is_first_order_eigen<Eigen::AutoDiffScalar<D>> =
    std::is_same_v<typename Eigen::AutoDiffScalar<D>::Scalar, double>;

// v^2 as each library computes it in the fewest instructions (measured, GCC 12 -O2; see
// docs/ad-benchmarks.md):
// - Cassette: the call node pow(v, 2), evaluated once (v * v would evaluate v's subtree
//   twice), as the textbook Rosenbrock formula writes it.
// - Eigen, first order: pow(v, 2), whose derivative is one scaled vector, not two.
// - Boost's fvar (its pow is a general Taylor expansion), Ceres' Jet (pow(Jet, double)
//   takes the general pow(Jet, Jet) path when nested) and nested Eigen (pow does not
//   compile): v * v on the evaluated v.
template <class T>
constexpr auto square(T const& v) {
    if constexpr (cassette::ir::expression<T>) {
        return cassette::pow(v, 2);
    } else if constexpr (is_first_order_eigen<T>) {
        using std::pow;
        return pow(v, 2);
    } else {
        return v * v;
    }
}

// --- the functions, written once (the Cassette bodies are built from the same source) -----

//[g
template <class T>
constexpr auto g(T const& x) {
    using namespace std;
    auto const one = literal<T>(1.0);
    return concrete<T>(sin(exp(x)) * log(one + x * x) / sqrt(one + square(cos(x))));
}
//]

//[rosenbrock_term
template <class T, class U>
constexpr auto rosenbrock_term(T const& xi, U const& next) {
    return concrete<T>(square(1.0 - xi) + 100.0 * square(next - square(xi)));
}
//]

// The peers' rosenbrock: sum_{i=0}^{n-2} of the term, accumulated in order.
template <class T, std::size_t N>
T rosenbrock(std::array<T, N> const& x) {
    T r(0.0);
    for (std::size_t i = 0; i + 1 < N; ++i) r = r + rosenbrock_term(x[i], x[i + 1]);
    return r;
}

//[energy
struct point {
    double x, y, z;
};

template <class T, class U, class V>
constexpr auto energy(T const& x, U const& y, V const& z) {
    using namespace std;
    return concrete<T>(0.5 * (x * x + y * y + z * z) + sin(x * y * z));
}
//]

// Cassette's traced functions: the same sources applied to symbolic values.
namespace traced {
//[traced
inline constexpr auto g = cassette::function<"g">([](auto x) { return ad_workloads::g(x); });
inline constexpr auto rosenbrock = cassette::function<"rosenbrock">([](auto x) {
    return cassette::sum(0, cassette::length(x) - 1, [=](auto i) { return rosenbrock_term(x[i], x[i + 1]); });
});
inline constexpr auto energy = cassette::function<"energy">([](auto p) {
    return ad_workloads::energy(cassette::get<0>(p), cassette::get<1>(p), cassette::get<2>(p));
});
//]
}  // namespace traced

// --- the workloads: one static member function per implementation ("row") --------------
// Each row maps its input to its result; the hand-written row is the reference.

// The gradient of the extended Rosenbrock function at x_i = 0.5 + 0.01 i.
template <std::size_t N>
struct rosenbrock_gradient {
    using array = std::array<double, N>;

    static array input() {
        array x;
        for (std::size_t i = 0; i != N; ++i) x[i] = 0.5 + 0.01 * double(i);
        return x;
    }
    static std::vector<double> input_vector() {
        array const x = input();
        return {x.begin(), x.end()};
    }

    static array hand(array const& x) {
        array grad{};
        for (std::size_t i = 0; i + 1 < N; ++i) {
            double const a = 1.0 - x[i];
            double const b = x[i + 1] - x[i] * x[i];
            grad[i] += -2.0 * a - 400.0 * x[i] * b;
            grad[i + 1] += 200.0 * b;
        }
        return grad;
    }

    //[cassette_rosenbrock
    static std::vector<double> cassette_vector(std::vector<double> const& x) {
        return ad::gradient(traced::rosenbrock, x);
    }
    static array cassette_array(array const& x) { return ad::gradient(traced::rosenbrock, x); }
    //]

    // Forward mode with one direction per pass, as Cassette: N passes, each seeding one input.
    static array boost(array const& x) {
        using fvar = autodiff::autodiff_fvar<double, 1>;
        std::array<fvar, N> v;
        for (std::size_t i = 0; i != N; ++i) v[i] = fvar(x[i], false);
        array grad;
        for (std::size_t j = 0; j != N; ++j) {
            v[j] = autodiff::make_fvar<double, 1>(x[j]);
            grad[j] = ad_workloads::rosenbrock(v).derivative(1);
            v[j] = fvar(x[j], false);
        }
        return grad;
    }

    // One pass with all N directions.
    static array jet(array const& x) {
        using jet_type = ceres::Jet<double, int(N)>;
        std::array<jet_type, N> v;
        for (std::size_t i = 0; i != N; ++i) v[i] = jet_type(x[i], int(i));
        jet_type const r = ad_workloads::rosenbrock(v);
        array grad;
        for (std::size_t i = 0; i != N; ++i) grad[i] = r.v[int(i)];
        return grad;
    }

    static array eigen(array const& x) {
        using scalar = Eigen::AutoDiffScalar<Eigen::Matrix<double, int(N), 1>>;
        std::array<scalar, N> v;
        for (std::size_t i = 0; i != N; ++i) v[i] = scalar(x[i], int(N), int(i));
        scalar const r = ad_workloads::rosenbrock(v);
        array grad;
        for (std::size_t i = 0; i != N; ++i) grad[i] = r.derivatives()[int(i)];
        return grad;
    }
};

// g'(x) at x = 0.7.
struct g_first {
    static double input() { return 0.7; }

    // g = s l r with s = sin(e), e = exp(x), l = log(u), u = 1 + x^2, r = 1 / sqrt(1 + c^2), c = cos(x).
    static double hand(double x) {
        double const e = std::exp(x), s = std::sin(e), u = 1.0 + x * x, l = std::log(u);
        double const c = std::cos(x), sn = std::sin(x), r = 1.0 / std::sqrt(1.0 + c * c);
        double const ds = std::cos(e) * e, dl = 2.0 * x / u, dr = c * sn * r * r * r;
        return (ds * l + s * dl) * r + s * l * dr;
    }

    static double cassette(double x) { return ad::derivative(traced::g, x); }

    static double boost(double x) { return ad_workloads::g(autodiff::make_fvar<double, 1>(x)).derivative(1); }

    static double jet(double x) { return ad_workloads::g(ceres::Jet<double, 1>(x, 0)).v[0]; }

    static double eigen(double x) {
        using scalar = Eigen::AutoDiffScalar<Eigen::Matrix<double, 1, 1>>;
        return ad_workloads::g(scalar(x, 1, 0)).derivatives()[0];
    }
};

// g''(x) at x = 0.7: Boost's fvar<double, 2> is second order natively; the others nest.
struct g_second {
    static double input() { return 0.7; }

    // (s l r)'' = s'' l r + s l'' r + s l r'' + 2 (s' l' r + s' l r' + s l' r'), with the
    // names of g_first::hand.
    static double hand(double x) {
        double const e = std::exp(x), s = std::sin(e), ce = std::cos(e), u = 1.0 + x * x, l = std::log(u);
        double const c = std::cos(x), sn = std::sin(x), r = 1.0 / std::sqrt(1.0 + c * c);
        double const r2 = r * r, cs = c * sn;
        double const ds = ce * e, dds = e * (ce - e * s);
        double const dl = 2.0 * x / u, ddl = 2.0 * (1.0 - x * x) / (u * u);
        double const dr = cs * r * r2, ddr = (c * c - sn * sn) * r * r2 + 3.0 * cs * cs * r * r2 * r2;
        return dds * l * r + s * ddl * r + s * l * ddr + 2.0 * (ds * dl * r + ds * l * dr + s * dl * dr);
    }

    //[cassette_g2
    static double cassette(double x) { return ad::derivative(ad::derivative(traced::g), x); }
    //]

    static double boost(double x) { return ad_workloads::g(autodiff::make_fvar<double, 2>(x)).derivative(2); }

    static double jet(double x) {
        using inner = ceres::Jet<double, 1>;
        ceres::Jet<inner, 1> v;
        v.a = inner(x, 0);
        v.v[0] = inner(1.0);
        return ad_workloads::g(v).v[0].v[0];
    }

    static double eigen(double x) {
        using inner = Eigen::AutoDiffScalar<Eigen::Matrix<double, 1, 1>>;
        using outer = Eigen::AutoDiffScalar<Eigen::Matrix<inner, 1, 1>>;
        outer const v(inner(x, 1, 0), Eigen::Matrix<inner, 1, 1>(inner(1.0, Eigen::Matrix<double, 1, 1>::Zero())));
        return ad_workloads::g(v).derivatives()[0].derivatives()[0];
    }
};

// The gradient of the energy of a point at (1, 2, 3).
struct energy_gradient {
    static point input() { return {1.0, 2.0, 3.0}; }

    static point hand(point const& p) {
        double const c = std::cos(p.x * p.y * p.z);
        return {p.x + c * p.y * p.z, p.y + c * p.x * p.z, p.z + c * p.x * p.y};
    }

    static point cassette(point const& p) { return ad::gradient(traced::energy, p); }

    // Three passes, one per coordinate.
    static point boost(point const& p) {
        using fvar = autodiff::autodiff_fvar<double, 1>;
        auto const variable = [](double v) { return autodiff::make_fvar<double, 1>(v); };
        auto const constant = [](double v) { return fvar(v, false); };
        return {ad_workloads::energy(variable(p.x), constant(p.y), constant(p.z)).derivative(1),
                ad_workloads::energy(constant(p.x), variable(p.y), constant(p.z)).derivative(1),
                ad_workloads::energy(constant(p.x), constant(p.y), variable(p.z)).derivative(1)};
    }

    static point jet(point const& p) {
        using jet_type = ceres::Jet<double, 3>;
        jet_type const r = ad_workloads::energy(jet_type(p.x, 0), jet_type(p.y, 1), jet_type(p.z, 2));
        return {r.v[0], r.v[1], r.v[2]};
    }

    static point eigen(point const& p) {
        using scalar = Eigen::AutoDiffScalar<Eigen::Vector3d>;
        scalar const r = ad_workloads::energy(scalar(p.x, 3, 0), scalar(p.y, 3, 1), scalar(p.z, 3, 2));
        return {r.derivatives()[0], r.derivatives()[1], r.derivatives()[2]};
    }
};

using rosenbrock_2 = rosenbrock_gradient<2>;
using rosenbrock_10 = rosenbrock_gradient<10>;
using rosenbrock_100 = rosenbrock_gradient<100>;

// --- reverse mode and values with derivatives: their own translation unit, as each row's
//     inlining depends on what else the unit holds (GCC's unit-growth limits) ---------------

// The Rosenbrock gradient by reverse mode, beside forward mode.
template <std::size_t N>
struct rosenbrock_reverse : rosenbrock_gradient<N> {
    using array = std::array<double, N>;

    static array cassette_forward(array const& x) { return ad::gradient(traced::rosenbrock, x); }
    //[cassette_rosenbrock_reverse
    static array cassette_reverse(array const& x) { return ad::gradient(traced::rosenbrock, x, ad::reverse); }
    // The caller's tape, kept from one gradient to the next: no allocation after the first.
    static array cassette_reverse_tape(array const& x) {
        static ad::tape tape;
        return ad::gradient(traced::rosenbrock, x, ad::reverse(tape));
    }
    //]
    static std::vector<double> cassette_reverse_vector(std::vector<double> const& x) {
        return ad::gradient(traced::rosenbrock, x, ad::reverse);
    }
#if defined(AD_WORKLOADS_REVERSE_PEERS)
    // Sacado's reverse mode records every operation on its (global) tape, then sweeps it.
    static array sacado(array const& x) {
        using var = Sacado::Rad::ADvar<double>;
        std::array<var, N> v;
        for (std::size_t i = 0; i != N; ++i) v[i] = x[i];
        // Written out: the generic source's `auto` helpers would copy Sacado's tape nodes
        // (its operators return references to them), which cuts them from the tape.
        var r = 0.0;
        for (std::size_t i = 0; i + 1 < N; ++i) {
            var const a = 1.0 - v[i];
            var const b = v[i + 1] - v[i] * v[i];
            r = r + (a * a + 100.0 * (b * b));
        }
        var::Gradcomp();
        array grad;
        for (std::size_t i = 0; i != N; ++i) grad[i] = v[i].adj();
        return grad;
    }
    // ADOL-C records its tape once (the control flow does not depend on x) and replays it.
    static array adolc(array const& x) {
        static bool const taped = [&] {
            trace_on(short(N));
            std::array<adouble, N> v;
            for (std::size_t i = 0; i != N; ++i) v[i] <<= x[i];
            double r;
            ad_workloads::rosenbrock(v) >>= r;
            trace_off();
            return true;
        }();
        array grad;
        ::gradient(short(N), int(N), x.data(), grad.data());
        return taped ? grad : array{};
    }
#endif
    // The hand-written gradient into a std::vector: the allocation every vector row makes.
    static std::vector<double> hand_vector(std::vector<double> const& x) {
        std::vector<double> grad(x.size());
        for (std::size_t i = 0; i + 1 < x.size(); ++i) {
            double const a = 1.0 - x[i];
            double const b = x[i + 1] - x[i] * x[i];
            grad[i] += -2.0 * a - 400.0 * x[i] * b;
            grad[i + 1] += 200.0 * b;
        }
        return grad;
    }
};

// The energy gradient of a plain struct by reverse mode.
struct energy_reverse : energy_gradient {
#if defined(AD_WORKLOADS_REVERSE_PEERS)
    static point sacado(point const& p) {
        using var = Sacado::Rad::ADvar<double>;
        var x = p.x, y = p.y, z = p.z;
        var const r = ad_workloads::energy(x, y, z);
        var::Gradcomp();
        return {x.adj(), y.adj(), z.adj()};
    }
    static point adolc(point const& p) {
        static bool const taped = [&] {
            trace_on(2001);
            adouble x, y, z;
            x <<= p.x;
            y <<= p.y;
            z <<= p.z;
            double r;
            adouble(ad_workloads::energy(x, y, z)) >>= r;
            trace_off();
            return true;
        }();
        double const in[3] = {p.x, p.y, p.z};
        double g[3];
        ::gradient(2001, 3, in, g);
        return taped ? point{g[0], g[1], g[2]} : point{};
    }
#endif
    static point cassette_forward(point const& p) { return ad::gradient(traced::energy, p); }
    static point cassette_reverse(point const& p) { return ad::gradient(traced::energy, p, ad::reverse); }
    static point cassette_reverse_tape(point const& p) {
        static ad::tape tape;
        return ad::gradient(traced::energy, p, ad::reverse(tape));
    }
};

//[gaussian
struct normal {
    double mu, sigma;
};

// The log-likelihood of the data under N(mu, sigma^2), without its constant term.
namespace traced {
inline constexpr auto log_likelihood = cassette::function<"log_likelihood">([](auto theta, auto data) {
    auto const mu = cassette::get<0>(theta);
    auto const sigma = cassette::get<1>(theta);
    return cassette::sum(0, cassette::length(data), [=](auto i) {
        auto const z = (data[i] - mu) / sigma;
        return -0.5 * z * z - cassette::log(sigma);
    });
});
}  // namespace traced
//]

// Its gradient with respect to (mu, sigma) at (1, 2), for 1,000 observations.
struct gaussian_gradient {
    static std::vector<double> const& data() {
        static std::vector<double> const d = [] {
            std::vector<double> v(1000);
            for (std::size_t i = 0; i != v.size(); ++i) v[i] = 1.0 + std::sin(double(i));
            return v;
        }();
        return d;
    }
    static normal input() { return {1.0, 2.0}; }

    // d/dmu = sum (x - mu) / sigma^2, d/dsigma = sum ((x - mu)^2 / sigma^3 - 1 / sigma).
    static normal hand(normal const& t) {
        double dmu = 0, dsigma = 0;
        for (double x : data()) {
            double const z = (x - t.mu) / t.sigma;
            dmu += z / t.sigma;
            dsigma += z * z / t.sigma - 1.0 / t.sigma;
        }
        return {dmu, dsigma};
    }
#if defined(AD_WORKLOADS_REVERSE_PEERS)
    static normal sacado(normal const& t) {
        using var = Sacado::Rad::ADvar<double>;
        var mu = t.mu, sigma = t.sigma;
        var r = 0.0;
        for (double x : data()) {
            var const z = (x - mu) / sigma;
            r = r + (-0.5 * z * z - log(sigma));
        }
        var::Gradcomp();
        return {mu.adj(), sigma.adj()};
    }
    static normal adolc(normal const& t) {
        static bool const taped = [&] {
            trace_on(3001);
            adouble mu, sigma;
            mu <<= t.mu;
            sigma <<= t.sigma;
            adouble r = 0.0;
            for (double x : data()) {
                adouble const z = (x - mu) / sigma;
                r += -0.5 * z * z - log(sigma);
            }
            double y;
            r >>= y;
            trace_off();
            return true;
        }();
        double const in[2] = {t.mu, t.sigma};
        double g[2];
        ::gradient(3001, 2, in, g);
        return taped ? normal{g[0], g[1]} : normal{};
    }
#endif
    static normal cassette_forward(normal const& t) { return ad::gradient(traced::log_likelihood, t, data()); }
    //[cassette_gaussian_reverse
    static normal cassette_reverse(normal const& t) {
        return ad::gradient(traced::log_likelihood, t, ad::reverse, data());
    }
    //]
    static normal cassette_reverse_tape(normal const& t) {
        static ad::tape tape;
        return ad::gradient(traced::log_likelihood, t, ad::reverse(tape), data());
    }
};

struct value_derivative {
    double value, derivative;
};

// g and g' at x = 0.7 together, as an optimiser asks for them.
struct g_value_first {
    static double input() { return 0.7; }
    static value_derivative hand(double x) { return {ad_workloads::g(x), g_first::hand(x)}; }
    //[cassette_value_and_derivative
    static ad::value_and_derivative_result<double, double> cassette(double x) {
        return ad::value_and_derivative(traced::g, x);
    }
    //]
    static value_derivative cassette_two_calls(double x) { return {traced::g(x), ad::derivative(traced::g, x)}; }
};

using rosenbrock_reverse_2 = rosenbrock_reverse<2>;
using rosenbrock_reverse_5 = rosenbrock_reverse<5>;
using rosenbrock_reverse_10 = rosenbrock_reverse<10>;
using rosenbrock_reverse_100 = rosenbrock_reverse<100>;
using rosenbrock_reverse_1000 = rosenbrock_reverse<1000>;

// Sacado and ADOL-C, the reverse-mode peers, when found (benchmarks/ad_peers.cmake).
#if defined(AD_WORKLOADS_REVERSE_PEERS)
#define AD_WORKLOADS_REVERSE_PEER_ROWS(X, W) X(W, sacado, input) X(W, adolc, input)
#else
#define AD_WORKLOADS_REVERSE_PEER_ROWS(X, W)
#endif
#define AD_WORKLOADS_REVERSE_ROSENBROCK_ROWS(X, W)                                                    \
    X(W, hand, input) X(W, hand_vector, input_vector) X(W, cassette_forward, input)                   \
    X(W, cassette_reverse, input) X(W, cassette_reverse_tape, input) X(W, cassette_reverse_vector, input_vector) \
    AD_WORKLOADS_REVERSE_PEER_ROWS(X, W)
#define AD_WORKLOADS_REVERSE_STRUCT_ROWS(X, W)                                              \
    X(W, hand, input) X(W, cassette_forward, input) X(W, cassette_reverse, input) \
    X(W, cassette_reverse_tape, input)
#define AD_WORKLOADS_REVERSE_ROWS(X)                                                                    \
    AD_WORKLOADS_REVERSE_ROSENBROCK_ROWS(X, rosenbrock_reverse_2)                                       \
    AD_WORKLOADS_REVERSE_ROSENBROCK_ROWS(X, rosenbrock_reverse_5)                                       \
    AD_WORKLOADS_REVERSE_ROSENBROCK_ROWS(X, rosenbrock_reverse_10)                                      \
    AD_WORKLOADS_REVERSE_ROSENBROCK_ROWS(X, rosenbrock_reverse_100)                                     \
    AD_WORKLOADS_REVERSE_ROSENBROCK_ROWS(X, rosenbrock_reverse_1000)                                    \
    AD_WORKLOADS_REVERSE_STRUCT_ROWS(X, energy_reverse) AD_WORKLOADS_REVERSE_PEER_ROWS(X, energy_reverse) \
    AD_WORKLOADS_REVERSE_STRUCT_ROWS(X, gaussian_gradient) AD_WORKLOADS_REVERSE_PEER_ROWS(X, gaussian_gradient) \
    X(g_value_first, hand, input) X(g_value_first, cassette, input) X(g_value_first, cassette_two_calls, input)

inline constexpr std::string_view reverse_workload_names[] = {"rosenbrock_reverse_2", "rosenbrock_reverse_5",
                                                              "rosenbrock_reverse_10", "rosenbrock_reverse_100",
                                                              "rosenbrock_reverse_1000", "energy_reverse",
                                                              "gaussian_gradient", "g_value_first"};

// Every row: X(workload, implementation, input function). The implementations are hand,
// then Cassette's (names starting with "cassette"), then the peers.
#define AD_WORKLOADS_ROSENBROCK_ROWS(X, W)                                          \
    X(W, hand, input) X(W, cassette_vector, input_vector) X(W, cassette_array, input) \
    X(W, boost, input) X(W, jet, input) X(W, eigen, input)
#define AD_WORKLOADS_SCALAR_ROWS(X, W) \
    X(W, hand, input) X(W, cassette, input) X(W, boost, input) X(W, jet, input) X(W, eigen, input)
#define AD_WORKLOADS_ROWS(X)                         \
    AD_WORKLOADS_ROSENBROCK_ROWS(X, rosenbrock_2)    \
    AD_WORKLOADS_ROSENBROCK_ROWS(X, rosenbrock_10)   \
    AD_WORKLOADS_ROSENBROCK_ROWS(X, rosenbrock_100)  \
    AD_WORKLOADS_SCALAR_ROWS(X, g_first)             \
    AD_WORKLOADS_SCALAR_ROWS(X, g_second)            \
    AD_WORKLOADS_SCALAR_ROWS(X, energy_gradient)

inline constexpr std::string_view workload_names[] = {"rosenbrock_2", "rosenbrock_10", "rosenbrock_100",
                                                      "g_first",      "g_second",      "energy_gradient"};

enum class kind { hand, cassette, peer };

constexpr kind kind_of(std::string_view implementation) {
    if (implementation.starts_with("hand")) return kind::hand;
    if (implementation.starts_with("cassette")) return kind::cassette;
    return kind::peer;
}

// The results as doubles, to compare them.
inline std::vector<double> flatten(double r) { return {r}; }
inline std::vector<double> flatten(point const& r) { return {r.x, r.y, r.z}; }
inline std::vector<double> flatten(normal const& r) { return {r.mu, r.sigma}; }
inline std::vector<double> flatten(value_derivative const& r) { return {r.value, r.derivative}; }
inline std::vector<double> flatten(ad::value_and_derivative_result<double, double> const& r) {
    return {r.value, r.derivative};
}
template <class R>
std::vector<double> flatten(R const& r) {
    return {r.begin(), r.end()};
}

}  // namespace ad_workloads
