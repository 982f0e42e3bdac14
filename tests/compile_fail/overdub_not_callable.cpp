// expect: a call node.s callee cannot be called with its arguments
// overdub on something that cannot be called says so first.
#include <cassette/cassette.hpp>

int main() {
#ifdef CASSETTE_PASSING_TWIN
    auto const f = [](double x) { return x; };
#else
    int const f = 42;
#endif
    return cassette::overdub(cassette::null_context{}, f, 1.0) == 1.0 ? 0 : 1;
}
