"""The two ideal machines of Zhang and Xu's scalability study (seed 002, Section 3.2), beside
the real machine a spec describes (docs/scalability.md).

* **MIRACLE** always speeds up linearly: ``T_p^M = T_s / P`` (eq. 6-7). The paper takes
  ``T_s`` on one node of the real machine and states ``T_s^P = T_s``; interp takes it on one
  node of the PRAM (:meth:`interp.analysis.scalability.Runs.ts`), where a message-passing
  program's messages to itself or its host cost nothing, so that the equality holds by
  construction (docs/scalability.md). It needs no spec of its own: :func:`miracle_time` is
  the whole machine.
* **PRAM** has the real machine's processors and the program's dependencies, but no network
  latency, contention or remote-memory distance: :func:`pram` is the spec with every cost of
  the communication structure (``cs``: static and dynamic message costs, per hop and per byte,
  receive, synchronization) at 0. The engine then plays the program's communication graph at
  zero cost, as the paper plays its thread graph with zero communication latency.

What stays in the PRAM, and why: the processors' op, loop, call and library costs, and each
node's own memory hierarchy (``m.access``: a message-passing node's cache and memory are local,
so they are not memory *distance*; keeping them keeps ``T_s^P = T_s``), and the spawn of node
programs (``p.nx.load``, process creation, a cost of the program's structure). A message's call
overhead is part of its startup cost in the spec, so it is zero on the PRAM too.
"""

from __future__ import annotations

from dataclasses import replace

from interp.system import SAG

PRAM_GROUPS = ("static", "dynamic", "sync")
"""The groups of ``cs`` whose values are costs (``spec`` holds choices and sizes, ``overlap``
fractions of a cost, both meaningless at zero cost)."""


def pram(sag: SAG) -> SAG:
    """``sag`` as a PRAM: every communication cost of every SAU at 0."""
    factors = {}
    for p in sag.parameters():
        parts = p.path.split(".")
        if len(parts) > 3 and parts[1] == "cs" and parts[2] in PRAM_GROUPS and not p.is_text:
            factors[p.path] = 0
    return replace(sag.scaled(factors), name=f"{sag.name}-pram",
                   title=f"{sag.title}, as a PRAM (no communication cost)")


def miracle_time(ts: float, nprocs: int) -> float:
    """``T_p^M = T_s / P`` (eq. 6-7): the MIRACLE machine's time on ``nprocs`` nodes."""
    return ts / nprocs
