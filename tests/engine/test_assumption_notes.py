"""An assumption of the symbolic run is stated once, however many parts of the engine rest on
it: the loop's NITER >= 4 and the steady-state jump's NITER - 4 >= 0 are the same."""

from __future__ import annotations

import sympy as sp

from interp.engine.predict import _canonical

from .helpers import TRAPEZOID, run


def test_equivalent_relations_have_one_canonical_form():
    n = sp.Symbol("NITER", integer=True)
    assert _canonical(sp.Ge(n, 4)) == _canonical(sp.Ge(n - 4, 0)) == _canonical(sp.Le(4, n))
    assert _canonical(sp.Gt(n, 4)) != _canonical(sp.Ge(n, 4))


def test_the_trapezoid_states_its_assumption_once():
    pred = run(TRAPEZOID, 4, {"N": 1000, "NITER": 10})
    stated = [n for n in pred.notes if n.startswith("the formula assumes")]
    assert stated == ["the formula assumes NITER >= 4"]
