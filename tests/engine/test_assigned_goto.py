"""``ASSIGN 10 TO K`` and the assigned GO TO ``GO TO K (10, 20)``: K holds a label; the jump
becomes ``IF (K .EQ. 10) GO TO 10 ELSE IF (K .EQ. 20) GO TO 20``. Without the list, the labels
are those ASSIGNed to K in the program unit."""

from __future__ import annotations

import pytest

from interp.application.aag import build_aag
from interp.errors import UnsupportedError

from .gotos import body, executions, predict_text

RETURN_POINT = """\
      PROGRAM R
      INTEGER K, M
      ASSIGN {label} TO K
      GO TO K{labels}
   10 M = 1
      GO TO 30
   20 M = 2
   30 CONTINUE
      END
"""


@pytest.mark.parametrize("labels", [" (10, 20)", ", (10, 20)", ""])
@pytest.mark.parametrize("label, line", [(10, 5), (20, 7)])
def test_assigned_goto_goes_to_the_label_k_holds(tmp_path, labels, label, line):
    aag, pred = predict_text(tmp_path, RETURN_POINT.format(label=label, labels=labels))
    cond = body(aag)[1]
    tests = ["(K .EQ. 10)", "(K .EQ. 20)"] if labels else [f"(K .EQ. {label})"]
    assert cond.params()["conditions"][:len(tests)] == tests
    assert executions(pred, line) == 1
    assert executions(pred, 12 - line) == 0  # the other arm (5 ↔ 7)


def test_assigned_goto_without_any_assign_is_an_error(tmp_path):
    path = tmp_path / "t.f"
    path.write_text(RETURN_POINT.format(label=10, labels="").replace("ASSIGN 10 TO K", "M = 0"))
    with pytest.raises(UnsupportedError) as exc:
        build_aag([str(path)])
    assert exc.value.message == "GO TO K: no ASSIGN statement gives K a label"
    assert (exc.value.location.line, exc.value.location.column) == (4, 7)


def test_a_variable_may_still_be_called_assign(tmp_path):
    aag, _ = predict_text(tmp_path, """\
      PROGRAM V
      INTEGER ASSIGN, ASSIGN1, K
      ASSIGN = 1
      ASSIGN1 = 2
      ASSIGN 10 TO K
   10 CONTINUE
      END
""")
    (seq,) = body(aag)
    assert [s.target.name for s in seq.stmts[:3]] == ["ASSIGN", "ASSIGN1", "K"]
