#!/usr/bin/env python3
"""The depth test: gen.py's chain of N calls (default 600, past where both compilers' default
limits stopped a body walked as a tree) compiled in each DSL mode with one compiler, warnings
as errors (Clang's -Wstack-exhausted among them), run, and compared with the same chain in
plain C++ (plain, null, hooked, fold_constants, cse) or on Ceres Jet (derivative: d/dx; gradient:
d/dx + d/dy), to a relative 1e-12; the hooked context must see every call. With cse, also the
chain with its first call repeated at the top, which cse shares across the chain's whole depth.

  depth.py --cxx g++ --include include [--n 600] [--modes plain null hooked fold_constants cse derivative gradient]
"""
import argparse, pathlib, subprocess, sys, tempfile

here = pathlib.Path(__file__).resolve().parent
p = argparse.ArgumentParser()
p.add_argument('--cxx', required=True)
p.add_argument('--include', required=True)
p.add_argument('--n', type=int, default=600)
p.add_argument('--modes', nargs='+', default=['plain', 'null', 'hooked', 'fold_constants', 'cse', 'derivative', 'gradient'])
a = p.parse_args()


def run(mode, work, repeat=False):
    """The numbers the mode's program prints, compiled at -O2 with every warning an error."""
    source = work / f'{mode}.cpp'
    source.write_text(subprocess.run([sys.executable, str(here / 'gen.py'), '--n', str(a.n), '--mode', mode,
                                      '--shape', 'chain'] + ['--repeat'] * repeat,
                                     check=True, capture_output=True, text=True).stdout)
    exe = work / mode
    subprocess.run([a.cxx, '-std=c++20', '-O2', '-Wall', '-Wextra', '-Wpedantic', '-Werror', '-I' + a.include,
                    '-I/usr/include/eigen3', str(source), '-o', str(exe)], check=True)
    return [float(v) for v in subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout.split()]


with tempfile.TemporaryDirectory() as tmp:
    work = pathlib.Path(tmp)
    value, = run('hand', work)
    jet_value, dx, dy = run('jet', work)
    expected = {'derivative': dx, 'gradient': dx + dy}
    failed = []
    for mode in a.modes:
        printed = run(mode, work)
        got, want = printed[-1], expected.get(mode, value)
        ok = abs(got - want) <= 1e-12 * max(1.0, abs(want))
        if mode == 'hooked':  # its count of prehooks first: one per call
            ok = ok and printed[0] == a.n
        print(f'chain of {a.n}, {mode}: {got!r} (expected {want!r}){"" if ok else "  MISMATCH"}')
        if not ok:
            failed.append(mode)
    if 'cse' in a.modes:
        want, = run('hand', work, repeat=True)
        got = run('cse', work, repeat=True)[-1]
        ok = abs(got - want) <= 1e-12 * max(1.0, abs(want))
        print(f'chain of {a.n} with a repeat, cse: {got!r} (expected {want!r}){"" if ok else "  MISMATCH"}')
        if not ok:
            failed.append('cse with a repeat')
if failed:
    sys.exit(f'wrong results in: {", ".join(failed)}')
