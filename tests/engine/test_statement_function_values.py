"""A statement function's value is followed: its expression with the dummies bound to the
arguments (F77 8.1.2), typed as the function (an INTEGER one truncates). It was the value of
an unknown FUNCTION, so ``TOT = -HALF(STEP)`` then ``IF (TOT) 80, 90, 90`` was weighed
0.5/0.5 (a branch-probability symbol in the formula) and a loop bounded by ``NB(5)`` asked
for its trip count (sweep 4).

By hand (iPSC/860 Table 1): each iteration of ``DO K = 1, n; X = 1.0D0`` costs
NOSTEP_ITER + STORE = 275 + 50 = 325 ns.
"""

from __future__ import annotations

from pytest import approx

from .helpers import NOSTEP_ITER, STORE, run

SOURCE = """\
      PROGRAM SFV
      INTEGER I, K, NB, IH
      DOUBLE PRECISION HALF, X, Y
      REAL R
      HALF(I) = 0.5D0 * DBLE(I)
      NB(I) = I / 2 * 3
      IH(R) = R * 2.5
      DO K = 1, NB({n})
         X = 1.0D0
      ENDDO
      DO K = 1, IH({r})
         X = 1.0D0
      ENDDO
      Y = -HALF({h})
      IF (Y .LT. -1.0D0) THEN
         DO K = 1, 1000
            X = 1.0D0
         ENDDO
      ENDIF
      END
"""


def _time(tmp_path, n: int, r: str, h: int) -> float:
    p = tmp_path / f"sfv{n}{r[0]}{h}.f"
    p.write_text(SOURCE.format(n=n, r=r, h=h))
    pred = run(str(p), 1)
    assert not pred.total.free_symbols  # no trip count, no branch probability left
    return pred.seconds


ITER = NOSTEP_ITER + STORE


def test_integer_statement_function_bounds_a_loop(tmp_path):
    # NB(7) = 7/2*3 = 9, NB(5) = 5/2*3 = 6 (integer division): 3 iterations more
    assert _time(tmp_path, 7, "1.0", 1) - _time(tmp_path, 5, "1.0", 1) == approx(3 * ITER)


def test_integer_function_of_a_real_truncates(tmp_path):
    # IH(3.0) = INT(7.5) = 7, IH(1.0) = INT(2.5) = 2: 5 iterations more
    assert _time(tmp_path, 1, "3.0", 1) - _time(tmp_path, 1, "1.0", 1) == approx(5 * ITER)


def test_its_value_decides_the_if(tmp_path):
    """-HALF(3) = -1.5 < -1 takes the arm, -HALF(1) = -0.5 does not: the arm's 1000
    iterations and more (its loop's set-up), and less than 1001 of them."""
    diff = _time(tmp_path, 1, "1.0", 3) - _time(tmp_path, 1, "1.0", 1)
    assert 1000 * ITER < diff < 1001 * ITER
