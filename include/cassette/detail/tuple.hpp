// SPDX-License-Identifier: BSL-1.0
// A flat tuple for the evaluator: aggregate initialisation fixes left-to-right evaluation
// of the elements, and references stay references (arguments bind without copies).
#pragma once

#include <cassette/detail/config.hpp>

#include <cstddef>
#include <utility>

namespace cassette::detail {

template <std::size_t I, class T>
struct leaf {
    T value;
};

template <class Indices, class... T>
struct tuple_impl;

template <std::size_t... I, class... T>
struct tuple_impl<std::index_sequence<I...>, T...> : leaf<I, T>... {};

template <class... T>
using tuple = tuple_impl<std::index_sequence_for<T...>, T...>;

template <std::size_t I, class T>
CASSETTE_INLINE constexpr T const& get(leaf<I, T> const& l) noexcept {
    return l.value;
}
template <std::size_t I, class T>
CASSETTE_INLINE constexpr T& get(leaf<I, T>& l) noexcept {
    return l.value;
}

}  // namespace cassette::detail
