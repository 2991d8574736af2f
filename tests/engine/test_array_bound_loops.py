"""A DO loop whose limits are array elements (``DO K = LO(C), HI(C)``) is IterND at parse
time, but once the run knows the elements its trip count is a number: it is costed in closed
form, like the same loop with scalar limits, not unrolled iteration by iteration (NPB BT's
cell loops took minutes unrolled).

LO = (1, 11), HI = (10, 30): 10 + 20 = 30 iterations, no "interpreted by unrolling" note.
"""

from __future__ import annotations


from .helpers import run

ARRAYS = """\
      PROGRAM ABND
      INTEGER LO(2), HI(2), C, K
      DOUBLE PRECISION Y(30)
      LO(1) = 1
      LO(2) = 11
      HI(1) = 10
      HI(2) = 30
      DO 10 C = 1, 2
         DO 20 K = LO(C), HI(C)
            Y(K) = 0.0D0
   20    CONTINUE
   10 CONTINUE
      END
"""


def test_array_limits_are_costed_in_closed_form(tmp_path):
    path = tmp_path / "abnd.f"
    path.write_text(ARRAYS)
    pred = run(str(path), 1)
    assert not any("interpreted by unrolling" in n for n in pred.notes), pred.notes
    assert pred.seconds is not None and float(pred.seconds) > 0
