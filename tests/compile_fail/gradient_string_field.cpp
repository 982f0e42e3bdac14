// expect: the input x has a part that is not a floating-point number
// expect: basic_string
// gradient with respect to a struct with a std::string field: the library names the field's
// type before Boost.PFR tries to reflect a std::string.
#include <cassette/cassette.hpp>

#include <string>

struct labelled {
    double x;
#ifndef CASSETTE_PASSING_TWIN
    std::string label;
#endif
};

int main() {
    auto const g = cassette::ad::gradient([](auto p) { return cassette::get<0>(p) * 2.0; }, labelled{1.0});
    return g.x == 2.0 ? 0 : 1;
}
