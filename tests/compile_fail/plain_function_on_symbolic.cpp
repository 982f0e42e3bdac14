// expect: a symbolic value was passed to a plain C.. function
// expect: cassette::call
// A plain C++ function called on a symbolic value: the library says to record it with call.
#include <cassette/cassette.hpp>

inline double twice(double x) { return 2 * x; }

inline constexpr auto f = cassette::function<"f">([](auto x) {
#ifdef CASSETTE_PASSING_TWIN
    return cassette::call(&twice, x) + 1.0;
#else
    return twice(x) + 1.0;
#endif
});

int main() { return f(0.5) == 2.0 ? 0 : 1; }
