"""A real value assigned to an INTEGER variable is truncated toward zero, as Fortran does:
``L = 7.9D0 / 2.0D0`` stores 3 (MG computes LOG_P = LOG(P + 0.0001)/LOG(2.0) this way). It
used to keep 3.95, so ``L .EQ. 3`` was false and MG's neighbour ranks came out wrong.

THEN stores three constants, ELSE one: THEN is longer by (3·STORE + COND) − (STORE + 2·COND)
= 2·50 ns − 25 ns = 75 ns (Table 1 and 2 of the paper).
"""

from __future__ import annotations

from pytest import approx

from .helpers import PROBE_THEN_MINUS_ELSE, probe_if, run

SOURCE = """\
      PROGRAM TRUNC
      INTEGER L
      DOUBLE PRECISION X, Y, Z
      L = {value}
""" + probe_if("L .EQ. 3") + """\
      END
"""


def _time(tmp_path, name, value):
    path = tmp_path / name
    path.write_text(SOURCE.format(value=value))
    return run(str(path), 1).seconds


def test_a_real_assigned_to_an_integer_is_truncated(tmp_path):
    # 7.9/2 = 3.95 → 3 (THEN); -7.9/2 = -3.95 → -3 (ELSE); both divide once, the same cost
    then = _time(tmp_path, "pos.f", "7.9D0 / 2.0D0")
    else_ = _time(tmp_path, "neg.f", "7.9D0 / (-2.0D0)")
    assert then - else_ == approx(PROBE_THEN_MINUS_ELSE)
