"""A receive whose count fits the message but whose array does not: ``MPI_RECV(B(K), N, …)``
with B declared shorter than K - 1 + N elements. A real MPI writes past B's end; `check` was
clean, comparing the message only with the receive's count. The room is B's declared size
from the element named, for a local array (a dummy's ``A(1)`` is the caller's, and a COMMON
block may be declared shorter in one unit than in another: neither is judged).

room.f, P = 2: rank 0 sends N = 30 REALs, 30 * 4 = 120 bytes; rank 1 receives 30 into
B(K) of REAL B(40): K = 1 leaves 40 * 4 = 160 bytes (clean), K = 21 leaves (40 - 20) * 4 =
80 bytes (a mismatch); a dummy declared B(1) receiving the same is not judged."""

from __future__ import annotations

from click.testing import CliRunner

from interp.cli import main

SOURCE = """\
      PROGRAM ROOM
      INCLUDE 'mpif.h'
      INTEGER N, K, RANK, IERR, ST(MPI_STATUS_SIZE)
      REAL A(100), B(40)
      PARAMETER (N = 30, K = 1)
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, RANK, IERR)
      IF (RANK .EQ. 0) THEN
         CALL MPI_SEND(A, N, MPI_REAL, 1, 3, MPI_COMM_WORLD, IERR)
      ELSE
         CALL MPI_RECV(B(K), N, MPI_REAL, 0, 3, MPI_COMM_WORLD, ST,
     &                 IERR)
      END IF
      CALL MPI_FINALIZE(IERR)
      END
"""

DUMMY = """\
      PROGRAM ROOM
      INCLUDE 'mpif.h'
      INTEGER RANK, IERR
      REAL A(100), B(40)
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, RANK, IERR)
      IF (RANK .EQ. 0) THEN
         CALL MPI_SEND(A, 30, MPI_REAL, 1, 3, MPI_COMM_WORLD, IERR)
      ELSE
         CALL GET(B)
      END IF
      CALL MPI_FINALIZE(IERR)
      END
      SUBROUTINE GET(B)
      INCLUDE 'mpif.h'
      REAL B(1)
      INTEGER IERR, ST(MPI_STATUS_SIZE)
      CALL MPI_RECV(B, 30, MPI_REAL, 0, 3, MPI_COMM_WORLD, ST, IERR)
      END
"""


def _check(tmp_path, name: str, source: str):
    path = tmp_path / name
    path.write_text(source)
    return CliRunner().invoke(main, ["check", str(path), "-P", "2"])


def test_a_receive_past_its_array_s_end_is_a_mismatch(tmp_path):
    assert _check(tmp_path, "fits.f", SOURCE).exit_code == 0
    out = _check(tmp_path, "past.f", SOURCE.replace("K = 1)", "K = 21)"))
    assert out.exit_code == 1, out.output
    text = " ".join(out.output.split())
    assert (f"rank 0 sends {30 * 4} bytes (type/tag 3) to rank 1, whose receive buffer B has "
            f"room for only {(40 - 20) * 4} bytes") in text


def test_a_dummy_declared_one_element_is_not_judged(tmp_path):
    out = _check(tmp_path, "dummy.f", DUMMY)
    assert out.exit_code == 0, out.output
