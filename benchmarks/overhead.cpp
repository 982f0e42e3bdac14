// Zero overhead, measured: every variant of every workload in workloads.hpp (hand-written,
// the DSL called plainly, overdub under null_context, under disable_hooks(counter) and
// under a counting context, and the hand-instrumented counter), then a table of time
// ratios from this same run: each variant against hand-written, and overdub(counter)
// against the hand-instrumented counter.
#include "workloads.hpp"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

template <class W, workloads::variant V>
void measure(benchmark::State& state) {
    auto input = W::input();
    long calls = 0;
    for (auto _ : state) {
        // The input may have changed and the result is used, so each iteration is a full run.
        benchmark::DoNotOptimize(input);
        auto const result = W::template run<V>(input, calls);
        benchmark::DoNotOptimize(result);
    }
    if constexpr (V == workloads::variant::counter || V == workloads::variant::hand_counter)
        state.counters["calls"] = double(calls);
}

// The fastest of the repetitions: the machine only ever adds time, so the minimum is the
// measure least disturbed by other processes.
double fastest(std::vector<double> const& times) { return *std::min_element(times.begin(), times.end()); }

// The console report, keeping the "min" CPU time per iteration of each benchmark, in ns.
class collector : public benchmark::ConsoleReporter {
public:
    std::map<std::string, double> min_ns;

    collector() : ConsoleReporter(OO_Tabular) {}  // no colour codes when redirected to a file

    void ReportRuns(std::vector<Run> const& runs) override {
        for (Run const& run : runs)
            if (run.run_type == Run::RT_Aggregate && run.aggregate_name == "min")
                min_ns[run.run_name.function_name] =
                    run.GetAdjustedCPUTime() / benchmark::GetTimeUnitMultiplier(run.time_unit) * 1e9;
        ConsoleReporter::ReportRuns(runs);
    }
};

std::string key(std::string_view workload, workloads::variant v) {
    return std::string(workload) + "/" + std::string(name(v));
}

constexpr int repetitions = 10;

template <class W, workloads::variant... V>
void register_all() {
    (benchmark::RegisterBenchmark(key(W::name, V).c_str(), measure<W, V>)
         ->Repetitions(repetitions)
         ->ComputeStatistics("min", fastest)
         ->ReportAggregatesOnly(true),
     ...);
}

template <class W>
void register_workload() {
    using enum workloads::variant;
    register_all<W, hand, plain, null_context, no_hooks, counter, hand_counter>();
}

void print_ratios(collector const& c, std::string_view workload) {
    auto const time = [&](workloads::variant v) {
        auto const it = c.min_ns.find(key(workload, v));
        return it == c.min_ns.end() ? 0.0 : it->second;
    };
    double const hand = time(workloads::variant::hand);
    if (hand == 0) return;  // filtered out
    std::printf("%-11s %10.1f", std::string(workload).c_str(), hand);
    for (auto v : workloads::variants)
        if (v != workloads::variant::hand) std::printf(" %13.3f", time(v) / hand);
    std::printf(" %20.3f\n", time(workloads::variant::counter) / time(workloads::variant::hand_counter));
}

}  // namespace

int main(int argc, char** argv) {
    register_workload<workloads::rosenbrock>();
    register_workload<workloads::fib>();
    register_workload<workloads::chain>();

    // Repetitions interleaved at random by default (a later flag on the command line wins):
    // on a shared or virtual machine the speed drifts for seconds at a time, and a drift
    // then touches every variant alike instead of a few benchmarks run back to back.
    std::vector<char*> args(argv, argv + argc);
    std::string interleave = "--benchmark_enable_random_interleaving=true";
    args.insert(args.begin() + 1, interleave.data());
    int count = int(args.size());
    benchmark::Initialize(&count, args.data());
    if (benchmark::ReportUnrecognizedArguments(count, args.data())) return 1;
    collector reporter;
    benchmark::RunSpecifiedBenchmarks(&reporter);
    benchmark::Shutdown();

    std::printf("\nFastest CPU time of %d repetitions: hand-written in ns, the others as a ratio to it;\n"
                "the last column is overdub(counter) / hand-instrumented counter.\n",
                repetitions);
    std::printf("%-11s %10s", "workload", "hand ns");
    for (auto v : workloads::variants)
        if (v != workloads::variant::hand) std::printf(" %13s", std::string(name(v)).c_str());
    std::printf(" %20s\n", "counter/hand_counter");
    for (auto workload : {workloads::rosenbrock::name, workloads::fib::name, workloads::chain::name})
        print_ratios(reporter, workload);
}
