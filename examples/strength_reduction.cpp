// A pass that rewrites bodies before they run: pow(x, 2) becomes square(x), x * x in pow's
// result type, in every traced function the context enters.
#include <cassette/cassette.hpp>

#include <iostream>

//[strength
inline constexpr auto norm = cassette::function<"norm">([](auto x, auto y) {
    return cassette::pow(cassette::pow(x - 1.0, 2) + cassette::pow(y, 2), 0.5);
});

struct Reduced {
    static constexpr auto pass = cassette::passes::strength_reduction;
};

int main() {
    Reduced reduced;
    std::cout << cassette::code_lowered(norm, 4.0, 4.0);
    std::cout << cassette::code_overdubbed(cassette::disable_hooks(reduced), norm, 4.0, 4.0);
    std::cout << norm(4.0, 4.0) << " == " << cassette::overdub(reduced, norm, 4.0, 4.0) << '\n';
}
//]
