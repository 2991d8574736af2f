"""A DATA statement that fills an array (``DATA PERIOD /2*.TRUE./``, ``DATA K /1, 2, 3, 4,
5, 6/``, ``DATA (M(I), I = 1, 4) /2*7, 2*9/``) gives its elements their values, in storage
order (column-major), as it gives a scalar its value. They used to be unknown: a Cartesian
grid's PERIODS, a loop bounded by an element or an IF on one stopped the prediction ("the
value of array element PERIOD(1) is not known before run time", sweep 4).

By hand (iPSC/860 Table 1): each iteration of ``DO IT = 1, n; X = 1.0D0`` costs
NOSTEP_ITER + STORE = 275 + 50 = 325 ns, so bounds that differ by d differ by d · 325 ns.
"""

from __future__ import annotations

from pytest import approx

from .helpers import NOSTEP_ITER, STORE, run

SOURCE = """\
      PROGRAM DATARR
      INTEGER K(2, 3), M(4), I, IT
      LOGICAL FLAGS(3)
      DOUBLE PRECISION X
      DATA K /{k}/
      DATA (M(I), I = 1, 4) /2*7, 2*9/
      DATA FLAGS /2*.TRUE., .FALSE./
      DO IT = 1, K(2, 3)
         X = 1.0D0
      ENDDO
      DO IT = 1, M({m})
         X = 1.0D0
      ENDDO
      IF (FLAGS(3)) THEN
         DO IT = 1, 1000
            X = 1.0D0
         ENDDO
      ENDIF
      END
"""


def _time(tmp_path, k: str, m: int) -> float:
    p = tmp_path / f"datarr{len(tmp_path.name)}{m}{k[0]}.f"
    p.write_text(SOURCE.format(k=k, m=m))
    pred = run(str(p), 1)
    assert not pred.total.free_symbols  # no trip count, no branch probability left
    return pred.seconds


def test_whole_array_in_storage_order(tmp_path):
    # K(2, 3) is the 6th element in column-major order: 6, then 1 with the values reversed
    assert (_time(tmp_path, "1, 2, 3, 4, 5, 6", 1) - _time(tmp_path, "6, 5, 4, 3, 2, 1", 1)
            == approx(5 * (NOSTEP_ITER + STORE)))


def test_implied_do_with_repeats(tmp_path):
    # M = 7, 7, 9, 9: M(4) - M(1) = 2 iterations more
    assert (_time(tmp_path, "6*1", 4) - _time(tmp_path, "6*1", 1)
            == approx(2 * (NOSTEP_ITER + STORE)))


def test_logical_array_decides_the_if(tmp_path):
    """FLAGS(3) is .FALSE.: the 1000-iteration loop never runs (the IF is not weighed 0.5)."""
    base = _time(tmp_path, "6*1", 1)  # K(2, 3) = 1, M(1) = 7: 8 iterations and the IF
    assert base < 20 * (NOSTEP_ITER + STORE)
