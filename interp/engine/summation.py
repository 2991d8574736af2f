"""Σ of a loop body's time over the loop's iterations (the closed form of a loop, §3.4.2).

``δ_IterD = t_fixed + NumIters·(t_per_iter + δ_body)`` when δ_body does not depend on the loop
index; otherwise δ_body is summed over the index: exactly for numeric counts up to
``EXACT_SUM_LIMIT`` (``NUMERIC_SUM_LIMIT`` when the index is δ_body's only symbol: then each
term is worked out in Python numbers, as SymPy would, :func:`_numeric`); for an IF / ELSE IF
chain whose conditions are linear in the index, exactly over the intervals of the index where
each arm runs (:func:`_sum_piecewise`); by SymPy's summation where it has a closed form; and as
a stated estimate otherwise (every estimate leaves a note).
"""

from __future__ import annotations

import math
import operator
from fractions import Fraction
from typing import Callable

import sympy as sp
from sympy.logic.boolalg import to_nnf

from interp.application import aau as A
from interp.application.expr import as_sympy
from interp.engine.timeval import is_symbolic

EXACT_SUM_LIMIT = 2048  # loop-variant conditions: sum exactly up to this many iterations
NUMERIC_SUM_LIMIT = 1 << 16  # ... and up to this many when the index is the term's only symbol
REGION_LIMIT = 4096  # index intervals one closed-form sum over IF arms may split into


def sum_over(expr: sp.Expr, var: sp.Symbol, start, step, n, loop: A.AAU, notes: list[str]) -> sp.Expr:
    """Σ of ``expr`` over the iterations of a loop (n·expr when it does not depend on the index)."""
    if not is_symbolic(expr) or var not in expr.free_symbols:
        return n * expr
    # xreplace: an atom replaced, the expression rebuilt (and so evaluated) once, without subs'
    # pattern machinery (a Piecewise's conditions were canonicalized over and over)
    term = expr.xreplace({var: start + step * _K})  # (k a symbol: a SymPy expression)
    # the term is free of the loop's own index: the same body summed again (the same routine
    # closed at every call, a count and a time per statement) is the same term
    key = (term, type(n), n, loop.loc.line)
    done = _SUMS.get(key)
    if done is None:
        said: list[str] = []
        done = (_sum_term(term, n, loop, said), tuple(said))
        if len(_SUMS) >= SUMS_KEPT:
            _SUMS.clear()
        _SUMS[key] = done
    notes.extend(done[1])
    return done[0]


_K = sp.Dummy("k", integer=True, nonnegative=True)  # the iteration number k = 0, 1, ... of every sum
SUMS_KEPT = 20_000  # sums remembered (their terms are kept alive by the keys)
_SUMS: dict[tuple, tuple[sp.Expr, tuple[str, ...]]] = {}


def _sum_term(term: sp.Expr, n, loop: A.AAU, notes: list[str]) -> sp.Expr:
    """Σ_{k=0}^{n-1} ``term`` (see :func:`sum_over`)."""
    k = _K
    if isinstance(n, int) and n <= EXACT_SUM_LIMIT:  # exact, and no symbolic summation
        return exact_sum(term, k, n)
    if isinstance(n, int) and n <= NUMERIC_SUM_LIMIT:  # (MOD(5*I, 64) .LE. 31: no interval sum)
        total = _numeric_sum(term, k, n)
        if total is not None:
            return total
    # inner trip counts Max(0, e) (triangular loops) are summed as e: SymPy's summation
    # of Max recurses without end; exact wherever the inner loop runs
    plain = term.replace(lambda x: isinstance(x, sp.Max) and len(x.args) == 2 and 0 in x.args,
                         lambda x: x.args[1] if x.args[0] == 0 else x.args[0])
    if term.has(sp.Piecewise):
        # conditions linear in the index (an IF / ELSE IF chain on it): each arm's share
        # of the index range is a set of intervals, summed exactly
        try:
            result = _sum_piecewise(plain, k, _last_index(n))
        except _NoExactSum:
            pass
        else:
            if plain != term:
                notes.append(f"line {loop.loc.line}: the inner loop's trip count was "
                             "summed as if it ran on every iteration (triangular loop)")
            return result
    if not term.has(sp.Piecewise):
        try:
            result = sp.summation(plain, (k, 0, n - 1))
        except RecursionError:
            result = sp.Sum(plain, (k, 0, n - 1))
        if not result.has(sp.Sum):
            if plain != term:
                notes.append(f"line {loop.loc.line}: the inner loop's trip count was "
                             "summed as if it ran on every iteration (triangular loop)")
            return result
    if isinstance(n, int):
        samples = [int(j * (n - 1) / 255) for j in range(256)]
        notes.append(f"line {loop.loc.line}: a condition depends on the loop index; its "
                     f"cost was estimated from 256 of the {n} iterations")
        return sp.Integer(n) * sp.Add(*[term.subs(k, j) for j in samples]) / 256
    notes.append(f"line {loop.loc.line}: a condition depends on the loop index and the "
                 "trip count is symbolic; each branch was weighted equally (heuristic)")
    # (an index outside the IFs stays in the estimate: its own symbol, not the shared one)
    return n * mean_branches(term.xreplace({k: sp.Dummy("k", integer=True, nonnegative=True)}))


def exact_sum(term: sp.Expr, k: sp.Symbol, n: int) -> sp.Expr:
    """Σ_{j=0}^{n-1} ``term.xreplace({k: j})``, the same terms added in the same order (the
    same float roundings), each Piecewise on k replaced by the piece that holds at j: that
    piece's expression is what the rebuilt Piecewise evaluates to, without building it (its
    conditions canonicalized at every j were most of an exact sum's time). A term whose only
    symbol is k is worked out in Python numbers, as SymPy would (:func:`_numeric`)."""
    total = _numeric_sum(term, k, n)
    if total is not None:
        return total
    arms = [(x, [(e, _holds(c, k)) for e, c in x.args])
            for x in _outer_piecewise(term) if k in x.free_symbols]
    terms = []
    for j in range(n):
        kj = sp.Integer(j)
        rule: dict = {k: kj}
        for arm, pieces in arms:
            value = _piece_at(pieces, k, kj, j)
            if value is None:  # a condition not decided by k alone: the Piecewise rebuilt
                rule = {k: kj}
                break
            rule[arm] = value
        terms.append(term.xreplace(rule))
    return sp.Add(*terms)


def _numeric_sum(term: sp.Expr, k: sp.Symbol, n: int) -> sp.Expr | None:
    """:func:`exact_sum` of a term whose only symbol is k, in Python numbers (:func:`_numeric`);
    None when it holds another symbol or a value the numbers do not give as SymPy would."""
    if term.free_symbols != {k}:
        return None
    value = _numeric(term, k)
    if value is None:
        return None
    try:
        total: _Num = 0
        for j in range(n):  # Add's own order: the first term first
            total = _plus(total, value(j))
    except _Undecided:
        return None
    return _as_number(total)


def _outer_piecewise(e: sp.Basic):
    """The Piecewise sub-expressions of ``e`` not inside another one."""
    if isinstance(e, sp.Piecewise):
        yield e
        return
    for arg in e.args:
        yield from _outer_piecewise(arg)


def _piece_at(pieces: list, k: sp.Symbol, kj: sp.Integer, j: int) -> sp.Expr | None:
    """The value at k = j of a Piecewise given as (expression, test of j) pairs, when its
    conditions up to the first that holds are decided there; None otherwise."""
    for e, holds in pieces:
        held = holds(j)
        if held is True:
            return e.xreplace({k: kj})
        if held is not False:
            return None
    return None


_RELATIONS = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
              "==": operator.eq, "!=": operator.ne}


def _holds(c, k: sp.Symbol):
    """``c`` as a test of an integer j: True or False where c at k = j is true or false, None
    where it is not decided. Relations in k alone with whole and fractional numbers (an IF on
    the index, ``Mod(5*k + 5, 64) <= 31``) are worked out in exact fractions, as SymPy decides
    them (:func:`_exact_test`); others by SymPy."""
    if c is sp.true or c is sp.false:
        return lambda j: c is sp.true
    if isinstance(c, (sp.And, sp.Or, sp.Not)):
        return _connective(c, [_holds(x, k) for x in c.args])
    if isinstance(c, sp.Rel):
        test = _exact_test(c, k)
        if test is not None:
            return test

    def by_sympy(j):
        held = c.xreplace({k: sp.Integer(j)})
        return True if held is sp.true else False if held is sp.false else None
    return by_sympy


# ---- a term in k alone, in Python numbers --------------------------------------------------
# SymPy's arithmetic on numbers is a Python number's: a Float is a double (53 bits, rounded to
# nearest; a zero result is the Integer 0), an Integer or Rational is exact, a Rational meets a
# Float rounded to it; Add and Mul fold their arguments left to right. So a term free of every
# symbol but k, evaluated node by node in args order with int / Fraction / float, gives the
# number its rebuild at k = j gives, bit for bit, at a small part of the cost.


class _Undecided(Exception):
    """A value the Python numbers cannot give as SymPy would (Mod by 0, a power of a Float,
    no piece that holds): the rebuild decides."""


_Num = int | Fraction | float  # a value as SymPy would have it: Integer, Rational, Float


def _float_result(x: float) -> _Num:
    if x == 0.0:
        return 0  # (Float._new: a zero is S.Zero)
    if not math.isfinite(x):
        raise _Undecided
    return x


def _plus(a: _Num, b: _Num) -> _Num:
    r = a + b
    return _float_result(r) if isinstance(r, float) else r


def _times(a: _Num, b: _Num) -> _Num:
    r = a * b
    return _float_result(r) if isinstance(r, float) else r


def _exact(x: _Num) -> _Num:
    if isinstance(x, float):
        raise _Undecided
    return x


def _as_number(x: _Num) -> sp.Expr:
    if isinstance(x, float):
        return sp.Float(x)
    if isinstance(x, Fraction):
        return sp.Rational(x.numerator, x.denominator)
    return sp.Integer(x)


def _fold(parts: list, step) -> Callable[[int], _Num]:
    def value(j: int) -> _Num:
        acc = parts[0](j)
        for f in parts[1:]:
            acc = step(acc, f(j))
        return acc
    return value


def _numeric(e: sp.Basic, k: sp.Symbol) -> Callable[[int], _Num] | None:
    """``e`` as a function of the integer j giving SymPy's own value of ``e.xreplace({k: j})``
    as a Python number (int, Fraction or float; raising :class:`_Undecided` where it cannot);
    None when ``e`` holds another symbol or a node not handled here."""
    if e == k:
        return lambda j: j
    if isinstance(e, sp.Float):
        if e._prec != 53:
            return None
        v = float(e)
        return lambda j: v
    if isinstance(e, sp.Rational):
        v = int(e.p) if e.q == 1 else Fraction(int(e.p), int(e.q))
        return lambda j: v
    if isinstance(e, (sp.Add, sp.Mul, sp.Mod, sp.floor, sp.ceiling, sp.Pow, sp.Piecewise)):
        if isinstance(e, sp.Piecewise):
            pieces = [(_numeric(x, k), _exact_condition(c, k)) for x, c in e.args]
            if any(f is None or t is None for f, t in pieces):
                return None
            return _first_piece(pieces)
        parts = [_numeric(a, k) for a in e.args]
        if any(f is None for f in parts):
            return None
        if isinstance(e, sp.Add):
            return _fold(parts, _plus)
        if isinstance(e, sp.Mul):
            return _fold(parts, _times)
        if isinstance(e, sp.Mod):
            a, m = parts
            return lambda j: _modulo(_exact(a(j)), _exact(m(j)))
        if isinstance(e, sp.Pow):
            base = parts[0]
            if not e.exp.is_Integer:
                return None
            p = int(e.exp)
            return lambda j: _power(_exact(base(j)), p)
        rnd = math.floor if isinstance(e, sp.floor) else math.ceil
        (a,) = parts
        return lambda j: rnd(_exact(a(j)))
    return None


def _modulo(a: _Num, m: _Num) -> _Num:
    if m == 0:
        raise _Undecided  # (SymPy: nan)
    return a % m  # (the sign of m, as SymPy's Mod of numbers)


def _power(b: _Num, p: int) -> _Num:
    if b == 0 and p < 0:
        raise _Undecided
    return Fraction(b) ** p if p < 0 else b ** p


def _first_piece(pieces: list) -> Callable[[int], _Num]:
    def value(j: int) -> _Num:
        for f, test in pieces:
            held = test(j)
            if held is True:
                return f(j)
            if held is not False:
                raise _Undecided
        raise _Undecided  # (no piece holds: SymPy's Piecewise is undefined there)
    return value


def _exact_condition(c, k: sp.Symbol):
    """``c`` as an exact test of the integer j (True, False, or None where a value is not a
    whole number or fraction), or None when it holds a node :func:`_numeric` does not take."""
    if c is sp.true or c is sp.false:
        return lambda j: c is sp.true
    if isinstance(c, (sp.And, sp.Or, sp.Not)):
        parts = [_exact_condition(x, k) for x in c.args]
        return None if any(t is None for t in parts) else _connective(c, parts)
    if isinstance(c, sp.Rel):
        return _exact_test(c, k)
    return None


def _exact_test(c: sp.Rel, k: sp.Symbol):
    """A relation of two sides in k alone, whole numbers and fractions only (a Float is
    compared by SymPy at its precision: left to SymPy), as an exact test of j; else None."""
    if c.rel_op not in _RELATIONS or c.free_symbols - {k} or c.atoms(sp.Float):
        return None
    lhs, rhs = _numeric(c.lhs, k), _numeric(c.rhs, k)
    if lhs is None or rhs is None:
        return None
    op = _RELATIONS[c.rel_op]

    def test(j):
        try:
            return op(_exact(lhs(j)), _exact(rhs(j)))
        except (_Undecided, ZeroDivisionError):
            return None
    return test


def _connective(c, parts: list):
    """And, Or or Not (``c``) of tests of j that give True, False or None (not decided)."""
    if isinstance(c, sp.Not):
        (inner,) = parts
        return lambda j: None if (v := inner(j)) is None else not v
    both = isinstance(c, sp.And)

    def connective(j):
        seen = [t(j) for t in parts]
        if (not both) in seen:
            return not both
        return both if all(v is not None for v in seen) else None
    return connective


def mean_branches(e: sp.Expr) -> sp.Expr:
    """Replace every Piecewise by the mean of its branches (the equal-weight heuristic)."""
    return e.replace(lambda x: isinstance(x, sp.Piecewise),
                     lambda x: sp.Add(*[arg.expr for arg in x.args]) / len(x.args))


class _NoExactSum(Exception):
    """A sum over a loop index that :func:`_sum_piecewise` cannot do exactly."""


def _last_index(n) -> sp.Expr:
    """The last value of k = 0, 1, ... for a trip count ``n``: Max(0, e) - 1 reads as e - 1
    (when e <= 0 the interval [0, e - 1] is empty, as it should be)."""
    n = as_sympy(n)
    if isinstance(n, sp.Max) and len(n.args) == 2 and 0 in n.args:
        n = n.args[1] if n.args[0] == 0 else n.args[0]
    return n - 1


def _sum_piecewise(term: sp.Expr, k: sp.Symbol, last: sp.Expr) -> sp.Expr:
    """Σ_{k=0}^{last} of ``term`` exactly when its Piecewise conditions are linear in ``k``:
    piece i counts where C_i holds and no earlier C_j does (Piecewise order, as an IF /
    ELSE IF / ELSE chain), which is a union of intervals of k. The result is a Piecewise in
    the other symbols (outer indices, inputs) with linear conditions again, so an enclosing
    loop sums it the same way."""
    total, budget = sp.Integer(0), [REGION_LIMIT]
    for part in sp.Add.make_args(as_sympy(term)):  # Σ is linear: one Piecewise at a time
        part = sp.piecewise_fold(part)
        pieces = part.args if isinstance(part, sp.Piecewise) else ((part, sp.true),)
        earlier = []
        for e, c in pieces:
            if e.has(sp.Piecewise):
                raise _NoExactSum
            region = to_nnf(sp.And(c, *[sp.Not(x) for x in earlier]))
            earlier.append(c)
            total += _sum_region(e, [region], k, [sp.Integer(0)], [last], [], budget)
    return total


def _sum_region(e, conds: list, k, los: list, his: list, outer: list, budget: list) -> sp.Expr:
    """Σ of ``e`` over the integers k with lo <= k <= hi for all ``los``/``his`` where every
    condition of ``conds`` holds (``outer``: conditions free of k, kept as conditions)."""
    budget[0] -= 1
    if budget[0] < 0:  # too many pieces: the heuristics of sum_over take over
        raise _NoExactSum
    conds = list(conds)
    while conds:
        c = conds.pop(0)
        if c == sp.true:
            continue
        if c == sp.false:
            return sp.Integer(0)
        if isinstance(c, sp.And):
            conds[:0] = c.args
        elif isinstance(c, sp.Or):  # A or B = A, plus (B and not A): disjoint
            a, b = c.args[0], sp.Or(*c.args[1:])
            return (_sum_region(e, [a, *conds], k, los, his, outer, budget)
                    + _sum_region(e, [b, to_nnf(sp.Not(a)), *conds], k, los, his, outer, budget))
        elif k not in c.free_symbols:
            outer = [*outer, c]
            if not _feasible(sp.And(*outer)):
                return sp.Integer(0)
        elif isinstance(c, sp.Unequality):
            conds[:0] = [sp.Or(c.lhs < c.rhs, c.lhs > c.rhs)]
        elif isinstance(c, sp.Rel):
            d = sp.expand(c.lhs - c.rhs)
            a = d.coeff(k)
            if a == 0 and not d.has(k):  # k cancels: K <= K - M + 12 is 0 <= 12 - M
                conds[:0] = [c.func(d, 0)]
                continue
            x = -(d - a * k) / a if a != 0 else None
            if x is None or not a.is_number or x.has(k):
                raise _NoExactSum
            op = c.rel_op if a > 0 else {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "=="}[c.rel_op]
            if op == "==":
                if x.is_integer is False:
                    return sp.Integer(0)
                if not x.is_integer:
                    raise _NoExactSum
                los, his = [*los, x], [*his, x]
            elif op == "<":
                his = [*his, sp.ceiling(x) - 1]
            elif op == "<=":
                his = [*his, sp.floor(x)]
            elif op == ">":
                los = [*los, sp.floor(x) + 1]
            else:
                los = [*los, sp.ceiling(x)]
            lo_num = [b for b in los if b.is_number]
            hi_num = [b for b in his if b.is_number]
            if lo_num and hi_num and max(lo_num) > min(hi_num):
                return sp.Integer(0)  # an empty interval
        else:
            raise _NoExactSum
    lo_num = [b for b in los if b.is_number]
    hi_num = [b for b in his if b.is_number]
    los = list(dict.fromkeys([b for b in los if not b.is_number] + ([max(lo_num)] if lo_num else [])))
    his = list(dict.fromkeys([b for b in his if not b.is_number] + ([min(hi_num)] if hi_num else [])))
    lo_s, hi_s = sp.Dummy("lo", integer=True), sp.Dummy("hi", integer=True)
    s = sp.summation(e, (k, lo_s, hi_s)) if e.has(k) else e * (hi_s - lo_s + 1)
    if s.has(sp.Sum):
        raise _NoExactSum
    pieces = []  # the largest lower bound and the smallest upper bound, first of ties
    for lo in los:
        for hi in his:
            cond = sp.And(*[lo >= o for o in los if o is not lo], *[hi <= o for o in his if o is not hi],
                          hi >= lo, *outer)
            if cond != sp.false and _feasible(cond):
                pieces.append((s.subs({lo_s: lo, hi_s: hi}), cond))
    if not pieces:
        return sp.Integer(0)
    return sp.Piecewise(*pieces, (0, True), evaluate=False)


def _feasible(cond) -> bool:
    """False when a conjunction of linear conditions on integers is plainly empty: two bounds
    on the same linear form that contradict (N >= 10 and N <= 9; M >= N and M <= N - 1), or a
    bound below 1 on a positive input. True when in doubt."""
    if cond == sp.false:
        return False
    bounds: dict = {}
    for c in (cond.args if isinstance(cond, sp.And) else (cond,)):
        if not isinstance(c, sp.Rel) or isinstance(c, sp.Unequality):
            continue
        d = sp.expand(c.lhs - c.rhs)
        const, form = d.as_coeff_Add()
        if not form.is_integer or not const.is_number or not form.free_symbols:
            continue
        op = c.rel_op
        if form.could_extract_minus_sign():  # one orientation per form
            form, const = -form, -const
            op = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "=="}[op]
        lo, hi = bounds.get(form, (sp.S.NegativeInfinity, sp.S.Infinity))
        if form.is_positive:
            lo = max(lo, sp.Integer(1))
        if op in ("<", "<=", "=="):  # form + const <= 0
            hi = min(hi, sp.floor(-const) - (1 if op == "<" and (-const).is_integer else 0))
        if op in (">", ">=", "=="):
            lo = max(lo, sp.ceiling(-const) + (1 if op == ">" and (-const).is_integer else 0))
        if lo > hi:
            return False
        bounds[form] = (lo, hi)
    return True
