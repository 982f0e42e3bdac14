// expect: a call node's callee cannot be called with its arguments
// expect: replacing_sin
// A pass whose rewritten call cannot be evaluated is rejected where the call is made,
// in an instantiation that names the context and so its pass.
#include <cassette/cassette.hpp>
#include <cassette/passes.hpp>

#include <cmath>

struct two_arguments {
    double operator()(double x, double y) const { return std::atan2(x, y); }
};
struct one_argument {
    double operator()(double x) const { return std::cos(x); }
};

inline constexpr auto wave = cassette::function<"wave">([](auto x) { return cassette::sin(x) * 2.0; });

struct replacing_sin {
#ifdef CASSETTE_PASSING_TWIN
    static constexpr auto pass = cassette::passes::replace(cassette::sin, one_argument{});
#else
    static constexpr auto pass = cassette::passes::replace(cassette::sin, two_arguments{});
#endif
};

int main() { return cassette::overdub(replacing_sin{}, wave, 0.0) == 2.0 ? 0 : 1; }
