// expect: an argument of this call is cassette::nothing
// expect: Return the value
// A member overdub that returns void where the call's value is used.
#include <cassette/cassette.hpp>

#include <cmath>

struct quiet_sin {
#ifdef CASSETTE_PASSING_TWIN
    double overdub(cassette::op::sin_t, double x) { return std::sin(x); }
#else
    void overdub(cassette::op::sin_t, double) {}
#endif
};

inline constexpr auto f = cassette::function<"f">([](auto x) { return cassette::sin(x) * 2.0; });

int main() { return cassette::overdub(quiet_sin{}, f, 0.0) == 0.0 ? 0 : 1; }
