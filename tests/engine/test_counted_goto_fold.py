"""A GO TO or DO WHILE loop counted by an induction variable, whose body communicates, is folded
by the steady state as a DO loop is (omega._step_induction).

Such a loop (``K = K + 1 ... IF (K .LT. NROUND) GO TO 5``) was interpreted by unrolling, every
round on every rank: a ring of this shape at P = 8, 2,000 rounds, took 8.1 s of CPU against 0.7
s for its DO form (the CLI), and grew with the rounds. It is now stepped with a loop head the
steady state may jump, its counter moved on with the jump (foldvalues), its test still costed
once a round (n tests at the end, n + 1 at the head). A routine called in the body that is not
passed the counter no longer stops the induction analysis (it cannot change a local it is not
given).
"""

from __future__ import annotations

import pytest
import sympy as sp

from .helpers import load, program, run

RINGGOTO = program("ringgoto.f")
GOTO, WHILE, DO = 1, 2, 3


def _predict(loop: int, nround=2000, **kw):
    return run(RINGGOTO, 8, {"NROUND": nround, "LOOP": loop}, machine=load("cluster"), **kw)


@pytest.mark.parametrize("loop", [GOTO, WHILE, DO])
def test_each_form_folds_to_what_stepping_every_round_gives(loop):
    pred = _predict(loop)
    assert "steady state reached after 3 iterations: NROUND - 3 more added in closed form" \
        in pred.notes
    stepped = _predict(loop, symbolic=False, extend=False)
    assert pred.seconds == pytest.approx(stepped.seconds, rel=1e-12)


def test_the_formula_is_linear_in_the_rounds():
    """The GO TO and DO WHILE forms make the same work a round (one K = K + 1, one test):
    the same slope in NROUND; the DO form's differs by its loop overheads only."""
    nround = sp.Symbol("NROUND", integer=True, positive=True)
    slopes = {}
    for loop in (GOTO, WHILE, DO):
        total = sp.expand(_predict(loop).total)
        assert total.free_symbols == {nround}
        assert sp.degree(total, nround) == 1
        slopes[loop] = float(total.coeff(nround))
    assert slopes[GOTO] == pytest.approx(slopes[WHILE], rel=1e-12)
    assert slopes[GOTO] == pytest.approx(slopes[DO], rel=1e-2)
