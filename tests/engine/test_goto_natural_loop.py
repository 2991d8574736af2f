"""A backward GO TO from inside an IF block to a label before it (the loop of CG's setup):
the natural loop of the back edge becomes one GO TO loop (IterND) that runs again whenever a
GO TO reaches its head, and ends when control falls off its end."""

from __future__ import annotations

from pytest import approx

from .gotos import body, executions, predict_text, shape
from .helpers import ADD, COND, FETCH, NOSTEP_FIXED, NOSTEP_ITER, REL, STORE, TAKEN

HALVING = """\
      PROGRAM G
      INTEGER I, K
      I = 3
      K = 0
   30 CONTINUE
      I = I - 1
      IF (I .GT. 0) THEN
         K = K + 1
         GO TO 30
      END IF
      END
"""


def test_backward_goto_out_of_an_if_block_is_a_goto_loop(tmp_path):
    aag, _ = predict_text(tmp_path, HALVING)
    (_, loop) = body(aag)
    assert shape([loop]) == [("IterND", ["Seq", ("CondtD", [["Seq", "End"]])])]
    assert loop.params()["limit_type"] == "goto" and loop.head_label == 30
    assert loop.children[1].branches[0].body[1].kind == "exit:30"


def test_goto_loop_time_by_hand(tmp_path):
    """I = 3 → 2 → 1 → 0: three iterations, the IF taken twice. Per iteration: the loop's
    per-iteration overhead, I = I - 1 (fetch, add, store), and the IF: one condition plus
    fetching I (the compare is the condition's overhead). Taken twice: the branch-taken
    overhead and K = K + 1. Before the loop: two stores and the loop's fixed overhead."""
    _, pred = predict_text(tmp_path, HALVING)
    expected = (2 * STORE + NOSTEP_FIXED
                + 3 * (NOSTEP_ITER + (FETCH + ADD + STORE) + COND + FETCH)
                + 2 * (TAKEN + FETCH + ADD + STORE))
    assert pred.seconds == approx(expected, rel=REL)
    assert (executions(pred, 6), executions(pred, 8)) == (3, 2)


def test_two_gotos_to_one_head_make_one_loop(tmp_path):
    """``100 ... IF (c) GO TO 100 ... GO TO 100``: both jumps close the same natural loop
    (not a loop nested in another); it ends by a forward GO TO out of it."""
    text = """\
      PROGRAM T
      INTEGER I, N
      I = 0
      N = 0
  100 CONTINUE
      IF (N .GE. 3) GO TO 110
      I = I + 1
      IF (I .GT. 4) GO TO 100
      N = N + 1
      GO TO 100
  110 CONTINUE
      END
"""
    aag, pred = predict_text(tmp_path, text)
    (_, loop) = body(aag)
    assert loop.type == "IterND" and loop.params()["limit_type"] == "goto"
    assert not any(a.type == "IterND" for a in loop.walk() if a is not loop)
    # I = 1, 2, 3 each add one to N: three passes add, then N = 3 leaves
    assert (executions(pred, 7), executions(pred, 9)) == (3, 3)
