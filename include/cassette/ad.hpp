// SPDX-License-Identifier: BSL-1.0
// Automatic differentiation: forward mode (dual numbers, ad/forward.hpp) and reverse mode (a
// tape owned by the differentiating context, ad/reverse.hpp).
#pragma once

#include <cassette/ad/forward.hpp>
#include <cassette/ad/reverse.hpp>
