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


BOUND_SOURCE = """      PROGRAM MEMOB
      INTEGER I, J, KIND, ISHIFT
      DOUBLE PRECISION X
      X = 0.0D0
      DO 20 J = 1, 3
         ISHIFT = J
         DO 10 I = 1, 10
            KIND = MOD(I + ISHIFT * ISHIFT, 7)
            IF (KIND .EQ. 0) THEN
               X = X + 1.0D0
               X = X * 2.0D0
            END IF
   10    CONTINUE
         IF (J .EQ. 2) GO TO 30
   20 CONTINUE
   30 CONTINUE
      END
"""


def test_a_value_bound_in_the_body_keys_the_closed_form(tmp_path, monkeypatch):
    """The inner loop's IF reads KIND, which the body assigns from ISHIFT: the closed form
    binds KIND = MOD(I + ISHIFT**2, 7) for the iteration (omega._binding_after), so it
    depends on ISHIFT though no decision names it. J = 1: I + 1 = 7 at I = 6, one arm;
    J = 2: I + 4 = 7, 14 at I = 3, 10, two arms; the GO TO leaves after J = 2: 3 in all.
    Before the fix the key held no ISHIFT and J = 2 reused J = 1's closed form (2 arms)."""
    src = tmp_path / "memob.f"
    src.write_text(BOUND_SOURCE)
    pred = run(str(src), 1)
    arm = next(a for a in pred.aag.all_aaus() if a.type == "Seq" and a.loc.line == 10)
    assert pred.processes[0].stats[arm.id].count == 1 + 2 == 3
    from interp.engine import loopmemo
    monkeypatch.setattr(loopmemo, "remembered", lambda p, a, frame, work: work)
    every = run(str(src), 1)  # worked out at every iteration of J
    assert float(pred.seconds) == pytest.approx(float(every.seconds), rel=REL)


INDEXED_SOURCE = """      PROGRAM MEMOX
      INTEGER I, J
      DOUBLE PRECISION X, T, Y(4)
      DATA Y /0.25D0, 0.75D0, 0.25D0, 0.75D0/
      DO 10 I = 1, 4
         IF (I .EQ. 99) GO TO 20
         DO 5 J = 1, 4
            T = 2.0D0 * Y(J)
            IF (T .GT. 1.0D0) X = 1.0D0
  5      CONTINUE
 10   CONTINUE
 20   CONTINUE
      END
"""


def test_a_value_from_an_element_indexed_by_the_loop_is_not_a_key(tmp_path):
    """T = 2·Y(J) has no value in the closed form (J is a symbol there, so Y(J) is no
    element interp can read): it is never bound, the IF on T is data, and the inner loop is
    still remembered once for the four iterations of I (EP's DO 140 is this shape)."""
    src = tmp_path / "memox.f"
    src.write_text(INDEXED_SOURCE)
    memo = run(str(src), 1).processes[0].cm.memo(("loop memo",), dict)
    assert len(memo) == 1


ELEMENT_SOURCE = """      PROGRAM MEMOE
      INTEGER J, K, NB(2)
      DOUBLE PRECISION X
      DATA NB /3, 5/
      DO 10 J = 1, 4
         IF (J .EQ. 99) GO TO 20
         DO 5 K = 1, NB(1)
            X = 1.0D0
  5      CONTINUE
         NB({grown}) = NB({grown}) + 1
 10   CONTINUE
 20   CONTINUE
      END
"""


def test_an_element_the_bounds_read_keys_the_closed_form(tmp_path):
    """DO 5 K = 1, NB(1): the element's value is part of the key (SP's CELL_SIZE(3, C)).
    Growing NB(1) after each inner loop gives 3 + 4 + 5 + 6 = 18 inner iterations and four
    closed forms; growing NB(2) instead, 3 · 4 = 12 and one closed form. The two programs
    differ by those 6 iterations, each Per-Iter Ovhd (No Step) + a store (Tables 1, 2)."""
    runs = {}
    for grown in (1, 2):
        src = tmp_path / f"memoe{grown}.f"
        src.write_text(ELEMENT_SOURCE.format(grown=grown))
        runs[grown] = run(str(src), 1)
    assert float(runs[1].seconds) - float(runs[2].seconds) == pytest.approx(
        (18 - 12) * (NOSTEP_ITER + STORE), rel=REL)
    entries = {g: len(r.processes[0].cm.memo(("loop memo",), dict)) for g, r in runs.items()}
    assert entries == {1: 4, 2: 1}


def test_a_subscript_counts_as_indexed_when_linear_in_the_index():
    """EP's X(2*I - 1) has no value while I is a symbol; X(I - I + 1) is X(1), a value read,
    and I*J is not counted either way."""
    from interp.application import ast
    from interp.engine.loopmemo import _slope

    i, j = ast.Var("I", None), ast.Var("J", None)

    def num(v):
        return ast.Num(v, "INTEGER", None)

    def op(o, a, b):
        return ast.BinOp(o, a, b, None)
    assert _slope(op("-", op("*", num(2), i), num(1)), "I") == 2
    assert _slope(op("+", ast.UnOp("-", i, None), num(3)), "I") == -1
    assert _slope(op("+", op("-", i, i), num(1)), "I") == 0
    assert _slope(op("+", j, num(3)), "I") == 0
    assert _slope(op("*", i, j), "I") is None
