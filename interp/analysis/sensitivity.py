"""Which machine parameters and inputs the predicted time is most sensitive to.

The elasticity ``∂ln T / ∂ln p`` of the time T with respect to a value p: a 1% change of p
changes T by about ``elasticity`` %. Computed

* for the machine parameters the prediction actually reads (recorded while interpreting; a
  clock counts when a value in clocks was read), by central finite differences on the SAG,
  ``sag.scaled({path: 1 ± h})``, re-predicting numerically (``predict(..., symbolic=False)``;
  a forward difference alone where the elasticity is below 1e-3);
  parameters that are zero, discrete (sizes, counts) or named choices are left out. Recording
  what is read is what keeps this fast: a spec has over a hundred values and a program reads a
  third of them, nearly all of which move the time (screening groups of them with one large
  change first was measured to cost more interpretations than it saved);
* for the program inputs, by central finite differences on the formula (``Prediction.total``);
  inputs whose value the interpretation needed (so the formula kept no symbol for them) are
  re-predicted with the value changed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, fields
from functools import cached_property

import sympy as sp

from interp.analysis.setup import Setup, missing_inputs
from interp.engine.predict import Prediction, symbol_for
from interp.errors import InterpError
from interp.system import SAG, units
from interp.system.mapping import max_procs

STEP = 0.01  # relative change for the finite differences
KINDS = ("time", "frequency", "fraction")  # continuous machine values
CENTRAL = 1e-3  # elasticities below this keep their forward difference (one interpretation)


class _RecordingSAG(SAG):
    """A SAG that remembers which parameters were read (every read goes through ``param``)."""

    @cached_property
    def used(self) -> set[str]:
        return set()

    def param(self, path: str):
        p = super().param(path)
        self.used.add(p.path)
        return p


def used_parameters(setup: Setup) -> tuple[float, list[str]]:
    """The numeric prediction's time and the machine parameters it read (clocks included)."""
    sag = setup.sag
    rec = _RecordingSAG(**{f.name: getattr(sag, f.name) for f in fields(SAG)})
    seconds = setup.with_(sag=rec).seconds()
    used = set(rec.used)
    for path in list(used):
        p = sag.param(path)
        if p.kind == "time" and (p.min.dim == units.CLOCKS or p.max.dim == units.CLOCKS
                                 or any(s.name == "Clk" for s in p.min.expr.free_symbols
                                        | p.max.expr.free_symbols)):
            clock = f"{p.sau}.p.general.clock"
            if sag.has(clock):
                used.add(clock)
    return seconds, sorted(used)


@dataclass
class Entry:
    name: str  # a parameter path or an input name
    kind: str  # "machine" | "input"
    what: str  # the parameter's kind (time, frequency, ...) or the input's type
    value: str  # its value, for people
    elasticity: float
    seconds: float  # change of T for a 1% increase of the value

    def sentence(self) -> str:
        """e.g. "a 1% faster node.cs.dynamic.per_hop saves 0.12% (2.6 ms)"."""
        e, dt = self.elasticity, self.seconds
        if self.kind == "machine" and self.what == "time":
            change, pct, amount = "faster", -e, -dt  # a 1% smaller time
        elif self.kind == "machine" and self.what == "frequency":
            change, pct, amount = "faster", e, dt  # a 1% higher clock
        else:
            change, pct, amount = "larger", e, dt
        verb = "saves" if pct < 0 else "costs"
        return (f"a 1% {change} {self.name} {verb} {abs(pct):.3g}% ({_seconds(abs(amount))})")

    def to_json(self) -> dict:
        return {"name": self.name, "kind": self.kind, "what": self.what, "value": self.value,
                "elasticity": self.elasticity, "seconds_per_percent": self.seconds,
                "sentence": self.sentence()}


@dataclass
class Sensitivity:
    seconds: float
    entries: list[Entry]  # ranked by |elasticity|, largest first
    nprocs: int
    machine: str
    bound: str
    inputs: dict
    notes: list[str] = field(default_factory=list)
    interpretations: int = 0

    def to_json(self) -> dict:
        return {"total_seconds": self.seconds, "machine": self.machine, "nprocs": self.nprocs,
                "bound": self.bound, "inputs": self.inputs, "step": STEP,
                "entries": [e.to_json() for e in self.entries], "notes": self.notes}


def _seconds(value: float) -> str:
    if value == 0:
        return "0 s"
    for unit, scale in (("s", 1), ("ms", 1e-3), ("us", 1e-6), ("ns", 1e-9)):
        if abs(value) >= scale:
            return f"{value / scale:.3g} {unit}"
    return f"{value:.3g} s"


class _Analysis:
    def __init__(self, setup: Setup, step: float):
        self.setup, self.step = setup, step
        self.count = 0
        self.notes: list[str] = []

    def _time(self, sag: SAG) -> float:
        self.count += 1
        return self.setup.with_(sag=sag).seconds()

    def machine(self) -> tuple[float, list[Entry]]:
        sag, bound = self.setup.sag, self.setup.bound
        t0, used = used_parameters(self.setup)
        self.count += 1
        candidates, skipped = [], 0
        for path in used:
            p = sag.param(path)
            if p.is_text or p.kind not in KINDS:
                skipped += not p.is_text
                continue
            if sag.value(path, bound) == 0:
                continue
            candidates.append(path)
        if skipped:
            self.notes.append(f"{skipped} discrete machine parameters (sizes, counts) the "
                              "prediction reads are not differentiated")
        entries = []
        for path in candidates:
            e = self._elasticity(path, t0)
            if e is None or abs(e) < 1e-12:
                continue
            p = sag.param(path)
            entries.append(Entry(path, "machine", p.kind, _param_text(sag, path, bound), e,
                                 e * t0 / 100))
        return t0, entries

    def _elasticity(self, path: str, t0: float) -> float | None:
        """A forward difference first; a central one where the effect is not negligible (a
        backward one where the value cannot grow, e.g. a fraction at 1)."""
        h, sag = self.step, self.setup.sag
        try:
            up = self._time(sag.scaled({path: 1 + h}))
        except InterpError:
            up = None
        if up is not None:
            forward = (up - t0) / (h * t0)
            if abs(forward) < CENTRAL:
                return forward
        down = self._time(sag.scaled({path: 1 - h}))
        if up is None:
            return (t0 - down) / (h * t0)
        return (up - down) / (2 * h * t0)

    def inputs(self, t0: float) -> list[Entry]:
        setup = self.setup
        if not setup.given:
            return []
        self.count += 1
        pred = setup.predict(symbolic=True)
        if pred.seconds is None:
            raise missing_inputs(pred, "sensitivity")
        entries = []
        subs = pred.substitution()
        by_name = {s.name: s for s in pred.total.free_symbols}
        fixed = {k.split(".")[-1] for k in pred.fixed}
        for key, value in setup.given.items():
            name = key.split(".")[-1]
            x = float(value)
            ftype = "INTEGER" if symbol_for(setup.aag, name).is_integer else "REAL"
            if name in by_name:
                e = self._formula_elasticity(pred, by_name[name], subs, x)
            elif name in fixed:
                e = self._repredicted_elasticity(key, value, t0)
            else:
                e = 0.0
            entries.append(Entry(key, "input", ftype, f"{value}", e, e * t0 / 100))
        return entries

    def nprocs(self, t0: float) -> list[Entry]:
        """P's elasticity: P is whole (a power of two on a hypercube), so a log difference of
        the time at P/2 and 2P (one side only at the ends of the machine's range)."""
        p, limit = self.setup.nprocs, max_procs(self.setup.sag)
        lo, hi = (p // 2 if p % 2 == 0 and p > 1 else p), (2 * p if 2 * p <= limit else p)
        if lo == hi:
            return []
        times = {}
        for q in (lo, hi):
            if q != p:
                self.count += 1
                try:
                    times[q] = self.setup.seconds(nprocs=q)
                except InterpError as err:  # a program written for one P only
                    self.notes.append(f"no elasticity in P: at P = {q}, {err.message}")
                    return []
        times[p] = t0
        e = math.log(times[hi] / times[lo]) / math.log(hi / lo)
        self.notes.append(f"P's elasticity is the log difference of the time at P = {lo} and "
                          f"P = {hi} (P is a whole number)")
        return [Entry("P", "input", "processes", str(p), e, e * t0 / 100)]

    def _formula_elasticity(self, pred: Prediction, sym: sp.Symbol, subs: dict, x: float) -> float:
        h = self.step
        rest = {s: v for s, v in subs.items() if s != sym}
        expr = pred.total.subs(rest)
        t0 = float(expr.subs(sym, x))
        up, down = (float(expr.subs(sym, sp.Float(x * (1 + s * h)))) for s in (1, -1))
        return (up - down) / (2 * h * t0)

    def _repredicted_elasticity(self, key: str, value: sp.Expr, t0: float) -> float:
        x = float(value)
        if value.is_Integer:
            d = max(1, round(self.step * abs(x)))
            lo = x - d if x - d >= 1 else x
            values = (sp.Integer(int(x + d)), sp.Integer(int(lo)))
            dx = (x + d) - lo
        else:
            values = (sp.Float(x * (1 + self.step)), sp.Float(x * (1 - self.step)))
            dx = 2 * self.step * x
        times = []
        for v in values:
            self.count += 1
            times.append(self.setup.with_(given={**self.setup.given, key: v}).seconds())
        return (times[0] - times[1]) / dx * x / t0


def _param_text(sag: SAG, path: str, bound: str) -> str:
    p = sag.param(path)
    v = float(sag.value(path, bound))
    if p.kind == "time":
        return _seconds(v)
    if p.kind == "frequency":
        return f"{v / 1e6:g} MHz"
    return f"{v:g}"


def sensitivity(setup: Setup, step: float = STEP) -> Sensitivity:
    """Elasticities of the predicted time for ``setup``, ranked by magnitude."""
    if not 0 < step < 0.5:
        raise InterpError(f"the finite-difference step must lie in (0, 0.5), not {step}")
    a = _Analysis(setup, step)
    t0, entries = a.machine()
    if t0 <= 0:
        raise InterpError("the predicted time is 0: there is nothing to be sensitive to")
    entries += a.inputs(t0)
    entries += a.nprocs(t0)
    entries.sort(key=lambda e: (-abs(e.elasticity), e.name))
    inputs = {k: int(v) if v.is_Integer else float(v) for k, v in setup.given.items()}
    return Sensitivity(t0, entries, setup.nprocs, setup.sag.name, setup.bound, inputs,
                       a.notes, a.count)
