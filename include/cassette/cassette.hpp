// SPDX-License-Identifier: BSL-1.0
// Cassette for C++: contextual call interception, compile-time passes and metadata
// propagation over a traced-call DSL. The umbrella header.
#pragma once

#include <cassette/fwd.hpp>
#include <cassette/ir.hpp>
#include <cassette/primitives.hpp>
#include <cassette/function.hpp>
#include <cassette/tag.hpp>
#include <cassette/overdub.hpp>
#include <cassette/transform.hpp>
#include <cassette/passes.hpp>
#include <cassette/listing.hpp>
#include <cassette/contexts.hpp>
#include <cassette/graph.hpp>
#include <cassette/ad.hpp>
