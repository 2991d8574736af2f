"""An assignment to an INTEGER variable stores INT(value), truncated toward zero (F77 10.1):
``P = DSQRT(DBLE(N)) + 0.001D0`` makes P = 2 for N = 4, so ``3/P`` is integer division.
(Before, P kept 2.001 and ``3/P`` was 1.4993: NPB LU's process grid came out wrong.)"""

from __future__ import annotations

import pytest
import sympy as sp

from interp.application.expr import assigned_value

from .helpers import run

PROGRAM = """\
      PROGRAM CV
      INTEGER N, P, I
      DOUBLE PRECISION S
      N = 4
      P = DSQRT(DBLE(N)) + 0.001D0
      S = 0.0D0
      DO I = 1, 3/P * 10
         S = S + 1.0D0
      END DO
      END
"""


def test_integer_target_truncates(tmp_path):
    path = tmp_path / "cv.f"
    path.write_text(PROGRAM)
    counts = {r["line"]: r["count"] for r in run(str(path), 1).aau_rows()}
    assert counts[8] == (3 // 2) * 10  # P = INT(2.001) = 2


@pytest.mark.parametrize("value, ftype, stored", [
    (2.999, "INTEGER", 2), (-2.5, "INTEGER", -2), (sp.Float(7.9), "INTEGER", sp.Integer(7)),
    (sp.Rational(-7, 2), "INTEGER", sp.Integer(-3)), (5, "INTEGER", 5), (2.5, "DOUBLE", 2.5),
    (complex(3.5, 1), "DOUBLE", 3.5), (complex(3.5, 1), "INTEGER", 3),
    (complex(1, 2), "DCOMPLEX", complex(1, 2)),
])
def test_assigned_values(value, ftype, stored):
    assert assigned_value(value, ftype) == stored


def test_a_real_symbol_stored_in_an_integer_is_floored():
    x = sp.Symbol("X", real=True)
    n = sp.Symbol("N", integer=True)
    assert assigned_value(x / 2, "INTEGER") == sp.floor(x / 2)
    assert assigned_value(n + 1, "INTEGER") == n + 1
