"""A DO loop whose limits are run-time data (a bound from a FUNCTION interp does not follow,
CG's sparse rows) runs ``n_<file>_<line>`` times per execution: a trip-count symbol of the
formula, default 1, settable with --set. It used to stop the prediction ("the bound of the DO
loop: the value of M is not known").

Per iteration, from the iPSC/860's Table 1 and 2: the per-iteration overhead of a loop without
a step, [8, 14] clk → 11 clk, plus Y = 1.0D0, one store of 2 clk: 13 clk = 325 ns.
"""

from __future__ import annotations

import sympy as sp
from pytest import approx

from .helpers import NOSTEP_ITER, STORE, formula_at, run

SOURCE = """\
      PROGRAM TRIPD
      INTEGER M, I, IFUN
      DOUBLE PRECISION Y
      EXTERNAL IFUN
      M = IFUN(1)
      DO 10 I = 1, M
         Y = 1.0D0
   10 CONTINUE
      END
"""


def test_the_trip_count_is_a_named_symbol(tmp_path):
    path = tmp_path / "tripd.f"
    path.write_text(SOURCE)
    pred = run(str(path), 1)
    s = pred.data["n_tripd_f_6"]
    assert (s.kind, s.line, s.default) == ("trip count", 6, 1.0)
    per_iteration = NOSTEP_ITER + STORE
    assert per_iteration == approx(13 * 25e-9)
    slope = formula_at(pred.total, n_tripd_f_6=11) - formula_at(pred.total, n_tripd_f_6=1)
    assert slope == approx(10 * per_iteration)
    given = run(str(path), 1, {"N_TRIPD_F_6": sp.Integer(11)}, symbolic=False)
    assert given.seconds - pred.seconds == approx(10 * per_iteration)  # default 1 iteration
