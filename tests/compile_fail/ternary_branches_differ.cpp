// expect: symbolic value has no truth value
// expect: cassette::if_
// `?:` on a symbolic condition with branches of different node types: the library's message
// comes before the compiler's complaint about the operands' types.
#include <cassette/cassette.hpp>

inline constexpr auto f = cassette::function<"f">([](auto x) {
#ifdef CASSETTE_PASSING_TWIN
    return cassette::if_(x < 1.0, x, x * 2.0);
#else
    return x < 1.0 ? x : x * 2.0;
#endif
});

int main() { return f(0.5) == 0.5 ? 0 : 1; }
