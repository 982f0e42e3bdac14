// expect: called with a number of arguments its builder does not take
// expect: "product"
// The same mistake through overdub.
#include <cassette/cassette.hpp>

inline constexpr auto product = cassette::function<"product">([](auto x, auto y) { return x * y; });

int main() {
#ifdef CASSETTE_PASSING_TWIN
    return cassette::overdub(cassette::null_context{}, product, 2.0, 3.0) == 6.0 ? 0 : 1;
#else
    return cassette::overdub(cassette::null_context{}, product, 2.0) == 6.0 ? 0 : 1;
#endif
}
