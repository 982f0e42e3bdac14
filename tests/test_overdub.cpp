// overdub: hook order, contextual dispatch by exact types and concepts, recurse, fallback,
// disable_hooks, null_context, exceptions and concurrent contexts.
#include <cassette/cassette.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <concepts>
#include <map>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

namespace op = cassette::op;

namespace {

inline constexpr auto square = cassette::function<"square">([](auto x) { return x * x; });
inline constexpr auto f = cassette::function<"f">([](auto x, auto y) { return square(x) + cassette::sin(y); });
inline constexpr auto fib = cassette::function<"fib">([](auto n) {
    return cassette::if_(n < 2, n, cassette::self(n - 1) + cassette::self(n - 2));
});

template <class T>
std::string text(T const& v) {
    if constexpr (std::is_same_v<T, double>)
        return std::to_string(v);
    else if constexpr (std::is_integral_v<T>)
        return std::to_string(v);
    else
        return "?";
}

// Records every hook as text, in order.
struct recorder {
    std::vector<std::string> events;
    template <class F, class... X>
    void prehook(F const& g, X const&... xs) {
        std::string e = "pre " + std::string(cassette::name_of(g));
        ((e += " " + text(xs)), ...);
        events.push_back(e);
    }
    template <class R, class F, class... X>
    void posthook(R const& r, F const& g, X const&...) {
        events.push_back("post " + std::string(cassette::name_of(g)) + " = " + text(r));
    }
};

struct sin_to_cos {
    double overdub(op::sin_t, double x) { return std::cos(x); }
};

// Selected by exact argument types: only int multiplication is replaced. (A plain `int`
// parameter would also accept a double by conversion, as overload resolution does.)
struct int_products_negated {
    int overdub(op::mul_t, std::same_as<int> auto a, std::same_as<int> auto b) { return -(a * b); }
};

// Selected by a concept: counts calls whose arguments are all floating point.
struct floating_calls {
    int count = 0;
    void prehook(auto const&, std::floating_point auto const&...) { ++count; }
};

struct memo {
    std::map<long, long> cache;
    int computed = 0;
    long overdub(decltype(fib) const& g, long n) {
        if (auto it = cache.find(n); it != cache.end()) return it->second;
        ++computed;
        long r = cassette::recurse(*this, g, n);
        cache.emplace(n, r);
        return r;
    }
};

struct counting {
    int hooks = 0;
    int overdubs = 0;
    void prehook(auto const&, auto const&...) { ++hooks; }
    // Every square call goes through here; recurse(*this, ...) runs its body with hooks.
    double overdub(decltype(square) const& g, double x) {
        ++overdubs;
        return cassette::recurse(*this, g, x);
    }
};

struct logging_fallback {
    std::vector<std::string> names;
    template <class F, class... X>
    auto fallback(F const& g, X const&... xs) {
        names.emplace_back(cassette::name_of(g));
        return g(xs...);
    }
};

}  // namespace

TEST_CASE("hooks fire around every call, arguments first, left to right, depth first", "[overdub]") {
    recorder r;
    double const result = cassette::overdub(r, f, 2.0, 0.5);
    CHECK(result == 4.0 + std::sin(0.5));
    std::string const s = text(std::sin(0.5));
    CHECK(r.events == std::vector<std::string>{
                          "pre square " + text(2.0), "pre * " + text(2.0) + " " + text(2.0), "post * = " + text(4.0),
                          "post square = " + text(4.0), "pre sin " + text(0.5), "post sin = " + s,
                          "pre + " + text(4.0) + " " + s, "post + = " + text(4.0 + std::sin(0.5))});
}

TEST_CASE("a contextual primitive replaces a callee for the context only", "[overdub]") {
    CHECK(cassette::overdub(sin_to_cos{}, f, 2.0, 0.5) == 4.0 + std::cos(0.5));
    CHECK(f(2.0, 0.5) == 4.0 + std::sin(0.5));
    // overdub<Ctx> value-initialises the context.
    CHECK(cassette::overdub<sin_to_cos>(f, 2.0, 0.5) == 4.0 + std::cos(0.5));
}

TEST_CASE("contextual dispatch is overload resolution: exact types and concepts", "[overdub]") {
    CHECK(cassette::overdub(int_products_negated{}, square, 3) == -9);
    CHECK(cassette::overdub(int_products_negated{}, square, 3.0) == 9.0);  // not viable for doubles

    floating_calls c;
    constexpr auto mixed = cassette::function([](auto x, auto n) { return x * 2.0 + cassette::call([](long k) { return k; }, n); });
    CHECK(cassette::overdub(c, mixed, 1.5, 4L) == 7.0);
    CHECK(c.count == 1);  // x * 2.0; not the call on a long, nor double + long
}

TEST_CASE("recurse runs the default behaviour inside a member overdub: memoised fibonacci", "[overdub]") {
    memo m;
    CHECK(cassette::overdub(m, fib, 60L) == 1548008755920L);
    CHECK(m.computed == 61);  // fib(0) ... fib(60), each once
    // The context is an lvalue: its state persists into the next run.
    CHECK(cassette::overdub(m, fib, 61L) == 2504730781961L);
    CHECK(m.computed == 62);
}

TEST_CASE("fallback: the member if viable, else the callee itself", "[overdub]") {
    logging_fallback l;
    CHECK(cassette::overdub(l, f, 3.0, 0.0) == 9.0);
    CHECK(l.names == std::vector<std::string>{"*", "sin", "+"});
    CHECK(cassette::fallback(l, op::add, 1, 2) == 3);
    CHECK(cassette::fallback(cassette::null_context{}, op::mul, 4, 5) == 20);
    // fallback on a traced function calls it plainly, with no hooks inside.
    recorder r;
    CHECK(cassette::fallback(r, square, 3.0) == 9.0);
    CHECK(r.events.empty());
}

// enter: each argument a traced body receives, here a float widened to double.
struct widening {
    int entered = 0;
    double enter(float x) {
        ++entered;
        return x;
    }
    template <class X>
    X const& enter(X const& x) {
        ++entered;
        return x;
    }
};
inline constexpr auto countdown = cassette::function<"countdown">([](auto x, auto n) {
    return cassette::if_(n == 0, x, cassette::self(x * 0.5f, n - 1));
});

TEST_CASE("enter: what a traced body receives for each argument", "[overdub]") {
    widening w;
    // square's body runs on a double: 0.1f * 0.1f would round to float.
    auto const r = cassette::overdub(w, square, 0.1f);
    STATIC_REQUIRE(std::is_same_v<decltype(r), double const>);
    CHECK(r == double(0.1f) * double(0.1f));
    CHECK(w.entered == 1);
    // Every level receives x as a double (the top one converted from the float), two arguments
    // entered per level, three levels.
    CHECK(cassette::overdub(w, countdown, 3.0f, 2) == 0.75);
    CHECK(w.entered == 1 + 2 * 3);
}

// region: the forms the evaluator enters, and when it leaves them.
struct region_log {
    std::vector<std::string> events;
    struct closer {
        region_log& log;
        ~closer() { log.events.push_back("end"); }
    };
    template <class... B>
    closer region(cassette::region_kind kind, B const&... bounds) {
        static constexpr char const* names[] = {"if_", "then", "else", "let", "fold"};
        std::string event = names[static_cast<int>(kind)];
        ((event += " " + std::to_string(bounds)), ...);
        events.push_back(event);
        return {*this};
    }
};
inline constexpr auto forms = cassette::function<"forms">([](auto x) {
    return cassette::let(x * 2.0, [](auto t) {
        return cassette::fold(0, 2, t, [](auto, auto acc) { return cassette::if_(acc > 5.0, acc, acc + 1.0); });
    });
});

TEST_CASE("region: the forms the evaluator enters, each left before the next", "[overdub]") {
    region_log log;
    // t = 4: 4 + 1 = 5 (else), then 5 is not > 5, 5 + 1 = 6 (else).
    CHECK(cassette::overdub(log, forms, 2.0) == 6.0);
    CHECK(log.events == std::vector<std::string>{"let", "fold 0 2", "if_", "else", "end", "end", "if_", "else",
                                                 "end", "end", "end", "end"});
    region_log quiet;
    CHECK(cassette::overdub(cassette::disable_hooks(quiet), forms, 2.0) == 6.0);
    CHECK(quiet.events.empty());
}

TEST_CASE("disable_hooks removes the hooks but keeps overdub members and state", "[overdub]") {
    constexpr auto g = cassette::function([](auto x) { return square(x) + square(x + 1.0); });
    counting c;
    CHECK(cassette::overdub(cassette::disable_hooks(c), g, 1.0) == 5.0);
    // The member overdub ran for both squares; the bodies it recursed into ran with hooks
    // (*this is the plain context), the outer body did not.
    CHECK(c.overdubs == 2);
    CHECK(c.hooks == 2);  // the two * inside the squares
    counting d;
    CHECK(cassette::overdub(d, g, 1.0) == 5.0);
    CHECK(d.overdubs == 2);
    CHECK(d.hooks == 6);  // square, *, +(x, 1), square, *, +
}

TEST_CASE("the null context changes nothing", "[overdub][law]") {
    CHECK(cassette::overdub(cassette::null_context{}, f, 2.0, 0.5) == f(2.0, 0.5));
    CHECK(cassette::overdub(cassette::null_context{}, fib, 20L) == 6765);
    STATIC_REQUIRE(cassette::overdub(cassette::null_context{}, square, 6) == 36);
}

TEST_CASE("hooks see the bound callable of a higher-order parameter and the function for self", "[overdub]") {
    constexpr auto apply = cassette::function([](auto g, auto x) { return g(x) + 1.0; });
    recorder r;
    CHECK(cassette::overdub(r, apply, square, 3.0) == 10.0);
    CHECK(r.events.front() == "pre square " + text(3.0));
    recorder s;
    cassette::overdub(s, fib, 2L);
    CHECK(std::count(s.events.begin(), s.events.end(), "pre fib " + text(1L)) == 1);
    CHECK(std::count(s.events.begin(), s.events.end(), "pre fib " + text(0L)) == 1);
}

TEST_CASE("a callee returning void yields nothing", "[overdub]") {
    constexpr auto g = cassette::function([](auto log, auto x) { return cassette::make<std::pair<cassette::nothing, double>>(log(x), x); });
    std::vector<double> seen;
    auto const log = [&seen](double v) { seen.push_back(v); };
    CHECK(g(log, 2.5).second == 2.5);
    CHECK(seen == std::vector<double>{2.5});
}

TEST_CASE("an exception from a primitive propagates unchanged; no posthook runs for that call", "[overdub]") {
    struct failure : std::runtime_error {
        using std::runtime_error::runtime_error;
    };
    constexpr auto g = cassette::function([](auto check, auto x) { return square(x) + check(x); });
    auto const throw_if_negative = [](double v) {
        if (v < 0) throw failure("negative");
        return v;
    };
    recorder r;
    CHECK_THROWS_AS(cassette::overdub(r, g, throw_if_negative, -1.0), failure);
    // The lambda's prehook ran, and no posthook after it.
    CHECK(r.events.back() == "pre " + std::string(cassette::name_of(throw_if_negative)) + " " + text(-1.0));
    // The context stays usable.
    r.events.clear();
    CHECK(cassette::overdub(r, g, throw_if_negative, 2.0) == 6.0);
    CHECK(r.events.size() == 8);  // square, its *, check, +: a pre and a post each
}

TEST_CASE("contexts are not global state: many run at once on different threads", "[overdub]") {
    std::vector<recorder> contexts(4);
    std::vector<long> results(4);
    std::vector<std::thread> threads;
    for (std::size_t t = 0; t != contexts.size(); ++t)
        threads.emplace_back([&, t] { results[t] = cassette::overdub(contexts[t], fib, long(15 + t)); });
    for (auto& th : threads) th.join();
    long const expected[] = {610, 987, 1597, 2584};
    long const next[] = {987, 1597, 2584, 4181};
    // Hooked calls in fib(n)'s run, by hand: C(0) = C(1) = 1 (the <), and
    // C(n) = 6 + C(n-1) + C(n-2) (<, two -, two self calls, +), so C(n) = 7 fib(n+1) - 6.
    for (std::size_t t = 0; t != contexts.size(); ++t) {
        CHECK(results[t] == expected[t]);
        CHECK(long(contexts[t].events.size()) == 2 * (7 * next[t] - 6));
    }
}
