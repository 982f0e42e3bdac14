// SPDX-License-Identifier: BSL-1.0
// Computation graphs: static_graph, a body's call graph from its type alone, as a constant;
// record, the graph of one run, with its values.
#pragma once

#include <cassette/ad/adjoint.hpp>
#include <cassette/detail/print.hpp>
#include <cassette/detail/tuple.hpp>
#include <cassette/detail/type_name.hpp>
#include <cassette/function.hpp>
#include <cassette/overdub.hpp>
#include <cassette/tag.hpp>
#include <cassette/transform.hpp>

#include <boost/hana/at.hpp>

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace cassette::graph {

enum class node_kind : unsigned char {
    parameter,  // a parameter of the traced function (or of a nested one, fed by its argument)
    constant,   // a plain value embedded in the body
    variable,   // a fold's index or accumulator, or a variable a node kind of its own binds
    call,       // a call; for a traced callee, fed by the result of its body's cluster
    form,       // the result of if_, fold or a node kind of its own, fed by its parts
};

enum class cluster_kind : unsigned char { traced, if_, then_, else_, let, fold, form };

// A fixed-capacity list of node indices: a node's inputs.
template <std::size_t Capacity>
struct index_list {
    std::array<std::size_t, Capacity> items{};
    std::size_t count = 0;

    constexpr void push_back(std::size_t i) { items[count++] = i; }
    constexpr std::size_t size() const noexcept { return count; }
    constexpr bool empty() const noexcept { return count == 0; }
    constexpr std::size_t operator[](std::size_t k) const { return items[k]; }
    constexpr std::size_t const* begin() const noexcept { return items.data(); }
    constexpr std::size_t const* end() const noexcept { return items.data() + count; }
};

template <std::size_t MaxInputs>
struct node {
    std::string_view name;  // the callee's name; "_1", "_2", ... for parameters
    node_kind kind{};
    std::string_view type;  // the value type of parameters and constants
    index_list<MaxInputs> inputs;
    std::size_t cluster = 0;  // 0: the graph's own body
    // Constants only: their value, written by to_dot.
    void const* value = nullptr;
    std::string (*write)(void const*) = nullptr;
};

// A labelled subgraph: a traced function's body, an if_ and its branches, a let, a fold.
struct cluster {
    std::string_view label;  // the traced function's or the node kind's name
    cluster_kind kind{};
    std::size_t parent = 0;
    std::size_t first = 0, last = 0;  // a fold's bounds, as node indices
};

template <std::size_t Nodes, std::size_t Clusters, std::size_t MaxInputs>
struct basic_static_graph {
    std::string_view name;
    std::array<node<MaxInputs>, Nodes> nodes_{};
    std::array<cluster, Clusters> clusters_{};  // [0] is the body itself
    std::size_t result_ = 0;

    constexpr auto const& nodes() const noexcept { return nodes_; }
    constexpr auto const& clusters() const noexcept { return clusters_; }
    // The index of the node whose value the function returns.
    constexpr std::size_t result() const noexcept { return result_; }

    std::string to_dot() const;
};

// A node of a recorded graph: as a static graph's, with the value it had.
struct recorded_node {
    std::string name;
    node_kind kind{};
    std::string type;  // of parameters and constants
    std::vector<std::size_t> inputs;
    std::size_t cluster = 0;
    std::string value;
    // d result / d this node's value, for a number the result depends on through calls with
    // derivative rules (a reverse sweep over the recorded graph); empty otherwise.
    std::optional<double> adjoint;
    // d value / d input k, where known: what the sweep multiplies by.
    std::vector<double> partials;
};

struct recorded_graph {
    std::string name;
    std::vector<recorded_node> nodes_;
    std::vector<cluster> clusters_;
    std::size_t result_ = 0;

    std::vector<recorded_node> const& nodes() const noexcept { return nodes_; }
    std::vector<cluster> const& clusters() const noexcept { return clusters_; }
    std::size_t result() const noexcept { return result_; }
    std::string to_dot() const;
};

namespace detail {

template <class T>
std::string write_constant(void const* value) {
    return cassette::detail::to_string(*static_cast<T const*>(value));
}

// Counts what a walk adds, to size the graph.
struct counter {
    std::size_t nodes = 0, clusters = 1, max_inputs = 1;

    // A variable may get one input more, later (add_input: a fold's accumulator is fed by the
    // body's result).
    template <class... I>
    constexpr std::size_t add(std::string_view, node_kind kind, std::string_view, std::size_t, I...) {
        std::size_t const inputs = sizeof...(I) + (kind == node_kind::variable ? 1 : 0);
        if (inputs > max_inputs) max_inputs = inputs;
        return nodes++;
    }
    constexpr void add_input(std::size_t, std::size_t) {}
    constexpr void set_value(std::size_t, void const*, std::string (*)(void const*)) {}
    constexpr std::size_t add_cluster(std::string_view, cluster_kind, std::size_t, std::size_t = 0, std::size_t = 0) {
        return clusters++;
    }
};

template <class Graph>
struct filler {
    Graph& g;
    std::size_t nodes = 0, clusters = 1;

    template <class... I>
    constexpr std::size_t add(std::string_view name, node_kind kind, std::string_view type, std::size_t in,
                              I... inputs) {
        auto& n = g.nodes_[nodes];
        n.name = name;
        n.kind = kind;
        n.type = type;
        n.cluster = in;
        (n.inputs.push_back(inputs), ...);
        return nodes++;
    }
    constexpr void add_input(std::size_t to, std::size_t from) { g.nodes_[to].inputs.push_back(from); }
    constexpr void set_value(std::size_t i, void const* value, std::string (*write)(void const*)) {
        g.nodes_[i].value = value;
        g.nodes_[i].write = write;
    }
    constexpr std::size_t add_cluster(std::string_view label, cluster_kind kind, std::size_t parent,
                                      std::size_t first = 0, std::size_t last = 0) {
        g.clusters_[clusters] = {label, kind, parent, first, last};
        return clusters++;
    }
};

inline constexpr std::size_t unbound = std::size_t(-1);

// The cluster a form's region is drawn as, in static and recorded graphs alike.
constexpr std::pair<std::string_view, cluster_kind> cluster_of(region_kind kind) {
    constexpr std::pair<std::string_view, cluster_kind> clusters[] = {{"if_", cluster_kind::if_},
                                                                      {"then", cluster_kind::then_},
                                                                      {"else", cluster_kind::else_},
                                                                      {"let", cluster_kind::let},
                                                                      {"fold", cluster_kind::fold}};
    return clusters[static_cast<std::size_t>(kind)];
}

// "_1", "_2", ...: parameters as listings write them.
template <std::size_t I>
struct parameter_name {
    static constexpr auto spelled = [] {
        struct {
            char data[24]{};
            std::size_t size = 0;
        } r;
        r.data[r.size++] = '_';
        std::size_t digits = 1;
        for (std::size_t v = I + 1; v >= 10; v /= 10) ++digits;
        for (std::size_t k = digits, v = I + 1; k != 0; --k, v /= 10) r.data[r.size + k - 1] = char('0' + v % 10);
        r.size += digits;
        return r;
    }();
    static constexpr std::string_view value{spelled.data, spelled.size};
};

// The node indices of the variables bound around a node, innermost first.
struct no_bindings {};
template <class Id, class Outer>
struct bindings {
    using id = Id;
    std::size_t index[2];
    Outer outer;
};

template <class Id, std::size_t K, class B>
constexpr std::size_t bound_node(B const& b) {
    if constexpr (std::is_same_v<B, no_bindings>)
        return unbound;
    else if constexpr (std::is_same_v<typename B::id, Id>)
        return b.index[K];
    else
        return detail::bound_node<Id, K>(b.outer);
}

// Where a walk is: the traced function being drawn (Self, for self calls), the nodes standing
// for its parameters, the enclosing bindings and the cluster new nodes go to.
template <class Self, std::size_t Arity, class Bound>
struct place {
    std::array<std::size_t, Arity> params;
    Bound bound;
    std::size_t cluster;

    constexpr place in(std::size_t c) const { return {params, bound, c}; }
    template <class Id>
    constexpr auto bind(std::size_t first, std::size_t second = unbound) const {
        return place<Self, Arity, bindings<Id, Bound>>{params, {{first, second}, bound}, cluster};
    }
};

template <class Sink, ir::form_node N, class P>
constexpr std::size_t walk(Sink& s, N const& n, P const& at);  // defined after drawer, which every form uses

// Each walk adds the nodes of one IR node to the sink and returns the index of its value's node.
// Every node is reached by reference into a body stored as a constant, so a constant's
// address stays valid in the graph.
template <class Sink, std::size_t I, class P>
constexpr std::size_t walk(Sink&, ir::param<I> const&, P const& at) {
    return at.params[I];
}

template <class Sink, class T, class P>
constexpr std::size_t walk(Sink& s, ir::constant<T> const& c, P const& at) {
    std::size_t const k = s.add("constant", node_kind::constant, cassette::detail::type_name<T>(), at.cluster);
    s.set_value(k, &c.value, &detail::write_constant<T>);
    return k;
}

template <class Sink, class Id, std::size_t K, class P>
constexpr std::size_t walk(Sink& s, ir::var<Id, K> const&, P const& at) {
    std::size_t const k = detail::bound_node<Id, K>(at.bound);
    return k != unbound ? k : s.add("var", node_kind::variable, "", at.cluster);
}

template <class Sink, class F, class... Args, class Self, std::size_t A, class B>
constexpr std::size_t walk(Sink& s, ir::call<F, Args...> const& c, place<Self, A, B> const& at) {
    return [&]<std::size_t... J>(std::index_sequence<J...>) {
        // The callee is walked first, as it is evaluated first.
        std::size_t const callee = [&] {
            if constexpr (ir::expression<F>)
                return detail::walk(s, c.fn, at);
            else
                return unbound;
        }();
        std::array<std::size_t, sizeof...(J)> const in{detail::walk(s, boost::hana::at_c<J>(c.args), at)...};
        if constexpr (ir::expression<F>) {  // a higher-order call: the callee is its first input
            return s.add("call", node_kind::call, "", at.cluster, callee, in[J]...);
        } else if constexpr (std::is_same_v<F, ir::self_t>) {
            return s.add(Self::name, node_kind::call, "", at.cluster, in[J]...);
        } else if constexpr (traced_function<F>) {
            std::size_t const cl = s.add_cluster(F::name, cluster_kind::traced, at.cluster);
            place<F, sizeof...(J), no_bindings> const inside{
                {s.add(parameter_name<J>::value, node_kind::parameter, "", cl, in[J])...}, {}, cl};
            std::size_t const result = detail::walk(s, F::template body<sizeof...(J)>, inside);
            return s.add(F::name, node_kind::call, "", at.cluster, result);
        } else {
            return s.add(cassette::name_of(c.fn), node_kind::call, "", at.cluster, in[J]...);
        }
    }(std::index_sequence_for<Args...>{});
}

// What a form draws itself with (its draw member): its children's nodes, the regions it
// opens, the variables it binds and its own node.
template <class Sink, class Place>
struct drawer {
    Sink& s;
    Place at;

    // A child's node.
    template <class N>
    constexpr std::size_t draw(N const& child) const {
        return detail::walk(s, child, at);
    }
    // A drawer in a cluster of its own, as the evaluator's region of that kind (a fold's with
    // the nodes of its bounds).
    constexpr auto region(region_kind kind, std::size_t first = 0, std::size_t last = 0) const {
        auto const [label, shape] = detail::cluster_of(kind);
        return drawer<Sink, Place>{s, at.in(s.add_cluster(label, shape, at.cluster, first, last))};
    }
    // A drawer where var<Id, 0> is the first node, var<Id, 1> the second, if given.
    template <class Id>
    constexpr auto bind(std::size_t first, std::size_t second = unbound) const {
        using bound = decltype(at.template bind<Id>(first, second));
        return drawer<Sink, bound>{s, at.template bind<Id>(first, second)};
    }
    template <class... I>
    constexpr std::size_t variable(std::string_view name, I... inputs) const {
        return s.add(name, node_kind::variable, "", at.cluster, inputs...);
    }
    // The form's own node, fed by its parts.
    template <class... I>
    constexpr std::size_t form(std::string_view name, I... inputs) const {
        return s.add(name, node_kind::form, "", at.cluster, inputs...);
    }
    // One more input, later, to a node that variable made (a fold's accumulator, fed by its body).
    constexpr void add_input(std::size_t variable_node, std::size_t from) const { s.add_input(variable_node, from); }
};

// A form draws itself where it says how (if_, let, fold); otherwise it is a cluster named
// after its kind, holding its children, and a node fed by them.
template <class Sink, ir::form_node N, class P>
constexpr std::size_t walk(Sink& s, N const& n, P const& at) {
    if constexpr (requires { n.draw(drawer<Sink, P>{s, at}); }) {
        return n.draw(drawer<Sink, P>{s, at});
    } else {
        auto const inside = at.in(s.add_cluster(N::name, cluster_kind::form, at.cluster));
        return n.visit_children([&](auto const&... child) {
            std::array<std::size_t, sizeof...(child)> const in{detail::walk(s, child, inside)...};
            return [&]<std::size_t... J>(std::index_sequence<J...>) {
                return s.add(N::name, node_kind::form, "", at.cluster, in[J]...);
            }(std::make_index_sequence<sizeof...(child)>{});
        });
    }
}

template <class F, class... A, class Sink>
constexpr std::size_t walk_function(Sink& s) {
    return [&]<std::size_t... J>(std::index_sequence<J...>) {
        place<F, sizeof...(A), no_bindings> const top{
            {s.add(parameter_name<J>::value, node_kind::parameter, cassette::detail::type_name<A>(), 0)...}, {}, 0};
        return detail::walk(s, F::template body<sizeof...(A)>, top);
    }(std::index_sequence_for<A...>{});
}

template <class F, class... A>
struct graph_of {
    static constexpr counter sizes = [] {
        counter c;
        detail::walk_function<F, A...>(c);
        return c;
    }();
    using type = basic_static_graph<sizes.nodes, sizes.clusters, sizes.max_inputs>;
    static constexpr type value = [] {
        type g{};
        g.name = F::name;
        g.clusters_[0] = {F::name, cluster_kind::traced, 0};
        filler<type> fill{g};
        g.result_ = detail::walk_function<F, A...>(fill);
        return g;
    }();
};

// Graphviz text, written with the conventions of record's graphs too.
std::string quoted(std::string_view text);

// How a node is written in a fold's label (a recorded node by its value), and as its own label.
inline std::string node_text(recorded_node const& n) {
    return n.value;
}
inline std::string node_label(recorded_node const& n) {
    std::string label(n.name);
    if (!n.type.empty()) label += " : " + n.type;
    if (n.kind == node_kind::constant) return n.value + " : " + n.type;
    label += " = " + n.value;
    if (n.adjoint) label += ", adjoint " + cassette::detail::to_string(*n.adjoint);
    return label;
}

template <std::size_t K>
std::string node_text(node<K> const& n) {
    if (n.kind == node_kind::constant) return n.write(n.value);
    if (n.kind == node_kind::call || n.kind == node_kind::form) return std::string(n.name) + "(…)";
    return std::string(n.name);
}
template <std::size_t K>
std::string node_label(node<K> const& n) {
    std::string label = n.kind == node_kind::constant ? n.write(n.value) : std::string(n.name);
    if (!n.type.empty()) label += " : " + std::string(n.type);
    return label;
}

template <class Graph>
void write_cluster(std::string& out, Graph const& g, std::size_t c, std::size_t depth) {
    std::string const indent(2 * depth, ' ');
    for (std::size_t i = 0; i != g.nodes().size(); ++i) {
        auto const& n = g.nodes()[i];
        if (n.cluster != c) continue;
        std::string const label = detail::node_label(n);
        char const* shape = n.kind == node_kind::parameter  ? "ellipse"
                            : n.kind == node_kind::constant ? "plaintext"
                            : n.kind == node_kind::variable ? "diamond"
                            : n.kind == node_kind::form     ? "hexagon"
                                                            : "box";
        out += indent + "n" + std::to_string(i) + " [label=" + detail::quoted(label) + ", shape=" + shape;
        if (i == g.result()) out += ", peripheries=2, xlabel=\"result\"";
        out += "];\n";
    }
    for (std::size_t k = 1; k != g.clusters().size(); ++k) {
        auto const& sub = g.clusters()[k];
        if (sub.parent != c) continue;
        std::string label(sub.label);
        if (sub.kind == cluster_kind::fold)
            label += " i in [" + detail::node_text(g.nodes()[sub.first]) + ", " + detail::node_text(g.nodes()[sub.last]) + ")";
        out += indent + "subgraph cluster_" + std::to_string(k) + " {\n" + indent + "  label=" + detail::quoted(label) +
               ";\n";
        detail::write_cluster(out, g, k, depth + 1);
        out += indent + "}\n";
    }
}

inline std::string quoted(std::string_view text) {
    std::string q = "\"";
    for (char ch : text) {
        if (ch == '"' || ch == '\\') q += '\\';
        q += ch;
    }
    return q + '"';
}

// Parameters are ellipses, constants plain text with their types, calls boxes, if_ and
// fold hexagons fed by their parts, fold variables diamonds; the result has a double border.
template <class Graph>
std::string dot(Graph const& g) {
    std::string out = "digraph " + detail::quoted(g.name) + " {\n  label=" + detail::quoted(g.name) + ";\n";
    detail::write_cluster(out, g, 0, 1);
    for (std::size_t i = 0; i != g.nodes().size(); ++i) {
        auto const& inputs = g.nodes()[i].inputs;
        for (std::size_t k = 0; k != inputs.size(); ++k) {
            out += "  n" + std::to_string(inputs[k]) + " -> n" + std::to_string(i);
            std::string attributes;
            if (inputs.size() > 1) attributes = "headlabel=\"" + std::to_string(k + 1) + "\"";  // operand order
            if (inputs[k] > i) attributes += ", constraint=false";  // a fold's accumulator fed back
            if (attributes.starts_with(", ")) attributes.erase(0, 2);
            out += attributes.empty() ? ";\n" : " [" + attributes + "];\n";
        }
    }
    return out + "}\n";
}

}  // namespace detail

template <std::size_t N, std::size_t C, std::size_t K>
std::string basic_static_graph<N, C, K>::to_dot() const {
    return detail::dot(*this);
}
inline std::string recorded_graph::to_dot() const {
    return detail::dot(*this);
}

// The call graph of f's body for arguments of these types, from the body's type alone: a
// constant, so `static_assert(static_graph(f, 1.0).nodes().size() == 7)` holds where it holds.
// Nested traced functions are expanded into clusters, fed through their parameters' nodes;
// self calls are drawn as calls.
template <traced_function F, class... A>
constexpr auto static_graph(F const&, A const&...) {
    return detail::graph_of<F, std::remove_cvref_t<A>...>::value;
}

// --- record: the graph of one run -------------------------------------------------------

namespace detail {

// A value's node in the graph being recorded; a plain value converted to a tagged one (an
// accumulator's start, a branch) has none and is drawn as a constant where it is used.
struct node_ref {
    std::size_t index = unbound;
    friend constexpr bool operator==(node_ref, node_ref) = default;
};

template <class D>
double as_number(D const& d) {
    if constexpr (std::is_arithmetic_v<D>)
        return double(d);
    else
        return 0.0;  // ad::zero: the result does not depend on this argument
}

// The context of record: every value carries its node; every call adds one, with the value
// it computed; a traced function's body goes into a cluster, fed through its parameters.
struct recorder {
    recorded_graph& graph;
    std::size_t cluster = 0;

    std::size_t add(std::string name, node_kind kind, std::string type, std::vector<std::size_t> inputs,
                    std::string value, std::vector<double> partials = {}) {
        graph.nodes_.push_back(
            {name, kind, std::move(type), std::move(inputs), cluster, std::move(value), {}, std::move(partials)});
        return graph.nodes_.size() - 1;
    }

    // x's node, or a new constant's if x has none.
    template <class X>
    std::size_t node_of(X const& x) {
        if constexpr (cassette::detail::layer<recorder, X>::found) {
            node_ref const r = cassette::detail::metadata_by<recorder>(x);
            if (r.index != unbound) return r.index;
        }
        auto const& v = cassette::untag(x, *this);
        return add("constant", node_kind::constant, std::string(cassette::detail::type_name<std::remove_cvref_t<decltype(v)>>()),
                   {}, cassette::detail::to_string(v));
    }

    // An if_, its branch, a let or a fold (labelled with its bounds' nodes): a cluster, the
    // current one until the evaluator leaves the form.
    struct region_guard {
        recorder& r;
        std::size_t outer;
        ~region_guard() { r.cluster = outer; }
    };
    template <class... B>
    region_guard region(region_kind kind, B const&... bounds) {
        auto const [label, shape] = detail::cluster_of(kind);
        std::size_t const ends[] = {node_of(bounds)..., 0, 0};  // a fold's first and last
        std::size_t const outer = cluster;
        cluster = graph.clusters_.size();
        graph.clusters_.push_back({label, shape, outer, ends[0], ends[1]});
        return {*this, outer};
    }

    template <class V>
    auto tagged_as(V const& v, std::size_t k) const {
        return tagged<recorder, V, node_ref>(v, node_ref{k});
    }

    // The J-th parameter of the function entered, fed by `inputs`.
    template <std::size_t J, class V>
    auto parameter(V const& v, std::string type, std::vector<std::size_t> inputs) {
        std::vector<double> ones(inputs.size(), 1.0);  // a parameter is its argument
        return tagged_as(v, add(std::string(parameter_name<J>::value), node_kind::parameter, std::move(type),
                                std::move(inputs), cassette::detail::to_string(v), std::move(ones)));
    }

    // A traced function: its body in a cluster of its own. The result type is the plain
    // call's, named up front because a recursive body calls back into this member before
    // its return type could be deduced.
    template <traced_function G, class... X>
    auto overdub(G const& g, X const&... xs)
        -> tagged<recorder, std::remove_cvref_t<std::invoke_result_t<G const&, untag_t<X, recorder> const&...>>, node_ref> {
        std::vector<std::size_t> const inputs{node_of(xs)...};
        std::size_t const outer = cluster;
        cluster = graph.clusters_.size();
        graph.clusters_.push_back({G::name, cluster_kind::traced, outer});
        auto const r = [&]<std::size_t... J>(std::index_sequence<J...>) {
            // A braced list, so the parameters' nodes are added in order.
            cassette::detail::tuple<decltype(parameter<J>(cassette::untag(xs, *this), "", {}))...> const params{
                {parameter<J>(cassette::untag(xs, *this), "", {inputs[J]})}...};
            return cassette::recurse(*this, g, cassette::detail::get<J>(params)...);
        }(std::index_sequence_for<X...>{});
        cluster = outer;
        auto const& v = cassette::untag(r, *this);
        return tagged_as(v, add(std::string(G::name), node_kind::call, "", {node_of(r)}, cassette::detail::to_string(v), {1.0}));
    }

    template <class G, class... X>
    auto overdub(G const& g, X const&... xs) {
        std::vector<std::size_t> inputs{node_of(xs)...};
        auto const v = cassette::fallback(null_context{}, g, cassette::untag(xs, *this)...);
        return tagged_as(v, add(std::string(cassette::name_of(g)), node_kind::call, "", std::move(inputs),
                                cassette::detail::to_string(v), partials<G>(cassette::untag(xs, *this)...)));
    }

    // d g / d x_k for each argument, by g's derivative rule, where g has one and takes and
    // returns numbers.
    template <class G, class... V>
    static std::vector<double> partials(V const&... vs) {
        if constexpr (ad::has_rule<G> && (std::is_arithmetic_v<V> && ...)) {
            return [&]<std::size_t... K>(std::index_sequence<K...>) {
                return std::vector<double>{detail::as_number(ad::detail::partial<K, G>(vs...))...};
            }(std::index_sequence_for<V...>{});
        } else {
            return {};
        }
    }
};

// The reverse sweep over a recorded graph: adjoints from the result back to every node it
// reaches through known partial derivatives, in the order opposite to the run's.
inline void sweep(recorded_graph& g) {
    auto& nodes = g.nodes_;
    if (nodes.empty() || nodes[g.result_].kind == node_kind::constant) return;
    nodes[g.result_].adjoint = 1.0;
    for (std::size_t i = nodes.size(); i-- != 0;) {
        auto const& n = nodes[i];
        if (!n.adjoint || n.partials.size() != n.inputs.size()) continue;
        for (std::size_t k = 0; k != n.inputs.size(); ++k) {
            auto& in = nodes[n.inputs[k]];
            if (in.kind == node_kind::constant) continue;
            in.adjoint = in.adjoint.value_or(0.0) + n.partials[k] * *n.adjoint;
        }
    }
}

}  // namespace detail

// The graph of f(args...) as it ran: every call made, with its value; data-dependent branches
// as taken, loops unrolled, nested traced functions (and each level of a recursion) as clusters.
template <traced_function F, class... A>
recorded_graph record(F const& f, A const&... args) {
    recorded_graph g{std::string(F::name), {}, {{F::name, cluster_kind::traced, 0}}, 0};
    detail::recorder r{g};
    // Its own body is the graph's: entered with recurse, which skips the member overdub.
    auto const y = [&]<std::size_t... J>(std::index_sequence<J...>) {
        cassette::detail::tuple<decltype(r.template parameter<J>(args, "", {}))...> const params{
            {r.template parameter<J>(args, std::string(cassette::detail::type_name<A>()), {})}...};
        return cassette::recurse(r, f, cassette::detail::get<J>(params)...);
    }(std::index_sequence_for<A...>{});
    g.result_ = r.node_of(y);
    if constexpr (std::is_arithmetic_v<std::remove_cvref_t<decltype(cassette::untag(y, r))>>) detail::sweep(g);
    return g;
}

}  // namespace cassette::graph
