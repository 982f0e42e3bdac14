// expect: called with a number of arguments its builder does not take
// expect: "product"
// A wrong arity inside another builder names the callee, and only the callee: the caller's
// builder is not blamed for it.
#include <cassette/cassette.hpp>

inline constexpr auto product = cassette::function<"product">([](auto x, auto y) { return x * y; });
inline constexpr auto g = cassette::function<"g">([](auto x) {
#ifdef CASSETTE_PASSING_TWIN
    return product(x, x) + 1.0;
#else
    return product(x) + 1.0;
#endif
});

int main() { return g(2.0) == 5.0 ? 0 : 1; }
