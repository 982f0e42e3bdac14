#!/usr/bin/env python3
"""A random expression tree of N call nodes over x and y, as one translation unit per mode:
hand (plain C++ on double), jet (the same template on ceres::Jet<double, 2>), and the DSL
under plain / null / hooked / fold_constants / cse / derivative / gradient, or only built
(build: its body's type and value, not evaluated). Each includes the
header its mode needs, as Jet's includes <ceres/jet.h> alone (--umbrella: <cassette/cassette.hpp>).
Usage: gen.py --n N --mode MODE [--seed S] > tu.cpp"""
import argparse, random

p = argparse.ArgumentParser()
p.add_argument('--n', type=int, required=True)
p.add_argument('--mode', required=True)
p.add_argument('--seed', type=int, default=1)
p.add_argument('--shape', default='random', choices=['random', 'chain'])
p.add_argument('--umbrella', action='store_true', help='include <cassette/cassette.hpp> rather than the header the mode needs')
p.add_argument('--repeat', action='store_true', help='chain: add its first call again at the top (a repeated subtree, for cse)')
a = p.parse_args()
rng = random.Random(a.seed)

BIN = ['+', '-', '*']
UN = ['sin', 'cos', 'exp_small']  # exp of a bounded argument: exp(sin(e)) keeps values finite

def leaf(symbolic=False):
    """x, y or a constant; only x or y where a constant would make the call a plain C++ one."""
    r = rng.random()
    if symbolic:
        return 'x' if r < 0.5 else 'y'
    return 'x' if r < 0.4 else 'y' if r < 0.8 else f'{rng.choice([0.5, 1.5, 2.0, 0.25])}'

def expression(n):
    """Exactly n call nodes: a chain, or a random binary tree (uniform split: depth ~ 4 ln n).
    Every call has a symbolic operand, so none is computed by C++ before the DSL sees it."""
    if a.shape == 'chain':
        # One statement per call, as a deep chain is written: nested parentheses would hit
        # the parser's bracket limit (256 in Clang) before the library's.
        steps = ['auto e0 = x;']
        for k in range(1, n + 1):
            step = f'sin(e{k - 1})' if rng.random() < 0.3 else f'e{k - 1} {rng.choice(BIN)} {leaf()}'
            steps.append(f'auto e{k} = {step};')
        return ' '.join(steps), f'e{n} + e1' if a.repeat else f'e{n}'

    def gen(n, symbolic):
        if n == 0:
            return leaf(symbolic)
        r = rng.random()
        if r < 0.15 and n >= 2:
            return f'exp(sin({gen(n - 2, True)}))'
        if r < 0.3:
            return f'{rng.choice(["sin", "cos"])}({gen(n - 1, True)})'
        k = rng.randint(0, n - 1)
        left = gen(k, False)
        # A constant left operand (no call, not x or y) needs a symbolic right one.
        right_needs_symbol = k == 0 and left not in ('x', 'y')
        return f'({left} {rng.choice(BIN)} {gen(n - 1 - k, right_needs_symbol)})'
    return '', gen(n, True)

statements, e = expression(a.n)
m = a.mode
out = ['#include <cstdio>']
if m in ('hand', 'jet'):
    out.append('#include <cmath>')
    if m == 'jet':
        out.append('#include <ceres/jet.h>')
    out.append('template <class T> T f(T const& x, T const& y) { using std::sin; using std::cos; using std::exp; ' + statements + ' return ' + e + '; }')
    if m == 'hand':
        out.append('int main(int argc, char**) { double x = 1.0 / (argc + 1), y = 0.25; std::printf("%.17g\\n", f(x, y)); }')
    else:
        out.append('int main(int argc, char**) { ceres::Jet<double, 2> x(1.0 / (argc + 1), 0), y(0.25, 1);'
                   ' auto r = f(x, y); std::printf("%.17g %.17g %.17g\\n", r.a, r.v[0], r.v[1]); }')
else:
    header = 'cassette' if a.umbrella else {'fold_constants': 'passes', 'cse': 'passes', 'derivative': 'ad', 'gradient': 'ad'}.get(m, 'function')
    out.append(f'#include <cassette/{header}.hpp>')
    if m == 'gradient':
        out.append('#include <array>')
    out.append('inline constexpr auto f = cassette::function<"f">([](auto x, auto y) { using cassette::sin; using cassette::cos; using cassette::exp; ' + statements + ' return ' + e + '; });')
    body = {
        'plain': 'double r = f(x, y);',
        # The body built, its type and its value, and not evaluated: a body's address.
        'build': 'double r = x; std::printf("%p\\n", static_cast<void const*>(&decltype(f)::body<2>));',
        'null': 'double r = cassette::overdub(cassette::null_context{}, f, x, y);',
        'hooked': 'counting c; double r = cassette::overdub(c, f, x, y); std::printf("%d\\n", c.calls);',
        'fold_constants': 'double r = cassette::overdub(folding{}, f, x, y);',
        'cse': 'double r = cassette::overdub(sharing{}, f, x, y);',
        'derivative': 'double r = cassette::ad::derivative([](auto t) { return f(t, 0.25); }, x);',
        'gradient': 'auto g = cassette::ad::gradient([](auto p) { return f(p[0], p[1]); }, std::array<double, 2>{x, y}); double r = g[0] + g[1];',
    }[m]
    out.append({'hooked': 'struct counting { int calls = 0; template <class... A> void prehook(A const&...) { ++calls; } };',
                'fold_constants': 'struct folding { static constexpr auto pass = cassette::passes::fold_constants; };',
                'cse': 'struct sharing { static constexpr auto pass = cassette::passes::cse; };'}.get(m, ''))
    out.append('int main(int argc, char**) { [[maybe_unused]] double x = 1.0 / (argc + 1), y = 0.25; ' + body + ' std::printf("%.17g\\n", r); }')
print('\n'.join(out))
