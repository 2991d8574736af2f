"""``interp validate --set``: predict had it, validate did not. A PARAMETER's value goes to both
sides -- interp rebuilds the program with it, SMPI compiles a copy of the sources whose
PARAMETER statement is rewritten (here in an INCLUDE file beside the source; the original is
left as it is). A variable is refused with the reason: SMPI runs the program as written, where
the variable's value is the program's own, so the two sides would not run the same program.

The program: NITER MPI_BCASTs of NW doubles from rank 0 at P = 2 on the iPSC/860. Each is one
message 0 -> 1 of 8·NW bytes; MPI sends are eager, so rank 0 sends one every 175 us (Table 3,
dynamic buffers: startup 175 us, 0.36 us/B, 33 us a hop; 128 B is past the 100-byte static
buffers) and rank 1 ends when the last arrives: NITER·175 + 0.36·8·NW + 33 us.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from interp.analysis import validate as V
from interp.errors import InterpError
from interp.system import load_machine

SOURCE = """\
      PROGRAM VS
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INCLUDE 'params.h'
      INTEGER ME, NP, IT, IERR
      DOUBLE PRECISION A(NW)
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      DO 20 IT = 1, NITER
         CALL MPI_BCAST(A, NW, MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD,
     &                  IERR)
   20 CONTINUE
      CALL MPI_FINALIZE(IERR)
      END
"""
PARAMS = """\
      INTEGER NITER, NW
      PARAMETER (NITER = 3, NW = 16)
"""


def _expected(niter: int, nw: int) -> float:
    return (niter * 175.0 + 0.36 * 8 * nw + 33.0) * 1e-6


@pytest.fixture
def program(tmp_path):
    (tmp_path / "vs.f").write_text(SOURCE)
    (tmp_path / "params.h").write_text(PARAMS)
    return tmp_path / "vs.f"


@pytest.mark.parametrize("given, niter, nw", [
    ({}, 3, 16),  # 525 + 46.08 + 33 = 604.08 us
    ({"NITER": 7}, 7, 16),  # 1225 + 46.08 + 33 = 1304.08 us
    ({"NITER": 2, "NW": 20}, 2, 20),  # 350 + 57.6 + 33 = 440.6 us
    ({"NITER": 12, "NW": 20}, 12, 20),  # 2100 + 57.6 + 33 = 2190.6 us (NW's column moves)
])
def test_a_parameter_set_reaches_both_sides(program, tmp_path, given, niter, nw):
    import sympy as sp

    rows = V.validate([str(program)], [2], load_machine("ipsc860"), workdir=tmp_path / "work",
                      given={k: sp.Integer(v) for k, v in given.items()})
    (row,) = rows
    assert row.interp == pytest.approx(_expected(niter, nw), rel=1e-9)
    assert row.smpi == pytest.approx(_expected(niter, nw), rel=1e-4)
    assert (program.parent / "params.h").read_text() == PARAMS  # the original is untouched


def test_a_variable_is_refused(program):
    import sympy as sp

    with pytest.raises(InterpError) as info:
        V.validate([str(program)], [2], load_machine("ipsc860"), given={"ME": sp.Integer(1)})
    assert "validate gives values to PARAMETER constants only" in info.value.message
    assert "make ME a PARAMETER" in info.value.hint


def test_the_cli_takes_set(program):
    out = subprocess.run([sys.executable, "-m", "interp", "validate", str(program), "-P", "2",
                          "--set", "NITER=7"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "| vs | ipsc860 | 2 | 1,304.1 | 1,304.1 |" in out.stdout


@pytest.mark.parametrize("line, column, name, value, ftype, out", [
    ("      PARAMETER (NITER = 3, NW = 16)\n", 18, "NITER", 7, "INTEGER",
     "      PARAMETER (NITER = 7, NW = 16)\n"),
    ("      PARAMETER (NITER = 3, NW = 16)\n", 29, "NW", 2000, "INTEGER",
     "      PARAMETER (NITER = 3, NW = 2000)\n"),
    ("      PARAMETER (N = MAX(2, 3) * 4)\n", 18, "N", 5, "INTEGER",
     "      PARAMETER (N = 5)\n"),
    ("      PARAMETER (EPS = 1.0D-8)\n", 18, "EPS", 1e-6, "DOUBLE",
     "      PARAMETER (EPS = 1D-06)\n"),
    ("      PARAMETER (N = 3,\n", 18, "N", 4, "INTEGER", "      PARAMETER (N = 4,\n"),
    ("      PARAMETER (N =\n", 18, "N", 4, "INTEGER", None),  # the value on the next line
    ("      PARAMETER (N = 3, M" + "M" * 40 + " = 1)\n", 18, "N", 1000, "INTEGER", None),  # col 72
])
def test_the_parameter_statement_is_rewritten(line, column, name, value, ftype, out):
    assert V.rewritten_line(line, column, name, value, ftype) == out
