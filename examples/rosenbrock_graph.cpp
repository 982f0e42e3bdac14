// The call graph of rosenbrock, from its body's type alone: a constant, drawn with Graphviz
// (`example_rosenbrock_graph | dot -Tsvg -o rosenbrock.svg`).
#include <cassette/cassette.hpp>

#include <iostream>
#include <vector>

//[graph
inline constexpr auto rosenbrock = cassette::function<"rosenbrock">([](auto x) {
    return cassette::sum(0, cassette::length(x) - 1, [=](auto i) {
        return cassette::pow(1.0 - x[i], 2) + 100.0 * cassette::pow(x[i + 1] - cassette::pow(x[i], 2), 2);
    });
});

// Built at compile time; nothing is evaluated, the argument only gives the parameter's type.
constexpr auto graph = cassette::graph::static_graph(rosenbrock, std::vector<double>{});
static_assert(graph.nodes().size() == 27);
static_assert(graph.nodes()[graph.result()].name == "fold");

int main() { std::cout << graph.to_dot(); }
//]
