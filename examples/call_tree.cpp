// The nested call tree of f(x, y, z) = x*y + y*z, like Cassette's TraceCtx. The top-level
// call is never seen by hooks, so f is called from a small wrapper to appear in the tree.
#include <cassette/cassette.hpp>

#include <iostream>

//[call_tree
inline constexpr auto f = cassette::function<"f">([](auto x, auto y, auto z) { return x * y + y * z; });
inline constexpr auto run_f = cassette::function([](auto x, auto y, auto z) { return f(x, y, z); });

int main() {
    cassette::contexts::tracer trace;
    cassette::overdub(trace, run_f, 2.0, 3.0, 4.0);
    std::cout << trace;
}
//]
