// SPDX-License-Identifier: BSL-1.0
// tracer: the nested call tree of a run, like Cassette's TraceCtx. Each node records the
// callee's name, its arguments and result (as text) and the calls made inside it.
#pragma once

#include <cassette/detail/print.hpp>

#include <ostream>
#include <string>
#include <vector>

namespace cassette::contexts {

struct trace_node {
    std::string name;
    std::vector<std::string> args;
    std::string result;
    std::vector<trace_node> children;
};

class tracer {
public:
    template <class F, class... X>
    void prehook(F const& f, X const&... xs) {
        auto& siblings = open_.empty() ? calls_ : open_.back()->children;
        // The open chain's vectors only grow at their innermost node, so these pointers stay valid.
        open_.push_back(&siblings.emplace_back(
            trace_node{std::string(cassette::name_of(f)), {detail::to_string(xs)...}, {}, {}}));
    }

    template <class R, class F, class... X>
    void posthook(R const& result, F const&, X const&...) {
        open_.back()->result = detail::to_string(result);
        open_.pop_back();
    }

    // A call that threw is closed with no result, so the next run is not nested under it.
    template <class F, class... X>
    void unwound(F const&, X const&...) noexcept {
        open_.back()->result = "<threw>";
        open_.pop_back();
    }

    std::vector<trace_node> const& calls() const noexcept { return calls_; }

    void clear() noexcept {
        calls_.clear();
        open_.clear();
    }

    friend std::ostream& operator<<(std::ostream& os, tracer const& t) {
        for (auto const& node : t.calls_) print(os, node, 0);
        return os;
    }

private:
    static void print(std::ostream& os, trace_node const& node, int depth) {
        os << std::string(std::size_t(2 * depth), ' ') << node.name << '(';
        char const* separator = "";
        for (auto const& arg : node.args) os << std::exchange(separator, ", ") << arg;
        os << ") = " << node.result << '\n';
        for (auto const& child : node.children) print(os, child, depth + 1);
    }

    std::vector<trace_node> calls_;
    std::vector<trace_node*> open_;
};

}  // namespace cassette::contexts
