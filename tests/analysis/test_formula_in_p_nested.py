"""The formula in P of a host that takes its nodes' results in the order they arrive
(``programs/gather_any``: a CRECV per node, any sender): T_P nests P Max terms. Taking it
apart for the fit rebuilt every Max (SymPy compares the arguments again, at every level) and
each sum carried its terms' skeletons, walked again at every level above: the work doubled
with each level, and ``interp scaling … --vary P=2..16:log2`` (P up to 64) ran for more than
five minutes (sweep 4). Now the shapes are compared in time linear in the nesting.

And a number refused because too few P values were fitted says so (the message named "at
most 4 terms" where 2 points fit 1)."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

from interp import api

HERE = Path(__file__).parent
GATHER = [str(HERE / "programs" / "gather_any" / f) for f in ("host.f", "worker.f")]
FANIN = str(HERE / "programs" / "fanin.f")  # by hand, then GDSUM/GISUM/GDHIGH


@pytest.fixture
def deadline():
    def boom(*_):
        raise TimeoutError("formula in P took more than 60 s")

    old = signal.signal(signal.SIGALRM, boom)
    signal.alarm(60)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, old)


def test_nested_arrivals_are_taken_apart_quickly(deadline):
    program = api.Program.load(GATHER)
    machine = api.Machine.load("ipsc860")
    fp = api.formula_in_p(program, machine, {"NB": 1000}, p_max=32)
    # the nesting deepens with P (one Max per node): no single shape, said so, with the times
    assert fp.formula is None and "shape changes with P" in fp.reason
    for p in (2, 16):
        direct = api.predict(program, machine, p, {"NB": 1000}, symbolic=False).seconds
        assert fp.seconds[p] == pytest.approx(direct, rel=1e-9)


def test_too_few_points_say_so():
    """P = 1, 2, 4, 8, 16: the last three are held out, two are fitted: one term at most
    (T = a + b·log2 P needs three; with P up to 64 it is found)."""
    machine = api.Machine.load("ipsc860")
    fp = api.formula_in_p([FANIN], machine, {}, p_max=16)
    assert fp.formula is None
    assert "with at most 1 term (fitted at 2 P values only: a larger --p-max" in fp.reason
    assert api.formula_in_p([FANIN], machine, {}, p_max=64).formula is not None


def test_the_longest_run_gives_the_reason():
    """The pipelined Gauss-Seidel changes shape over P = 1..32; the shorter runs tried after
    it fail for having two points to fit. The reason given was the last run's, advising a
    larger --p-max that would not help; it is the longest run's."""
    program = str(HERE / "programs" / "gswave.f")
    fp = api.formula_in_p([program], api.Machine.load("ipsc860"), {"N": 64, "NITER": 1},
                          p_max=32)
    assert fp.formula is None
    assert "shape changes with P between P = 1 and P = 32" in fp.reason
    assert "--p-max" not in fp.reason
