"""Which message an MPI_ANY_SOURCE receive takes when several are, or will be, there
(``cs.spec.any_source``): ``arrival`` (the default: the first to arrive) or ``posted`` (SMPI's
mailbox: the first send posted, after its startup; ``interp validate`` predicts with it).

anysrc_order.f, P = 4 on the iPSC/860 (Table 3), computation off, ``channel: fair``: rank 1
sends rank 0 2000 B at once; rank 3 sends it 200 B once an 8-byte message from rank 2 is in;
rank 0 takes two messages from any rank and answers each sender with 1000 B at once.
  rank 1's: posted at 175, arrives 175 + 2000 · 0.36 + 33 = 928 (1 hop);
  rank 2 -> 3: 70 + 8 · 0.42 + 11 = 84.36 (static class, 1 hop);
  rank 3's: posted at 84.36 + 175 = 259.36, arrives 259.36 + 72 + 2 · 33 = 397.36;
  an answer: 175 startup, 360 us on the wire, 33 us a hop. Receive 0. Times in us."""

from __future__ import annotations

import pytest

from interp.system import load_machine
from interp.system.simgrid import simgrid_channel, zero_computation

from .helpers import REL, program, rows_by_pid, run


def ends(mode: str, exact: bool) -> dict[int, float]:
    machine = zero_computation(simgrid_channel(load_machine("ipsc860")))
    if mode != "arrival":
        machine = machine.with_values({"node.cs.spec.any_source": mode})
    rows = rows_by_pid(run(program("anysrc_order.f"), 4, machine=machine, exact=exact))
    return {pid: float(r["finish"]) * 1e6 for pid, r in rows.items()}


@pytest.mark.parametrize("exact", [False, True])
def test_arrival_takes_the_message_that_arrives_first(exact):
    """arrival: rank 3's (397.36) first, although rank 1 was interpreted first and its
    message was in flight before rank 3's was sent: rank 0 answers rank 3 at 397.36 (rank 3
    ends at 397.36 + 175 + 360 + 66 = 998.36), is free at 572.36, takes rank 1's at 928 and
    answers it: rank 1 ends at 928 + 175 + 360 + 33 = 1496, rank 0 at 1103. (Before, rank 0
    took the message in flight when its receive was first matched, rank 1's: rank 3 ended at
    1856, rank 0 at 1278.)"""
    assert ends("arrival", exact) == pytest.approx(
        {0: 928 + 175, 1: 928 + 175 + 360 + 33, 2: 70, 3: 397.36 + 175 + 360 + 66}, rel=REL)


@pytest.mark.parametrize("exact", [False, True])
def test_posted_takes_the_first_send_posted(exact):
    """posted: rank 1's (posted at 175, before rank 3's at 259.36) first, as SMPI. Rank 0
    answers rank 1 at 928 (free at 1103; the answer on the link 0 -> 1 from 1136 to 1496
    alone) and rank 3 at 1103 (free at 1278; its answer, 0 -> 1 -> 3, on the wire from
    1278 + 66 = 1344). Both share the link 0 -> 1 from 1344, weighted by route length (CM02):
    rank 1's gets 2/3 and has 1496 − 1344 = 152 us of bytes left: it ends at 1344 + 228 =
    1572, rank 3's has done 76 of its 360 by then and ends at 1572 + 284 = 1856. SMPI 3.32
    gives the four ranks' ends to the microsecond: 1278, 1572, 70, 1856."""
    assert ends("posted", exact) == pytest.approx(
        {0: 1278, 1: 1344 + 152 * 3 / 2, 2: 70, 3: 1344 + 152 * 3 / 2 + 360 - 76}, rel=REL)
    assert 1344 + 152 * 3 / 2 == pytest.approx(1572)
