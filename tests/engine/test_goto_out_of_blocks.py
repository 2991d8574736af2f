"""Forward GO TOs out of blocks: out of an IF inside a DO to past the DO, out of two loops, out
of nested IFs. The jump goes where its label is: statements between the loop and the label are
skipped (they used to run), an outer loop is left too (it used to go on)."""

from __future__ import annotations

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
