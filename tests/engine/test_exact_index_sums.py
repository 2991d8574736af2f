"""Σ over a loop's iterations of a body with an IF on the index (summation.exact_sum): each
term is the piece that holds at that index, added in the order a term-by-term rebuild adds
them, so the sum is the same expression to the last bit; and one sum worked out again (the
same body closed at every call of its routine) is remembered with its notes."""

from __future__ import annotations

import pytest
import sympy as sp
from hypothesis import given, settings, strategies as st

from interp.engine import summation
from interp.engine.summation import exact_sum, sum_over

from .helpers import COND, FETCH, NOSTEP_FIXED, NOSTEP_ITER, REL, STORE, TAKEN, program, run

K = sp.Dummy("k", integer=True, nonnegative=True)


def test_if_on_the_index_worked_by_hand():
    """DO 10 I = 1, 100 / IF (I .LE. 10) one store ELSE two stores: the IF arm runs 10 times
    (one condition tested, the branch taken), the ELSE arm 90 times (the condition and the
    ELSE counted: two condition overheads); each fetches I for the test."""
    first = STORE + 1 * COND + TAKEN + FETCH
    other = 2 * STORE + 2 * COND + TAKEN + FETCH
    expected = NOSTEP_FIXED + 100 * NOSTEP_ITER + 10 * first + 90 * other
    pred = run(program("indexif.f"), 1)
    assert pred.seconds == pytest.approx(expected, rel=REL)
    stepped = run(program("indexif.f"), 1, symbolic=False)
    assert stepped.seconds == pytest.approx(expected, rel=REL)


def test_an_if_on_the_index_modulo_past_2048_iterations_is_summed_exactly():
    """4096 iterations of IF (MOD(5*I, 64) .LE. 31): each arm 2048 times (indexmod.f's
    comment), in the closed form as in the run that steps every iteration; not an estimate
    from 256 samples, which a cycle of 64 aliases."""
    closed = run(program("indexmod.f"), 1)
    stepped = run(program("indexmod.f"), 1, symbolic=False)
    assert closed.seconds == pytest.approx(stepped.seconds, rel=REL)
    assert not any("estimated" in n for n in closed.notes)
    for line in (11, 13):  # X = 1 (the IF's arm); X = 2, Y = 3 (the ELSE's)
        arm = next(a for a in closed.aag.all_aaus() if a.type == "Seq" and a.loc.line == line)
        assert closed.processes[0].stats[arm.id].count == 4096 // 2 == 2048


def _plain(term, n):
    """The sum as each term rebuilt by substitution gives it (the reference)."""
    return sp.Add(*[term.xreplace({K: sp.Integer(j)}) for j in range(n)])


_COEF = st.sampled_from([sp.Float(x) for x in (2.5e-8, 5e-8, 1.25e-7, 3.75e-7, 1.0e-6)])
_RELS = st.sampled_from([sp.Le, sp.Lt, sp.Ge, sp.Gt, sp.Eq, sp.Ne])


@st.composite
def _conditions(draw):
    rel = draw(_RELS)
    a = draw(st.integers(-3, 3).filter(bool))
    b = draw(st.integers(-20, 40))
    # an IF on the index, or on its place in a cycle (FT's MOD(5*I, 64) .LE. 31)
    c = rel(sp.Mod(a * K + b, draw(st.integers(1, 9))), draw(st.integers(0, 8))) \
        if draw(st.integers(0, 2)) == 0 else rel(a * K, b)
    if draw(st.booleans()):
        other = draw(_RELS)(K, draw(st.integers(0, 30)))
        c = (sp.And if draw(st.booleans()) else sp.Or)(c, other)
    return sp.Not(c) if draw(st.integers(0, 5)) == 0 else c


# exact coefficients too: a Rational meets a Float rounded to it, and a piece of 0 makes a
# product the Integer 0, as SymPy has them
_FACTOR = st.sampled_from([sp.Integer(1), sp.Integer(0), sp.Integer(3), sp.Rational(1, 3),
                           sp.Rational(-7, 2)])


@st.composite
def _terms(draw):
    pieces = [(draw(_COEF) * (K if draw(st.booleans()) else draw(_FACTOR)) + draw(_COEF),
               draw(_conditions()))
              for _ in range(draw(st.integers(1, 3)))]
    term = sp.Piecewise(*pieces, (draw(_COEF), True))
    if draw(st.booleans()):
        term = term + draw(_COEF) * K
    if draw(st.booleans()):
        term = term * 3 + sp.Piecewise((draw(_COEF), draw(_conditions())), (0, True))
    return term


@settings(max_examples=200, deadline=None)
@given(_terms(), st.integers(0, 70))
def test_exact_sum_is_the_term_by_term_sum(term, n):
    """The piece chosen without rebuilding the Piecewise is what the rebuild gives: the same
    expression, bit for bit (srepr), for IF chains of relations on the index."""
    assert sp.srepr(exact_sum(term, K, n)) == sp.srepr(_plain(term, n))


def test_a_term_in_the_index_alone_is_the_rebuild_worked_by_hand():
    """FT's shape: Σ over k = 0..63 of 5.62e-8 where 32 <= MOD(5k + 5, 64) <= 47, 0
    elsewhere. 5k + 5 (mod 64) visits every residue once as k runs over 64 values (5 is odd),
    so 16 of the 64 terms are 5.62e-8 and the rest the Integer 0: 16 additions of the double
    5.62e-8 in a row, whatever the order of the zeros between them."""
    c = sp.And(sp.Mod(5 * K + 5, 64) >= 32, sp.Mod(5 * K + 5, 64) <= 47)
    term = sp.Float(5.62e-8) * sp.Piecewise((1, c), (0, True))
    expected = 0.0
    for _ in range(16):
        expected += 5.62e-8
    assert exact_sum(term, K, 64) == sp.Float(expected)
    assert sp.srepr(exact_sum(term, K, 64)) == sp.srepr(_plain(term, 64))
    # k = 0..4: 5k + 5 = 5..25, below 32 every time: five Integer zeros, not a Float 0.0
    assert sp.srepr(exact_sum(term, K, 5)) == sp.srepr(_plain(term, 5)) == "Integer(0)"


def test_a_condition_on_another_symbol_is_rebuilt():
    """A condition k alone does not decide (an outer index, an input) keeps the Piecewise."""
    m = sp.Symbol("M", integer=True, positive=True)
    term = sp.Piecewise((sp.Float(1.0), sp.Le(K, m)), (sp.Float(2.0), True))
    assert exact_sum(term, K, 5) == _plain(term, 5)
    assert exact_sum(term, K, 5).subs(m, 2) == 3 * 1.0 + 2 * 2.0


class _Loop:
    class loc:
        line = 42


def test_the_same_sum_again_is_remembered_with_its_notes():
    """An estimate's note is said at every sum (the loop closed again), the sum worked out once."""
    i = sp.Dummy("I", integer=True)
    body = sp.Piecewise((sp.Float(1.0), sp.Eq(i % 7, 0)), (sp.Float(2.0), True))
    n = summation.NUMERIC_SUM_LIMIT + 10  # (up to the limit, summed exactly: no estimate)
    first, second = [], []
    summation._SUMS.clear()
    a = sum_over(body, i, sp.Integer(1), sp.Integer(1), n, _Loop, first)
    assert len(summation._SUMS) == 1
    j = sp.Dummy("I", integer=True)  # the same body closed again: a new index symbol
    b = sum_over(body.xreplace({i: j}), j, sp.Integer(1), sp.Integer(1), n, _Loop, second)
    assert len(summation._SUMS) == 1
    assert a == b
    assert first == second and len(first) == 1 and "estimated from 256" in first[0]
