"""A loop polling NX/2's MSGDONE (``10 IF (MSGDONE(ID) .EQ. 0) THEN … GO TO 10 END IF``) after
an IRECV: it runs until the message is there, one test (and body) a poll. It used to be a
clear error ("interp does not follow when a message completes while a loop runs"). The time
is the arrival rounded up to whole polls, and the count of polls is followed: a counter the
body steps is a value the program goes on with.

The program below on 2 nodes (iPSC/860, mid values, 25 ns a clock). Node 0 sends 800 B to
node 1, whose loop polls it and counts its polls in K; node 1 then sends 8·K bytes back.

* Node 0: ``IF (MYNODE() .EQ. 0)`` taken: one condition (25 ns), taken (25 ns), mynode()
  (536.15 ns; the comparison is the condition's): 586.15 ns. Its 800 B (dynamic buffers) arrive
  175 + 800·0.36 + 33 = 496 us later: at 496.58615 us.
* Node 1: the first IF not taken: 25 + 536.15 = 561.15 ns; the second taken: 586.15 ns; IRECV
  costs nothing (receive overhead 0); ``K = 0`` a store, 50 ns: the loop starts at 1,197.3 ns.
  The loop (no step limit): fixed 7.5 clk = 187.5 ns; each test 11 clk = 275 ns and its
  condition, ID fetched (25 ns), MSGDONE (a library call, 200 clk = 5,000 ns), the comparison
  (25 ns): 5,325 ns; each body ``K = K + 1``: fetch, add, store = 100 ns. Test k ends at
  1,197.3 + 187.5 + 5,325·k + 100·(k − 1) = 1,284.8 + 5,425·k ns, and sees the message when that
  is at least 496,586.15 ns: k ≥ 495,301.35 / 5,425 = 91.3, so 92 tests, 91 bodies: K = 91, and
  the loop ends at 1,284.8 + 5,425·92 = 500,384.8 ns.
* Node 1 sends 8·91 = 728 B (8·K: a multiply and a fetch, 87.5 ns): they arrive at node 0 at
  500,384.8 + 87.5 + (175 + 728·0.36 + 33)·1000 = 970,552.3 ns; node 1 then tests the last IF
  (not taken, 561.15 ns) and ends at 971,113.45 ns, the last.

MPI_TEST in a loop (it was not modelled: an error at its call) is the same poll, last below.
"""

from __future__ import annotations

import pytest

from interp.system.simgrid import zero_computation

from .helpers import (ADD, CLK, COND, DYNAMIC_PER_BYTE, DYNAMIC_PER_HOP, DYNAMIC_STARTUP, FETCH,
                      MUL, MYNODE, NOSTEP_FIXED, NOSTEP_ITER, STATIC_PER_BYTE, STATIC_PER_HOP,
                      STATIC_STARTUP, STORE, TAKEN, load, run)

POLL = """\
      PROGRAM POLL
      INTEGER ID, K
      DOUBLE PRECISION A(100)
      IF (MYNODE() .EQ. 0) CALL CSEND(5, A, 800, 1, 0)
      IF (MYNODE() .EQ. 1) THEN
         ID = IRECV(5, A, 800)
         K = 0
   10    IF (MSGDONE(ID) .EQ. 0) THEN
            K = K + 1
            GO TO 10
         END IF
         CALL CSEND(6, A, 8 * K, 0, 0)
      END IF
      IF (MYNODE() .EQ. 0) CALL CRECV(6, A, 800)
      END
"""
LIBRARY_DEFAULT = (300 + 100) / 2 * CLK  # a library call the spec does not list: 200 clk


def _message(nbytes: int) -> float:
    return DYNAMIC_STARTUP + nbytes * DYNAMIC_PER_BYTE + DYNAMIC_PER_HOP


@pytest.mark.parametrize("exact", [False, True])
def test_the_loop_polls_until_the_message_is_there(tmp_path, exact):
    path = tmp_path / "poll.f"
    path.write_text(POLL)
    pred = run(str(path), 2, exact=exact)
    taken, not_taken = COND + TAKEN + MYNODE, COND + MYNODE
    arrival = taken + _message(800)
    assert arrival == pytest.approx(496.58615e-6)
    start = not_taken + taken + STORE
    test = NOSTEP_ITER + FETCH + LIBRARY_DEFAULT + ADD
    body = FETCH + ADD + STORE
    assert (test, body) == pytest.approx((5325e-9, 100e-9))
    k = 1
    while start + NOSTEP_FIXED + k * test + (k - 1) * body < arrival:
        k += 1
    assert k == 92  # 91.3 rounded up
    end_loop = start + NOSTEP_FIXED + k * test + (k - 1) * body
    polls = k - 1
    back = end_loop + MUL + FETCH + _message(8 * polls)
    assert pred.seconds == pytest.approx(back + not_taken, rel=1e-9)
    assert pred.seconds == pytest.approx(971.11345e-6)
    body_aau = next(a for a in pred.aag.all_aaus() if a.type == "Seq" and a.loc.line == 9)
    assert pred.processes[1].stats[body_aau.id].count == polls
    assert pred.scheduler.problems == []


def test_polls_that_cost_nothing_end_at_the_arrival(tmp_path):
    """Computation off (as ``validate`` runs): a poll costs nothing, so they are countless;
    node 1 is at the arrival at once, 496 us, and what the loop counts is not followed. Its
    8 B back (static buffers: 70 + 8·0.42 + 11 = 84.36 us) end at 580.36 us."""
    path = tmp_path / "poll.f"
    path.write_text(POLL.replace("8 * K", "8"))
    pred = run(str(path), 2, machine=zero_computation(load()))
    assert pred.seconds == pytest.approx(
        _message(800) + STATIC_STARTUP + 8 * STATIC_PER_BYTE + STATIC_PER_HOP, rel=1e-9)
    assert pred.seconds == pytest.approx(580.36e-6)
    assert any("polls a message at no cost" in n for n in pred.notes)


MPI_POLL = """\
      PROGRAM MT
      INCLUDE 'mpif.h'
      INTEGER ME, REQ, K, IERR
      INTEGER STATUS(MPI_STATUS_SIZE)
      LOGICAL FLAG
      DOUBLE PRECISION A(100)
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      IF (ME .EQ. 0) CALL MPI_SEND(A, 100, MPI_DOUBLE_PRECISION, 1, 5,
     &                             MPI_COMM_WORLD, IERR)
      IF (ME .EQ. 1) THEN
         CALL MPI_IRECV(A, 100, MPI_DOUBLE_PRECISION, 0, 5,
     &                  MPI_COMM_WORLD, REQ, IERR)
         K = 0
   10    CALL MPI_TEST(REQ, FLAG, STATUS, IERR)
         IF (.NOT. FLAG) THEN
            K = K + 1
            GO TO 10
         END IF
         CALL MPI_SEND(A, K, MPI_DOUBLE_PRECISION, 0, 6,
     &                 MPI_COMM_WORLD, IERR)
      END IF
      IF (ME .EQ. 0) CALL MPI_RECV(A, 100, MPI_DOUBLE_PRECISION, 1, 6,
     &                             MPI_COMM_WORLD, STATUS, IERR)
      CALL MPI_FINALIZE(IERR)
      END
"""


@pytest.mark.parametrize("exact", [False, True])
def test_a_loop_calling_mpi_test_polls_until_the_message_is_there(tmp_path, exact):
    """``10 CALL MPI_TEST(REQ, FLAG, STATUS, IERR)`` / ``IF (.NOT. FLAG) THEN … GO TO 10``: it
    was an error (MPI_TEST not modelled). Rank 0 is at its MPI_SEND after MPI_INIT (a library
    call, 200 clk = 5 us), MPI_COMM_RANK (as mynode(), 536.15 ns) and its IF taken (condition,
    ME fetched, taken: 75 ns): 5,611.15 ns; its 800 B arrive 175 + 800·0.36 + 33 = 496 us
    later, at 501,611.15 ns. Rank 1: the same 5,536.15 ns, the first IF not taken (50 ns), the
    second taken (75 ns), MPI_IRECV nothing, K = 0 (50 ns): the loop at 5,711.15 ns; fixed
    187.5 ns, then each poll: 11 clk = 275 ns of the loop, MPI_TEST (its arguments by
    reference: nothing), the IF taken (75 ns), K = K + 1 (100 ns): 450 ns. Test k is at
    5,711.15 + 187.5 + 275 + 450·(k − 1) ns and sees the message from
    (501,611.15 − 6,173.65) / 450 = 1,100.97, k − 1 = 1,101: K = 1,101 polls, and the IF not
    taken (50 ns) brings rank 1 to its MPI_SEND at 6,173.65 + 495,450 + 50 = 501,673.65 ns."""
    path = tmp_path / "mt.f"
    path.write_text(MPI_POLL)
    pred = run(str(path), 2, exact=exact)
    library = LIBRARY_DEFAULT
    arrival = library + MYNODE + COND + FETCH + TAKEN + _message(800)
    assert arrival == pytest.approx(501.61115e-6)
    first = library + MYNODE + (COND + FETCH) + (COND + FETCH + TAKEN) + STORE \
        + NOSTEP_FIXED + NOSTEP_ITER
    poll = NOSTEP_ITER + COND + FETCH + TAKEN + FETCH + ADD + STORE
    assert (first, poll) == pytest.approx((6173.65e-9, 450e-9))
    k = 1
    while first + (k - 1) * poll < arrival:
        k += 1
    assert k - 1 == 1101
    body = next(a for a in pred.aag.all_aaus() if a.type == "Seq" and a.loc.line == 17)
    assert pred.processes[1].stats[body.id].count == k - 1
    send = next(a for a in pred.aag.all_aaus() if a.type == "Comm" and a.loc.line == 20)
    assert pred.processes[1].stats[send.id].tau == pytest.approx(
        first + (k - 1) * poll + COND + FETCH, rel=1e-9)
