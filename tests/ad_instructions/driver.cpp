// Runs the rows of benchmarks/ad_workloads.hpp for callgrind:
//   ad_instructions_driver rows <workload>              the workload's implementations, one a line
//   ad_instructions_driver <workload> <implementation> <K>  runs the row K times
//   ad_instructions_driver check                        every row agrees with the hand-written one
// Each row is an extern "C" function <workload>_<implementation>, so that
// `valgrind --toggle-collect=<symbol>` counts exactly its instructions (and its callees').
#include "ad_workloads.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <vector>

// noinline keeps each row a function of its own; GCC's noipa also stops identical-code
// folding and constant-propagating clones. Clang has no noipa and does neither to an
// external function.
#if defined(__clang__)
#define DRIVER_BOUNDARY [[gnu::noinline]]
#else
#define DRIVER_BOUNDARY [[gnu::noinline, gnu::noipa]]
#endif

namespace {

// The input and result types of a row.
template <class F>
struct row_types;
template <class R, class A>
struct row_types<R (*)(A const&)> {
    using input = A;
    using result = R;
};
template <class R, class A>
struct row_types<R (*)(A)> {
    using input = A;
    using result = R;
};

template <auto Row>
using input_t = typename row_types<decltype(Row)>::input;
template <auto Row>
using result_t = typename row_types<decltype(Row)>::result;

}  // namespace

// The rows of one translation unit: reverse mode's apart from the others (ad_workloads.hpp).
#if defined(AD_WORKLOADS_REVERSE)
#define DRIVER_ROWS AD_WORKLOADS_REVERSE_ROWS
#else
#define DRIVER_ROWS AD_WORKLOADS_ROWS
#endif

// One result per call, written to `out`, so that the function returns no class type
// (a C-linkage function may not, for Clang's -Wreturn-type-c-linkage).
#define DRIVER_ROW(W, I, INPUT)                                                                       \
    extern "C" DRIVER_BOUNDARY void W##_##I(input_t<&ad_workloads::W::I> const& in,                    \
                                            result_t<&ad_workloads::W::I>& out) {                      \
        out = ad_workloads::W::I(in);                                                                 \
    }
DRIVER_ROWS(DRIVER_ROW)
#undef DRIVER_ROW

namespace {

struct entry {
    std::string_view workload;
    std::string_view implementation;
    // Runs the row k times (the input is made outside the counted function) and returns
    // the last result.
    std::vector<double> (*run)(long k);
};

template <auto Row, auto Input, auto Counted>
std::vector<double> run(long k) {
    auto const in = Input();
    result_t<Row> out{};
    for (long i = 0; i != k; ++i) Counted(in, out);
    return ad_workloads::flatten(out);
}

#define DRIVER_ENTRY(W, I, INPUT) \
    entry{#W, #I, run<&ad_workloads::W::I, &ad_workloads::W::INPUT, &W##_##I>},
entry const entries[] = {DRIVER_ROWS(DRIVER_ENTRY)};
#undef DRIVER_ENTRY

// Infinity-norm relative difference: max |a_k - h_k| / max |h_k|.
double relative_difference(std::vector<double> const& a, std::vector<double> const& h) {
    if (a.size() != h.size()) return INFINITY;
    double difference = 0, scale = 0;
    for (std::size_t k = 0; k != h.size(); ++k) {
        difference = std::max(difference, std::abs(a[k] - h[k]));
        scale = std::max(scale, std::abs(h[k]));
    }
    return scale == 0 ? difference : difference / scale;
}

// Every row's result within 1e-12 (relative) of the hand-written row's; the rows of a
// workload follow its hand-written row in `entries`.
int check() {
    int failures = 0;
    std::vector<double> hand;
    for (entry const& e : entries) {
        std::vector<double> const result = e.run(1);
        if (e.implementation == "hand") hand = result;
        double const difference = relative_difference(result, hand);
        bool const ok = difference <= 1e-12;
        std::printf("%-4s %-16s %-16s relative difference %.3g", ok ? "ok" : "FAIL", e.workload.data(),
                    e.implementation.data(), difference);
        std::printf(result.size() == 1 ? " result %.17g\n" : " result[0] %.17g\n", result[0]);
        failures += !ok;
    }
    return failures == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc == 2 && argv[1] == std::string_view("check")) return check();
    if (argc == 3 && argv[1] == std::string_view("rows")) {
        for (entry const& e : entries)
            if (e.workload == argv[2]) std::printf("%s\n", e.implementation.data());
        return 0;
    }
    if (argc == 4)
        for (entry const& e : entries)
            if (e.workload == argv[1] && e.implementation == argv[2]) {
                std::vector<double> const result = e.run(std::atol(argv[3]));
                std::printf("%.17g\n", result[0]);
                return 0;
            }
    std::fprintf(stderr, "usage: %s check | rows <workload> | <workload> <implementation> <K>\n", argv[0]);
    return 2;
}
