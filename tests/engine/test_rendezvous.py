"""The eager/rendezvous threshold (``cs.spec.eager_threshold``, 64 KiB on the cluster spec):
an MPI_SEND or MPI_ISEND of more bytes waits for the matching receive, so a head-on exchange
of such sends is a deadlock; at or below the threshold it stays clean.

Cluster spec values (machine_specs/cluster.yaml, load = 0), computation switched off:
dynamic class (above the 8 KiB static buffers) startup 3.5 us, per_byte 0.08 ns, per_hop
0.1 us (a crossbar: one hop), receive 0.2 us; overlap async_send 0.5."""

from __future__ import annotations

import pytest

from interp.engine.saag import build_saag
from interp.system.simgrid import zero_computation

from .helpers import REL, aag_of, load, program, rows_by_pid, run

STARTUP, PER_BYTE, PER_HOP, RECEIVE = 3.5e-6, 0.08e-9, 0.1e-6, 0.2e-6


def _check(n: int):
    import sympy as sp
    return build_saag(aag_of(program("headon.f")), load("cluster"), 2, {"N": sp.Integer(n)})


def test_head_on_sends_above_the_threshold_deadlock_with_both_calls():
    """N = 16385 integers = 65540 bytes > 65536: both MPI_SENDs wait for a receive."""
    saag = _check(16385)
    assert [p.kind for p in saag.problems] == ["deadlock"]
    msg = saag.problems[0].message
    assert "rank 0 waits in MPI_SEND" in msg and "rank 1 waits in MPI_SEND" in msg
    assert "rendezvous" in msg and "headon.f:12:7" in msg
    assert len(saag.problems[0].locations) == 2


def test_head_on_sends_at_the_threshold_stay_clean():
    """N = 16384 integers = 65536 bytes: eager, both sends return, both receives match."""
    assert _check(16384).problems == []


def _finish(name: str) -> dict[int, float]:
    pred = run(program(name), 3, machine=zero_computation(load("cluster")))
    return {pid: float(r["finish"]) for pid, r in rows_by_pid(pred).items()}


def test_rendezvous_send_waits_for_the_receive_hand_computed():
    """Rank 2's 60000 bytes (eager) reach rank 1 at 3.5 + 60000·0.08e-3 + 0.1 = 8.4 us; rank 1
    takes them (+0.2) and posts its receive of rank 0's 80000 bytes at 8.6 us. Rank 0's
    MPI_SEND started at 0: its data leaves at max(0 + 3.5, 8.6) = 8.6 us, arrives at
    8.6 + 80000·0.08e-3 + 0.1 = 15.1 us, when the send returns; rank 1 is done at 15.3 us.
    (Eager, rank 0 would be done at 3.5 us.)"""
    posted = STARTUP + 60000 * PER_BYTE + PER_HOP + RECEIVE
    assert posted == pytest.approx(8.6e-6)
    arrival = max(STARTUP, posted) + 80000 * PER_BYTE + PER_HOP
    assert arrival == pytest.approx(15.1e-6)
    finish = _finish("rendezvous.f")
    assert finish[0] == pytest.approx(arrival, rel=REL)
    assert finish[1] == pytest.approx(arrival + RECEIVE, rel=REL)


def test_rendezvous_isend_completes_in_its_wait_hand_computed():
    """The same with MPI_ISEND + MPI_WAIT: the isend costs (1 - 0.5)·3.5 = 1.75 us, its wait
    ends when the data has arrived, 15.1 us as above."""
    posted = STARTUP + 60000 * PER_BYTE + PER_HOP + RECEIVE
    arrival = max(STARTUP, posted) + 80000 * PER_BYTE + PER_HOP
    finish = _finish("rendezvous_isend.f")
    assert finish[0] == pytest.approx(arrival, rel=REL)
    assert finish[1] == pytest.approx(arrival + RECEIVE, rel=REL)
