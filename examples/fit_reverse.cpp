// Fits y = a exp(-b t) + c to samples by gradient descent, with the loss and its gradient from
// reverse mode: the adjoint generated at compile time from the loss's body.
#include <cassette/ad.hpp>
#include <cassette/cassette.hpp>

#include <cmath>
#include <cstdio>
#include <vector>

//[fit
namespace ad = cassette::ad;

struct model {
    double a, b, c;
};

// The mean squared error of the model on the samples (t_k, y_k).
inline constexpr auto loss = cassette::function<"loss">([](auto m, auto t, auto y) {
    auto const a = cassette::get<0>(m);
    auto const b = cassette::get<1>(m);
    auto const c = cassette::get<2>(m);
    auto const n = cassette::length(t);
    return cassette::sum(0, n, [=](auto k) {
               auto const r = a * cassette::exp(-b * t[k]) + c - y[k];
               return r * r;
           }) / n;
});

int main() {
    std::vector<double> t, y;
    for (int k = 0; k != 40; ++k) {
        t.push_back(0.1 * k);
        y.push_back(2.0 * std::exp(-1.3 * t.back()) + 0.5);
    }
    model m{1.0, 1.0, 0.0};
    for (int step = 0; step <= 1000; ++step) {
        auto const [value, g] = ad::value_and_gradient(loss, m, ad::reverse, t, y);
        if (step % 250 == 0) std::printf("step %5d  loss %.3e\n", step, value);
        m = {m.a - 0.5 * g.a, m.b - 0.5 * g.b, m.c - 0.5 * g.c};
    }
    std::printf("a = %.4f, b = %.4f, c = %.4f (fitted to a = 2, b = 1.3, c = 0.5)\n", m.a, m.b, m.c);
}
//]
