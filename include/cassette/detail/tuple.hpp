// SPDX-License-Identifier: BSL-1.0
// A flat tuple: aggregate initialisation fixes left-to-right evaluation of the elements,
// references stay references (arguments bind without copies), and element I is reached by a
// cast to its base, leaf<I, T>, with no function to instantiate per tuple type (the evaluator
// reaches a call node's arguments that way). It is a Boost.Hana sequence too, for passes
// (boost::hana::at_c, boost::hana::unpack).
#pragma once

#include <cassette/detail/config.hpp>

#include <boost/hana/fwd/at.hpp>
#include <boost/hana/fwd/drop_front.hpp>
#include <boost/hana/fwd/is_empty.hpp>
#include <boost/hana/fwd/unpack.hpp>
#include <boost/hana/integral_constant.hpp>
#include <boost/mp11/algorithm.hpp>
#include <boost/mp11/list.hpp>

#include <cstddef>
#include <utility>

namespace cassette::detail {

template <std::size_t I, class T>
struct leaf {
    T value;
};

struct tuple_tag {};

template <class Indices, class... T>
struct tuple_impl;

template <std::size_t... I, class... T>
struct tuple_impl<std::index_sequence<I...>, T...> : leaf<I, T>... {
    using hana_tag = tuple_tag;
};

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

// Count elements from the From-th on.
template <std::size_t From, std::size_t Count, std::size_t... I, class... T>
CASSETTE_INLINE constexpr auto slice(tuple_impl<std::index_sequence<I...>, T...> const& t) {
    return [&]<std::size_t... K>(std::index_sequence<K...>) CASSETTE_INLINE_LAMBDA {
        return tuple<boost::mp11::mp_at_c<boost::mp11::mp_list<T...>, From + K>...>{{detail::get<From + K>(t)}...};
    }(std::make_index_sequence<Count>{});
}

// What boost::hana::drop_front(t, N) gives: the elements from the N-th on, if any.
template <std::size_t N, std::size_t... I, class... T>
constexpr auto drop_front(tuple_impl<std::index_sequence<I...>, T...> const& t) {
    constexpr std::size_t first = N < sizeof...(T) ? N : sizeof...(T);
    return detail::slice<first, sizeof...(T) - first>(t);
}

}  // namespace cassette::detail

namespace boost::hana {

template <>
struct at_impl<cassette::detail::tuple_tag> {
    template <class Xs, class N>
    static constexpr decltype(auto) apply(Xs const& xs, N const&) {
        return cassette::detail::get<N::value>(xs);
    }
};

template <>
struct drop_front_impl<cassette::detail::tuple_tag> {
    template <class Xs, class N>
    static constexpr auto apply(Xs const& xs, N const&) {
        return cassette::detail::drop_front<N::value>(xs);
    }
};

template <>
struct is_empty_impl<cassette::detail::tuple_tag> {
    template <std::size_t... I, class... T>
    static constexpr auto apply(cassette::detail::tuple_impl<std::index_sequence<I...>, T...> const&) {
        return hana::bool_c<sizeof...(T) == 0>;
    }
};

template <>
struct unpack_impl<cassette::detail::tuple_tag> {
    template <std::size_t... I, class... T, class F>
    static constexpr decltype(auto) apply(cassette::detail::tuple_impl<std::index_sequence<I...>, T...> const& xs, F&& f) {
        return static_cast<F&&>(f)(cassette::detail::get<I>(xs)...);
    }
};

}  // namespace boost::hana
