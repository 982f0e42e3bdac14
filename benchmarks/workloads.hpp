// The workloads behind "zero overhead, measured": each is a traced function (the DSL) and
// a hand-written C++ twin doing the same operations in the same order, plus a
// hand-instrumented twin that counts one call wherever the DSL has a call node. Shared by
// benchmarks/overhead.cpp (time), tests/instructions/ (instruction counts) and
// benchmarks/compile_time/ (compile time).
#pragma once

#include <cassette/function.hpp>
#include <cassette/overdub.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <string_view>
#include <utility>
#include <vector>

namespace workloads {

// The counting context of every "counter" variant.
//[counter
struct counter {
    long calls = 0;
    template <class F, class... X>
    void prehook(F const&, X const&...) {
        ++calls;
    }
};
//]

// --- rosenbrock over a std::vector<double> ------------------------------------------------

namespace dsl {
//[rosenbrock
inline constexpr auto rosenbrock = cassette::function<"rosenbrock">([](auto x) {
    return cassette::sum(0, cassette::length(x) - 1, [=](auto i) {
        return cassette::pow(1.0 - x[i], 2) + 100.0 * cassette::pow(x[i + 1] - cassette::pow(x[i], 2), 2);
    });
});
//]
}  // namespace dsl

namespace hand {
//[rosenbrock_hand
inline double rosenbrock(std::vector<double> const& x) {
    double r = 0;
    std::size_t const end = std::size(x) - 1;
    for (std::size_t i = 0; i < end; ++i)
        r = r + (std::pow(1.0 - x[i], 2) + 100.0 * std::pow(x[i + 1] - std::pow(x[i], 2), 2));
    return r;
}
//]

// One ++calls per call node of dsl::rosenbrock, in the order the DSL evaluates them. The
// body is a tree, so x[i] is read twice, as in the DSL.
inline double rosenbrock_counted(std::vector<double> const& x, counter& c) {
    double r = 0;
    ++c.calls; std::size_t const size = std::size(x);                 // length
    ++c.calls; std::size_t const end = size - 1;                      // -
    for (std::size_t i = 0; i < end; ++i) {
        ++c.calls; double const xi = x[i];                            // getindex
        ++c.calls; double const a = 1.0 - xi;                         // -
        ++c.calls; double const a2 = std::pow(a, 2);                  // pow
        ++c.calls; std::size_t const next = i + 1;                    // +
        ++c.calls; double const xnext = x[next];                      // getindex
        ++c.calls; double const xi_again = x[i];                      // getindex
        ++c.calls; double const xi2 = std::pow(xi_again, 2);          // pow
        ++c.calls; double const b = xnext - xi2;                      // -
        ++c.calls; double const b2 = std::pow(b, 2);                  // pow
        ++c.calls; double const scaled = 100.0 * b2;                  // *
        ++c.calls; double const term = a2 + scaled;                   // +
        ++c.calls; r = r + term;                                      // + (sum's accumulation)
    }
    return r;
}
}  // namespace hand

// --- fib through cassette::self --------------------------------------------------------

namespace dsl {
//[fib
inline constexpr auto fib = cassette::function<"fib">([](auto n) {
    return cassette::if_(n < 2, n, cassette::self(n - 1) + cassette::self(n - 2));
});
//]
}  // namespace dsl

namespace hand {
//[fib_hand
inline long fib(long n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

// hand::fib's own shape (?:, not if + early return), so that GCC guesses the same branch
// probabilities, which drive its recursive inlining: see docs/benchmarks.md.
inline long fib_counted(long n, counter& c) {
    ++c.calls;                                                        // <
    return n < 2 ? n : [&] {
        ++c.calls; long const n1 = n - 1;                             // -
        ++c.calls; long const a = fib_counted(n1, c);                 // self
        ++c.calls; long const n2 = n - 2;                             // -
        ++c.calls; long const b = fib_counted(n2, c);                 // self
        ++c.calls; return a + b;                                      // +
    }();
}
//]
}  // namespace hand

// --- chain: a straight-line expression of x and y with 2 * chain_steps call nodes -------

inline constexpr int chain_steps = 100;

// Step K: two operations, cycling through + - * with and without constants. The values
// stay bounded for any x, y in (-1, 1), so every variant's result compares exactly.
//[chain_step
template <int K>
constexpr auto chain_step(auto acc, auto x, auto y) {
    if constexpr (K % 4 == 0)
        return acc * x + y;
    else if constexpr (K % 4 == 1)
        return acc * y - x;
    else if constexpr (K % 4 == 2)
        return acc * 0.5 + x;
    else
        return (acc - y) * 0.25;
}
//]

// acc = x, then steps 0 .. chain_steps - 1. Plain C++ templates: run by the builder on
// symbolic values (the IR of the DSL version) and by hand::chain on doubles. A fold
// expression, not a template recursion: with a 100-deep recursion in the builder, Clang 16
// reports "stack nearly exhausted" under overdub (see docs/benchmarks.md).
template <class Acc, class X, class Y>
struct chain_state {
    Acc acc;
    X x;
    Y y;
};

template <int K>
struct chain_step_t {};

template <class Acc, class X, class Y, int K>
constexpr auto operator|(chain_state<Acc, X, Y> const& s, chain_step_t<K>) {
    auto const next = workloads::chain_step<K>(s.acc, s.x, s.y);
    return chain_state<decltype(next), X, Y>{next, s.x, s.y};
}

template <int... K>
constexpr auto chain_fold(auto x, auto y, std::integer_sequence<int, K...>) {
    return (chain_state<decltype(x), decltype(x), decltype(y)>{x, x, y} | ... | chain_step_t<K>{}).acc;
}

constexpr auto chain_from(auto x, auto y) {
    return workloads::chain_fold(x, y, std::make_integer_sequence<int, chain_steps>{});
}

namespace dsl {
inline constexpr auto chain =
    cassette::function<"chain">([](auto x, auto y) { return workloads::chain_from(x, y); });
}  // namespace dsl

namespace hand {
inline double chain(double x, double y) { return workloads::chain_from(x, y); }

template <int K = 0>
double chain_counted(double acc, double x, double y, counter& c) {
    if constexpr (K == chain_steps) {
        return acc;
    } else {
        double next;
        if constexpr (K % 4 == 0) {
            ++c.calls; double const t = acc * x;                      // *
            ++c.calls; next = t + y;                                  // +
        } else if constexpr (K % 4 == 1) {
            ++c.calls; double const t = acc * y;                      // *
            ++c.calls; next = t - x;                                  // -
        } else if constexpr (K % 4 == 2) {
            ++c.calls; double const t = acc * 0.5;                    // *
            ++c.calls; next = t + x;                                  // +
        } else {
            ++c.calls; double const t = acc - y;                      // -
            ++c.calls; next = t * 0.25;                               // *
        }
        return hand::chain_counted<K + 1>(next, x, y, c);
    }
}

inline double chain_counted(double x, double y, counter& c) { return hand::chain_counted(x, x, y, c); }
}  // namespace hand

// --- variants -----------------------------------------------------------------------------

enum class variant { hand, plain, null_context, no_hooks, counter, hand_counter };

inline constexpr std::array<variant, 6> variants{variant::hand,     variant::plain,   variant::null_context,
                                                 variant::no_hooks, variant::counter, variant::hand_counter};

constexpr std::string_view name(variant v) {
    switch (v) {
        case variant::hand: return "hand";
        case variant::plain: return "plain";
        case variant::null_context: return "null_context";
        case variant::no_hooks: return "no_hooks";
        case variant::counter: return "counter";
        case variant::hand_counter: return "hand_counter";
    }
    return "?";
}

// What each variant runs; `calls` receives the count of the variants that count.
// Hand and HandCounted are template arguments so that their calls are direct calls.
template <variant V, auto Hand, auto HandCounted, class F, class... A>
[[gnu::always_inline]] inline auto run(F const& traced, long& calls, A const&... args) {
    if constexpr (V == variant::hand) {
        return Hand(args...);
    } else if constexpr (V == variant::plain) {
        return traced(args...);
    } else if constexpr (V == variant::null_context) {
        return cassette::overdub(cassette::null_context{}, traced, args...);
    } else if constexpr (V == variant::no_hooks) {
        counter c;
        auto const r = cassette::overdub(cassette::disable_hooks(c), traced, args...);
        calls = c.calls;
        return r;
    } else if constexpr (V == variant::counter) {
        counter c;
        auto const r = cassette::overdub(c, traced, args...);
        calls = c.calls;
        return r;
    } else {
        counter c;
        auto const r = HandCounted(args..., c);
        calls = c.calls;
        return r;
    }
}

// Each workload: its input, its result type, the number of call nodes a run executes
// (what the counting variants must report) and run<V>(input, calls).
struct rosenbrock {
    static constexpr std::string_view name = "rosenbrock";
    static constexpr std::size_t n = 100;
    using input_type = std::vector<double>;
    using result_type = double;
    // length and `- 1`, then 12 call nodes per term.
    static constexpr long expected_calls = 2 + 12 * long(n - 1);

    static input_type input() {
        input_type x(n);
        for (std::size_t i = 0; i < n; ++i) x[i] = 0.5 + 0.01 * double(i);
        return x;
    }
    template <variant V>
    [[gnu::always_inline]] static result_type run(input_type const& x, long& calls) {
        return workloads::run<V, hand::rosenbrock, hand::rosenbrock_counted>(dsl::rosenbrock, calls, x);
    }
};

// How many times fib(k) runs the body: runs(k) = 1 + runs(k - 1) + runs(k - 2), with
// runs(0) = runs(1) = 1, computed bottom up (a recursion exceeds Clang's constexpr steps).
constexpr long fib_runs(long k) {
    long previous = 1, current = 1;
    for (long i = 1; i < k; ++i) previous = std::exchange(current, 1 + current + previous);
    return current;
}

struct fib {
    static constexpr std::string_view name = "fib";
    static constexpr long n = 25;
    using input_type = long;
    using result_type = long;
    // A body run makes 1 call (<) or 6 (<, -, self, -, self, +); every run but the top one
    // is a self call, so (runs - 1) / 2 runs make 6.
    static constexpr long expected_calls = fib_runs(n) + 5 * (fib_runs(n) - 1) / 2;

    static input_type input() { return n; }
    template <variant V>
    [[gnu::always_inline]] static result_type run(input_type const& k, long& calls) {
        return workloads::run<V, hand::fib, hand::fib_counted>(dsl::fib, calls, k);
    }
};

struct chain {
    static constexpr std::string_view name = "chain";
    using input_type = std::array<double, 2>;
    using result_type = double;
    static constexpr long expected_calls = 2 * chain_steps;

    static input_type input() { return {0.75, -0.375}; }
    template <variant V>
    [[gnu::always_inline]] static result_type run(input_type const& in, long& calls) {
        return workloads::run<V, static_cast<double (*)(double, double)>(hand::chain),
                              static_cast<double (*)(double, double, counter&)>(hand::chain_counted)>(
            dsl::chain, calls, in[0], in[1]);
    }
};

}  // namespace workloads
