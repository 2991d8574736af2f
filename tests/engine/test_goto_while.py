"""The usual F77 while loop, ``10 IF (c) THEN ... GO TO 10 END IF``: a loop tested at its head
(IterND, interpreted by unrolling), not a rejected jump."""

from __future__ import annotations

from pytest import approx

from .gotos import body, executions, predict_text, shape
from .helpers import ADD, FETCH, NOSTEP_FIXED, NOSTEP_ITER, REL, STORE

WHILE = """\
      PROGRAM W
      INTEGER I, N
      N = 4
      I = 0
   10 IF (I .LT. N) THEN
         I = I + 1
         GO TO 10
      END IF
      END
"""


def test_labelled_if_with_goto_its_label_is_a_while_loop(tmp_path):
    aag, _ = predict_text(tmp_path, WHILE)
    (seq, loop) = body(aag)
    assert shape([seq, loop]) == ["Seq", ("IterND", ["Seq"])]
    assert loop.params()["condition"] == "(I .LT. N)" and not loop.test_at_end
    assert loop.head_label == 10


def test_while_loop_time_by_hand(tmp_path):
    """N = 4 and I = 0 are two stores. The loop (Table 1, no step) costs its fixed overhead once;
    the condition I .LT. N (two fetches, one compare) is tested 5 times, each with the
    per-iteration overhead; the body I = I + 1 (fetch, add, store) runs 4 times."""
    _, pred = predict_text(tmp_path, WHILE)
    expected = (2 * STORE + NOSTEP_FIXED + 5 * (NOSTEP_ITER + 2 * FETCH + ADD)
                + 4 * (FETCH + ADD + STORE))
    assert pred.seconds == approx(expected, rel=REL)


def test_goto_the_head_from_deeper_in_the_body_tests_the_condition_again(tmp_path):
    """A second GO TO 10 inside a nested IF is the next iteration too: I runs 0 → 6 by 2s and
    the loop stops when I .LT. N fails (I = 6 with N = 5)."""
    text = WHILE.replace("N = 4", "N = 5").replace(
        "         I = I + 1\n",
        "         I = I + 1\n         IF (I .GT. 0) THEN\n            I = I + 1\n"
        "            GO TO 10\n         END IF\n         I = 99\n")
    _, pred = predict_text(tmp_path, text)
    assert "line 5: loop interpreted by unrolling" in " ".join(pred.notes)
    # three iterations (I = 0, 2, 4); the assignment I = 99 never runs
    assert (executions(pred, 6), executions(pred, 8), executions(pred, 11)) == (3, 3, 0)
