// SPDX-License-Identifier: BSL-1.0
// The ready contexts, each a plain context built on overdub's public mechanism.
#pragma once

#include <cassette/contexts/call_counter.hpp>
#include <cassette/contexts/memoizer.hpp>
#include <cassette/contexts/printer.hpp>
#include <cassette/contexts/profiler.hpp>
#include <cassette/contexts/tracer.hpp>
