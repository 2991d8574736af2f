"""An NX/2 routine interp does not model (CPROBE, IPROBE, CSENDRECV, GCOL, GOPF, …) is an
error at its call or reference, as an MPI routine outside the catalog is. It used to be priced
as a call to an unknown external routine (~200 clocks of computation): a program polling with
IPROBE or gathering with GCOL was predicted with that communication missing. A routine the
program defines itself under such a name is the program's."""

from __future__ import annotations

import pytest

from interp.application import aau as A
from interp.errors import UnsupportedError

NODE = """\
      PROGRAM P
      REAL A(10), B(40)
      ME = MYNODE()
      {stmt}
      END
"""


@pytest.mark.parametrize("stmt, name", [
    ("CALL CPROBE(8)", "CPROBE"),
    ("CALL GCOL(A, 40, B, 160, NCOL)", "GCOL"),
    ("CALL CSENDRECV(5, A, 40, 1, 0, 6, B, 40)", "CSENDRECV"),
    ("IF (IPROBE(5) .NE. 0) CALL CRECV(5, A, 40)", "IPROBE"),
    ("X = A(1) + GOPF(A, 10, B, F)", "GOPF"),
])
def test_an_unmodelled_nx_routine_is_an_error_at_its_use(aag_of, stmt, name):
    with pytest.raises(UnsupportedError) as info:
        aag_of(NODE.format(stmt=stmt))
    err = info.value
    assert f"{name} is an NX/2 routine interp does not model" in err.message
    assert err.location.line == 4
    assert "CSEND" in err.hint and "MPI_SEND" not in err.hint


def test_a_routine_of_the_program_with_such_a_name_is_its_own(aag_of):
    aag = aag_of(NODE.format(stmt="CALL GCOL(A, 10)") + """\
      SUBROUTINE GCOL(X, N)
      REAL X(N)
      X(1) = 0.0
      END
""")
    assert any(isinstance(a, A.Call) and a.callee == "GCOL" for a in aag.units["P"].walk())
