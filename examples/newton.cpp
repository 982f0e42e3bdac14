// Newton's method twice: a root of x^3 - 2 with derivative, and the minimum of rosenbrock
// with its gradient and Hessian.
#include <cassette/ad.hpp>
#include <cassette/cassette.hpp>

#include <array>
#include <cmath>
#include <iomanip>
#include <iostream>

//[newton
namespace ad = cassette::ad;

inline constexpr auto cubic = cassette::function<"cubic">([](auto x) { return x * x * x - 2.0; });

inline constexpr auto rosenbrock = cassette::function<"rosenbrock">([](auto x) {
    return cassette::pow(1.0 - x[0], 2) + 100.0 * cassette::pow(x[1] - x[0] * x[0], 2);
});

int main() {
    double x = 1.0;
    for (int k = 1; k <= 5; ++k) {
        x -= cubic(x) / ad::derivative(cubic, x);
        std::cout << "x" << k << " = " << std::setprecision(10) << x << '\n';
    }

    std::array<double, 2> p{-1.2, 1.0};
    for (int k = 0; k != 20; ++k) {  // p -= H^-1 g
        auto const g = ad::gradient(rosenbrock, p);
        auto const H = ad::hessian(rosenbrock, p);
        double const det = H[0][0] * H[1][1] - H[0][1] * H[1][0];
        p[0] -= (H[1][1] * g[0] - H[0][1] * g[1]) / det;
        p[1] -= (H[0][0] * g[1] - H[1][0] * g[0]) / det;
    }
    std::cout << "minimum at (" << p[0] << ", " << p[1] << ")\n";
}
//]
