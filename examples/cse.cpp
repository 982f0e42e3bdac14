// Common-subexpression elimination: a pure subtree written twice is evaluated once.
#include <cassette/cassette.hpp>

#include <iostream>

//[cse
inline constexpr auto energy = cassette::function<"energy">([](auto x, auto y) {
    auto r2 = x * x + y * y;  // a body is a tree: r2 is evaluated at each use
    return cassette::exp(-r2) * r2 + cassette::sqrt(r2);
});

struct Counted {
    int calls = 0;
    void prehook(auto const&, auto const&...) { ++calls; }
};
struct Shared : Counted {
    static constexpr auto pass = cassette::passes::cse;
};

int main() {
    Counted counted;
    Shared shared;
    double const a = cassette::overdub(counted, energy, 0.5, 1.5);
    double const b = cassette::overdub(shared, energy, 0.5, 1.5);
    std::cout << a << " == " << b << '\n';
    std::cout << "calls without CSE: " << counted.calls << ", with CSE: " << shared.calls << '\n';
    std::cout << cassette::code_overdubbed(cassette::disable_hooks(shared), energy, 0.5, 1.5);
}
//]
