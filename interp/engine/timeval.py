"""Times: Python floats while they are numbers, SymPy expressions once inputs are symbols.

Most of an interpretation is numeric; keeping those times as floats makes it fast, while a
time that depends on a symbolic input (``N``) becomes a SymPy expression and stays exact in
form. The ordering of two times (who waits for whom) is decided here, symbolically when it
can be decided for every admissible input.
"""

from __future__ import annotations

import sympy as sp

from interp.application.expr import as_sympy

Time = float | sp.Expr


def as_time(x) -> Time:
    """A float when ``x`` is a number, else the SymPy expression itself."""
    if isinstance(x, float):
        return x
    if isinstance(x, int):
        return float(x)
    if isinstance(x, sp.Basic) and x.is_number:
        return float(x)
    return x


def as_count(x):
    """An int when ``x`` is an integer number (trip counts, jumps), else as it is."""
    if isinstance(x, sp.Basic) and x.is_Integer:
        return int(x)
    return x


def is_symbolic(x) -> bool:
    return isinstance(x, sp.Basic) and not x.is_number


def is_earlier(a: Time, b: Time) -> bool:
    """a < b for every admissible input (False when undecided)."""
    if not is_symbolic(a) and not is_symbolic(b):
        return float(a) < float(b)
    d = _clean(sp.expand(as_sympy(a) - as_sympy(b)))
    return bool(d.is_negative)


MAX_FORMULA_OPS = 600  # beyond this a clock is not kept symbolic (the inputs get values)


class FormulaTooLarge(Exception):
    """The waiting structure depends on the inputs in too many ways to keep in closed form."""

    def __init__(self, symbols):
        super().__init__("formula too large")
        self.symbols = sorted(str(s) for s in symbols)


def _floor_bounds(d: sp.Expr) -> tuple[sp.Expr, sp.Expr] | None:
    """Lower and upper bounds of ``d`` with every ``c·floor(e)`` replaced by its range
    (``e − 1 < floor(e) ≤ e``, ``e ≤ ceiling(e) < e + 1``); None if ``d`` has other kinks."""
    lo, hi = [], []
    terms = list(sp.Add.make_args(d))
    # Pair c·floor(x + δ) with −c·floor(x): their sum lies in c·{⌊δ⌋, ⌊δ⌋ + 1} exactly, a far
    # tighter range than each bounded alone (node clocks differ by such pairs).
    paired = set()
    for i, t1 in enumerate(terms):
        c1, f1 = t1.as_coeff_Mul()
        if not isinstance(f1, sp.floor) or i in paired:
            continue
        for j in range(i + 1, len(terms)):
            c2, f2 = terms[j].as_coeff_Mul()
            if j in paired or not isinstance(f2, sp.floor) or abs(c1 + c2) > 1e-12 * abs(c1):
                continue
            delta = sp.expand(f1.args[0] - f2.args[0])
            if delta.is_number:
                base = sp.floor(delta)
                ends = (c1 * base, c1 * (base + 1))
                lo.append(min(ends))
                hi.append(max(ends))
                paired.update((i, j))
                break
    for k, term in enumerate(terms):
        if k in paired:
            continue
        c, rest = term.as_coeff_Mul()
        if isinstance(rest, (sp.floor, sp.ceiling)):
            e = rest.args[0]
            low, high = (e - 1, e) if isinstance(rest, sp.floor) else (e, e + 1)
            lo.append(c * (low if c > 0 else high))
            hi.append(c * (high if c > 0 else low))
        elif term.has(sp.floor, sp.ceiling, sp.Max, sp.Min, sp.Piecewise):
            return None
        else:
            lo.append(term)
            hi.append(term)
    return sp.expand(sp.Add(*lo)), sp.expand(sp.Add(*hi))


NEGLIGIBLE = 1e-18  # seconds: float round-off left after cancelling equal terms


def _clean(d: sp.Expr) -> sp.Expr:
    """Drop the round-off residue of float arithmetic (``1e-22*N``) from a difference."""
    if not isinstance(d, sp.Add):
        return d
    keep = [t for t in d.args
            if not (t.as_coeff_Mul()[0].is_Float and abs(t.as_coeff_Mul()[0]) < NEGLIGIBLE)]
    return sp.Add(*keep)


def later(a: Time, b: Time) -> Time:
    """max(a, b), decided when the sign of a − b is known for all admissible inputs."""
    if not is_symbolic(a) and not is_symbolic(b):
        return a if float(a) >= float(b) else b
    d = _clean(sp.expand(as_sympy(a) - as_sympy(b)))
    if d.is_number:
        return a if d >= 0 else b
    bounds = _floor_bounds(d)  # cheap and usually decisive; SymPy's assumptions are slow
    if bounds is not None:
        lo, hi = bounds
        if lo.is_number and lo >= 0:
            return a
        if hi.is_number and hi <= 0:
            return b
    if d.is_nonnegative:
        return a
    if d.is_nonpositive:
        return b
    if sp.count_ops(a) + sp.count_ops(b) > MAX_FORMULA_OPS:
        raise FormulaTooLarge(as_sympy(a).free_symbols | as_sympy(b).free_symbols)
    # evaluate=False: SymPy's own Max simplification (local zeros) is slow on these clocks
    return sp.Max(a, b, evaluate=False)


def latest(values: list[sp.Expr]) -> sp.Expr:
    out = values[0]
    for v in values[1:]:
        out = later(out, v)
    return out


_PROBES = ((7, 0.37), (1000, 2.5), (123457, 0.011), (31, 17.0))


def same(a: Time, b: Time) -> bool:
    """a == b for every admissible input. Exact when the difference is a number; otherwise
    tested at fixed probe points (integers for integer symbols), which separates the
    piecewise-polynomial clocks the engine builds without a slow symbolic simplify."""
    if not is_symbolic(a) and not is_symbolic(b):
        return abs(float(a) - float(b)) <= 1e-13 + 1e-12 * abs(float(a))
    a, b = as_sympy(a), as_sympy(b)
    d = a - b
    if d == 0:
        return True
    if d.is_number:
        return abs(complex(d)) <= 1e-14  # seconds: far below any cost in a spec
    symbols = sorted(d.free_symbols, key=lambda s: s.name)
    for k, (i, r) in enumerate(_PROBES):
        point = {s: sp.Integer(i + 13 * j) if s.is_integer else sp.Float(r + j)
                 for j, s in enumerate(symbols)}
        try:
            value = complex(d.subs(point).evalf())
            scale = abs(complex(a.subs(point).evalf())) + 1
        except (TypeError, ValueError):
            return False
        if abs(value) > 1e-12 * scale:
            return False
    return True
