"""Arithmetic IF, ``IF (e) L1, L2, L3``: to L1, L2 or L3 as e is negative, zero or positive.
It becomes a block IF over e's sign, structured like any forward GO TO."""

from __future__ import annotations

import pytest
from pytest import approx

from .gotos import body, executions, predict_text, shape
from .helpers import ADD, COND, FETCH, REL, STORE, TAKEN

THREE_WAY = """\
      PROGRAM A
      INTEGER K, M
      K = {k}
      IF (K - 2) 10, 20, 30
   10 M = 1
      GO TO 40
   20 M = 2
      GO TO 40
   30 M = 3
   40 CONTINUE
      END
"""


def test_three_labels_become_if_else_if_else(tmp_path):
    aag, _ = predict_text(tmp_path, THREE_WAY.format(k=3))
    (_, cond) = body(aag)
    assert shape([cond]) == [("CondtD", [["Seq"], ["Seq"], ["Seq"]])]
    assert cond.params()["conditions"] == ["((K - 2) .LT. 0)", "((K - 2) .EQ. 0)", "ELSE"]


@pytest.mark.parametrize("k, line, evaluated", [(1, 5, 1), (2, 7, 2), (3, 9, 2)])
def test_the_arm_of_e_s_sign_runs_and_its_time_by_hand(tmp_path, k, line, evaluated):
    """K = k is one store. Reaching arm n tests n conditions (Algorithm 3: the ELSE counts one),
    of which ``evaluated`` fetch K and subtract 2 (the compare is the condition's overhead),
    then the taken branch's overhead; the arm M = n is one store."""
    _, pred = predict_text(tmp_path, THREE_WAY.format(k=k))
    assert executions(pred, line) == 1
    arm = line // 2 - 1  # lines 5, 7, 9 → arms 1, 2, 3
    expected = STORE + arm * COND + evaluated * (FETCH + ADD) + TAKEN + STORE
    assert pred.seconds == approx(expected, rel=REL)


def test_shared_labels_merge_the_signs(tmp_path):
    """``IF (K) 10, 20, 10``: negative or positive go to 10 — one test, K .NE. 0."""
    aag, _ = predict_text(tmp_path, """\
      PROGRAM S
      INTEGER K, M
      K = 0
      IF (K) 10, 20, 10
   10 M = 1
   20 CONTINUE
      END
""")
    (_, cond) = body(aag)
    assert cond.params()["conditions"] == ["(K .NE. 0)"]
    assert shape([cond]) == [("CondtD", [["Seq"]])]
