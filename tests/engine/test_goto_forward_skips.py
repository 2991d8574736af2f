"""Forward GO TOs whose skipped code holds another GO TO: ``IF (c) GO TO 100 … IF (d) GO TO 100
… GO TO 200; 100 …; 200`` (a blocked/unblocked choice). Each skip joins the arms that fall
through, into nested IFs too, so the whole is one conditional with a closed form."""

from __future__ import annotations

import pytest
from pytest import approx

from .gotos import body, executions, predict_text, shape
from .helpers import COND, FETCH, REL, STORE, TAKEN

CHOICE = """\
      PROGRAM T
      INTEGER D1, B3, X, Y
      D1 = {d1}
      B3 = 2
      IF (D1 .LT. 32) GO TO 100
      B3 = D1
      IF (B3 .EQ. 1) GO TO 100
      X = 1
      GO TO 200
  100 Y = 2
  200 CONTINUE
      END
"""


def test_skips_become_nested_conditionals(tmp_path):
    aag, _ = predict_text(tmp_path, CHOICE.format(d1=40))
    assert shape(body(aag)) == ["Seq", ("CondtD", [["Seq"], ["Seq", ("CondtD", [["Seq"], ["Seq"]])]])]
    assert not any(a.type == "End" for a in aag.programs()[0].aaus[1:-1])


@pytest.mark.parametrize("d1, line", [(40, 8), (1, 10)])
def test_the_path_taken_and_its_time_by_hand(tmp_path, d1, line):
    """D1 = d1 and B3 = 2: two stores. Each IF reached costs its conditions tested (Algorithm 3:
    the ELSE counts one), fetching the variable tested, and the branch taken; B3 = D1 is a fetch
    and a store; X = 1 or Y = 2 a store."""
    _, pred = predict_text(tmp_path, CHOICE.format(d1=d1))
    assert executions(pred, line) == 1
    if d1 < 32:  # the first IF's GO TO: Y = 2
        expected = 2 * STORE + (COND + FETCH + TAKEN) + STORE
    else:  # both ELSEs: B3 = D1, then X = 1
        expected = (2 * STORE + (2 * COND + FETCH + TAKEN) + (FETCH + STORE)
                    + (2 * COND + FETCH + TAKEN) + STORE)
    assert pred.seconds == approx(expected, rel=REL)
