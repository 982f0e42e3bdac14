// SPDX-License-Identifier: BSL-1.0
// memoizer(f, g, ...): remembers the results of the traced functions it was made with,
// per argument list, including calls they make to themselves.
#pragma once

#include <cassette/detail/type_name.hpp>
#include <cassette/overdub.hpp>

#include <any>
#include <concepts>
#include <map>
#include <tuple>
#include <type_traits>
#include <unordered_map>

namespace cassette::contexts {

template <traced_function... F>
class memoizer {
public:
    constexpr explicit memoizer(F const&...) noexcept {}

    // The result type is the plain call's, named up front because the body being run
    // calls back into this member before its own return type could be deduced.
    template <class G, class... X>
        requires(std::same_as<G, F> || ...)
    auto overdub(G const& g, X const&... xs) -> std::invoke_result_t<G const&, X const&...> {
        using result = std::invoke_result_t<G const&, X const&...>;
        auto& cache = table<G, result, X...>();
        std::tuple<X...> key{xs...};
        if (auto it = cache.find(key); it != cache.end()) return it->second;
        result r = cassette::recurse(*this, g, xs...);
        cache.emplace(std::move(key), r);
        return r;
    }

    // How many results are stored, over all functions and argument types.
    std::size_t size() const {
        std::size_t n = 0;
        for (auto const& [type, entry] : tables_) n += entry.size(entry.map);
        return n;
    }

    void clear() noexcept { tables_.clear(); }

private:
    // One std::map per (function, argument types), behind std::any.
    struct table_entry {
        std::any map;
        std::size_t (*size)(std::any const&);
    };

    template <class G, class Map>
    struct table_key {};

    template <class G, class R, class... X>
    std::map<std::tuple<X...>, R>& table() {
        using map_type = std::map<std::tuple<X...>, R>;
        auto [it, inserted] = tables_.try_emplace(cassette::detail::type_id<table_key<G, map_type>>());
        if (inserted)
            it->second = {map_type{}, [](std::any const& a) { return std::any_cast<map_type const&>(a).size(); }};
        return std::any_cast<map_type&>(it->second.map);
    }

    std::unordered_map<void const*, table_entry> tables_;  // by detail::type_id
};

}  // namespace cassette::contexts
