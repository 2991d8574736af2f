"""MPI derived datatypes (MPI_TYPE_CONTIGUOUS, MPI_TYPE_VECTOR, MPI_TYPE_COMMIT/FREE,
MPI_TYPE_SIZE): a column halo of a 2-D array sends one vector of NY doubles. They were refused
('an MPI routine interp does not model'); a message of COUNT of a derived type is COUNT times
its size, typed as its elements (a vector of doubles matches doubles, as MPI's type
signatures do)."""

from __future__ import annotations

import pytest

from interp.application.aag import build_aag
from interp.engine.predict import predict
from interp.engine.saag import build_saag
from interp.errors import InterpError
from interp.system.simgrid import zero_computation

from .helpers import DYNAMIC_PER_BYTE, DYNAMIC_PER_HOP, DYNAMIC_STARTUP, load

COLUMN = """\
      PROGRAM COL
      INCLUDE 'mpif.h'
      INTEGER NX, NY
      PARAMETER (NX = 100, NY = 50)
      DOUBLE PRECISION U(0:NX + 1, 0:NY + 1)
      INTEGER ME, IERR, ROWT, BLK, NB
      INTEGER STATUS(MPI_STATUS_SIZE)
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_TYPE_VECTOR(NY, 1, NX + 2, MPI_DOUBLE_PRECISION, ROWT,
     &   IERR)
      CALL MPI_TYPE_COMMIT(ROWT, IERR)
      CALL MPI_TYPE_CONTIGUOUS(3, ROWT, BLK, IERR)
      CALL MPI_TYPE_SIZE(BLK, NB, IERR)
      CALL MPI_TYPE_COMMIT(BLK, IERR)
      IF (ME .EQ. 0) THEN
         CALL MPI_SEND(U(NX, 1), 1, ROWT, 1, 1, MPI_COMM_WORLD, IERR)
         IF (NB .EQ. 1200) CALL MPI_SEND(U, 2, BLK, 1, 2,
     &      MPI_COMM_WORLD, IERR)
      ELSE
         CALL MPI_RECV(U(0, 1), NY, MPI_DOUBLE_PRECISION, 0, 1,
     &      MPI_COMM_WORLD, STATUS, IERR)
         CALL MPI_RECV(U, 2, BLK, 0, 2, MPI_COMM_WORLD, STATUS, IERR)
      END IF
      CALL MPI_TYPE_FREE(ROWT, IERR)
      CALL MPI_FINALIZE(IERR)
      END
"""


def _predict(tmp_path, text):
    path = tmp_path / "col.f"
    path.write_text(text)
    return predict(build_aag([str(path)]), zero_computation(load()), 2, {})


def test_a_vector_column_and_a_block_of_them_by_hand(tmp_path):
    """Rank 0 sends one vector of NY = 50 doubles (400 B), then 2 of BLK, 3 vectors each
    (2 x 3 x 400 = 2400 B; MPI_TYPE_SIZE gives 1200, so the IF takes it), one hop each
    (ranks 0 and 1 of the cube), dynamic buffers (> 100 B), computation off. Both sends are
    eager (docs/mpi.md): rank 0 is free after each startup, so the second leaves at
    2 x 175 us and arrives at 350 + 2400 x 0.36 + 33 = 1247 us (Table 3), when rank 1 has it
    (Receive Ovhd 0); the first arrived at 175 + 400 x 0.36 + 33 = 352 us."""
    pred = _predict(tmp_path, COLUMN)
    first = DYNAMIC_STARTUP + 400 * DYNAMIC_PER_BYTE + DYNAMIC_PER_HOP
    assert first == pytest.approx(352e-6)
    expected = 2 * DYNAMIC_STARTUP + 2400 * DYNAMIC_PER_BYTE + DYNAMIC_PER_HOP
    assert expected == pytest.approx(1247e-6)
    assert float(pred.seconds) == pytest.approx(expected, rel=1e-9)


def test_a_vector_of_doubles_matches_a_receive_of_doubles(tmp_path):
    """Rank 1 receives the vector as NY MPI_DOUBLE_PRECISION: the same type signature."""
    path = tmp_path / "col.f"
    path.write_text(COLUMN)
    assert build_saag(build_aag([str(path)]), load(), 2, {}).problems == []


def test_a_handle_that_is_no_datatype_is_an_error_at_the_call(tmp_path):
    text = COLUMN.replace("CALL MPI_SEND(U(NX, 1), 1, ROWT,", "CALL MPI_SEND(U(NX, 1), 1, 77,")
    with pytest.raises(InterpError, match="77 is not an MPI datatype handle") as err:
        _predict(tmp_path, text)
    assert err.value.location.line == 17


def test_a_type_sent_before_its_commit_is_an_error_at_the_call(tmp_path):
    """MPI requires MPI_TYPE_COMMIT before a communication uses a derived type (SMPI stops
    with MPI_ERR_TYPE)."""
    text = COLUMN.replace("      CALL MPI_TYPE_COMMIT(BLK, IERR)\n", "")
    with pytest.raises(InterpError, match="BLK is used before MPI_TYPE_COMMIT") as err:
        _predict(tmp_path, text)
    assert err.value.location.line == 17
