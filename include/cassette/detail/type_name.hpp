// The readable name of a type, read off the compiler's pretty function signature.
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

}  // namespace cassette::detail
