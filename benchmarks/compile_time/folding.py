#!/usr/bin/env python3
"""GCC's speculative folding kept out of a builder (docs/compile-time.md, "GCC's folding
stopped at the first call"): compiles gen.py's chain of N calls, its body built and not
evaluated, under callgrind, as it is and with -fno-inline, which turns GCC's folding of calls
to constexpr functions off, and fails if the first costs the compiler more than LIMIT times the
second's instructions. Without the library's stop, a chain of 150 calls costs 1.09x.

  folding.py --cxx g++ --include include [--n 150] [--limit 1.03]
"""
import argparse, pathlib, subprocess, sys, tempfile

from callgrind_count import compiler_instructions

here = pathlib.Path(__file__).resolve().parent
p = argparse.ArgumentParser()
p.add_argument('--cxx', required=True)
p.add_argument('--include', required=True)
p.add_argument('--n', type=int, default=150)
p.add_argument('--limit', type=float, default=1.03)
a = p.parse_args()

with tempfile.TemporaryDirectory() as tmp:
    work = pathlib.Path(tmp)
    source = work / 'chain.cpp'
    source.write_text(subprocess.run([sys.executable, str(here / 'gen.py'), '--n', str(a.n), '--mode', 'build',
                                      '--shape', 'chain'], check=True, capture_output=True, text=True).stdout)
    folded = compiler_instructions(a.cxx, a.include, source, work)
    unfolded = compiler_instructions(a.cxx, a.include, source, work, '-fno-inline')
ratio = folded / unfolded
print(f'a chain of {a.n} calls built: {folded:,} instructions, {unfolded:,} with -fno-inline: '
      f'{ratio:.3f}x (limit {a.limit}x)')
sys.exit(0 if ratio <= a.limit else 1)
