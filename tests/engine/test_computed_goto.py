"""Computed GO TO, ``GO TO (L1, ..., Ln), K``: to Lk when K = k, on to the next statement
otherwise. It becomes ``IF (K .EQ. 1) GO TO L1 ELSE IF ...``, structured like any GO TO."""

from __future__ import annotations

import pytest
from pytest import approx

from .gotos import body, executions, predict_text, shape
from .helpers import COND, FETCH, REL, STORE, TAKEN

SWITCH = """\
      PROGRAM C
      INTEGER K, M
      K = {k}
      GO TO (10, 20), K
      M = 0
      GO TO 30
   10 M = 1
      GO TO 30
   20 M = 2
   30 CONTINUE
      END
"""


def test_computed_goto_is_a_block_if_on_the_selector(tmp_path):
    aag, _ = predict_text(tmp_path, SWITCH.format(k=1))
    (_, cond) = body(aag)
    assert cond.params()["conditions"] == ["(K .EQ. 1)", "(K .EQ. 2)", "ELSE"]
    assert shape([cond]) == [("CondtD", [["Seq"], ["Seq"], ["Seq"]])]


@pytest.mark.parametrize("k, line", [(1, 7), (2, 9), (5, 5)])
def test_the_selected_label_runs_and_its_time_by_hand(tmp_path, k, line):
    """K = k and the arm's M = ... are a store each. Arm n tests n conditions (Algorithm 3: the
    ELSE, K out of range, counts one), the first two fetching K (the compare is the condition's
    overhead); then the taken branch's overhead."""
    _, pred = predict_text(tmp_path, SWITCH.format(k=k))
    assert executions(pred, line) == 1
    arm = {7: 1, 9: 2, 5: 3}[line]
    expected = STORE + arm * COND + min(arm, 2) * FETCH + TAKEN + STORE
    assert pred.seconds == approx(expected, rel=REL)
