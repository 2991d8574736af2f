"""A computing DO loop past the step budget is not followed (issue 12, CG's ``makea``): the
interpretation starts again with the loop's values taken as run-time data, so the loops that
read them get trip count symbols, and a note names the loop, why, and --max-steps.

The program: a DO loop that fills the row starts IP from a deterministic generator (an LCG mod
64, a = 21, c = 11, seed 7; a row gets S/16 = 0 … 3 elements), stepped because a GO TO can
leave it, then a DO J = 1, N loop over the rows with DO K = IP(J), IP(J+1) - 1 inside.

Per iteration of the K loop, from the iPSC/860's Table 1 and 2: the per-iteration overhead of
a loop without a step, [8, 14] clk → 11 clk, plus Y = 1.0D0, one store of 2 clk: 13 clk.
"""

from __future__ import annotations

import pytest
from pytest import approx

from interp.engine.stepbudget import MAX_STEPS
from interp.errors import InterpError

from .helpers import NOSTEP_ITER, STORE, formula_at, run

N = 200  # rows
SOURCE = f"""\
      PROGRAM GEN
      INTEGER N, LIM
      PARAMETER (N = {N}, LIM = 100000)
      INTEGER IP(N+1), I, J, K, S
      DOUBLE PRECISION Y
      S = 7
      IP(1) = 1
      DO 10 I = 1, N
         S = MOD(S * 21 + 11, 64)
         IP(I+1) = IP(I) + S / 16
         IF (IP(I+1) .GT. LIM) GO TO 99
   10 CONTINUE
      DO 30 J = 1, N
         DO 20 K = IP(J), IP(J+1) - 1
            Y = 1.0D0
   20    CONTINUE
   30 CONTINUE
   99 CONTINUE
      END
"""
TRIP = "n_gen_f_14"  # the K loop's trip count symbol: file gen.f, line 14


def _elements() -> int:
    """IP(N+1) - IP(1): the K loop's iterations over all rows, drawn as the program does."""
    s, total = 7, 0
    for _ in range(N):
        s = (s * 21 + 11) % 64
        total += s // 16
    return total


def _predict(tmp_path, budget: int):
    path = tmp_path / "gen.f"
    path.write_text(SOURCE)
    token = MAX_STEPS.set(budget)
    try:
        return run(str(path), 1)
    finally:
        MAX_STEPS.reset(token)


@pytest.fixture(scope="module")
def followed(tmp_path_factory):
    return _predict(tmp_path_factory.mktemp("followed"), 1_000_000)


def test_past_the_budget_the_rows_are_a_trip_count_symbol(tmp_path, followed):
    # the fill loop takes 2 AAU executions a row (its body and its IF): 400 > 300
    pred = _predict(tmp_path, 300)
    s = pred.data[TRIP]
    assert (s.kind, s.line, s.default) == ("trip count", 14, 1.0)
    note = next(n for n in pred.notes if "is not followed" in n)
    assert "DO I loop at gen.f:8" in note and "~400 AAU executions" in note
    # the budget counts every execution of the process: with the one before the loop (S = 7,
    # IP(1) = 1) 401, and 1.5 × 401 = 601.5 rounds up to 700, which does follow the values
    # (600, from the loop's 400 alone, did not: the row loop after it then passed it)
    assert "step budget of 300" in note and "--max-steps 700 or more" in note
    (tmp_path / "again").mkdir()
    assert TRIP not in _predict(tmp_path / "again", 700).data
    # each of the N rows runs the K loop n times: the slope in n is N · 13 clk
    per_iteration = NOSTEP_ITER + STORE
    assert per_iteration == approx(13 * 25e-9)
    slope = formula_at(pred.total, **{TRIP: 2}) - formula_at(pred.total, **{TRIP: 1})
    assert slope == approx(N * per_iteration)
    # at the mean row the followed rows have (every row's time is linear in its length, and
    # each fill iteration costs the same, so the mean time of the sample is exact), the
    # formula is the followed prediction
    mean = _elements() / N
    assert formula_at(pred.total, **{TRIP: mean}) == approx(float(followed.seconds), rel=1e-12)


def test_within_the_budget_the_followed_rows_are_used(followed):
    assert TRIP not in followed.data
    assert not any("is not followed" in n for n in followed.notes)
    body = next(r for r in followed.aau_rows() if r["type"] == "Seq" and r["line"] == 15)
    assert body["count"] == _elements()  # the 200 rows' 297 elements


def test_a_loop_that_never_ends_inside_a_computing_loop_is_still_the_error(tmp_path):
    # the GO TO loop at line 5 never ends (X only grows): the DO loop around it is left
    # unfollowed and the interpretation started again, where the budget passes again inside
    # it: the step budget's error, naming the GO TO loop
    path = tmp_path / "forever.f"
    path.write_text("      PROGRAM FOREVR\n      INTEGER I\n      REAL X\n      X = 0.0\n"
                    "    5 X = X + 1.0\n      IF (X .GE. 0.0) GO TO 5\n      DO 10 I = 1, 3\n"
                    "   10 CONTINUE\n      END\n")
    inner = tmp_path / "inner.f"
    inner.write_text("      PROGRAM INNER\n      INTEGER I\n      REAL X\n      X = 0.0\n"
                     "      DO 10 I = 1, 3\n    5    X = X + 1.0\n"
                     "         IF (X .GE. 0.0) GO TO 5\n   10 CONTINUE\n      END\n")
    token = MAX_STEPS.set(300)
    try:
        with pytest.raises(InterpError) as top:
            run(str(path), 1)
        with pytest.raises(InterpError) as nested:
            run(str(inner), 1)
    finally:
        MAX_STEPS.reset(token)
    assert "forever.f:5" in top.value.message and "300 AAU executions" in top.value.message
    assert "inner.f:6" in nested.value.message and "300 AAU executions" in nested.value.message
    assert "never ends" in nested.value.message


def test_a_loop_left_unfollowed_in_one_run_is_followed_in_the_next(tmp_path):
    # the same file, loop and budget in one process, N an input: at N = 200 the fill loop
    # passes the budget (400 AAU executions > 300), at N = 60 the program fits (120 in the
    # fill loop, 60 in the row loop that follows IP, a few more): each run
    # decides for itself, whatever the one before did (a sweep over N must not depend on
    # the order of its points)
    path = tmp_path / "gen.f"
    path.write_text(SOURCE.replace(f"PARAMETER (N = {N}, LIM = 100000)",
                                   "PARAMETER (LIM = 100000)").replace("IP(N+1)", "IP(1000)"))
    token = MAX_STEPS.set(300)
    try:
        assert TRIP in run(str(path), 1, {"N": 200}).data
        small = run(str(path), 1, {"N": 60})
    finally:
        MAX_STEPS.reset(token)
    assert TRIP not in small.data
    assert not any("is not followed" in n for n in small.notes)


def test_what_a_called_routine_leaves_in_common_is_run_time_data(tmp_path):
    # the fill loop calls BUMP, which counts the rows in COMMON /CNT/ C; past the budget the
    # loop is not followed, so C after it is not the value its sampled rows left (20), and
    # the loop it bounds gets a trip count symbol instead of a wrong count
    path = tmp_path / "cnt.f"
    path.write_text("""\
      PROGRAM CNT
      INTEGER I, K, C
      DOUBLE PRECISION Y
      COMMON /CNT/ C
      C = 0
      DO 10 I = 1, 200
         CALL BUMP
         IF (C .GT. 100000) GO TO 99
   10 CONTINUE
      DO 20 K = 1, C
         Y = 1.0D0
   20 CONTINUE
   99 CONTINUE
      END
      SUBROUTINE BUMP
      INTEGER C
      COMMON /CNT/ C
      C = C + 1
      END
""")
    token = MAX_STEPS.set(300)
    try:
        pred = run(str(path), 1)
    finally:
        MAX_STEPS.reset(token)
    assert any("DO I loop at cnt.f:6 is not followed" in n for n in pred.notes)
    s = pred.data["n_cnt_f_10"]  # the K loop's trip count: file cnt.f, line 10
    assert s.kind == "trip count"
    # one more K iteration costs 13 clk (see the module docstring)
    slope = formula_at(pred.total, n_cnt_f_10=2) - formula_at(pred.total, n_cnt_f_10=1)
    assert slope == approx(NOSTEP_ITER + STORE)
