// static_graph: node lists counted by hand from each body, and every graph's DOT text
// checked by Graphviz's own parser (dot -Tsvg).
#include <cassette/cassette.hpp>
#include <cassette/graph.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

namespace {

using cassette::graph::node_kind;
using cassette::graph::static_graph;

// Each node as "name(input, input)", in order: what the expectations below are written as.
template <class Graph>
std::vector<std::string> spelled(Graph const& g) {
    std::vector<std::string> out;
    for (auto const& n : g.nodes()) {
        std::string s(n.name);
        s += '(';
        for (std::size_t k = 0; k != n.inputs.size(); ++k) s += (k ? ", " : "") + std::to_string(n.inputs[k]);
        out.push_back(s + ')');
    }
    return out;
}

// Graphviz must accept the text: dot exits with 0 only for a graph it could lay out.
template <class Graph>
std::string checked_dot(Graph const& g, std::string const& name) {
    std::string const dot = g.to_dot();
    std::string const file = (std::filesystem::temp_directory_path() / ("cassette_" + name)).string();
    std::ofstream(file + ".dot") << dot;
    std::string const command = "dot -Tsvg " + file + ".dot -o " + file + ".svg";
    INFO(dot);
    REQUIRE(std::system(command.c_str()) == 0);
    return dot;
}

bool contains(std::string_view text, std::string_view part) { return text.find(part) != std::string_view::npos; }

inline constexpr auto identity = cassette::function<"identity">([](auto x) { return x; });
inline constexpr auto answer = cassette::function<"answer">([](auto) { return 42; });
inline constexpr auto first = cassette::function<"first">([](auto p) { return cassette::get<0>(p); });

}  // namespace

TEST_CASE("the graphs of a parameter, a constant and an accessor") {
    constexpr auto g = static_graph(identity, 1.0);
    static_assert(g.nodes().size() == 1 && g.result() == 0);
    static_assert(g.nodes()[0].name == "_1" && g.nodes()[0].type == "double");
    static_assert(g.nodes()[0].kind == node_kind::parameter);

    constexpr auto k = static_graph(answer, 1.0);
    static_assert(k.nodes().size() == 2 && k.result() == 1);
    static_assert(k.nodes()[1].kind == node_kind::constant && k.nodes()[1].type == "int");
    CHECK(spelled(k) == std::vector<std::string>{"_1()", "constant()"});

    constexpr auto a = static_graph(first, std::array<double, 2>{});
    CHECK(spelled(a) == std::vector<std::string>{"_1()", "get<0>(0)"});
    CHECK(a.result() == 1);

    CHECK(contains(checked_dot(g, "graph_identity"), R"(n0 [label="_1 : double", shape=ellipse, peripheries=2)"));
    CHECK(contains(checked_dot(k, "graph_answer"), R"(n1 [label="42 : int", shape=plaintext, peripheries=2)"));
    checked_dot(a, "graph_first");
}

namespace {
inline constexpr auto sq = cassette::function<"sq">([](auto x) { return x * x; });
inline constexpr auto banana = cassette::function<"banana">([](auto x, auto y) {
    return sq(x - 1.0) + 100.0 * sq(y - sq(x));
});
}  // namespace

TEST_CASE("a nested traced function is a cluster fed through its parameters") {
    constexpr auto g = static_graph(banana, 1.0, 2.0);
    static_assert(g.nodes().size() == 17 && g.result() == 16);
    static_assert(g.clusters().size() == 4);  // the body and one per call to sq
    // Arguments are drawn before the call, left to right; sq's parameter is fed by its argument
    // and its body's result feeds the call node.
    CHECK(spelled(g) == std::vector<std::string>{
                            "_1()", "_2()", "constant()", "-(0, 2)",        // x - 1.0
                            "_1(3)", "*(4, 4)", "sq(5)",                    // sq(x - 1.0)
                            "constant()",                                   // 100.0
                            "_1(0)", "*(8, 8)", "sq(9)",                    // sq(x)
                            "-(1, 10)", "_1(11)", "*(12, 12)", "sq(13)",    // sq(y - sq(x))
                            "*(7, 14)", "+(6, 15)"});
    for (std::size_t i : {4, 5, 8, 9, 12, 13}) CHECK(g.nodes()[i].cluster != 0);
    for (std::size_t i : {0, 1, 3, 6, 10, 11, 14, 15, 16}) CHECK(g.nodes()[i].cluster == 0);

    std::string const dot = checked_dot(g, "graph_banana");
    CHECK(contains(dot, "subgraph cluster_1 {\n    label=\"sq\";"));
    CHECK(contains(dot, R"(n2 [label="1 : double", shape=plaintext])"));
    CHECK(contains(dot, R"(n3 -> n4;)"));
}

namespace {
inline constexpr auto clipped_sine = cassette::function<"clipped_sine">([](auto x) {
    return cassette::sin(cassette::if_(x < 1.0, x, 1.0));
});
}  // namespace

TEST_CASE("an if_ in a call's argument is drawn where the argument is") {
    constexpr auto g = static_graph(clipped_sine, 0.5);
    static_assert(g.nodes().size() == 6 && g.result() == 5);
    static_assert(g.clusters().size() == 4);  // the body, the if_ and its two branches
    // The then branch is the parameter itself: no node of its own.
    CHECK(spelled(g) ==
          std::vector<std::string>{"_1()", "constant()", "<(0, 1)", "constant()", "if_(2, 0, 3)", "sin(4)"});
    CHECK(g.nodes()[3].cluster == 3);  // the else branch's constant, in the else cluster
    CHECK(g.nodes()[4].cluster == 0);
    checked_dot(g, "graph_if_in_argument");
}

namespace {
inline constexpr auto twice_or_square = cassette::function<"twice_or_square">([](auto x) {
    return cassette::let(x * 2, [](auto t) { return cassette::if_(t < 1, t, t * t); });
});
}  // namespace

TEST_CASE("let and if_ are labelled subgraphs; a let variable is its value's node") {
    //[static_graph
    // twice_or_square(x) = let(x * 2, [](auto t) { return if_(t < 1, t, t * t); })
    constexpr auto g = cassette::graph::static_graph(twice_or_square, 1);
    static_assert(g.nodes().size() == 7);  // _1, 2, *, 1, <, *, if_
    static_assert(g.nodes()[2].name == "*" && g.nodes()[2].inputs[0] == 0);
    static_assert(g.result() == 6 && g.nodes()[6].name == "if_");
    //]
    CHECK(spelled(g) == std::vector<std::string>{"_1()", "constant()", "*(0, 1)", "constant()", "<(2, 3)",
                                                 "*(2, 2)", "if_(4, 2, 5)"});
    std::string const dot = checked_dot(g, "graph_let_if");
    CHECK(contains(dot, R"(label="let";)"));
    CHECK(contains(dot, R"(label="if_";)"));
    CHECK(contains(dot, R"(label="then";)"));
    CHECK(contains(dot, R"(label="else";)"));
}

namespace {
//[graph_rosenbrock
inline constexpr auto rosenbrock = cassette::function<"rosenbrock">([](auto x) {
    return cassette::sum(0, cassette::length(x) - 1, [=](auto i) {
        return cassette::pow(1.0 - x[i], 2) + 100.0 * cassette::pow(x[i + 1] - cassette::pow(x[i], 2), 2);
    });
});
//]
}  // namespace

TEST_CASE("a fold is a subgraph labelled with its bounds, its accumulator fed back") {
    constexpr auto g = static_graph(rosenbrock, std::vector<double>{});
    static_assert(g.nodes().size() == 27 && g.result() == 26);
    CHECK(spelled(g) == std::vector<std::string>{
                            "_1()", "constant()", "length(0)", "constant()", "-(2, 3)",  // 0, length(x) - 1
                            "constant()",                                                // init 0
                            "i(1, 4)", "acc(5, 25)",                                     // bound by the fold
                            "constant()", "getindex(0, 6)", "-(8, 9)", "constant()", "pow(10, 11)",
                            "constant()",                                                // 100.0
                            "constant()", "+(6, 14)", "getindex(0, 15)",                 // x[i + 1]
                            "getindex(0, 6)", "constant()", "pow(17, 18)", "-(16, 19)",
                            "constant()", "pow(20, 21)", "*(13, 22)", "+(12, 23)",
                            "+(7, 24)",                                                  // acc + term(i)
                            "fold(1, 4, 5, 25)"});
    std::string const dot = checked_dot(g, "graph_rosenbrock");
    CHECK(contains(dot, R"x(label="fold i in [0, -(…))";)x"));
    CHECK(contains(dot, R"(n0 [label="_1 : std::vector<double>", shape=ellipse];)"));
    CHECK(contains(dot, R"(n25 -> n7 [headlabel="2", constraint=false];)"));  // the accumulator's next value
}

namespace {
inline constexpr auto fib = cassette::function<"fib">([](auto n) {
    return cassette::if_(n < 2, n, cassette::self(n - 1) + cassette::self(n - 2));
});
inline constexpr auto x_sin_x = cassette::function<"x_sin_x">([](auto x) { return x * cassette::sin(x); });
}  // namespace

TEST_CASE("self calls are calls; a derivative is a subgraph around its body") {
    constexpr auto g = static_graph(fib, 10);
    static_assert(g.nodes().size() == 11);
    CHECK(spelled(g) == std::vector<std::string>{"_1()", "constant()", "<(0, 1)", "constant()", "-(0, 3)",
                                                 "fib(4)", "constant()", "-(0, 6)", "fib(7)", "+(5, 8)",
                                                 "if_(2, 0, 9)"});
    checked_dot(g, "graph_fib");

    constexpr auto d = static_graph(cassette::ad::derivative(x_sin_x), 1.0);
    // The variable of differentiation, x_sin_x's cluster, the point: the top parameter.
    CHECK(spelled(d) == std::vector<std::string>{"_1()", "var()", "_1(1)", "sin(2)", "*(2, 3)", "x_sin_x(4)",
                                                 "derivative(5, 0)"});
    CHECK(d.result() == 6);
    CHECK(contains(checked_dot(d, "graph_derivative"), R"(label="derivative";)"));
}

// --- record -------------------------------------------------------------------------------

TEST_CASE("record: the bodies users write first, with their values") {
    auto const g = cassette::graph::record(identity, 2.5);
    CHECK(spelled(g) == std::vector<std::string>{"_1()"});
    CHECK(g.result() == 0);
    CHECK(g.nodes()[0].value == "2.5");
    CHECK(g.nodes()[0].type == "double");

    auto const k = cassette::graph::record(answer, 1.0);
    CHECK(spelled(k) == std::vector<std::string>{"_1()", "constant()"});
    CHECK(k.result() == 1);
    CHECK(contains(checked_dot(k, "record_answer"), R"(n1 [label="42 : int", shape=plaintext, peripheries=2)"));

    auto const a = cassette::graph::record(first, std::array{3.0, 4.0});
    CHECK(spelled(a) == std::vector<std::string>{"_1()", "get<0>(0)"});
    CHECK(a.nodes()[1].value == "3");
    CHECK(contains(checked_dot(a, "record_first"), R"(n1 [label="get<0> = 3, adjoint 1", shape=box, peripheries=2)"));
}

TEST_CASE("record: nested traced functions are clusters; branches as taken, loops unrolled") {
    // banana(2, 3) = sq(1) + 100 sq(3 - sq(2)): its static graph's nodes, with values, in the
    // order they ran: a constant is drawn when a call uses it (100.0 after sq(y - sq(x))).
    auto const b = cassette::graph::record(banana, 2.0, 3.0);
    CHECK(spelled(b) == std::vector<std::string>{
                            "_1()", "_2()", "constant()", "-(0, 2)",        // x - 1.0
                            "_1(3)", "*(4, 4)", "sq(5)",                    // sq(x - 1.0)
                            "_1(0)", "*(7, 7)", "sq(8)",                    // sq(x)
                            "-(1, 9)", "_1(10)", "*(11, 11)", "sq(12)",     // sq(y - sq(x))
                            "constant()", "*(14, 13)", "+(6, 15)"});
    CHECK(b.clusters().size() == 4);
    CHECK(b.nodes()[b.result()].value == "101");  // 1 + 100 * (3 - 4)^2
    // Adjoints from the reverse sweep over the recorded graph: d/dx = 2 (x - 1) - 400 x (y - x^2)
    // = 2 + 800, d/dy = 200 (y - x^2) = -200; sq(x)'s node: d/d sq(x) = -200 (y - x^2) = 200.
    CHECK(b.nodes()[0].adjoint == 802.0);
    CHECK(b.nodes()[1].adjoint == -200.0);
    CHECK(b.nodes()[9].adjoint == 200.0);
    CHECK(b.nodes()[16].adjoint == 1.0);
    CHECK(!b.nodes()[2].adjoint);  // a constant
    std::string const dot = checked_dot(b, "record_banana");
    CHECK(contains(dot, R"(n16 [label="+ = 101, adjoint 1", shape=box, peripheries=2, xlabel="result"];)"));

    //[record
    // twice_or_square(x) = let(x * 2, [](auto t) { return if_(t < 1, t, t * t); }), run at 3:
    // t = 6 is not < 1, so only t * t runs.
    auto const t = cassette::graph::record(twice_or_square, 3);
    CHECK(t.nodes().size() == 6);  // _1, 2, *, 1, <, *
    CHECK(t.nodes()[t.result()].name == "*");
    CHECK(t.nodes()[t.result()].value == "36");
    //]
    CHECK(spelled(t) == std::vector<std::string>{"_1()", "constant()", "*(0, 1)", "constant()", "<(2, 3)",
                                                 "*(2, 2)"});
    CHECK(t.nodes()[5].value == "36");
    // The let, the if_ inside it and the branch taken, each a cluster inside the last.
    REQUIRE(t.clusters().size() == 4);
    CHECK((t.clusters()[1].label == "let" && t.clusters()[1].parent == 0));
    CHECK((t.clusters()[2].label == "if_" && t.clusters()[2].parent == 1));
    CHECK((t.clusters()[3].label == "else" && t.clusters()[3].parent == 2));
    CHECK(t.nodes()[5].cluster == 3);  // t * t
    CHECK(t.nodes()[4].cluster == 2);  // t < 1, the condition
    checked_dot(t, "record_let_if");

    // Three elements: two iterations of the fold, each its own nodes: 12 calls (3 getindex,
    // i + 1, 2 subtractions, 3 pow, *, 2 additions) and 9 constants (i three times, 1 for
    // i + 1, 1.0, 2 three times, 100.0), and once the accumulator's start, a constant where
    // the first iteration uses it; before them _1, length(x), 1, length(x) - 1 and 0, the
    // bounds the fold's label shows.
    auto const r = cassette::graph::record(rosenbrock, std::vector{1.0, 1.0, 2.0});
    CHECK(r.nodes().size() == 5 + 2 * 21 + 1);
    CHECK(r.nodes()[r.result()].value == "100");  // (1 - 1)^2 + 100 (1 - 1^2)^2 + (1 - 1)^2 + 100 (2 - 1^2)^2
    CHECK(contains(checked_dot(r, "record_rosenbrock"), R"x(label="fold i in [0, 2)";)x"));
}

TEST_CASE("record: each level of a recursion is a cluster") {
    auto const g = cassette::graph::record(fib, 3);  // fib(3) = fib(2) + fib(1), fib(2) = fib(1) + fib(0)
    std::size_t calls = 0;
    for (auto const& n : g.nodes()) calls += n.name == "fib";
    CHECK(calls == 4);
    CHECK(g.clusters().size() == 5 + 5 * 2);  // each level, and its if_ with the branch taken
    CHECK(g.nodes()[g.result()].value == "2");
    checked_dot(g, "record_fib");
}
