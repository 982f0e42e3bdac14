// expect: cassette::ad::static_adjoint: f's body needs a tape
// expect: use ad::reverse
// Forcing the static adjoint on a body it cannot handle (a fold that multiplies its
// accumulator) is a compile error that says what to write instead.
#include <cassette/ad.hpp>
#include <cassette/cassette.hpp>

#include <array>

inline constexpr auto product = cassette::function<"product">([](auto x) {
#ifdef CASSETTE_PASSING_TWIN
    return cassette::fold(0, cassette::length(x), 0.0, [=](auto i, auto acc) { return acc + x[i]; });
#else
    return cassette::fold(0, cassette::length(x), 1.0, [=](auto i, auto acc) { return acc * x[i]; });
#endif
});

int main() {
    auto const g = cassette::ad::gradient(product, std::array{1.0, 2.0}, cassette::ad::static_adjoint);
    return g[0] > 0 ? 0 : 1;
}
