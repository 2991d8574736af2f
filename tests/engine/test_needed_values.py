"""Values no decision reads are not worked out (engine/needed.py), and a FUNCTION's value is
worked out only when something reads it (values.Lazy): EP's seed loop called RANDLC twice an
iteration for values nothing decides on. The prediction must not change."""

from __future__ import annotations

import pytest

from interp.application.aag import build_aag
from interp.engine import omega
from interp.engine.needed import needed_names, pure_function
from interp.system.simgrid import zero_computation

from .helpers import load, run

HEAD = """      PROGRAM LZ
      INCLUDE 'mpif.h'
      INTEGER ME, IERR, I, K, N, NTWICE
      DOUBLE PRECISION Z
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
"""
TAIL = """      DO 10 I = 1, N
         CALL MPI_BARRIER(MPI_COMM_WORLD, IERR)
 10   CONTINUE
      CALL MPI_FINALIZE(IERR)
      END
      INTEGER FUNCTION NTWICE(J)
      INTEGER J
      NTWICE = 2 * J
      END
"""


def _write(tmp_path, body: str) -> str:
    src = tmp_path / "lz.f"
    src.write_text(HEAD + body + TAIL)
    return str(src)


@pytest.fixture
def calls(monkeypatch):
    """How many FUNCTION values the interpretation works out."""
    seen = []
    real = omega.function_value

    def counting(p, ref, args, frame):
        seen.append((ref.name, tuple(args)))
        return real(p, ref, args, frame)

    monkeypatch.setattr(omega, "function_value", counting)
    return seen


def test_dead_and_unread_function_values_are_not_worked_out(tmp_path, calls):
    """N = NTWICE(50) is overwritten before anything reads it; K = NTWICE(100) is read by
    nothing; Z is read by nothing. Only NTWICE(3), the loop's bound, is worked out: 6
    barriers, exactly as with N = 6 written out."""
    lazy = _write(tmp_path, "      N = NTWICE(50)\n      K = NTWICE(100)\n      Z = 1.5D0 * K\n"
                            "      N = NTWICE(3)\n")
    machine = zero_computation(load())
    got = run(lazy, 2, machine=machine)
    # once: the 2 ranks behave alike, one class interpreted once (engine/classes.py)
    assert calls == [("NTWICE", (3,))]
    literal = tmp_path / "lit"
    literal.mkdir()
    want = run(_write(literal, "      N = 6\n"), 2, machine=machine)
    assert float(got.seconds) == pytest.approx(float(want.seconds), rel=1e-12)
    assert float(want.seconds) > 0  # six barriers cost something


def test_a_value_reaching_a_subroutine_loop_bound_is_followed(tmp_path):
    """M reaches a loop bound only through CALL WORK(M) (dummy L): the argument binding makes
    M needed, so 4 barriers are interpreted, as with the bound written out."""
    src = tmp_path / "bind.f"
    src.write_text(
        "      PROGRAM BIND\n      INCLUDE 'mpif.h'\n      INTEGER IERR, M\n"
        "      CALL MPI_INIT(IERR)\n      M = 2\n      M = M * 2\n      CALL WORK(M)\n"
        "      CALL MPI_FINALIZE(IERR)\n      END\n"
        "      SUBROUTINE WORK(L)\n      INCLUDE 'mpif.h'\n      INTEGER L, I, IERR\n"
        "      DO 10 I = 1, L\n         CALL MPI_BARRIER(MPI_COMM_WORLD, IERR)\n"
        " 10   CONTINUE\n      END\n")
    aag = build_aag([str(src)])
    assert {"M", "L"} <= needed_names(aag)
    machine = zero_computation(load())
    four = tmp_path / "four.f"
    four.write_text(src.read_text().replace("M = M * 2", "M = 4"))
    got, want = run(str(src), 2, machine=machine), run(str(four), 2, machine=machine)
    assert float(got.seconds) == pytest.approx(float(want.seconds), rel=1e-12)


def test_pure_functions(tmp_path):
    """Only a FUNCTION of its scalar arguments alone may be worked out late."""
    src = tmp_path / "fns.f"
    src.write_text(
        "      PROGRAM FNS\n      INTEGER A(3)\n      COMMON /C/ IC\n"
        "      IC = IPURE(1) + ICOM(1) + IARR(A) + ISAVED(1)\n      END\n"
        "      INTEGER FUNCTION IPURE(J)\n      IPURE = J + 1\n      END\n"
        "      INTEGER FUNCTION ICOM(J)\n      COMMON /C/ IC\n      ICOM = J + IC\n      END\n"
        "      INTEGER FUNCTION IARR(B)\n      INTEGER B(3)\n      IARR = B(1)\n      END\n"
        "      INTEGER FUNCTION ISAVED(J)\n      INTEGER KEEP\n      DATA KEEP /0/\n"
        "      KEEP = KEEP + J\n      ISAVED = KEEP\n      END\n")
    aag = build_aag([str(src)])
    assert pure_function(aag, "IPURE")
    assert not pure_function(aag, "ICOM")  # reads COMMON, which may change meanwhile
    assert not pure_function(aag, "IARR")  # an array by reference
    assert not pure_function(aag, "ISAVED")  # state kept from one reference to the next
    assert not pure_function(aag, "FNS")  # not a FUNCTION


def test_without_the_slice_every_value_is_worked_out(tmp_path, calls, monkeypatch):
    """The same program with every name needed and no laziness (the engine before): all three
    references are worked out (once: the 2 ranks are one class, engine/classes.py), and the
    time is the same."""
    from interp.engine import process

    src = _write(tmp_path, "      N = NTWICE(50)\n      K = NTWICE(100)\n      N = NTWICE(3)\n")
    machine = zero_computation(load())
    sliced = float(run(src, 2, machine=machine).seconds)
    monkeypatch.setattr(process.Process, "_needed", lambda self, s: True)
    monkeypatch.setattr(process.Process, "_lazy_value", lambda self, s, frame, resolve: None)
    calls.clear()
    everything = float(run(src, 2, machine=machine).seconds)
    assert sorted(calls) == sorted([("NTWICE", (50,)), ("NTWICE", (100,)), ("NTWICE", (3,))])
    assert sliced == pytest.approx(everything, rel=1e-12)
