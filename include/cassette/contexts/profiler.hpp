// SPDX-License-Identifier: BSL-1.0
// profiler: calls and inclusive wall time per traced function.
#pragma once

#include <cassette/function.hpp>

#include <chrono>
#include <cstddef>
#include <ostream>
#include <string_view>
#include <vector>

namespace cassette::contexts {

class profiler {
public:
    using clock = std::chrono::steady_clock;

    struct entry {
        std::string_view name;
        std::size_t calls = 0;
        clock::duration time{};
    };

    template <traced_function F, class... X>
    void prehook(F const& f, X const&...) {
        std::size_t const i = index(cassette::name_of(f));
        ++entries_[i].calls;
        open_.push_back({i, clock::now()});
    }

    template <class R, traced_function F, class... X>
    void posthook(R const&, F const&, X const&...) noexcept {
        close();
    }

    // A call that threw counts the time it ran.
    template <traced_function F, class... X>
    void unwound(F const&, X const&...) noexcept {
        close();
    }

    std::vector<entry> const& entries() const noexcept { return entries_; }

    std::size_t calls(std::string_view name) const noexcept {
        for (auto const& e : entries_)
            if (e.name == name) return e.calls;
        return 0;
    }

    friend std::ostream& operator<<(std::ostream& os, profiler const& p) {
        for (auto const& e : p.entries_)
            os << e.name << ": " << e.calls << " calls, "
               << std::chrono::duration_cast<std::chrono::microseconds>(e.time).count() << " us\n";
        return os;
    }

private:
    struct open_call {
        std::size_t index;
        clock::time_point start;
    };

    void close() noexcept {
        auto const [i, start] = open_.back();
        open_.pop_back();
        entries_[i].time += clock::now() - start;
    }

    std::size_t index(std::string_view name) {
        for (std::size_t i = 0; i != entries_.size(); ++i)
            if (entries_[i].name == name) return i;
        entries_.push_back({name});
        return entries_.size() - 1;
    }

    std::vector<entry> entries_;
    std::vector<open_call> open_;
};

}  // namespace cassette::contexts
