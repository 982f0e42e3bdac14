// SPDX-License-Identifier: BSL-1.0
// The readable name of a type, read off the compiler's pretty function signature, and an
// identity for types that needs no RTTI.
#pragma once

#include <string_view>

namespace cassette::detail {

template <class T>
constexpr std::string_view type_name() noexcept {
#if defined(__clang__)
    std::string_view s = __PRETTY_FUNCTION__;  // "... type_name() [T = X]"
    std::string_view const open = "[T = ";
    auto const first = s.find(open) + open.size();
    return s.substr(first, s.rfind(']') - first);
#else
    std::string_view s = __PRETTY_FUNCTION__;  // "... type_name() [with T = X; std::string_view = ...]"
    std::string_view const open = "[with T = ";
    auto const first = s.find(open) + open.size();
    return s.substr(first, s.find(';', first) - first);
#endif
}

// The address of type_key<T> identifies T where typeid(T) would, which -fno-rtti rules out.
// A variable, not a constant: identical-code folding may merge constants, not variables.
template <class T>
inline char type_key;

template <class T>
void const* type_id() noexcept {
    return &type_key<T>;
}

}  // namespace cassette::detail
