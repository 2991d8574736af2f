"""A substring of a CHARACTER variable whose value is followed has its value (F77 5.7), the
value blank-padded to the declared length: ``C = MSG(1:1)`` then ``IF (C .EQ. 'R')`` is
decided, where it was weighed 0.5 (a branch-probability symbol in the formula; sweep 4).

By hand (iPSC/860 Table 1): each iteration of ``DO K = 1, 1000; X = 1.0D0`` costs
NOSTEP_ITER + STORE = 275 + 50 = 325 ns; the arm that runs the loop costs 1000 of them and
its set-up more, and less than 1001.
"""

from __future__ import annotations

import pytest

from .helpers import NOSTEP_ITER, STORE, run

SOURCE = """\
      PROGRAM SUBSTR
      CHARACTER*8 MSG
      CHARACTER*1 C
      INTEGER K
      DOUBLE PRECISION X
      MSG = '{msg}'
      C = MSG(1:1)
      IF (C .EQ. 'R' .AND. MSG(2:3) .EQ. 'ES'
     &    .AND. MSG(7:) .EQ. ' ') THEN
         DO K = 1, 1000
            X = 1.0D0
         ENDDO
      ENDIF
      END
"""


def _time(tmp_path, msg: str) -> float:
    path = tmp_path / f"substr_{msg}.f"  # (the helper keeps one AAG per path)
    path.write_text(SOURCE.format(msg=msg))
    pred = run(str(path), 1)
    assert not pred.total.free_symbols  # decided, not weighed
    return pred.seconds


@pytest.mark.parametrize("other", ["XESULT", "RXSULT", "RESULTXY"])
def test_the_substring_decides_the_if(tmp_path, other):
    """'RESULT' passes all three tests (MSG(7:8) is its padding, two blanks); each other
    value fails one of them."""
    diff = _time(tmp_path, "RESULT") - _time(tmp_path, other)
    assert 1000 * (NOSTEP_ITER + STORE) < diff < 1001 * (NOSTEP_ITER + STORE)
