// SPDX-License-Identifier: BSL-1.0
// A string usable as a template argument: the names of traced functions and of get<I>.
#pragma once

#include <cstddef>
#include <string_view>

namespace cassette::detail {

template <std::size_t N>
struct fixed_string {
    char data[N]{};

    constexpr fixed_string(char const (&s)[N]) noexcept {
        for (std::size_t i = 0; i != N; ++i) data[i] = s[i];
    }
    constexpr fixed_string() noexcept = default;

    constexpr std::string_view view() const noexcept { return {data, N - 1}; }
};

// "get<" + digits(I) + ">", built at compile time so name_of(get<I>) is a static string.
template <std::size_t I>
constexpr auto indexed_name(std::string_view stem) {
    constexpr std::size_t digits = [] {
        std::size_t d = 1;
        for (std::size_t v = I; v >= 10; v /= 10) ++d;
        return d;
    }();
    struct result {
        char data[64]{};
        std::size_t size = 0;
    } r;
    for (char c : stem) r.data[r.size++] = c;
    r.data[r.size++] = '<';
    std::size_t v = I;
    for (std::size_t k = digits; k != 0; --k, v /= 10) r.data[r.size + k - 1] = char('0' + v % 10);
    r.size += digits;
    r.data[r.size++] = '>';
    return r;
}

}  // namespace cassette::detail
