"""The SAAG's communication edges (core paper, level 2): one record per matched pair.

A ``CommEdge`` joins the AAU of one process that sends (or takes part in a global operation)
to the AAU of another that receives: ⇔ synchronous, ⇒ asynchronous, ⇐ synchronization. The
scheduler creates them while it matches messages, ``count`` adds up the occurrences (in closed
form for steady-state loops), and the SAAG, the reports and the plots read the same objects.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from interp.application.expr import as_sympy

KIND_SYMBOL = {"sync": "⇔", "async": "⇒", "collective": "⇐"}


@dataclass(slots=True)  # one per matched pair of AAUs: at large P several a rank
class CommEdge:
    kind: str  # sync (⇔) | async (⇒) | collective (⇐)
    pattern: str  # point-to-point | broadcast | global operation | barrier
    src: str
    src_aau: int
    dst: str
    dst_aau: int
    size: str
    tag: int | None
    count: sp.Expr = 1
    id: int = 0  # its number in the global synchronization structure (set by the SAAG)

    def to_json(self) -> dict:
        count = as_sympy(self.count)
        return {"id": self.id, "kind": self.kind, "relation": KIND_SYMBOL[self.kind],
                "pattern": self.pattern, "src": self.src, "src_aau": self.src_aau,
                "dst": self.dst, "dst_aau": self.dst_aau, "size": self.size, "tag": self.tag,
                "count": int(count) if count.is_Integer else str(count)}


def collective_pattern(call_name: str) -> str:
    """How a global operation's edges read in the SAAG."""
    if call_name in ("GSYNC", "MPI_BARRIER"):
        return "barrier"
    return "broadcast" if call_name == "MPI_BCAST" else "global operation"
