// SPDX-License-Identifier: BSL-1.0
// How ready contexts write values: numbers and strings as streams do, callables by name,
// ranges as [a, b], aggregates as {a, b} (Boost.PFR), anything else by its type's name.
#pragma once

#include <cassette/function.hpp>

#include <boost/pfr/core.hpp>

#include <iterator>
#include <ostream>
#include <sstream>
#include <string>
#include <type_traits>

namespace cassette::detail {

template <class T>
void print_value(std::ostream& os, T const& x) {
    if constexpr (std::is_same_v<T, nothing>) {
        os << "nothing";
    } else if constexpr (requires { std::string_view(T::name); } ||
                         (std::is_pointer_v<T> && std::is_function_v<std::remove_pointer_t<T>>) ||
                         (std::is_class_v<T> && requires { &T::operator(); })) {
        os << cassette::name_of(x);
    } else if constexpr (std::is_same_v<T, bool>) {
        os << (x ? "true" : "false");
    } else if constexpr (requires { os << x; }) {
        os << x;
    } else if constexpr (requires { std::begin(x); std::end(x); }) {
        os << '[';
        char const* separator = "";
        for (auto const& element : x) {
            os << separator;
            detail::print_value(os, element);
            separator = ", ";
        }
        os << ']';
    } else if constexpr (std::is_aggregate_v<T>) {
        os << '{';
        boost::pfr::for_each_field(x, [&os](auto const& field, std::size_t i) {
            if (i != 0) os << ", ";
            detail::print_value(os, field);
        });
        os << '}';
    } else {
        os << detail::type_name<T>();
    }
}

template <class T>
std::string to_string(T const& x) {
    std::ostringstream os;
    detail::print_value(os, x);
    return std::move(os).str();
}

// "name(a, b)"
template <class F, class... X>
void print_call(std::ostream& os, F const& f, X const&... xs) {
    os << cassette::name_of(f) << '(';
    char const* separator = "";
    ((os << separator, detail::print_value(os, xs), separator = ", "), ...);
    os << ')';
}

}  // namespace cassette::detail
