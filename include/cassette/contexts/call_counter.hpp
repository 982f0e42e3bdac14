// SPDX-License-Identifier: BSL-1.0
// call_counter: how many calls each callee received, by name.
#pragma once

#include <cassette/function.hpp>

#include <cstddef>
#include <string_view>
#include <utility>
#include <vector>

namespace cassette::contexts {

class call_counter {
public:
    template <class F, class... X>
    void prehook(F const& f, X const&...) {
        ++slot(cassette::name_of(f));
    }

    std::size_t count(std::string_view name) const noexcept {
        for (auto const& [n, c] : counts_)
            if (n == name) return c;
        return 0;
    }

    std::size_t total() const noexcept {
        std::size_t t = 0;
        for (auto const& entry : counts_) t += entry.second;
        return t;
    }

    // (name, count) in order of first call.
    std::vector<std::pair<std::string_view, std::size_t>> const& counts() const noexcept { return counts_; }

private:
    // Names are static strings, so the same callee shows the same pointer: compare that first.
    std::size_t& slot(std::string_view name) {
        for (auto& [n, c] : counts_)
            if (n.data() == name.data() || n == name) return c;
        return counts_.emplace_back(name, 0).second;
    }

    std::vector<std::pair<std::string_view, std::size_t>> counts_;
};

}  // namespace cassette::contexts
