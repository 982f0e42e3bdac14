// expect: the pass of the context named in this instantiation returned something that is not an IR expression
// expect: bad_pass
// A pass must map a body to a body.
#include <cassette/cassette.hpp>
#include <cassette/passes.hpp>

inline constexpr auto square = cassette::function<"square">([](auto x) { return x * x; });

struct bad_pass {
#ifdef CASSETTE_PASSING_TWIN
    static constexpr auto pass = [](auto const& body) { return body; };
#else
    static constexpr auto pass = [](auto const&) { return 42; };
#endif
};

int main() { return cassette::overdub(bad_pass{}, square, 3) == 9 ? 0 : 1; }
