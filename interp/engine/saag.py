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

from dataclasses import dataclass, field, replace

import sympy as sp

from interp.application.aag import AAG
from interp.engine.sync import Problem
from interp.engine.edges import KIND_SYMBOL, CommEdge
from interp.engine.predict import check_given, interpret, parameters_set
from interp.engine.process import Process
from interp.engine.timeval import FormulaTooLarge
from interp.engine.values import Inputs
from interp.system import SAG


@dataclass
class SAAG:
    aag: AAG
    nprocs: int
    processes: list[Process]
    edges: list[CommEdge]  # numbered from 1: the global synchronization structure
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


def build_saag(aag: AAG, sag: SAG, nprocs: int, given: dict[str, sp.Expr] | None = None) -> SAAG:
    """Interpret the configuration once and collect its edges and problems."""
    # --set of a PARAMETER (N = 100000): the program rebuilt with it, as predict does
    aag, given, _constants, rebuilt = parameters_set(aag, dict(given or {}))
    check_given(aag, given)
    first = Inputs(given, given=given)
    try:
        sched, procs, _host = interpret(aag, sag, nprocs, first, "mid", True, timing=False)
    except FormulaTooLarge:  # the clocks do not matter here: data symbols take their values
        sched, procs, _host = interpret(aag, sag, nprocs, replace(first, numeric=True),
                                        "mid", True, timing=False)
    edges = list(sched.edges.values())
    for i, e in enumerate(edges, start=1):
        e.id = i
    return SAAG(aag, nprocs, procs, edges, list(sched.problems), rebuilt + list(sched.notes))


__all__ = ["SAAG", "build_saag", "CommEdge", "KIND_SYMBOL"]
