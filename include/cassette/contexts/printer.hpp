// SPDX-License-Identifier: BSL-1.0
// printer: one line `name(args...)` per call, like Cassette's PrintCtx.
#pragma once

#include <cassette/detail/print.hpp>

#include <ostream>

namespace cassette::contexts {

struct printer {
    std::ostream& os;

    template <class F, class... X>
    void prehook(F const& f, X const&... xs) {
        detail::print_call(os, f, xs...);
        os << '\n';
    }
};

}  // namespace cassette::contexts
