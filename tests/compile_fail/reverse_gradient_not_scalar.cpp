// expect: cassette::ad::gradient\(f, x, ad::reverse\): f returns an array, a vector or an aggregate
// expect: use cassette::ad::jacobian\(f, x, ad::reverse\)
// The gradient of a function that does not return a number is a compile error naming the
// function to use instead, for the static adjoint and for the tape alike.
#include <cassette/ad.hpp>
#include <cassette/cassette.hpp>

#include <array>

inline constexpr auto twice = cassette::function<"twice">([](auto x) {
#ifdef CASSETTE_PASSING_TWIN
    return x[0] + x[1];
#else
    return cassette::make<std::array<double, 2>>(x[0], x[1]);
#endif
});

int main() {
    auto const g = cassette::ad::gradient(twice, std::array{1.0, 2.0}, cassette::ad::reverse);
    return g[0] > 0 ? 0 : 1;
}
