// fold_constants evaluates, at compile time, every call whose arguments are all constants;
// the listing before and after shows what is left to run.
#include <cassette/cassette.hpp>

#include <iostream>

//[folding
// ir::constant keeps a plain value symbolic, so that the arithmetic on it is recorded
// (plain C++ arithmetic in a builder is simply computed while building).
inline constexpr auto scaled = cassette::function<"scaled">([](auto x) {
    auto const two = cassette::ir::constant(2);
    return x * (two * 3 + 1) - cassette::max(two, 9) / 3;
});

struct Folded {
    static constexpr auto pass = cassette::passes::fold_constants;
};

int main() {
    Folded folded;
    std::cout << cassette::code_lowered(scaled, 5);
    std::cout << cassette::code_overdubbed(cassette::disable_hooks(folded), scaled, 5);
    std::cout << scaled(5) << " == " << cassette::overdub(folded, scaled, 5) << '\n';
}
//]
