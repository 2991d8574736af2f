"""NX/2's NODEDIM() (the cube's dimension, 2**d >= numnodes()) and MPI_MAXLOC / MPI_MINLOC
on MPI_2DOUBLE_PRECISION pairs. NODEDIM was an unknown external FUNCTION (its value not
known, so a loop bounded by it was an error; priced as a library call elsewhere); MAXLOC was
'operation 7 is not one interp knows' (no MPI_MAXLOC in mpif.h)."""

from __future__ import annotations

import pytest

from interp.application.aag import build_aag
from interp.engine.predict import predict
from interp.system.simgrid import zero_computation

from .helpers import REL, load, static_msg

PREFIX = """\
      PROGRAM PREFIX
      REAL*8 TOT, RECV
      INTEGER ME, D, K
      ME = MYNODE()
      D = NODEDIM()
      TOT = 1.0D0
      DO 10 K = 0, D - 1
         CALL CSEND(100 + K, TOT, 8, IEOR(ME, 2**K), 0)
         CALL CRECV(100 + K, RECV, 8)
         TOT = TOT + RECV
   10 CONTINUE
      END
"""

MAXLOC = """\
      PROGRAM MLOC
      INCLUDE 'mpif.h'
      INTEGER ME, IERR
      DOUBLE PRECISION IN(2), OUT(2)
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      IN(1) = DBLE(ME)
      IN(2) = DBLE(ME)
      CALL MPI_ALLREDUCE(IN, OUT, 1, MPI_2DOUBLE_PRECISION, MPI_MAXLOC,
     &   MPI_COMM_WORLD, IERR)
      CALL MPI_FINALIZE(IERR)
      END
"""


def _predict(tmp_path, text: str, nprocs: int):
    path = tmp_path / "p.f"
    path.write_text(text)
    return predict(build_aag([str(path)]), zero_computation(load()), nprocs, {})


@pytest.mark.parametrize("nprocs, rounds", [(2, 1), (4, 2), (8, 3)])
def test_nodedim_bounds_the_exchange_rounds(tmp_path, nprocs, rounds):
    """D = log2 P rounds, each an 8-byte message to the neighbour across dimension K (one
    hop), static buffers (<= 100 B): 70 + 8 x 0.42 + 11 = 84.36 us a round (Table 3)."""
    assert static_msg(8, 1) == pytest.approx(84.36e-6)
    pred = _predict(tmp_path, PREFIX, nprocs)
    assert float(pred.seconds) == pytest.approx(rounds * static_msg(8, 1), rel=REL)


def test_maxloc_allreduce_of_a_pair_by_hand(tmp_path):
    """P = 4: recursive doubling, 2 rounds of one 16-byte pair (static, one hop):
    2 x (70 + 16 x 0.42 + 11) = 175.44 us."""
    pred = _predict(tmp_path, MAXLOC, 4)
    assert 2 * static_msg(16, 1) == pytest.approx(175.44e-6)
    assert float(pred.seconds) == pytest.approx(2 * static_msg(16, 1), rel=REL)
