"""A collective's root outside its communicator (SUMMA's row broadcast from column K on a
grid that is not square: P = 8, Q = NINT(SQRT(8.0)) = 3, the last row has 2 ranks) is an
error at the root argument, exit 2; it was an internal error (ValueError from the rounds of
the broadcast, exit 3)."""

from __future__ import annotations

import pytest

from interp.application.aag import build_aag
from interp.engine.predict import predict
from interp.errors import InterpError

from .helpers import load

ROWS = """\
      PROGRAM ROWS
      INCLUDE 'mpif.h'
      DOUBLE PRECISION A(10)
      INTEGER ME, NP, Q, ROWC, IERR, K
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      Q = NINT(SQRT(REAL(NP)))
      CALL MPI_COMM_SPLIT(MPI_COMM_WORLD, ME / Q, ME, ROWC, IERR)
      DO 10 K = 0, Q - 1
         CALL MPI_BCAST(A, 10, MPI_DOUBLE_PRECISION, K, ROWC, IERR)
   10 CONTINUE
      CALL MPI_BCAST(A, 10, MPI_DOUBLE_PRECISION, NP, MPI_COMM_WORLD,
     &   IERR)
      CALL MPI_FINALIZE(IERR)
      END
"""


def _predict(tmp_path, text: str, nprocs: int):
    path = tmp_path / "rows.f"
    path.write_text(text)
    return predict(build_aag([str(path)]), load(), nprocs, {}, symbolic=False)


def test_a_root_outside_the_row_communicator_is_an_error_at_the_call(tmp_path):
    with pytest.raises(InterpError, match="rank 2, which does not exist in a communicator "
                                          "of 2 ranks") as err:
        _predict(tmp_path, ROWS, 8)
    assert (err.value.location.line, err.value.location.column) == (11, 54)  # the K of the call
    assert err.value.exit_code == 2


def test_a_root_beyond_the_world_is_an_error_at_the_call(tmp_path):
    with pytest.raises(InterpError, match="rank 4, which does not exist") as err:
        _predict(tmp_path, ROWS, 4)  # Q = 2: the rows are whole; the root NP = 4 is not
    assert err.value.location.line == 13
