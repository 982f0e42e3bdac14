// expect: called with a number of arguments its builder does not take
// expect: "square"
// A traced function called with the wrong number of arguments: the error names it.
#include <cassette/cassette.hpp>

inline constexpr auto square = cassette::function<"square">([](auto x) { return x * x; });

int main() {
#ifdef CASSETTE_PASSING_TWIN
    return square(2.0) == 4.0 ? 0 : 1;
#else
    return square(2.0, 3.0) == 4.0 ? 0 : 1;
#endif
}
