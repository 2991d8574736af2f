"""A loop with two entries (irreducible flow: no statement dominates the cycle) has no
structured form. It is not rejected: the engine follows its GO TOs, step by step."""

from __future__ import annotations

from .gotos import body, executions, predict_text, shape

TWO_ENTRIES = """\
      PROGRAM P
      INTEGER K, X, Y
      K = {k}
      X = 0
      Y = 0
      IF (K .GT. 0) GO TO 20
   10 X = X + 1
   20 Y = Y + 1
      IF (Y .LT. 5) GO TO 10
      END
"""


def test_loop_entered_in_its_middle_is_followed_by_the_engine(tmp_path):
    aag, pred = predict_text(tmp_path, TWO_ENTRIES.format(k=1))
    assert shape(body(aag)) == ["Seq", ("CondtD", [["End"]]), "Seq", "Seq", ("CondtD", [["End"]])]
    assert [a.labels for a in body(aag)[2:4]] == [(10,), (20,)]
    # entered at 20: Y = 1; then 10 and 20 run for Y = 2 … 5
    assert (executions(pred, 7), executions(pred, 8)) == (4, 5)


def test_entered_at_its_head_it_runs_once_more(tmp_path):
    _, pred = predict_text(tmp_path, TWO_ENTRIES.format(k=0), name="u.f")
    assert (executions(pred, 7), executions(pred, 8)) == (5, 5)
