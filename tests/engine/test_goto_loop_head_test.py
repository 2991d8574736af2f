"""A GO TO loop tested at its head, ``10 IF (I .GT. N) GO TO 20`` / body / ``GO TO 10`` /
``20 ...``, is a DO WHILE (.NOT. test, the comparison inverted): its induction variable counts
it in closed form, as README's "Counted GO TO and DO WHILE loops" says. It was an
unconditional loop with an exit, stepped: at N = 10⁹ it ran out of the step budget (an error
asking for --iterations; sweep 4). It costs what the same DO WHILE costs, at any N."""

from __future__ import annotations

import pytest

from .helpers import CLK, run

GOTO = """\
      PROGRAM HEADGO
      INTEGER I, N
      DOUBLE PRECISION X
      READ (5, *) N
      I = 1
   10 IF (I .GT. N) GO TO 20
         X = 1.0D0
         I = I + 1
         GO TO 10
   20 CONTINUE
      END
"""

WHILE = """\
      PROGRAM HEADWH
      INTEGER I, N
      DOUBLE PRECISION X
      READ (5, *) N
      I = 1
      DO WHILE (I .LE. N)
         X = 1.0D0
         I = I + 1
      END DO
      END
"""


@pytest.mark.parametrize("n", [0, 1, 1000, 10**9])
def test_head_tested_goto_loop_is_the_do_while(tmp_path, n):
    (tmp_path / "headgo.f").write_text(GOTO)
    (tmp_path / "headwh.f").write_text(WHILE)
    goto = run(str(tmp_path / "headgo.f"), 1, {"N": n})
    loop = run(str(tmp_path / "headwh.f"), 1, {"N": n})
    assert goto.seconds == pytest.approx(loop.seconds, rel=1e-12)


def test_a_negated_test_counts_too(tmp_path):
    """``DO WHILE (.NOT. (I .GT. N))`` is ``I .LE. N`` to the induction analysis: closed
    form at N = 10⁹ (stepped, it ran out of the step budget)."""
    (tmp_path / "notwh.f").write_text(WHILE.replace("(I .LE. N)", "(.NOT. (I .GT. N))"))
    (tmp_path / "headwh.f").write_text(WHILE)
    negated = run(str(tmp_path / "notwh.f"), 1, {"N": 10**9})
    plain = run(str(tmp_path / "headwh.f"), 1, {"N": 10**9})
    # the NOT is one more operation at each of the N + 1 tests: 1 clock (Table 1), 25 ns
    assert negated.seconds - plain.seconds == pytest.approx((10**9 + 1) * CLK, rel=1e-9)
