#!/usr/bin/env python3
"""The compile-time gate: compiles gen.py's random expression of N calls (default 1,600) on
Ceres Jet and in the given DSL modes with one compiler, and fails if a mode's CPU time, as a
multiple of Jet's measured in the same run, exceeds its baseline multiple by more than the
tolerance (default 50%). Ratios to Jet hold on any machine; the baselines are in
baseline.json, per compiler (CMake's compiler id) and mode.

  gate.py --cxx g++ --compiler-id GNU --include include [--n 1600] [--modes plain hooked gradient cse]
"""
import argparse, json, os, pathlib, resource, subprocess, sys, tempfile

here = pathlib.Path(__file__).resolve().parent
p = argparse.ArgumentParser()
p.add_argument('--cxx', required=True)
p.add_argument('--compiler-id', required=True)
p.add_argument('--include', required=True)
p.add_argument('--n', type=int, default=1600)
p.add_argument('--modes', nargs='+', default=['plain', 'hooked', 'gradient', 'cse'])
p.add_argument('--tolerance', type=float, default=1.5)
p.add_argument('--baseline', default=str(here / 'baseline.json'))
a = p.parse_args()


def compile_cost(mode, work):
    """CPU seconds (user + sys) and peak MiB of compiling one translation unit at -O2."""
    source = work / f'{mode}.cpp'
    source.write_text(subprocess.run([sys.executable, str(here / 'gen.py'), '--n', str(a.n), '--mode', mode],
                                     check=True, capture_output=True, text=True).stdout)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([a.cxx, '-std=c++20', '-O2', '-DNDEBUG', '-I' + a.include, '-I/usr/include/eigen3',
                    '-c', str(source), '-o', str(work / f'{mode}.o')], check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, after.ru_maxrss / 1024  # ru_maxrss: the largest child so far, in KiB


baseline = json.loads(pathlib.Path(a.baseline).read_text())[a.compiler_id]
with tempfile.TemporaryDirectory() as tmp:
    work = pathlib.Path(tmp)
    # Jet first: a mode's peak memory is then its own whenever it exceeds Jet's. The fastest of
    # three, as the short compilation is the noisier one.
    jet, jet_mib = min(compile_cost('jet', work) for _ in range(3))
    print(f'N = {a.n}, {a.cxx}: jet {jet:.2f} s CPU, {jet_mib:.0f} MiB')
    failed = []
    for mode in a.modes:
        allowed = baseline[mode] * a.tolerance
        # CPU time on a shared machine varies by a third from one compilation to the next: a
        # mode over its limit is compiled again, three times at most in all, and its fastest
        # time kept, as Jet's is.
        cpu, mib = compile_cost(mode, work)
        for _ in range(2):
            if cpu / jet <= allowed:
                break
            cpu = min(cpu, compile_cost(mode, work)[0])
        ratio = cpu / jet
        print(f'{mode}: {cpu:.2f} s CPU ({ratio:.2f}x jet; baseline {baseline[mode]:.2f}x, allowed {allowed:.2f}x), '
              f'peak {mib:.0f} MiB')
        if ratio > allowed:
            failed.append(mode)
if failed:
    sys.exit(f'compile time regressed by more than {a.tolerance - 1:.0%} in: {", ".join(failed)}')
