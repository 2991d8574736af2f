"""Level 2 of the core paper: the SAAG (communication edges on the AAG) and its static checks.

Matching a receive to its send needs what the paper's level-2 parse needs: every process's
chain with its node-dependent values resolved (``mynode()``, partners such as
``MOD(ME+1, NP)``). That is exactly the per-process instantiation the engine performs, so the
SAAG is built by one interpretation of the configuration: every send/receive pair and every
collective it matches becomes an edge (⇔ synchronous, ⇒ asynchronous, ⇐ synchronization) in
the global synchronization structure, and whatever cannot be matched is a problem report —
mismatched type/tag, a message longer than its receive buffer, a receive no send can match,
a global operation some node never reaches, or a deadlock with its cycle of waits.

Loops are matched per iteration without unrolling them: once the per-iteration pattern
repeats, the steady-state extension adds the remaining iterations' edges in closed form.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import sympy as sp

from interp.application.aag import AAG
from interp.application.expr import as_sympy
from interp.engine.predict import check_given, interpret
from interp.engine.process import Process
from interp.engine.scheduler import Edge, Problem
from interp.engine.values import Inputs
from interp.system import SAG

KIND_SYMBOL = {"sync": "⇔", "async": "⇒", "collective": "⇐"}


@dataclass
class SyncRecord:
    """One entry of the global synchronization structure, indexed by its id."""

    id: int
    kind: str  # sync | async | collective
    pattern: str  # point-to-point | broadcast | global operation | barrier
    src: str
    src_aau: int
    dst: str
    dst_aau: int
    size: str
    tag: int | None
    count: sp.Expr

    def to_json(self) -> dict:
        count = as_sympy(self.count)
        return {"id": self.id, "kind": self.kind, "relation": KIND_SYMBOL[self.kind],
                "pattern": self.pattern, "src": self.src, "src_aau": self.src_aau,
                "dst": self.dst, "dst_aau": self.dst_aau, "size": self.size, "tag": self.tag,
                "count": int(count) if count.is_Integer else str(count)}


@dataclass
class SAAG:
    aag: AAG
    nprocs: int
    processes: list[Process]
    edges: list[SyncRecord]
    problems: list[Problem]
    notes: list[str] = field(default_factory=list)

    def tags(self) -> dict[int, list[int]]:
        """AAU id → the ids of the communication occurrences it takes part in."""
        out: dict[int, list[int]] = {}
        for e in self.edges:
            out.setdefault(e.src_aau, []).append(e.id)
            if e.dst_aau != e.src_aau:
                out.setdefault(e.dst_aau, []).append(e.id)
        return out


def _pattern(e: Edge, aag: AAG) -> str:
    if e.kind == "collective":
        a = aag.by_id().get(e.src_aau)
        name = a.call.name if a is not None and getattr(a, "call", None) else ""
        return "barrier" if name in ("GSYNC", "MPI_BARRIER") else (
            "broadcast" if name == "MPI_BCAST" else "global operation")
    return e.pattern


def build_saag(aag: AAG, sag: SAG, nprocs: int, given: dict[str, sp.Expr] | None = None) -> SAAG:
    """Interpret the configuration once and collect its edges and problems."""
    given = dict(given or {})
    check_given(aag, given)
    sched, procs, _host = interpret(aag, sag, nprocs, Inputs(given), "mid", True, timing=False)
    records = [
        SyncRecord(i, e.kind, _pattern(e, aag), e.src, e.src_aau, e.dst, e.dst_aau, e.size,
                   e.tag, e.count)
        for i, e in enumerate(sched.edges.values(), start=1)
    ]
    return SAAG(aag, nprocs, procs, records, list(sched.problems), list(sched.notes))
