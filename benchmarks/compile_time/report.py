#!/usr/bin/env python3
"""Markdown tables for docs/compile-time.md from sweep.sh's output, one file per library
version (a before and an after run of the same sweep):

  report.py BEFORE.tsv AFTER.tsv

Per compiler: CPU seconds and peak MiB of each mode at each N, before -> after; the fitted
growth exponent over every N from 200 up of CPU time and of peak memory above the cost of the
headers (the same mode with N = 1); each mode's CPU time
at N = 1,600 as a multiple of Ceres Jet's; then the chains and the -O0 -g builds."""
import collections, math, sys

MODES = ['plain', 'null', 'hooked', 'fold_constants', 'cse', 'derivative', 'gradient']


def load(path):
    rows = {}
    for line in open(path):
        f = line.rstrip('\n').split('\t')
        if len(f) < 5:
            continue
        cxx, shape, n, mode, cpu = f[:5]
        key = (cxx, shape, int(n), mode)
        rows[key] = None if cpu == 'fail' else (float(cpu), int(f[5]))
        if cpu == 'fail':
            rows[key] = ('fail', f[5] if len(f) > 5 else '')
    return rows


def cell(r, which):
    if r is None:
        return '—'
    if r[0] == 'fail':
        return 'fails'
    return f'{r[0]:.1f}' if which == 0 else f'{r[1]:,}'


def fit(points):
    """Least-squares slope of log(y) against log(n)."""
    pts = [(math.log(n), math.log(y)) for n, y in points if y > 0]
    if len(pts) < 3:
        return None
    mx = sum(x for x, _ in pts) / len(pts)
    my = sum(y for _, y in pts) / len(pts)
    return sum((x - mx) * (y - my) for x, y in pts) / sum((x - mx) ** 2 for x, _ in pts)


def fitted_sizes(rows, cxx):
    return sorted({k[2] for k in rows if k[0] == cxx and k[1] == 'random' and k[2] >= 200})


def exponent(rows, cxx, mode, which):
    """Growth exponent of CPU (which = 0) or memory (1) over every N from 200 up, above the
    cost of the same mode's translation unit with one call (the headers and what is
    instantiated once, whatever the body)."""
    one = rows.get((cxx, 'random', 1, mode))
    if not one or one[0] == 'fail':
        return None
    points = []
    for n in fitted_sizes(rows, cxx):
        r = rows.get((cxx, 'random', n, mode))
        if not r or r[0] == 'fail':
            return None
        points.append((n, r[which] - one[which]))
    return fit(points)


def main(before_path, after_path):
    before, after = load(before_path), load(after_path)
    compilers = sorted({k[0] for k in after})
    for cxx in compilers:
        sizes = sorted({k[2] for k in after if k[0] == cxx and k[1] == 'random' and k[2] > 1})
        for which, unit in ((0, 'CPU seconds'), (1, 'peak MiB')):
            print(f'\n{cxx}, a random expression of N calls: {unit}, before → after\n')
            print('| mode | ' + ' | '.join(f'N = {n:,}' for n in sizes) + ' |')
            print('|---|' + '---:|' * len(sizes))
            for mode in ['hand', 'jet'] + MODES:
                cells = [f'{cell(before.get((cxx, "random", n, mode)), which)} → {cell(after.get((cxx, "random", n, mode)), which)}'
                         for n in sizes]
                print(f'| {mode} | ' + ' | '.join(cells) + ' |')

        span = lambda rows: f'{fitted_sizes(rows, cxx)[-1]:,}' if fitted_sizes(rows, cxx) else '—'
        print(f'\n{cxx}: growth exponent over N = 200 .. {span(before)} → 200 .. {span(after)} above the headers\' '
              'cost (CPU, memory), and CPU time at N = 1,600 as a multiple of Jet\'s, before → after\n')
        print('| mode | CPU exponent | memory exponent | × Jet at 1,600 |')
        print('|---|---|---|---|')
        for mode in ['jet'] + MODES:
            parts = []
            for which in (0, 1):
                b, a = exponent(before, cxx, mode, which), exponent(after, cxx, mode, which)
                parts.append(f'{b:.2f} → {a:.2f}' if b is not None and a is not None
                             else f'— → {a:.2f}' if a is not None else '')
            ratios = []
            for rows in (before, after):
                r, j = rows.get((cxx, 'random', 1600, mode)), rows.get((cxx, 'random', 1600, 'jet'))
                ratios.append(f'{r[0] / j[0]:.1f}' if r and j and r[0] != 'fail' else '—')
            print(f'| {mode} | {parts[0]} | {parts[1]} | {ratios[0]} → {ratios[1]} |')

        chains = sorted({k[2] for k in after if k[0] == cxx and k[1] == 'chain'})
        if chains:
            print(f'\n{cxx}, a chain N calls deep with the default limits: CPU seconds, peak MiB, before → after\n')
            print('| mode | ' + ' | '.join(f'N = {n:,}' for n in chains) + ' |')
            print('|---|' + '---|' * len(chains))
            for mode in [m for m in MODES if any((cxx, 'chain', n, m) in after for n in chains)]:
                cells = []
                for n in chains:
                    b, a = before.get((cxx, 'chain', n, mode)), after.get((cxx, 'chain', n, mode))
                    cells.append(f'{cell(b, 0)} s, {cell(b, 1)} MiB → {cell(a, 0)} s, {cell(a, 1)} MiB'
                                 .replace('fails s, fails MiB', 'fails').replace('— s, — MiB', '—'))
                print(f'| {mode} | ' + ' | '.join(cells) + ' |')


        debug = sorted({(k[2], k[3]) for k in after if k[0] == cxx and k[1] == 'random -O0 -g' and k[2] > 1})
        if debug:
            print(f'\n{cxx}, `-O0 -g`: CPU seconds, peak MiB, before → after\n')
            print('| mode | N | before | after |')
            print('|---|---:|---|---|')
            for n, mode in debug:
                b, a = before.get((cxx, 'random -O0 -g', n, mode)), after.get((cxx, 'random -O0 -g', n, mode))
                print(f'| {mode} | {n:,} | {cell(b, 0)} s, {cell(b, 1)} MiB | {cell(a, 0)} s, {cell(a, 1)} MiB |'
                      .replace('fails s, fails MiB', 'fails').replace('— s, — MiB', '—'))


if __name__ == '__main__':
    main(*sys.argv[1:3])
