// expect: symbolic value has no truth value
// expect: cassette::if_
// A native `if` on a symbolic value whose branches return different node types: the library's
// message comes before the compiler's complaint about the lambda's return type.
#include <cassette/cassette.hpp>

inline constexpr auto f = cassette::function<"f">([](auto x) {
#ifdef CASSETTE_PASSING_TWIN
    return cassette::if_(x < 1.0, x, x * 2.0);
#else
    if (x < 1.0) return x;
    else return x * 2.0;
#endif
});

int main() { return f(0.5) == 0.5 ? 0 : 1; }
