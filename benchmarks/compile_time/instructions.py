#!/usr/bin/env python3
"""The instructions a compiler runs to compile gen.py's translation units, counted by valgrind's
callgrind: unlike CPU time, the same on a busy machine as on an idle one, so a change's effect on
growth shows in one run. One tab-separated line per (compiler, size, mode): compiler, N, mode,
billions of instructions; then, per compiler and mode, the exponent fitted as report.py fits CPU
time: over every N from 200 up (three at least), above the headers' cost (N = 1). About 50 times a
compilation's time.
  python3 benchmarks/compile_time/instructions.py [-I include-dir] [-c "g++ clang++-16"]
          [-n "1 200 800 3200"] [-m "plain gradient"]"""
import argparse, os, subprocess, sys, tempfile

from callgrind_count import compiler_instructions
from report import fit

here = os.path.dirname(os.path.abspath(__file__))
p = argparse.ArgumentParser()
p.add_argument('-I', dest='include', default=os.path.join(here, '..', '..', 'include'))
p.add_argument('-c', dest='compilers', default='g++ clang++-16')
p.add_argument('-n', dest='sizes', default='1 200 800 3200')
p.add_argument('-m', dest='modes', default='plain gradient')
a = p.parse_args()


counts = {}
with tempfile.TemporaryDirectory() as tmp:
    tu = os.path.join(tmp, 't.cpp')
    for cxx in a.compilers.split():
        for n in map(int, a.sizes.split()):
            for mode in a.modes.split():
                with open(tu, 'w') as f:
                    subprocess.run([sys.executable, os.path.join(here, 'gen.py'), '--n', str(n), '--mode', mode],
                                   check=True, stdout=f)
                counts[cxx, n, mode] = compiler_instructions(cxx, a.include, tu, tmp) / 1e9
                print(f'{cxx}\t{n}\t{mode}\t{counts[cxx, n, mode]:.3f}', flush=True)

for cxx in a.compilers.split():
    for mode in a.modes.split():
        headers = counts.get((cxx, 1, mode))
        if headers is None:
            continue
        slope = fit([(n, c - headers) for (x, n, m), c in counts.items() if (x, m) == (cxx, mode) and n >= 200])
        if slope is not None:
            print(f'# {cxx} {mode}: exponent {slope:.2f} over N >= 200, above the headers')
