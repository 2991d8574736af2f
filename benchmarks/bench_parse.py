"""Benchmark of the Level-1 front end: build_aag on a generated 5,000-line fixed-form program.

Run with ``pytest benchmarks/bench_parse.py --benchmark-enable``. The figure is reported, not
asserted (target: under 2 s per build on a laptop).
"""

from __future__ import annotations

import pytest

from interp.application.aag import build_aag

TARGET_LINES = 5000


def _subroutine(k: int) -> list[str]:
    """One ~50-line subroutine: loops, IFs, assignments, NX/2 calls, a GO TO loop."""
    return [
        f"      SUBROUTINE SUB{k}(U, N, ME, NP)",
        "      INTEGER N, ME, NP, I, J, ITER",
        "      DOUBLE PRECISION U(0:N+1), S, T, WORK(1)",
        "C     interior sweep",
        "      S = 0.0D0",
        "      T = DBLE(ME) * 0.5D0 + 1.0D0",
        "      DO 10 I = ME+1, N, NP",
        "         U(I) = 0.5D0*(U(I-1) + U(I+1)) + T",
        "         S = S + U(I)*U(I)",
        "         IF (S .GT. 1.0D6) S = S / 2.0D0",
        "   10 CONTINUE",
        "      DO 30 J = 1, 4",
        "         DO 20 I = 1, N",
        "            U(I) = U(I) * 0.99D0 + DBLE(J)",
        "   20    CONTINUE",
        "   30 CONTINUE",
        "      IF (ME .EQ. 0) THEN",
        "         CALL CSEND(10, S, 8, 1, 0)",
        "      ELSE IF (ME .EQ. NP-1) THEN",
        "         CALL CRECV(10, T, 8)",
        "         S = S + T",
        "      ELSE",
        "         T = SQRT(ABS(S)) + 1.0D0",
        "      END IF",
        "      CALL GDSUM(S, 1, WORK)",
        "      ITER = 0",
        "   40 CONTINUE",
        "      ITER = ITER + 1",
        "      S = S * 0.5D0",
        "      IF (S .GT. 1.0D0 .AND. ITER .LT. 100) GO TO 40",
        "      DO WHILE (T .GT. 1.0D0)",
        "         T = T / 2.0D0",
        "      END DO",
        "      IF (T .LT. 0.0D0) GO TO 50",
        "      U(0) = T",
        "      U(N+1) = S",
        "   50 CONTINUE",
        "      DO 60 I = 1, N",
        "         IF (U(I) .LT. 0.0D0) GO TO 60",
        "         U(I) = U(I) - 1.0D0",
        "   60 CONTINUE",
        "      CALL GSYNC()",
        "      S = S + T*T - U(1)**2",
        "      T = MOD(ME + ITER, NP) + S",
        "      RETURN",
        "      END",
    ]


def generate(lines: int = TARGET_LINES) -> tuple[str, int]:
    """A program of at least ``lines`` lines; returns its text and number of subroutines."""
    subs: list[list[str]] = []
    # the main program is 11 lines plus one CALL per subroutine
    while 11 + sum(len(s) + 1 for s in subs) < lines:
        subs.append(_subroutine(len(subs)))
    main = [
        "      PROGRAM BIG",
        "      INTEGER N, ME, NP, ITER",
        "      PARAMETER (N = 1000)",
        "      DOUBLE PRECISION U(0:N+1)",
        "      ME = MYNODE()",
        "      NP = NUMNODES()",
        "      DO 100 ITER = 1, 10",
        *[f"         CALL SUB{k}(U, N, ME, NP)" for k in range(len(subs))],
        "  100 CONTINUE",
        "      STOP",
        "      END",
    ]
    text = "\n".join(main + [line for s in subs for line in s]) + "\n"
    return text, len(subs)


@pytest.fixture(scope="module")
def big_program(tmp_path_factory):
    text, nsubs = generate()
    path = tmp_path_factory.mktemp("bench") / "big.f"
    path.write_text(text)
    return path, text.count("\n"), nsubs


def test_build_aag_5000_lines(benchmark, big_program):
    path, nlines, nsubs = big_program
    assert nlines >= TARGET_LINES
    aag = benchmark(build_aag, [path])
    assert len(aag.units) == nsubs + 1
    main = aag.units["BIG"]
    assert [a.type for a in main.aaus] == ["Start", "Seq", "IterSync", "End", "End"]
    benchmark.extra_info.update(lines=nlines, units=len(aag.units),
                                aaus=sum(1 for _ in aag.all_aaus()))
