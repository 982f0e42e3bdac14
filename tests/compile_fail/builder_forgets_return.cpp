// expect: returns nothing: did you forget .return.
// expect: "f"
// A builder without `return`.
#include <cassette/cassette.hpp>

inline constexpr auto f = cassette::function<"f">([](auto x) {
#ifdef CASSETTE_PASSING_TWIN
    return x * 2.0;
#else
    x * 2.0;
#endif
});

int main() { return f(0.5) == 1.0 ? 0 : 1; }
