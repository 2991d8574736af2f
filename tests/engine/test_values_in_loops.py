"""Values assigned in a loop costed in closed form are followed: its body's data flow is
replayed (an array filled element by element, an IF with a known condition assigning its arm's
value). The loop used to leave its arrays unknown, and a later IF on them was weighted equally.

Every program below ends in the same IF: THEN stores three constants, ELSE one. With the
iPSC/860's Table 1 and 2 values, THEN costs 3·STORE + 1·COND + TAKEN and ELSE costs
1·STORE + 2·COND + TAKEN (ELSE counts as a second condition tested), so the THEN run is
longer by 2·STORE − COND = 2·50 ns − 25 ns = 75 ns; everything before the IF is the same.
"""

from __future__ import annotations

from pytest import approx

from .helpers import PROBE_THEN_MINUS_ELSE, probe_if, run

TAIL = probe_if("V({k}) .GE. 1") + """\
      END
"""

FILL = """\
      PROGRAM FILL
      INTEGER V(0:7), I, D
      DOUBLE PRECISION X, Y, Z
      D = {d}
      DO 10 I = 0, 7
         V(I) = D
   10 CONTINUE
"""

ARMS = """\
      PROGRAM ARMS
      INTEGER V(0:7), I
      DOUBLE PRECISION X, Y, Z
      DO 20 I = 0, 7
         IF (I .LT. 4) THEN
            V(I) = 1
         ELSE
            V(I) = 0
         END IF
   20 CONTINUE
"""

def _time(tmp_path, name: str, source: str) -> float:
    path = tmp_path / name
    path.write_text(source)
    pred = run(str(path), 1)
    assert not pred.data, pred.data  # the IF was decided, not weighted as data
    return pred.seconds


def test_the_hand_arithmetic():
    assert PROBE_THEN_MINUS_ELSE == approx(2 * 50e-9 - 25e-9)


def test_an_array_filled_in_a_do_loop_is_known_after_it(tmp_path):
    then = _time(tmp_path, "fill1.f", FILL.format(d=1) + TAIL.format(k=3))
    else_ = _time(tmp_path, "fill0.f", FILL.format(d=0) + TAIL.format(k=3))
    assert then - else_ == approx(PROBE_THEN_MINUS_ELSE)


def test_an_if_on_the_index_inside_the_loop_assigns_its_arms_values(tmp_path):
    then = _time(tmp_path, "arms2.f", ARMS + TAIL.format(k=2))  # V(2) = 1: I < 4
    else_ = _time(tmp_path, "arms5.f", ARMS + TAIL.format(k=5))  # V(5) = 0
    assert then - else_ == approx(PROBE_THEN_MINUS_ELSE)
