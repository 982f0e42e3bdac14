// The traced-call DSL: bodies are built in constant evaluation, every operation is a call
// node, and plain evaluation computes what hand-written C++ computes.
#include <cassette/cassette.hpp>

#include <catch2/catch.hpp>

#include <boost/hana/drop_front.hpp>
#include <boost/hana/is_empty.hpp>
#include <boost/hana/length.hpp>

#include <array>
#include <cmath>
#include <functional>
#include <span>
#include <string_view>
#include <type_traits>
#include <vector>

namespace ir = cassette::ir;
namespace op = cassette::op;

namespace {

inline constexpr auto square = cassette::function<"square">([](auto x) { return x * x; });
inline constexpr auto f = cassette::function<"f">([](auto x, auto y) { return square(x) + cassette::sin(y); });

struct point {
    double x, y;
};
struct segment {
    point a, b;
};

double fused(double a, double b, double c) { return a * b + c; }

inline constexpr auto twice = cassette::function<"twice">([](auto g, auto x) { return g(g(x)); });

struct named_callable {
    static constexpr std::string_view name = "mine";
    double operator()(double v) const { return v; }
};

//[generic
// Cassette-unaware generic code: only std names and operators.
template <class T>
constexpr auto generic_wave(T const& x) {
    using std::sin;
    using std::exp;
    return sin(x) * x + exp(x);
}
//]

}  // namespace

TEST_CASE("a body is built in constant evaluation and its type records every call", "[dsl]") {
    using body = decltype(f)::body_type<2>;
    using square_call = ir::call<std::remove_cvref_t<decltype(square)>, ir::param<0>>;
    using sin_call = ir::call<op::sin_t, ir::param<1>>;
    STATIC_REQUIRE(std::is_same_v<body, ir::call<op::add_t, square_call, sin_call>>);
    STATIC_REQUIRE(std::is_same_v<decltype(square)::body_type<1>,
                                  ir::call<op::mul_t, ir::param<0>, ir::param<0>>>);
    // Evaluation is constexpr where the primitives are.
    STATIC_REQUIRE(square(7) == 49);
    STATIC_REQUIRE(cassette::function([](auto a, auto b) { return a % b + -a; })(17, 5) == 2 - 17);
}

TEST_CASE("plain evaluation computes what the C++ expression computes", "[dsl]") {
    CHECK(f(2.0, 0.5) == 4.0 + std::sin(0.5));
    CHECK(square(-3) == 9);
}

TEST_CASE("every operator is a call node with the right primitive", "[dsl]") {
    auto const x = ir::param<0>{};
    auto const y = ir::param<1>{};
    STATIC_REQUIRE(std::is_same_v<decltype(x - y), ir::call<op::sub_t, ir::param<0>, ir::param<1>>>);
    STATIC_REQUIRE(std::is_same_v<decltype(x / 2.0), ir::call<op::div_t, ir::param<0>, ir::constant<double>>>);
    STATIC_REQUIRE(std::is_same_v<decltype(3 % x), ir::call<op::mod_t, ir::constant<int>, ir::param<0>>>);
    STATIC_REQUIRE(std::is_same_v<decltype(-x), ir::call<op::neg_t, ir::param<0>>>);
    STATIC_REQUIRE(std::is_same_v<decltype(!x), ir::call<op::logical_not_t, ir::param<0>>>);
    STATIC_REQUIRE(std::is_same_v<decltype(x && y), ir::call<op::logical_and_t, ir::param<0>, ir::param<1>>>);
    STATIC_REQUIRE(std::is_same_v<decltype(x || y), ir::call<op::logical_or_t, ir::param<0>, ir::param<1>>>);
    STATIC_REQUIRE(std::is_same_v<decltype(x == y), ir::call<op::eq_t, ir::param<0>, ir::param<1>>>);
    STATIC_REQUIRE(std::is_same_v<decltype(x != y), ir::call<op::ne_t, ir::param<0>, ir::param<1>>>);
    STATIC_REQUIRE(std::is_same_v<decltype(x[y]), ir::call<op::getindex_t, ir::param<0>, ir::param<1>>>);

    constexpr auto arithmetic = cassette::function([](auto a, auto b) {
        return cassette::make<std::array<double, 5>>(a + b, a - b, a * b, a / b, -a);
    });
    CHECK(arithmetic(6.0, 4.0) == std::array<double, 5>{10, 2, 24, 1.5, -6});
    constexpr auto logic = cassette::function([](auto a, auto b) {
        return cassette::make<std::array<bool, 8>>(a < b, a <= b, a > b, a >= b, a == b, a != b, (a < b) && (b > a),
                                                   (a > b) || !(a < b));
    });
    CHECK(logic(6.0, 4.0) == std::array<bool, 8>{false, false, true, true, false, true, false, true});
}

TEST_CASE("the math primitives compute std's values on plain and symbolic arguments", "[dsl]") {
    // Read at run time, so that no side is computed by the compiler (whose cbrt rounds
    // correctly where glibc's may be an ulp off) at one optimisation level and not another.
    static double volatile const opaque[] = {0.375, 1.75};
    double const x = opaque[0], y = opaque[1];
    constexpr auto unary = cassette::function([](auto v) {
        namespace c = cassette;
        return c::make<std::array<double, 17>>(c::sin(v), c::cos(v), c::tan(v), c::asin(v), c::acos(v), c::atan(v),
                                               c::sinh(v), c::cosh(v), c::tanh(v), c::exp(v), c::log(v), c::log1p(v),
                                               c::expm1(v), c::sqrt(v), c::cbrt(v), c::floor(v * 10), c::ceil(v * 10));
    });
    std::array<double, 17> const expected{std::sin(x),   std::cos(x),   std::tan(x),       std::asin(x),
                                          std::acos(x),  std::atan(x),  std::sinh(x),      std::cosh(x),
                                          std::tanh(x),  std::exp(x),   std::log(x),       std::log1p(x),
                                          std::expm1(x), std::sqrt(x),  std::cbrt(x),      3.0, 4.0};
    CHECK(unary(x) == expected);

    constexpr auto binary = cassette::function([](auto a, auto b) {
        namespace c = cassette;
        return c::make<std::array<double, 6>>(c::atan2(a, b), c::pow(a, b), c::hypot(a, b), c::min(a, b), c::max(a, b),
                                              c::abs(-a));
    });
    CHECK(binary(x, y) == std::array<double, 6>{std::atan2(x, y), std::pow(x, y), std::hypot(x, y), x, y, x});
    // The same objects work on plain values, and cassette::sin is op::sin.
    CHECK(cassette::hypot(3.0, 4.0) == 5.0);
    STATIC_REQUIRE(&cassette::sin == &op::sin);
}

namespace {
// Each primitive's traits, as the passes, tagging and AD were written against them:
// {folded by fold_constants, a call to libm, seen through by tags}.
template <class G>
constexpr std::array<bool, 3> traits{cassette::passes::constant_foldable<G>, cassette::ad::detail::libm_call<G>,
                                     cassette::structural_primitive<G>};
constexpr std::array<bool, 3> folded{true, false, false}, compared{true, false, true}, libm{false, true, false},
    structural{false, false, true}, plain{false, false, false};
}  // namespace

TEST_CASE("every primitive's traits: folded, a libm call, seen through by tags", "[dsl]") {
    STATIC_REQUIRE(traits<op::add_t> == folded);
    STATIC_REQUIRE(traits<op::sub_t> == folded);
    STATIC_REQUIRE(traits<op::mul_t> == folded);
    STATIC_REQUIRE(traits<op::div_t> == folded);
    STATIC_REQUIRE(traits<op::mod_t> == folded);
    STATIC_REQUIRE(traits<op::neg_t> == folded);
    STATIC_REQUIRE(traits<op::logical_and_t> == folded);
    STATIC_REQUIRE(traits<op::logical_or_t> == folded);
    STATIC_REQUIRE(traits<op::logical_not_t> == folded);
    STATIC_REQUIRE(traits<op::min_t> == folded);
    STATIC_REQUIRE(traits<op::max_t> == folded);
    STATIC_REQUIRE(traits<op::square_t> == folded);
    STATIC_REQUIRE(traits<op::lt_t> == compared);
    STATIC_REQUIRE(traits<op::le_t> == compared);
    STATIC_REQUIRE(traits<op::gt_t> == compared);
    STATIC_REQUIRE(traits<op::ge_t> == compared);
    STATIC_REQUIRE(traits<op::eq_t> == compared);
    STATIC_REQUIRE(traits<op::ne_t> == compared);
    STATIC_REQUIRE(traits<op::sin_t> == libm);
    STATIC_REQUIRE(traits<op::cos_t> == libm);
    STATIC_REQUIRE(traits<op::tan_t> == libm);
    STATIC_REQUIRE(traits<op::asin_t> == libm);
    STATIC_REQUIRE(traits<op::acos_t> == libm);
    STATIC_REQUIRE(traits<op::atan_t> == libm);
    STATIC_REQUIRE(traits<op::atan2_t> == libm);
    STATIC_REQUIRE(traits<op::sinh_t> == libm);
    STATIC_REQUIRE(traits<op::cosh_t> == libm);
    STATIC_REQUIRE(traits<op::tanh_t> == libm);
    STATIC_REQUIRE(traits<op::exp_t> == libm);
    STATIC_REQUIRE(traits<op::expm1_t> == libm);
    STATIC_REQUIRE(traits<op::log_t> == libm);
    STATIC_REQUIRE(traits<op::log1p_t> == libm);
    STATIC_REQUIRE(traits<op::cbrt_t> == libm);
    STATIC_REQUIRE(traits<op::hypot_t> == libm);
    // Not constant expressions with Clang, and not libm calls to share: often an instruction
    // (sqrt, abs, floor, ceil), or inlined for small integer exponents (pow).
    STATIC_REQUIRE(traits<op::sqrt_t> == plain);
    STATIC_REQUIRE(traits<op::abs_t> == plain);
    STATIC_REQUIRE(traits<op::floor_t> == plain);
    STATIC_REQUIRE(traits<op::ceil_t> == plain);
    STATIC_REQUIRE(traits<op::pow_t> == plain);
    STATIC_REQUIRE(traits<op::getindex_t> == structural);
    STATIC_REQUIRE(traits<op::length_t> == structural);
    STATIC_REQUIRE(traits<op::get_t<1>> == structural);
    STATIC_REQUIRE(traits<op::make_t<point>> == structural);
    STATIC_REQUIRE(traits<named_callable> == plain);  // a callable of the user's
}

TEST_CASE("Cassette-unaware generic code turns into IR when given symbolic values", "[dsl]") {
    //[generic_traced
    constexpr auto traced_wave = cassette::function([](auto x) { return generic_wave(x); });
    using body = decltype(traced_wave)::body_type<1>;
    STATIC_REQUIRE(std::is_same_v<body, ir::call<op::add_t, ir::call<op::mul_t, ir::call<op::sin_t, ir::param<0>>, ir::param<0>>,
                                                 ir::call<op::exp_t, ir::param<0>>>>);
    //]
    CHECK(traced_wave(0.5) == generic_wave(0.5));
}

TEST_CASE("indexing and length work on vectors, arrays and spans, without copies", "[dsl]") {
    constexpr auto first_plus_last = cassette::function([](auto v) { return v[0] + v[cassette::length(v) - 1]; });
    std::vector<double> const vec{1.5, 2.0, 4.0};
    std::array<int, 4> const arr{1, 2, 3, 10};
    double raw[] = {7.0, 8.0};
    CHECK(first_plus_last(vec) == 5.5);
    CHECK(first_plus_last(arr) == 11);
    CHECK(first_plus_last(std::span<double const>(raw)) == 15.0);

    // x[i] on a parameter yields a reference into the caller's vector.
    constexpr auto element = cassette::function([](auto v, auto i) { return cassette::call([](double const& e) { return &e; }, v[i]); });
    CHECK(element(vec, 1) == &vec[1]);
}

TEST_CASE("get<I> and make<T> reflect plain aggregates with Boost.PFR", "[dsl]") {
    //[aggregates
    constexpr auto swap_xy = cassette::function([](auto p) {
        return cassette::make<point>(cassette::get<1>(p), cassette::get<0>(p));
    });
    //]
    auto const q = swap_xy(point{1.0, 2.0});
    CHECK(q.x == 2.0);
    CHECK(q.y == 1.0);

    constexpr auto length2 = cassette::function([](auto s) {
        auto dx = cassette::get<0>(cassette::get<1>(s)) - cassette::get<0>(cassette::get<0>(s));
        auto dy = cassette::get<1>(cassette::get<1>(s)) - cassette::get<1>(cassette::get<0>(s));
        return dx * dx + dy * dy;
    });
    CHECK(length2(segment{{1, 1}, {4, 5}}) == 25.0);
    CHECK(cassette::get<1>(std::array<int, 2>{3, 4}) == 4);
    CHECK(cassette::name_of(op::get<12>) == "get<12>");
    CHECK(cassette::name_of(op::make<point>) == "make");
}

TEST_CASE("call(g, ...) records any callable as a primitive", "[dsl]") {
    constexpr auto g = cassette::function([](auto x) { return cassette::call([](double v) { return v + 0.5; }, x) * 2.0; });
    CHECK(g(1.0) == 3.0);
    constexpr auto h = cassette::function([](auto x) { return cassette::call(&fused, x, x, 1.0); });
    CHECK(h(3.0) == 10.0);
}

// A member pointer as the callee is called as std::invoke would: on an object of its class (or
// of a derived one), or on a pointer to one; a context's hooks see it as any callee.
struct account {
    double balance;
    int id;
    constexpr double after(double rate, int years) const { return balance * (1 + rate * years); }
    constexpr int next_id() const { return id + 1; }
};
struct savings : account {};

TEST_CASE("call(member pointer, ...) reads a member or calls a member function", "[dsl]") {
    constexpr auto interest = cassette::function([](auto a, auto rate) {
        return cassette::call(&account::after, a, rate, 2) - cassette::call(&account::balance, a);
    });
    // 100 * (1 + 0.5 * 2) - 100
    CHECK(interest(account{100.0, 7}, 0.5) == 100.0);
    CHECK(interest(savings{{100.0, 7}}, 0.5) == 100.0);
    account const a{40.0, 7};
    CHECK(interest(&a, 0.25) == 20.0);
    static_assert(interest(account{8.0, 1}, 0.5) == 8.0);

    constexpr auto ids = cassette::function([](auto a) { return cassette::call(&account::next_id, a) * 10 + cassette::call(&account::id, a); });
    CHECK(ids(account{1.0, 4}) == 54);
    cassette::contexts::call_counter counter;
    CHECK(cassette::overdub(counter, ids, &a) == 87);
    CHECK(counter.total() == 4);  // next_id, *, id, +
    CHECK(counter.count("*") == 1);
}

// Calls of up to three arguments are evaluated inside the evaluator's node function, longer
// ones through a helper: every arity, with its arguments in order and of mixed kinds.
struct digits {
    constexpr long operator()(auto const&... d) const {
        long r = 0;
        ((r = r * 10 + long(d)), ...);
        return r;
    }
};

TEST_CASE("calls of every arity pass their arguments in order", "[dsl]") {
    constexpr auto g = cassette::function([](auto x, auto y) {
        return cassette::call(digits{}) + cassette::call(digits{}, x) + cassette::call(digits{}, x, y) * 10 +
               cassette::call(digits{}, y, 3, x) * 100 + cassette::call(digits{}, x, y, 3, x * y) * 1000 +
               cassette::call(digits{}, 5, x, y + 1, 3, x) * 100000;
    });
    // With x = 1, y = 2: 0 + 1 + 12 * 10 + 231 * 100 + 1232 * 1000 + 51331 * 100000.
    CHECK(g(1, 2) == 0 + 1 + 120 + 23100 + 1232000 + 5133100000L);
}

TEST_CASE("a call node's arguments are a Boost.Hana sequence", "[dsl]") {
    constexpr auto& b = cassette::function([](auto x) { return cassette::call(std::plus<>{}, x, 2.5) * x; })
                            .body<1>;
    constexpr auto& plus = boost::hana::at_c<0>(b.args);
    STATIC_REQUIRE(boost::hana::at_c<1>(plus.args).value == 2.5);
    STATIC_REQUIRE(std::is_same_v<ir::argument_t<std::remove_cvref_t<decltype(plus)>, 0>, ir::param<0>>);
    STATIC_REQUIRE(decltype(boost::hana::length(plus.args))::value == 2);
    STATIC_REQUIRE(!decltype(boost::hana::is_empty(plus.args))::value);
    STATIC_REQUIRE(boost::hana::at_c<0>(boost::hana::drop_front(plus.args)).value == 2.5);
    STATIC_REQUIRE(decltype(boost::hana::is_empty(boost::hana::drop_front(plus.args, boost::hana::size_c<2>)))::value);
    STATIC_REQUIRE(boost::hana::unpack(plus.args, [](auto const&... a) { return sizeof...(a); }) == 2);
}

TEST_CASE("higher-order parameters are called through their bound callable", "[dsl]") {
    //[higher_order
    constexpr auto apply_plus_one = cassette::function([](auto g, auto x) { return g(x) + 1.0; });
    CHECK(apply_plus_one(square, 3.0) == 10.0);
    CHECK(apply_plus_one([](double v) { return -v; }, 3.0) == -2.0);
    //]
    constexpr auto fourth = cassette::function([](auto x) { return twice(square, x); });
    CHECK(fourth(3.0) == 81.0);
}

TEST_CASE("if_ evaluates only the taken branch", "[dsl]") {
    int calls = 0;
    auto const count = [&calls](double v) { ++calls; return v; };
    constexpr auto pick = cassette::function([](auto c, auto g, auto x) { return cassette::if_(c, g(x), -x); });
    CHECK(pick(true, count, 2.0) == 2.0);
    CHECK(calls == 1);
    CHECK(pick(false, count, 2.0) == -2.0);
    CHECK(calls == 1);
    // The result has the branches' common type.
    constexpr auto mixed = cassette::function([](auto c) { return cassette::if_(c, 1, 2.5); });
    STATIC_REQUIRE(std::is_same_v<decltype(mixed(true)), double>);
}

TEST_CASE("let evaluates its value once", "[dsl]") {
    int calls = 0;
    auto const count = [&calls](double v) { ++calls; return v; };
    //[let
    constexpr auto body = cassette::function([](auto g, auto x) {
        return cassette::let(g(x) + 1.0, [](auto t) { return t * t; });
    });
    //]
    CHECK(body(count, 2.0) == 9.0);
    CHECK(calls == 1);
    // Without let, a value used twice is evaluated twice: a body is a tree.
    constexpr auto tree = cassette::function([](auto g, auto x) { auto t = g(x) + 1.0; return t * t; });
    CHECK(tree(count, 2.0) == 9.0);
    CHECK(calls == 3);
    // Nested forms capture the enclosing body's symbolic values by value.
    constexpr auto nested = cassette::function([](auto x) {
        return cassette::let(x + 1, [=](auto a) { return cassette::let(a * 10, [=](auto b) { return a + b + x; }); });
    });
    CHECK(nested(2) == 3 + 30 + 2);
}

TEST_CASE("fold and sum run their body with the index and the accumulator", "[dsl]") {
    //[fold
    constexpr auto dot = cassette::function([](auto u, auto v) {
        return cassette::sum(0, cassette::length(u), [=](auto i) { return u[i] * v[i]; });
    });
    constexpr auto halves = cassette::function([](auto n) {
        return cassette::fold(0, n, 0, [](auto i, auto acc) { return acc + i * 0.5; });
    });
    //]
    CHECK(dot(std::vector<double>{1, 2, 3}, std::vector<double>{4, 5, 6}) == 32.0);
    CHECK(dot(std::vector<double>{}, std::vector<double>{}) == 0.0);

    // The accumulator takes the body's type: an int init accumulates doubles.
    STATIC_REQUIRE(std::is_same_v<decltype(halves(4)), double>);
    CHECK(halves(4) == 3.0);  // 0 + 0.5 + 1 + 1.5

    // first, last and init are evaluated once each, in that order, before the loop.
    std::vector<int> order;
    auto const note = [&order](int v) { order.push_back(v); return v; };
    constexpr auto loop = cassette::function([](auto g) {
        return cassette::fold(g(1), g(4), g(100), [](auto i, auto acc) { return acc - i; });
    });
    CHECK(loop(note) == 100 - 1 - 2 - 3);
    CHECK(order == std::vector<int>{1, 4, 100});
}

TEST_CASE("self recursion, with the base case in either branch", "[dsl]") {
    //[recursion
    constexpr auto fib = cassette::function<"fib">([](auto n) {
        return cassette::if_(n < 2, n, cassette::self(n - 1) + cassette::self(n - 2));
    });
    constexpr auto fact = cassette::function<"fact">([](auto n) {
        return cassette::if_(n > 1, n * cassette::self(n - 1), 1L);
    });
    //]
    CHECK(fib(20L) == 6765);
    CHECK(fact(10L) == 3628800);
    STATIC_REQUIRE(fib(10) == 55);
}

TEST_CASE("name_of", "[dsl]") {
    CHECK(cassette::name_of(square) == "square");
    CHECK(cassette::name_of(cassette::function([](auto x) { return x; })) == "lambda");
    CHECK(cassette::name_of(op::add) == "+");
    CHECK(cassette::name_of(op::neg) == "-");
    CHECK(cassette::name_of(op::lt) == "<");
    CHECK(cassette::name_of(op::logical_and) == "&&");
    CHECK(cassette::name_of(op::logical_not) == "!");
    CHECK(cassette::name_of(cassette::sin) == "sin");
    CHECK(cassette::name_of(op::getindex) == "getindex");
    CHECK(cassette::name_of(cassette::length) == "length");
    CHECK(cassette::name_of(op::get<0>) == "get<0>");
    CHECK(cassette::name_of(named_callable{}) == "mine");
    CHECK(cassette::name_of(&fused) == "double (*)(double, double, double)");
}

TEST_CASE("nodes hold their children by value: an auto local in a builder never dangles", "[dsl]") {
    constexpr auto g = cassette::function([](auto x) {
        auto t = x * 2.0;  // a temporary's node, copied into the result
        auto u = t + 1.0;
        return u * t;
    });
    CHECK(g(3.0) == 7.0 * 6.0);
}
