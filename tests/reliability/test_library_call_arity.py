"""A message-passing call with the wrong number of arguments is an error at the call, naming
the catalog's arguments and the count given (it was an AttributeError deep in the engine)."""

from __future__ import annotations

import pytest

from .helpers import fortran, invoke


@pytest.mark.parametrize("command", [["predict"], ["check"], ["formula"], ["graph", "--saag"]])
def test_csend_with_three_arguments(tmp_path, command):
    path = fortran(tmp_path, """
        PROGRAM T
        REAL X
        CALL CSEND(1, X, 32)
        END
    """)
    result = invoke(*command, path)
    assert result.exit_code == 2, result.output
    assert f"{path}:3:7: error: CSEND takes 5 arguments, 3 given" in result.stderr
    assert "CSEND(type, buf, size, dest, pid)" in result.stderr
    assert "Traceback" not in result.output


def test_mpi_send_without_ierr(tmp_path):
    path = fortran(tmp_path, """
        PROGRAM T
        INCLUDE 'mpif.h'
        REAL X
        CALL MPI_SEND(X, 1, MPI_REAL, 1, 0, MPI_COMM_WORLD)
        END
    """)
    result = invoke("check", "-P", "2", path)
    assert result.exit_code == 2, result.output
    assert "MPI_SEND takes 7 arguments, 6 given" in result.stderr
