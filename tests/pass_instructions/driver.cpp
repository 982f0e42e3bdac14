// One body with repeated subexpressions and fractional powers, run 1000 times under each
// pass, for callgrind: pass_driver <variant> prints the sum of the results.
#include <cassette/cassette.hpp>

#include <cmath>
#include <cstdio>
#include <cstring>

namespace {

inline constexpr auto repeated = cassette::function<"repeated">([](auto x, auto y) {
    auto r2 = x * x + y * y;  // a tree: evaluated at each of its four uses
    return cassette::sin(r2) * cassette::pow(r2, 0.5) + cassette::sin(r2) / (1.0 + cassette::pow(r2, 0.5));
});

template <auto const& Pass>
struct with {
    static constexpr auto pass = Pass;
};
inline constexpr auto identity = [](auto const& body) { return body; };
inline constexpr auto both = cassette::passes::compose(cassette::passes::cse, cassette::passes::strength_reduction);

template <class Ctx>
double run() {
    double s = 0;
    for (int i = 0; i != 1000; ++i) s += cassette::overdub(Ctx{}, repeated, 0.001 * i, 0.5);
    return s;
}

}  // namespace

#if defined(__clang__)
#define PASS_BOUNDARY [[gnu::noinline]]
#else
#define PASS_BOUNDARY [[gnu::noinline, gnu::noipa]]
#endif
extern "C" PASS_BOUNDARY double pass_null_context() { return run<cassette::null_context>(); }
extern "C" PASS_BOUNDARY double pass_identity() { return run<with<identity>>(); }
extern "C" PASS_BOUNDARY double pass_cse() { return run<with<cassette::passes::cse>>(); }
extern "C" PASS_BOUNDARY double pass_strength() { return run<with<cassette::passes::strength_reduction>>(); }
extern "C" PASS_BOUNDARY double pass_both() { return run<with<both>>(); }

int main(int argc, char** argv) {
    struct variant {
        char const* name;
        double (*run)();
    } const variants[] = {{"null_context", pass_null_context}, {"identity", pass_identity}, {"cse", pass_cse},
                          {"strength", pass_strength},         {"both", pass_both}};
    if (argc == 2 && std::strcmp(argv[1], "check") == 0) {  // every pass keeps the value
        double const reference = pass_null_context();
        for (auto const& v : variants)
            if (v.run() != reference) {  // bit for bit: passes never change a result
                std::printf("%s gives %.17g, not %.17g\n", v.name, v.run(), reference);
                return 1;
            }
        std::printf("all passes give %.17g\n", reference);
        return 0;
    }
    for (auto const& v : variants)
        if (argc == 2 && std::strcmp(argv[1], v.name) == 0) return std::printf("%.17g\n", v.run()) < 0;
    return 2;
}
