// Compile-time passes: ir::transform, the ready passes, pass injection into every traced
// function a context enters, and the listings.
#include <cassette/cassette.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <stdexcept>
#include <cmath>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace ir = cassette::ir;
namespace op = cassette::op;
namespace passes = cassette::passes;

namespace pass_tests {

inline constexpr auto wave = cassette::function<"wave">([](auto x) { return cassette::sin(x) * 2.0; });
inline constexpr auto outer = cassette::function<"outer">([](auto x) { return wave(x) + cassette::sin(x); });
// Recursion through self, with a sin at each level.
inline constexpr auto sines = cassette::function<"sines">([](auto n, auto x) {
    return cassette::if_(n < 1, 0.0, cassette::sin(x) + cassette::self(n - 1, x));
});

// Pure callables whose values own memory: a value cse binds must be destroyed, once, and only
// if it was made, even when a later one throws.
struct ramp_t {
    static constexpr std::string_view name = "ramp";
    std::vector<double> operator()(double x) const { return {x, 2 * x}; }
};
struct total_t {
    static constexpr std::string_view name = "total";
    double operator()(std::vector<double> const& v) const {
        if (v[0] > 100) throw std::domain_error("total: too large");
        return v[0] + v[1];
    }
};
struct head_t {
    static constexpr std::string_view name = "head";
    double operator()(std::vector<double> const& v) const { return v[0]; }
};
inline constexpr ramp_t ramp{};
inline constexpr total_t total{};
inline constexpr head_t head{};

// What code_overdubbed lists under ctx with its hooks off, without the header line.
template <class Ctx, class F, class... A>
std::string overdubbed_statements(Ctx const& ctx, F const& f, A const&... args) {
    std::string const listing = cassette::code_overdubbed(cassette::disable_hooks(ctx), f, args...);
    return listing.substr(listing.find('\n') + 1);
}

struct sin_to_cos {
    static constexpr auto pass = passes::replace(cassette::sin, cassette::cos);
    int calls = 0;
    template <class F, class... X>
    void prehook(F const&, X const&...) {
        ++calls;
    }
};

struct counter {
    int calls = 0;
    template <class F, class... X>
    void prehook(F const&, X const&...) {
        ++calls;
    }
};

template <auto const& Pass>
struct with_pass : counter {
    static constexpr auto pass = Pass;
};

//[form_of_your_own
// unless_zero(a, b): a, unless it is zero; then b, which is evaluated only then.
template <class A, class B>
struct unless_zero : cassette::ir::symbolic<unless_zero<A, B>> {
    A a;
    B b;
    static constexpr std::string_view name = "unless_zero";

    template <class Fn>
    constexpr decltype(auto) visit_children(Fn&& fn) const {
        return fn(a, b);
    }
    template <class A2, class B2>
    constexpr auto with_children(A2 const& a2, B2 const& b2) const {
        return unless_zero<A2, B2>{{}, a2, b2};
    }

    template <class Frame>
    constexpr auto evaluate(Frame const& frame) const {
        using result = std::common_type_t<std::remove_cvref_t<decltype(frame.eval(a))>,
                                          std::remove_cvref_t<decltype(frame.eval(b))>>;
        decltype(auto) first = frame.eval(a);
        if (frame.primal(first) != 0) return result(first);
        return result(frame.eval(b));
    }

    template <class Lister>
    std::string list(Lister& lister) const {
        std::string const first = lister.operand(a);
        std::string const result = "%" + std::to_string(lister.number());
        lister.line(result + " = unless_zero " + first);
        lister.nested([&] { lister.line("yield " + lister.operand(b)); });
        lister.line("end");
        return result;
    }
};

template <class A, class B>
constexpr auto unless_zero_of(A const& a, B const& b) {
    return unless_zero<ir::node_t<A>, ir::node_t<B>>{{}, ir::as_node(a), ir::as_node(b)};
}
//]

struct logger {
    std::vector<double>* seen;
    double operator()(double v) const {
        seen->push_back(v);
        return v;
    }
};

// An empty callable with no default value: a tree that calls it has state, as one with a
// constant has.
struct scale {
    constexpr explicit scale(int) {}
    constexpr double operator()(double v) const { return 2 * v; }
};

// Two pure callables given one hash, as two types' names could hash alike.
struct plus_one {
    constexpr double operator()(double v) const { return v + 1; }
};
struct times_two {
    constexpr double operator()(double v) const { return v * 2; }
};

}  // namespace pass_tests

template <>
struct cassette::passes::detail::type_hash<pass_tests::plus_one> : hash_constant<42> {};
template <>
struct cassette::passes::detail::type_hash<pass_tests::times_two> : hash_constant<42> {};
template <>
inline constexpr bool cassette::passes::is_pure<pass_tests::plus_one> = true;
template <>
inline constexpr bool cassette::passes::is_pure<pass_tests::times_two> = true;
template <>
inline constexpr bool cassette::passes::is_pure<pass_tests::scale> = true;
template <>
inline constexpr bool cassette::passes::is_pure<pass_tests::ramp_t> = true;
template <>
inline constexpr bool cassette::passes::is_pure<pass_tests::total_t> = true;
template <>
inline constexpr bool cassette::passes::is_pure<pass_tests::head_t> = true;

using namespace pass_tests;

TEST_CASE("transform rewrites bottom up and keeps nodes the rule does not match", "[passes]") {
    constexpr auto body = decltype(outer)::body<1>;
    // A rule by pattern: sin(x) becomes -x (a node of another shape).
    constexpr auto negated = ir::transform(body, []<class X>(ir::call<op::sin_t, X> const& c) {
        return -boost::hana::at_c<0>(c.args);
    });
    STATIC_REQUIRE(std::is_same_v<std::remove_const_t<decltype(negated)>,
                                  ir::call<op::add_t, ir::call<std::remove_const_t<decltype(wave)>, ir::param<0>>,
                                           ir::call<op::neg_t, ir::param<0>>>>);
    // A rule by concept: every constant doubled; the rule sees children already rewritten.
    constexpr auto doubled = ir::transform(decltype(wave)::body<1>, []<class N>(N const& n)
                                               requires ir::is_constant<N> { return ir::constant(n.value * 2); });
    STATIC_REQUIRE(boost::hana::at_c<1>(doubled.args).value == 4.0);
    // Bottom-up order: the rule sees each node after its children.
    std::vector<std::string> order;
    ir::transform(decltype(outer)::body<1>, [&order](auto const& n) {
        if constexpr (ir::is_call<std::remove_cvref_t<decltype(n)>>) order.emplace_back(cassette::name_of(n.fn));
        return n;
    });
    CHECK(order == std::vector<std::string>{"wave", "sin", "+"});
}

// Top down, a call to wave is kept whole; bottom up, every other parameter is negated.
struct keep_wave_negate_x {
    template <class X>
    constexpr auto before(ir::call<std::remove_const_t<decltype(wave)>, X> const& c) const {
        return c;
    }
    constexpr auto operator()(ir::param<0> const& x) const { return -x; }
};

struct wave_to_two {
    template <class X>
    constexpr double before(ir::call<std::remove_const_t<decltype(wave)>, X> const&) const {
        return 2.0;
    }
};

// The same, with an unconstrained before that leaves every other node to the walk.
template <class N>
inline constexpr bool calls_wave = false;
template <class X>
inline constexpr bool calls_wave<ir::call<std::remove_const_t<decltype(wave)>, X>> = true;
struct keep_wave_negate_x_descending {
    template <class N>
    constexpr auto before(N const& n) const {
        if constexpr (calls_wave<N>)
            return n;
        else
            return ir::descend{};
    }
    constexpr auto operator()(ir::param<0> const& x) const { return -x; }
};

// Top down only, no bottom-up part: every sin(...) becomes 3, wherever it is.
template <class N>
inline constexpr bool calls_sin = false;
template <class X>
inline constexpr bool calls_sin<ir::call<op::sin_t, X>> = true;
struct sin_to_three {
    template <class N>
    constexpr auto before(N const&) const {
        if constexpr (calls_sin<N>)
            return 3.0;
        else
            return ir::descend{};
    }
};

TEST_CASE("transform applies a rule's before member top down, in place of the subtree", "[passes]") {
    constexpr auto rewritten = ir::transform(decltype(outer)::body<1>, keep_wave_negate_x{});
    using x = ir::param<0>;
    STATIC_REQUIRE(std::is_same_v<std::remove_const_t<decltype(rewritten)>,
                                  ir::call<op::add_t, ir::call<std::remove_const_t<decltype(wave)>, x>,
                                           ir::call<op::sin_t, ir::call<op::neg_t, x>>>>);
    // A plain value from before becomes a constant, as one from the bottom-up rule does.
    constexpr auto waveless = ir::transform(decltype(outer)::body<1>, wave_to_two{});
    STATIC_REQUIRE(std::is_same_v<std::remove_const_t<decltype(waveless)>,
                                  ir::call<op::add_t, ir::constant<double>, ir::call<op::sin_t, x>>>);
    // ir::descend from before: the node is walked into and given to the bottom-up rule.
    constexpr auto descending = ir::transform(decltype(outer)::body<1>, keep_wave_negate_x_descending{});
    STATIC_REQUIRE(std::is_same_v<std::remove_const_t<decltype(descending)>, std::remove_const_t<decltype(rewritten)>>);
    // A rule with before only: the walk goes down to every sin, inside wave's body too.
    constexpr auto sinless = ir::transform(decltype(wave)::body<1>, sin_to_three{});
    STATIC_REQUIRE(std::is_same_v<std::remove_const_t<decltype(sinless)>, ir::call<op::mul_t, ir::constant<double>, ir::constant<double>>>);
    STATIC_REQUIRE(boost::hana::at_c<0>(sinless.args).value == 3.0);
    STATIC_REQUIRE(boost::hana::at_c<1>(sinless.args).value == 2.0);
}

// A node type a pass spells with decltype of a constexpr variable has a const callee type.
struct passes_through {
    constexpr double operator()(double x, auto const&...) const { return x; }
};
inline constexpr passes_through through{};

TEST_CASE("transform hands a rule the same call types whatever the call's arity", "[passes]") {
    using x = ir::param<0>;
    constexpr ir::call<decltype(through), x> unary{{}, through, {{x{}}}};
    constexpr ir::call<decltype(through), x, x, x> ternary{{}, through, {{x{}}, {x{}}, {x{}}}};
    constexpr auto to_seven = []<class... A>(ir::call<passes_through, A...> const&) { return ir::constant(7); };
    STATIC_REQUIRE(std::is_same_v<std::remove_const_t<decltype(ir::transform(unary, to_seven))>, ir::constant<int>>);
    STATIC_REQUIRE(std::is_same_v<std::remove_const_t<decltype(ir::transform(ternary, to_seven))>, ir::constant<int>>);
}

TEST_CASE("a context's pass is applied to every traced function it enters, recursion included", "[passes]") {
    // The rewritten body is computed at compile time.
    constexpr auto rewritten = sin_to_cos::pass(decltype(wave)::body<1>);
    STATIC_REQUIRE(std::is_same_v<std::remove_const_t<decltype(rewritten)>,
                                  ir::call<op::mul_t, ir::call<op::cos_t, ir::param<0>>, ir::constant<double>>>);
    sin_to_cos c;
    CHECK(cassette::overdub(c, outer, 0.5) == std::cos(0.5) * 2.0 + std::cos(0.5));
    CHECK(cassette::overdub(sin_to_cos{}, sines, 3, 0.5) == 3 * std::cos(0.5));
    CHECK(sines(3, 0.5) == 3 * std::sin(0.5));  // plain calls are untouched
}

inline constexpr auto sin_cos_tan = passes::compose(passes::replace(cassette::sin, cassette::cos),
                                                    passes::replace(cassette::cos, cassette::tan));
inline constexpr auto cos_tan_then_sin_cos = passes::compose(passes::replace(cassette::cos, cassette::tan),
                                                             passes::replace(cassette::sin, cassette::cos));

TEST_CASE("compose applies its passes in order", "[passes]") {
    CHECK(cassette::overdub(with_pass<sin_cos_tan>{}, wave, 0.5) == std::tan(0.5) * 2.0);
    CHECK(cassette::overdub(with_pass<cos_tan_then_sin_cos>{}, wave, 0.5) == std::cos(0.5) * 2.0);
}

TEST_CASE("fold_constants evaluates calls on constants at compile time, idempotently", "[passes][law]") {
    // Plain operands would be computed by C++ while building; constant nodes are not.
    constexpr auto g = cassette::function([](auto x) {
        return x * (ir::constant(2) * 3 + 1) - cassette::max(ir::constant(4), 9) / 3;
    });
    constexpr auto folded = passes::fold_constants(decltype(g)::body<1>);
    using folded_type = std::remove_const_t<decltype(folded)>;
    STATIC_REQUIRE(std::is_same_v<folded_type, ir::call<op::sub_t, ir::call<op::mul_t, ir::param<0>, ir::constant<int>>,
                                                        ir::constant<int>>>);
    STATIC_REQUIRE(boost::hana::at_c<1>(boost::hana::at_c<0>(folded.args).args).value == 7);
    STATIC_REQUIRE(boost::hana::at_c<1>(folded.args).value == 3);
    STATIC_REQUIRE(std::is_same_v<decltype(passes::fold_constants(folded)), folded_type>);
    counter plain;
    with_pass<passes::fold_constants> folding;
    CHECK(cassette::overdub(plain, g, 2) == cassette::overdub(folding, g, 2));
    CHECK(plain.calls == 6);
    CHECK(folding.calls == 2);
}

// e + scale * N * 2 + ... + scale * 1 * 2, a chain N additions deep, each of a foldable product.
template <int N>
constexpr auto add_doubled_levels(auto e, int scale) {
    if constexpr (N == 0)
        return e;
    else
        return add_doubled_levels<N - 1>(e + ir::constant(scale * N) * 2, scale);
}

TEST_CASE("a body deeper than the compilers' limits on nesting is evaluated and rewritten in stages", "[passes]") {
    // Two chains 260 deep (two stages each) of the same type, whose constants differ: the staged subtrees of one
    // must not be taken for the other's.
    constexpr auto g = cassette::function<"g">([](auto x) { return add_doubled_levels<260>(x, 1) + add_doubled_levels<260>(x, 3); });
    constexpr int sum = 260 * 261 / 2;
    counter plain;
    with_pass<passes::fold_constants> folding;
    CHECK(cassette::overdub(plain, g, 5) == 2 * 5 + 2 * sum + 6 * sum);
    CHECK(cassette::overdub(folding, g, 5) == 2 * 5 + 2 * sum + 6 * sum);
    CHECK(plain.calls == 2 * 520 + 1);
    CHECK(folding.calls == 2 * 260 + 1);  // every product folded, at every level
    // A form's children are staged as bodies of their own.
    constexpr auto h = cassette::function<"h">([](auto x) {
        return cassette::if_(x > 0, add_doubled_levels<260>(x, 1), x) + cassette::let(add_doubled_levels<260>(x, 3), [](auto v) { return v; });
    });
    CHECK(cassette::overdub(folding, h, 5) == 2 * 5 + 2 * sum + 6 * sum);
    CHECK(cassette::overdub(folding, h, -5) == 2 * -5 + 6 * sum);
    // cse, whose replacement walks the whole chain (x * x is at its bottom and at the top), in stages too.
    constexpr auto k = cassette::function<"k">([](auto x) { return add_doubled_levels<260>(x * x, 1) + x * x; });
    with_pass<passes::cse> sharing;
    CHECK(cassette::overdub(sharing, k, 5) == 25 + 2 * sum + 25);
    // x * x once; the products of constants share one type, so one is bound and each other occurrence,
    // whose constants differ, evaluates its own: 1 + 1 + 259; then the 260 additions and the last one.
    CHECK(sharing.calls == 1 + 1 + 259 + 260 + 1);
}

TEST_CASE("calls_self finds a self call wherever it is: in a call, a form, a form in a call, a deep chain", "[passes]") {
    auto const x = ir::param<0>{};
    using cassette::self;
    STATIC_REQUIRE(!ir::calls_self<decltype(x)>);
    STATIC_REQUIRE(!ir::calls_self<decltype(cassette::sin(x) * 2.0)>);
    STATIC_REQUIRE(ir::calls_self<decltype(self(x))>);
    STATIC_REQUIRE(ir::calls_self<decltype(cassette::sin(self(x)) * 2.0)>);
    STATIC_REQUIRE(ir::calls_self<decltype(cassette::if_(x > 0, x, self(x - 1)))>);
    STATIC_REQUIRE(ir::calls_self<decltype(2.0 * cassette::if_(x > 0, x, self(x - 1)))>);
    STATIC_REQUIRE(!ir::calls_self<decltype(2.0 * cassette::if_(x > 0, x, x - 1))>);
    STATIC_REQUIRE(ir::calls_self<decltype(x + cassette::let(x * 2, [](auto v) { return cassette::sin(self(v)); }))>);
    STATIC_REQUIRE(ir::calls_self<decltype(cassette::call(cassette::if_(x > 0, x, self(x)), 1.0))>);  // in a callee
    // 300 calls above the self call: more than two stages.
    STATIC_REQUIRE(ir::calls_self<decltype(add_doubled_levels<150>(self(x), 1))>);
    STATIC_REQUIRE(!ir::calls_self<decltype(add_doubled_levels<150>(x, 1))>);
}

TEST_CASE("strength_reduction turns pow(x, 2) into square(x), in pow's result type", "[passes]") {
    constexpr auto g = cassette::function<"g">([](auto x) {
        return cassette::pow(x + 1.0, 2) + cassette::pow(x, 0.5) + cassette::pow(x, 3);
    });
    with_pass<passes::strength_reduction> reduced;
    double const x = 1.7;
    CHECK(cassette::overdub(reduced, g, x) == (x + 1) * (x + 1) + std::pow(x, 0.5) + std::pow(x, 3));
    std::string const listing = cassette::code_overdubbed(reduced, g, x);
    CHECK(listing.find("%1 = overdub(ctx, +, _1, 1)") != std::string::npos);  // x + 1 once,
    CHECK(listing.find("%2 = overdub(ctx, square, %1)") != std::string::npos);  // squared
    CHECK(listing.find("overdub(ctx, pow, _1, 0.5)") != std::string::npos);     // sqrt differs at -0
    CHECK(listing.find("overdub(ctx, pow, _1, 3)") != std::string::npos);
    // An int is squared as std::pow squares it, in double: no overflow.
    constexpr auto h = cassette::function<"h">([](auto n) { return cassette::pow(n, 2); });
    CHECK(cassette::overdub(reduced, h, 100000) == 1e10);
    CHECK(cassette::overdub(reduced, h, 1.1f) == std::pow(1.1f, 2));
}

TEST_CASE("cse evaluates repeated pure subtrees once, idempotently", "[passes][law]") {
    constexpr auto g = cassette::function<"g">([](auto x, auto y) {
        auto a = cassette::sin(x * y + 1.0);
        auto b = cassette::sin(x * y + 2.0);  // same type as a, different constant
        return a * a + b + cassette::exp(x * y);
    });
    constexpr auto once = passes::cse(decltype(g)::body<2>);
    STATIC_REQUIRE(std::is_same_v<decltype(passes::cse(once)), std::remove_const_t<decltype(once)>>);
    counter plain;
    with_pass<passes::cse> merged;
    CHECK(cassette::overdub(plain, g, 0.3, 0.7) == cassette::overdub(merged, g, 0.3, 0.7));
    // By hand: a is *, +, sin (3 calls) twice; b 3; a * a, the two +, exp(x * y) 2: 14.
    // With CSE, x * y (in a, in b and in exp) once, a's + and sin once, a * a, b's + and sin (its
    // constant differs from a's: it keeps its own expression), exp and the two +:
    // 1 + 2 + 1 + 2 + 1 + 2 = 9.
    CHECK(plain.calls == 14);
    CHECK(merged.calls == 9);

    // Calls to a callable that is not known to be pure are never merged.
    constexpr auto logged = cassette::function([](auto log, auto x) { return log(x) + log(x); });
    std::vector<double> seen;
    CHECK(cassette::overdub(with_pass<passes::cse>{}, logged, logger{&seen}, 2.0) == 4.0);
    CHECK(seen.size() == 2);
    // Nor is a subtree holding such a call inside a special form.
    constexpr auto logged_branch = cassette::function([](auto log, auto x) {
        return cassette::sin(cassette::if_(x > 0.0, log(x), 1.0)) + cassette::sin(cassette::if_(x > 0.0, log(x), 1.0));
    });
    seen.clear();
    CHECK(cassette::overdub(with_pass<passes::cse>{}, logged_branch, logger{&seen}, 2.0) == 2 * std::sin(2.0));
    CHECK(seen.size() == 2);
}

// A callable that a call makes: a call through it has a callee that is itself an expression.
inline constexpr auto adder = [](double a) { return [a](double b) { return a + b; }; };

TEST_CASE("cse shares the subtrees of a callee that is an expression, larger than the rest of the body", "[passes]") {
    // The callee adder(s + x * x) has 10 nodes, the body's root 8: a call's size leaves its
    // callee out, so the root is not the region's largest call.
    constexpr auto g = cassette::function<"g">([](auto x) {
        auto s = cassette::sin(x) * cassette::sin(x);
        return cassette::call(cassette::call(adder, s + x * x), x) + s;
    });
    double const x = 0.7;
    double const s = std::sin(x) * std::sin(x);
    counter plain;
    with_pass<passes::cse> merged;
    CHECK(cassette::overdub(plain, g, x) == ((s + x * x) + x) + s);
    CHECK(cassette::overdub(merged, g, x) == ((s + x * x) + x) + s);
    // By hand: s (sin, sin, *) twice, x * x, the +, the call to adder, the call through its
    // result, the last +: 11. With cse, sin and s once: 7.
    CHECK(plain.calls == 11);
    CHECK(merged.calls == 7);
}

// Counts the regions a context is told of, per kind (if_, then_, else_, let, fold).
struct region_counter : counter {
    static constexpr auto pass = passes::cse;
    std::array<int, 5> entered{};
    int region(cassette::region_kind kind) {
        return ++entered[static_cast<std::size_t>(kind)];
    }
};

TEST_CASE("cse tells a context of no region the program does not have", "[passes]") {
    // sin(x * y + 2.0) has the type of the shared sin(x * y + 1.0) but not its constant: it is
    // evaluated as its own expression, not as a branch of an if_ the program does not have.
    constexpr auto g = cassette::function<"g">([](auto x, auto y) {
        auto a = cassette::sin(x * y + 1.0);
        return a * a + cassette::sin(x * y + 2.0);
    });
    region_counter ctx;
    double const x = 0.3, y = 0.7;
    double const a = std::sin(x * y + 1.0);
    CHECK(cassette::overdub(ctx, g, x, y) == a * a + std::sin(x * y + 2.0));
    CHECK(ctx.calls == 3 + 1 + 3 + 1);  // a once, a * a, the other sine's three calls, the sum
    CHECK(ctx.entered == std::array<int, 5>{0, 0, 0, 1, 0});  // the let cse binds a with, only
}

// By hand: r(x, n) = (r(x / 2, n - 1) + r(x, n - 2)) * x for n >= 1, else 1.5.
double recursive_twin(double x, int n) { return n >= 1 ? (recursive_twin(x * 0.5, n - 1) + recursive_twin(x, n - 2)) * x : 1.5; }

TEST_CASE("cse shares a region's repeated subtrees in one form, inside a recursive body too", "[passes]") {
    // n - 1 and n - 2 have one type: cse binds it, and n - 2 keeps its own expression. The body
    // still calls itself through the form that holds the binding.
    constexpr auto r = cassette::function<"r">([](auto x, auto n) {
        return cassette::if_(n >= 1, (cassette::self(x * 0.5, n - 1) + cassette::self(x, n - 2)) * x, 1.5);
    });
    STATIC_REQUIRE(ir::calls_self<std::remove_const_t<decltype(passes::cse(decltype(r)::body<2>))>>);
    STATIC_REQUIRE(ir::any_node_of<ir::special_form_of, decltype(r)::body_type<2>>::value);  // the if_ itself
    for (int n = 0; n != 6; ++n) CHECK(cassette::overdub(with_pass<passes::cse>{}, r, 0.7, n) == recursive_twin(0.7, n));

    // Same-typed self calls, with other constants and with the same ones, are left as they are:
    // a self call's value has the function's own type, still being worked out when the region is.
    constexpr auto fib = cassette::function<"fib">([](auto x, auto n) {
        return cassette::if_(n < 1, x, cassette::self(x, n - 1) + cassette::self(x, n - 2));
    });
    constexpr auto square_twice = cassette::function<"square_twice">([](auto x, auto n) {
        return cassette::if_(n < 1, x, cassette::self(x, n - 1) * cassette::self(x, n - 1) + x);
    });
    // By hand: fib(0.5, n) = 0.5 * F(n + 2), F the Fibonacci numbers from F(1) = F(2) = 1, since
    // n < 1 gives 0.5 = 0.5 * F(1) and 0.5 * F(2); square_twice(0.5, n) = square_twice(0.5, n - 1)^2 + 0.5.
    CHECK(cassette::overdub(with_pass<passes::cse>{}, fib, 0.5, 3) == 2.5);
    CHECK(cassette::overdub(with_pass<passes::cse>{}, fib, 0.5, 5) == 6.5);
    CHECK(cassette::overdub(with_pass<passes::cse>{}, square_twice, 0.5, 2) == 1.0625);

    // Same-typed subtrees whose constants differ only inside an if_ are different expressions.
    constexpr auto h = cassette::function<"h">([](auto x) {
        return cassette::sin(cassette::if_(x > 0.0, x, 1.0)) + cassette::sin(cassette::if_(x > 0.0, x, 2.0));
    });
    double const sin1 = std::sin(1.0), sin2 = std::sin(2.0);
    CHECK(cassette::overdub(with_pass<passes::cse>{}, h, -1.0) == sin1 + sin2);

    // Three repeated subtrees, bound together: each is evaluated once, and the listing reads them.
    constexpr auto g = cassette::function<"g">([](auto x, auto y) {
        auto p = x * y;
        auto s = cassette::sin(x);
        return (p + s) * (p + s) + cassette::cos(y) * cassette::cos(y);
    });
    with_pass<passes::cse> merged;
    double const x = 0.4, y = 1.3;
    // One operation per statement, as the body computes it (Clang would fuse `a * a + c * c`).
    double const p = x * y, a = p + std::sin(x), c = std::cos(y);
    double const aa = a * a, cc = c * c;
    CHECK(cassette::overdub(merged, g, x, y) == aa + cc);
    // By hand: p + s (3 calls) and cos(y) once each, then the two products and the sum: 7.
    CHECK(merged.calls == 7);
    CHECK(cassette::code_lowered(g, x, y) ==
          "g(::double, ::double)\n"
          "  %1 = *(_1, _2)\n"
          "  %2 = sin(_1)\n"
          "  %3 = +(%1, %2)\n"
          "  %4 = *(_1, _2)\n"
          "  %5 = sin(_1)\n"
          "  %6 = +(%4, %5)\n"
          "  %7 = *(%3, %6)\n"
          "  %8 = cos(_2)\n"
          "  %9 = cos(_2)\n"
          "  %10 = *(%8, %9)\n"
          "  %11 = +(%7, %10)\n"
          "  return %11\n");
    CHECK(overdubbed_statements(merged, g, x, y) ==
          "  %1 = overdub(ctx, *, _1, _2)\n"
          "  %2 = overdub(ctx, sin, _1)\n"
          "  %3 = overdub(ctx, +, %1, %2)\n"
          "  %4 = overdub(ctx, cos, _2)\n"
          "  %5 = overdub(ctx, *, %3, %3)\n"
          "  %6 = overdub(ctx, *, %4, %4)\n"
          "  %7 = overdub(ctx, +, %5, %6)\n"
          "  return %7\n");
}

TEST_CASE("cse holds a value that its last call reads out of a value made on the way", "[passes][regression]") {
    // make(x, y)[0] twice: the held value's getindex refers into the array make returned, which
    // is gone once the value is made; the value must be a copy (it once read a dead array).
    constexpr auto g = cassette::function<"g">([](auto x, auto y) {
        return cassette::make<std::array<double, 2>>(x, y)[0] * cassette::make<std::array<double, 2>>(x, y)[0];
    });
    with_pass<passes::cse> merged;
    CHECK(cassette::overdub(merged, g, -1.25, 0.5) == 1.5625);  // (-1.25)^2
    CHECK(merged.calls == 3);                                  // make, [], *: each once
}

inline constexpr auto cse_then_strength = passes::compose(passes::cse, passes::strength_reduction);

TEST_CASE("a pass after cse keeps its values, in the special forms it makes too", "[passes]") {
    // strength_reduction puts each pow(r2, 0.5) into a decided if_; the calls in it still read
    // the values cse holds.
    constexpr auto g = cassette::function<"g">([](auto x, auto y) {
        auto r2 = x * x + y * y;
        return cassette::sin(r2) * cassette::pow(r2, 0.5) + cassette::sin(r2) / (1.0 + cassette::pow(r2, 0.5));
    });
    double const x = 0.3, y = 0.9;
    double const r2 = x * x + y * y, root = std::pow(r2, 0.5);
    counter plain;
    with_pass<cse_then_strength> both;
    double const shared = cassette::overdub(both, g, x, y);
    CHECK(shared == cassette::overdub(plain, g, x, y));  // bit for bit: the same calls, fewer times
    CHECK(shared == Approx(std::sin(r2) * root + std::sin(r2) / (1.0 + root)));
    // By hand: r2 is three calls, used four times; sin and pow twice each; then *, +, / and +.
    CHECK(plain.calls == 3 * 4 + 2 + 2 + 4);
    // Shared: r2, sin and pow once each.
    CHECK(both.calls == 3 + 1 + 1 + 4);
}

inline constexpr auto cse_then_cos = passes::compose(passes::cse, passes::replace(cassette::sin, cassette::cos));
struct sines_counted : counter {
    static constexpr auto pass = cse_then_cos;
    int sines = 0;
    using counter::prehook;
    void prehook(op::sin_t const&, double) { ++sines, ++calls; }
};

TEST_CASE("a pass after cse rewrites the values cse holds too", "[passes]") {
    // sin(x) * y twice: cse holds sin(x) * y; replace then makes every sin a cos, in the value
    // too, which is still held: cos, * and the last * once each, and no sin at all.
    constexpr auto g = cassette::function<"g">([](auto x, auto y) {
        return (cassette::sin(x) * y) * (cassette::sin(x) * y);
    });
    sines_counted c;
    double const value = std::cos(0.4) * 1.5;
    CHECK(cassette::overdub(c, g, 0.4, 1.5) == value * value);
    CHECK(c.sines == 0);
    CHECK(c.calls == 3);
}

TEST_CASE("a value cse holds that a later pass makes a form is held as cse made it, while the body calls it", "[passes]") {
    // strength_reduction makes each pow(x, 0.5) if_(false, square(x), pow(x, 0.5)): a form,
    // whose live branch calls pow(x, 0.5), which reads the value cse made.
    constexpr auto g = cassette::function<"g">([](auto x) { return cassette::pow(x, 0.5) + cassette::pow(x, 0.5); });
    with_pass<cse_then_strength> both;
    CHECK(cassette::overdub(both, g, 2.25) == 3.0);  // 1.5 + 1.5
    CHECK(both.calls == 2);                         // pow once, then +
}

TEST_CASE("values a pass after cse rewrote are made before the values that read them", "[passes][regression]") {
    // cse holds b, then a = sin(pow(b, 2)), which reads b's value. strength_reduction makes a
    // sin of an if_, one node, whose live branch square(b) reads b: b must still be made first
    // (ordered by node counts, a was made first and read b's value before it was made).
    constexpr auto g = cassette::function<"g">([](auto x, auto y) {
        auto b = x * y + x;
        return cassette::sin(cassette::pow(b, 2.0)) + cassette::sin(cassette::pow(b, 2.0)) + b;
    });
    with_pass<cse_then_strength> both;
    double const b = 0.5 * 3.0 + 0.5;
    CHECK(cassette::overdub(both, g, 0.5, 3.0) == Approx(2 * std::sin(b * b) + b));
    CHECK(both.calls == 2 + 2 + 2);  // b: *, +; a: square, sin; then +, +
}

TEST_CASE("cse tells a zero from a negative zero", "[passes][regression]") {
    // x * 0.0 and x * -0.0 have one type; 1 / (2 * 0.0) is +inf, 1 / (2 * -0.0) is -inf.
    constexpr auto g = cassette::function<"g">([](auto x) { return 1.0 / (x * 0.0) - 1.0 / (x * -0.0); });
    with_pass<passes::cse> merged;
    CHECK(std::isinf(cassette::overdub(merged, g, 2.0)));  // inf - -inf, where one value for both gives NaN
    CHECK(cassette::overdub(merged, g, 2.0) > 0);
}

struct cse_only {
    static constexpr auto pass = passes::cse;
};

TEST_CASE("cse holds a call of an empty callee with no default value", "[passes][regression]") {
    // Evaluated as a constant too, where a value made from no occurrence is an error.
    constexpr auto squared = cassette::function<"squared">([](auto x) {
        return cassette::call(scale{1}, x) * cassette::call(scale{1}, x);
    });
    STATIC_REQUIRE(cassette::overdub(cse_only{}, squared, 0.25) == 0.25);  // (2 * 0.25)^2
    constexpr auto g = cassette::function<"g">([](auto x) {
        return cassette::sin(cassette::call(scale{1}, x)) + cassette::cos(cassette::call(scale{1}, x));
    });
    with_pass<passes::cse> merged;
    CHECK(cassette::overdub(merged, g, 0.25) == std::sin(0.5) + std::cos(0.5));
    CHECK(merged.calls == 4);  // scale once; sin, cos and +
}

TEST_CASE("cse holds no value whose hash another call of its region has", "[passes]") {
    // plus_one(x) twice would be held, but times_two(x) has its hash and would read its value:
    // nothing is held, and every call is made.
    constexpr auto g = cassette::function<"g">([](auto x) {
        return cassette::call(plus_one{}, x) * cassette::call(plus_one{}, x) + cassette::call(times_two{}, x);
    });
    with_pass<passes::cse> merged;
    CHECK(cassette::overdub(merged, g, 3.0) == 4.0 * 4.0 + 6.0);
    CHECK(merged.calls == 5);
}

TEST_CASE("cse shares a subtree between the values it binds and the rest of the region", "[passes]") {
    // a = sin(x) * y is bound; sin(x) is in a's value and once more on its own: bound too, and
    // a's value reads it.
    constexpr auto g = cassette::function<"g">([](auto x, auto y) {
        auto s = cassette::sin(x);
        auto a = s * y;
        return a * a + s;
    });
    with_pass<passes::cse> merged;
    double const x = 0.6, y = 1.7;
    double const s = std::sin(x), a = s * y, aa = a * a;
    CHECK(cassette::overdub(merged, g, x, y) == aa + s);
    CHECK(merged.calls == 4);  // sin, *, *, +: each once
    CHECK(overdubbed_statements(merged, g, x, y) ==
          "  %1 = overdub(ctx, sin, _1)\n"
          "  %2 = overdub(ctx, *, %1, _2)\n"
          "  %3 = overdub(ctx, *, %2, %2)\n"
          "  %4 = overdub(ctx, +, %3, %1)\n"
          "  return %4\n");

    // Three layers: p = x * y in q = p + 1 in r = sin(q) * q, each also used on its own, and r
    // twice. Each computed once: *, +, sin, *, then r * r, + p, + q.
    constexpr auto h = cassette::function<"h">([](auto x, auto y) {
        auto p = x * y;
        auto q = p + 1.0;
        auto r = cassette::sin(q) * q;
        return r * r + p + q;
    });
    with_pass<passes::cse> layered;
    double const p = x * y, q = p + 1.0, r = std::sin(q) * q, rr = r * r, rrp = rr + p;
    CHECK(cassette::overdub(layered, h, x, y) == rrp + q);
    CHECK(layered.calls == 7);
    counter plain;
    CHECK(cassette::overdub(plain, h, x, y) == rrp + q);
    CHECK(plain.calls == 18);  // r: sin(q) 3, q 2 and the product, 6; r * r 13; + p 15; + q 18
    // In a constant expression too. By hand, at 2 and 3: p = 6, q = 7, r = 5 * 7 = 35; 1225 + 6 + 7.
    constexpr auto k = cassette::function<"k">([](auto x, auto y) {
        auto p = x * y;
        auto q = p + 1;
        auto r = (q - 2) * q;
        return r * r + p + q;
    });
    STATIC_REQUIRE(cassette::overdub(cassette::disable_hooks(with_pass<passes::cse>{}), k, 2, 3) == 1238);
}

TEST_CASE("cse binds values that own memory, and destroys those it made when a later one throws", "[passes]") {
    // t = total(ramp(x)) twice, and ramp(x) once more: both bound, t's value reading ramp's.
    constexpr auto g = cassette::function<"g">([](auto x) {
        auto r = cassette::call(ramp, x);
        auto t = cassette::call(total, r);
        return t * t + cassette::call(head, r);
    });
    with_pass<passes::cse> merged;
    // By hand, at 1.5: r = {1.5, 3}, t = 4.5; 20.25 + 1.5.
    CHECK(cassette::overdub(merged, g, 1.5) == 21.75);
    CHECK(merged.calls == 5);  // ramp, total, *, head, +
    // At 200, total throws once ramp's vector is made: the exception goes on unchanged and the
    // vector is freed (the sanitizers' build checks for the leak).
    CHECK_THROWS_AS(cassette::overdub(merged, g, 200.0), std::domain_error);
    CHECK(merged.calls == 5 + 2);  // ramp, then total, which threw
}

TEST_CASE("code_lowered lists the body as numbered statements", "[passes][listing]") {
    constexpr auto f = cassette::function<"f">([](auto x, auto y) { return wave(x) + cassette::sin(y) * x; });
    CHECK(cassette::code_lowered(f, 1.0, 2.0) ==
          "f(::double, ::double)\n"
          "  %1 = wave(_1)\n"
          "  %2 = sin(_2)\n"
          "  %3 = *(%2, _1)\n"
          "  %4 = +(%1, %3)\n"
          "  return %4\n");
    constexpr auto fold_f = cassette::function<"fold_f">([](auto n) {
        return cassette::let(n * 2, [](auto m) { return cassette::fold(0, m, 1, [](auto i, auto acc) { return acc * i; }); });
    });
    CHECK(cassette::code_lowered(fold_f, 3) ==
          "fold_f(::int)\n"
          "  %1 = *(_1, 2)\n"
          "  %2 = for i2 in 0:%1, acc2 = 1\n"
          "    %3 = *(acc2, i2)\n"
          "    acc2 = %3\n"
          "  end\n"
          "  return %2\n");
}

TEST_CASE("code_overdubbed lists the hooks around each call, after the pass", "[passes][listing]") {
    CHECK(cassette::code_overdubbed(sin_to_cos{}, wave, 1.0) ==
          "overdub(ctx::pass_tests::sin_to_cos, wave, ::double)\n"
          "  prehook(ctx, cos, _1)\n"
          "  %1 = overdub(ctx, cos, _1)\n"
          "  posthook(ctx, %1, cos, _1)\n"
          "  prehook(ctx, *, %1, 2)\n"
          "  %2 = overdub(ctx, *, %1, 2)\n"
          "  posthook(ctx, %2, *, %1, 2)\n"
          "  return %2\n");
    sin_to_cos c;
    CHECK(cassette::code_overdubbed(cassette::disable_hooks(c), wave, 1.0) ==
          "overdub(ctx::pass_tests::sin_to_cos, wave, ::double)\n"
          "  %1 = overdub(ctx, cos, _1)\n"
          "  %2 = overdub(ctx, *, %1, 2)\n"
          "  return %2\n");
}

TEST_CASE("a form of a library's own is evaluated, rewritten, listed and drawn", "[passes][listing]") {
    constexpr auto f = cassette::function<"f">([](auto x, auto y) { return unless_zero_of(x * 2.0, cassette::sin(y)); });
    static_assert(ir::form_node<decltype(decltype(f)::body<2>)>);
    CHECK(f(1.5, 0.25) == 3.0);
    CHECK(f(0.0, 0.25) == std::sin(0.25));

    // Hooks see the second operand's call only when it is evaluated.
    counter c;
    CHECK(cassette::overdub(c, f, 1.5, 0.25) == 3.0);
    CHECK(c.calls == 1);
    CHECK(cassette::overdub(c, f, 0.0, 0.25) == std::sin(0.25));
    CHECK(c.calls == 3);

    // A pass reaches inside it: sin becomes cos.
    sin_to_cos rewritten;
    CHECK(cassette::overdub(rewritten, f, 0.0, 0.25) == std::cos(0.25));
    CHECK(cassette::overdub(rewritten, f, 0.5, 0.25) == 1.0);

    CHECK(cassette::code_lowered(f, 1.0, 1.0) ==
          "f(::double, ::double)\n"
          "  %1 = *(_1, 2)\n"
          "  %2 = unless_zero %1\n"
          "    %3 = sin(_2)\n"
          "    yield %3\n"
          "  end\n"
          "  return %2\n");

    // Two parameters, the constant, the two calls and the form's own node.
    constexpr auto g = cassette::graph::static_graph(f, 1.0, 1.0);
    static_assert(g.nodes().size() == 6);
    CHECK(g.nodes()[g.nodes().size() - 1].name == "unless_zero");
}
