// Speed, measured side by side: every row of benchmarks/ad_workloads.hpp (hand-written
// derivatives, Cassette, Boost.Math autodiff, Ceres' Jet, Eigen's AutoDiffScalar), then a
// table of the median time per call of each row and its ratios to the hand-written row and
// to the best peer (0 where a workload has none), from this same run. Instruction counts:
// tests/ad_instructions/.
#include "ad_workloads.hpp"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

template <auto Row, auto Input>
void measure(benchmark::State& state) {
    auto input = Input();
    for (auto _ : state) {
        // The input may have changed and the result is used, so each iteration is a full call.
        benchmark::DoNotOptimize(input);
        auto const result = Row(input);
        benchmark::DoNotOptimize(result);
    }
}

// Median CPU time per iteration of each benchmark, in nanoseconds.
class collector : public benchmark::ConsoleReporter {
public:
    std::map<std::string, double> median_ns;

    void ReportRuns(std::vector<Run> const& runs) override {
        for (Run const& run : runs)
            if (run.run_type == Run::RT_Aggregate && run.aggregate_name == "median")
                median_ns[run.run_name.function_name] =
                    run.GetAdjustedCPUTime() / benchmark::GetTimeUnitMultiplier(run.time_unit) * 1e9;
        ConsoleReporter::ReportRuns(runs);
    }
};

struct row {
    std::string workload, implementation;
};
std::vector<row> rows;

#define BENCH_ROW(W, I, INPUT)                                                                  \
    rows.push_back({#W, #I});                                                                  \
    benchmark::RegisterBenchmark(#W "/" #I, measure<&ad_workloads::W::I, &ad_workloads::W::INPUT>) \
        ->Repetitions(5)                                                                       \
        ->ReportAggregatesOnly(true);

// The rows of one translation unit: reverse mode's apart (ad_reverse.cpp, ad_workloads.hpp).
#if defined(AD_WORKLOADS_REVERSE)
void register_all() { AD_WORKLOADS_REVERSE_ROWS(BENCH_ROW) }
auto const& names = ad_workloads::reverse_workload_names;
#else
void register_all() { AD_WORKLOADS_ROWS(BENCH_ROW) }
auto const& names = ad_workloads::workload_names;
#endif
#undef BENCH_ROW

void print_table(collector const& c, std::string_view workload) {
    auto const time = [&](std::string const& implementation) {
        auto const it = c.median_ns.find(std::string(workload) + "/" + implementation);
        return it == c.median_ns.end() ? 0.0 : it->second;
    };
    double const hand = time("hand");
    double best_peer = 0;
    for (row const& r : rows)
        if (r.workload == workload && ad_workloads::kind_of(r.implementation) == ad_workloads::kind::peer &&
            time(r.implementation) > 0)
            best_peer = best_peer == 0 ? time(r.implementation) : std::min(best_peer, time(r.implementation));
    if (hand == 0) return;  // filtered out
    std::printf("%s\n", std::string(workload).c_str());
    for (row const& r : rows)
        if (r.workload == workload)
            std::printf("  %-24s %12.1f %9.3f %12.3f\n", r.implementation.c_str(), time(r.implementation),
                        time(r.implementation) / hand, best_peer == 0 ? 0.0 : time(r.implementation) / best_peer);
}

}  // namespace

int main(int argc, char** argv) {
    register_all();
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    collector reporter;
    benchmark::RunSpecifiedBenchmarks(&reporter);
    benchmark::Shutdown();

    std::printf("\nMedian CPU time per call of 5 repetitions, and its ratios to hand-written and to\n"
                "the best peer (the fastest of boost, jet and eigen):\n");
    std::printf("  %-24s %12s %9s %12s\n", "implementation", "ns/call", "x hand", "x best peer");
    for (std::string_view workload : names) print_table(reporter, workload);
}
