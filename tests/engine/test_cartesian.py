"""Cartesian topologies: MPI_DIMS_CREATE, MPI_CART_CREATE (a collective over its
communicator, priced as MPI_COMM_DUP: an MPI_ALLREDUCE of one integer), MPI_CART_COORDS,
MPI_CART_RANK, MPI_CART_SHIFT and MPI_CART_GET, their answers followed. They were refused
('an MPI routine interp does not model')."""

from __future__ import annotations

import pytest

from interp.application.aag import build_aag
from interp.engine.comms import PROC_NULL, Communicator, dims_create
from interp.engine.predict import predict
from interp.engine.saag import build_saag
from interp.errors import InterpError
from interp.system.simgrid import zero_computation

from .helpers import REL, dynamic_msg, load, static_msg

GRID = """\
      PROGRAM GRID
      INCLUDE 'mpif.h'
      INTEGER ME, NP, IERR, CART, DIMS(2), C(2), LEFT, RIGHT, DOWN, UP
      INTEGER D2(2), C2(2), R
      LOGICAL PER(2), P2(2)
      INTEGER STATUS(MPI_STATUS_SIZE)
      DOUBLE PRECISION SB(100), RB(100)
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      DIMS(1) = 0
      DIMS(2) = 0
      CALL MPI_DIMS_CREATE(NP, 2, DIMS, IERR)
      PER(1) = .TRUE.
      PER(2) = .FALSE.
      CALL MPI_CART_CREATE(MPI_COMM_WORLD, 2, DIMS, PER, .TRUE., CART,
     &   IERR)
      CALL MPI_COMM_RANK(CART, ME, IERR)
      CALL MPI_CART_COORDS(CART, ME, 2, C, IERR)
      CALL MPI_CART_RANK(CART, C, R, IERR)
      CALL MPI_CART_GET(CART, 2, D2, P2, C2, IERR)
      CALL MPI_CART_SHIFT(CART, 0, 1, LEFT, RIGHT, IERR)
      CALL MPI_CART_SHIFT(CART, 1, 1, DOWN, UP, IERR)
      IF (R .EQ. ME .AND. C2(1) .EQ. C(1) .AND. D2(1) .EQ. DIMS(1))
     &   CALL MPI_SENDRECV(SB, 100, MPI_DOUBLE_PRECISION, RIGHT, 1,
     &      RB, 100, MPI_DOUBLE_PRECISION, LEFT, 1, CART, STATUS, IERR)
      IF (UP .EQ. MPI_PROC_NULL .AND. C(2) .EQ. 1)
     &   CALL MPI_SEND(SB, 1, MPI_DOUBLE_PRECISION, DOWN, 2, CART, IERR)
      IF (DOWN .EQ. MPI_PROC_NULL .AND. C(2) .EQ. 0)
     &   CALL MPI_RECV(RB, 1, MPI_DOUBLE_PRECISION, UP, 2, CART, STATUS,
     &      IERR)
      CALL MPI_FINALIZE(IERR)
      END
"""


@pytest.mark.parametrize("nnodes, dims, out", [
    (12, [0, 0], [4, 3]), (8, [0, 0, 0], [2, 2, 2]), (6, [0, 0], [3, 2]),
    (16, [0, 2], [8, 2]), (7, [0, 0], [7, 1]), (8, [3, 0], None)])
def test_dims_create_balances_the_grid(nnodes, dims, out):
    assert dims_create(nnodes, dims) == out


def test_coordinates_and_shifts_row_major():
    """A 2 x 3 grid, periodic in its first dimension only: rank 4 is (1, 1)."""
    c = Communicator(1, tuple(range(6)), (2, 3), (True, False))
    assert c.coords(4) == [1, 1]
    assert c.cart_rank([2, 1]) == 1  # wraps in the periodic dimension
    assert c.cart_rank([1, 3]) == PROC_NULL  # off the edge of the other


def test_a_2x2_grid_by_hand():
    """P = 4: DIMS = (2, 2); rank (c1, c2) = 2·c1 + c2. Computation off. MPI_CART_CREATE is
    an allreduce of 4 bytes, 2 rounds of recursive doubling (static buffers, one hop):
    2 x (70 + 4 x 0.42 + 11) = 165.36 us. Then every rank exchanges 800 bytes along the
    periodic dimension 0 with rank ± 2 (one hop of the cube), eager: arrival
    175 + 800 x 0.36 + 33 = 496 us later. Along dimension 1 (not periodic) the ranks at
    c2 = 1 then send one double down to c2 = 0 (UP is MPI_PROC_NULL there), static, one hop:
    it arrives 70 + 8 x 0.42 + 11 = 84.36 us after the exchange, when every rank is done."""
    import tempfile
    from pathlib import Path
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "grid.f"
        path.write_text(GRID)
        aag = build_aag([str(path)])
        assert build_saag(aag, load(), 4, {}).problems == []
        pred = predict(aag, zero_computation(load()), 4, {})
    create = 2 * static_msg(4, 1)
    assert create == pytest.approx(165.36e-6)
    exchange = dynamic_msg(800, 1)
    assert float(pred.seconds) == pytest.approx(create + exchange + static_msg(8, 1), rel=REL)


def test_a_grid_larger_than_the_communicator_is_an_error(tmp_path):
    path = tmp_path / "grid.f"
    path.write_text(GRID.replace("      CALL MPI_DIMS_CREATE(NP, 2, DIMS, IERR)\n",
                                 "      DIMS(1) = 3\n      DIMS(2) = 2\n"))
    with pytest.raises(InterpError, match="a grid of 3 x 2 ranks does not fit"):
        predict(build_aag([str(path)]), load(), 4, {})
