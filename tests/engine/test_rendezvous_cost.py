"""Messages above the eager threshold (docs/mpi.md, "Eager and rendezvous"): in MPI
collectives as in point-to-point sends, and what they cost under ``cs.spec.rendezvous_cost``
(``overheads``, the default; ``transfer``, SMPI's, which ``interp validate`` predicts with).

Cluster spec, computation switched off, ``channel: fair`` (validate's semantics): eager
threshold 65536 B; the dynamic class (above 8 KiB) costs 3.5 us startup, 0.08 ns/B, 0.05 us a
link (ranks of one leaf switch: 2 links, 0.1 us) and 0.2 us receive. 16384 doubles = 131072 B,
rendezvous: 131072 · 0.08 ns + 0.1 us = 10.58576 us on the wire. Times in microseconds."""

from __future__ import annotations

import pytest

from interp.system import load_machine
from interp.system.filter import rendezvous_cost
from interp.system.simgrid import simgrid_channel, simgrid_semantics, zero_computation

from .helpers import REL, program, rows_by_pid, run

US = 1e-6
STARTUP, RECEIVE = 3.5, 0.2
WIRE = 131072 * 0.08e-3 + 2 * 0.05  # 10.58576


def machine(cost: str):
    base = zero_computation(simgrid_channel(load_machine("cluster")))
    return base.with_values({"core.cs.spec.rendezvous_cost": cost}) if cost != "overheads" \
        else base


def ends(name: str, nprocs: int, cost: str) -> dict[int, float]:
    fast = rows_by_pid(run(program(name), nprocs, machine=machine(cost)))
    exact = rows_by_pid(run(program(name), nprocs, machine=machine(cost), exact=True))
    out = {pid: float(r["finish"]) / US for pid, r in fast.items()}
    assert out == pytest.approx({pid: float(r["finish"]) / US for pid, r in exact.items()},
                                rel=REL)
    return out


def test_broadcast_tree_sends_above_the_threshold_wait_for_their_receive():
    """rdv_bcast.f, P = 4, root 3: SMPI's binomial tree (relative ranks: 0 -> 2, then 0 -> 1
    while 2 -> 3; world ranks 3 -> 1, 3 -> 0, 1 -> 2) of blocking sends, each a rendezvous.
    The root's first send ends when its data is in, 3.5 + 10.58576 = 14.08576, its second
    14.08576 later: 28.17152. Rank 1 has the data at 14.08576 + 0.2 = 14.28576 and forwards
    it: 28.37152; rank 0's arrives at 28.17152 (+ 0.2), rank 2's at 28.37152 (+ 0.2).
    (Before: the tree's sends were eager at any size, the root free at 2 · 3.5 = 7 us, and its
    two messages shared its up-link.)"""
    first = STARTUP + WIRE
    assert first == pytest.approx(14.08576)
    expected = {3: 2 * first, 1: first + RECEIVE + first, 0: 2 * first + RECEIVE,
                2: first + RECEIVE + first + RECEIVE}
    assert ends("rdv_bcast.f", 4, "overheads") == pytest.approx(expected, rel=REL)


def test_transfer_drops_the_overheads_of_a_blocking_rendezvous():
    """rdv_bcast.f as SMPI prices it (``transfer``): a blocking send above the threshold pays
    no startup and its receive no call overhead: every hop is the wire alone, 10.58576; the
    root ends at 2 · 10.58576, rank 1 forwards at 10.58576, rank 2 ends at 2 · 10.58576. SMPI
    3.32 gives 21.2 us at P = 4 (docs/validation.md, "unseen programs")."""
    expected = {3: 2 * WIRE, 1: 2 * WIRE, 0: 2 * WIRE, 2: 2 * WIRE}
    assert ends("rdv_bcast.f", 4, "transfer") == pytest.approx(expected, rel=REL)


def test_point_to_point_overheads_and_transfer():
    """rdv_p2p.f, P = 2: an MPI_SEND, then an MPI_ISEND + MPI_WAIT, of 131072 B.
    overheads: the first arrives at 3.5 + 10.58576 = 14.08576 (rank 0 free then), rank 1 has
    it at 14.28576; the isend's data leaves at 14.08576 + 3.5 (the receive is posted) and
    arrives at 28.17152, rank 1 ends at 28.37152.
    transfer: the MPI_SEND is the wire alone, 10.58576 for both ranks; the MPI_ISEND still
    pays its startup first (SMPI's ``smpi/ois``): 10.58576 + 3.5 + 10.58576 = 24.67152, and
    no receive overhead."""
    first = STARTUP + WIRE
    assert ends("rdv_p2p.f", 2, "overheads") == pytest.approx(
        {0: 2 * first, 1: 2 * first + RECEIVE}, rel=REL)
    assert ends("rdv_p2p.f", 2, "transfer") == pytest.approx(
        {0: 2 * WIRE + STARTUP, 1: 2 * WIRE + STARTUP}, rel=REL)


def test_gather_root_takes_rendezvous_messages_one_after_another():
    """rdv_gather.f, P = 4, root 3: SMPI's linear gather, the root's blocking receives in rank
    order, each sender's blocking send a rendezvous: rank k's data leaves when the root has
    taken rank k − 1's. transfer: ranks 0, 1, 2 end at 1, 2, 3 × 10.58576, the root at
    3 × 10.58576 (SMPI 3.32: 31.8 us at P = 4). overheads: rank 0's arrives at 14.08576, the
    root posts the next receive at 14.28576, rank 1's leaves then (its startup is over) and
    arrives at 24.87152, rank 2's at 24.87152 + 0.2 + 10.58576 = 35.65728, the root ends at
    35.85728. (Before: every sender eager, free at 3.5, their three messages sharing the
    root's down-link.)"""
    assert ends("rdv_gather.f", 4, "transfer") == pytest.approx(
        {0: WIRE, 1: 2 * WIRE, 2: 3 * WIRE, 3: 3 * WIRE}, rel=REL)
    r0 = STARTUP + WIRE
    r1 = r0 + RECEIVE + WIRE
    r2 = r1 + RECEIVE + WIRE
    assert (r0, r1, r2) == pytest.approx((14.08576, 24.87152, 35.65728))
    assert ends("rdv_gather.f", 4, "overheads") == pytest.approx(
        {0: r0, 1: r1, 2: r2, 3: r2 + RECEIVE}, rel=REL)


def test_validate_predicts_with_smpis_rendezvous_cost():
    """simgrid_semantics sets ``transfer`` where the spec has an eager threshold (the cluster)
    and says so; the iPSC/860 has none (every MPI send eager): nothing to change."""
    sag, changes = simgrid_semantics(load_machine("cluster"))
    assert rendezvous_cost(sag) == "transfer"
    assert "cs.spec.rendezvous_cost: transfer (the spec says overheads)" in changes
    _, changes = simgrid_semantics(load_machine("ipsc860"))
    assert not any("rendezvous_cost" in c for c in changes)
