"""Two model errors, each pinned by hand-computed values.

1. An IF / ELSE IF / ELSE chain whose conditions test a loop index: arm k runs when C_k holds
   and no earlier condition does ([C_k and not C_1..C_{k-1}]), for the time and for the
   per-AAU counts; and the sum over the index is exact (it used to weigh the arms equally
   whenever the trip count was symbolic, e.g. in every triangular loop).
2. A user FUNCTION referenced in an expression is costed with its dummy arguments bound to
   that reference's actual arguments (its loop bound used to stay the dummy's own symbol).

Hand arithmetic uses the iPSC/860 constants of :mod:`.helpers` (Table 1 mid values,
1 clk = 25 ns at 40 MHz):

    add_sub   = 1 clk                           Int/Real Add/Sub
    real_mul  = (3 + 2)/2 = 2.5 clk             Int/Real Mul
    real_div  = mid((2.391e-6/Clk)+5, (2.241e-6/Clk)+2) = 96.14 clk
    fetch = 1 clk, store = 2 clk                 Table 2 (scalars hit the cache)
    condition = 1 clk, branch taken = 1 clk      Condt Ovhd, Branch Taken Ovhd
    DO fixed  = (10 + 5)/2 = 7.5 clk, per iteration = (14 + 8)/2 = 11 clk   (No Step)
    call      = (2 + 1)/2 = 1.5 clk, per argument 0 clk                    Call Ovhd
"""

from __future__ import annotations

import pytest
import sympy as sp

from interp.application import aau as A
from interp.engine.predict import predict

from .helpers import (ADD, CLK, COND, FETCH, MUL, NOSTEP_FIXED, NOSTEP_ITER, REAL_DIV, REL,
                      STORE, TAKEN, aag_of, formula_at, load)

CALL = (2 + 1) / 2 * CLK  # Table 1, Call Ovhd [1, 2] clk: mid 1.5 clk

# ---- the arms of an IF (J .LT. 3) / ELSE IF (J .LT. 10) / ELSE chain --------------------------
# The overhead of reaching arm k: every condition tested up to it (an ELSE counts one), the
# operands those conditions fetch (J, once per condition; the compare itself is the condition
# overhead) and the branch-taken overhead.
ARM1 = (1 * COND + 1 * FETCH + TAKEN) + (FETCH + ADD + STORE)  # X = X + 1.0: 3 + 4 = 7 clk
ARM2 = (2 * COND + 2 * FETCH + TAKEN) + (FETCH + MUL + STORE)  # X = X * 2.0: 5 + 5.5 = 10.5 clk
ARM3 = (3 * COND + 2 * FETCH + TAKEN) + (FETCH + REAL_DIV + STORE)  # X = X / 3.0: 6 + 99.14 clk
INIT = STORE  # X = 0.0: one store, the literal costs nothing
LOOP_FIXED = NOSTEP_FIXED + FETCH  # 7.5 clk + fetching the bound (N or I) once

CHAIN = """\
               IF (J .LT. 3) THEN
                  X = X + 1.0
               ELSE IF (J .LT. 10) THEN
                  X = X * 2.0
               ELSE
                  X = X / 3.0
               END IF
"""

SINGLE = """\
      PROGRAM SINGLE
      INTEGER N, J
      REAL X
      X = 0.0
      DO 10 J = 1, N
""" + CHAIN + """\
   10 CONTINUE
      END
"""

TRIANGLE = """\
      PROGRAM TRI
      INTEGER N, I, J
      REAL X
      X = 0.0
      DO 20 I = 1, N
         DO 10 J = 1, I
""" + CHAIN + """\
   10    CONTINUE
   20 CONTINUE
      END
"""
ARM_LINES = {"X = X + 1.0": 1, "X = X * 2.0": 2, "X = X / 3.0": 3}


def _predict(tmp_path, text, name, given=None, **kw):
    path = tmp_path / name
    path.write_text(text)
    given = {k: sp.Integer(v) for k, v in (given or {}).items()}
    return predict(aag_of(str(path)), load(), 1, given, **kw)


def _arm_counts(pred, text) -> dict[int, sp.Expr]:
    """How often each arm's Seq ran (process 0), by arm number."""
    lines = {i + 1: ARM_LINES[s.strip()] for i, s in enumerate(text.splitlines())
             if s.strip() in ARM_LINES}
    stats = pred.processes[0].stats
    return {lines[a.loc.line]: sp.sympify(stats[a.id].count) for a in pred.aag.all_aaus()
            if isinstance(a, A.Seq) and a.loc.line in lines}


def _arms_by_hand(js) -> tuple[int, int, int]:
    """Count the arms by running the chain over the index values, one by one."""
    n1 = sum(1 for j in js if j < 3)
    n2 = sum(1 for j in js if not j < 3 and j < 10)
    n3 = sum(1 for j in js if not j < 3 and not j < 10)
    return n1, n2, n3


def _single_by_hand(n: int) -> float:
    n1, n2, n3 = _arms_by_hand(range(1, n + 1))
    return INIT + LOOP_FIXED + n * NOSTEP_ITER + n1 * ARM1 + n2 * ARM2 + n3 * ARM3


def _triangle_by_hand(n: int) -> float:
    """The outer loop, n inner loops (fixed part + I iterations each) and the arms."""
    n1, n2, n3 = _arms_by_hand([j for i in range(1, n + 1) for j in range(1, i + 1)])
    inner = sum(LOOP_FIXED + i * NOSTEP_ITER for i in range(1, n + 1))
    return INIT + LOOP_FIXED + n * NOSTEP_ITER + inner + n1 * ARM1 + n2 * ARM2 + n3 * ARM3


def test_hand_constants():
    """The arm costs in clocks, as written in the comments above."""
    assert ARM1 / CLK == pytest.approx(7.0)
    assert ARM2 / CLK == pytest.approx(10.5)
    assert ARM3 / CLK == pytest.approx(105.14)
    assert _arms_by_hand(range(1, 21)) == (2, 7, 11)


def test_else_if_arm_counts_in_a_loop(tmp_path):
    """DO J = 1, 20: arm 1 runs for J = 1, 2 (2 times), arm 2 for J = 3..9 (7), the ELSE for
    J = 10..20 (11) — not [C_k] alone, which counted 9 for arm 2 and 20 for the ELSE.
    Time: 2 + 8.5 + 20·11 + 2·7 + 7·10.5 + 11·105.14 = 1474.54 clk = 36.8635 µs."""
    pred = _predict(tmp_path, SINGLE, "single.f", {"N": 20}, symbolic=False)
    assert _arm_counts(pred, SINGLE) == {1: 2, 2: 7, 3: 11}
    assert pred.seconds == pytest.approx(1474.54 * CLK, rel=REL)
    assert pred.seconds == pytest.approx(_single_by_hand(20), rel=REL)


@pytest.mark.parametrize("n", [1, 2, 3, 9, 10, 20, 5000])
def test_else_if_chain_symbolic_trip_count(tmp_path, n):
    """N symbolic: the closed form in N (it used to weigh the three arms equally) gives the
    hand counts and time at every N, on both sides of the breakpoints J = 3 and J = 10; and
    N = 5000 given (beyond the exact-sum limit of 2048 iterations) gives the same."""
    sym = _predict(tmp_path, SINGLE, "single.f")
    assert formula_at(sym.total, N=n) == pytest.approx(_single_by_hand(n), rel=REL)
    counts = {k: formula_at(c, N=n) if c.free_symbols else float(c)
              for k, c in _arm_counts(sym, SINGLE).items()}
    assert counts == dict(zip((1, 2, 3), map(float, _arms_by_hand(range(1, n + 1)))))
    if n == 5000:
        num = _predict(tmp_path, SINGLE, "single.f", {"N": n}, symbolic=False)
        assert _arm_counts(num, SINGLE) == {1: 2, 2: 7, 3: 4991}
        assert num.seconds == pytest.approx(_single_by_hand(n), rel=REL)


def test_else_if_chain_in_a_triangular_loop(tmp_path):
    """DO I = 1, 20 / DO J = 1, I: 210 inner iterations.
    arm 1: Σ_i min(i, 2) = 1 + 2·19 = 39
    arm 2: Σ_i max(0, min(i, 9) − 2) = (1 + … + 7) + 7·11 = 28 + 77 = 105
    arm 3: Σ_i max(0, i − 9) = 1 + … + 11 = 66                      (39 + 105 + 66 = 210)
    Time: X = 0.0 (2) + outer loop 8.5 + 20·11 + 20 inner loops 20·8.5 + 210·11
          + 39·7 + 105·10.5 + 66·105.14 = 11025.24 clk = 275.631 µs.
    (Before the fix the inner sum weighed the arms equally: 282.38 µs, +2.4 %, and counted
    105, 105 and 210 for the arms.)"""
    pred = _predict(tmp_path, TRIANGLE, "tri.f", {"N": 20}, symbolic=False)
    assert _arm_counts(pred, TRIANGLE) == {1: 39, 2: 105, 3: 66}
    assert pred.seconds == pytest.approx(11025.24 * CLK, rel=REL)
    assert pred.seconds == pytest.approx(_triangle_by_hand(20), rel=REL)
    assert not any("weighted equally" in note for note in pred.notes)


def test_triangular_closed_form_agrees_with_the_hand_sum_at_every_n(tmp_path):
    """The formula in N against the iteration-by-iteration hand count (property-style)."""
    sym = _predict(tmp_path, TRIANGLE, "tri.f")
    counts = _arm_counts(sym, TRIANGLE)
    for n in (1, 2, 3, 4, 9, 10, 11, 20, 37, 100):
        assert formula_at(sym.total, N=n) == pytest.approx(_triangle_by_hand(n), rel=REL), n
        js = [j for i in range(1, n + 1) for j in range(1, i + 1)]
        assert tuple(formula_at(counts[k], N=n) for k in (1, 2, 3)) == _arms_by_hand(js), n


LONG_CHAIN = """\
      PROGRAM LONG
      INTEGER N, M, I, J
      REAL X
      X = 0.0
      DO 20 I = 1, N
         DO 10 J = I, M
            IF (J .EQ. I) THEN
               X = X + 1.0
            ELSE IF (J .GE. I + 3 .AND. J .LE. 12) THEN
               X = X * 2.0
            ELSE IF (J .NE. 15) THEN
               X = X / 3.0
            END IF
   10    CONTINUE
   20 CONTINUE
      END
"""


def test_longer_chain_without_else_conditions_on_both_indices(tmp_path):
    """Any chain: conditions on both indices (.EQ., .GE. .AND. .LE., .NE.), no ELSE, inner
    bound M. The conditions: C1 = J .EQ. I is 1 condition fetching J, I; C2 is 2 conditions
    fetching J, I, J with one integer add (I + 3); C3 = J .NE. 15 is 1 condition fetching J.
    Falling through tests them all and takes no branch: 4 + 6 fetches + 1 add = 11 clk.
    Every (N, M) is checked against the iteration-by-iteration hand count and time; the
    formula in N and M where every inner loop runs (N <= M: outside it the enclosing sum
    reads the inner trip count Max(0, M - I + 1) as M - I + 1, the stated triangular rule)."""
    arm = {1: (1 * COND + 2 * FETCH + TAKEN) + (FETCH + ADD + STORE),
           2: (3 * COND + 5 * FETCH + ADD + TAKEN) + (FETCH + MUL + STORE),
           3: (4 * COND + 6 * FETCH + ADD + TAKEN) + (FETCH + REAL_DIV + STORE)}
    fall = 4 * COND + 6 * FETCH + ADD  # none taken

    def by_hand(n, m):
        t = INIT + LOOP_FIXED + n * NOSTEP_ITER
        counts = {1: 0, 2: 0, 3: 0}
        for i in range(1, n + 1):
            t += NOSTEP_FIXED + 2 * FETCH  # the inner loop's fixed part, fetching I and M
            for j in range(i, m + 1):
                t += NOSTEP_ITER
                k = 1 if j == i else 2 if (j >= i + 3 and j <= 12) else 3 if j != 15 else None
                if k is None:
                    t += fall
                else:
                    counts[k] += 1
                    t += arm[k]
        return t, counts

    sym = _predict(tmp_path, LONG_CHAIN, "long.f")
    lines = {"X = X + 1.0": 1, "X = X * 2.0": 2, "X = X / 3.0": 3}
    ids = {lines[s.strip()]: a.id for a in sym.aag.all_aaus() if isinstance(a, A.Seq)
           for i, s in enumerate(LONG_CHAIN.splitlines()) if i + 1 == a.loc.line and s.strip() in lines}
    for n, m in ((1, 1), (3, 20), (20, 3), (5, 12), (16, 16), (30, 40)):
        t, counts = by_hand(n, m)
        num = _predict(tmp_path, LONG_CHAIN, "long.f", {"N": n, "M": m}, symbolic=False)
        assert num.seconds == pytest.approx(t, rel=REL), (n, m)
        assert {k: num.processes[0].stats[i].count for k, i in ids.items()} == counts, (n, m)
        if n <= m:
            assert formula_at(sym.total, N=n, M=m) == pytest.approx(t, rel=REL), (n, m)


# ---- 2: a user FUNCTION's dummies are bound to the reference's actuals ---------------------

FUNCTION = """\
      PROGRAM FN
      INTEGER N
      REAL Y, F
      Y = F({actual})
      END
      REAL FUNCTION F(M)
      INTEGER M, K
      REAL S
      S = 0.0
      DO 10 K = 1, M
         S = S + 1.0
   10 CONTINUE
      F = S
      END
"""
# Y = F(...): call overhead 1.5 clk (+ 0 per argument) + store Y 2 clk
REFERENCE = CALL + STORE
# F's body: S = 0.0 (store 2) + DO fixed 7.5 + fetch M 1 + M·(11 + S = S + 1.0: 1 + 1 + 2)
#           + F = S (fetch 1 + store 2)
BODY_FIXED = STORE + NOSTEP_FIXED + FETCH + (FETCH + STORE)  # 13.5 clk
BODY_PER_ITER = NOSTEP_ITER + (FETCH + ADD + STORE)  # 15 clk


def test_function_dummy_bound_to_a_literal_actual(tmp_path):
    """Y = F(10): 1.5 + 2 + 13.5 + 10·15 = 167 clk = 4.175 µs, a number (it used to be a
    formula in the dummy M)."""
    pred = _predict(tmp_path, FUNCTION.format(actual="10"), "f10.f")
    assert pred.total.free_symbols == set()
    assert (BODY_FIXED + REFERENCE) / CLK == pytest.approx(17.0)
    assert pred.seconds == pytest.approx(167 * CLK, rel=REL)
    assert pred.seconds == pytest.approx(REFERENCE + BODY_FIXED + 10 * BODY_PER_ITER, rel=REL)


def test_function_dummy_bound_to_an_input(tmp_path):
    """Y = F(N), N an input: the fetch of N (1 clk) more, then linear in N:
    18 clk + 15 clk·N = 4.5e-7 s + 3.75e-7 s·N."""
    pred = _predict(tmp_path, FUNCTION.format(actual="N"), "fn.f")
    assert {s.name for s in pred.total.free_symbols} == {"N"}
    n = next(iter(pred.total.free_symbols))
    assert sp.degree(sp.expand(pred.total), n) == 1
    for value in (1, 10, 1000):
        assert formula_at(pred.total, N=value) == pytest.approx(
            (18 + 15 * value) * CLK, rel=REL)
    num = _predict(tmp_path, FUNCTION.format(actual="N"), "fn.f", {"N": 10}, symbolic=False)
    assert num.seconds == pytest.approx(REFERENCE + FETCH + BODY_FIXED + 10 * BODY_PER_ITER, rel=REL)


def test_function_referenced_with_a_loop_index(tmp_path):
    """DO I = 1, N: Y = Y + F(I) — the function's cost depends on the reference's value, so
    it is summed over I: Σ_i (15·i) = 15·N(N+1)/2, plus per reference 1.5 call + 13.5 body
    + Y = Y + F(I): fetch Y, fetch I, real add, store = 1 + 1 + 1 + 2 = 5 clk, per iteration
    11, and the loop 7.5 + 1 (fetch N) and Y = 0.0 (2).
    N = 10: 10.5 + 10·(11 + 1.5 + 13.5 + 5) + 15·55 = 10.5 + 310 + 825 = 1145.5 clk."""
    text = FUNCTION.replace("      Y = F({actual})\n", "      Y = 0.0\n      DO 5 I = 1, N\n"
                            "         Y = Y + F(I)\n    5 CONTINUE\n").replace(
        "INTEGER N\n", "INTEGER N, I\n", 1)
    num = _predict(tmp_path, text, "fi.f", {"N": 10}, symbolic=False)
    assert num.seconds == pytest.approx(1145.5 * CLK, rel=REL)
    sym = _predict(tmp_path, text, "fis.f")
    for value in (1, 10, 3000):
        assert formula_at(sym.total, N=value) == pytest.approx(
            (10.5 + 31 * value + 15 * value * (value + 1) / 2) * CLK, rel=REL)
