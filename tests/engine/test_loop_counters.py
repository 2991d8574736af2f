"""A counter in a loop costed in closed form, ``K = K + 1`` (a message's packed length), leaves
the loop as K₀ + C·1 with C the executions the closed form counted, even when the loop is too
long to replay its data flow (here 40·40 = 1600 executions, over the replay budget). It used to
leave K unknown.

The IF at the end: THEN stores three constants, ELSE one, so THEN is longer by
(3·STORE + COND) − (STORE + 2·COND) = 2·50 ns − 25 ns = 75 ns (Table 1 and 2 of the paper).
"""

from __future__ import annotations

from pytest import approx

from interp.engine.dataflow import BUDGET

from .helpers import PROBE_THEN_MINUS_ELSE, probe_if, run

SOURCE = """\
      PROGRAM COUNT
      INTEGER K, I, J
      DOUBLE PRECISION X, Y, Z
      K = 5
      DO 20 J = 1, 40
         DO 10 I = 1, 40
            K = K + 1
   10    CONTINUE
   20 CONTINUE
""" + probe_if("K .EQ. {k}") + """\
      END
"""


def test_the_counter_leaves_the_loop_counted(tmp_path):
    assert 40 * 40 > BUDGET
    times = {}
    for k in (5 + 1600, 5 + 1599):
        path = tmp_path / f"count{k}.f"
        path.write_text(SOURCE.format(k=k))
        pred = run(str(path), 1)
        assert not pred.data, pred.data  # decided, not a branch probability
        times[k] = pred.seconds
    assert times[1605] - times[1604] == approx(PROBE_THEN_MINUS_ELSE)
