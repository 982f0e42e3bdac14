// expect: always calls itself. give it a base case
// A recursion with no base case.
#include <cassette/cassette.hpp>

inline constexpr auto f = cassette::function<"f">([](auto x, auto n) {
#ifdef CASSETTE_PASSING_TWIN
    return cassette::if_(n == 0, x, cassette::self(x * 2.0, n - 1));
#else
    return cassette::self(x * 2.0, n - 1);
#endif
});

int main() { return f(0.5, 2) == 2.0 ? 0 : 1; }
