// SPDX-License-Identifier: BSL-1.0
// Compiler-specific spellings, in one place; every other header is portable C++20.
#pragma once

#include <cstddef>
#include <type_traits>

// std::construct_at and std::destroy_at, with libstdc++ from the header of its own that declares
// them: their standard header, <memory>, also declares shared_ptr, the atomics and the parallel
// algorithms, which cost each translation unit more than the rest of Cassette's headers
// together (libstdc++ 12: about a billion instructions, a quarter of a second, with either
// compiler). Not libc++'s own header of them: its internal headers are not for inclusion.
#if defined(__GLIBCXX__) && __has_include(<bits/stl_construct.h>)
#include <bits/stl_construct.h>
#else
#include <memory>
#endif

// CASSETTE_INLINE (before a function) and CASSETTE_INLINE_LAMBDA (after a lambda's
// parameters, the one place GCC accepts the attribute on a lambda) force inlining when
// optimising, so that the dozen small evaluator functions a call node goes through cost
// nothing at run time. Not at -O0: GCC inlines always_inline functions even there, and a
// whole body inlined into one unoptimised function costs compile time and memory out of
// proportion (GCC 12, a body of 800 calls: 22 s at -O0 against 4.6 s at -O2).
#if defined(__GNUC__) && defined(__OPTIMIZE__)
#define CASSETTE_INLINE [[gnu::always_inline]]
#define CASSETTE_INLINE_LAMBDA __attribute__((always_inline))
#else
#define CASSETTE_INLINE
#define CASSETTE_INLINE_LAMBDA
#endif

// CASSETTE_OUTLINE_CALLS: a body's calls are evaluated in functions of their own, each holding
// about this many, rather than all inlined into one function; 0 never outlines. When
// optimising, because the optimisers cost more than linear in a function's size: GCC's early
// inliner optimises each forced-inline function with its callees already inlined, so a body's
// node functions cost the sum of all their subtrees' sizes, the body's size times its depth
// (GCC 12, the gradient of a random expression of 1,600 calls: 41 s, against 13 s outlined),
// and Clang's function passes weigh every memory access of a function against every call in
// it (Clang 16, the same gradient: 6.5 s against 4.9 s outlined at 128 calls; 128 compiles as
// fast as 64 and keeps a 200-call chain's counting prehook within 10% of the hand-written
// code). Outlining costs the optimiser the sight across functions (a repeated sin(x) in two of
// them is computed twice), so it is kept to bodies larger than hand-written ones; define it
// before including Cassette to choose (docs/compile-time.md).
#ifndef CASSETTE_OUTLINE_CALLS
#if defined(__clang__) && defined(__OPTIMIZE__)
#define CASSETTE_OUTLINE_CALLS 128
#elif defined(__GNUC__) && defined(__OPTIMIZE__)
#define CASSETTE_OUTLINE_CALLS 64
#else
#define CASSETTE_OUTLINE_CALLS 0
#endif
#endif

// CASSETTE_FLATTEN (before a function): every call in it inlined, transitively, whatever the
// callee's own attribute. With GCC, a large body's outlined functions are flattened where a
// context's overdub member takes calls, so that the member need not be forced inline at each
// call node: forced, GCC 12's early inliner optimises it again inside every enclosing node's
// function on the way up (the gradient of a random expression of 1,600 calls: 8.5 s, against
// 5.7 s flattened, and 17% fewer instructions run). Not with Clang, which inlines the same
// either way (the same instructions) and took 5% longer to compile.
// CASSETTE_KEEP_APART (before a function): never inlined, not even into a flattened function,
// which otherwise takes in every outlined function below it: a gradient of 3,200 calls became
// one function of 120 KB, and GCC 12's register allocator grows faster than a function's size
// (0.13 s for the 31 KB of a gradient of 800 calls, 2.3 s for those 120 KB).
#if defined(__GNUC__) && !defined(__clang__) && defined(__OPTIMIZE__)
#define CASSETTE_FLATTEN [[gnu::flatten]]
#define CASSETTE_KEEP_APART [[gnu::noinline]]
#define CASSETTE_DETAIL_FLATTENS true
#else
#define CASSETTE_FLATTEN
#define CASSETTE_KEEP_APART
#define CASSETTE_DETAIL_FLATTENS false
#endif

// CASSETTE_CONST_FUNCTION (before a function): its result depends on its arguments only, so
// the optimiser may share repeated calls, hoist them out of loops and drop unused ones. For
// the calls to libm's functions the static adjoint recomputes: their errno writes otherwise
// keep every one of them. Not inlined, or the attribute would be lost with the function.
#if defined(__GNUC__)
#define CASSETTE_CONST_FUNCTION __attribute__((const, noinline))
#else
#define CASSETTE_CONST_FUNCTION
#endif

namespace cassette::detail {

inline constexpr std::size_t outline_calls = CASSETTE_OUTLINE_CALLS;
inline constexpr bool flattens = CASSETTE_DETAIL_FLATTENS;

// Hides from the optimiser how `value` was computed. GCC 12's predictive commoning and Clang
// 16 carry a loop's x[i + 1] over to the next iteration's x[i]; for values wider than 32 bytes
// (the tangents of a 10-input gradient) that spills registers and costs more than loading
// again (callgrind: 1,128 rather than 960 instructions for a 10-input Rosenbrock gradient,
// GCC). An empty asm that claims to change the index stops it.
template <class T>
CASSETTE_INLINE constexpr void hide_from_optimizer([[maybe_unused]] T& value) noexcept {
#if defined(__GNUC__)
    if (!std::is_constant_evaluated()) asm("" : "+r"(value));
#endif
}

}  // namespace cassette::detail
