"""MPI_SCAN and MPI_EXSCAN, priced as SMPI runs them: every rank sends its operand to each
higher rank, one send after another, and takes what every lower rank sent (one round of
P(P - 1)/2 messages). They were refused ('an MPI routine interp does not model')."""

from __future__ import annotations

import pytest

from interp.application.aag import build_aag
from interp.engine.predict import predict
from interp.system import collective_rounds
from interp.system.simgrid import zero_computation

from .helpers import REL, STATIC_PER_BYTE, STATIC_PER_HOP, STATIC_STARTUP, load

SCAN = """\
      PROGRAM SC
      INCLUDE 'mpif.h'
      INTEGER IERR, ME
      DOUBLE PRECISION X, S
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      X = DBLE(ME)
      CALL {call}(X, S, 1, MPI_DOUBLE_PRECISION, MPI_SUM,
     &   MPI_COMM_WORLD, IERR)
      CALL MPI_FINALIZE(IERR)
      END
"""


def test_the_messages_of_a_scan():
    assert collective_rounds("mpi_scan", 4) == [[(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]]
    assert collective_rounds("mpi_exscan", 1) == []


@pytest.mark.parametrize("call", ["MPI_SCAN", "MPI_EXSCAN"])
def test_scan_of_one_double_on_four_nodes_by_hand(tmp_path, call):
    """Computation off; 8-byte messages, static buffers, eager: each send costs its sender
    the 70 us startup, then arrives 8 x 0.42 + 11 us per hop later (Table 3). Rank 0 sends to
    1, 2 and 3 at 0, 70 and 140 us; 0 -> 3 is 2 hops of the cube: it arrives at
    210 + 3.36 + 22 = 235.36 us, the last message (rank 3's others: 1 -> 3 at 140 + 14.36,
    2 -> 3 at 84.36), so rank 3 ends then (SMPI: 235.4 us)."""
    path = tmp_path / "sc.f"
    path.write_text(SCAN.format(call=call))
    pred = predict(build_aag([str(path)]), zero_computation(load()), 4, {})
    last = 3 * STATIC_STARTUP + 8 * STATIC_PER_BYTE + 2 * STATIC_PER_HOP
    assert last == pytest.approx(235.36e-6)
    assert float(pred.seconds) == pytest.approx(last, rel=REL)
