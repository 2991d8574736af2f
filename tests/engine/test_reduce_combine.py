"""The combine of a reduction costs one add an element of its datatype, two a complex
element: MPI_INTEGER and MPI_REAL elements of 4 bytes were priced one add per 8 bytes (half
an add each), unlike NX/2's GISUM (one an element) (sweep 4).

By hand (iPSC/860 Tables 1 and 3), MPI_REDUCE on P = 2, root 0: rank 1 sends its 400 bytes
in one message (more than the 100-byte static buffers: dynamic, 175 us + 400 · 0.36 us +
1 hop · 33 us = 352 us), the root combines it with its own: n adds of 1 clock (25 ns). Both enter at once, so the
root does not wait: its transmission is the whole message, 352 us, and the adds.
"""

from __future__ import annotations

import pytest

from .helpers import CLK, run

SOURCE = """\
      PROGRAM RED
      INCLUDE 'mpif.h'
      INTEGER IERR
      {decl} A(100), B(100)
      CALL MPI_INIT(IERR)
      CALL MPI_REDUCE(A, B, {count}, {dtype}, MPI_SUM, 0,
     &     MPI_COMM_WORLD, IERR)
      CALL MPI_FINALIZE(IERR)
      END
"""

WIRE = 175e-6 + 400 * 0.36e-6 + 33e-6  # Table 3, dynamic buffers: startup, per byte, 1 hop


@pytest.mark.parametrize("decl, count, dtype, adds", [
    ("INTEGER", 100, "MPI_INTEGER", 100),                 # 100 elements of 4 bytes
    ("REAL", 100, "MPI_REAL", 100),
    ("DOUBLE PRECISION", 50, "MPI_DOUBLE_PRECISION", 50),  # 50 of 8 bytes
    ("COMPLEX", 50, "MPI_COMPLEX", 100),                  # 50 of 8 bytes, 2 parts each
])
def test_one_add_an_element(tmp_path, decl, count, dtype, adds):
    path = tmp_path / "red.f"
    path.write_text(SOURCE.format(decl=decl, count=count, dtype=dtype))
    pred = run(str(path), 2)
    root = next(r for r in pred.process_rows() if r["pid"] == 0)
    assert root["transmission"] == pytest.approx(WIRE + adds * CLK, rel=1e-9)
