"""FUNCTION values of straight-line bodies (engine/straight.py): NPB's RANDLC, a 46-bit
linear congruential generator written as a dozen DOUBLE PRECISION assignments, worked out
without stepping Ω. The value must be the one Ω gives (the same numeric rules), the seed must
advance through the argument as before, and the step budget is spent the same."""

from __future__ import annotations

import pytest

from interp.application.aag import build_aag
from interp.engine import straight
from interp.engine.stepbudget import MAX_STEPS
from interp.system.simgrid import zero_computation

from .helpers import load, run

A = 5**13  # NPB's multiplier (1220703125)
SEED = 314159265
DRAWS = 3

RANDLC = """      DOUBLE PRECISION FUNCTION RANDLC(X, A)
      DOUBLE PRECISION R23, R46, T23, T46, A, X, T1, T2, T3, T4
      DOUBLE PRECISION A1, A2, X1, X2, Z
      PARAMETER (R23 = 0.5D0 ** 23, R46 = R23 ** 2, T23 = 2.D0 ** 23,
     >  T46 = T23 ** 2)
      T1 = R23 * A
      A1 = INT(T1)
      A2 = A - T23 * A1
      T1 = R23 * X
      X1 = INT(T1)
      X2 = X - T23 * X1
      T1 = A1 * X2 + A2 * X1
      T2 = INT(R23 * T1)
      Z = T1 - T23 * T2
      T3 = T23 * Z + A2 * X2
      T4 = INT(R46 * T3)
      X = T3 - T46 * T4
      RANDLC = R46 * X
      RETURN
      END
"""


def _by_hand() -> int:
    """x_{k+1} = a·x_k mod 2^46, RANDLC = x_{k+1}/2^46, in exact integers: the barriers the
    program below makes, INT(16·R) after each of DRAWS draws, then once more from the first
    seed again (the same arguments: the remembered outcome), summed."""
    x, total = SEED, 0
    for _ in range(DRAWS):
        x = A * x % 2**46
        total += 16 * x // 2**46
    return total + 16 * (A * SEED % 2**46) // 2**46


def _source(tmp_path, barriers: str | None = None) -> str:
    """DRAWS draws, then one from the first seed again, then NB barriers: NB is the sum of
    INT(16·R)."""
    draw = """      R = RANDLC(X, AM)
      NB = NB + INT(16.D0 * R)
"""
    count = barriers or "      NB = 0\n" + DRAWS * draw + f"      X = {SEED}.D0\n" + draw
    src = tmp_path / "draws.f"
    src.write_text(f"""      PROGRAM DRAWS
      INCLUDE 'mpif.h'
      INTEGER IERR, K, NB
      DOUBLE PRECISION X, AM, R, RANDLC
      CALL MPI_INIT(IERR)
      X = {SEED}.D0
      AM = {A}.D0
{count}      DO 10 K = 1, NB
         CALL MPI_BARRIER(MPI_COMM_WORLD, IERR)
 10   CONTINUE
      CALL MPI_FINALIZE(IERR)
      END
{RANDLC}""")
    return str(src)


def test_randlc_is_straight_and_a_branch_or_common_is_not(tmp_path):
    """RANDLC: its Start, Seq and RETURN are stepped (3 AAU executions), 13 assignments."""
    aag = build_aag([_source(tmp_path)])
    body = straight.straight_body(aag, "RANDLC")
    assert body is not None and body.steps == 3 and len(body.stmts) == 13
    assert len(body.assigns) == 13 and body.assigns[-1][0] == "RANDLC"  # its value last
    other = tmp_path / "other.f"
    other.write_text("""      INTEGER FUNCTION NEXTC()
      INTEGER ISEED
      COMMON /URANDO/ ISEED
      ISEED = MOD(ISEED * 21 + 11, 64)
      NEXTC = ISEED / 4
      END
      INTEGER FUNCTION IPOS(I)
      INTEGER I
      IPOS = 0
      IF (I .GT. 0) IPOS = I
      END
""")
    aag = build_aag([str(other)])
    assert straight.straight_body(aag, "NEXTC") is None  # COMMON: not its arguments alone
    assert straight.straight_body(aag, "IPOS") is None  # an IF: Ω decides it


def test_the_drawn_values_decide_as_worked_by_hand(tmp_path):
    """P = 2, computation off: the time is that of _by_hand() barriers written out, and the
    same as with every value worked out by Ω (straight.py off)."""
    machine = zero_computation(load())
    token = MAX_STEPS.set(20_000)
    try:
        got = float(run(_source(tmp_path), 2, machine=machine).seconds)
    finally:
        MAX_STEPS.reset(token)
    literal = tmp_path / "literal"
    literal.mkdir()
    want = float(run(_source(literal, f"      NB = {_by_hand()}\n"), 2, machine=machine).seconds)
    fewer = tmp_path / "fewer"
    fewer.mkdir()
    short = float(run(_source(fewer, f"      NB = {_by_hand() - 1}\n"), 2,
                      machine=machine).seconds)
    assert _by_hand() > 0 and short < want
    assert got == pytest.approx(want, rel=1e-12)


def test_the_same_prediction_and_steps_as_stepping_the_body(tmp_path, monkeypatch):
    """With computation priced: the same time, and the same AAU executions counted against
    the step budget, as when Ω steps RANDLC's body for every value."""
    files = _source(tmp_path)
    fast = run(files, 2)
    steps_fast = _steps(files)
    monkeypatch.setattr(straight, "straight_body", lambda aag, name: None)
    slow = run(files, 2)
    assert float(fast.seconds) == pytest.approx(float(slow.seconds), rel=1e-12)
    assert steps_fast == _steps(files)


def _steps(files: str) -> int:
    """The AAU executions rank 0 was charged: the smallest budget it passes with."""
    lo, hi = 1, 200
    while lo < hi:
        mid = (lo + hi) // 2
        token = MAX_STEPS.set(mid)
        try:
            run(files, 2)
            hi = mid
        except Exception:
            lo = mid + 1
        finally:
            MAX_STEPS.reset(token)
    return lo


def test_outcomes_shared_by_the_ranks_give_what_each_rank_computes(tmp_path, monkeypatch):
    """Every rank draws the same DRAWS + 1 seeds (the last repeats the first). Rank by rank
    (``exact``: no process classes, so both ranks step the draws), with the outcomes kept for
    all ranks (straight.shared_outcomes) the body is worked out DRAWS times in all; with none
    kept, 2 · (DRAWS + 1) times. The time, the formula and the AAU executions charged are
    the same."""
    files = _source(tmp_path)
    calls = []
    compiled = straight.compiled_outcome

    def counted(p, unit, body, args):
        calls.append(p.pid)
        return compiled(p, unit, body, args)

    monkeypatch.setattr(straight, "compiled_outcome", counted)
    shared = run(files, 2, exact=True)
    assert sorted(calls) == [0] * DRAWS  # rank 1 found every outcome rank 0 worked out
    steps_shared = _steps(files)
    calls.clear()
    monkeypatch.setattr(straight, "shared_outcomes", lambda aag: {})  # nothing kept
    own = run(files, 2, exact=True)
    assert sorted(calls) == [0] * (DRAWS + 1) + [1] * (DRAWS + 1)
    assert float(shared.seconds) == float(own.seconds)
    assert str(shared.total) == str(own.total)
    assert steps_shared == _steps(files)
