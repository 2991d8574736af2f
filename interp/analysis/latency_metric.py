"""The latency metric (Zhang, Yan and He, JPDC 1994; seed 004; docs/scalability.md).

The paper's N is the number of processors (P elsewhere in interp) and W the problem size.
Per process i of a run on N processors (Definitions 1-2), from interp's per-process rows:

* ``T_para``: the run's time, the prediction's headline (the last process's finish; for a
  host program, from the load of the node program to the host's last receive, as the paper
  measured);
* ``T_i``: the process's active span, finish - start;
* ``L_i``: its overhead latency, call overhead + transmission + waiting (its idle time inside
  the span; computation is the rest of the span).

Average latency, eq. 3.5: ``L(W,N) = Σ_i (T_para - T_i + L_i) / N`` (Method 2,
instrumented), which is ``T_para - mean(computation)``. Method 1 takes it from the times only,
eq. 3.6: ``L = T_para - T_seq/N``. The two agree exactly when the processes' computation adds
up to ``T_seq``; they differ by ``(Σ computation - T_seq)/N`` otherwise (redundant work).

``T_seq = W·t_c`` is the one-node, communication-free prediction (as ``T_s`` in
:mod:`interp.analysis.scalability`), ``E = T_seq/(N·T_para)`` (3.12; Method 2: ``1 - L/T_para``),
and the E-conserved scale (3.7) ``scale(E,(N,N')) = L_e(W,N)/L_e(W',N')`` with W, W' the sizes
where E is reached. Its average over E (3.8) is the midpoint rule on K efficiencies.
Isoefficiency W(N) is the size found per N; isospeed keeps ``S = W/(N·T_para)`` (2.3) at its
value on the smallest N.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import sympy as sp

from interp.analysis.scalability import REAL, Runs, check_study, scale_table
from interp.analysis.setup import Setup
from interp.analysis.sizepath import T_MAX, Root, SizePath, find_size
from interp.engine.predict import Prediction
from interp.engine.process import HOST_ID
from interp.errors import InterpError
from interp.system import units
from interp.system.expr import ExprError, parse_quantity

# ---- the paper's equations -----------------------------------------------------------------


def average_latency(t_para: float, spans: Sequence[tuple[float, float]]) -> float:
    """Eq. 3.5: ``Σ (T_para - T_i + L_i) / N`` over ``spans`` = ``[(T_i, L_i), ...]``."""
    return sum(t_para - ti + li for ti, li in spans) / len(spans)


def method1_latency(t_para: float, t_seq: float, n: int) -> float:
    """Eq. 3.6 solved for L: ``T_para - T_seq/N``."""
    return t_para - t_seq / n


def efficiency(t_seq: float, n: int, t_para: float) -> float:
    """Eq. 3.12: ``E = T_seq / (N·T_para)``."""
    return t_seq / (n * t_para)


def theorem2_scale(w: float, n: int, w2: float, n2: int) -> float:
    """Eq. 3.13: at constant E (or speed), ``scale = (W/N) / (W'/N')``."""
    return (w / n) / (w2 / n2)


def midpoints(k: int) -> list[float]:
    """The K efficiencies of the midpoint rule on [0, 1] for eq. 3.8: (j - 1/2)/K."""
    return [(j + 0.5) / k for j in range(k)]


def scale_integral(scales: Sequence[float | None]) -> float | None:
    """Eq. 3.8 by the midpoint rule: the mean of scale(E_j) over :func:`midpoints`; None when
    some E_j is not reached (Definition 5: the combination does not scale to it)."""
    if not scales or any(s is None for s in scales):
        return None
    return sum(scales) / len(scales)


# ---- one run's latency ----------------------------------------------------------------------


@dataclass(frozen=True)
class RunLatency:
    """Definitions 1-4 on one prediction."""

    n: int
    t_para: float
    spans: tuple[tuple[float, float], ...]  # (T_i, L_i) per node process
    computation: float  # Σ over the node processes

    @classmethod
    def of(cls, pred: Prediction) -> RunLatency:
        rows = [r for r in pred.process_rows() if r["pid"] != HOST_ID]
        t_para = float(pred.seconds)
        spans = tuple((float(r["finish"]) - float(r["start"]),
                       float(r["call"]) + float(r["transmission"]) + float(r["waiting"]))
                      for r in rows)
        return cls(len(rows), t_para, spans, sum(float(r["computation"]) for r in rows))

    @property
    def method2(self) -> float:
        return average_latency(self.t_para, self.spans)

    def method1(self, t_seq: float) -> float:
        return method1_latency(self.t_para, t_seq, self.n)


# ---- the study -----------------------------------------------------------------------------


@dataclass(frozen=True)
class LatencyPoint:
    n: int
    root: Root
    chi: str
    t: int
    work: float  # W at χ
    t_seq: float
    run: RunLatency

    @property
    def l1(self) -> float:
        return self.run.method1(self.t_seq)

    @property
    def l2(self) -> float:
        return self.run.method2

    @property
    def e1(self) -> float:
        return efficiency(self.t_seq, self.n, self.run.t_para)

    @property
    def e2(self) -> float:
        return 1 - self.l2 / self.run.t_para

    @property
    def speed(self) -> float:
        """Eq. 2.3: ``W/(N·T_para)``."""
        return self.work / (self.n * self.run.t_para)


@dataclass
class LatencyStudy:
    target: float
    path: SizePath
    work_text: str
    program: str
    machine: str
    points: list[LatencyPoint]  # isoefficiency: W(N) at E = target
    isospeed: list[LatencyPoint]  # W(N) at the smallest N's speed
    integral_k: int = 0
    integral: dict[tuple[int, int], float | None] | None = None
    # (E_j, N, status) where W(N) is not at E_j: above it at the smallest size (its scale is
    # then not E-conserved) or not reached (the integral is unknown)
    off_target: list[tuple[float, int, str]] = field(default_factory=list)

    @property
    def table(self) -> dict[tuple[int, int], float | None]:
        """Eq. 3.7 with Method 2 latencies."""
        return scale_table({p.n: p.l2 if p.root.reached else None for p in self.points})

    def theorem2(self) -> dict[tuple[int, int], float | None]:
        """Eq. 3.13's ``(W/N)/(W'/N')`` for the same pairs."""
        pts = {p.n: p for p in self.points if p.root.reached}
        return {(a, b): theorem2_scale(pts[a].work, a, pts[b].work, b)
                if a in pts and b in pts else None for (a, b) in self.table}


def parse_work(text: str | None, path: SizePath) -> sp.Expr:
    """W as an expression in the path's inputs (default: the first input on the path)."""
    names = {n: sp.Symbol(n) for n in path.names}
    if not text:
        return names[path.names[0]]
    hint = f"W in the inputs on {path.option}, e.g. --work 'N*N*N'"
    try:
        q = parse_quantity(text, {**names, **{n.lower(): s for n, s in names.items()}})
    except ExprError as err:
        raise InterpError(f"--work {text!r}, column {err.offset + 1}: {err.message}",
                          hint=hint) from None
    if q.dim != units.NONE:  # (the grammar takes units; W is a count, and '1 s' was W = 1)
        raise InterpError(f"--work {text!r}: W has a unit ({units.dim_name(q.dim)})", hint=hint)
    return q.expr


def latency_metric(setup: Setup, path: SizePath, nprocs: Sequence[int], target: float,
                   work: str | None = None, integral_k: int = 0, t_min: int = 1,
                   t_max: int = T_MAX) -> LatencyStudy:
    from interp.analysis.lostcycles import program_name

    check_study(nprocs, target, "combination")
    runs = Runs(setup, path)
    w_expr = parse_work(work, path)
    ns = sorted(set(nprocs))

    def at(n: int, root: Root) -> LatencyPoint:
        sizes = {sp.Symbol(k): v for k, v in path.at(root.t, n).items()}
        return LatencyPoint(n, root, path.show(root.t, n), root.t, float(w_expr.xreplace(sizes)),
                            runs.ts(root.t), RunLatency.of(runs.prediction(REAL, n, root.t)))

    def iso(n: int, e: float) -> Root:
        return find_size(lambda t: runs.efficiency("combination", n, t), e, t_min, t_max)

    points = [at(n, iso(n, target)) for n in ns]
    isospeed = []
    if points[0].root.reached:
        base = points[0]
        s0 = base.speed
        isospeed.append(at(base.n, Root(base.t, "base", 1.0)))
        for n in ns[1:]:
            root = find_size(lambda t, n=n: at(n, Root(t, "", 0.0)).speed / s0, 1.0, t_min, t_max)
            isospeed.append(at(n, root))
    study = LatencyStudy(target, path, work or path.names[0], program_name(setup.aag),
                         setup.sag.name, points, isospeed, integral_k)
    if integral_k:
        tables = []
        for e in midpoints(integral_k):
            lat = {}
            for n in ns:
                root = iso(n, e)
                lat[n] = at(n, root).l2 if root.reached else None
                if root.status != "found":
                    study.off_target.append((e, n, root.status))
            tables.append(scale_table(lat))
        study.integral = {k: scale_integral([t[k] for t in tables]) for k in tables[0]}
    return study
