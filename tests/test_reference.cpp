// The examples of docs/reference.md: one or more per public name, each compiled and checked
// here (test_docs checks that the page shows them unchanged).
#include <cassette/cassette.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <map>
#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace ir = cassette::ir;
namespace op = cassette::op;
namespace passes = cassette::passes;
namespace ad = cassette::ad;

namespace reference {

//[function
inline constexpr auto square = cassette::function<"square">([](auto x) { return x * x; });
inline constexpr auto hypotenuse = cassette::function<"hypotenuse">([](auto a, auto b) {
    return cassette::sqrt(square(a) + square(b));  // call nodes: square, square, +, sqrt
});
inline constexpr auto twice = cassette::function([](auto x) { return 2 * x; });  // unnamed
//]

//[self
inline constexpr auto fib = cassette::function<"fib">([](auto n) {
    return cassette::if_(n < 2, n, cassette::self(n - 1) + cassette::self(n - 2));
});
//]

//[call
struct audit_t {  // a primitive of the user's: the body calls it, contexts see the calls
    static constexpr std::string_view name = "audit";
    double operator()(double v) const { return v; }
};
inline constexpr audit_t audit{};

inline constexpr auto scaled = cassette::function<"scaled">([](auto x) {
    return cassette::call(audit, x) * cassette::call(cassette::sin, 0.5);  // both stay calls
});
//]

//[point
struct point {
    double x, y;
};
inline constexpr auto swap_xy = cassette::function<"swap_xy">([](auto p) {
    return cassette::make<point>(cassette::get<1>(p), cassette::get<0>(p));
});
inline constexpr auto last = cassette::function<"last">([](auto v) { return v[cassette::length(v) - 1]; });
//]

//[nothing
struct note_t {
    void operator()(double) const {}
};
inline constexpr auto noted = cassette::function([](auto x) { return cassette::call(note_t{}, x); });
//]

//[contexts
struct Count {  // prehook: every call, whatever its callee and arguments
    int calls = 0;
    void prehook(auto const&, auto const&...) { ++calls; }
};

struct SinToCos {  // overdub: replaces one primitive
    double overdub(op::sin_t, double x) const { return std::cos(x); }
};

struct Memo {  // overdub + recurse: memoises one traced function
    std::map<long, long> cache;
    long overdub(decltype(fib) const& f, long n) {
        if (auto it = cache.find(n); it != cache.end()) return it->second;
        long const r = cassette::recurse(*this, f, n);  // fib's body, its calls overdubbed in *this
        cache.emplace(n, r);
        return r;
    }
};

struct Checked {  // fallback: how a primitive runs when no overdub member took it
    template <class G, class... X>
    auto fallback(G const& g, X const&... xs) {
        auto const r = g(xs...);
        if (!std::isfinite(r)) ++non_finite;
        return r;
    }
    int non_finite = 0;
};

struct Depth {  // posthook and unwound close what prehook opened
    int open = 0, deepest = 0;
    void prehook(auto const&, auto const&...) { deepest = std::max(deepest, ++open); }
    void posthook(auto const&, auto const&, auto const&...) { --open; }
    void unwound(auto const&, auto const&...) noexcept { --open; }
};
//]

//[pass
struct CosForSin {  // a pass: rewrites each body the context enters, at compile time
    static constexpr auto pass = passes::replace(cassette::sin, cassette::cos);
};
//]

//[tag_type
struct Outer {};
struct Inner {
    using tag_type = Outer;  // tags as Outer does: each sees the other's tags
};
//]

//[taint
struct Taint {
    // Every non-structural primitive reached with a tainted argument: compute on the plain
    // values, and taint the result if any argument was tainted.
    template <cassette::primitive G, class... X>
        requires(!cassette::structural_primitive<G> && (cassette::tagged_by<X, Taint> || ...))
    auto overdub(G const& g, X const&... xs) {
        bool const tainted = (tainted_arg(xs) || ...);
        return cassette::tag(g(cassette::untag(xs, *this)...), *this, tainted);
    }
    template <class X>
    bool tainted_arg(X const& x) const {
        if constexpr (cassette::tagged_by<X, Taint>)
            return cassette::metadata(x, *this);
        else
            return false;
    }
};
//]

//[rule
struct cube_t {
    static constexpr std::string_view name = "cube";
    constexpr double operator()(double v) const { return v * v * v; }
};
inline constexpr cube_t cube{};
}  // namespace reference

template <>
struct cassette::ad::rule<reference::cube_t> {
    // d(x^3) = 3 x^2 dx, with p: the enclosing context's arithmetic, which skips zero tangents.
    static constexpr auto apply(auto const& p, auto const& x) {
        return ad::dual{p(reference::cube, x.v), p.mul(x.d, p(op::mul, 3.0, p(op::mul, x.v, x.v)))};
    }
};
//]

//[constant_foldable
namespace reference {
struct halve_t {
    static constexpr std::string_view name = "halve";
    constexpr double operator()(double v) const { return v / 2; }
};
inline constexpr halve_t halve{};
}  // namespace reference

template <>
inline constexpr bool cassette::passes::constant_foldable<reference::halve_t> = true;
//]

//[is_pure
namespace reference {
struct lookup_t {
    static constexpr std::string_view name = "lookup";
    double operator()(double key) const { return key * 10; }  // the same key, the same value
};
inline constexpr lookup_t lookup{};
}  // namespace reference

template <>
inline constexpr bool cassette::passes::is_pure<reference::lookup_t> = true;
//]

namespace reference {

inline constexpr auto norm2 = cassette::function<"norm2">([](auto x, auto y) {
    return cassette::pow(x, 2) + cassette::pow(y, 2);
});
inline constexpr auto dot_with_self = cassette::function<"dot_with_self">([](auto v) {
    return cassette::sum(0, cassette::length(v), [=](auto i) { return v[i] * v[i]; });
});

struct Folding {
    static constexpr auto pass = passes::fold_constants;
};
struct Reduced {
    static constexpr auto pass = passes::strength_reduction;
};
struct Shared : Count {
    static constexpr auto pass = passes::cse;
};

}  // namespace reference

using namespace reference;

TEST_CASE("function, traced_function, name_of", "[reference]") {
    //[function_use
    CHECK(hypotenuse(3.0, 4.0) == 5.0);
    CHECK(twice(21) == 42);
    STATIC_REQUIRE(cassette::traced_function<decltype(square)>);
    STATIC_REQUIRE(!cassette::traced_function<decltype(cassette::sin)>);
    // The body's type is the call graph: square's body for one argument is x * x.
    STATIC_REQUIRE(std::is_same_v<decltype(square)::body_type<1>, ir::call<op::mul_t, ir::param<0>, ir::param<0>>>);
    //]
    //[name_of
    CHECK(cassette::name_of(hypotenuse) == "hypotenuse");
    CHECK(cassette::name_of(twice) == "lambda");
    CHECK(cassette::name_of(op::neg) == "-");
    CHECK(cassette::name_of(cassette::sin) == "sin");
    CHECK(cassette::name_of(op::get<0>) == "get<0>");
    CHECK(cassette::name_of(audit) == "audit");  // a `name` member
    //]
}

TEST_CASE("self, call, if_, let, fold, sum", "[reference]") {
    //[self_use
    CHECK(fib(20L) == 6765);
    //]
    //[call_use
    CHECK(cassette::code_lowered(scaled, 2.0) ==
          "scaled(::double)\n"
          "  %1 = audit(_1)\n"
          "  %2 = sin(0.5)\n"
          "  %3 = *(%1, %2)\n"
          "  return %3\n");
    //]
    //[if_
    constexpr auto relu = cassette::function([](auto x) { return cassette::if_(x > 0, x, 0.0); });
    CHECK(relu(-2.0) == 0.0);
    CHECK(relu(3) == 3.0);  // the common type of int and double
    //]
    //[let
    constexpr auto quartic = cassette::function([](auto x) {
        return cassette::let(x * x, [](auto x2) { return x2 * x2; });  // x * x evaluated once
    });
    CHECK(quartic(3.0) == 81.0);
    //]
    //[fold
    constexpr auto factorial = cassette::function([](auto n) {
        return cassette::fold(1, n + 1, 1L, [](auto i, auto acc) { return acc * i; });
    });
    constexpr auto dot = cassette::function([](auto u, auto v) {
        return cassette::sum(0, cassette::length(u), [=](auto i) { return u[i] * v[i]; });
    });
    CHECK(factorial(10) == 3628800L);
    CHECK(dot(std::vector{1.0, 2.0}, std::array{3.0, 4.0}) == 11.0);
    //]
}

TEST_CASE("operators, math, length, get, make, op", "[reference]") {
    //[math
    CHECK(cassette::sin(0.5) == std::sin(0.5));  // plain values: std::sin
    CHECK(cassette::pow(100000, 2) == 1e10);     // std::pow's result type, double
    CHECK(cassette::max(1, 2.5) == 2.5);         // the common type, by value
    STATIC_REQUIRE(&cassette::sin == &op::sin);  // one object, which can be passed around
    constexpr auto wave = cassette::function([](auto x) {
        using std::sin;  // Cassette-unaware generic code: ADL finds the symbolic overload
        return sin(x) * x;
    });
    STATIC_REQUIRE(std::is_same_v<decltype(wave)::body_type<1>,
                                  ir::call<op::mul_t, ir::call<op::sin_t, ir::param<0>>, ir::param<0>>>);
    //]
    //[point_use
    CHECK(swap_xy(point{1, 2}).x == 2);
    CHECK(last(std::vector{1.0, 2.0, 3.0}) == 3.0);
    CHECK(cassette::length(std::array{1, 2, 3}) == 3);
    CHECK(cassette::get<1>(point{1, 2}) == 2);
    //]
    //[op
    STATIC_REQUIRE(cassette::primitive<op::add_t>);
    STATIC_REQUIRE(cassette::primitive<op::get_t<0>>);
    STATIC_REQUIRE(!cassette::primitive<audit_t>);  // a callable of the user's: not built in
    CHECK(op::add(1, 2) == 3);
    CHECK(op::getindex(std::array{4, 5}, 1) == 5);
    CHECK(op::make<point>(1.0, 2.0).y == 2.0);
    //]
    //[nothing_use
    STATIC_REQUIRE(std::is_same_v<decltype(noted(1.0)), cassette::nothing>);
    //]
}

TEST_CASE("overdub, recurse, fallback, disable_hooks, null_context", "[reference]") {
    //[overdub
    Count count;
    CHECK(cassette::overdub(count, hypotenuse, 3.0, 4.0) == 5.0);
    CHECK(count.calls == 6);  // square, * (inside it), square, *, +, sqrt; not the top call
    CHECK(cassette::overdub(SinToCos{}, scaled, 2.0) == 2.0 * std::cos(0.5));
    CHECK(cassette::overdub<SinToCos>(scaled, 2.0) == 2.0 * std::cos(0.5));
    //]
    //[recurse
    Memo memo;
    CHECK(cassette::overdub(memo, fib, 80L) == 23416728348467685L);
    CHECK(memo.cache.size() == 81);
    //]
    //[fallback
    Checked checked;
    constexpr auto ratio = cassette::function([](auto a, auto b) { return a / b + cassette::log(b); });
    cassette::overdub(checked, ratio, 1.0, 0.0);
    CHECK(checked.non_finite == 3);  // 1 / 0 = inf, log(0) = -inf, and their sum, NaN
    CHECK(cassette::fallback(checked, op::div, 1.0, 4.0) == 0.25);
    //]
    //[unwound
    Depth depth;
    cassette::overdub(depth, hypotenuse, 3.0, 4.0);
    CHECK(depth.deepest == 2);  // the * inside each square
    CHECK(depth.open == 0);
    //]
    //[disable_hooks
    Count quiet;
    CHECK(cassette::overdub(cassette::disable_hooks(quiet), hypotenuse, 3.0, 4.0) == 5.0);
    CHECK(quiet.calls == 0);
    //]
    //[null_context
    CHECK(cassette::overdub(cassette::null_context{}, hypotenuse, 3.0, 4.0) == hypotenuse(3.0, 4.0));
    //]
}

TEST_CASE("body_frame evaluates a body's nodes as overdub does", "[reference]") {
    //[body_frame
    double const a = 3.0, b = 4.0;
    cassette::detail::tuple<double const&, double const&> const args{{a}, {b}};
    auto const& body = decltype(hypotenuse)::body<2>;  // sqrt(square(a) + square(b))
    auto const& sum = boost::hana::at_c<0>(body.args);

    Count count;
    auto const frame = cassette::body_frame(count, hypotenuse, args);
    CHECK(frame.eval(sum) == 25.0);
    CHECK(count.calls == 5);  // square, * (inside it), square, *, +
    CHECK(frame.eval(body) == 5.0);
    CHECK(count.calls == 11);  // the same five again, and sqrt

    Count quiet;
    CHECK(cassette::body_frame(cassette::disable_hooks(quiet), hypotenuse, args).eval(sum) == 25.0);
    CHECK(quiet.calls == 0);

    // Under a view, only the hooks are off: the context's overdub member still applies.
    cassette::detail::tuple<double const&> const two{{b}};
    SinToCos sin_to_cos;
    auto const& scaled_body = decltype(scaled)::body<1>;  // audit(x) * sin(0.5)
    CHECK(cassette::body_frame(cassette::disable_hooks(sin_to_cos), scaled, two).eval(scaled_body) == 4.0 * std::cos(0.5));
    auto const holding = cassette::disable_hooks(SinToCos{});  // a view that holds its context
    CHECK(cassette::body_frame(holding, scaled, two).eval(scaled_body) == 4.0 * std::cos(0.5));
    //]
}

//[any_node_trait
template <class Node>
struct is_exp_call : std::false_type {};
template <class X>
struct is_exp_call<ir::call<op::exp_t, X>> : std::true_type {};

template <class Node>
struct arguments : std::integral_constant<std::size_t, 0> {};
template <class F, class... X>
struct arguments<ir::call<F, X...>> : std::integral_constant<std::size_t, sizeof...(X)> {};
//]

TEST_CASE("passes, the IR, listings", "[reference]") {
    //[pass_use
    CHECK(cassette::overdub(CosForSin{}, scaled, 2.0) == 2.0 * std::cos(0.5));
    //]
    //[nodes
    constexpr auto g = cassette::function([](auto x) { return cassette::exp(x) * 2.0; });
    using body = decltype(g)::body_type<1>;
    STATIC_REQUIRE(std::is_same_v<body, ir::call<op::mul_t, ir::call<op::exp_t, ir::param<0>>, ir::constant<double>>>);
    constexpr body const& b = decltype(g)::body<1>;
    STATIC_REQUIRE(boost::hana::at_c<1>(b.args).value == 2.0);
    STATIC_REQUIRE(ir::is_call<body> && ir::is_constant<ir::constant<double>>);
    STATIC_REQUIRE(ir::expression<body> && !ir::is_special_form<body>);
    STATIC_REQUIRE(ir::kind_of<body> == ir::node_kind::call && ir::arity<body> == 2);
    STATIC_REQUIRE(ir::kind_of<body const> == ir::node_kind::call && ir::kind_of<double> == ir::node_kind::other);
    STATIC_REQUIRE(ir::node_kind_of<body>::value == ir::node_kind::call && ir::arity_of<body>::value == 2);
    STATIC_REQUIRE(ir::call_count<body> == 2 && ir::call_count_of<ir::param<0>>::value == 0);
    STATIC_REQUIRE(ir::any_node<is_exp_call, body> && !ir::any_node_of<ir::is_self_call, body>::value);
    STATIC_REQUIRE(ir::max_over_nodes<arguments, body>::value == 2 && !ir::special_form_of<body>::value);
    //]
    //[transform
    // Every exp(x) becomes exp(x) - 1: the rule matches a pattern, and builds nodes with the
    // DSL's own operators.
    constexpr auto shifted = ir::transform(b, []<class X>(ir::call<op::exp_t, X> const& c) { return c - 1.0; });
    STATIC_REQUIRE(std::is_same_v<std::remove_const_t<decltype(shifted)>,
                                  ir::call<op::mul_t, ir::call<op::sub_t, ir::call<op::exp_t, ir::param<0>>, ir::constant<double>>,
                                           ir::constant<double>>>);
    //]
    //[map_children
    constexpr auto doubled = ir::map_children(b, [](auto const& child) { return child + child; });
    STATIC_REQUIRE(std::is_same_v<std::remove_const_t<decltype(doubled)>,
                                  ir::call<op::mul_t, ir::call<op::add_t, ir::call<op::exp_t, ir::param<0>>, ir::call<op::exp_t, ir::param<0>>>,
                                           ir::call<op::add_t, ir::constant<double>, ir::constant<double>>>>);
    //]
    //[equal
    constexpr auto h = cassette::function([](auto x) { return cassette::exp(x) * 3.0; });
    STATIC_REQUIRE(std::is_same_v<decltype(h)::body_type<1>, body>);  // the same type,
    STATIC_REQUIRE(!ir::equal(decltype(h)::body<1>, b));                // not the same constant
    STATIC_REQUIRE(ir::equal(b, b));
    //]
    //[replace_compose
    constexpr auto both = passes::compose(passes::replace(cassette::exp, cassette::sin), passes::replace(op::mul, op::add));
    constexpr auto rewritten = both(b);
    STATIC_REQUIRE(std::is_same_v<std::remove_const_t<decltype(rewritten)>,
                                  ir::call<op::add_t, ir::call<op::sin_t, ir::param<0>>, ir::constant<double>>>);
    //]
    //[fold_constants
    constexpr auto k = cassette::function([](auto x) { return x * (ir::constant(2.0) + 1.0) + cassette::call(halve, 8.0); });
    CHECK(cassette::code_overdubbed(cassette::disable_hooks(Folding{}), k, 1.0) ==
          "overdub(ctx::reference::Folding, lambda, ::double)\n"
          "  %1 = overdub(ctx, *, _1, 3)\n"
          "  %2 = overdub(ctx, +, %1, 4)\n"
          "  return %2\n");
    //]
    //[strength_reduction
    CHECK(cassette::overdub(Reduced{}, norm2, 3.0, 4.0) == 25.0);
    CHECK(cassette::code_overdubbed(cassette::disable_hooks(Reduced{}), norm2, 3.0, 4.0) ==
          "overdub(ctx::reference::Reduced, norm2, ::double, ::double)\n"
          "  %1 = overdub(ctx, square, _1)\n"
          "  %2 = overdub(ctx, square, _2)\n"
          "  %3 = overdub(ctx, +, %1, %2)\n"
          "  return %3\n");
    //]
    //[cse
    constexpr auto energy = cassette::function([](auto x) {
        auto r = cassette::call(lookup, x) + 1.0;  // used twice: a tree evaluates it twice
        return r * r;
    });
    Count twice_seen;
    Shared once_seen;
    CHECK(cassette::overdub(twice_seen, energy, 0.5) == cassette::overdub(once_seen, energy, 0.5));
    CHECK(twice_seen.calls == 5);  // lookup, +, lookup, +, *
    CHECK(once_seen.calls == 3);   // lookup, +, *
    //]
    //[listings
    CHECK(cassette::code_lowered(hypotenuse, 3.0, 4.0) ==
          "hypotenuse(::double, ::double)\n"
          "  %1 = square(_1)\n"
          "  %2 = square(_2)\n"
          "  %3 = +(%1, %2)\n"
          "  %4 = sqrt(%3)\n"
          "  return %4\n");
    CHECK(cassette::code_overdubbed(Count{}, square, 3.0) ==
          "overdub(ctx::reference::Count, square, ::double)\n"
          "  prehook(ctx, *, _1, _1)\n"
          "  %1 = overdub(ctx, *, _1, _1)\n"
          "  posthook(ctx, %1, *, _1, _1)\n"
          "  return %1\n");
    //]
}

TEST_CASE("tag, untag, metadata, fields, elements", "[reference]") {
    //[tag
    Taint taint;
    auto const t = cassette::tag(2.0, taint, true);
    STATIC_REQUIRE(std::is_same_v<decltype(t), cassette::tagged<Taint, double, bool> const>);
    CHECK(cassette::untag(t, taint) == 2.0);
    CHECK(cassette::metadata(t, taint));
    STATIC_REQUIRE(cassette::is_tagged(t, taint) && cassette::has_metadata(t, taint));
    STATIC_REQUIRE(std::is_same_v<cassette::untag_t<decltype(t), Taint>, double>);
    STATIC_REQUIRE(std::is_same_v<cassette::metadata_t<decltype(t), Taint>, bool>);
    CHECK(cassette::untag(2.0, taint) == 2.0);  // not tagged by taint: itself
    STATIC_REQUIRE(std::is_same_v<decltype(cassette::metadata(2.0, taint)), cassette::no_metadata>);
    auto const bare = cassette::tag(2.0, taint);  // tagged, no metadata
    STATIC_REQUIRE(cassette::is_tagged(bare, taint) && !cassette::has_metadata(bare, taint));
    //]
    //[tag_type_use
    STATIC_REQUIRE(std::is_same_v<cassette::tag_of<Inner>, Outer>);
    STATIC_REQUIRE(cassette::tagged_by<decltype(cassette::tag(1.0, Inner{})), Outer>);
    //]
    //[fields
    auto const p = cassette::tag(point{3, 4}, taint, cassette::fields(false, true));
    auto const q = cassette::overdub(taint, swap_xy, p);  // get and make carry the fields' metadata
    CHECK(q.value.x == 4);
    CHECK(std::get<0>(q.meta.of));  // q.x came from the tainted p.y
    CHECK_FALSE(std::get<1>(q.meta.of));
    STATIC_REQUIRE(!cassette::has_metadata(q, taint));  // the point itself carries none
    //]
    //[elements
    auto const v = cassette::tag(std::vector{1.0, 2.0}, taint, cassette::elements(std::vector{false, true}));
    auto const r = cassette::overdub(taint, dot_with_self, v);
    CHECK(cassette::untag(r, taint) == 5.0);
    CHECK(cassette::metadata(r, taint));  // element 1 was tainted
    //]
}

TEST_CASE("ready contexts", "[reference]") {
    //[call_counter
    cassette::contexts::call_counter counter;
    cassette::overdub(counter, hypotenuse, 3.0, 4.0);
    CHECK(counter.count("square") == 2);
    CHECK(counter.count("*") == 2);
    CHECK(counter.total() == 6);
    CHECK(counter.counts().front().first == "square");  // in order of first call
    //]
    //[tracer
    cassette::contexts::tracer trace;
    cassette::overdub(trace, hypotenuse, 3.0, 4.0);
    std::ostringstream tree;
    tree << trace;
    CHECK(tree.str() ==
          "square(3) = 9\n"
          "  *(3, 3) = 9\n"
          "square(4) = 16\n"
          "  *(4, 4) = 16\n"
          "+(9, 16) = 25\n"
          "sqrt(25) = 5\n");
    cassette::contexts::trace_node const& first = trace.calls()[0];
    CHECK(first.name == "square");
    CHECK(first.args == std::vector<std::string>{"3"});
    CHECK(first.children[0].result == "9");
    //]
    //[printer
    std::ostringstream lines;
    cassette::overdub(cassette::contexts::printer{lines}, hypotenuse, 3.0, 4.0);
    CHECK(lines.str() == "square(3)\n*(3, 3)\nsquare(4)\n*(4, 4)\n+(9, 16)\nsqrt(25)\n");
    //]
    //[memoizer
    cassette::contexts::memoizer memo(fib);
    CHECK(cassette::overdub(memo, fib, 90L) == 2880067194370816120L);
    CHECK(memo.size() == 91);  // fib(0) ... fib(90), each computed once
    //]
    //[profiler
    cassette::contexts::profiler profile;
    cassette::overdub(profile, hypotenuse, 3.0, 4.0);
    CHECK(profile.calls("square") == 2);
    CHECK(profile.entries().size() == 1);  // traced functions only
    //]
}

TEST_CASE("automatic differentiation", "[reference]") {
    //[derivative
    CHECK(ad::derivative(square, 3.0) == 6.0);
    CHECK(ad::derivative(hypotenuse, 3.0, 4.0) == Approx(0.6));  // d/da at a = 3; b = 4 passed through
    CHECK(ad::derivative([](auto x) { return cassette::exp(2.0 * x); }, 0.0) == 2.0);  // a lambda
    constexpr auto second = ad::derivative(ad::derivative(square));  // traced functions: they nest
    CHECK(second(3.0) == 2.0);
    //]
    //[nested
    constexpr auto g = cassette::function([](auto x) {
        return x * ad::derivative([=](auto y) { return x + y; }, 1.0);  // d/dy (x + y) = 1
    });
    CHECK(ad::derivative(g, 1.0) == 1.0);  // no perturbation confusion
    //]
    //[gradient
    constexpr auto area = cassette::function([](auto p) { return cassette::get<0>(p) * cassette::get<1>(p); });
    CHECK(ad::gradient(area, point{2, 3}).x == 3);  // the result has x's type: a point
    CHECK(ad::gradient(dot_with_self, std::array{1.0, 2.0}) == std::array{2.0, 4.0});
    CHECK(ad::gradient(dot_with_self, std::vector{1.0, 2.0, 3.0}) == std::vector{2.0, 4.0, 6.0});
    //]
    //[jacobian
    constexpr auto both = cassette::function([](auto p) {
        return cassette::make<point>(cassette::get<0>(p) * cassette::get<1>(p), cassette::get<0>(p) + cassette::get<1>(p));
    });
    std::array<std::array<double, 2>, 2> const J = ad::jacobian(both, std::array{2.0, 3.0});
    CHECK(J == std::array{std::array{3.0, 2.0}, std::array{1.0, 1.0}});
    //]
    //[hessian
    constexpr auto cubic = cassette::function([](auto x) { return x[0] * x[0] * x[1]; });
    CHECK(ad::hessian(cubic, std::array{1.0, 2.0}) == std::array{std::array{4.0, 2.0}, std::array{2.0, 0.0}});
    //]
    //[forward
    cassette::null_context none;
    ad::forward<cassette::null_context> dual{none};
    auto const y = cassette::overdub(dual, square, cassette::tag(3.0, dual, 1.0));  // seed dx = 1
    CHECK(cassette::untag(y, dual) == 9.0);
    CHECK(cassette::metadata(y, dual) == 6.0);  // the tangent
    //]
    //[rule_use
    STATIC_REQUIRE(ad::has_rule<cube_t> && !ad::has_rule<audit_t>);
    CHECK(ad::derivative([](auto x) { return cassette::call(cube, x); }, 2.0) == 12.0);
    //]
}
