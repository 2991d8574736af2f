"""MPI_BCAST from an array element carries the COUNT elements stored from it (Fortran's
sequence association): ``MPI_BCAST(V(0), 8, …)`` sends V(0)…V(7), and every rank then knows
them. It used to carry V(0) alone, into the receiver's V(1).

Rank 0 fills V in a DO loop; after the broadcast every rank tests V(5). The IF's THEN stores
three constants, ELSE one, so with the iPSC/860's Table 1 and 2 values the THEN run is longer
by (3·STORE + COND) − (STORE + 2·COND) = 2·50 ns − 25 ns = 75 ns on every rank; the broadcast
costs the same in both runs.
"""

from __future__ import annotations

from pytest import approx

from .helpers import PROBE_THEN_MINUS_ELSE, probe_if, run

SOURCE = """\
      PROGRAM BCASTV
      INCLUDE 'mpif.h'
      INTEGER V(0:7), I, D, ME, IERR
      DOUBLE PRECISION X, Y, Z
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      D = {d}
      IF (ME .EQ. 0) THEN
         DO 10 I = 0, 7
            V(I) = D
   10    CONTINUE
      END IF
      CALL MPI_BCAST(V(0), 8, MPI_INTEGER, 0, MPI_COMM_WORLD, IERR)
""" + probe_if("V(5) .GE. 1") + """\
      CALL MPI_FINALIZE(IERR)
      END
"""


def _pred(tmp_path, d: int):
    path = tmp_path / f"bcastv{d}.f"
    path.write_text(SOURCE.format(d=d))
    return run(str(path), 4)


def test_every_rank_knows_the_broadcast_elements(tmp_path):
    then, else_ = _pred(tmp_path, 1), _pred(tmp_path, 0)
    for pred in (then, else_):
        assert not pred.data, pred.data  # the IF was decided, not weighted as data
    for p1, p0 in zip(then.processes, else_.processes):
        assert float(p1.finish - p0.finish) == approx(PROBE_THEN_MINUS_ELSE)
