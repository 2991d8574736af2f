"""A message buffer named by an array element with an MPI count n carries the n elements from
there, and the receive lays them out from its own buffer's element (a test that failed
before: only X(k) travelled, and it landed in the receiver's first element)."""

from __future__ import annotations

from interp.engine.saag import build_saag

from .helpers import aag_of, load, program


def test_elements_travel_and_land_from_the_receive_buffer():
    """elembuf.f, P = 2: X(3), X(4) = 7, 5 land in Y(5), Y(6): rank 1 sends Y(6) = 5 messages.
    MPI_BCAST of Z(0..2) from Z(0): Z(2) = 1 barrier on every rank."""
    saag = build_saag(aag_of(program("elembuf.f")), load(), 2)
    assert saag.problems == []
    back = [int(e.count) for e in saag.edges if e.kind == "sync" and e.src == "rank 1"]
    assert back == [5]
    barriers = [e for e in saag.edges if e.pattern == "barrier"]
    assert barriers and all(int(e.count) == 1 for e in barriers)
