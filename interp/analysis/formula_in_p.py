"""The predicted time as one closed form in P (issue 16, part 2), by exact recovery.

The engine interprets every rank at a fixed P, so T(inputs, P) is recovered from its formulas
T_P(inputs) at several P: each T_P is taken apart into a *shape* (its terms, functions and
symbols) with numbers in it. Where the shapes agree across P, every number is a function of P;
each is fitted as the smallest combination of the basis functions of P (1, P, log2 P, 1/P, …)
that reproduces it exactly at the P values used to fit (more of them than the combination has
terms), and the whole formula is then checked against direct interpretations at the last
three P values, which the fit did not use: each number to 1e-9 relative, and the time at the
inputs given. Only what holds at every verified P is printed, with its domain (the P values
tested, all powers of two). Where the shapes differ (a term present at some P only), a number
is no combination of the basis, or the interpretation needs data at some P, the formula in P
is refused with the reason, and the times per P are given instead.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import sympy as sp

from interp.analysis.setup import Setup
from interp.engine.predict import Hang, assumptions
from interp.engine.values import NeedValue
from interp.errors import InterpError
from interp.system.mapping import max_procs

P = sp.Symbol("P", positive=True, integer=True)
LOG2P = sp.log(P, 2)
# Simplest first: a combination is tried before any that adds a function after it.
BASIS: tuple[sp.Expr, ...] = (sp.Integer(1), P, LOG2P, P * LOG2P, 1 / P, LOG2P**2, P**2,
                              LOG2P / P)
VERIFY = 3  # P values held out of every fit and checked against direct interpretation
RTOL = 1e-9
P_MAX = 64  # default largest P interpreted
MAX_TERMS = 4  # the most basis functions one number may combine


class Mismatch(Exception):
    """The formulas at two P values have different shapes."""


@dataclass(frozen=True)
class Leaf:
    """A number of the formula, one value per P (the unified shape's slot)."""

    values: tuple[sp.Rational, ...]


@dataclass
class FormulaInP:
    """T(inputs, P), or the reason there is none and the times per P."""

    formula: sp.Expr | None  # in the program's inputs and P; None: no closed form found
    fit: list[int]  # P values the numbers were fitted at
    verified: list[int]  # P values it was checked at (not used in the fit)
    max_error: float  # largest relative difference at the verified P values
    reason: str = ""  # why there is no formula in P
    per_p: dict[int, sp.Expr] = field(default_factory=dict)  # T_P, one per P interpreted
    seconds: dict[int, float | None] = field(default_factory=dict)  # T_P at the inputs given
    notes: list[str] = field(default_factory=list)
    assumed: dict[int, list[sp.Basic]] = field(default_factory=dict)  # what T_P assumes, per P

    @property
    def domain(self) -> str:
        ps = self.fit + self.verified
        if not ps:
            return ""
        return (f"P a power of two, {min(ps)} <= P <= {max(ps)} (fitted at P = "
                f"{', '.join(map(str, self.fit))}; verified at P = "
                f"{', '.join(map(str, self.verified))})")

    def at(self, nprocs: int, given: dict[str, sp.Expr]) -> float | None:
        """The formula's time at P = ``nprocs`` and the inputs ``given`` (None: not numeric)."""
        if self.formula is None:
            return None
        v = at_p(self.formula, nprocs).xreplace(substitution(self.formula, given))
        return float(v) if v.is_number else None

    def covers(self, nprocs: int) -> bool:
        """``nprocs`` lies in the verified domain (a power of two between its ends)."""
        ps = self.fit + self.verified
        return (self.formula is not None and bool(ps) and min(ps) <= nprocs <= max(ps)
                and nprocs & (nprocs - 1) == 0)

    def to_json(self) -> dict:
        from interp.output.prediction_view import formula_text

        return {"formula": None if self.formula is None else formula_text(display(self.formula), 12),
                "domain": self.domain or None, "fitted_at": self.fit, "verified_at": self.verified,
                "max_relative_error": self.max_error if self.formula is not None else None,
                "reason": self.reason or None, "notes": self.notes,
                "per_P": {str(p): s for p, s in self.seconds.items()}}


def at_p(expr: sp.Expr, p: int) -> sp.Expr:
    """``expr`` at P = ``p``, a power of two: log2 P exactly ``k`` (SymPy leaves
    log(64)/log(2) as it is)."""
    k = p.bit_length() - 1
    return expr.xreplace({sp.log(P): k * sp.log(2)}).xreplace({P: p})


def display(expr: sp.Expr) -> sp.Expr:
    """The formula as printed: log(P)/log(2) written log2(P), fractions with long
    denominators as decimals."""
    shown = sp.expand(expr).xreplace({sp.log(P): sp.Symbol("log2(P)") * sp.log(2)})
    return shown.xreplace({r: sp.Float(r, 12) for r in shown.atoms(sp.Rational)
                           if r.q > 1000})


def p_values(setup: Setup, p_max: int | None) -> tuple[list[int], list[str]]:
    """Powers of two from 1 to ``p_max`` (default 64). A hypercube spec smaller than that is
    grown (e-cube routes do not depend on the cube's size); any other machine must hold them."""
    limit = max_procs(setup.sag)
    want = p_max or P_MAX
    notes = []
    if want > limit:
        if not hypercube(setup):
            if p_max:
                raise InterpError(f"--p-max {p_max}: {setup.sag.title} holds at most {limit} "
                                  "processes", hint=f"use --p-max {limit} or less, or raise "
                                  f"{setup.sag.nodes}.p.general.max_procs with --what-if")
            want = limit
        else:
            notes.append(_grown_note(limit, want))
    ps = [1 << k for k in range(int(math.log2(want)) + 1)]
    if len(ps) < VERIFY + 2:
        raise InterpError(f"{setup.sag.title} holds at most {limit} processes: a formula in P "
                          f"needs P up to {1 << (VERIFY + 1)} at least",
                          hint=f"raise {setup.sag.nodes}.p.general.max_procs with --what-if")
    return ps, notes


def hypercube(setup: Setup) -> bool:
    return setup.sag.param(f"{setup.sag.nodes}.cs.spec.topology").text == "hypercube"


def _grown_note(limit: int, want: int) -> str:
    return (f"the hypercube grown from {limit} to {want} nodes to derive the formula (same "
            "costs; e-cube routes)")


def holding(setup: Setup, p: int):
    """The machine, grown to hold ``p`` processes where it is a smaller hypercube (e-cube
    routes do not depend on the cube's size)."""
    sag = setup.sag
    if p > max_procs(sag) and hypercube(setup):
        sag = sag.with_values({f"{sag.nodes}.p.general.max_procs": p})
    return sag


class _NoFormula(Exception):
    """An interpretation that admits no closed form in P (the reason is the message)."""


def _interpret(setup: Setup, sag, p: int, strict: bool = True):
    """The prediction at P = ``p``; ``strict`` False: a P the user did not ask for (scaling's
    derivation), where the program's error means no formula, not the end (it is reported
    at the P values asked for, if there)."""
    try:
        return setup.predict(sag=sag, nprocs=p)
    except NeedValue as need:
        raise _NoFormula(f"at P = {p} the interpretation needs the value of "
                         f"{', '.join(need.names)} (a partner, trip count or branch that "
                         "depends on data): no closed form in P") from None
    except Hang as hang:
        raise _NoFormula(f"at P = {p} the program hangs: no closed form in P "
                         f"({hang.message})") from None
    except InterpError as e:
        if strict:
            raise
        raise _NoFormula(f"{e.message}: no closed form in P") from None


def formula_in_p(setup: Setup, p_max: int | None = None, strict: bool = True) -> FormulaInP:
    """Interpret at P = 1, 2, 4, …, ``p_max`` and recover T(inputs, P) (module docstring).
    ``strict`` False: an error of the program at one of them means no formula (_interpret)."""
    ps, notes = p_values(setup, p_max)
    sag = holding(setup, max(ps))
    per_p: dict[int, sp.Expr] = {}
    seconds: dict[int, float | None] = {}
    assumed: dict[int, list[sp.Basic]] = {}
    noted: dict[str, list[int]] = {}  # the engine's notes on the formula, and where
    for p in ps:
        try:
            pred = _interpret(setup, sag, p, strict)
        except _NoFormula as no:
            return _refused(str(no), per_p, seconds, notes)
        per_p[p] = pred.total
        seconds[p] = pred.seconds
        assumed[p] = assumptions(pred.scheduler, pred.processes)
        for n in pred.notes:
            if "depended on" in n or "link contention" in n:
                noted.setdefault(n, []).append(p)
    notes += [f"P = {', '.join(map(str, at))}: {n}" for n, at in noted.items()]
    trees = {p: _tree(_exact(per_p[p])) for p in ps}
    reason = ""
    for domain in _windows(ps):  # the longest run of P values first, then the larger P
        try:
            template = _unify([trees[p] for p in domain])
        except Mismatch as m:
            reason = reason or (f"the formula's shape changes with P between P = {domain[0]} "
                                f"and P = {domain[-1]} ({m})")
            continue
        fit, check = domain[:-VERIFY], domain[-VERIFY:]
        try:
            formula = _rebuild(template, domain, fit)
        except Mismatch as m:  # the longest run's reason (a shorter run fits fewer terms)
            reason = reason or f"over P = {domain[0]}..{domain[-1]}: {m}"
            continue
        error = _verify(formula, check, per_p, seconds, setup.given)
        if error is None:
            reason = (f"the formula fitted at P = {fit[0]}..{fit[-1]} differs from the "
                      f"interpretation at P = {', '.join(map(str, check))}")
            continue
        left = [p for p in ps if p not in domain]
        if left:
            notes.append(f"P = {', '.join(map(str, left))}: the formula has another shape "
                         "or other numbers there; not covered")
        return FormulaInP(formula, fit, check, error, "", per_p, seconds, notes, assumed)
    return _refused(f"no closed form in P found: {reason}", per_p, seconds, notes)


def verify_beyond(fp: FormulaInP, setup: Setup, upto: int) -> FormulaInP:
    """Grow the verified domain of ``fp``: interpret at the next powers of two past it, up to
    ``upto``, and check the formula at each as at the first three (every number to 1e-9
    relative). The domain ends before the first P where the formula and the interpretation
    differ, or where the machine holds no more processes (a hypercube is grown)."""
    if fp.formula is None:
        return fp
    top = max(fp.fit + fp.verified)
    wanted = [top << k for k in range(1, 64) if top << k <= upto]
    if not wanted:
        return fp
    limit = max_procs(setup.sag)
    if wanted[-1] > limit:
        if hypercube(setup):
            fp.notes.append(_grown_note(limit, wanted[-1]))
        else:
            fp.notes.append(f"{setup.sag.title} holds at most {limit} processes: the formula "
                            f"is not verified beyond P = {max(top, limit)}")
            wanted = [p for p in wanted if p <= limit]
    sag = holding(setup, max(wanted, default=top))
    for p in wanted:
        try:
            pred = _interpret(setup, sag, p, strict=False)
        except _NoFormula as no:
            fp.notes.append(f"{no}; the domain stops at P = {p // 2}")
            break
        fp.per_p[p] = pred.total
        fp.seconds[p] = pred.seconds
        fp.assumed[p] = assumptions(pred.scheduler, pred.processes)
        error = _verify(fp.formula, [p], fp.per_p, fp.seconds, setup.given)
        if error is None:
            why = [n for n in pred.notes if "depended on" in n or "link contention" in n]
            fp.notes.append(f"at P = {p} the formula differs from the interpretation"
                            + (f" ({'; '.join(why)})" if why else "")
                            + f": the domain stops at P = {p // 2}")
            break
        fp.verified.append(p)
        fp.max_error = max(fp.max_error, error)
    return fp


def _windows(ps: list[int]) -> list[list[int]]:
    """Runs of consecutive P values long enough to fit and verify, longest first."""
    n = len(ps)
    runs = [ps[i:j] for i in range(n) for j in range(i + VERIFY + 2, n + 1)]
    return sorted(runs, key=lambda r: (-len(r), -r[0]))


def _refused(reason: str, per_p, seconds, notes) -> FormulaInP:
    return FormulaInP(None, [], [], math.inf, reason, per_p, seconds, notes)


# ---- shapes ----------------------------------------------------------------------------------


def _exact(expr: sp.Expr) -> sp.Expr:
    """Floats as the exact decimals they print as (2.0 → 2, 7e-05 → 7/100000). A Max or Min
    is rebuilt unevaluated: its arguments were told apart when it was made, and SymPy's
    comparison of them again costs time exponential in the nesting (a host's receives in
    arrival order nest P deep)."""
    if isinstance(expr, sp.Float):
        return sp.Rational(repr(float(expr)))
    if not expr.args or not expr.has(sp.Float):
        return expr
    args = [_exact(a) for a in expr.args]
    if isinstance(expr, (sp.Max, sp.Min)):
        return expr.func(*args, evaluate=False)
    return expr.func(*args)


def _expand(e: sp.Expr) -> sp.Expr:
    """``sp.expand`` outside every Max and Min: their insides are expanded when ``_tree``
    reaches them, not rebuilt (and compared) at every level above."""
    hidden = {m: sp.Dummy() for m in e.atoms(sp.Max, sp.Min)}
    if not hidden:
        return sp.expand(e)
    return sp.expand(e.xreplace(hidden)).xreplace({d: m for m, d in hidden.items()})


def _tree(e: sp.Expr):
    """``e`` as a nested tuple whose numbers are :class:`Leaf` of one value: sums as
    (term skeleton → coefficient, rest), so that shapes compare across P by structure."""
    if isinstance(e, sp.Piecewise):
        return ("pw", tuple((_tree(c.expr), _tree(c.cond)) for c in e.args))
    if e.has(sp.Piecewise) and isinstance(e, (sp.Add, sp.Mul)):
        folded = sp.piecewise_fold(e)
        if isinstance(folded, sp.Piecewise):
            return _tree(folded)
    if e.is_number:
        return Leaf((sp.Rational(repr(float(e))) if not e.is_Rational else e,))
    if isinstance(e, sp.Symbol):
        return ("sym", e)
    if isinstance(e, sp.Add) or isinstance(e, sp.Mul) and any(isinstance(a, sp.Add) for a in e.args):
        return _sum(_expand(e))
    if isinstance(e, sp.Mul):
        c, rest = e.as_coeff_Mul()
        if c != 1:
            return _sum(e)
        return ("mul", tuple(sorted((_tree(a) for a in e.args), key=_order)))
    if isinstance(e, sp.Pow):
        return ("pow", _tree(e.base), _tree(e.exp))
    args = [_tree(a) for a in e.args]
    if isinstance(e, (sp.Max, sp.Min)):
        args.sort(key=_order)
    return ("fn", e.func, tuple(args))


def _sum(e: sp.Expr):
    """A sum (its constant always present, so that it may be 0 at some P)."""
    terms: dict = {}
    const = sp.Integer(0)
    for t in sp.Add.make_args(e):
        c, rest = t.as_coeff_Mul()
        if rest == 1:
            const += c
            continue
        r = _tree(rest)
        terms.setdefault(_skeleton(r), []).append((Leaf((c,)), r))
    items = [(("1",), 0, Leaf((const,)), None)]
    for skel, group in terms.items():
        group.sort(key=lambda cr: _order(cr[1]))
        items += [(skel, i, c, r) for i, (c, r) in enumerate(group)]
    return ("add", tuple(sorted(items, key=lambda it: (repr(it[0]), it[1]))))


def _skeleton(t):
    if isinstance(t, Leaf):
        return "#"
    if _is_sum(t):  # each term carries its skeleton already: not walked again (a sum in a
        return ("add", tuple(it[:2] for it in t[1]))  # term in a sum … doubles at each level)
    if isinstance(t, tuple):
        return tuple(_skeleton(x) for x in t)
    return t


def _is_sum(t) -> bool:
    return isinstance(t, tuple) and len(t) == 2 and t[0] == "add"


def _order(t):
    return (repr(_skeleton(t)), [float(v) for v in _leaves(t)])


def _leaves(t):
    if isinstance(t, Leaf):
        yield t.values[0]
    elif _is_sum(t):
        for _, _, c, r in t[1]:
            yield from _leaves(c)
            yield from _leaves(r)
    elif isinstance(t, tuple):
        for x in t:
            yield from _leaves(x)


def _unify(trees: Sequence):
    """One shape for all ``trees`` (one per P), each Leaf holding the values per P; a term of
    symbols alone missing at some P counts as 0 there."""
    first = trees[0]
    if isinstance(first, Leaf):
        if not all(isinstance(t, Leaf) for t in trees):
            raise Mismatch("a number at one P is an expression at another")
        return Leaf(tuple(t.values[0] for t in trees))
    if not isinstance(first, tuple):
        if any(t != first for t in trees):
            raise Mismatch(f"{first} differs")
        return first
    tag = first[0] if first and isinstance(first[0], str) else None
    if any(not isinstance(t, tuple) or len(t) != len(first) or tag and t[0] != tag
           for t in trees):
        raise Mismatch(f"{_describe(first)} is not at every P")
    if tag == "add":
        return _unify_sum(trees)
    return tuple(_unify([t[i] for t in trees]) for i in range(len(first)))


def _unify_sum(trees):
    keyed = [{(it[0], it[1]): it for it in t[1]} for t in trees]
    keys = sorted(set().union(*keyed), key=lambda k: (repr(k[0]), k[1]))
    items = []
    for key in keys:
        present = [k[key] for k in keyed if key in k]
        if len(present) < len(trees):
            if "#" in repr(key[0]) or key[1]:
                raise Mismatch(f"the term {_describe(present[0][3])} is not at every P")
            zero = (key[0], key[1], Leaf((sp.Integer(0),)), present[0][3])
            present = [k.get(key, zero) for k in keyed]
        rest = None if key[0] == ("1",) else _unify([it[3] for it in present])
        items.append((key[0], key[1], _unify([it[2] for it in present]), rest))
    return ("add", tuple(items))


def _describe(t) -> str:
    try:
        return str(_expr(t, lambda leaf: sp.Symbol("c")))
    except Exception:  # a shape fragment (a condition pair) that is no expression alone
        return repr(_skeleton(t))


def _expr(t, leaf_expr):
    """The SymPy expression of shape ``t``, each Leaf replaced by ``leaf_expr(leaf)``."""
    if isinstance(t, Leaf):
        return leaf_expr(t)
    kind = t[0]
    if kind == "sym":
        return t[1]
    if kind == "add":
        return sp.Add(*[leaf_expr(c) * (1 if r is None else _expr(r, leaf_expr))
                        for _, _, c, r in t[1]])
    if kind == "mul":
        return sp.Mul(*[_expr(a, leaf_expr) for a in t[1]])
    if kind == "pow":
        return sp.Pow(_expr(t[1], leaf_expr), _expr(t[2], leaf_expr))
    if kind == "pw":
        return sp.Piecewise(*[(_expr(e, leaf_expr), _expr(c, leaf_expr)) for e, c in t[1]])
    return t[1](*[_expr(a, leaf_expr) for a in t[2]])


# ---- fitting ---------------------------------------------------------------------------------


def _rebuild(template, domain: list[int], fit: list[int]) -> sp.Expr:
    index = [domain.index(p) for p in fit]

    def fitted(leaf: Leaf) -> sp.Expr:
        return fit_numbers(fit, [leaf.values[i] for i in index])

    return _expr(template, fitted)


def fit_numbers(ps: Sequence[int], values: Sequence[sp.Rational]) -> sp.Expr:
    """The simplest combination of :data:`BASIS` equal to ``values`` at ``ps`` (to 1e-9
    relative), with fewer terms than points so that the points over-determine it."""
    ys = np.array([float(v) for v in values])
    scale = float(np.max(np.abs(ys)))
    if scale == 0:
        return sp.Integer(0)
    if len(set(values)) == 1:
        return _snap(sp.Rational(values[0]))
    cols = {f: [at_p(f, p) for p in ps] for f in BASIS}
    for size in range(1, min(MAX_TERMS, len(ps) - 1) + 1):
        for combo in itertools.combinations(BASIS, size):
            a = np.array([[float(cols[f][i]) for f in combo] for i in range(len(ps))])
            coef, *_ = np.linalg.lstsq(a, ys, rcond=None)
            if np.max(np.abs(a @ coef - ys)) > RTOL * scale:
                continue
            expr = _exact_solve(combo, cols, ps, values)
            if expr is not None and all(abs(float(at_p(expr, p)) - float(v)) <= RTOL * scale
                                        for p, v in zip(ps, values)):
                return expr
    terms = min(MAX_TERMS, len(ps) - 1)
    few = (f" (fitted at {len(ps)} P values only: a larger --p-max fits more terms)"
           if terms < MAX_TERMS else "")
    raise Mismatch("a number of the formula, " + ", ".join(
        f"{float(v):.6g} at P = {p}" for p, v in zip(ps, values)) + ", is no combination of "
        + ", ".join(str(display(f)) for f in BASIS)
        + f" with at most {terms} term{'s' * (terms != 1)}{few}")


def _exact_solve(combo, cols, ps, values) -> sp.Expr | None:
    """The combination's coefficients, exactly, from its last |combo| points; each rounded to
    a simple fraction or to 12 significant digits (float noise of the engine's sums)."""
    rows = list(range(len(ps)))[-len(combo):]
    m = sp.Matrix([[cols[f][i] for f in combo] for i in rows])
    if m.det() == 0:
        return None
    coef = m.LUsolve(sp.Matrix([values[i] for i in rows]))
    return sp.Add(*[_snap(c) * f for c, f in zip(coef, combo)])


def _snap(c: sp.Rational) -> sp.Rational:
    if c == 0:
        return sp.Integer(0)
    simple = sp.Rational(c).limit_denominator(1000)
    if abs(float(simple - c)) <= 1e-12 * abs(float(c)):
        return simple
    return sp.Rational(f"{float(c):.12g}")


def _verify(formula, check, per_p, seconds, given) -> float | None:
    """The largest relative difference between the formula and the direct interpretation at
    the P values in ``check``, number by number and at the inputs given; None above 1e-9."""
    worst = 0.0
    for p in check:
        direct = _tree(_exact(per_p[p]))
        try:
            mine = _tree(_exact(at_p(formula, p)))
            both = _unify([mine, direct])
        except Mismatch:
            return None
        for leaf in _all_leaves(both):
            a, b = (float(v) for v in leaf.values)
            scale = max(abs(a), abs(b))
            if scale and abs(a - b) > RTOL * scale:
                return None
            worst = max(worst, abs(a - b) / scale if scale else 0.0)
        s = seconds.get(p)
        if s is not None:
            v = at_p(formula, p).xreplace(substitution(formula, given))
            if not v.is_number or abs(float(v) - s) > RTOL * abs(s):
                return None
            worst = max(worst, abs(float(v) - s) / abs(s) if s else 0.0)
    return worst


def _all_leaves(t):
    if isinstance(t, Leaf):
        yield t
    elif isinstance(t, tuple):
        for x in t:
            yield from _all_leaves(x)


def substitution(expr: sp.Expr, given) -> dict:
    """The given values of ``expr``'s inputs (P aside)."""
    from interp.analysis.setup import given_value

    out = {}
    for s in expr.free_symbols - {P}:
        v = given_value(given, s.name)
        if v is not None:
            out[s] = v
    return out
