"""MPI_REDUCE and MPI_ALLREDUCE combine with the operator their argument names (MPI_MAX,
MPI_MIN, MPI_SUM); the result is followed into the program's control flow. A test that failed
before: every MPI reduction was summed (MPI_MAX of 1..4 gave 10)."""

from __future__ import annotations

from interp.engine.saag import build_saag

from .helpers import aag_of, load, program


def test_max_min_sum_results_drive_the_message_counts():
    """reduceops.f, P = 4: MX = max(1..4) = 4 and MN = min = 1 at rank 0, IS = 1+2+3+4 = 10
    everywhere: rank 0 sends MX - MN + 1 = 4 messages, rank 1 receives IS - 6 = 4."""
    saag = build_saag(aag_of(program("reduceops.f")), load(), 4)
    assert saag.problems == []
    p2p = [(e.src, e.dst, int(e.count)) for e in saag.edges if e.kind == "sync"]
    assert p2p == [("rank 0", "rank 1", 4)]
