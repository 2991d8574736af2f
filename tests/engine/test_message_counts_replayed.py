"""A message's count computed in a closed-form loop longer than the data-flow replay's budget
(dataflow.BUDGET, 1,024 statement executions): a particle code's counts per destination. Past
that budget an IF keeps its branch probability and a loop its trip count, but a message has no
stand-in, so it was an error at its call ("the value of ICNT(1) is not known"). A sub-graph
that computes a partner, count or tag is replayed up to dataflow.MESSAGE_BUDGET instead.

counts.f, P = 2, computation off, iPSC/860 Table 3: rank 0 tallies I = 1..1200 by MOD(I, 4)
(1,200 executions of one statement), so ICNT(1) = 1200 / 4 = 300, and sends 300 doubles,
2,400 bytes, over 1 hop: MPI_SEND above the 100-byte static buffers goes through the dynamic
ones, 175 us + 2400 * 0.36 us + 33 us = 1,072 us, when rank 1's receive ends.
"""

from __future__ import annotations

import pytest

from interp.engine import dataflow
from interp.system.simgrid import zero_computation

from .helpers import DYNAMIC_PER_BYTE, DYNAMIC_PER_HOP, DYNAMIC_STARTUP, load, rows_by_pid, run

COUNTS = """\
      PROGRAM COUNTS
      INCLUDE 'mpif.h'
      INTEGER ICNT(4), I, ME, IERR, ST(MPI_STATUS_SIZE)
      DOUBLE PRECISION BUF(1000)
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      DO 10 I = 1, 4
         ICNT(I) = 0
   10 CONTINUE
      DO 20 I = 1, 1200
         ICNT(MOD(I, 4) + 1) = ICNT(MOD(I, 4) + 1) + 1
   20 CONTINUE
      IF (ME .EQ. 0) THEN
         CALL MPI_SEND(BUF, ICNT(1), MPI_DOUBLE_PRECISION, 1, 7,
     &                 MPI_COMM_WORLD, IERR)
      ELSE
         CALL MPI_RECV(BUF, 1000, MPI_DOUBLE_PRECISION, 0, 7,
     &                 MPI_COMM_WORLD, ST, IERR)
      END IF
      CALL MPI_FINALIZE(IERR)
      END
"""


def test_a_count_tallied_past_the_replay_budget_is_followed(tmp_path):
    assert 1200 > dataflow.BUDGET  # the tally is longer than the ordinary replay
    src = tmp_path / "counts.f"
    src.write_text(COUNTS)
    pred = run(str(src), 2, machine=zero_computation(load()))
    message = DYNAMIC_STARTUP + (1200 // 4) * 8 * DYNAMIC_PER_BYTE + DYNAMIC_PER_HOP
    assert float(rows_by_pid(pred)[1]["finish"]) == pytest.approx(message, rel=1e-9)
    assert message == pytest.approx(1072e-6, rel=1e-12)
