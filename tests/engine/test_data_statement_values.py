"""A local scalar set by a DATA statement and never assigned (``DATA ITMAX / 5 /``, an
iteration limit) has that value when the unit runs. It used to be an input symbol with no
value, so a loop bounded by it that must be stepped stopped the prediction ("depends on
ITMAX, which has no value").

By hand (iPSC/860 Table 1): each iteration of ``DO IT = 1, ITMAX; X = 1.0D0`` costs
NOSTEP_ITER + STORE = 275 + 50 = 325 ns, so DATA 5 and DATA 3 differ by 2 · 325 ns, and the
time is a number, not a formula in ITMAX.
"""

from __future__ import annotations

from pytest import approx

from .helpers import NOSTEP_ITER, STORE, run

SOURCE = """\
      PROGRAM DAT
      INTEGER IT, ITMAX
      DOUBLE PRECISION X
      DATA ITMAX / {n} /
      DO IT = 1, ITMAX
         X = 1.0D0
      ENDDO
      END
"""


def _time(tmp_path, n: int) -> float:
    p = tmp_path / f"dat{n}.f"
    p.write_text(SOURCE.format(n=n))
    pred = run(str(p), 1)
    assert not pred.total.free_symbols
    return pred.seconds


def test_the_data_value_bounds_the_loop(tmp_path):
    assert _time(tmp_path, 5) - _time(tmp_path, 3) == approx(2 * (NOSTEP_ITER + STORE))
