"""``--set NAME=V`` for a PARAMETER defined in an INCLUDE file (NPB's ``npbparams.h``): the
run's scratch copy gets the new value, the user's file does not change, and interp's op
counts (seed 000's F) follow it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from interp import api
from interp.analysis import realrun as R
from interp.analysis import semiemp as S
from interp.errors import InterpError

needs_mpi = pytest.mark.skipif(shutil.which("mpif77") is None or shutil.which("mpirun") is None,
                               reason="Open MPI (mpif77, mpirun) is not installed")

MAIN = """      PROGRAM INCP
      INCLUDE 'mpif.h'
      INCLUDE 'globals.h'
      INTEGER ME, IERR, I
      DOUBLE PRECISION S
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      IF (NSIZE .NE. NWANT) CALL MPI_ABORT(MPI_COMM_WORLD, 3, IERR)
      S = 0.0D0
      DO 10 I = 1, NSIZE
         S = S + DBLE(I) * 0.5D0
   10 CONTINUE
      CALL MPI_BARRIER(MPI_COMM_WORLD, IERR)
      IF (ME .EQ. 0) PRINT *, S
      CALL MPI_FINALIZE(IERR)
      END
"""
GLOBALS = "      INCLUDE 'npbparams.h'\n"
PARAMS = """      INTEGER NSIZE, NWANT
      PARAMETER (NSIZE = 10, NWANT = 10)
"""


def _tree(tmp_path: Path) -> str:
    (tmp_path / "globals.h").write_text(GLOBALS)
    (tmp_path / "npbparams.h").write_text(PARAMS)
    (tmp_path / "incp.f").write_text(MAIN)
    return str(tmp_path / "incp.f")


def test_a_nested_include_is_found_and_rewritten_but_not_written(tmp_path):
    main = _tree(tmp_path)
    assert [p.name for p in R.included_files([main])] == ["globals.h", "npbparams.h"]
    texts, done = R.set_in_includes([main], {"NSIZE": "7", "NWANT": "7"})
    assert done == {"NSIZE", "NWANT"}
    assert texts[(tmp_path / "globals.h").resolve()] == GLOBALS  # copied as it is
    assert "NSIZE = 7, NWANT = 7" in texts[(tmp_path / "npbparams.h").resolve()]
    assert (tmp_path / "npbparams.h").read_text() == PARAMS


def test_a_name_in_no_parameter_anywhere_is_still_an_error(tmp_path):
    aag = api.Program.load([_tree(tmp_path)]).aag
    with pytest.raises(InterpError, match="INCLUDEs have no PARAMETER"):
        R.inputs_of(aag, {"NOSUCH": "1"})


def test_op_counts_follow_a_parameter_set_in_an_include(tmp_path):
    aag = api.Program.load([_tree(tmp_path)]).aag
    plan = R.plan(aag)
    t = {n: S.counts(aag, plan, 1, {"NSIZE": n, "NWANT": n})[2] for n in (100, 200, 300)}
    # the loop's cost is linear in NSIZE: equal steps of 100 add equal time, and more is slower
    assert t[200] > t[100]
    assert t[300] - t[200] == pytest.approx(t[200] - t[100])


@needs_mpi
def test_the_run_compiles_with_the_rewritten_include(tmp_path):
    main = _tree(tmp_path)
    # NSIZE = NWANT = 7 in the copy: the program's check passes
    _plan, (run,) = R.run(api.Program.load([main]).aag, 1, {"NSIZE": "7", "NWANT": "7"})
    assert run.inputs == {"NSIZE": "7", "NWANT": "7"}
    # a value only one of them gets makes the program abort (exit 3): the copy was rewritten
    with pytest.raises(InterpError):
        R.run(api.Program.load([main]).aag, 1, {"NWANT": "8"})
    assert (tmp_path / "npbparams.h").read_text() == PARAMS


def test_a_read_from_a_file_unit_is_not_standard_input(tmp_path):
    # MG reads mg.input on unit 7 when it exists: `interp run` must not ask for those values
    text = MAIN.replace("      S = 0.0D0\n", "      OPEN (UNIT=7, FILE='x.in', STATUS='OLD', IOSTAT=I)\n"
                        "      IF (I .EQ. 0) READ (7,*) S\n      READ (5,*) J\n      S = 0.0D0\n")
    text = text.replace("INTEGER ME, IERR, I", "INTEGER ME, IERR, I, J")
    main = _tree(tmp_path)
    Path(main).write_text(text)
    aag = api.Program.load([main]).aag
    stdin, names = R.stdin_text(aag, {"J": "4"})
    assert (stdin, names) == ("4\n", {"J"})
