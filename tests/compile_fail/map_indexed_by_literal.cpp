// expect: a call node.s callee cannot be called with its arguments
// A std::map argument indexed by a string literal: arguments are bound by const reference,
// and std::map has no const operator[]; the library says the call cannot be made.
#include <cassette/cassette.hpp>

#include <map>
#include <string>

inline constexpr auto f = cassette::function<"f">([](auto m) {
#ifdef CASSETTE_PASSING_TWIN
    return cassette::call([](auto const& map, char const* key) { return map.at(key); }, m, "a") * 2.0;
#else
    return m["a"] * 2.0;
#endif
});

int main() { return f(std::map<std::string, double>{{"a", 1.0}}) == 2.0 ? 0 : 1; }
