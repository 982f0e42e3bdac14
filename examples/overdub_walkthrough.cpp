// Cassette.jl's walk-through of overdub(Ctx(), /, 1, 2): the lowered body of a small function,
// then the same body as overdub runs it, each call wrapped in prehook/overdub/posthook.
#include <cassette/cassette.hpp>

#include <iostream>
#include <string_view>

//[walkthrough
// Julia's `/` on integers converts both to float, then divides.
struct to_float_t {
    static constexpr std::string_view name = "float";
    constexpr double operator()(auto x) const { return static_cast<double>(x); }
};
inline constexpr to_float_t to_float{};

inline constexpr auto divide = cassette::function<"/">([](auto x, auto y) {
    return cassette::call(to_float, x) / cassette::call(to_float, y);
});

struct Ctx {};

int main() {
    std::cout << cassette::code_lowered(divide, 1, 2);
    std::cout << cassette::code_overdubbed(Ctx{}, divide, 1, 2);
    std::cout << "overdub(Ctx(), /, 1, 2) = " << cassette::overdub(Ctx{}, divide, 1, 2) << '\n';
}
//]
