"""Seed 000 (Xu, Zhang, Sun): semi-empirical prediction from small real runs.

**Segments and their counts F.** The segments are those ``interp run`` times
(:mod:`interp.analysis.realrun`). A segment's analytic count F(s, χ, P) on rank r is interp's
op-count cost of its AAU on that rank (the engine on a reference spec, by default
``cluster``): the operation counts and loop trip counts as functions of the inputs and P,
weighted by the spec's per-operation costs, with the communication calls inside the segment
taken out (their time is priced by the microbenchmarks instead). A communicating loop's own
control is its time less its body's.

**Fit** (2.3)/(2.7): per segment, tt(s, χ, P) = a_s·F(s, χ, P) + b_s over every (setting,
rank) sample, t the fastest of the setting's repeats: with two sample sizes this is (2.3)'s
ratio plus (2.7)'s constant O_syn, solved by least squares with a_s, b_s ≥ 0 (a negative
coefficient is measurement noise: dropped and the other refitted). A segment whose F is 0 in
every sample is its constant b_s.

**Communication** (§1 step 6): each event type is microbenchmarked against P on this machine
(``data/commbench.f``: ping-pong, barrier, allreduce, reduce, bcast; five rounds, each an
average over many calls). A call costs its type's median at P, a point-to-point receive the
one-way ping-pong time plus bytes at the ping-pong's per-byte rate; a send costs nothing
more (eager delivery); wait and the other non-blocking parts are free.

**Prediction**: algorithm G (:mod:`interp.analysis.algorithm_g`) plays the thread graph
(:mod:`interp.analysis.thread_graph`) with the fitted tt(s, r) and the microbenchmarked
tt^e. Beside it, T_p = Σ_s max_r tt(s, r), the representative thread being the largest load
(2.5): G's value when every segment ends in a collective or paired exchange and one rank is
the slowest between two of them (tests/analysis/test_algorithm_g_programs.py).

**Scores**: E (4.9), Ē (4.10) and the conservative ratio R (4.8) =
T_actual / (T_sample + T_estimate), T_sample the wall time of the sample runs and
microbenchmarks, T_estimate interp's time to predict.
"""

from __future__ import annotations

import os
import re
import statistics
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from interp.analysis import profile as prof
from interp.analysis import realrun as R
from interp.application import aau as A
from interp.application import ast
from interp.application.aag import AAG
from interp.errors import InterpError

BENCH = Path(__file__).with_name("data") / "commbench.f"
RECV_OPS = {"recv", "sendrecv"}
FREE_OPS = {"send", "wait", "waitall", "test", "comm_dup", "comm_split", "init", "finalize"}
COLLECTIVE = {"barrier": "barrier", "allreduce": "allreduce", "reduce": "reduce",
              "bcast": "bcast"}  # others (gather, scatter, alltoall…) are priced as allreduce


# --- the paper's measures ---------------------------------------------------------------------


def error(actual: float, predicted: float) -> float:
    """E (4.9) = |T_actual − T_p| / T_actual."""
    return abs(actual - predicted) / actual


def mean_error(errors: Sequence[float]) -> float:
    """Ē (4.10) = Σ_χ E(χ) / |X|."""
    if not errors:
        raise InterpError("Ē needs at least one predicted size")
    return sum(errors) / len(errors)


def conservative_ratio(actual: float, sample: float, estimate: float) -> float:
    """R_conservative (4.8) = T_actual / (T_sample + T_estimate)."""
    return actual / (sample + estimate)


# --- counts F from the engine -----------------------------------------------------------------


def _comm_leaves(a: A.AAU) -> list[A.AAU]:
    return [x for x in a.walk() if isinstance(x, A.LibraryAAU) and x.call is not None
            and x.type in A.SYNC_TYPES]


def counts(aag: AAG, plan: R.Plan, nprocs: int, inputs: Mapping[str, object],
           spec: str = "cluster") -> tuple[list[dict[str, float]], list[dict[str, list]], float]:
    """Per rank: each segment's F, its communication calls ``(op, calls, bytes)``; and the
    spec's whole-program prediction (the op-count model's T_p)."""
    cfg, pred = engine_run(aag, nprocs, inputs, spec)
    return counts_of(cfg, plan, pred)


def engine_run(aag: AAG, nprocs: int, inputs: Mapping[str, object], spec: str = "cluster",
               trace: bool = False):
    """The configured AAG and the engine's prediction on ``spec``; ``trace``: every
    iteration interpreted and traced (algorithm G's thread graph is built from it)."""
    from interp import api

    cfg, rest = configured(aag, inputs)
    return cfg, api.predict(cfg, spec, nprocs, dict(rest), symbolic=False, trace=trace,
                            timeline=trace)


def counts_of(aag: AAG, plan: R.Plan,
              pred) -> tuple[list[dict[str, float]], list[dict[str, list]], float]:
    """:func:`counts` from a prediction ``pred`` of the configured ``aag``."""
    # the segments' AAUs by first line (a configured copy has the same lines, new ids)
    by_line: dict[int, A.AAU] = {}
    for a in R.main_unit(aag).walk():
        by_line.setdefault(a.loc.line, a)
    F: list[dict[str, float]] = []
    comm: list[dict[str, list]] = []
    for proc in pred.processes:
        stats = proc.stats

        def total(a: A.AAU) -> float:
            st = stats.get(a.id)
            return float(st.total) if st is not None else 0.0

        def calls(a: A.AAU) -> float:
            st = stats.get(a.id)
            return float(st.count) if st is not None else 0.0

        f_rank, c_rank = {}, {}
        for seg in plan.segments:
            a = by_line[seg.line]
            if seg.within and seg.type == "loop" or (seg.within is None and _is_cut(seg, plan)):
                f = total(a) - sum(total(c) for c in a.children)
                f_rank[seg.column] = max(f, 0.0) if seg.type == "loop" else 0.0
                c_rank[seg.column] = []
                continue
            leaves = _comm_leaves(a)
            f_rank[seg.column] = max(total(a) - sum(total(x) for x in leaves), 0.0)
            c_rank[seg.column] = [(x.call.op, calls(x), _bytes(x, pred)) for x in leaves
                                  if calls(x)]
        F.append(f_rank)
        comm.append(c_rank)
    return F, comm, float(pred.seconds)


def configured(aag: AAG, inputs: Mapping[str, object]) -> tuple[AAG, dict[str, object]]:
    """The AAG with the inputs that are PARAMETER constants set (in any file, included ones
    too: ``with_parameters``, as ``interp run`` sets them in its copy), and the other inputs."""
    from interp.application.aag import parameters_of, with_parameters

    params = parameters_of(aag)
    chosen = {k.upper(): _number(v) for k, v in inputs.items() if k.upper() in params}
    rest = {k: v for k, v in inputs.items() if k.upper() not in chosen}
    return (with_parameters(aag, chosen) if chosen else aag), rest


def _number(value: object) -> int | float:
    x = float(value)
    return int(x) if x.is_integer() else x


def _is_cut(seg: R.Segment, plan: R.Plan) -> bool:
    return any(s.within == seg.key for s in plan.segments)


def _bytes(a: A.LibraryAAU, pred) -> float:
    """The message's bytes: count × 8 (a double-precision word) when the count is a constant
    or a given input; one word otherwise."""
    count = a.arg("count")
    if isinstance(count, ast.Num):
        return 8.0 * float(count.value)
    if isinstance(count, ast.Var) and count.name.upper() in pred.given:
        return 8.0 * float(pred.given[count.name.upper()])
    return 8.0


# --- microbenchmarks --------------------------------------------------------------------------


@dataclass
class CommTable:
    """Per P: each op's seconds per call (median of the rounds, with min and max), and the
    ping-pong's per-byte seconds."""

    per_p: dict[int, dict[str, dict[str, float]]] = field(default_factory=dict)
    wall: float = 0.0  # seconds the microbenchmarks took
    measured: str = ""

    def cost(self, op: str, nprocs: int, nbytes: float) -> float:
        if nprocs == 1 or op in FREE_OPS:
            table = self.per_p.get(nprocs, {})
            if op in FREE_OPS or not table:
                return 0.0
        if nprocs not in self.per_p:
            raise InterpError(f"the model has no communication microbenchmarks at P = {nprocs}",
                              hint=f"fit again with --bench-procs including {nprocs}")
        table = self.per_p[nprocs]
        if op in RECV_OPS:
            if "pingpong" not in table:
                return 0.0
            return table["pingpong"]["median"] + nbytes * table["per_byte"]["median"]
        name = COLLECTIVE.get(op, "allreduce")
        return table[name]["median"] if name in table else 0.0

    def to_json(self) -> dict:
        return {"measured_with": "interp/analysis/data/commbench.f (Open MPI mpirun)",
                "when": self.measured, "wall_seconds": self.wall,
                "per_p": {str(p): v for p, v in self.per_p.items()}}

    @classmethod
    def from_json(cls, data: dict) -> CommTable:
        # numbers made numbers here, so that a hand-edited model fails as a model, not later
        per_p = {int(p): {op: {k: float(x) for k, x in stats.items()}
                          for op, stats in v.items()} for p, v in data["per_p"].items()}
        return cls(per_p, float(data["wall_seconds"]), data.get("when", ""))


_BENCH_LINE = re.compile(r"^\s*(\w+)\s+(\d+)\s+(\d+)\s+([0-9.eE+-]+)\s*$", re.M)


def microbenchmark(procs: Sequence[int], timeout: float = 120.0) -> CommTable:
    """Run ``commbench.f`` on each P in ``procs``."""
    import shutil

    table = CommTable(measured=datetime.now(timezone.utc).isoformat(timespec="seconds"))
    with tempfile.TemporaryDirectory(prefix="interp-bench-") as tmp:
        work = Path(tmp)
        exe = prof.build([str(BENCH)], work, True, ["-O2", "-std=legacy",
                                                   "-fallow-argument-mismatch", "-w"],
                         ("-O2",), who="interp semiemp fit")
        runner = shutil.which("mpirun")
        if runner is None:
            raise InterpError("interp semiemp fit needs mpirun for its microbenchmarks",
                              hint="install it: apt-get install -y openmpi-bin libopenmpi-dev")
        for p in procs:
            start = time.perf_counter()
            done = prof._run([runner, "--oversubscribe", "-np", str(p), str(exe)], work,
                             f"the communication microbenchmark on {p} ranks", timeout,
                             env={**os.environ, **prof.RUN_AS_ROOT}, who="interp semiemp fit")
            table.wall += time.perf_counter() - start
            table.per_p[p] = summarize(done.stdout)
    return table


def summarize(output: str) -> dict[str, dict[str, float]]:
    """The benchmark's lines → per op: median, min, max over the rounds; the ping-pong's
    per-byte rate from its two sizes."""
    by: dict[tuple[str, int], list[float]] = {}
    for op, nbytes, _round, seconds in _BENCH_LINE.findall(output):
        by.setdefault((op, int(nbytes)), []).append(float(seconds))
    out: dict[str, dict[str, float]] = {}
    small = {op: v for (op, b), v in by.items() if b <= 8}
    for op, values in small.items():
        out[op] = _spread(values)
    big = [(b, v) for (op, b), v in by.items() if op == "pingpong" and b > 8]
    if big and "pingpong" in small:
        b, values = big[0]
        rates = [max(t - s, 0.0) / (b - 8) for t, s in zip(values, small["pingpong"])]
        out["per_byte"] = _spread(rates)
    return out


def _spread(values: Sequence[float]) -> dict[str, float]:
    return {"median": statistics.median(values), "min": min(values), "max": max(values),
            "rounds": len(values)}


# --- fit ---------------------------------------------------------------------------------------


@dataclass
class SegmentFit:
    column: str
    type: str
    lines: str
    a: float  # seconds per unit of F
    b: float  # O_syn, seconds
    samples: int


def fit_line(points: Sequence[tuple[float, float]]) -> tuple[float, float]:
    """Least squares t = a·F + b with a, b ≥ 0."""
    n = len(points)
    if n == 0:
        return 0.0, 0.0
    fs = [f for f, _ in points]
    ts = [t for _, t in points]
    fbar, tbar = sum(fs) / n, sum(ts) / n
    sff = sum((f - fbar) ** 2 for f in fs)
    if sff == 0:
        return (tbar / fbar, 0.0) if fbar > 0 else (0.0, max(tbar, 0.0))
    a = sum((f - fbar) * (t - tbar) for f, t in points) / sff
    b = tbar - a * fbar
    if a < 0:
        return 0.0, max(tbar, 0.0)
    if b < 0:
        sf2 = sum(f * f for f in fs)
        return max(sum(f * t for f, t in points) / sf2, 0.0), 0.0
    return a, b


@dataclass
class Model:
    program: str
    files: list[str]
    spec: str
    segments: list[SegmentFit]
    comm: CommTable
    sample_seconds: float  # T_sample: the sample runs' and microbenchmarks' wall time
    samples: list[str]

    def to_json(self) -> dict:
        return {"interp_semiemp": 1, "program": self.program, "files": self.files,
                "spec": self.spec, "sample_seconds": self.sample_seconds,
                "samples": self.samples,
                "segments": [s.__dict__ for s in self.segments], "comm": self.comm.to_json()}

    @classmethod
    def from_json(cls, data: dict, where: str = "model") -> Model:
        try:
            return cls(data["program"], data["files"], data["spec"],
                       [SegmentFit(str(s["column"]), str(s["type"]), str(s["lines"]),
                                   float(s["a"]), float(s["b"]), int(s["samples"]))
                        for s in data["segments"]],
                       CommTable.from_json(data["comm"]), float(data["sample_seconds"]),
                       list(data.get("samples", [])))
        except (KeyError, TypeError, ValueError, AttributeError) as err:
            raise InterpError(f"{where}: not a semi-empirical model ({err})",
                              hint="give the file `interp semiemp fit -o FILE` wrote") from None


def _numbers(inputs: Mapping[str, str]) -> dict[str, float]:
    out = {}
    for k, v in inputs.items():
        x = float(v.replace("d", "e").replace("D", "e"))
        out[k] = int(x) if x.is_integer() else x
    return out


def fit(aag: AAG, runs: Sequence[R.Run], comm: CommTable, spec: str = "cluster",
        where: str = "runs") -> Model:
    """Fit each segment's a, b from the sample runs of this program (two sizes at least)."""
    plan = R.plan(aag)
    main = Path(R.main_unit(aag).file).stem
    mine = [r for r in runs if r.program == main]
    settings = sorted({(r.nprocs, tuple(sorted(r.inputs.items()))) for r in mine})
    # (the sample runs' wall time counts every repeat: T_sample is what sampling cost)
    if len({s[1] for s in settings}) < 2:
        raise InterpError(f"{where}: {len(mine)} run(s) of {main} at {len(settings)} setting(s); "
                          "the fit needs samples at two sizes at least",
                          hint=f"run it at two sizes: interp run FILES -P n --set N=… --runs {where}")
    points: dict[str, list[tuple[float, float]]] = {s.column: [] for s in plan.segments}
    groups: dict[tuple, list[R.Run]] = {}
    for r in mine:
        groups.setdefault((r.nprocs, tuple(sorted(r.inputs.items()))), []).append(r)
    for (nprocs, inputs), rs in groups.items():
        F, calls, _ = counts(aag, plan, nprocs, _numbers(dict(inputs)), spec)
        for seg in plan.segments:
            for rank in range(len(F)):
                # the fastest of the repeats: on a shared machine the slower ones ran beside
                # other work
                t = _fastest([r.segments.get(seg.column, [])[rank:rank + 1] for r in rs])
                if t is None:
                    continue
                priced = sum(comm.cost(op, nprocs, b) * n for op, n, b in calls[rank][seg.column])
                points[seg.column].append((F[rank][seg.column], max(t - priced, 0.0)))
    segments = []
    for seg in plan.segments:
        pts = points[seg.column]
        pure_comm = bool(_comm_leaves_of(aag, seg)) and all(f == 0 for f, _ in pts)
        a, b = (0.0, 0.0) if pure_comm else fit_line(pts)
        segments.append(SegmentFit(seg.column, seg.type, f"{seg.line}-{seg.end_line}", a, b,
                                   len(pts)))
    sample = sum(r.wall for r in mine) + comm.wall
    return Model(main, [str(f) for f in aag.files], spec, segments, comm, sample,
                 [f"P={p} " + " ".join(f"{k}={v}" for k, v in inp) for p, inp in settings])


def _fastest(values: list[list[float]]) -> float | None:
    flat = [v[0] for v in values if v]
    return min(flat) if flat else None


def _comm_leaves_of(aag: AAG, seg: R.Segment) -> list:
    return _comm_leaves(aag.by_id()[seg.aau_id]) if seg.type != "loop" else []


# --- predict -----------------------------------------------------------------------------------


@dataclass
class Point:
    nprocs: int
    inputs: dict[str, str]
    predicted: float  # semi-empirical T_p (algorithm G's, unless ``method`` says otherwise)
    opcount: float  # the op-count model's T_p on the reference spec
    estimate_seconds: float  # T_estimate
    actual: float | None = None  # the fastest run's timed seconds
    runs: int = 0
    oversubscribed: bool = False
    sum_of_max: float = 0.0  # Σ_s max_r tt(s, r): G's value when every segment ends in a sync
    method: str = "G"  # "G" (algorithm G played) or "sum-of-max"
    events: int = 0  # events G processed: Θ (2.2)


METHODS = ("G", "sum-of-max")


def predict(aag: AAG, model: Model, nprocs: int, inputs: Mapping[str, str], *,
            method: str = "G", seed: int = 0) -> Point:
    """T_p from the model: algorithm G played on the thread graph (``method`` "G", the pick
    among simultaneous events seeded by ``seed``), beside Σ_s max_r tt(s, r)."""
    from interp.analysis import algorithm_g, thread_graph

    if method not in METHODS:
        raise InterpError(f"unknown method {method!r}", hint="choose G or sum-of-max")
    start = time.perf_counter()
    plan = R.plan(aag)
    cfg, pred = engine_run(aag, nprocs, _numbers(inputs), model.spec, trace=method == "G")
    F, calls, opcount = counts_of(cfg, plan, pred)
    fits = {s.column: s for s in model.segments}
    for seg in plan.segments:
        if seg.column not in fits:
            raise InterpError(f"the model has no fit for segment {seg.column} (line {seg.line})",
                              hint="fit the model on the same program (its source changed?)")
    tt = [{c: fits[c].a * F[r][c] + fits[c].b for c in F[r]} for r in range(len(F))]
    total = sum(max(tt[r][c] + sum(model.comm.cost(op, nprocs, b) * n
                                   for op, n, b in calls[r][c]) for r in range(len(F)))
                for c in (s.column for s in plan.segments))
    point = Point(nprocs, dict(inputs), total, opcount, 0.0, sum_of_max=total, method=method)
    if method == "G":
        by_id = cfg.by_id()

        def price(aau: int) -> float:
            a = by_id[aau]
            return model.comm.cost(a.call.op, nprocs, _bytes(a, pred))

        built = thread_graph.build(cfg, plan, pred, tt, price)
        played = algorithm_g.play(built.graph, seed)
        point.predicted, point.events = played.seconds, played.processed
    point.estimate_seconds = time.perf_counter() - start
    return point


def score(aag: AAG, model: Model, actual: Sequence[R.Run], nprocs: int, *,
          method: str = "G", seed: int = 0) -> list[Point]:
    """Predict every size of ``actual`` at P = ``nprocs`` and set the runs beside it."""
    main = Path(R.main_unit(aag).file).stem
    groups: dict[tuple, list[R.Run]] = {}
    for r in actual:
        if r.program == main and r.nprocs == nprocs:
            groups.setdefault(tuple(sorted(r.inputs.items())), []).append(r)
    if not groups:
        raise InterpError(f"no runs of {main} at P = {nprocs} in the --actual file",
                          hint=f"interp run FILES -P {nprocs} --set … --runs FILE")
    out = []
    for key, rs in sorted(groups.items(), key=lambda kv: [float(v) for _, v in kv[0]]):
        point = predict(aag, model, nprocs, dict(key), method=method, seed=seed)
        point.actual = min(r.timed for r in rs)
        point.runs = len(rs)
        point.oversubscribed = any(r.oversubscribed for r in rs)
        out.append(point)
    return out
