// expect: a symbolic value was passed to a plain C.. function
// expect: cassette::sin
// Qualified std::sin on a symbolic value cannot record a call.
#include <cassette/cassette.hpp>

#include <cmath>

inline constexpr auto f = cassette::function<"f">([](auto x) {
#ifdef CASSETTE_PASSING_TWIN
    using std::sin;
    return sin(x) * 2.0;
#else
    return std::sin(x) * 2.0;
#endif
});

int main() { return f(0.0) == 0.0 ? 0 : 1; }
