"""MPI_COMM_DUP: a communicator with the same ranks whose messages match only receives on it
(MPI's separate context). commdup.f, P = 2: rank 0 sends 16 B on the duplicate, then 8 B on
the world; rank 1 receives on the world first (8 B buffer) and gets the second message, then
the first on the duplicate. Matched across communicators, the 16 B message would overflow
the 8 B receive (a reported mismatch)."""

from __future__ import annotations

from interp.engine.saag import build_saag

from .helpers import aag_of, load, program


def test_dup_keeps_ranks_and_separates_messages():
    saag = build_saag(aag_of(program("commdup.f")), load(), 2)
    assert saag.problems == []
    p2p = sorted((e.src, e.dst, e.size) for e in saag.edges if e.kind == "sync")
    assert p2p == [("rank 0", "rank 1", "16"), ("rank 0", "rank 1", "8")]
