"""A scalar a closed-form loop's body assigns from the index (``KIND = ITER + 1``) steers the
decisions after it in the same iteration by its value: a computed GO TO or an ELSE IF chain
on it is summed exactly over the index, like a condition on the index itself. It was weighed
by default branch probabilities (``p_t_f_5``, 1/4 each), a silent approximation of a program
whose every decision interp can follow."""

from __future__ import annotations

import sympy as sp
from pytest import approx

from interp.application.aag import build_aag
from interp.engine.predict import predict

from .gotos import executions, predict_text
from .helpers import ADD, COND, FETCH, NOSTEP_FIXED, NOSTEP_ITER, REL, STORE, TAKEN, load

SWITCH = """\
      PROGRAM C
      INTEGER ITER, KIND, M
      DO 40 ITER = 1, 3
         KIND = ITER + 1
         GO TO (10, 20, 30), KIND
         M = 0
         GO TO 40
   10    M = 1
         GO TO 40
   20    M = 2
         GO TO 40
   30    M = 3
   40 CONTINUE
      END
"""


def test_computed_goto_on_a_body_value_takes_each_iterations_arm(tmp_path):
    """KIND = 2, 3, 4: label 20 (arm 2), label 30 (arm 3), then out of range (arm 4, the
    fall-through). Arm n tests n conditions (the fall-through's ELSE counts one), the three
    labelled ones fetching KIND; each takes a branch and stores M. Each iteration's
    KIND = ITER + 1 is an add, a fetch and a store; the DO loop has no step."""
    _, pred = predict_text(tmp_path, SWITCH)
    assert executions(pred, 8) == 0 and executions(pred, 10) == 1
    assert executions(pred, 12) == 1 and executions(pred, 6) == 1
    arms = sum(n * COND + min(n, 3) * FETCH + TAKEN + STORE for n in (2, 3, 4))
    expected = NOSTEP_FIXED + 3 * NOSTEP_ITER + 3 * (ADD + FETCH + STORE) + arms
    assert pred.seconds == approx(expected, rel=REL)


def test_the_formula_has_no_branch_probability(tmp_path):
    path = tmp_path / "t.f"
    path.write_text(SWITCH)
    pred = predict(build_aag([str(path)]), load(), 1, {})
    assert not {str(s) for s in sp.sympify(pred.total).free_symbols}


BUMPED = """\
      PROGRAM CC
      INTEGER K, I
      REAL*8 S
      COMMON /C/ K
      S = 0.0D0
      DO 40 I = 1, 3
         K = I
         CALL BUMP
         IF (K .EQ. 4) THEN
            S = S / 3.0D0
         ELSE
            S = S - 1.0D0
         END IF
   40 CONTINUE
      END
      SUBROUTINE BUMP
      INTEGER K
      COMMON /C/ K
      K = K + 1
      END
"""


def test_a_value_a_call_may_change_is_not_kept(tmp_path):
    """BUMP adds 1 to K through COMMON: K is 4 at I = 3, so the divide runs once. The K = I
    bound before the CALL must not decide the IF (it would never be 4: the divide would not
    run, silently); the closed form does not follow K through BUMP, so the IF is weighed by
    its branch probability, as before."""
    path = tmp_path / "cc.f"
    path.write_text(BUMPED)
    pred = predict(build_aag([str(path)]), load(), 1, {})
    assert {str(s) for s in sp.sympify(pred.total).free_symbols} == {"p_cc_f_9"}
