"""A closed-form loop inside a stepped loop, worked out once per values it reads
(engine/loopmemo.py): the same times as working it out at every iteration, a new closed form
when a value its bounds read changes, and none remembered where it could read more.

The outer loop is stepped (a GO TO leaves it); the inner ``DO 5 J = 1, N`` is a closed form,
n·(Per-Iter Ovhd (Step) + δ_body) with δ_body one store of a constant (Table 2, a hit) and
its fixed No Step Limit Ovhd (the DO has no step). N = MOD(I, M) + C costs the same for
every M and C, so programs that differ only in them differ by their extra inner iterations
times (Per-Iter Ovhd (No Step) + store): 11 + 2 clocks at mid range."""

from __future__ import annotations

import pytest

from .helpers import NOSTEP_ITER, REL, STORE, run

SOURCE = """      PROGRAM MEMO
      INTEGER I, J, N
      DOUBLE PRECISION X
      N = 0
      DO 10 I = 1, 4
         N = MOD(I, {m}) + {c}
         IF (N .GT. 99) GO TO 20
         DO 5 J = 1, N
            X = 1.0D0
  5      CONTINUE
 10   CONTINUE
 20   CONTINUE
      END
"""


def _predict(tmp_path, m: int, c: int):
    folder = tmp_path / f"m{m}c{c}"
    folder.mkdir()
    src = folder / "memo.f"
    src.write_text(SOURCE.format(m=m, c=c))
    return run(str(src), 1)


@pytest.mark.parametrize("m, c, inner", [
    (5, 0, 1 + 2 + 3 + 4),  # N = I, new at every iteration: four closed forms
    (2, 1, 2 + 1 + 2 + 1),  # N = 2, 1, 2, 1: two, each used twice
    (1, 3, 4 * 3),  # N = 3 throughout: one, used four times
])
def test_inner_trip_counts_follow_n(tmp_path, m, c, inner):
    """Against N = 1 (four inner iterations in all): (inner - 4) more iterations, each one
    Per-Iter Ovhd (No Step) + a store (Tables 1, 2)."""
    base = _predict(tmp_path, 1, 1)
    pred = _predict(tmp_path, m, c)
    want = (inner - 4) * (NOSTEP_ITER + STORE)
    assert float(pred.seconds) - float(base.seconds) == pytest.approx(want, rel=REL)


def test_one_closed_form_per_value_read(tmp_path):
    """What is remembered: one entry per distinct N (the loop's key is the values it reads)."""
    for m, c, entries in ((5, 0, 4), (2, 1, 2), (1, 3, 1)):
        memo = _predict(tmp_path, m, c).processes[0].cm.memo(("loop memo",), dict)
        assert len(memo) == entries, (m, c)
