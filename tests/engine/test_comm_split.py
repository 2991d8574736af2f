"""MPI_COMM_SPLIT: new communicators whose ranks are renumbered (by color, then key, then old
rank); point-to-point calls on them address ranks within them, MPI_COMM_RANK/SIZE and
STATUS(MPI_SOURCE) answer within them. Program: programs/commsplit.f on the iPSC/860 (P = 4,
a 2-cube), computation switched off so the times are the messages' alone (Table 3)."""

from __future__ import annotations

import pytest

from interp.engine.saag import build_saag
from interp.errors import InterpError
from interp.system.filter import comm_split
from interp.system.simgrid import simgrid_semantics, zero_computation

from .helpers import (
    DYNAMIC_PER_BYTE, DYNAMIC_PER_HOP, DYNAMIC_STARTUP, RECEIVE, REL, STATIC_PER_BYTE,
    STATIC_PER_HOP, STATIC_STARTUP, aag_of, load, program, rows_by_pid, run,
)


def test_split_communicators_address_ranks_within_them():
    """Column communicators {0, 2} and {1, 3}: their rank 0 sends to rank NC - 1 = 1, i.e.
    world 0 -> 2 and 1 -> 3. The split with key -ME orders the world 3, 2, 1, 0: its rank 0
    (world 3) sends to its rank 1 (world 2), which sees MPI_SOURCE = 0 (no MPI_ABORT)."""
    saag = build_saag(aag_of(program("commsplit.f")), load(), 4)
    assert saag.problems == []
    p2p = sorted((e.src, e.dst) for e in saag.edges if e.kind == "sync")
    assert p2p == [("rank 0", "rank 2"), ("rank 1", "rank 3"), ("rank 3", "rank 2")]


def test_split_and_messages_on_it_hand_computed():
    """Rank 2's finish. Each MPI_COMM_SPLIT is an MPI_ALLGATHER of (color, key), 8 bytes, in
    the exchange rounds k XOR 1, k XOR 2 (one hop each): a round is an 8-byte static message,
    70 + 8·0.42 + 11 = 84.36 us (an eager send frees its sender after 70 us).
      two splits:                         4 · 84.36 = 337.44 us
      column message 0 -> 2, 1000 B (dynamic): 337.44 + 175 + 360 + 33 = 905.44 us
    Third split: ranks 0, 1 arrive at 337.44 + 175 = 512.44 (after their eager send), 2, 3 at
    905.44. Round 1 (2 <-> 3): both end at 905.44 + 84.36 = 989.80. Round 2 (2 <-> 0, 3 <-> 1):
    rank 0's message arrives early (512.44 + 84.36 + 84.36 = 681.16); rank 2 and 3 end when
    their own send frees them, 989.80 + 70 = 1059.80 us.
    Then world 3 -> 2, NR = 2 integers = 8 bytes (static): 1059.80 + 84.36 = 1144.16 us."""
    pred = run(program("commsplit.f"), 4, machine=zero_computation(load()))
    round_ = STATIC_STARTUP + 8 * STATIC_PER_BYTE + STATIC_PER_HOP
    assert round_ == pytest.approx(84.36e-6)
    column = 4 * round_ + DYNAMIC_STARTUP + 1000 * DYNAMIC_PER_BYTE + DYNAMIC_PER_HOP + RECEIVE
    assert column == pytest.approx(905.44e-6)
    third = column + round_ + STATIC_STARTUP
    assert third == pytest.approx(1059.80e-6)
    expected = third + round_ + RECEIVE
    assert expected == pytest.approx(1144.16e-6)
    assert float(rows_by_pid(pred)[2]["finish"]) == pytest.approx(expected, rel=REL)


def test_undefined_color_gives_comm_null(tmp_path):
    """A rank whose color is MPI_UNDEFINED gets MPI_COMM_NULL and no communicator."""
    src = tmp_path / "undef.f"
    src.write_text("""\
      PROGRAM UNDEF
      INCLUDE 'mpif.h'
      INTEGER ME, IERR, C, COLOR, N
      INTEGER A(10)
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      COLOR = 1
      IF (ME .EQ. 0) COLOR = MPI_UNDEFINED
      CALL MPI_COMM_SPLIT(MPI_COMM_WORLD, COLOR, 0, C, IERR)
      IF (C .NE. MPI_COMM_NULL) THEN
         CALL MPI_COMM_SIZE(C, N, IERR)
         CALL MPI_BCAST(A, N, MPI_INTEGER, 0, C, IERR)
      END IF
      CALL MPI_FINALIZE(IERR)
      END
""")
    saag = build_saag(aag_of(str(src)), load(), 4)
    assert saag.problems == []
    # the binomial broadcast over world 1..3 from its rank 0 (world 1): relative ranks
    # 0 -> 2 (world 1 -> 3), then 0 -> 1 (world 1 -> 2); world 0 takes no part
    bcast = sorted((e.src, e.dst) for e in saag.edges if e.pattern == "broadcast")
    assert bcast == [("rank 1", "rank 2"), ("rank 1", "rank 3")]


def _bad(tmp_path, body: str) -> str:
    src = tmp_path / "bad.f"
    src.write_text("      PROGRAM BAD\n      INCLUDE 'mpif.h'\n"
                   "      INTEGER ME, IERR, C, A(4)\n      CALL MPI_INIT(IERR)\n"
                   "      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)\n"
                   "      CALL MPI_COMM_SPLIT(MPI_COMM_WORLD, ME / 2, ME, C, IERR)\n"
                   + body + "      CALL MPI_FINALIZE(IERR)\n      END\n")
    with pytest.raises(InterpError) as err:
        build_saag(aag_of(str(src)), load(), 4)
    return str(err.value)


def test_rank_outside_the_communicator_is_a_clear_error(tmp_path):
    msg = _bad(tmp_path, "      IF (ME .EQ. 0) CALL MPI_SEND(A, 4, MPI_INTEGER, 2, 1, C, IERR)\n")
    assert "bad.f:7" in msg and "rank 2, which does not exist in a communicator of 2" in msg


def test_a_handle_that_is_no_communicator_is_a_clear_error(tmp_path):
    msg = _bad(tmp_path, "      CALL MPI_BARRIER(C + 1, IERR)\n")
    assert "bad.f:7" in msg and "is not a communicator rank" in msg


def test_split_as_smpi_hand_computed():
    """``cs.spec.comm_split: gather_send`` (what validate predicts with): SMPI 3.32's
    Comm::split, P = 3 on the 2-cube (0 - 1 and 0 - 2 one hop). Every message carries 8 bytes
    (static): 70 + 8·0.42 + 11 = 84.36 us; an eager send frees its sender after 70 us.
    First split (one group 0, 1, 2): the gather, 1 -> 0 and 2 -> 0 at 0, both at rank 0 at
    84.36; rank 0's group to rank 1 (84.36 -> 168.72), then to rank 2 (154.36 -> 238.72);
    then the new communicator's id, broadcast from rank 0 (binomial, farthest child first):
    0 -> 2 at 224.36 (-> 308.72), 0 -> 1 at 294.36 (-> 378.72); rank 0 is free at 364.36.
    Second split (one group per rank, no id to broadcast): 2 -> 0 at 308.72 (-> 393.08),
    1 -> 0 at 378.72 (-> 463.08); rank 0's groups to rank 1 at 463.08 (-> 547.44) and to
    rank 2 at 533.08 (-> 617.44); rank 0 is free at 603.08.
    SMPI's trace gives the same messages, its id (4 bytes) 1.68 us sooner: 0 -> 1 of the
    second split 461.40 -> 545.76, 0 -> 2 531.40 -> 615.76 us (interp's allgather, as MPICH and
    Open MPI split, ends ranks 0, 1, 2 at 463.08, 407.44 and 477.44 us instead)."""
    machine = zero_computation(simgrid_semantics(load())[0])
    ends = {pid: float(row["finish"]) for pid, row in
            rows_by_pid(run(program("split_smpi.f"), 3, machine=machine)).items()}
    msg = STATIC_STARTUP + 8 * STATIC_PER_BYTE + STATIC_PER_HOP + RECEIVE
    assert msg == pytest.approx(84.36e-6)
    sent = msg + STATIC_STARTUP  # rank 0 sends its second group message
    id_sent = sent + STATIC_STARTUP  # then the id to rank 2, then to rank 1
    rank2, rank1 = id_sent + msg, id_sent + STATIC_STARTUP + msg
    assert (rank2, rank1) == pytest.approx((308.72e-6, 378.72e-6))
    second = rank1 + msg  # rank 1's (color, key) reaches rank 0 last
    expected = {0: second + 2 * STATIC_STARTUP, 1: second + msg, 2: second + STATIC_STARTUP + msg}
    assert expected[1] == pytest.approx(547.44e-6) and expected[2] == pytest.approx(617.44e-6)
    assert ends == pytest.approx(expected, rel=REL)
    assert comm_split(machine) == "gather_send" and comm_split(load()) == "allgather"


def test_split_root_takes_each_gathered_message_in_turn():
    """The same two splits, P = 3 on the cluster spec, where a receive costs 0.5 us (on the
    iPSC/860 it costs 0, so a root that takes several messages at once paid nothing for
    them). A message of 8 bytes: startup 1.5 us, then 8 · 0.08 ns on the wire and two links
    of 0.05 us (core, server switch, core), then the receive, 0.5 us: 2.10064 us; an eager
    send frees its sender after its startup.
    First split: 1 -> 0 and 2 -> 0 leave at 0 and share the link into rank 0 (each wire
    0.00064 us twice as long): both arrive at 1.5 + 0.1 + 2 · 0.00064 = 1.60128. Rank 0 takes
    one, then the other (SMPI's waitall pays each receive): 1.60128 + 2 · 0.5 = 2.60128 (it
    took the two receives as one before: 2.10128). Its group messages leave at 2.60128 and
    4.10128, the id (binomial, farthest child first) 0 -> 2 at 5.60128 (rank 2 has it at
    7.70192) and 0 -> 1 at 7.10128 (rank 1: 9.20192); rank 0 is free at 8.60128.
    Second split: 2 -> 0 arrives at 7.70192 + 1.60064 = 9.30256, 1 -> 0 at 10.80256; rank 0
    takes them in the order they arrive: 9.80256, then 11.30256 (in rank order, 1 then 2, it
    would be 11.80256). Its groups leave at 11.30256 and 12.80256: rank 2 ends at
    12.80256 + 2.10064 = 14.90320 us, rank 1 at 13.40320, rank 0 at 14.30256.
    SMPI 3.32: 14.9029 us (its id is 4 bytes, 0.32 ns less on the wire); interp gave
    14.4032 us before (-3.4%), and at P = 32 the two splits 108.3 against SMPI's 135.9 us."""
    machine = zero_computation(simgrid_semantics(load("cluster"))[0])
    ends = {pid: float(row["finish"]) for pid, row in
            rows_by_pid(run(program("split_smpi.f"), 3, machine=machine)).items()}
    startup, receive, wire, links = 1.5e-6, 0.5e-6, 8 * 0.08e-9, 2 * 0.05e-6
    msg = startup + wire + links + receive
    assert msg == pytest.approx(2.10064e-6)
    gathered = startup + links + 2 * wire + 2 * receive
    assert gathered == pytest.approx(2.60128e-6)
    id_to_2 = gathered + 2 * startup + msg
    id_to_1 = gathered + 3 * startup + msg
    rank0_free = gathered + 4 * startup
    first = max(rank0_free, id_to_2 + msg - receive) + receive  # rank 2's arrives first
    later_first = max(first, id_to_1 + msg - receive) + receive
    assert (first, later_first) == pytest.approx((9.80256e-6, 11.30256e-6))
    expected = {0: later_first + 2 * startup, 1: later_first + msg,
                2: later_first + startup + msg}
    assert expected[2] == pytest.approx(14.90320e-6)
    assert ends == pytest.approx(expected, rel=REL)
