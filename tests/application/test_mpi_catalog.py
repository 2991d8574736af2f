"""An MPI routine interp does not model is an error at its call (it used to be priced as a
plain ~1 us library call, hiding its communication); local MPI routines are known."""

from __future__ import annotations

import pytest

from interp.application import aau as A
from interp.errors import UnsupportedError

PROGRAM = """\
      PROGRAM UNK
      INCLUDE 'mpif.h'
      INTEGER IERR, ME
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL {call}
      CALL MPI_FINALIZE(IERR)
      END
"""


def test_unknown_mpi_routine_is_an_error_with_its_location(aag_of):
    with pytest.raises(UnsupportedError) as info:
        aag_of(PROGRAM.format(call="MPI_IPROBE(0, 0, MPI_COMM_WORLD, IFL, IS, IERR)"))
    err = info.value
    assert "MPI_IPROBE is an MPI routine interp does not model" in err.message
    assert err.location.line == 6
    assert "MPI_SENDRECV" in err.hint


@pytest.mark.parametrize("call, kind", [
    ("MPI_SENDRECV(ME,1,1001,1,0,ME,1,1001,1,0,91,IS,IE)", A.Comm),  # fits column 72
    ("MPI_WAITALL(2, IREQ, ISTAT, IERR)", A.Comm),
    ("MPI_GET_PROCESSOR_NAME(NAME, LEN, IERR)", A.Seq),
])
def test_known_mpi_routines(aag_of, call, kind):
    aag = aag_of(PROGRAM.format(call=call))
    line6 = [a for a in aag.units["UNK"].walk() if a.loc.line <= 6 <= (a.loc.end_line or a.loc.line)
             and not isinstance(a, (A.Start, A.End))]
    assert any(isinstance(a, kind) for a in line6), line6
