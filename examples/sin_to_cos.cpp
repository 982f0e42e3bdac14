// A contextual primitive: under SinToCos every call to sin computes cos instead, however
// deep in the call graph it is; outside the context nothing changes.
#include <cassette/cassette.hpp>

#include <cmath>
#include <iostream>

//[sin_to_cos
inline constexpr auto square = cassette::function<"square">([](auto x) { return x * x; });
inline constexpr auto f = cassette::function<"f">([](auto x, auto y) { return square(x) + cassette::sin(y); });

struct SinToCos {
    double overdub(cassette::op::sin_t, double x) { return std::cos(x); }
};
//]

int main() {
    //[sin_to_cos_run
    std::cout << "f(2, 0.5)               = " << f(2.0, 0.5) << '\n';                       // 4 + sin(0.5)
    std::cout << "overdub(SinToCos, f...) = " << cassette::overdub(SinToCos{}, f, 2.0, 0.5) << '\n';  // 4 + cos(0.5)
    //]
}
