"""A closed-form loop whose body sets a steering flag per cell beside a large field zeroed cell
by cell: the replay leaves out the nested loops that assign nothing that steers, so the flag
stays known (the whole body was over the replay budget and every name it assigns was
forgotten). IFLAG(2) = 0 here, so the final IF takes its ELSE arm (as test_values_in_loops:
THEN − ELSE = 2·STORE − COND = 75 ns)."""

from __future__ import annotations

from pytest import approx

from .helpers import PROBE_THEN_MINUS_ELSE, probe_if, run

PROG = """\
      PROGRAM SKIPF
      INTEGER IFLAG(2), C, I, J
      DOUBLE PRECISION F(60, 60, 2), X, Y, Z
      DO 10 C = 1, 2
         IF (C .EQ. 1) THEN
            IFLAG(C) = {v}
         ELSE
            IFLAG(C) = 0
         END IF
         DO 20 J = 1, 60
            DO 30 I = 1, 60
               F(I, J, C) = 0.0D0
   30       CONTINUE
   20    CONTINUE
   10 CONTINUE
""" + probe_if("IFLAG(1) .GE. 1") + """\
      END
"""


def _time(tmp_path, v):
    path = tmp_path / f"skip{v}.f"
    path.write_text(PROG.format(v=v))
    pred = run(str(path), 1)
    assert not pred.data, pred.data  # the IF was decided, not weighted as data
    return pred.seconds


def test_flag_set_beside_a_zeroed_field_is_followed(tmp_path):
    assert _time(tmp_path, 1) - _time(tmp_path, 0) == approx(PROBE_THEN_MINUS_ELSE)
