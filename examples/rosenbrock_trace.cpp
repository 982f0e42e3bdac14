// Trace logging of the Rosenbrock function: a printer context prints every call made
// inside the function, recursively, while it runs.
#include <cassette/cassette.hpp>

#include <iostream>
#include <vector>

//[rosenbrock
inline constexpr auto rosenbrock = cassette::function<"rosenbrock">([](auto x) {
    constexpr double a = 1.0, b = 100.0;
    return cassette::sum(0, cassette::length(x) - 1, [=](auto i) {
        return cassette::pow(a - x[i], 2) + b * cassette::pow(x[i + 1] - cassette::pow(x[i], 2), 2);
    });
});
//]

int main() {
    //[print_ctx
    std::vector<double> const x{0.9, 0.75};
    double const r = cassette::overdub(cassette::contexts::printer{std::cout}, rosenbrock, x);
    std::cout << r << '\n';
    //]
}
