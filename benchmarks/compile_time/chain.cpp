// The 200-node chain of benchmarks/workloads.hpp, one variant per compilation, for
// measure.sh: -DCHAIN_HAND (the hand-written code: the cost of the headers alone),
// -DCHAIN_PLAIN (the DSL called plainly), -DCHAIN_NULL_CONTEXT (overdub(null_context{}, ...))
// -DCHAIN_CSE (overdub under a context whose pass is passes::cse) or -DCHAIN_TRACER (overdub under cassette::contexts::tracer, which hooks every call).
#include "../workloads.hpp"

#include <cstdio>

#if defined(CHAIN_CSE)
#include <cassette/passes.hpp>

struct shared {
    static constexpr auto pass = cassette::passes::cse;
};
#endif
#if defined(CHAIN_TRACER)
#include <cassette/contexts/tracer.hpp>

#include <iostream>
#endif

int main(int argc, char**) {
    double const x = 1.0 / (argc + 1), y = 0.25;  // not constants, so nothing folds away
#if defined(CHAIN_HAND)
    double const r = workloads::hand::chain(x, y);
#elif defined(CHAIN_PLAIN)
    double const r = workloads::dsl::chain(x, y);
#elif defined(CHAIN_NULL_CONTEXT)
    double const r = cassette::overdub(cassette::null_context{}, workloads::dsl::chain, x, y);
#elif defined(CHAIN_CSE)
    double const r = cassette::overdub(shared{}, workloads::dsl::chain, x, y);
#elif defined(CHAIN_TRACER)
    cassette::contexts::tracer trace;
    double const r = cassette::overdub(trace, workloads::dsl::chain, x, y);
    std::cout << trace.calls().size() << " top-level calls traced\n";
#else
#error "define one of CHAIN_HAND, CHAIN_PLAIN, CHAIN_NULL_CONTEXT, CHAIN_CSE, CHAIN_TRACER"
#endif
    std::printf("%.17g\n", r);
}
