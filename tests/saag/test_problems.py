"""What the Level 2 parse finds wrong (core paper §3.3.2: "mismatched communication/
synchronization calls, missing calls, potential deadlocks"), each with its exact locations.

Kinds: ``unmatched`` (a receive no send can match, a send nobody receives), ``mismatch``
(types/tags that never agree, a message longer than the receive buffer), ``collective`` (a
global operation some node never reaches) and ``deadlock`` (a cycle of waits)."""

from __future__ import annotations

import pytest

from .helpers import cycle_of, loc, problems, prog, saag, summary


def test_a_receive_no_send_can_match_is_unmatched_at_the_receive():
    f = prog("unmatched_recv.f")
    found = problems(saag(f, 2))
    assert [(p["kind"], p["locations"]) for p in found] == [("unmatched", [loc(f, 6, 10)])]
    assert "node 1" in found[0]["message"] and "CRECV" in found[0]["message"]


def test_a_send_nobody_receives_is_unmatched_at_the_send():
    """The csend sits in a logical IF: its column is that of CALL (22), not of IF."""
    f = prog("unmatched_send.f")
    found = problems(saag(f, 2))
    assert [(p["kind"], p["locations"]) for p in found] == [("unmatched", [loc(f, 5, 22)])]
    assert "node 0" in found[0]["message"] and "node 1" in found[0]["message"]


def test_types_10_and_20_are_a_mismatch_naming_both_lines():
    f = prog("type_mismatch.f")
    found = problems(saag(f, 2))
    assert [(p["kind"], p["locations"]) for p in found] == \
        [("mismatch", [loc(f, 6, 10), loc(f, 8, 10)])]
    msg = found[0]["message"]
    assert f"{f}:6:10" in msg and f"{f}:8:10" in msg
    assert "10" in msg and "20" in msg


def test_mpi_tags_10_and_20_are_a_mismatch_naming_both_lines():
    f = prog("mpi_tag_mismatch.f")
    found = problems(saag(f, 2))
    assert [(p["kind"], p["locations"]) for p in found] == \
        [("mismatch", [loc(f, 9, 10), loc(f, 12, 10)])]
    assert f"{f}:9:10" in found[0]["message"] and f"{f}:12:10" in found[0]["message"]


def test_a_message_longer_than_the_receive_buffer_is_a_mismatch():
    f = prog("too_long.f")
    found = problems(saag(f, 2))
    assert [(p["kind"], p["locations"]) for p in found] == \
        [("mismatch", [loc(f, 6, 10), loc(f, 8, 10)])]
    assert "80" in found[0]["message"] and "40" in found[0]["message"]


@pytest.mark.parametrize("nprocs", [2, 4])
def test_a_gdsum_one_node_never_reaches_is_a_collective_problem(nprocs):
    f = prog("gdsum_skip.f")  # IF (ME .NE. 1) CALL GDSUM(X, 1, WORK)
    found = problems(saag(f, nprocs))
    assert [p["kind"] for p in found] == ["collective"], summary(saag(f, nprocs))
    assert found[0]["locations"], found[0]
    assert all(x == loc(f, 6, 22) for x in found[0]["locations"]), found[0]["locations"]
    msg = found[0]["message"]
    assert "GDSUM" in msg and "never by node 1" in msg


@pytest.mark.parametrize("nprocs", [2, 4, 8, 16])
def test_every_node_receiving_before_it_sends_deadlocks(nprocs):
    """recv_first.f: crecv at line 8 before csend at line 9 on every node. The cycle lists every
    process once, each waiting in CRECV at line 8, and closes on its first process."""
    f = prog("recv_first.f")
    found = problems(saag(f, nprocs))
    assert [p["kind"] for p in found] == ["deadlock"], summary(saag(f, nprocs))
    steps = cycle_of(found[0]["message"])
    assert sorted(s[0] for s in steps) == sorted(f"node {k}" for k in range(nprocs))
    assert {s[1:] for s in steps} == {("CRECV", f, 8, 7)}
    assert found[0]["message"].rstrip().endswith(f"-> {steps[0][0]}")
    assert found[0]["locations"] and all(x == loc(f, 8, 7) for x in found[0]["locations"])


@pytest.mark.parametrize("nprocs", [2, 4, 8])
def test_mpi_ring_receiving_first_deadlocks_in_ring_order(nprocs):
    """With explicit sources the cycle is fixed: rank k waits for rank k-1."""
    f = prog("mpi_recv_first.f")
    found = problems(saag(f, nprocs))
    assert [p["kind"] for p in found] == ["deadlock"], summary(saag(f, nprocs))
    steps = cycle_of(found[0]["message"])
    assert {s[1:] for s in steps} == {("MPI_RECV", f, 11, 7)}
    ranks = [int(s[0].split()[1]) for s in steps]
    assert sorted(ranks) == list(range(nprocs))
    assert all(b == (a - 1) % nprocs for a, b in zip(ranks, ranks[1:] + ranks[:1])), ranks


def test_a_clean_program_has_no_problems():
    assert problems(saag(prog("nx_sync.f"), 2)) == []


def test_mpi_type_signatures_that_differ_are_a_mismatch_and_an_open_request_is_unwaited():
    f = prog("mpi_types_unwaited.f")
    found = problems(saag(f, 2))
    kinds = [(p["kind"], p["locations"]) for p in found]
    assert ("mismatch", [loc(f, 12, 10), loc(f, 15, 10)]) in kinds
    assert ("unwaited", [loc(f, 12, 10)]) in kinds
    assert len(kinds) == 2
    mismatch = next(p for p in found if p["kind"] == "mismatch")["message"]
    assert "MPI_INTEGER" in mismatch and "MPI_DOUBLE_PRECISION" in mismatch
