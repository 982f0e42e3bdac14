// expect: the pass of the context named in this instantiation returned something that is not an IR expression
// expect: forgetful
// A pass that forgets `return` returns void.
#include <cassette/cassette.hpp>

inline constexpr auto f = cassette::function<"f">([](auto x) { return x * 2.0; });

struct forgetful {
#ifdef CASSETTE_PASSING_TWIN
    static constexpr auto pass = [](auto const& body) { return cassette::passes::fold_constants(body); };
#else
    static constexpr auto pass = [](auto const& body) { cassette::passes::fold_constants(body); };
#endif
};

int main() { return cassette::overdub(forgetful{}, f, 0.5) == 1.0 ? 0 : 1; }
