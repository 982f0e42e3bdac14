// A downstream program: one use of each part of the library, so that every header is
// instantiated under the consumer's flags (strict warnings, no RTTI, no exceptions).
// Exits with 1 if a result is wrong.
#include <cassette/cassette.hpp>

#include <array>
#include <cmath>
#include <iostream>
#include <sstream>
#include <string>

// Namespace-scope names like the documentation's: a parameter of the library's that shadowed
// one would warn under -Wshadow.
inline constexpr auto square = cassette::function<"square">([](auto x) { return x * x; });
inline constexpr auto f = cassette::function<"f">([](auto x, auto y) { return square(x) + cassette::sin(y); });
inline constexpr auto fib = cassette::function<"fib">([](auto n) {
    return cassette::if_(n < 2, n, cassette::self(n - 1) + cassette::self(n - 2));
});
inline constexpr auto g = cassette::function<"g">([](auto v) {
    return cassette::sum(0, cassette::length(v), [=](auto i) { return v[i] * v[i]; }) + v[0];
});

struct SinToCos {
    double overdub(cassette::op::sin_t, double x) { return std::cos(x); }
};

struct Shared {  // a pass: common subexpressions evaluated once
    static constexpr auto pass = cassette::passes::cse;
};

static bool check(bool ok, char const* what) {
    if (!ok) std::cout << "wrong: " << what << '\n';
    return ok;
}

int main() {
    bool ok = true;
    ok &= check(f(2.0, 0.5) == 4.0 + std::sin(0.5), "plain call");
    ok &= check(cassette::overdub(SinToCos{}, f, 2.0, 0.5) == 4.0 + std::cos(0.5), "overdub");

    cassette::contexts::call_counter counter;
    ok &= check(cassette::overdub(counter, fib, 10L) == 55 && counter.count("fib") == 176, "call_counter");
    cassette::contexts::memoizer memo(fib);
    ok &= check(cassette::overdub(memo, fib, 40L) == 102334155, "memoizer");

    cassette::contexts::tracer trace;
    std::ostringstream printed, traced;
    cassette::overdub(cassette::contexts::printer{printed}, f, 2.0, 0.5);
    cassette::overdub(trace, f, 2.0, 0.5);
    traced << trace;
    ok &= check(printed.str().starts_with("square(2)\n") && traced.str().starts_with("square(2) = 4\n"), "printer, tracer");
    cassette::contexts::profiler profile;
    cassette::overdub(profile, f, 2.0, 0.5);
    ok &= check(profile.calls("square") == 1, "profiler");

    ok &= check(cassette::overdub(Shared{}, g, std::array{3.0, 4.0}) == 28.0, "pass");
    ok &= check(cassette::code_lowered(g, std::array{3.0, 4.0}).find("%3 = getindex(_1, i2)") != std::string::npos,
                "code_lowered");

    struct Taint {};
    auto const t = cassette::tag(2.0, Taint{}, true);
    ok &= check(cassette::untag(t, Taint{}) == 2.0 && cassette::metadata(t, Taint{}), "tag");

    namespace ad = cassette::ad;
    ok &= check(ad::derivative(f, 2.0, 0.5) == 4.0, "derivative");
    auto const grad = ad::gradient(g, std::array{3.0, 4.0});
    ok &= check(grad[0] == 7.0 && grad[1] == 8.0, "gradient");

    std::cout << (ok ? "consumer: ok\n" : "consumer: FAILED\n");
    return ok ? 0 : 1;
}
