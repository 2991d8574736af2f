"""A GO TO loop that draws values interp does not follow and counts the ones it keeps (a
sparse vector filled by random draws): the test that restarts the loop (GO TO the head) and
the one that increments the counter are on data. The first has no closed form (its arm
restarts the loop); weighing the second would forget the counter the loop's exit test reads.
Both used to stop the prediction; now both are decided by error diffusion over their branch
probabilities (default 0.5 each) and the counter is followed, so the loop ends.

By hand, default p10 = p11 = 0.5: the test at line 10 stays on its 1st, 3rd, 5th… execution
(the tie goes to falling through) and restarts on the others; the test at line 11 increments
NZV on its 2nd, 4th, 6th, 8th execution. Four increments need 8 reaches of line 11, so 15
executions of line 9 (the 15th falls through to the 8th reach). With p11 = 1 every reach
increments: 4 reaches, 7 executions of line 9. With p10 = 0: no restarts, 8 executions.
"""

from __future__ import annotations

import sympy as sp

from .helpers import run

SOURCE = """\
      PROGRAM DRAW
      INTEGER NZ, NZV, I, IRND, M
      EXTERNAL IRND
      NZ = 4
      NZV = 0
      M = 0
  100 CONTINUE
      IF (NZV .GE. NZ) GOTO 110
      I = IRND(M)
      IF (I .GT. 8) GOTO 100
      IF (I .EQ. 0) THEN
         NZV = NZV + 1
      ENDIF
      GOTO 100
  110 CONTINUE
      END
"""


def _runs(tmp_path, given=None) -> tuple[int, int]:
    p = tmp_path / "draw.f"
    p.write_text(SOURCE)
    pred = run(str(p), 1, given)
    count = {r["line"]: int(r["count"]) for r in pred.aau_rows() if r["type"] == "Seq"}
    return count[9], count[12]


def test_the_loop_ends_after_nz_increments(tmp_path):
    assert _runs(tmp_path) == (15, 4)


def test_set_changes_the_proportions(tmp_path):
    assert _runs(tmp_path, {"P_DRAW_F_11": sp.Float(1)}) == (7, 4)
    assert _runs(tmp_path, {"P_DRAW_F_10": sp.Float(0)}) == (8, 4)
