"""Scaling in P (issue 16, part 3): time, speedup, efficiency and the P of best time over a
range of P, and the isoefficiency W(P), from the formula in P where one is derived and verified.

Each P takes its time from one of three sources, said in a column of its own:

* ``formula``: P lies in the formula's verified domain (a power of two between the smallest
  and the largest P it was fitted or checked at);
* ``interpreted``: a direct interpretation at P (no formula in P, P not a power of two, or P
  interpreted while deriving the formula but outside its domain);
* ``extrapolated``: a power of two beyond the verified domain, with the formula evaluated
  there all the same (only when asked; never presented as verified).

The domain grows by :func:`interp.analysis.formula_in_p.verify_beyond`: interpretations at
2·p_max, 4·p_max, … each checked like the first three verification points.

Speedup is T(P_min)/T(P) with P_min the smallest P of the range (T(1) when P = 1 is in it);
efficiency = speedup·P_min/P. The isoefficiency W(P) of an input W (the work, e.g. N) is the
smallest whole W at which the efficiency reaches E, found on the formula (a doubling bracket
then bisection, since floor(N/P) makes it a step function in W).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import sympy as sp

from interp.analysis.formula_in_p import (P, FormulaInP, at_p, formula_in_p, holding,
                                          hypercube, verify_beyond, substitution)
from interp.analysis.setup import Setup
from interp.engine.predict import symbol_for
from interp.errors import InterpError
from interp.system import check_nprocs, grown
from interp.system.mapping import max_procs

W_MAX = 2**62  # the largest work the isoefficiency search tries


@dataclass(frozen=True)
class Row:
    nprocs: int
    seconds: float
    source: str  # "formula" | "interpreted" | "extrapolated"


@dataclass
class Isoefficiency:
    """W(P): the smallest whole value of input ``work`` with efficiency >= ``efficiency``."""

    work: str
    efficiency: float
    values: dict[int, int | None]  # None: not reached for W up to W_MAX (or P = P_min)
    sources: dict[int, str]


@dataclass
class Scaling:
    rows: list[Row]
    formula: FormulaInP | None
    interpretations: int  # interpretations run (the formula's derivation and checks included)
    iso: Isoefficiency | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def reference(self) -> Row:
        return min(self.rows, key=lambda r: r.nprocs)

    def speedup(self, row: Row) -> float:
        return self.reference.seconds / row.seconds

    def efficiency(self, row: Row) -> float:
        return self.speedup(row) * self.reference.nprocs / row.nprocs

    @property
    def best(self) -> Row:
        """The P of least time (the smallest such P on a tie)."""
        return min(self.rows, key=lambda r: (r.seconds, r.nprocs))


def _power_of_two(p: int) -> bool:
    return p & (p - 1) == 0


def scaling(setup: Setup, nprocs: Sequence[int], p_max: int | None = None,
            verify_to: int | None = None, extrapolate: bool = False,
            iso: tuple[float, str] | None = None) -> Scaling:
    """Times over ``nprocs`` (module docstring). ``verify_to``: grow the verified domain up to
    this P (default 4·p_max, no further than the largest P asked for); ``extrapolate``: give the
    formula's value at powers of two beyond it, marked, instead of interpreting there;
    ``iso`` = (E, work input name)."""
    ps = sorted(dict.fromkeys(int(p) for p in nprocs))
    sag, note = grown(setup.sag, ps[-1])
    notes = [note] if note else []
    setup = setup.with_(sag=sag)
    _check_fit(setup, ps, extrapolate)
    fp = formula_in_p(setup, p_max, strict=False)  # the P values asked for say the errors
    count = len(fp.per_p)
    if fp.formula is not None:
        top = max(fp.fit + fp.verified)
        goal = verify_to if verify_to is not None else 4 * top
        goal = min(goal, max(p for p in ps if _power_of_two(p)) if any(map(_power_of_two, ps)) else top)
        before = len(fp.per_p)
        verify_beyond(fp, setup, goal)
        count += len(fp.per_p) - before
    else:
        notes.append(f"no formula in P: {fp.reason}; every P interpreted")
    rows = []
    for p in ps:
        row, interpreted = _row(fp, setup, p, extrapolate)
        rows.append(row)
        count += interpreted
    result = Scaling(rows, fp, count, notes=notes)
    if any(r.source == "extrapolated" for r in rows):
        result.notes.append(f"extrapolated: the formula evaluated beyond its verified domain "
                            f"({fp.domain}); not checked there")
    if iso is not None:
        result.iso = isoefficiency(fp, setup, ps, *iso, extrapolate=extrapolate)
    return result


def _check_fit(setup: Setup, ps: list[int], extrapolate: bool) -> None:
    """Refuse at once a P the machine cannot hold, before any interpretation: a hypercube is
    grown (formula_in_p.holding), and ``extrapolate`` may evaluate the formula at a power of
    two beyond its domain; any other P must fit the machine."""
    if hypercube(setup):
        return
    for p in ps:
        if p > max_procs(setup.sag) and not (extrapolate and _power_of_two(p)):
            try:
                check_nprocs(setup.sag, p)
            except InterpError as err:
                raise InterpError(f"--vary P: {err.message}", hint=err.hint) from None


def _row(fp: FormulaInP, setup: Setup, p: int, extrapolate: bool) -> tuple[Row, int]:
    """P's time and where it comes from, and whether an interpretation was run for it."""
    if fp.covers(p):
        return Row(p, _formula_seconds(fp, setup, p), "formula"), 0
    beyond = (fp.formula is not None and _power_of_two(p)
              and p > max(fp.fit + fp.verified))
    if beyond and extrapolate:
        return Row(p, _formula_seconds(fp, setup, p), "extrapolated"), 0
    if fp.seconds.get(p) is not None:
        return Row(p, fp.seconds[p], "interpreted"), 0
    if beyond:
        hint = "--extrapolate to evaluate the formula there (marked extrapolated)"
    else:
        hint = "a smaller P"
    sag = holding(setup, p)
    try:
        check_nprocs(sag, p)
    except InterpError as err:
        raise InterpError(f"P = {p} lies outside the formula in P's verified domain "
                          f"({fp.domain or 'no formula in P'}) and cannot be interpreted: "
                          f"{err.message}", hint=hint) from None
    return Row(p, setup.with_(nprocs=p, sag=sag).seconds(), "interpreted"), 1


def _formula_seconds(fp: FormulaInP, setup: Setup, p: int) -> float:
    v = fp.at(p, setup.given)
    if v is None:
        names = sorted(s.name for s in fp.formula.free_symbols - {P}
                       if s not in substitution(fp.formula, setup.given))
        raise InterpError("the scaling needs values for the inputs " + ", ".join(names),
                          hint=" ".join(f"--set {n}=VALUE" for n in names))
    return v


# ---- isoefficiency ---------------------------------------------------------------------------


def isoefficiency(fp: FormulaInP, setup: Setup, nprocs: Sequence[int], efficiency: float,
                  work: str, extrapolate: bool = False) -> Isoefficiency:
    """W(P) for each P of ``nprocs`` (module docstring), on the formula in P: at P in its
    verified domain, beyond it only with ``extrapolate`` (marked). P_min's own T(W) is the
    formula there, or its interpretation's formula in W when P_min is outside the domain."""
    if not 0 < efficiency <= 1:
        raise InterpError(f"--isoefficiency {efficiency:g}: an efficiency lies in (0, 1]",
                          hint="e.g. --isoefficiency 0.7")
    if fp.formula is None:
        raise InterpError(f"the isoefficiency needs a formula in P: {fp.reason}",
                          hint="it is solved from the formula; there is none for this program")
    name = work.upper()
    w = next((s for s in fp.formula.free_symbols if s.name == name), None)
    if w is None:
        known = symbol_for(setup.aag, name) if name else None
        why = ("its value was needed by the interpretation (the formula has its number)"
               if known is not None else "the program has no such input")
        raise InterpError(f"--work {work}: the formula in P has no symbol {name}: {why}",
                          hint="name an input the formula in P keeps as a symbol: " + ", ".join(
                              sorted(s.name for s in fp.formula.free_symbols - {P})))
    given = {k: v for k, v in setup.given.items() if k.split(".")[-1] != name}
    ps = sorted(dict.fromkeys(int(p) for p in nprocs))
    p0 = ps[0]
    t0 = _time_in(fp, p0, given, w, extrapolate)
    if t0 is None:
        raise InterpError(f"the isoefficiency needs the time at P = {p0} as a formula in {name}: "
                          f"P = {p0} lies outside the formula's verified domain ({fp.domain})",
                          hint="start the P range inside the domain")
    values: dict[int, int | None] = {}
    sources: dict[int, str] = {}
    for p in ps:
        if p == p0:
            continue  # E = 1 there whatever W
        t = _time_in(fp, p, given, w, extrapolate)
        if t is None:
            continue
        sources[p] = "formula" if fp.covers(p) else "extrapolated"
        values[p] = _smallest_w(lambda x, t=t, p=p: t0(x) * p0 / (p * t(x)), efficiency)
    return Isoefficiency(name, efficiency, values, sources)


def _time_in(fp: FormulaInP, p: int, given, w: sp.Symbol, extrapolate: bool):
    """T(W) at P = ``p`` as a Python function of the work, or None where not covered."""
    if fp.covers(p) or (extrapolate and _power_of_two(p) and p > max(fp.fit + fp.verified)):
        expr = at_p(fp.formula, p)
    elif p in fp.per_p:
        expr = fp.per_p[p]
    else:
        return None
    subs = {s: v for s, v in substitution(expr, given).items() if s != w}
    expr = expr.xreplace(subs)
    ws = [s for s in expr.free_symbols if s.name == w.name]
    if expr.free_symbols - set(ws):
        names = sorted(s.name for s in expr.free_symbols - set(ws))
        raise InterpError("the isoefficiency needs values for the inputs " + ", ".join(names),
                          hint=" ".join(f"--set {n}=VALUE" for n in names))
    f = sp.lambdify(ws, expr, modules="math")
    return (lambda x: float(f(*(x for _ in ws)))) if ws else (lambda x: float(expr))


def _smallest_w(eff, target: float) -> int | None:
    """The smallest whole W >= 1 with eff(W) >= target on the doubling bracket."""
    if eff(1) >= target:
        return 1
    lo, hi = 1, 2
    while eff(hi) < target:
        lo, hi = hi, hi * 2
        if hi > W_MAX:
            return None
    while hi - lo > 1:  # eff(lo) < target <= eff(hi)
        mid = (lo + hi) // 2
        if eff(mid) >= target:
            hi = mid
        else:
            lo = mid
    return hi

