// The README's taste of the library, compiled and checked here.
//[taste
#include <cassette/cassette.hpp>
#include <cmath>
#include <iostream>

inline constexpr auto square = cassette::function<"square">([](auto x) { return x * x; });
inline constexpr auto f = cassette::function<"f">([](auto x, auto y) {
    return square(x) + cassette::sin(y);        // call nodes: square, then sin, then +
});

struct SinToCos {                               // a contextual primitive
    double overdub(cassette::op::sin_t, double x) { return std::cos(x); }
};

int main() {
    std::cout << f(2.0, 0.5) << '\n';                                   // 4 + sin(0.5)
    std::cout << cassette::overdub(SinToCos{}, f, 2.0, 0.5) << '\n';    // 4 + cos(0.5)
    cassette::contexts::printer print{std::cout};                       // one line per call:
    cassette::overdub(print, f, 2.0, 0.5);      // square(2) *(2, 2) sin(0.5) +(4, 0.479426)
}
//]
