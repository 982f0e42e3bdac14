// Runs one variant of one workload (benchmarks/workloads.hpp) once, for callgrind:
//   instructions_driver <workload> <variant>   prints "<result> <calls>"
//   instructions_driver check                  every variant agrees with the hand-written one
// Each variant is an extern "C" function, so `valgrind --toggle-collect=<workload>_<variant>`
// counts exactly its instructions (and those of everything it calls).
#include "workloads.hpp"

#include <cstdio>
#include <string_view>

// noinline keeps each variant a function of its own; GCC's noipa also stops identical-code
// folding (-fipa-icf would merge plain and null_context when they compile to the same
// code, which is the point) and constant-propagating clones. Clang has no noipa and does
// neither to an external function.
#if defined(__clang__)
#define DRIVER_BOUNDARY [[gnu::noinline]]
#else
#define DRIVER_BOUNDARY [[gnu::noinline, gnu::noipa]]
#endif

#define DRIVER_VARIANT(W, V)                                                                    \
    extern "C" DRIVER_BOUNDARY workloads::W::result_type W##_##V(workloads::W::input_type const& in, \
                                                                 long& calls) {                 \
        return workloads::W::run<workloads::variant::V>(in, calls);                             \
    }
#define DRIVER_WORKLOAD(W)                                                                        \
    DRIVER_VARIANT(W, hand) DRIVER_VARIANT(W, plain) DRIVER_VARIANT(W, null_context)                \
    DRIVER_VARIANT(W, no_hooks) DRIVER_VARIANT(W, counter) DRIVER_VARIANT(W, hand_counter)

DRIVER_WORKLOAD(rosenbrock)
DRIVER_WORKLOAD(fib)
DRIVER_WORKLOAD(chain)

namespace {

struct entry {
    std::string_view workload;
    workloads::variant variant;
    long expected_calls;  // of the counting variants
    double (*run)(long& calls);
};

// The input is made outside the measured function.
template <class W, auto Variant>
double run(long& calls) {
    return double(Variant(W::input(), calls));
}

#define DRIVER_ENTRY(W, V) \
    entry{workloads::W::name, workloads::variant::V, workloads::W::expected_calls, run<workloads::W, W##_##V>},
#define DRIVER_ENTRIES(W)                                                                        \
    DRIVER_ENTRY(W, hand) DRIVER_ENTRY(W, plain) DRIVER_ENTRY(W, null_context) DRIVER_ENTRY(W, no_hooks) \
    DRIVER_ENTRY(W, counter) DRIVER_ENTRY(W, hand_counter)

entry const entries[] = {DRIVER_ENTRIES(rosenbrock) DRIVER_ENTRIES(fib) DRIVER_ENTRIES(chain)};

// Same result as the hand-written variant (same operations, same order: exactly equal);
// the counters count every call node, disable_hooks none.
int check() {
    int failures = 0;
    double hand_result = 0;
    for (entry const& e : entries) {
        long calls = -1;
        double const result = e.run(calls);
        if (e.variant == workloads::variant::hand) hand_result = result;
        long expected = -1;
        if (e.variant == workloads::variant::counter || e.variant == workloads::variant::hand_counter)
            expected = e.expected_calls;
        else if (e.variant == workloads::variant::no_hooks)
            expected = 0;
        bool const ok = result == hand_result && calls == expected;
        std::printf("%-4s %-10s %-13s result %.17g calls %ld (expected %ld)\n", ok ? "ok" : "FAIL",
                    e.workload.data(), name(e.variant).data(), result, calls, expected);
        failures += !ok;
    }
    return failures == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc == 2 && argv[1] == std::string_view("check")) return check();
    if (argc == 3)
        for (entry const& e : entries)
            if (e.workload == argv[1] && name(e.variant) == argv[2]) {
                long calls = -1;
                double const result = e.run(calls);
                std::printf("%.17g %ld\n", result, calls);
                return 0;
            }
    std::fprintf(stderr, "usage: %s check | %s <workload> <variant>\n", argv[0], argv[0]);
    return 2;
}
