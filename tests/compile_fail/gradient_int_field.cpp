// expect: the input x has a part that is not a floating-point number
// expect: int
// gradient with respect to a struct with an int field would truncate its derivative: refused.
#include <cassette/cassette.hpp>

struct counted {
    double x;
#ifdef CASSETTE_PASSING_TWIN
    double n;
#else
    int n;
#endif
};

int main() {
    auto const g = cassette::ad::gradient([](auto p) { return cassette::get<0>(p) * cassette::get<1>(p); }, counted{1.5, 2});
    return g.x == 2.0 ? 0 : 1;
}
