"""Forward GO TOs out of blocks: out of an IF inside a DO to past the DO, out of two loops, out
of nested IFs. The jump goes where its label is: statements between the loop and the label are
skipped (they used to run), an outer loop is left too (it used to go on)."""

from __future__ import annotations

import pytest

from .gotos import body, executions, predict_text, shape


def test_goto_out_of_a_do_skips_the_statements_before_its_label(tmp_path):
    _, pred = predict_text(tmp_path, """\
      PROGRAM P
      INTEGER I, X, Y
      X = 0
      DO 10 I = 1, 10
         IF (I .EQ. 3) GO TO 20
         X = X + 1
   10 CONTINUE
      X = 100
   20 Y = X
      END
""")
    assert executions(pred, 6) == 2  # X = X + 1 for I = 1, 2
    assert executions(pred, 8) == 0  # X = 100 is jumped over
    assert executions(pred, 9) == 1


def test_goto_out_of_two_loops_leaves_both(tmp_path):
    aag, pred = predict_text(tmp_path, """\
      PROGRAM P
      INTEGER I, J, X
      X = 0
      DO 20 I = 1, 10
         DO 10 J = 1, 10
            X = X + 1
            IF (X .EQ. 5) GO TO 30
   10    CONTINUE
   20 CONTINUE
   30 CONTINUE
      END
""")
    assert shape(body(aag)[1:]) == [("IterND", [("IterND", ["Seq", ("CondtD", [["End"]])])])]
    assert executions(pred, 6) == 5  # the outer loop does not go on after the jump


def test_forward_goto_from_nested_ifs_is_followed(tmp_path):
    """The GO TO is two IFs deep, not at the end of an arm: no structured form, so the engine
    follows it (the unit's chain resumes at label 50)."""
    text = """\
      PROGRAM P
      INTEGER A, B, X, Y
      A = {a}
      B = 1
      IF (A .GT. 0) THEN
         IF (B .GT. 0) GO TO 50
         X = 1
      END IF
      Y = 2
   50 CONTINUE
      X = 3
      END
"""
    aag, pred = predict_text(tmp_path, text.format(a=1))
    assert shape(body(aag)) == ["Seq", ("CondtD", [[("CondtD", [["End"]]), "Seq"]]), "Seq", "Seq"]
    assert body(aag)[-1].labels == (50,)
    assert (executions(pred, 7), executions(pred, 9), executions(pred, 11)) == (0, 0, 1)
    _, pred = predict_text(tmp_path, text.format(a=0), name="u.f")
    assert (executions(pred, 7), executions(pred, 9), executions(pred, 11)) == (0, 1, 1)


@pytest.mark.parametrize("m, copied", [(3, 1), (4, 0)])
def test_exit_to_a_label_that_a_goto_after_the_loop_jumps_over(tmp_path, m, copied):
    """``DO … IF (L .EQ. M) GO TO 160 … END DO; GO TO 180; 160 …; 180``: the code at 160 runs
    only when the loop is left early (M odd)."""
    _, pred = predict_text(tmp_path, f"""\
      PROGRAM P
      INTEGER L, M, X, Y
      M = {m}
      X = 0
      DO 10 L = 1, M, 2
         X = X + 1
         IF (L .EQ. M) GO TO 160
         X = X + 1
   10 CONTINUE
      GO TO 180
  160 Y = X
  180 CONTINUE
      END
""", name=f"m{m}.f")
    assert executions(pred, 6) == 2
    assert executions(pred, 11) == copied


def test_loop_left_from_an_else_if_arm(tmp_path):
    """``100 IF (…) THEN … ELSE IF (N .EQ. 0) THEN GO TO 200 END IF … GO TO 100; 200``: a loop
    tested at its end (its one GO TO back), left from inside an ELSE IF."""
    aag, pred = predict_text(tmp_path, """\
      PROGRAM P
      INTEGER N, K
      N = 3
      K = 0
  100 CONTINUE
      IF (K .GT. 5) THEN
         K = 0
      ELSE IF (N .EQ. 0) THEN
         GO TO 200
      END IF
      N = N - 1
      GO TO 100
  200 CONTINUE
      END
""")
    (_, loop) = body(aag)
    assert loop.type == "IterND" and loop.test_at_end
    assert executions(pred, 11) == 3
