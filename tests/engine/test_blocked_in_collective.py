"""Under ``channel: fair`` (validate's semantics) a matched flow is final only once its sender
can add nothing to its links (docs/validation.md, "fifo and fair"). A sender blocked in a
collective whose members have all entered leaves it at the latest entry, and may send then:
it was taken to send nothing more, so its next message queued behind the first instead of
sharing the link (NPB-like row/column codes: a column MPI_BCAST's root between two row
MPI_ALLREDUCEs; splitrc.f of the unseen programs, P = 8 on the iPSC/860, −25.5% against SMPI).

iPSC/860 (Table 3), computation off: a 2000-byte message costs 175 us startup, then 720 us on
the link (0.36 us/B), 33 us a hop; an 8-byte one 70 + 8 · 0.42 + 11 = 84.36 us; receive 0."""

from __future__ import annotations

import pytest

from interp.system import load_machine
from interp.system.simgrid import simgrid_channel, zero_computation

from .helpers import REL, program, rows_by_pid, run


@pytest.mark.parametrize("exact", [False, True])
def test_sender_in_a_complete_collective_still_shares_the_link(exact):
    """bcast_coll_wait.f, P = 2. Rank 0's broadcast message to rank 1 is on the link from
    175 + 33 = 208; rank 0 is free at 175, passes an MPI_ALLREDUCE on MPI_COMM_SELF (no
    message) and sends 2000 bytes more, on the link from 175 + 175 + 33 = 383. By then the
    first has 720 − 175 = 545 us of bytes left; the two share the link, so it ends at
    383 + 2 · 545 = 1473 and the second at 1473 + 175 = 1648. Rank 1 answers the first with 8
    bytes: rank 0 ends at 1473 + 84.36 = 1557.36 (SMPI 3.32: 1,648.0 us for the run). Before,
    the first message was final at 928 as if alone (rank 0, in the allreduce, was taken to
    send nothing more) and rank 0 ended at 928 + 84.36 = 1012.36."""
    first = 208 + 175 + 2 * (720 - 175)
    assert first == pytest.approx(1473)
    machine = zero_computation(simgrid_channel(load_machine("ipsc860")))
    rows = rows_by_pid(run(program("bcast_coll_wait.f"), 2, machine=machine, exact=exact))
    ends = {pid: float(r["finish"]) * 1e6 for pid, r in rows.items()}
    assert ends == pytest.approx({0: first + 84.36, 1: first + 175}, rel=REL)
