"""MPI_SSEND / MPI_ISSEND (synchronous mode) complete only once the matching receive has
started: rendezvous at any size, on a spec without an eager threshold too (the iPSC/860's).
MPI_BUFFER_ATTACH/DETACH, MPI_BSEND's buffer, are local calls. They were refused ('an MPI
routine interp does not model')."""

from __future__ import annotations

import pytest

from interp.application.aag import build_aag
from interp.engine.predict import predict
from interp.engine.saag import build_saag
from interp.system.simgrid import zero_computation

from .helpers import REL, dynamic_msg, load, rows_by_pid

PAIR = """\
      PROGRAM SS
      INCLUDE 'mpif.h'
      DOUBLE PRECISION A(100), W(200)
      INTEGER ME, IERR
      INTEGER STATUS(MPI_STATUS_SIZE)
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_BUFFER_ATTACH(W, 1600, IERR)
      IF (ME .EQ. 0) THEN
         CALL {send}(A, 100, MPI_DOUBLE_PRECISION, 1, 1,
     &      MPI_COMM_WORLD, IERR)
         CALL MPI_RECV(A, 100, MPI_DOUBLE_PRECISION, 1, 2,
     &      MPI_COMM_WORLD, STATUS, IERR)
      ELSE
         CALL {send}(A, 100, MPI_DOUBLE_PRECISION, 0, 2,
     &      MPI_COMM_WORLD, IERR)
         CALL MPI_RECV(A, 100, MPI_DOUBLE_PRECISION, 0, 1,
     &      MPI_COMM_WORLD, STATUS, IERR)
      END IF
      CALL MPI_FINALIZE(IERR)
      END
"""

ORDERED = PAIR.replace("""\
         CALL {send}(A, 100, MPI_DOUBLE_PRECISION, 0, 2,
     &      MPI_COMM_WORLD, IERR)
         CALL MPI_RECV(A, 100, MPI_DOUBLE_PRECISION, 0, 1,
     &      MPI_COMM_WORLD, STATUS, IERR)""", """\
         CALL MPI_RECV(A, 100, MPI_DOUBLE_PRECISION, 0, 1,
     &      MPI_COMM_WORLD, STATUS, IERR)
         CALL {send}(A, 100, MPI_DOUBLE_PRECISION, 0, 2,
     &      MPI_COMM_WORLD, IERR)""")


def _file(tmp_path, text: str, send: str) -> str:
    path = tmp_path / "ss.f"
    path.write_text(text.format(send=send))
    return str(path)


def test_head_on_ssends_deadlock_with_both_calls(tmp_path):
    """Both ranks MPI_SSEND first: neither receive is ever posted (an MPI_SEND of these 800
    bytes is eager on the iPSC/860 spec, and the exchange is clean)."""
    saag = build_saag(build_aag([_file(tmp_path, PAIR, "MPI_SSEND")]), load(), 2, {})
    assert [p.kind for p in saag.problems] == ["deadlock"]
    msg = saag.problems[0].message
    assert "rank 0 waits in MPI_SSEND" in msg and "synchronous mode" in msg
    saag = build_saag(build_aag([_file(tmp_path, PAIR, "MPI_SEND")]), load(), 2, {})
    assert saag.problems == []


def test_ssend_returns_when_its_data_is_in_hand_computed(tmp_path):
    """Computation off. Rank 1 posts its receive at 0; rank 0's MPI_SSEND of 800 B (dynamic
    buffers, one hop: Table 3) leaves at max(0 + 175, 0) us and arrives at
    175 + 800 x 0.36 + 33 = 496 us, when it returns (an MPI_SEND would return at 175 us).
    Rank 1's answer then leaves at 496 + 175 = 671 us (rank 0's receive is posted at 496) and
    arrives at 671 + 288 + 33 = 992 us."""
    pred = predict(build_aag([_file(tmp_path, ORDERED, "MPI_SSEND")]),
                   zero_computation(load()), 2, {})
    first = dynamic_msg(800, 1)
    assert first == pytest.approx(496e-6)
    second = first + dynamic_msg(800, 1)
    finish = {pid: float(r["finish"]) for pid, r in rows_by_pid(pred).items()}
    assert finish[0] == pytest.approx(second, rel=REL)
    assert finish[1] == pytest.approx(second, rel=REL)
