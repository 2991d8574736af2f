"""The report's studies of one prediction: its time against each input that stays symbolic
(around the value given) and against P (up to the machine's maximum), and a what-if variant.

The curves against inputs are the formula evaluated; where the formula's stated assumptions do
not hold, and for every other P, the program is re-predicted, within a time budget.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import sympy as sp

from interp.analysis.setup import Setup
from interp.engine.predict import Prediction, assumptions
from interp.engine.whatif import Scenario
from interp.errors import InterpError
from interp.system.mapping import max_procs

SWEEP_POINTS = 41
EXACT_POINTS = 8


@dataclass
class Runner:
    """Re-predicts one configuration at other inputs or P, numerically, and keeps count of the
    time spent doing so (the budget)."""

    setup: Setup
    spent: float = 0.0
    last: float = 0.0

    def predict(self, nprocs: int, given: dict) -> Prediction:
        start = time.monotonic()
        try:
            return self.setup.predict(symbolic=False, nprocs=nprocs, given=given)
        finally:
            self.last = time.monotonic() - start
            self.spent += self.last


@dataclass
class InputCurve:
    """Time against one input, the others at their values (``fixed``)."""

    name: str
    value: float  # the value given
    points: list[tuple[float, float]]  # from the formula
    exact: list[tuple[float, float]]  # re-predicted where the formula's assumptions fail
    fixed: list[tuple[str, sp.Expr]]
    assumes: str = ""  # the assumptions on this input, when some points fall outside them


@dataclass
class NprocsCurve:
    points: list[tuple[int, float]]
    limit: int  # the machine's maximum P
    notes: list[str]


@dataclass
class WhatIf:
    statements: list[str]  # as the scenario describes them
    prediction: Prediction


@dataclass
class Studies:
    inputs: list[InputCurve]
    notes: list[str]
    nprocs: NprocsCurve | None
    what_if: WhatIf | None = None


def _points(v: float, integer: bool) -> list[float]:
    if v > 0:
        lo, hi = v / 10, v * 10
        if integer:
            lo = max(1.0, lo)
        xs = [lo * (hi / lo) ** (i / (SWEEP_POINTS - 1)) for i in range(SWEEP_POINTS)]
    else:
        xs = [v - 10 + 20 * i / (SWEEP_POINTS - 1) for i in range(SWEEP_POINTS)]
    if integer:
        xs = [float(round(x)) for x in xs]
    xs.append(v)
    return sorted(set(xs))


def _with_value(given: dict, name: str, value) -> dict:
    out = dict(given)
    keys = [k for k in given if k.split(".")[-1] == name] or [name]
    for k in keys:
        out[k] = value
    return out


def input_curves(pred: Prediction, runner: Runner | None,
                 budget: float) -> tuple[list[InputCurve], list[str]]:
    """Time against each input that stays symbolic in the formula, around its given value."""
    subs = pred.substitution()
    out, notes = [], []
    rels = assumptions(pred.scheduler, pred.processes)
    for sym in sorted(pred.total.free_symbols, key=lambda s: s.name):
        if sym not in subs:
            continue
        v = float(subs[sym])
        others = {s: val for s, val in subs.items() if s != sym}
        expr = pred.total.xreplace(others) if others else pred.total
        try:
            f = sp.lambdify([sym], expr, modules="math")
        except (NameError, SyntaxError, TypeError, KeyError):  # not expressible in math
            f = None
        xs, ys, bad = [], [], []
        for x in _points(v, bool(sym.is_integer)):
            value = sp.Integer(int(x)) if sym.is_integer else sp.Float(x)
            point = {sym: value, **others}
            if any(r.xreplace(point) == sp.false for r in rels):
                bad.append(x)
                continue
            try:
                y = float(f(int(x) if sym.is_integer else x)) if f else float(expr.subs(sym, value))
            except (ValueError, TypeError, ZeroDivisionError, OverflowError):
                continue
            if math.isfinite(y):
                xs.append(x)
                ys.append(y)
        exact = []
        if bad and runner is not None:
            step = max(1, math.ceil(len(bad) / EXACT_POINTS))
            for x in bad[::step]:
                if runner.spent > budget:
                    notes.append(f"{sym.name}: exact re-interpretation stopped (time budget)")
                    break
                value = sp.Integer(int(x)) if sym.is_integer else sp.Float(x)
                try:
                    r = runner.predict(pred.nprocs, _with_value(pred.given, sym.name, value))
                except InterpError:
                    continue
                if r.seconds is not None:
                    exact.append((x, r.seconds))
        conds = ", ".join(str(r) for r in rels if sym in r.free_symbols) if bad else ""
        out.append(InputCurve(sym.name, v, list(zip(xs, ys)), exact,
                              [(s.name, val) for s, val in others.items()], conds))
    fixed_inputs = sorted(k for k in pred.fixed if k.split(".")[-1] not in
                          {s.name for s in pred.total.free_symbols})
    if fixed_inputs:
        notes.append("not swept (their values decided the control flow, so they are not in the "
                     "formula): " + ", ".join(fixed_inputs))
    return out, notes


def nprocs_curve(pred: Prediction, runner: Runner | None, budget: float) -> NprocsCurve | None:
    """Re-predict at P = 1, 2, 4, ... up to the machine's maximum, within the time budget."""
    if runner is None:
        return None
    limit = max_procs(pred.machine)
    ps, p = [], 1
    while p <= limit:
        ps.append(p)
        p *= 2
    if pred.nprocs not in ps:
        ps.append(pred.nprocs)
        ps.sort()
    points, notes = [], []
    runner.last = 0.0
    for p in ps:
        if p == pred.nprocs and pred.seconds is not None:
            points.append((p, pred.seconds))
            continue
        if runner.spent + 2.5 * runner.last > budget:  # the next P costs about twice the last
            notes.append(f"stopped before P = {p} to keep the report quick (--budget "
                         f"{budget:g} s)")
            break
        try:
            r = runner.predict(p, dict(pred.given))
        except InterpError as err:
            notes.append(f"P = {p}: {err.message}")
            continue
        if r.seconds is not None:
            points.append((p, r.seconds))
    return NprocsCurve(points, limit, notes) if len(points) >= 2 else None


def what_if(pred: Prediction, texts: list[str]) -> WhatIf:
    """The prediction with the what-if statements ``texts`` applied."""
    scenario = Scenario.from_texts(texts)
    sag, nprocs, given = scenario.apply(pred.machine, pred.nprocs, pred.given, program=pred.aag)
    setup = Setup.of(pred)
    return WhatIf(scenario.describe(), setup.predict(sag=sag, nprocs=nprocs, given=given))


def studies(pred: Prediction, what_ifs: list[str] = (), budget: float = 20.0) -> Studies:
    """Everything the report re-predicts: the curves against inputs and P (within ``budget``
    seconds) and the what-if variant."""
    runner = Runner(Setup.of(pred))
    inputs, notes = input_curves(pred, runner, budget)
    nprocs = nprocs_curve(pred, runner, budget)
    return Studies(inputs, notes, nprocs, what_if(pred, list(what_ifs)) if what_ifs else None)
