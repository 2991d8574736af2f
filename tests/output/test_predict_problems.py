"""``interp predict`` of a program that runs to its end but has communication problems (a
message longer than its receive buffer, MPI type signatures that differ) printed the time
alone: the problems were only in the JSON (``problems``). The text now says them beside the
time, as ``interp check`` would."""

from __future__ import annotations

from click.testing import CliRunner

from interp.cli import main

SOURCE = """\
      PROGRAM MM
      INCLUDE 'mpif.h'
      DOUBLE PRECISION D(10)
      REAL R(10)
      INTEGER RANK, IERR, ST(MPI_STATUS_SIZE)
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, RANK, IERR)
      IF (RANK .EQ. 0) THEN
         CALL MPI_SEND(D, 10, MPI_DOUBLE_PRECISION, 1, 3,
     &                 MPI_COMM_WORLD, IERR)
      ELSE IF (RANK .EQ. 1) THEN
         CALL MPI_RECV(R, 10, MPI_REAL, 0, 3, MPI_COMM_WORLD, ST, IERR)
      END IF
      CALL MPI_FINALIZE(IERR)
      END
"""


def test_predict_says_the_problems_check_finds(tmp_path):
    path = tmp_path / "mm.f"
    path.write_text(SOURCE)
    out = CliRunner().invoke(main, ["predict", str(path), "-P", "2"])
    assert out.exit_code == 0, out.output
    text = " ".join(out.output.split())
    assert "Communication problems (2;" in text
    assert "mismatch: rank 0 sends MPI_DOUBLE_PRECISION (tag 3) to rank 1" in text
    assert "whose receive buffer holds only 40 bytes" in text
    clean = tmp_path / "clean.f"
    clean.write_text(SOURCE.replace("MPI_RECV(R, 10, MPI_REAL", "MPI_RECV(D, 10, "
                                    "MPI_DOUBLE_PRECISION").replace(
        "         CALL MPI_RECV(D, 10, MPI_DOUBLE_PRECISION, 0, 3, MPI_COMM_WORLD, ST, IERR)\n",
        "         CALL MPI_RECV(D, 10, MPI_DOUBLE_PRECISION, 0, 3,\n"
        "     &                 MPI_COMM_WORLD, ST, IERR)\n"))
    out = CliRunner().invoke(main, ["predict", str(clean), "-P", "2"])
    assert out.exit_code == 0, out.output
    assert "Communication problems" not in out.output
