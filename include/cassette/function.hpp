// SPDX-License-Identifier: BSL-1.0
// What defining and calling traced functions takes: the DSL and the evaluator (overdub,
// contexts of one's own).
#pragma once

#include <cassette/dsl.hpp>
#include <cassette/overdub.hpp>
