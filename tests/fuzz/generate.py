#!/usr/bin/env python3
"""Random programs in Cassette's DSL, each with a hand-written twin, for the differential
fuzzer (see harness.hpp and docs/testing.md).

Program K of seed S is drawn from its own PRNG, seeded with (S, K), so it is the same program
whatever the batch it is generated in: `--only K` reproduces it alone.

Each program is a traced function (with traced helpers, maybe a recursive one), its twin
(generic C++ that computes the same value and counts every call the body makes) and a few
inputs. Every input is checked here, by evaluating the program, to keep each primitive inside
its domain and away from its kinks, so that derivatives exist and two implementations agree.
"""

import argparse
import math
import random
import struct
from collections import Counter

# --- types ------------------------------------------------------------------------------
# Scalars: 'd' double, 'f' float, 'i' int, 'u' std::size_t, 'b' bool.
# Aggregates of doubles: 'a2', 'a3' std::array, 'v' std::vector, 's2', 's3' fuzz::S2/S3.
SIZES = {'a2': 2, 'a3': 3, 's2': 2, 's3': 3}
CPP_TYPE = {'d': 'double', 'f': 'float', 'i': 'int', 'a2': 'std::array<double, 2>',
            'a3': 'std::array<double, 3>', 'v': 'std::vector<double>', 's2': 'fuzz::S2<double>',
            's3': 'fuzz::S3<double>'}
FIELDS = 'abc'


def arithmetic_type(a, b):
    """The usual arithmetic conversions."""
    for t in ('d', 'f', 'u'):
        if t in (a, b):
            return t
    return 'i'


def math_type(t):
    """std::NAME of an integer is a double; of a float, a float."""
    return 'f' if t == 'f' else 'd'


class Reject(Exception):
    """The program leaves a primitive's domain at some input: draw another."""


class Unknown(Exception):
    """A value that is not known while the program is built (a loop accumulator, say)."""


UNKNOWN = object()


def need(condition):
    if not condition:
        raise Reject()


def to_float32(x):
    return struct.unpack('f', struct.pack('f', x))[0]


def checked(t, v):
    """A computed value of type t, inside the ranges the programs keep to."""
    if t in ('i', 'u'):
        need(-2**31 < v < 2**31)
    elif t in ('d', 'f'):
        # Large values make derivatives that two implementations round apart by more than
        # 1e-12: the programs keep to moderate ones.
        need(math.isfinite(v) and abs(v) < 1e6)
        if t == 'f':
            v = to_float32(v)
    return v


def far_apart(a, b):
    """Two doubles that are equal or clearly apart: no branch or min/max flips on rounding."""
    return a == b or abs(a - b) > 1e-9 * max(1.0, abs(a), abs(b))


def literal(value, t):
    if t in ('i', 'u'):
        return str(value) if value >= 0 else f'({value})'
    text = repr(float(value))
    return text if value >= 0 else f'({text})'


# --- nodes --------------------------------------------------------------------------------
# Each node renders itself in the DSL (dsl) and in the twin (twin), and evaluates itself on
# Python values (ev), returning (value, origin): origin is the leaf id (harness.hpp's
# leaf_id) of the input the value is, unchanged, or 0; for an aggregate, a list of those.


class Node:
    children = ()

    def nodes(self):
        yield self
        for c in self.children:
            yield from c.nodes()

    def counts(self):
        """Whether the twin of this subtree counts a call (a sum counts its additions)."""
        return any(isinstance(n, Call) or (isinstance(n, Fold) and n.is_sum) for n in self.nodes())

    def symbolic(self):
        return True


class Leaf(Node):
    def __init__(self, name, t):
        self.name, self.ty = name, t

    def dsl(self):
        return self.name

    twin = dsl

    def ev(self, env):
        value = env[self.name]
        if value is UNKNOWN:
            raise Unknown()
        return value


class Param(Leaf):
    """A function's parameter; an int's role says which values it takes (see sample)."""

    def __init__(self, name, t, role=None):
        super().__init__(name, t)
        self.role = role


class Var(Leaf):
    """A variable bound by let or fold."""


class Const(Node):
    """A plain C++ literal, or an ir::constant node (`node`): a call whose arguments are all
    plain is computed by C++ while the body is built, so one of them must be a node."""

    def __init__(self, value, t, node=False):
        self.value, self.ty, self.node = value, t, node

    def symbolic(self):
        return self.node

    def dsl(self):
        text = literal(self.value, self.ty)
        return f'cassette::ir::constant({text})' if self.node else text

    def twin(self):
        return literal(self.value, self.ty)

    def ev(self, env):
        return self.value, 0


class Op:
    """A callee: its name in the coverage list, its DSL and twin spellings, its result type
    from its arguments' and its semantics: apply(env, args, nodes) -> (value, origin)."""

    def __init__(self, name, dsl, twin, ty, apply):
        self.name, self.dsl, self.twin, self.ty, self.apply = name, dsl, twin, ty, apply
        self.function = None  # the traced function called, if it is one


class Call(Node):
    def __init__(self, op, args):
        self.op, self.children = op, list(args)
        self.ty = op.ty(*[a.ty for a in args])

    def dsl(self):
        return self.op.dsl(*[a.dsl() for a in self.children])

    def twin(self):
        return f'c({self.op.twin(*[a.twin() for a in self.children])})'

    def ev(self, env):
        args = [a.ev(env) for a in self.children]
        return self.op.apply(env, args, self.children)


def c_div(a, b):
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def numeric(f):
    """apply() for an operation on scalars, whose result carries no origin."""
    def apply(env, args, nodes):
        return f(*[v for v, _ in args]), 0
    return apply


def arith(symbol, f, int_f=None):
    """A binary operator; int_f computes it on integers, if not as f does."""
    def apply(env, args, nodes):
        (a, _), (b, _) = args
        t = arithmetic_type(nodes[0].ty, nodes[1].ty)
        return checked(t, (int_f or f)(a, b) if t in ('i', 'u') else f(a, b)), 0
    return Op(symbol, lambda a, b: f'({a} {symbol} {b})', lambda a, b: f'{a} {symbol} {b}', arithmetic_type, apply)


def int_div(a, b):
    need(b != 0)
    return c_div(a, b)


def real_div(a, b):
    need(abs(b) > 0.05)
    return a / b


def int_mod(a, b):
    need(b != 0)
    return a - c_div(a, b) * b


ADD = arith('+', lambda a, b: a + b)
SUB = arith('-', lambda a, b: a - b)
MUL = arith('*', lambda a, b: a * b)
DIV = arith('/', real_div, int_div)
MOD = Op('%', lambda a, b: f'({a} % {b})', lambda a, b: f'{a} % {b}', lambda a, b: 'i',
         numeric(lambda a, b: checked('i', int_mod(a, b))))
NEG = Op('neg', lambda a: f'(-{a})', lambda a: f'-{a}', lambda a: a, numeric(lambda a: -a))


def compare(symbol, f):
    def apply(env, args, nodes):
        (a, _), (b, _) = args
        if 'd' in (nodes[0].ty, nodes[1].ty) or 'f' in (nodes[0].ty, nodes[1].ty):
            need(far_apart(a, b))
        return f(a, b), 0
    return Op(symbol, lambda a, b: f'({a} {symbol} {b})', lambda a, b: f'{a} {symbol} {b}', lambda a, b: 'b', apply)


COMPARISONS = [compare('<', lambda a, b: a < b), compare('<=', lambda a, b: a <= b),
               compare('>', lambda a, b: a > b), compare('>=', lambda a, b: a >= b),
               compare('==', lambda a, b: a == b), compare('!=', lambda a, b: a != b)]
# Both sides are evaluated, as cassette does: the twin calls std::logical_and, not &&.
AND = Op('&&', lambda a, b: f'({a} && {b})', lambda a, b: f'std::logical_and<>{{}}({a}, {b})',
         lambda a, b: 'b', numeric(lambda a, b: a and b))
OR = Op('||', lambda a, b: f'({a} || {b})', lambda a, b: f'std::logical_or<>{{}}({a}, {b})',
        lambda a, b: 'b', numeric(lambda a, b: a or b))
NOT = Op('!', lambda a: f'(!{a})', lambda a: f'!{a}', lambda a: 'b', numeric(lambda a: not a))


def math1(name, f, domain=None, ty=math_type):
    def apply(env, args, nodes):
        (a, _), = args
        if domain:
            need(domain(a))
        return checked(ty(nodes[0].ty), f(a)), 0
    return Op(name, lambda a: f'cassette::{name}({a})', lambda a: f'math::{name}({a})', ty, apply)


def kink_free(a):
    return a == 0 or abs(a) > 1e-9


def away_from_integers(a):
    return a == round(a) or abs(a - round(a)) > 1e-9 * max(1.0, abs(a))


MATH1 = {
    'sin': math1('sin', math.sin), 'cos': math1('cos', math.cos),
    'tan': math1('tan', math.tan, lambda a: abs(math.cos(a)) > 0.05),
    'asin': math1('asin', math.asin, lambda a: abs(a) < 0.95),
    'acos': math1('acos', math.acos, lambda a: abs(a) < 0.95),
    'atan': math1('atan', math.atan),
    'sinh': math1('sinh', math.sinh, lambda a: abs(a) < 8), 'cosh': math1('cosh', math.cosh, lambda a: abs(a) < 8),
    # Boost.Math's tanh of an fvar computes exp(2 x), which overflows past 354.
    'tanh': math1('tanh', math.tanh, lambda a: abs(a) < 300),
    'exp': math1('exp', math.exp, lambda a: abs(a) < 8), 'expm1': math1('expm1', math.expm1, lambda a: abs(a) < 8),
    'log': math1('log', math.log, lambda a: a > 0.05), 'log1p': math1('log1p', math.log1p, lambda a: a > -0.95),
    'sqrt': math1('sqrt', math.sqrt, lambda a: a > 0.05), 'cbrt': math1('cbrt', math.cbrt, lambda a: abs(a) > 0.05),
    # abs of an int is an int; abs is differentiable away from 0 only.
    'abs': math1('abs', abs, kink_free, ty=lambda t: t if t in ('i', 'f') else 'd'),
    'floor': math1('floor', lambda a: float(math.floor(a)), away_from_integers),
    'ceil': math1('ceil', lambda a: float(math.ceil(a)), away_from_integers),
}


def math2(name, f, domain=None, ty=None):
    def result(a, b):
        return ty(a, b) if ty else ('f' if a == b == 'f' else 'd')

    def apply(env, args, nodes):
        (a, _), (b, _) = args
        if domain:
            need(domain(a, b))
        return checked(result(nodes[0].ty, nodes[1].ty), f(a, b)), 0
    return Op(name, lambda a, b: f'cassette::{name}({a}, {b})', lambda a, b: f'math::{name}({a}, {b})', result, apply)


def min_max(name, pick):
    def apply(env, args, nodes):
        (a, _), (b, _) = args
        need(far_apart(a, b))
        return pick(a, b), 0
    return Op(name, lambda a, b: f'cassette::{name}({a}, {b})', lambda a, b: f'math::{name}({a}, {b})',
              arithmetic_type, apply)


def away_from_origin(a, b):
    return a * a + b * b > 0.01


ATAN2 = math2('atan2', math.atan2, away_from_origin)
HYPOT = math2('hypot', math.hypot, away_from_origin)
MIN = min_max('min', lambda a, b: b if b < a else a)
MAX = min_max('max', lambda a, b: b if a < b else a)


def pow_apply(env, args, nodes):
    (a, _), (b, _) = args
    if nodes[1].ty in ('i', 'u') or (isinstance(nodes[1], Const) and float(b).is_integer()):
        need(b >= 0 or abs(a) > 0.05)
    else:
        need(a > 0.05)
    return checked('f' if nodes[0].ty == nodes[1].ty == 'f' else 'd', float(a) ** b), 0


POW = Op('pow', lambda a, b: f'cassette::pow({a}, {b})', lambda a, b: f'math::pow({a}, {b})',
         lambda a, b: 'f' if a == b == 'f' else 'd', pow_apply)


def getindex_apply(env, args, nodes):
    (x, ox), (i, _) = args
    need(0 <= i < len(x))
    return x[i], ox[i]


GETINDEX = Op('x[i]', lambda x, i: f'{x}[{i}]', lambda x, i: f'{x}[{i}]', lambda x, i: 'd', getindex_apply)
LENGTH = Op('length', lambda x: f'cassette::length({x})', lambda x: f'std::size({x})', lambda x: 'u',
            lambda env, args, nodes: (len(args[0][0]), 0))


class Get(Call):
    """get<I> reads field I of a struct (x.a, x.b, ... in the twin) or element I of an array."""

    def __init__(self, i, x):
        self.i = i
        super().__init__(Op(f'get<{i}>', lambda x: f'cassette::get<{i}>({x})', None, lambda t: 'd',
                            lambda env, args, nodes: (args[0][0][i], args[0][1][i])), [x])

    def twin(self):
        x = self.children[0]
        field = f'{x.twin()}.{FIELDS[self.i]}' if x.ty in ('s2', 's3') else f'std::get<{self.i}>({x.twin()})'
        return f'c({field})'


def make_op(t):
    twin_maker = {'s2': 'fuzz::make_s2', 's3': 'fuzz::make_s3', 'a2': 'fuzz::make_array', 'a3': 'fuzz::make_array'}[t]
    return Op('make<' + ('array' if t[0] == 'a' else 'struct') + '>',
              lambda *xs: f'cassette::make<{CPP_TYPE[t]}>({", ".join(xs)})',
              lambda *xs: f'{twin_maker}({", ".join(xs)})', lambda *ts: t,
              lambda env, args, nodes: ([v for v, _ in args], [o for _, o in args]))


HALVE = Op('call(g, constants...)', lambda x: f'cassette::call(fuzz::halve, {x})', lambda x: f'fuzz::halve({x})',
           lambda t: 'd', numeric(lambda x: x * 0.5))


class Function:
    """A traced helper: a named function of typed parameters, or the recursive one."""

    def __init__(self, name, params, body=None):
        self.name, self.params, self.body = name, params, body

    def run(self, env, args):
        depth = env.get('<depth>', 0) + 1
        need(depth < 40)
        inner = {p.name: a for p, a in zip(self.params, args)}
        inner['<depth>'] = depth
        return self.body.ev(inner)

    def call_op(self, spelling='direct'):
        """A call node's callee: h(xs...), cassette::call(h, xs...) or, inside h, self(xs...)."""
        name = self.name
        dsl = {'direct': lambda *xs: f'{name}({", ".join(xs)})',
               'call': lambda *xs: f'cassette::call({name}, {", ".join(xs)})',
               'self': lambda *xs: f'cassette::self({", ".join(xs)})'}[spelling]
        label = {'direct': 'helper call', 'call': 'call(g, ...)', 'self': 'self call'}[spelling]
        op = Op(label, dsl, lambda *xs: f'{name}_twin(c, {", ".join(xs)})',
                lambda *ts: self.result_type(), lambda env, args, nodes: self.run(env, args))
        op.function = self
        return op

    def result_type(self):
        return self.body.ty if self.body else 'd'  # the recursive function returns a double


class If(Node):
    def __init__(self, cond, then, other):
        self.children = [cond, then, other]
        self.ty = then.ty if then.ty == other.ty else arithmetic_type(then.ty, other.ty)

    def dsl(self):
        c, t, e = (n.dsl() for n in self.children)
        return f'cassette::if_({c}, {t}, {e})'

    def twin(self):
        c, t, e = (n.twin() for n in self.children)
        return f'fuzz::if_({c}, [&] {{ return {t}; }}, [&] {{ return {e}; }})'

    def ev(self, env):
        cond, _ = self.children[0].ev(env)
        return self.children[1 if cond else 2].ev(env)


class Let(Node):
    def __init__(self, var, value, body):
        self.var, self.children, self.ty = var, [value, body], body.ty

    def used(self):
        return any(isinstance(n, Var) and n.name == self.var for n in self.children[1].nodes())

    def dsl(self):
        name = ' ' + self.var if self.used() else ''
        return f'cassette::let({self.children[0].dsl()}, [=](auto{name}) {{ return {self.children[1].dsl()}; }})'

    def twin(self):
        name = ' ' + self.var if self.used() else ''
        return f'[&](auto const&{name}) {{ return {self.children[1].twin()}; }}({self.children[0].twin()})'

    def ev(self, env):
        value = self.children[0].ev(env)
        return self.children[1].ev({**env, self.var: value})


class Fold(Node):
    """fold(first, last, init, (i, acc) -> body), or sum(first, last, i -> term) (init None)."""

    def __init__(self, index, acc, first, last, init, body, ty):
        self.index, self.acc, self.is_sum = index, acc, init is None
        self.children = [first, last] + ([init] if init else []) + [body]
        self.ty = ty

    def uses(self, name):
        """' name' if the body uses the variable, else '' (an unnamed lambda parameter)."""
        return ' ' + name if any(isinstance(n, Var) and n.name == name for n in self.children[-1].nodes()) else ''

    def dsl(self):
        i = self.uses(self.index)
        first, last = self.children[0].dsl(), self.children[1].dsl()
        body = self.children[-1].dsl()
        if self.is_sum:
            return f'cassette::sum({first}, {last}, [=](auto{i}) {{ return {body}; }})'
        acc = self.uses(self.acc)
        init = self.children[2].dsl()
        return f'cassette::fold({first}, {last}, {init}, [=](auto{i}, auto{acc}) {{ return {body}; }})'

    def twin(self):
        i = self.uses(self.index)
        first, last = self.children[0].twin(), self.children[1].twin()
        body = self.children[-1].twin()
        if self.is_sum:
            return f'fuzz::sum(c, {first}, {last}, [&](auto{i}) {{ return {body}; }})'
        acc = self.uses(self.acc)
        init = self.children[2].twin()
        return f'fuzz::fold({first}, {last}, {init}, [&](auto{i}, auto const&{acc}) {{ return {body}; }})'

    def ev(self, env):
        first, _ = self.children[0].ev(env)
        last, _ = self.children[1].ev(env)
        need(last - first <= 8)
        acc = 0 if self.is_sum else self.children[2].ev(env)[0]
        for i in range(first, last):
            bound = {self.index: (i, 0)} if self.is_sum else {self.index: (i, 0), self.acc: (acc, 0)}
            value, _ = self.children[-1].ev({**env, **bound})
            acc = checked(self.ty, acc + value if self.is_sum else value)
        return acc, 0


# --- building programs ------------------------------------------------------------------


class Scope:
    """What a subtree being built may use: its leaves (parameters and bound variables), and
    the environments it will be evaluated in, as far as they are known, to choose the
    adapters that keep each primitive inside its domain."""

    def __init__(self, leaves, envs):
        self.leaves, self.envs = leaves, envs

    def of_type(self, *types):
        return [leaf for leaf in self.leaves if leaf.ty in types]

    def values(self, node):
        """node's values in every environment, or None if some are not known."""
        out = []
        for env in self.envs:
            try:
                out.append(node.ev(env)[0])
            except (Unknown, Reject):
                return None
        return out or None

    def holds(self, predicate):
        """Whether predicate(env) is true in every environment (False if not known)."""
        try:
            return bool(self.envs) and all(predicate(env) for env in self.envs)
        except (Unknown, Reject):
            return False

    def let(self, var, value):
        envs = []
        for env in self.envs:
            try:
                envs.append({**env, var.name: value.ev(env)})
            except (Unknown, Reject):
                envs.append({**env, var.name: UNKNOWN})
        return Scope(self.leaves + [var], envs)

    def loop(self, index, acc, first, last):
        envs = []
        for env in self.envs:
            try:
                rows = [{**env, index.name: (i, 0)} for i in range(first.ev(env)[0], last.ev(env)[0])]
            except (Unknown, Reject):
                rows = [{**env, index.name: UNKNOWN}]
            envs += [{**row, acc.name: UNKNOWN} if acc else row for row in rows]
        return Scope(self.leaves + [index] + ([acc] if acc else []), envs)


def is_big(leaf):
    """An int parameter that only pow takes (as a base whose square overflows an int)."""
    return isinstance(leaf, Param) and leaf.role == 'big'


NICE = [0.5, 1.5, 2.0, 0.25, 3.0, -1.0, 0.75, 1.25, -0.5, 2.5, 0.1, -2.0, 4.0]


class Builder:
    def __init__(self, rng):
        self.rng = rng
        self.helpers, self.recursive = [], None
        self.serial, self.budget = 0, 0

    def chance(self, p):
        return self.rng.random() < p

    def fresh(self, prefix):
        self.serial += 1
        return f'{prefix}{self.serial}'

    def choose(self, options):
        """Runs one of the (weight, make) options at random; a make that returns None (not
        possible here) gives way to the others."""
        options = [o for o in options if o[0] > 0]
        while options:
            r = self.rng.random() * sum(w for w, _ in options)
            for k, (w, make) in enumerate(options):
                r -= w
                if r < 0 or k == len(options) - 1:
                    node = make()
                    if node is not None:
                        return node
                    del options[k]
                    break
        return None

    def call(self, op, *args):
        args = list(args)
        if not any(a.symbolic() for a in args):
            args[0] = Const(args[0].value, args[0].ty, node=True)
        self.budget -= 1
        return Call(op, args)

    def const_double(self):
        if self.chance(0.6):
            return Const(self.rng.choice(NICE), 'd')
        return Const(round(self.rng.uniform(-3, 3), 2) or 0.5, 'd')

    def const_int(self, low=-3, high=5):
        return Const(self.rng.randint(low, high), 'i')

    # --- domain adapters: x itself if its known values fit, else x moved or squashed ---

    def above(self, x, scope, low):
        values = scope.values(x)
        if values is not None and min(values) > low + 0.05:
            return x
        if values is not None and self.chance(0.7):
            return self.call(ADD, x, Const(round(low + 0.5 - min(values) + self.rng.random(), 1), 'd'))
        return self.choose([
            (1, lambda: self.call(ADD, Const(round(low + 1.1, 2), 'd'), self.call(MATH1['tanh'], x))),
            (1, lambda: self.call(ADD, self.call(HYPOT, x, Const(0.5, 'd')), Const(round(low, 2), 'd'))
             if low else self.call(HYPOT, x, Const(0.5, 'd'))),
            (1, lambda: self.call(ADD, self.call(MUL, x, x), Const(round(low + 0.5, 2), 'd'))),
        ])

    def within(self, x, scope, bound):
        values = scope.values(x)
        if values is not None and max(abs(v) for v in values) < bound * 0.9:
            return x
        if values is not None and self.chance(0.7):
            return self.call(MUL, x, Const(math.floor(bound * 80 / max(abs(v) for v in values)) / 100, 'd'))
        squash = self.rng.choice(['tanh', 'sin'])
        return self.call(MUL, Const(round(bound * 0.8, 2), 'd'), self.call(MATH1[squash], x))

    def nonzero(self, x, scope):
        values = scope.values(x)
        if values is not None and min(abs(v) for v in values) > 0.1:
            return x
        return self.above(x, scope, 0.1)

    # --- expressions of each type ---

    def gen(self, t, scope, depth=0):
        if t == 'd':
            return self.gen_double(scope, depth)
        if t == 'i':
            return self.gen_int(scope, depth)
        if t == 'b':
            return self.gen_bool(scope, depth)
        return self.gen_aggregate(t, scope, depth)

    def gen_double(self, scope, depth):
        if self.budget <= 0 or depth >= 6:
            return self.double_leaf(scope)
        return self.choose([
            (3 if depth else 0, lambda: self.double_leaf(scope)),
            (6, lambda: self.arithmetic(scope, depth)),
            (1, lambda: self.call(NEG, self.gen_double(scope, depth + 1))),
            (7, lambda: self.math1(scope, depth)),
            (2.5, lambda: self.power(scope, depth)),
            (1, lambda: self.math2(scope, depth)),
            (1.5, lambda: self.min_max('d', scope, depth)),
            (1.5, lambda: self.branch('d', scope, depth)),
            (1.5, lambda: self.let('d', scope, depth)),
            (1.5 if depth < 3 else 0, lambda: self.fold('d', scope, depth)),
            (2 if self.helpers else 0, lambda: self.helper_call(scope, depth)),
            (3 if self.recursive else 0, lambda: self.recursive_call(scope, depth)),
            (0.5, lambda: self.halve()),
            (1, lambda: self.made_and_read(scope, depth)),
        ])

    def double_leaf(self, scope):
        options = [(3, lambda leaf=leaf: leaf) for leaf in scope.of_type('d')]
        options += [(1.5, lambda leaf=leaf: self.element(leaf, scope)) for leaf in scope.of_type('a2', 'a3', 'v')]
        options += [(1.5, lambda leaf=leaf: self.field(leaf)) for leaf in scope.of_type('s2', 's3', 'a2', 'a3')]
        options += [(0.5, lambda leaf=leaf: self.call(MUL, leaf, self.const_double()))
                    for leaf in scope.of_type('f', 'i', 'u') if not is_big(leaf)]
        options.append((1, self.const_double))
        return self.choose(options)

    def index_for(self, x, scope):
        """An index that is in range in every environment: a constant, or an int leaf."""
        size = SIZES.get(x.ty)
        if size is None:
            values = scope.values(x)
            size = min(len(v) for v in values) if values else 1
        options = [(1, lambda j=j: Const(j, 'i')) for j in range(size)]

        def in_range(i):
            return lambda env: 0 <= i.ev(env)[0] < len(x.ev(env)[0])
        options += [(2, lambda i=i: i) for i in scope.of_type('i', 'u') if scope.holds(in_range(i))]
        return self.choose(options)

    def element(self, x, scope):
        return self.call(GETINDEX, x, self.index_for(x, scope))

    def field(self, x):
        self.budget -= 1
        return Get(self.rng.randrange(SIZES[x.ty]), x)

    def arithmetic(self, scope, depth):
        op = self.rng.choice([ADD, ADD, SUB, SUB, MUL, MUL, MUL, DIV])
        a = self.gen_double(scope, depth + 1)
        b = self.choose([(6, lambda: self.gen_double(scope, depth + 1)), (2, self.const_double),
                         (1, lambda: self.const_int(1, 4)),
                         (1 if scope.of_type('i') else 0, lambda: self.gen_int(scope, depth + 1))])
        if op in (SUB, DIV) and b.dsl() == a.dsl():  # x - x and x / x are constants
            b = self.const_double()
        if op is DIV:
            b = self.nonzero(b, scope) if b.ty == 'd' else Const(self.rng.randint(2, 4), 'i')
        if op is not DIV and self.chance(0.3):
            a, b = b, a
        return self.call(op, a, b)

    def math1(self, scope, depth):
        name = self.rng.choice(list(MATH1))
        x = self.gen_int(scope, depth + 1) if name in ('sqrt', 'log', 'exp', 'sin') and self.chance(0.1) \
            else self.gen_double(scope, depth + 1)
        if name in ('log', 'sqrt'):
            x = self.above(x, scope, 0.1)
        elif name == 'log1p':
            x = self.above(x, scope, -0.9)
        elif name in ('asin', 'acos'):
            x = self.within(x, scope, 0.9)
        elif name == 'tan':
            x = self.within(x, scope, 1.2)
        elif name in ('exp', 'expm1', 'sinh', 'cosh'):
            x = self.within(x, scope, 6)
        elif name == 'cbrt':
            x = self.nonzero(x, scope)
        return self.call(MATH1[name], x)

    def power(self, scope, depth):
        if scope.of_type('f') and self.chance(0.3):  # pow of a float is a double
            return self.call(POW, self.rng.choice(scope.of_type('f')), Const(2, 'i'))
        if scope.of_type('i') and self.chance(0.2):  # pow of an int is a double: no overflow
            return self.call(POW, self.rng.choice(scope.of_type('i')), Const(self.rng.choice([2, 2, 3]), 'i'))
        kind = self.rng.choice(['int', 'int', 'real', 'real', 'both', 'int parameter'])
        if kind == 'int':
            e = self.rng.choice([2, 2, 3, 0, 1, -1, -2])
            x = self.gen_double(scope, depth + 1)
            return self.call(POW, self.nonzero(x, scope) if e < 0 else x, Const(e, 'i'))
        if kind == 'real':
            e = self.rng.choice([0.5, 0.5, 2.0, 1.5, -0.5, 0.25, 3.5])
            return self.call(POW, self.above(self.gen_double(scope, depth + 1), scope, 0.1), Const(e, 'd'))
        small = [n for n in scope.of_type('i') if scope.holds(lambda env, n=n: 0 <= n.ev(env)[0] <= 4)]
        if kind == 'int parameter' and small:
            return self.call(POW, self.gen_double(scope, depth + 1), self.rng.choice(small))
        base = self.above(self.gen_double(scope, depth + 1), scope, 0.1)
        return self.call(POW, base, self.within(self.gen_double(scope, depth + 1), scope, 3))

    def math2(self, scope, depth):
        a, b = self.gen_double(scope, depth + 1), self.gen_double(scope, depth + 1)
        if not scope.holds(lambda env: away_from_origin(a.ev(env)[0], b.ev(env)[0])):
            b = self.nonzero(b, scope)
        return self.call(self.rng.choice([ATAN2, HYPOT]), a, b)

    def min_max(self, t, scope, depth):
        a = self.gen(t, scope, depth + 1)
        b = self.gen(t, scope, depth + 1) if self.chance(0.7) else (self.const_double() if t == 'd' else self.const_int())
        return self.call(self.rng.choice([MIN, MAX]), a, b)

    def branch(self, t, scope, depth):
        cond = self.gen_bool(scope, depth + 1)
        self.budget -= 1
        a, b = self.gen(t, scope, depth + 1), self.gen(t, scope, depth + 1)
        leaves = [leaf for leaf in scope.of_type(t) if isinstance(leaf, Param)]
        if leaves and self.chance(0.4):  # a branch that returns a parameter
            a = self.rng.choice(leaves)
        return If(cond, *((a, b) if self.chance(0.5) else (b, a)))

    def let(self, t, scope, depth):
        self.budget -= 1
        kind = self.rng.choice(['d', 'd', 'd', 'i', 'make', 'leaf'])
        if kind == 'make':
            value = self.make(self.rng.choice(['s2', 's3', 'a2', 'a3']), scope, depth + 1)
        elif kind == 'leaf' and scope.leaves:
            value = self.rng.choice(scope.leaves)
        else:
            value = self.gen('i' if kind == 'i' else 'd', scope, depth + 1)
        var = Var(self.fresh('t'), value.ty)
        inner = scope.let(var, value)
        body = var if var.ty == t and self.chance(0.25) else self.gen(t, inner, depth + 1)
        return Let(var.name, value, body)

    def fold(self, t, scope, depth):
        self.budget -= 1
        sequences = scope.of_type('v', 'a2', 'a3')
        if sequences and self.chance(0.5):
            first, last = Const(0, 'i'), self.call(LENGTH, self.rng.choice(sequences))
        else:
            first = Const(self.rng.choice([0, 0, 1]), 'i')
            bounds = [n for n in scope.of_type('i') if scope.holds(lambda env, n=n: -2 <= n.ev(env)[0] <= 5)]
            last = self.rng.choice(bounds) if bounds and self.chance(0.5) else Const(self.rng.randint(0, 4), 'i')
        index = Var(self.fresh('i'), 'u' if last.ty == 'u' else 'i')
        if t == 'd' and self.chance(0.4):
            term = self.gen_double(scope.loop(index, None, first, last), depth + 1)
            return Fold(index.name, None, first, last, None, term, 'd')
        acc = Var(self.fresh('acc'), t)
        inner = scope.loop(index, acc, first, last)
        if self.chance(0.25):
            # An int initial value: cassette types the accumulator by running the body's types
            # from the int on, so the body must be valid for an int accumulator too. acc op
            # term(i) is, and settles to t.
            init = self.const_int(0, 2)
            op = self.rng.choice([ADD, SUB, MUL] if t == 'd' else [ADD, SUB])
            body = self.call(op, acc, self.gen(t, scope.loop(index, None, first, last), depth + 1))
        else:
            init = self.gen(t, scope, depth + 1)
            body = self.gen(t, inner, depth + 1)
        return Fold(index.name, acc.name, first, last, init, body, t)

    def helper_call(self, scope, depth):
        # A vector argument is a vector the caller has: the DSL makes no vectors.
        callable_ = [h for h in self.helpers if all(p.ty != 'v' or scope.of_type('v') for p in h.params)]
        if not callable_:
            return None
        h = self.rng.choice(callable_)
        return self.call_function(h, [self.gen(p.ty, scope, depth + 1) for p in h.params])

    def call_function(self, h, args):
        self.budget -= 1
        if not any(a.symbolic() for a in args):
            if self.chance(0.3):  # h(ir::constant(k), ...)
                args[0] = Const(args[0].value, args[0].ty, node=True)
            else:  # cassette::call(h, constants...)
                return Call(h.call_op('call'), args)
        return Call(h.call_op('call' if self.chance(0.2) else 'direct'), args)

    def recursive_call(self, scope, depth):
        r = self.recursive
        x = self.gen(r.params[0].ty, scope, depth + 1)
        depths = [n for n in scope.of_type('i') if scope.holds(lambda env, n=n: 0 <= n.ev(env)[0] <= 4)]
        n = self.rng.choice(depths) if depths and self.chance(0.6) else self.const_int(0, 3)
        return self.call_function(r, [x, n])

    def halve(self):
        self.budget -= 1
        return Call(HALVE, [Const(self.rng.choice(NICE), 'd')])

    def make(self, t, scope, depth):
        return self.call(make_op(t), *[self.gen_double(scope, depth + 1) for _ in range(SIZES[t])])

    def made_and_read(self, scope, depth):
        t = self.rng.choice(['s2', 's3', 'a2', 'a3'])
        made = self.make(t, scope, depth + 1)
        if t[0] == 'a' and self.chance(0.5):
            return self.call(GETINDEX, made, Const(self.rng.randrange(SIZES[t]), 'i'))
        return self.field(made)

    def gen_aggregate(self, t, scope, depth):
        leaves = scope.of_type(t)
        if leaves and (t == 'v' or self.chance(0.6)):
            return self.rng.choice(leaves)
        return self.make(t, scope, depth)

    def gen_int(self, scope, depth):
        leaves = [n for n in scope.of_type('i') if not is_big(n)]

        def leaf():
            return self.rng.choice(leaves) if leaves and self.chance(0.7) else self.const_int()
        if self.budget <= 0 or depth >= 5:
            return leaf()
        return self.choose([
            (3, leaf),
            (3, lambda: self.call(self.rng.choice([ADD, SUB, MUL]), self.gen_int(scope, depth + 1),
                                  self.gen_int(scope, depth + 1) if self.chance(0.5) else self.const_int())),
            (1, lambda: self.call(self.rng.choice([MOD, DIV]), self.gen_int(scope, depth + 1), self.const_int(2, 5))),
            (0.5, lambda: self.call(NEG, self.gen_int(scope, depth + 1))),
            (0.5, lambda: self.call(MATH1['abs'], self.gen_int(scope, depth + 1))),
            (1, lambda: self.min_max('i', scope, depth)),
            (1, lambda: self.branch('i', scope, depth)),
            (0.5, lambda: self.let('i', scope, depth)),
            (0.5 if depth < 3 else 0, lambda: self.fold('i', scope, depth)),
        ])

    def gen_bool(self, scope, depth):
        def compare(t):
            a, b = self.gen(t, scope, depth + 1), self.gen(t, scope, depth + 1)
            if self.chance(0.5) or b.dsl() == a.dsl():  # x < x is decided
                b = self.const_double() if t == 'd' else self.const_int()
            return self.call(self.rng.choice(COMPARISONS), a, b)
        return self.choose([
            (4, lambda: compare('d')),
            (2 if scope.of_type('i') else 0.5, lambda: compare('i')),
            (0.8 if depth < 3 else 0, lambda: self.call(self.rng.choice([AND, OR]), self.gen_bool(scope, depth + 1),
                                                        self.gen_bool(scope, depth + 1))),
            (0.3 if depth < 3 else 0, lambda: self.call(NOT, self.gen_bool(scope, depth + 1))),
        ])

    # --- functions ---

    def passthrough(self, t, scope):
        """A body that returns a parameter, or a part of one, unchanged on some path."""
        params = [leaf for leaf in scope.leaves if isinstance(leaf, Param)]
        scalars = [p for p in params if p.ty == t]
        options = [(3, lambda: self.rng.choice(scalars) if scalars else None)]
        if t == 'd':
            options += [(2, lambda p=p: self.element(p, scope)) for p in params if p.ty in ('a2', 'a3', 'v')]
            options += [(2, lambda p=p: self.field(p)) for p in params if p.ty in ('s2', 's3', 'a2', 'a3')]
            options.append((1, lambda: self.call(self.rng.choice([MIN, MAX]), scalars[0], self.const_double())
                            if scalars else None))
        options += [
            (2, lambda: self.let_returning_variable(self.rng.choice(scalars)) if scalars else None),
            (2, lambda: self.branch(t, scope, 1)),
        ]
        return self.choose(options)

    def let_returning_variable(self, value):
        var = Var(self.fresh('t'), value.ty)
        return Let(var.name, value, var)

    def helper(self, j):
        types = self.rng.choice([['d'], ['d'], ['d', 'd'], ['d', 'i'], ['s2'], ['a2'], ['v'], ['d', 's3']])
        params = [Param(f'a{k}', t) for k, t in enumerate(types)]
        scope = Scope(params, [])
        self.budget = self.rng.randint(1, 5)
        body = self.passthrough('d', scope) if self.chance(0.2) else self.gen_double(scope, 1)
        return Function(f'h{j}', params, body)

    def recursive_function(self):
        x_type = 'i' if self.chance(0.25) else 'd'
        fn = Function('r', [Param('x', x_type), Param('n', 'i')])
        self.recursive = None  # its body cannot call itself but through self
        x, n = fn.params
        self_op = fn.call_op('self')
        scope = Scope([x], [])
        one, two = Const(1, 'i'), Const(2, 'i')
        if x_type == 'i':  # the self call's argument is a double: the function returns a double
            base = x
            step = self.call(self.rng.choice([ADD, MUL]),
                             Call(self_op, [self.call(MUL, x, Const(1.5, 'd')), self.call(SUB, n, one)]),
                             self.const_double())
        else:
            self.budget = self.rng.randint(0, 2)
            base = x if self.chance(0.5) else self.gen_double(scope, 2)
            self.budget = self.rng.randint(0, 2)
            moved = self.gen_double(scope, 2)
            if x not in moved.nodes():
                moved = self.call(MUL, x, Const(self.rng.choice([0.5, 1.5, -0.75]), 'd'))
            step = Call(self_op, [moved, self.call(SUB, n, one)])
            if self.chance(0.3):  # two self calls, as fib makes
                step = self.call(ADD, step, Call(self_op, [x, self.call(SUB, n, two)]))
            if self.chance(0.6):
                step = self.call(self.rng.choice([ADD, MUL]), step, self.gen_double(scope, 2))
        # The base case when n <= 0 (or n < 1): if_(n <= 0, base, step) or if_(n > 0, step, base).
        at_most, more_than = self.rng.choice([(COMPARISONS[1], COMPARISONS[2]), (COMPARISONS[0], COMPARISONS[3])])
        limit = Const(0 if at_most.name == '<=' else 1, 'i')
        if self.chance(0.5):
            fn.body = If(self.call(at_most, n, limit), base, step)
        else:
            fn.body = If(self.call(more_than, n, limit), step, base)
        return fn


# --- programs -----------------------------------------------------------------------------

def leaf_id(k, j):
    """harness.hpp's leaf_id: the metadata the tagging check gives leaf j of argument k."""
    return 1000 * (k + 1) + j


def sample(rng, param):
    """An input value for a parameter."""
    t = param.ty
    if t == 'd':
        return rng.uniform(-2.0, 2.0)
    if t == 'f':
        return to_float32(rng.uniform(-2.0, 2.0))
    if t == 'i':
        return {'n': lambda: rng.randint(0, 4), 'k': lambda: rng.randint(-20, 20),
                'big': lambda: rng.randint(30000, 99999)}[param.role]()
    size = SIZES.get(t) or rng.randint(1, 4)
    return [rng.uniform(-2.0, 2.0) for _ in range(size)]


def input_literal(t, value):
    if t == 'd':
        return repr(value)
    if t == 'f':
        return repr(value) + 'f'
    if t == 'i':
        return str(value)
    return f'{CPP_TYPE[t]}{{{", ".join(repr(v) for v in value)}}}'


def bound(k, param, value):
    """The (value, origin) a parameter starts with: each double is its own origin."""
    if param.ty == 'd':
        return value, leaf_id(k, 0)
    if param.ty in ('f', 'i'):
        return value, 0
    return value, [leaf_id(k, j) for j in range(len(value))]


class Program:
    PARAM_TYPES = ['d'] * 8 + ['i'] * 3 + ['a2', 'a3', 'v', 'v', 's2', 's3', 'f', 'f']

    def __init__(self, seed, k):
        self.k = k
        rng = random.Random(f'cassette-fuzz:{seed}:{k}')
        for _ in range(1000):
            try:
                self.build(rng)
                return
            except Reject:
                continue
        raise RuntimeError(f'program {k} of seed {seed}: no valid program in 1000 draws')

    def build(self, rng):
        b = Builder(rng)
        types = [rng.choice(self.PARAM_TYPES) for _ in range(rng.choice([1, 1, 2, 2, 2, 3, 3, 4]))]
        roles = {'i': lambda: rng.choice(['n', 'n', 'k', 'big'])}
        self.params = [Param(f'x{k}', t, roles[t]() if t in roles else None) for k, t in enumerate(types)]
        self.inputs = [[sample(rng, p) for p in self.params] for _ in range(3)]
        envs = [{p.name: bound(k, p, v) for k, (p, v) in enumerate(zip(self.params, values))}
                for values in self.inputs]

        b.helpers = []
        for j in range(2):
            if rng.random() < (0.45 if j == 0 else 0.35):
                b.helpers.append(b.helper(j))
        self.helpers = list(b.helpers)
        self.recursive = b.recursive_function() if rng.random() < 0.3 else None
        b.recursive = self.recursive

        scope = Scope(self.params, envs)
        b.budget = rng.randint(3, 14)
        result = 'i' if scope.of_type('i') and rng.random() < 0.12 else 'd'
        self.body = b.passthrough(result, scope) if rng.random() < 0.12 else b.gen(result, scope)
        need(self.body is not None and self.body.ty == result)
        # Only the functions the program calls, in their order of definition.
        called = set()
        pending = [self.body]
        while pending:
            for n in pending.pop().nodes():
                fn = getattr(getattr(n, 'op', None), 'function', None)
                if fn and fn not in called:
                    called.add(fn)
                    pending.append(fn.body)
        self.helpers = [h for h in self.helpers if h in called]
        if self.recursive not in called:
            self.recursive = None
        self.replaced = rng.choice(self.functions()) if self.functions() else None

        # Every input is evaluated: a primitive outside its domain rejects the program.
        self.origins = []
        for env in envs:
            value, origin = self.body.ev(env)
            need(isinstance(origin, int))
            self.origins.append(origin)

    def functions(self):
        return self.helpers + ([self.recursive] if self.recursive else [])

    def nodes(self):
        for fn in self.functions():
            yield from fn.body.nodes()
        yield from self.body.nodes()

    # --- rendering ---

    @staticmethod
    def uses(body, name):
        return any(isinstance(n, Param) and n.name == name for n in body.nodes())

    def signature(self, params, body, twin):
        """A builder's (or with twin, a twin's) parameter list; unused ones are unnamed."""
        out = []
        for p in params:
            name = f' {p.name}' if self.uses(body, p.name) else ''
            out.append(('auto const&' if twin and p.ty not in ('d', 'f', 'i') else 'auto') + name)
        return ', '.join(out)

    @staticmethod
    def counter(body):
        return 'fuzz::counter& c' if body.counts() else 'fuzz::counter&'

    def render_function(self, fn):
        k = self.k
        lines = [f'inline constexpr auto {fn.name}_builder = []({self.signature(fn.params, fn.body, False)}) '
                 f'{{ return {fn.body.dsl()}; }};',
                 f'inline constexpr auto {fn.name} = cassette::function<"p{k}.{fn.name}">({fn.name}_builder);']
        if fn is self.replaced:
            lines.append(f'inline constexpr auto {fn.name}_copy = '
                         f'cassette::function<"p{k}.{fn.name}.copy">({fn.name}_builder);')
        if fn is self.recursive:
            # The return type is spelled out, so that the recursive call can use it: a double,
            # or an fvar when x is one.
            cond, then, other = fn.body.children
            lines += ['template <class X>',
                      f'auto {fn.name}_twin(fuzz::counter& c, X x, int n) -> decltype(x * 1.0) {{',
                      f'    if ({cond.twin()}) return {then.twin()};',
                      f'    return {other.twin()};',
                      '}']
        else:
            lines += [f'auto {fn.name}_twin({self.counter(fn.body)}, {self.signature(fn.params, fn.body, True)}) {{',
                      f'    return {fn.body.twin()};',
                      '}']
        return lines

    def render(self):
        k = self.k
        lines = [f'namespace p{k} {{']
        for fn in self.functions():
            lines += self.render_function(fn)
        lines.append(f'inline constexpr auto f = cassette::function<"p{k}">'
                     f'([]({self.signature(self.params, self.body, False)}) {{ return {self.body.dsl()}; }});')
        lines += ['struct program {',
                  f'    static constexpr int id = {k};',
                  '    static constexpr auto const& fn = f;']
        if self.replaced:
            name = self.replaced.name
            lines.append(f'    static constexpr auto replace = cassette::passes::replace({name}, {name}_copy);')
        lines += [f'    static auto twin({self.counter(self.body)}, {self.signature(self.params, self.body, True)}) {{',
                  f'        return {self.body.twin()};',
                  '    }',
                  '    static auto inputs() {',
                  '        return std::vector{']
        for values in self.inputs:
            items = ', '.join(input_literal(p.ty, v) for p, v in zip(self.params, values))
            lines.append(f'            std::make_tuple({items}),')
        lines += ['        };',
                  '    }',
                  f'    static constexpr std::array<int, {len(self.origins)}> origin{{{", ".join(map(str, self.origins))}}};',
                  '};',
                  f'}}  // namespace p{k}',
                  '']
        return lines

    def coverage(self):
        """The node kinds and callees this program contains, as docs/testing.md lists them."""
        found = set()
        for n in self.nodes():
            kids = [c.ty for c in n.children]
            if isinstance(n, Call):
                name = n.op.name
                if name == 'pow':
                    name = 'pow, ' + ('int' if kids[1] in ('i', 'u') else 'real') + ' exponent'
                    if kids[0] in ('i', 'f'):
                        found.add('pow of an int' if kids[0] == 'i' else 'pow of a float')
                elif name == 'call(g, ...)' and not any(c.symbolic() for c in n.children):
                    name = 'call(g, constants...)'
                elif name == 'x[i]':
                    found.add('x[i] on ' + ('std::vector' if kids[0] == 'v' else 'std::array'))
                elif name in '+-*/' and sorted(kids) == ['d', 'i']:
                    found.add('int and double operands mixed')
                found.add(name)
            elif isinstance(n, If):
                found.add('if_')
                if any(isinstance(c, Param) for c in n.children[1:]):
                    found.add('if_ with a branch returning a parameter')
            elif isinstance(n, Let):
                found.add('let')
                if isinstance(n.children[1], Var) and n.children[1].name == n.var:
                    found.add('let returning its variable')
            elif isinstance(n, Fold):
                found.add('sum' if n.is_sum else 'fold')
        if any(self.origins):
            found.add('returns a parameter or a part of one')
        if self.recursive and self.recursive.params[0].ty == 'i':
            found.add('self call with another argument type')
        return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--seed', type=int, required=True)
    parser.add_argument('--first', type=int, default=0, help='index of the first program')
    parser.add_argument('--count', type=int, default=1, help='number of programs')
    parser.add_argument('--out', required=True, help='the C++ file to write')
    parser.add_argument('--coverage', action='store_true', help='print how many programs contain each construct')
    args = parser.parse_args()

    programs = [Program(args.seed, k) for k in range(args.first, args.first + args.count)]
    lines = [f'// Generated by tests/fuzz/generate.py --seed {args.seed} --first {args.first} --count {args.count}'
             ': do not edit.',
             '#include "harness.hpp"', '', 'namespace math = fuzz::math;', '']
    for p in programs:
        lines += p.render()
    lines += ['int main() {', f'    fuzz::report r({args.seed});']
    lines += [f'    fuzz::check<p{p.k}::program>(r);' for p in programs]
    lines += ['    return r.finish();', '}', '']
    with open(args.out, 'w') as out:
        out.write('\n'.join(lines))
    if args.coverage:
        counts = Counter(c for p in programs for c in p.coverage())
        for name, n in sorted(counts.items()):
            print(f'{n:8d}  {name}')


if __name__ == '__main__':
    main()
