"""Property tests of the engine.

* One truth, two views: the closed-form prediction (symbolic inputs, steady-state extension),
  evaluated at a point, equals the interpretation that uses the values from the start and
  interprets every iteration.
* What-if monotonicity: making the network cheaper (scaling the dynamic-buffer per-byte and
  per-hop costs down) never makes a program slower; nor does a cheaper bound of the ranges.
"""

from __future__ import annotations

import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from .helpers import REL, SAMPLES, TRAPEZOID, formula_at, load, program, run

FEW = settings(max_examples=15, deadline=None)


@FEW
@given(n=st.integers(min_value=1, max_value=80), niter=st.integers(min_value=1, max_value=8),
       p=st.sampled_from([1, 2, 4]))
def test_formula_at_a_point_equals_full_interpretation(n, niter, p):
    closed = run(TRAPEZOID, p, {"N": n, "NITER": niter})
    reference = run(TRAPEZOID, p, {"N": n, "NITER": niter}, extend=False, symbolic=False)
    assert formula_at(closed.total, N=n, NITER=niter) == pytest.approx(reference.seconds, rel=REL)
    assert closed.seconds == pytest.approx(reference.seconds, rel=REL)


@FEW
@given(nrep=st.integers(min_value=1, max_value=40), idest=st.sampled_from([1, 2, 3]))
def test_communicating_loop_formula_equals_full_interpretation(nrep, idest):
    """A loop that communicates, with a symbolic count (its steady state is extended in closed
    form), against every iteration interpreted."""
    closed = run(program("needtwo.f"), 4, {"IDEST": idest, "NREP": nrep})
    reference = run(program("needtwo.f"), 4, {"IDEST": idest, "NREP": nrep}, extend=False,
                    symbolic=False)
    assert closed.seconds == pytest.approx(reference.seconds, rel=REL)


CASES = [
    ("sendrecvn", [program("sendrecvn.f")], 4),
    ("tokenring", [program("tokenring.f")], 4),
    ("pingpong", [str(SAMPLES / "pingpong" / "pingpong.f")], 2),
    ("pipeline", [str(SAMPLES / "pipeline" / "pipeline.f")], 4),
    ("ring", [str(SAMPLES / "ring" / "ring.f")], 4),
]


@FEW
@given(case=st.sampled_from(CASES),
       per_byte=st.floats(min_value=0.0, max_value=1.0),
       per_hop=st.floats(min_value=0.0, max_value=1.0),
       nbytes=st.integers(min_value=1, max_value=5000))
def test_cheaper_dynamic_network_is_never_slower(case, per_byte, per_hop, nbytes):
    _, files, p = case
    given_values = {"NBYTES": nbytes} if files[0].endswith("sendrecvn.f") else {}
    base = run(files, p, given_values).seconds
    cheaper = load().scaled({"node.cs.dynamic.per_byte": per_byte,
                             "node.cs.dynamic.per_hop": per_hop})
    scaled = run(files, p, given_values, machine=cheaper).seconds
    assert scaled <= base * (1 + 1e-12)
    if per_byte == 1.0 and per_hop == 1.0:
        assert scaled == pytest.approx(base, rel=REL)


def test_halving_per_byte_saves_exactly_the_bytes():
    """sendrecvn.f, 1000 bytes, dynamic: halving per_byte saves 500 × 0.36e-6 s on the path."""
    base = run(program("sendrecvn.f"), 4, {"NBYTES": 1000}).seconds
    half = run(program("sendrecvn.f"), 4, {"NBYTES": 1000},
               machine=load().scaled({"node.cs.dynamic.per_byte": 0.5})).seconds
    assert base - half == pytest.approx(1000 * 0.36e-6 / 2, rel=1e-6)


@settings(max_examples=8, deadline=None)
@given(case=st.sampled_from(CASES + [("trapezoid", TRAPEZOID, 1)]),
       nbytes=st.integers(min_value=1, max_value=5000))
def test_bounds_are_ordered(case, nbytes):
    """Every range of the spec is [min, max]: the min bound is never slower than mid, nor
    mid than max."""
    _, files, p = case
    values = {"NBYTES": nbytes} if files[0].endswith("sendrecvn.f") else {}
    if files == TRAPEZOID:
        values = {"N": nbytes, "NITER": 3}
    t = {b: run(files, p, values, bound=b).seconds for b in ("min", "mid", "max")}
    assert t["min"] <= t["mid"] * (1 + 1e-12)
    assert t["mid"] <= t["max"] * (1 + 1e-12)


def test_symbols_are_positive_integers():
    """The formula's inputs are integer symbols (so floor() of them simplifies)."""
    pred = run(TRAPEZOID, 2, {"N": 1000, "NITER": 10})
    for s in pred.total.free_symbols:
        assert s.is_integer and s.is_positive, s
    assert isinstance(pred.total, sp.Expr)
