"""A collective's late flows share links both ways with the next collective's early ones
(engine/collectives.py, ``Stage``): max-min as SimGrid's CM02, not "the first keeps its link
time and the second gets what is left". iPSC/860 (Table 3), computation switched off,
``channel: fair`` (as ``interp validate`` runs, one sender's messages sharing too): dynamic
class 175 us startup + 0.36 us/B + 33 us/hop, receive 0; eager MPI sends free the sender after
its startup. Times in microseconds."""

from __future__ import annotations

import pytest

from interp.system import load_machine
from interp.system.simgrid import simgrid_channel, zero_computation

from .helpers import DYNAMIC_PER_BYTE, DYNAMIC_PER_HOP, DYNAMIC_STARTUP, REL, program, rows_by_pid, run

US = 1e-6
STARTUP, PER_HOP = DYNAMIC_STARTUP / US, DYNAMIC_PER_HOP / US  # 175, 33
WIRE = 1000 * DYNAMIC_PER_BYTE / US  # 125 doubles = 1000 B: 360 us on a link


def test_reduce_then_alltoall_share_the_link_both_ways():
    """reduce_alltoall2.f, P = 2 (nodes 0 and 1 of the cube, one hop each way).
    MPI_REDUCE to rank 0: rank 1's 1000 B go 1 -> 0, on the wire from 175 + 33 = 208; rank 1
    is free at 175 and enters MPI_ALLTOALL, whose 1 -> 0 block is on the wire from
    175 + 175 + 33 = 383, while the reduce's is still there (it would end at 208 + 360 = 568).
    Both share the link 1 -> 0 from 383: the reduce's has 360 - 175 = 185 left and ends at
    383 + 2 · 185 = 753; the alltoall's, 185 done by then, ends at 753 + 175 = 928.
    Rank 0 leaves the reduce at 753, and its block 0 -> 1 (a link of its own) reaches rank 1
    at 753 + 175 + 33 + 360 = 1321; rank 0 ends at max(753 + 175, 928) = 928.
    (With the reduce's flow fixed first, as before: rank 0 left it at 568, the alltoall's
    1 -> 0 waited until 568 and ended at 928 still, and rank 1 ended at
    568 + 175 + 33 + 360 = 1136.)"""
    first = STARTUP + PER_HOP  # 208
    second = STARTUP + STARTUP + PER_HOP  # 383
    reduce_end = second + 2 * (WIRE - (second - first))  # 753
    alltoall_in = reduce_end + (WIRE - (reduce_end - second) / 2)  # 928
    assert (reduce_end, alltoall_in) == pytest.approx((753, 928))
    rank1 = reduce_end + STARTUP + PER_HOP + WIRE  # 1321
    rank0 = max(reduce_end + STARTUP, alltoall_in)  # 928
    machine = zero_computation(simgrid_channel(load_machine("ipsc860")))
    rows = rows_by_pid(run(program("reduce_alltoall2.f"), 2, machine=machine))
    assert float(rows[1]["finish"]) == pytest.approx(rank1 * US, rel=REL)
    assert float(rows[0]["finish"]) == pytest.approx(rank0 * US, rel=REL)



def test_pairs_keep_their_own_collectives_open():
    """pair_reduce_alltoall.f, P = 4: the case above on two communicators at once, {0, 1}
    and {2, 3} (MPI_COMM_SPLIT(ME / 2)), whose messages cross links of their own (0 <-> 1,
    2 <-> 3). The split, an MPI_ALLGATHER of 8 bytes (the spec's split), is two rounds of
    static messages, 70 + 8 · 0.42 + 11 = 84.36 us each, every rank leaving at 168.72; then
    each pair is the case above, 168.72 later: ranks 1 and 3 end at 168.72 + 1321, ranks 0
    and 2 at 168.72 + 928. (One chain of open collectives for the whole machine, as before:
    the other pair's reduce, priced in between, closed this pair's, and its alltoall's
    1 -> 0 block got what the reduce's fixed flow left: rank 1 ended at 168.72 + 1136.)"""
    split = 2 * (70 + 8 * 0.42 + 11)
    assert split == pytest.approx(168.72)
    first = STARTUP + PER_HOP
    second = STARTUP + STARTUP + PER_HOP
    reduce_end = second + 2 * (WIRE - (second - first))
    alltoall_in = reduce_end + (WIRE - (reduce_end - second) / 2)
    expected = {1: split + reduce_end + STARTUP + PER_HOP + WIRE,
                0: split + max(reduce_end + STARTUP, alltoall_in)}
    assert expected == pytest.approx({1: 168.72 + 1321, 0: 168.72 + 928})
    machine = zero_computation(simgrid_channel(load_machine("ipsc860")))
    rows = rows_by_pid(run(program("pair_reduce_alltoall.f"), 4, machine=machine))
    ends = {pid: float(row["finish"]) / US for pid, row in rows.items()}
    assert ends == pytest.approx({0: expected[0], 1: expected[1], 2: expected[0],
                                  3: expected[1]}, rel=REL)
