// expect: symbolic value has no truth value
// expect: cassette::if_
// `?:` on a symbolic condition is the same mistake as `if`. (With branches of different
// node types the compiler first reports their mismatch; here both are the parameter.)
#include <cassette/cassette.hpp>

inline constexpr auto clamp0 = cassette::function<"clamp0">([](auto x) {
#ifdef CASSETTE_PASSING_TWIN
    return cassette::if_(x < 0, x, x) * 2.0;
#else
    return (x < 0 ? x : x) * 2.0;
#endif
});

int main() { return clamp0(1.5) > 0 ? 0 : 1; }
