// The ready contexts: call_counter, tracer, printer, memoizer, profiler.
#include <cassette/cassette.hpp>

#include <catch2/catch.hpp>

#include <sstream>
#include <string>
#include <vector>

namespace contexts = cassette::contexts;

namespace {

inline constexpr auto square = cassette::function<"square">([](auto x) { return x * x; });
inline constexpr auto fib = cassette::function<"fib">([](auto n) {
    return cassette::if_(n < 2, n, cassette::self(n - 1) + cassette::self(n - 2));
});
inline constexpr auto lucas = cassette::function<"lucas">([](auto n) {
    return cassette::if_(n < 2, 2 - n, cassette::self(n - 1) + cassette::self(n - 2));
});
inline constexpr auto f = cassette::function<"f">([](auto x, auto y, auto z) { return x * y + y * z; });
inline constexpr auto call_f = cassette::function([](auto x, auto y, auto z) { return f(x, y, z); });

}  // namespace

TEST_CASE("call_counter counts calls per callee name", "[contexts]") {
    contexts::call_counter c;
    CHECK(cassette::overdub(c, fib, 10L) == 55);
    // By hand: fib(n) makes S(n) = 2 fib(n+1) - 2 self calls, and runs 1 + S(n) bodies,
    // each with one <; the 88 non-base bodies each run two - and one +.
    CHECK(c.count("fib") == 176);
    CHECK(c.count("<") == 177);
    CHECK(c.count("-") == 176);
    CHECK(c.count("+") == 88);
    CHECK(c.count("sin") == 0);
    CHECK(c.total() == 176 + 177 + 176 + 88);
    // The top-level call is not seen.
    contexts::call_counter d;
    cassette::overdub(d, square, 2.0);
    CHECK(d.count("square") == 0);
    CHECK(d.total() == 1);
}

TEST_CASE("tracer records the nested call tree", "[contexts]") {
    contexts::tracer t;
    CHECK(cassette::overdub(t, call_f, 2.0, 3.0, 4.0) == 18.0);
    REQUIRE(t.calls().size() == 1);
    auto const& root = t.calls()[0];
    CHECK(root.name == "f");
    CHECK(root.args == std::vector<std::string>{"2", "3", "4"});
    CHECK(root.result == "18");
    REQUIRE(root.children.size() == 3);
    CHECK(root.children[0].name == "*");
    CHECK(root.children[1].args == std::vector<std::string>{"3", "4"});
    CHECK(root.children[2].result == "18");
    std::ostringstream os;
    os << t;
    CHECK(os.str() == "f(2, 3, 4) = 18\n  *(2, 3) = 6\n  *(3, 4) = 12\n  +(6, 12) = 18\n");
    t.clear();
    CHECK(t.calls().empty());
}

TEST_CASE("printer writes one line per call", "[contexts]") {
    std::ostringstream os;
    constexpr auto g = cassette::function([](auto v) { return square(v[0]) + cassette::length(v); });
    cassette::overdub(contexts::printer{os}, g, std::vector<double>{1.5, 2});
    CHECK(os.str() == "getindex([1.5, 2], 0)\nsquare(1.5)\n*(1.5, 1.5)\nlength([1.5, 2])\n+(2.25, 2)\n");
}

TEST_CASE("memoizer remembers the results of the functions it was made with", "[contexts]") {
    contexts::memoizer m(fib, lucas);
    CHECK(cassette::overdub(m, fib, 80L) == 23416728348467685L);
    CHECK(m.size() == 81);  // fib(0) ... fib(80); the top-level call is memoised too
    CHECK(cassette::overdub(m, lucas, 30L) == 1860498L);
    CHECK(m.size() == 81 + 31);
    // Other functions run as usual.
    CHECK(cassette::overdub(m, square, 3.0) == 9.0);
    CHECK(m.size() == 112);
    m.clear();
    CHECK(m.size() == 0);
}

TEST_CASE("profiler counts calls and time per traced function", "[contexts]") {
    contexts::profiler p;
    constexpr auto g = cassette::function([](auto x, auto y) { return square(x) + square(y) + x; });
    CHECK(cassette::overdub(p, g, 1.0, 2.0) == 6.0);
    CHECK(p.calls("square") == 2);
    CHECK(p.calls("+") == 0);  // primitives are not profiled
    REQUIRE(p.entries().size() == 1);
    CHECK(p.entries()[0].time >= contexts::profiler::clock::duration::zero());
    std::ostringstream os;
    os << p;
    CHECK(os.str().rfind("square: 2 calls, ", 0) == 0);
}
