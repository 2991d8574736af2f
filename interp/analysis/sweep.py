"""Parameter sweeps: predictions over ranges of inputs and node counts.

``--vary N=1e3..1e7:log:20 --vary P=1,2,4,8,16``: the product of the ranges. For each P the
program is interpreted once with the varied inputs kept as symbols, and the formula is
evaluated over all their values at once (``sympy.lambdify`` with NumPy; ``floor`` becomes
``numpy.floor``). Where that cannot stand for an interpretation, points are re-interpreted:

* an input whose value the interpretation needed (a branch, a trip count that must be
  unrolled; ``Prediction.fixed``) is fixed at each of its values in turn, and the rest is again
  evaluated from one formula per value;
* points where the formula's stated assumptions (e.g. ``NITER >= 4``) do not hold are
  interpreted with the inputs of those assumptions fixed, the same way.

So every number equals the prediction for that point, and the cost grows with the number of
P values (and of values an interpretation needs), not with the number of points.
"""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import sympy as sp

from interp.analysis.formula_in_p import FormulaInP, at_p, substitution
from interp.analysis.setup import Setup, missing_inputs
from interp.engine.predict import Prediction, assumptions, symbol_for
from interp.engine.whatif import input_names, program_variables
from interp.errors import InterpError
from interp.system import check_nprocs, grown, units
from interp.system.expr import ExprError, parse_quantity

_RANGE = re.compile(r"^\s*(?P<a>[^:]+?)\s*\.\.\s*(?P<b>[^:]+?)\s*(?::\s*(?P<kind>[A-Za-z0-9]*)\s*"
                    r"(?::\s*(?P<n>[^:]*?)\s*)?)?$")
EXAMPLES = ("e.g. --vary N=1e3..1e7:log:20, --vary N=1e3..1e5:lin:5, --vary P=4..65536:log2 or "
            "--vary P=1,2,4,8,16")


@dataclass(frozen=True)
class Axis:
    """One ``--vary``: a name (``P`` or a program input) and its values, in order."""

    name: str
    values: tuple[float, ...]
    scale: str  # "log" | "lin" | "log2" | "list"


def _fail(text: str, message: str) -> InterpError:
    return InterpError(f"--vary {text}: {message}", hint=EXAMPLES)


def _number(text: str, item: str, whole: str) -> float:
    try:
        q = parse_quantity(item, {})
    except ExprError as err:
        raise _fail(whole, f"'{item.strip()}' is not a number ({err.message})") from None
    if q.dim != units.NONE or not q.expr.is_number:
        raise _fail(whole, f"'{item.strip()}' is not a plain number")
    return float(q.expr)


def parse_range(spec: str, whole: str | None = None) -> tuple[tuple[float, ...], str]:
    """``a..b:log:n`` (n values evenly spaced in log), ``a..b:lin:n``, ``a..b:log2`` (the
    powers of two from a to b) or ``v1,v2,...``."""
    whole = whole or spec
    if not spec.strip():
        raise _fail(whole, "the range is empty")
    if ".." in spec:
        m = _RANGE.match(spec)
        if m and (m.group("kind") or "").lower() == "log2" and m.group("n") is None:
            return _powers_of_two(spec, m, whole), "log2"
        if not m or not m.group("kind") or m.group("n") is None:
            raise _fail(whole, "write a range as a..b:log:n, a..b:lin:n or a..b:log2")
        kind = m.group("kind").lower()
        if kind not in ("log", "lin"):
            raise _fail(whole, f"unknown spacing '{m.group('kind')}': use log, lin or log2")
        if not re.fullmatch(r"\d+", m.group("n")):
            raise _fail(whole, f"the number of values must be a whole number, not '{m.group('n')}'")
        n = int(m.group("n"))
        a, b = _number(spec, m.group("a"), whole), _number(spec, m.group("b"), whole)
        if n < 1:
            raise _fail(whole, "the range is empty (0 values)")
        if n == 1 and a != b:
            raise _fail(whole, f"one value cannot run from {a:g} to {b:g}: give n >= 2, or the one value")
        if kind == "log":
            if a <= 0 or b <= 0:
                raise _fail(whole, "a log range needs positive ends")
            values = np.geomspace(a, b, n)
            values[0], values[-1] = a, b  # exact ends
        else:
            values = np.linspace(a, b, n)
        return tuple(float(v) for v in values), kind
    items = spec.split(",")
    if any(not i.strip() for i in items):
        raise _fail(whole, "an empty value in the list")
    return tuple(_number(spec, i, whole) for i in items), "list"


def _powers_of_two(spec: str, m: re.Match, whole: str) -> tuple[float, ...]:
    a, b = _number(spec, m.group("a"), whole), _number(spec, m.group("b"), whole)
    if a < 1 or b < a:
        raise _fail(whole, "a..b:log2 needs 1 <= a <= b")
    values = [float(1 << k) for k in range(int(math.log2(b)) + 1) if a <= 1 << k <= b]
    if not values:
        raise _fail(whole, f"no power of two lies between {a:g} and {b:g}")
    return tuple(values)


def parse_vary(text: str) -> Axis:
    """``NAME=RANGE`` as given to ``--vary``."""
    name, sep, spec = text.partition("=")
    name = name.strip()
    if not sep or not re.fullmatch(r"[A-Za-z][A-Za-z0-9_$]*(\.[A-Za-z][A-Za-z0-9_$]*)?", name):
        raise _fail(text, "expected NAME=RANGE")
    name = "P" if name in ("P", "p") else name.upper()
    values, scale = parse_range(spec, text)
    if name == "P":
        if any(v < 1 or v != int(v) for v in values):
            raise _fail(text, "P must be whole numbers of at least 1")
        values = tuple(dict.fromkeys(int(v) for v in values))
    return Axis(name, values, scale)


@dataclass
class SweepResult:
    """The predictions of a sweep: one row per (P, point), P outermost."""

    order: list[str]  # the varied names in --vary order (may include "P")
    inputs: list[str]  # the varied inputs (not P), in --vary order
    constants: dict[str, float | int]  # the other inputs' values
    points: dict[str, np.ndarray]  # per varied input, one value per point
    nprocs: list[int]
    seconds: np.ndarray  # (len(nprocs), points)
    seconds_min: np.ndarray | None = None
    seconds_max: np.ndarray | None = None
    scales: dict[str, str] = field(default_factory=dict)
    integer: dict[str, bool] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    interpretations: int = 0  # symbolic and numeric interpretations run
    saved: int = 0  # P values taken from the formula in P instead of an interpretation

    @property
    def npoints(self) -> int:
        return self.seconds.shape[1]

    @property
    def speedup(self) -> np.ndarray:
        """Time at the smallest P over time at each P, for equal other inputs."""
        ref = int(np.argmin(self.nprocs))
        return self.seconds[ref][None, :] / self.seconds

    @property
    def efficiency(self) -> np.ndarray:
        """Speedup × P_min / P (with P_min = 1 the usual speedup / P)."""
        p = np.array(self.nprocs, dtype=float)[:, None]
        return self.speedup * min(self.nprocs) / p

    def columns(self) -> list[str]:
        """The CSV contract: inputs…, P, seconds, speedup, efficiency (then seconds_min,
        seconds_max with a band)."""
        cols = self.inputs + [c for c in self.constants if c not in self.inputs]
        cols += ["P", "seconds", "speedup", "efficiency"]
        if self.seconds_min is not None:
            cols += ["seconds_min", "seconds_max"]
        return cols

    def rows(self) -> list[dict]:
        out = []
        speedup, eff = self.speedup, self.efficiency
        for i, p in enumerate(self.nprocs):
            for j in range(self.npoints):
                row = {n: self._value(n, self.points[n][j]) for n in self.inputs}
                row.update({n: v for n, v in self.constants.items() if n not in row})
                row.update(P=p, seconds=float(self.seconds[i, j]), speedup=float(speedup[i, j]),
                           efficiency=float(eff[i, j]))
                if self.seconds_min is not None:
                    row.update(seconds_min=float(self.seconds_min[i, j]),
                               seconds_max=float(self.seconds_max[i, j]))
                out.append(row)
        return out

    def _value(self, name: str, v):
        return int(v) if self.integer.get(name) else float(v)


ProgressFn = Callable[[int, int, str], None]
"""``progress(done, total, label)``: called before each (P, bound) with what comes next, and
once at the end with ``done == total``."""


class _Sweeper:
    def __init__(self, setup: Setup, axes: Sequence[Axis], band: bool, progress: ProgressFn | None,
                 formula: FormulaInP | None = None):
        self.setup = setup
        self.formula = formula
        self.saved = 0
        self.progress = progress
        self.band = band
        self.notes: list[str] = []
        self.count = 0
        names = [a.name for a in axes]
        for n in names:
            if names.count(n) > 1:
                raise InterpError(f"--vary {n} is given twice", hint="give each name once")
        variables = program_variables(setup.aag)
        self.axes = []
        for a in axes:
            if a.name != "P" and a.name not in variables:
                close = difflib.get_close_matches(a.name, input_names(setup.aag) + list(variables), n=1)
                raise InterpError(f"--vary {a.name}: the program has no variable {a.name}",
                                  hint=f"did you mean {close[0]}?" if close else
                                  "name an external input (see `interp graph`)")
            self.axes.append(a)
        self.order = names
        p_axis = next((a for a in axes if a.name == "P"), None)
        self.nprocs = list(p_axis.values) if p_axis else [setup.nprocs]
        sag, note = grown(setup.sag, max(self.nprocs))  # (a cluster's procs: as scaling does)
        if note:
            setup = self.setup = setup.with_(sag=sag)
            self.notes.append(note)
        for p in self.nprocs:
            check_nprocs(setup.sag, p)
        self.in_axes = [a for a in self.axes if a.name != "P"]
        self.integer = {a.name: symbol_for(setup.aag, a.name.split(".")[-1]).is_integer is True
                        for a in self.in_axes}
        values = {}
        for a in self.in_axes:
            vals = a.values
            if self.integer[a.name]:
                rounded = tuple(dict.fromkeys(int(round(v)) for v in vals))
                if len(rounded) != len(vals) or any(r != v for r, v in zip(rounded, vals)):
                    self.notes.append(f"{a.name} is an INTEGER input: its values were rounded "
                                      f"({len(rounded)} distinct values)")
                if any(v < 1 for v in rounded):
                    raise InterpError(f"--vary {a.name}: an INTEGER input (a size or count) must be "
                                      "at least 1", hint=EXAMPLES)
                vals = rounded
            values[a.name] = np.array(vals, dtype=float)
        if values:
            mesh = np.meshgrid(*values.values(), indexing="ij")
            self.grid = {n: m.ravel() for n, m in zip(values, mesh)}
        else:
            self.grid = {}
        self.npoints = int(np.prod([len(v) for v in values.values()])) if values else 1
        varied = {a.name.split(".")[-1] for a in self.in_axes}
        self.base = {k: v for k, v in setup.given.items() if k.split(".")[-1] not in varied}

    def run(self) -> SweepResult:
        bounds = list(dict.fromkeys([self.setup.bound] + (["min", "max"] if self.band else [])))
        total = len(bounds) * len(self.nprocs)
        results = {}
        done = 0
        for bound in bounds:
            table = np.empty((len(self.nprocs), self.npoints))
            for i, p in enumerate(self.nprocs):
                if self.progress:  # what is being interpreted now, and how much is done
                    self.progress(done, total, f"P = {p}" + (f", bound = {bound}" if self.band else ""))
                out = np.full(self.npoints, np.nan)
                if bound != self.setup.bound or not self._from_formula(p, out):
                    setup = self.setup.with_(nprocs=p, bound=bound)
                    self._solve(setup, np.arange(self.npoints), {}, [a.name for a in self.in_axes],
                                out)
                table[i] = out
                done += 1
            results[bound] = table
        if self.progress:
            self.progress(done, total, "done")
        return SweepResult(
            order=self.order, inputs=[a.name for a in self.in_axes],
            constants={k: (int(v) if v.is_Integer else float(v)) for k, v in self.base.items()},
            points=dict(self.grid), nprocs=self.nprocs, seconds=results[self.setup.bound],
            seconds_min=results.get("min") if self.band else None,
            seconds_max=results.get("max") if self.band else None,
            scales={a.name: a.scale for a in self.axes}, integer=self.integer,
            notes=self.notes, interpretations=self.count, saved=self.saved)

    # --- one block of points: one formula, or split by the values it needed ---------------------

    def _given(self, values: dict) -> dict:
        given = dict(self.base)
        for name, v in values.items():
            given[name] = _value(v, self.integer.get(name, False))
        return given

    def _solve(self, setup: Setup, idx: np.ndarray, fixed: dict, free: list[str], out: np.ndarray):
        if not free:
            self.count += 1
            out[idx] = setup.with_(given=self._given(fixed)).seconds()
            return
        rep = {n: self.grid[n][idx].max() for n in free}  # the largest value: loops run long
        self.count += 1
        pred = setup.with_(given=self._given({**fixed, **rep})).predict(symbolic=True)
        needed_now = {k.split(".")[-1] for k in pred.fixed}
        needed = [n for n in free if n.split(".")[-1] in needed_now]
        if needed:
            self.notes.append(_needed_note(needed, setup.nprocs))
            rest = [n for n in free if n not in needed]
            for combo, sub in self._groups(idx, needed):
                self._solve(setup, sub, {**fixed, **combo}, rest, out)
            return
        values, ok, names_b = self._evaluate(pred, idx, free)
        out[idx[ok]] = values[ok]
        bad = idx[~ok]
        if bad.size:
            names_b = [n for n in free if n in names_b] or list(free)
            rest = [n for n in free if n not in names_b]
            for combo, sub in self._groups(bad, names_b):
                self._solve(setup, sub, {**fixed, **combo}, rest, out)

    def _groups(self, idx: np.ndarray, names: list[str]):
        cols = np.stack([self.grid[n][idx] for n in names], axis=1)
        keys, inverse = np.unique(cols, axis=0, return_inverse=True)
        inverse = inverse.reshape(-1)
        for k, key in enumerate(keys):
            yield {n: float(v) for n, v in zip(names, key)}, idx[inverse == k]

    def _evaluate(self, pred: Prediction, idx: np.ndarray, free: list[str]):
        return evaluate(pred, {n: self.grid[n][idx] for n in free})

    def _from_formula(self, p: int, out: np.ndarray) -> bool:
        """The times at P = ``p`` from the formula in P where it covers ``p``: points where
        what the interpretation at ``p`` assumed does not hold are interpreted as usual."""
        fp = self.formula
        if fp is None or not fp.covers(p) or p not in fp.assumed:
            return False
        free = [a.name for a in self.in_axes]
        expr = at_p(fp.formula, p)
        subs = substitution(expr, self.base)
        columns = {n: self.grid[n] for n in free}
        try:
            values, ok, names = evaluate_formula(expr, subs, fp.assumed[p], columns)
        except _Missing as m:
            raise InterpError("the sweep needs values for the inputs " + ", ".join(m.names),
                              hint=" ".join(f"--set {n}=VALUE" for n in m.names)) from None
        out[ok] = values[ok]
        self.saved += 1
        bad = np.arange(self.npoints)[~ok]
        if bad.size:
            names = [n for n in free if n in names] or free
            rest = [n for n in free if n not in names]
            setup = self.setup.with_(nprocs=p)
            for combo, sub in self._groups(bad, names):
                self._solve(setup, sub, combo, rest, out)
        return True


class _Missing(Exception):
    def __init__(self, names: list[str]):
        self.names = names


def evaluate(pred: Prediction, columns: dict[str, np.ndarray]):
    """The formula ``pred.total`` at many points at once: ``columns`` gives each varied input's
    values (one per point); every other symbol takes its given value. Returns the times,
    which points satisfy the formula's stated assumptions (elsewhere the formula does not
    stand for an interpretation), and the varied inputs those assumptions involve."""
    try:
        return evaluate_formula(pred.total, pred.substitution(),
                                assumptions(pred.scheduler, pred.processes), columns)
    except _Missing:
        raise missing_inputs(pred, "the sweep") from None


def evaluate_formula(total: sp.Expr, values_of: dict, assumed: list,
                     columns: dict[str, np.ndarray]):
    """:func:`evaluate` for any formula ``total`` with the given values ``values_of`` and what
    it ``assumed``."""
    n = len(next(iter(columns.values()))) if columns else 1
    short = {name.split(".")[-1]: name for name in columns}
    syms = {s: short[s.name] for s in total.free_symbols if s.name in short}
    subs = {s: v for s, v in values_of.items() if s not in syms}
    expr = total.subs(subs)
    if any(s not in syms for s in expr.free_symbols):
        raise _Missing(sorted(s.name for s in expr.free_symbols if s not in syms))
    order = list(syms)
    values = _vectorized(expr, order, [np.asarray(columns[syms[s]], dtype=float) for s in order], n)
    ok = np.isfinite(values)
    names: set[str] = set()
    for a in assumed:
        a = a.subs(subs)
        if a in (sp.true, True):
            continue
        names |= {syms[s] for s in a.free_symbols if s in syms}
        if a in (sp.false, False):
            ok[:] = False
            continue
        inside = [s for s in order if s in a.free_symbols]
        held = sp.lambdify(inside, a, modules="numpy")(
            *[np.asarray(columns[syms[s]], dtype=float) for s in inside])
        ok &= np.broadcast_to(np.asarray(held, dtype=bool), ok.shape)
    return values, ok, names


def _vectorized(expr: sp.Expr, symbols: list, args: list[np.ndarray], n: int) -> np.ndarray:
    f = sp.lambdify(symbols, expr, modules="numpy")
    with np.errstate(all="ignore"):
        values = np.asarray(f(*args), dtype=float)
    return np.broadcast_to(values, (n,)).copy()


def _value(v: float, integer: bool) -> sp.Expr:
    if integer or (float(v).is_integer() and abs(v) < 2**63):
        return sp.Integer(int(round(v)))
    return sp.Float(float(v))


def _needed_note(names: list[str], p: int) -> str:
    return (f"at P = {p} the interpretation needed the value of {', '.join(names)}: one "
            "interpretation per value")


def sweep(setup: Setup, axes: Sequence[Axis], band: bool = False,
          progress: ProgressFn | None = None, formula: FormulaInP | None = None) -> SweepResult:
    """Predict ``setup`` over the product of ``axes`` (see the module's doc). ``formula``: the
    formula in P of ``setup`` with the varied inputs left symbolic (:func:`formula_for`),
    evaluated at the P values its verified domain covers."""
    result = _Sweeper(setup, axes, band, progress, formula).run()
    result.notes = list(dict.fromkeys(result.notes))
    if not np.all(np.isfinite(result.seconds)):  # pragma: no cover - every point is solved
        raise InterpError("the sweep left points without a prediction")
    return result


def is_log(result: SweepResult, name: str) -> bool:
    """Whether to draw ``name`` on a log axis (a log range, or positive values spanning
    more than two decades)."""
    if result.scales.get(name) in ("log", "log2"):
        return True
    vals = np.array(result.nprocs if name == "P" else result.points[name], dtype=float)
    return bool(vals.size and vals.min() > 0 and vals.max() / vals.min() > 100 and
                not math.isclose(vals.min(), vals.max()))


def formula_for(setup: Setup, axes: Sequence[Axis], p_max: int | None = None) -> FormulaInP:
    """The formula in P a sweep over ``axes`` can use: derived with the varied inputs left
    symbolic, interpreted up to the largest power of two P of the sweep (at least 64) or
    ``p_max``."""
    from interp.analysis.formula_in_p import P_MAX, formula_in_p

    varied = {a.name.split(".")[-1] for a in axes if a.name != "P"}
    given = {k: v for k, v in setup.given.items() if k.split(".")[-1] not in varied}
    p_axis = next((a for a in axes if a.name == "P"), None)
    powers = [int(p) for p in (p_axis.values if p_axis else ()) if int(p) & (int(p) - 1) == 0]
    top = p_max or max([P_MAX] + powers)  # the default: a fit over 2, 4, 8 when P = 1 differs
    return formula_in_p(setup.with_(given=given), 1 << (top - 1).bit_length(), strict=False)
