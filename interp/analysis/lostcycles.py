"""Lost cycles analysis (Crovella and LeBlanc 1994, seed 003): where the p·T_p processor-seconds
of a parallel run go, in complete and orthogonal categories (docs/lost-cycles.md).

The paper's ``pp`` measured the categories from event logs; here they come from the engine's
timeline of each process (:class:`interp.engine.process.Timeline`), or from SimGrid's trace of
an SMPI run (:mod:`interp.analysis.smpi_lost`). Per process, every second of ``[t0, t0 + T_p]``
is exactly one of:

* **Remaining** (pure computation, T_c): the process computes.
* **LI**, load imbalance: it idles while unfinished parallel work exists -- some process
  computes parallel work at that instant.
* **IP**, insufficient parallelism: it idles while none exists (a serial section: rank 0
  alone, or nobody computing).
* **SL**, synchronization loss: it waits in a barrier or collective for members not yet there.
* **CL**, communication loss: call overhead, transmission, waiting for data in flight.
* **RC**, resource contention: the delay its messages suffered for sharing links.

A process *idles* when it waits for a partner that has not yet started the message it waits
for (or, sending, for a receive not yet posted or a static buffer not yet freed), and before
its start and after its finish. A process computes *parallel work* when another process
computes in the same AAU at the same time: a span of computation in an AAU is parallel work,
for its whole length, when a span of another process in that AAU overlaps it; otherwise it is
serial work (an AAU only one process runs, or runs handed from one process to the next).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from interp.engine.predict import Prediction
from interp.engine.process import HOST_ID
from interp.errors import InterpError

CATEGORIES = ("li", "ip", "sl", "cl", "rc")
PARTS = CATEGORIES + ("remaining",)
BY = ("program", "proc", "procedure", "aau")
TITLES = {"li": "Load Imbalance", "ip": "Insuff Parallelism", "sl": "Synchronization Loss",
          "cl": "Communication Loss", "rc": "Resource Contention", "remaining": "Remaining Time"}
ENGINE_KINDS = {"sync": "sl", "communication": "cl", "contention": "rc"}
"""The engine's names for the parts of a process's communication, and their categories."""

Interval = tuple[float, float]


@dataclass(frozen=True)
class Place:
    """Where lost cycles are attributed: an AAU's ``file:line`` and its procedure (unit)."""

    where: str
    procedure: str


@dataclass
class LostCycles:
    """The categories of one run, by process and by the AAU they occurred in."""

    source: str  # predicted | smpi | measured
    program: str
    machine: str
    p: int
    tp: float
    vars: dict[str, float] = field(default_factory=dict)  # the inputs given (--set)
    # (process, AAU id or None) → category → seconds
    cells: dict[tuple[int, int | None], dict[str, float]] = field(default_factory=dict)
    places: dict[int, Place] = field(default_factory=dict)  # AAU id → where it is

    @property
    def total(self) -> float:
        """p·T_p."""
        return self.p * self.tp

    def add(self, pid: int, aau: int | None, category: str, seconds: float) -> None:
        if seconds:
            cell = self.cells.setdefault((pid, aau), {})
            cell[category] = cell.get(category, 0.0) + seconds

    def breakdown(self, by: str = "program") -> dict[str, dict[str, float]]:
        """Each key's categories (summed over processes): by ``program`` one row, key "";
        by ``proc`` the process number; by ``procedure`` or ``aau`` the unit or ``file:line``."""
        if by not in BY:
            raise InterpError(f"unknown breakdown {by!r}", hint="choose " + ", ".join(BY))
        if by in ("procedure", "aau") and any(a is None for _, a in self.cells):
            raise InterpError(f"--by {by}: a {self.source} run's lost cycles are known by "
                              "process only", hint="use --by program or --by proc")
        out: dict[str, dict[str, float]] = {}
        keys = sorted(self.cells, key=lambda k: (k[0], -1 if k[1] is None else k[1]))
        for pid, aau in keys:
            key = {"program": "", "proc": str(pid)}.get(by)
            if key is None:
                place = self.places[aau]
                key = place.where if by == "aau" else place.procedure
            row = out.setdefault(key, dict.fromkeys(PARTS, 0.0))
            for c, v in self.cells[(pid, aau)].items():
                row[c] += v
        if by == "proc":  # a process that did nothing still has a row: it idled throughout
            for pid in range(self.p):
                out.setdefault(str(pid), dict.fromkeys(PARTS, 0.0))
        return out or {"": dict.fromkeys(PARTS, 0.0)}


# ---- from a prediction ---------------------------------------------------------------------


def from_prediction(pred: Prediction, given: Mapping[str, float] | None = None) -> LostCycles:
    """The categories of a prediction made with ``timeline=True`` (numbers). The p processes
    are the node (MPI) processes; a host program's time counts only as serial work its nodes
    may idle during. T_p runs from the nodes' start to the last node's finish."""
    nodes = [p for p in pred.processes if p.pid != HOST_ID]
    if any(p.timeline is None for p in pred.processes):
        raise InterpError("lost cycles need a prediction made with timeline=True")
    t0 = min(float(p.start) for p in nodes)
    t1 = max(float(p.finish) for p in nodes)
    out = LostCycles("predicted", program_name(pred.aag), pred.machine.name, len(nodes),
                     t1 - t0, dict(given or {}), places=_places(pred))
    work = parallel_work([(p.pid, s[0], s[1], s[3]) for p in pred.processes
                          for s in p.timeline.spans if s[2] == "computation"])
    for p in nodes:
        first, last = p.program.aaus[0].id, p.program.aaus[-1].id
        idle = [(t0, float(p.start), first), (float(p.finish), t1, last)]
        for start, end, kind, aau in p.timeline.spans:
            if kind == "computation":
                out.add(p.pid, first if aau is None else aau, "remaining", end - start)
            else:
                idle.append((start, end, aau))
        for start, end, aau in idle:
            li = overlap(work, start, end)
            out.add(p.pid, aau, "li", li)
            out.add(p.pid, aau, "ip", max(end - start, 0.0) - li)
        for (aau, kind), seconds in p.timeline.seconds.items():
            out.add(p.pid, aau, ENGINE_KINDS[kind], seconds)
    return out


def program_name(aag) -> str:
    """The main source file's stem: the file of the first PROGRAM unit (the host program of a
    host/node pair, as ``interp validate`` names it)."""
    programs = aag.programs()
    return Path(programs[0].file).stem if programs else Path(aag.files[0]).stem


def _places(pred: Prediction) -> dict[int, Place]:
    return {k: Place(f"{Path(a.loc.file).name}:{a.loc.line}", a.unit)
            for k, a in pred.aag.by_id().items()}


def parallel_work(spans: list[tuple[int, float, float, object]]) -> list[Interval]:
    """The instants at which some process computes parallel work, as sorted disjoint
    intervals. ``spans``: every process's computation as ``(process, start, end, AAU)``. A
    span is parallel work, for its whole length, when a span of another process in the same
    AAU overlaps it in time."""
    by_aau: dict[object, list[tuple[float, float, int]]] = {}
    for pid, start, end, aau in spans:
        if end > start:
            by_aau.setdefault(aau, []).append((start, end, pid))
    busy = []
    for runs in by_aau.values():
        busy += [(start, end) for (start, end, _), alongside in zip(runs, _alongside(runs))
                 if alongside]
    return merged(busy)


def _alongside(runs: list[tuple[float, float, int]]) -> list[bool]:
    """For each run, whether a run of another process overlaps it. Two sweeps by start: one
    forwards keeping the latest ends seen, one backwards keeping the earliest starts seen, each
    of two distinct processes (enough to know the best of any process but one's own)."""
    order = sorted(range(len(runs)), key=runs.__getitem__)
    out = [False] * len(runs)
    ends: list[tuple[float, int]] = []
    for k in order:
        start, end, pid = runs[k]
        out[k] = any(e > start for e, q in ends if q != pid)
        ends = _two_best(ends, end, pid, max)
    starts: list[tuple[float, int]] = []
    for k in reversed(order):
        start, end, pid = runs[k]
        out[k] = out[k] or any(s < end for s, q in starts if q != pid)
        starts = _two_best(starts, start, pid, min)
    return out


def _two_best(best: list[tuple[float, int]], value: float, pid: int,
              pick) -> list[tuple[float, int]]:
    """The best values (``pick``: max or min) of the two best distinct processes, with
    ``value`` of ``pid`` added."""
    per = {q: v for v, q in best}
    per[pid] = pick(value, per.get(pid, value))
    return sorted(((v, q) for q, v in per.items()), reverse=pick is max)[:2]


def merged(intervals: list[Interval]) -> list[Interval]:
    """The union of intervals, sorted and disjoint."""
    out: list[list[float]] = []
    for start, end in sorted(intervals):
        if out and start <= out[-1][1]:
            out[-1][1] = max(out[-1][1], end)
        else:
            out.append([start, end])
    return [(a, b) for a, b in out]


def overlap(union: list[Interval], start: float, end: float) -> float:
    """Seconds of [start, end] inside the sorted disjoint intervals ``union``."""
    if end <= start:
        return 0.0
    k = max(bisect_right(union, (start, float("inf"))) - 1, 0)
    total = 0.0
    while k < len(union) and union[k][0] < end:
        a, b = union[k]
        total += max(0.0, min(b, end) - max(a, start))
        k += 1
    return total
