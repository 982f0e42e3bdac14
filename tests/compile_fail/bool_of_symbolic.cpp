// expect: symbolic value has no truth value
// expect: cassette::if_
// bool(x) on a symbolic value cannot be recorded.
#include <cassette/cassette.hpp>

inline constexpr auto f = cassette::function<"f">([](auto x) {
#ifdef CASSETTE_PASSING_TWIN
    return cassette::if_(x != 0.0, 1.0, 2.0);
#else
    return bool(x) ? 1.0 : 2.0;
#endif
});

int main() { return f(0.5) == 1.0 ? 0 : 1; }
