// expect: symbolic value has no truth value
// expect: cassette::if_
// A native `if` on a symbolic value cannot be recorded: the error names cassette::if_.
#include <cassette/cassette.hpp>

inline constexpr auto relu = cassette::function<"relu">([](auto x) {
#ifdef CASSETTE_PASSING_TWIN
    return cassette::if_(x < 0, 0.0, x);
#else
    if (x < 0) return 0.0;
    return 1.0;
#endif
});

int main() { return relu(1.5) > 0 ? 0 : 1; }
