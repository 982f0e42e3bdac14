// expect: called with a number of arguments its builder does not take
// expect: "product"
// The same mistake through ad::derivative (the rest arguments forgotten).
#include <cassette/cassette.hpp>

inline constexpr auto product = cassette::function<"product">([](auto x, auto y) { return x * y; });

int main() {
#ifdef CASSETTE_PASSING_TWIN
    return cassette::ad::derivative(product, 2.0, 3.0) == 3.0 ? 0 : 1;
#else
    return cassette::ad::derivative(product, 2.0) == 3.0 ? 0 : 1;
#endif
}
