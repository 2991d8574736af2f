"""A DO loop whose bounds are array elements (a sparse row, ``DO K = IP(J), IP(J+1)-1``) is
IterND at parse time, so it was always stepped, and stepping needs its bounds: when the
elements are run-time data the prediction stopped ("the start of the DO K loop: the value of
… is not known"). No GO TO leaves it, so it now has the closed form of a DO loop: with the
bounds followed, the exact count; with data bounds, its trip count symbol n_<file>_<line>.

By hand (iPSC/860 Table 1): the loop has no step, so it costs NOSTEP_FIXED + n·(NOSTEP_ITER +
δ_body); two loops with known bounds IP = (1, 4, 9) run 3 and 5 iterations; with data bounds
(FILL sets IP) each runs n_rows2_f_9 times: T(n=8) − T(n=0) = 2 · 8 · (NOSTEP_ITER + δ_body).
"""

from __future__ import annotations

import sympy as sp
from pytest import approx

from .helpers import NOSTEP_ITER, formula_at, run

KNOWN = """\
      PROGRAM ROWS1
      INTEGER J, K, IP(3)
      DOUBLE PRECISION X(10)
      IP(1) = 1
      IP(2) = 4
      IP(3) = 9
      DO J = 1, 2
         DO K = IP(J), IP(J+1) - 1
            X(K) = 1.0D0
         ENDDO
      ENDDO
      END
"""
DATA = """\
      PROGRAM ROWS2
      INTEGER J, K, IP(3)
      DOUBLE PRECISION X(10)
      EXTERNAL FILL
      CALL FILL(IP)
      DO J = 1, 2
         X(J) = 0.0D0
         X(J+1) = 0.0D0
         DO K = IP(J), IP(J+1) - 1
            X(K) = 1.0D0
         ENDDO
      ENDDO
      END
"""


def _body(pred, line) -> tuple[int, float]:
    row = next(r for r in pred.aau_rows() if r["type"] == "Seq" and r["line"] == line)
    return row["count"], row["total"]


def test_followed_bounds_give_the_exact_count(tmp_path):
    p = tmp_path / "rows1.f"
    p.write_text(KNOWN)
    assert _body(run(str(p), 1), 9)[0] == 3 + 5


def test_data_bounds_give_a_trip_count_symbol(tmp_path):
    p = tmp_path / "rows2.f"
    p.write_text(DATA)
    pred = run(str(p), 1)
    assert list(pred.data) == ["n_rows2_f_9"]
    eight = run(str(p), 1, {"N_ROWS2_F_9": sp.Float(8)})
    count, total = (float(eight.evaluate(x)) for x in _body(eight, 10))
    assert count == 16
    per_body = float(total) / 16
    slope = formula_at(pred.total, n_rows2_f_9=8) - formula_at(pred.total, n_rows2_f_9=0)
    assert slope == approx(2 * 8 * (NOSTEP_ITER + per_body))
