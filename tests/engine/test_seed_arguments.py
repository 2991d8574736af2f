"""A FUNCTION that advances its seed argument (NPB's RANDLC(X, A)) inside a GO TO loop that
draws distinct indices into a MARK array until it has NZ of them (CG's SPRNVC). The seed must
advance at every reference: when the FUNCTION's value is worked out (its dummy goes back to
the actual argument) and also where the value itself decides nothing (VECELT = RANDLC(...) is
not skipped by the backward slice). Otherwise the same index is drawn for ever and the loop
runs to the step budget."""

from __future__ import annotations

import pytest

from interp.application import ast
from interp.application.aag import build_aag
from interp.engine.needed import function_changes, kept_statements, needed_names
from interp.engine.stepbudget import MAX_STEPS
from interp.system.simgrid import zero_computation

from .helpers import load, run

N, NZ, NN1, SEED = 10, 6, 16, 7  # 10 columns, 6 distinct wanted, drawn in 0..15


def _draw(seed: int) -> tuple[int, int]:
    """NEXTR: a full-period LCG mod 64 (a = 21, c = 11), the value its upper 4 bits."""
    seed = (seed * 21 + 11) % 64
    return seed, seed // 4


def _draws() -> int:
    """SPRNVC's loop worked in Python: how many times the loop body draws."""
    seed, nzv, ndraw, mark = SEED, 0, 0, [0] * (N + 1)
    while nzv < NZ:
        seed, _ = _draw(seed)  # IVAL = NEXTR(ISEED): the value nothing decides on
        ndraw += 1
        seed, value = _draw(seed)
        i = value % NN1 + 1
        if i > N:
            continue
        if mark[i] == 0:
            mark[i] = 1
            nzv += 1
    return ndraw


# the seed passed as an argument (RANDLC(TRAN, AMULT)) or kept in COMMON by the FUNCTION itself
BY_ARGUMENT = ("NEXTR(ISEED)", """      INTEGER FUNCTION NEXTR(IX)
      INTEGER IX
      IX = MOD(IX * 21 + 11, 64)
      NEXTR = IX / 4
      END
""")
IN_COMMON = ("NEXTC()", """      INTEGER FUNCTION NEXTC()
      INTEGER ISEED
      COMMON /URANDO/ ISEED
      ISEED = MOD(ISEED * 21 + 11, 64)
      NEXTC = ISEED / 4
      END
""")


def _source(tmp_path, reference: str, function: str, loop: bool = True, draws: int = 0) -> str:
    """SPRNVC's pattern in a subroutine; then NDRAW barriers, so the time counts the draws.
    Without ``loop``, NDRAW = ``draws`` written out."""
    body = f"""      NZV = 0
      NDRAW = 0
 100  CONTINUE
      IF (NZV .GE. NZ) GOTO 110
         IVAL = {reference}
         NDRAW = NDRAW + 1
         I = MOD({reference}, NN1) + 1
         IF (I .GT. N) GOTO 100
         IF (MARK(I) .EQ. 0) THEN
            MARK(I) = 1
            NZV = NZV + 1
            V(NZV) = IVAL
         ENDIF
      GOTO 100
 110  CONTINUE
""" if loop else f"      NDRAW = {draws}\n"
    src = tmp_path / "seeds.f"
    src.write_text(f"""      PROGRAM SEEDS
      INCLUDE 'mpif.h'
      INTEGER IERR, K, NDRAW, MARK({N}), ISEED
      COMMON /URANDO/ ISEED
      CALL MPI_INIT(IERR)
      ISEED = {SEED}
      DO 5 K = 1, {N}
         MARK(K) = 0
 5    CONTINUE
      CALL SPRNVC({N}, {NZ}, {NN1}, MARK, NDRAW)
      DO 10 K = 1, NDRAW
         CALL MPI_BARRIER(MPI_COMM_WORLD, IERR)
 10   CONTINUE
      CALL MPI_FINALIZE(IERR)
      END
      SUBROUTINE SPRNVC(N, NZ, NN1, MARK, NDRAW)
      INTEGER N, NZ, NN1, MARK(N), NDRAW, NZV, I, IVAL, ISEED, {reference.split("(")[0]}
      DOUBLE PRECISION V({NZ})
      COMMON /URANDO/ ISEED
{body}      END
{function}""")
    return str(src)


def test_the_draws_worked_by_hand():
    """The first pass from seed 7 (IVAL's draw, then the index's): 30 = (7·21 + 11) mod 64
    = 158 - 128, IVAL = 30 // 4 = 7; 1 = (30·21 + 11) mod 64 = 641 - 640, the first index
    1 // 4 + 1 = 1. Nine loop passes find six distinct indices in 1..10."""
    assert _draw(7) == (30, 7)
    assert _draw(30) == (1, 0)
    assert _draws() == 9


@pytest.mark.parametrize("reference, function", [BY_ARGUMENT, IN_COMMON],
                         ids=["argument", "common"])
def test_a_seed_loop_ends_with_the_right_count(tmp_path, reference, function):
    """P = 2, computation off: the loop ends after _draws() passes, so the time is that of
    exactly that many barriers (the same program with NDRAW written out), and not of one fewer."""
    machine = zero_computation(load())
    token = MAX_STEPS.set(20_000)  # a stale seed fails in a second, not at 500 000 steps
    try:
        got = float(run(_source(tmp_path, reference, function), 2, machine=machine).seconds)
    finally:
        MAX_STEPS.reset(token)
    literal = tmp_path / "literal"
    literal.mkdir()
    want = float(run(_source(literal, reference, function, loop=False, draws=_draws()), 2,
                     machine=machine).seconds)
    fewer = tmp_path / "fewer"
    fewer.mkdir()
    short = float(run(_source(fewer, reference, function, loop=False, draws=_draws() - 1), 2,
                      machine=machine).seconds)
    assert got == pytest.approx(want, rel=1e-12)
    assert short < want  # a draw fewer is a barrier fewer


@pytest.mark.parametrize("reference, function", [BY_ARGUMENT, IN_COMMON],
                         ids=["argument", "common"])
def test_a_reference_that_advances_a_needed_seed_is_kept(tmp_path, reference, function):
    """IVAL reaches no decision, but its statement advances ISEED, which one does: it is kept."""
    aag = build_aag([_source(tmp_path, reference, function)])
    needed = needed_names(aag)
    assert "IVAL" not in needed and "ISEED" in needed
    unit = aag.units["SPRNVC"]
    ival = [s for a in unit.walk() for s in getattr(a, "stmts", ())
            if isinstance(s, ast.Assign) and s.target.name == "IVAL"]
    assert len(ival) == 1 and id(ival[0]) in kept_statements(aag)
    name = reference.split("(")[0]
    assert function_changes(aag, name) == (
        (frozenset({0}), frozenset()) if name == "NEXTR" else (frozenset(), frozenset({"ISEED"})))


def _counted(tmp_path, statement: str, n: str) -> str:
    """Three draws in a counted DO loop (a closed form), then N barriers from the seed. IVAL
    has no value to start with: IVAL + NEXTR(ISEED) is not a number, so it is worked out as
    numbers first, then again in SymPy."""
    src = tmp_path / "counted.f"
    src.write_text(f"""      PROGRAM COUNTED
      INCLUDE 'mpif.h'
      INTEGER IERR, K, N, ISEED, IVAL, NEXTR
      CALL MPI_INIT(IERR)
      ISEED = {SEED}
      DO 20 K = 1, 3
         {statement}
 20   CONTINUE
      N = {n}
      DO 10 K = 1, N
         CALL MPI_BARRIER(MPI_COMM_WORLD, IERR)
 10   CONTINUE
      CALL MPI_FINALIZE(IERR)
      END
{BY_ARGUMENT[1]}""")
    return str(src)


@pytest.mark.parametrize("statement, n", [
    ("IVAL = NEXTR(ISEED)", "MOD(ISEED, 7)"),
    ("IVAL = NEXTR(ISEED) + IVAL", "MOD(ISEED, 7) + 0 * IVAL"),
], ids=["value-unread", "value-summed"])
def test_a_counted_loop_advances_the_seed_once_a_reference(tmp_path, statement, n):
    """Three draws from 7: 7 -> 30 -> 1 -> 32 (32 = (1·21 + 11) mod 64), N = 32 mod 7 = 4
    barriers. The closed-form loop must see that NEXTR changes ISEED (else ISEED stays 7 and
    N = 0), and a reference worked out twice (numbers, then SymPy) advances it once (else six
    draws: ... -> 43 -> 18 -> 5, N = 5)."""
    seed = SEED
    for _ in range(3):
        seed, _ = _draw(seed)
    assert seed == 32 and seed % 7 == 4
    machine = zero_computation(load())
    got = float(run(_counted(tmp_path, statement, n), 2, machine=machine).seconds)
    literal = tmp_path / "literal"
    literal.mkdir()
    want = float(run(_counted(literal, statement, n="4"), 2, machine=machine).seconds)
    five = tmp_path / "five"
    five.mkdir()
    assert float(run(_counted(five, statement, n="5"), 2, machine=machine).seconds) > want
    assert got == pytest.approx(want, rel=1e-12)
