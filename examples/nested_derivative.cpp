// Nested derivatives, with no perturbation confusion: each differentiation tags with a
// context of its own, so an inner derivative never mistakes the outer tangent for its own.
#include <cassette/ad.hpp>
#include <cassette/cassette.hpp>

#include <iostream>

//[nested
namespace ad = cassette::ad;

// g(x) = x * d/dy (x + y) = x, so g'(1) = 1 (a confused implementation answers 2).
inline constexpr auto g = cassette::function<"g">([](auto x) {
    return x * ad::derivative([=](auto y) { return x + y; }, 1.0);
});

// h(x) = x * d/dy (x * y) = x^2, so h'(1) = 2 (Siskind and Pearlmutter's example).
inline constexpr auto h = cassette::function<"h">([](auto x) {
    return x * ad::derivative([=](auto y) { return x * y; }, 2.0);
});

inline constexpr auto quartic = cassette::function<"quartic">([](auto x) { return x * x * x * x; });

int main() {
    std::cout << "g'(1) = " << ad::derivative(g, 1.0) << '\n';
    std::cout << "h'(1) = " << ad::derivative(h, 1.0) << '\n';
    // derivative(f) is a traced function, so it nests: x^4 -> 4x^3 -> 12x^2 -> 24x.
    std::cout << "quartic'''(2) = " << ad::derivative(ad::derivative(ad::derivative(quartic)), 2.0) << '\n';
}
//]
