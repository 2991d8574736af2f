"""Lost cycles worked by hand from the spec tables (docs/lost-cycles.md, "Categories").

iPSC/860 (machine_specs/ipsc860.yaml, the paper's Tables 1-3): 40 MHz, so 1 clk = 25 ns;
dynamic buffers (messages over 100 B): startup 175 us, 0.36 us/B, 33 us/hop, receive 0.
cluster (machine_specs/cluster.yaml): 2.5 GHz, 1 clk = 0.4 ns; eager (static) messages:
startup 1.5 us, 0.08 ns/B, 0.1 us/hop, receive 0.5 us; barrier round 2 us; an MPI call
interp does not price otherwise costs the library default, 60 clk = 24 ns (mid of 20-100).
Ranges are used at their mid point.
"""

from __future__ import annotations

from pathlib import Path

from pytest import approx

from interp import api

PROGRAMS = Path(__file__).parent / "programs"
CLK_IPSC = 25e-9
CLK_CLUSTER = 0.4e-9


def categories(lc):
    return lc.breakdown("program")[""]


def test_serial_section_then_one_message_on_the_ipsc860():
    """alone.f, 2 nodes: node 0 runs WORK (0.01 s, --routine) alone, then csends 1000 B to
    node 1, which has waited in its crecv since it tested its IF."""
    lc = api.lost_cycles([str(PROGRAMS / "alone.f")], "ipsc860", 2, routines={"WORK": 0.01})
    mynode = (5.421e-7 + 5.302e-7) / 2 + 2 * CLK_IPSC  # Table 1 mynode(), mid; store ME 2 clk
    then_arm = 3 * CLK_IPSC  # 1 condition + fetch ME + branch taken, 1 clk each
    else_arm = 4 * CLK_IPSC  # an ELSE tests one more condition
    startup, transmission = 175e-6, 0.36e-6 * 1000 + 33e-6 * 1  # nodes 0 and 1: one hop
    depart = mynode + then_arm + 0.01  # node 0 starts its csend
    posted = mynode + else_arm  # node 1 starts to wait
    t_p = depart + startup + transmission  # both end when the message is in
    assert lc.p == 2
    assert lc.tp == approx(t_p, rel=1e-12)
    cats = categories(lc)
    # node 1 idles from its crecv until node 0 starts the message; node 0 meanwhile runs
    # WORK, which no other node runs: a serial section
    assert cats["ip"] == approx(depart - posted, rel=1e-12)  # 0.01 s - 1 clk
    assert cats["li"] == 0
    # node 0's csend (call + transmission) and node 1's wait for the data in flight
    assert cats["cl"] == approx(2 * (startup + transmission), rel=1e-12)
    assert cats["sl"] == 0 and cats["rc"] == 0
    assert cats["remaining"] == approx(2 * mynode + then_arm + else_arm + 0.01, rel=1e-12)
    assert sum(cats.values()) == approx(2 * t_p, rel=1e-12)


def test_two_messages_sharing_a_link_on_the_cluster():
    """contend.f, 3 ranks: ranks 1 and 2 MPI_SEND 8000 B (eager) to rank 0 at the same time;
    on the crossbar both flows cross rank 0's port and share it half and half."""
    lc = api.lost_cycles([str(PROGRAMS / "contend.f")], "cluster", 3)
    mpi_call = 60 * CLK_CLUSTER  # MPI_INIT, MPI_COMM_RANK, MPI_FINALIZE each
    then_arm = (1 + 4 + 10.5) * CLK_CLUSTER  # condition, fetch ME (4 clk), taken (1-20: 10.5)
    else_arm = (2 + 4 + 10.5) * CLK_CLUSTER
    startup, hop, receive = 1.5e-6, 0.1e-6, 0.5e-6
    wire = 0.08e-9 * 8000  # 0.64 us alone; two flows at half rate take twice as long
    depart = 2 * mpi_call + else_arm
    arrival = depart + startup + hop + 2 * wire
    finish_0 = arrival + 2 * receive + mpi_call  # both messages are in by then
    finish_sender = depart + startup + mpi_call  # an eager send returns after its startup
    assert lc.tp == approx(finish_0, rel=1e-12)
    cats = categories(lc)
    assert cats["rc"] == approx(wire, rel=1e-9)  # the first message arrives 0.64 us late
    # rank 0 idles for the 1 clk by which ranks 1 and 2, testing their IFs together
    # (parallel work), are later than it to their sends
    assert cats["li"] == approx(else_arm - then_arm, rel=1e-6)
    # rank 0: the data in flight (alone: startup + hop + wire) and two receive overheads;
    # ranks 1 and 2: their startups
    assert cats["cl"] == approx(startup + hop + wire + 2 * receive + 2 * startup, rel=1e-9)
    # ranks 1 and 2 are done while rank 0 still receives (no one computes): nothing parallel
    assert cats["ip"] == approx(2 * (finish_0 - finish_sender), rel=1e-9)
    assert cats["sl"] == 0
    assert cats["remaining"] == approx(9 * mpi_call + then_arm + 2 * else_arm, rel=1e-12)
    assert sum(cats.values()) == approx(3 * lc.tp, rel=1e-12)


def test_waiting_in_a_barrier_is_synchronization_loss():
    """latebar.f, 2 ranks: rank 0 runs WORK (0.01 s) alone, then both meet in MPI_BARRIER
    (one round: each sends the other a 0-byte message, 2 us of sync overhead + 0.1 us hop)."""
    lc = api.lost_cycles([str(PROGRAMS / "latebar.f")], "cluster", 2, routines={"WORK": 0.01})
    mpi_call = 60 * CLK_CLUSTER
    taken = (1 + 4 + 10.5) * CLK_CLUSTER  # rank 0's logical IF, taken
    not_taken = (1 + 4) * CLK_CLUSTER  # rank 1's: tested, not taken
    sync, hop = 2e-6, 0.1e-6
    enter_0 = 2 * mpi_call + taken + 0.01
    enter_1 = 2 * mpi_call + not_taken
    end_0 = enter_0 + sync  # its own send done, rank 1's message long in
    end_1 = enter_0 + sync + hop  # rank 0's message arrives
    cats = categories(lc)
    assert lc.tp == approx(end_1 + mpi_call, rel=1e-12)
    assert cats["sl"] == approx(enter_0 - enter_1, rel=1e-12)  # rank 1 waits for rank 0
    assert cats["cl"] == approx((end_0 - enter_0) + (end_1 - enter_0), rel=1e-6)
    assert cats["ip"] == approx(end_1 - end_0, rel=1e-6)  # rank 0 done, rank 1's data in flight
    assert cats["li"] == 0 and cats["rc"] == 0
    # MPI_INIT, MPI_COMM_RANK and MPI_FINALIZE on each rank, the IFs and WORK
    assert cats["remaining"] == approx(6 * mpi_call + taken + not_taken + 0.01, rel=1e-12)


def test_waiting_for_a_larger_share_of_one_loop_is_load_imbalance():
    """uneven.f, 2 ranks: rank 0 adds 1000 times, rank 1 2000 times in the same loop, then
    rank 1 sends to rank 0. Rank 0 waits in its receive while rank 1 still runs that loop:
    parallel work unfinished, so LI (the paper's "idling, while unfinished parallel work
    exists"), from its receive's start to the end of rank 1's loop."""
    lc = api.lost_cycles([str(PROGRAMS / "uneven.f")], "cluster", 2)
    # one iteration: S = S + 1.5D0 is fetch S (4 clk) + add (1-4: 2.5) + store (1), and the
    # loop's own step (nostep_per_iter 1-2: 1.5 clk)
    iteration = (4 + 2.5 + 1 + 1.5) * CLK_CLUSTER
    # after the loop rank 0 tests IF (ME .EQ. 1), not taken (condition + fetch ME), then
    # IF (ME .EQ. 0), taken (condition + fetch ME + branch 1-20: 10.5 clk), and receives
    tests = ((1 + 4) + (1 + 4 + 10.5)) * CLK_CLUSTER
    cats = categories(lc)
    assert cats["li"] == approx(1000 * iteration - tests, rel=1e-9)  # 3.5918 us
    assert cats["sl"] == 0 and cats["rc"] == 0
    assert sum(cats.values()) == approx(2 * lc.tp, rel=1e-12)
