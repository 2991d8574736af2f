"""Expressions as SymPy: Fortran integer arithmetic and DO-loop trip counts."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
import sympy as sp

from interp.application.expr import fortran_mod, int_div, to_sympy, trip_count

from .helpers import body


def fortran_do_iterations(start: int, stop: int, step: int) -> int:
    """Count the iterations of DO I = start, stop, step by running the loop (F77 semantics)."""
    count, i = 0, start
    while (step > 0 and i <= stop) or (step < 0 and i >= stop):
        count += 1
        i += step
    return count


ME, N, NP = (sp.Symbol(s, integer=True) for s in ("ME", "N", "NP"))


def test_cyclic_loop_trip_count_is_the_f77_formula(aag_of):
    aag = aag_of("""
        PROGRAM P
        INTEGER ME, N, NP, I
        DO 10 I = ME+1, N-1, NP
          X = X + 1.0
        10 CONTINUE
        END
    """)
    (loop,) = body(aag)
    expected = sp.Max(0, sp.floor((N - 1 - (ME + 1) + NP) / NP))
    assert sp.simplify(loop.num_iters - expected) == 0
    # and it counts what the loop really does, for every node of every machine size
    for np_, n, me in itertools.product(range(1, 9), range(0, 40, 3), range(0, 8)):
        if me >= np_:
            continue
        got = loop.num_iters.subs({ME: me, N: n, NP: np_})
        assert got == fortran_do_iterations(me + 1, n - 1, np_), (me, n, np_)


@pytest.mark.parametrize("start, stop, step, count", [
    (1, 10, None, 10),
    (1, 0, None, 0),       # zero-trip loop
    (1, 10, 3, 4),         # 1, 4, 7, 10
    (10, 1, -1, 10),
    (10, 1, -3, 4),        # 10, 7, 4, 1
    (1, 10, -1, 0),
    (5, 5, 1, 1),
])
def test_numeric_trip_counts(start, stop, step, count):
    got = trip_count(sp.Integer(start), sp.Integer(stop), None if step is None else sp.Integer(step))
    assert got == count == fortran_do_iterations(start, stop, step or 1)


def test_trip_count_with_unit_step_stays_linear():
    assert trip_count(sp.Integer(1), N, None) == sp.Max(0, N)
    assert trip_count(sp.Integer(0), N + 1, sp.Integer(1)) == sp.Max(0, N + 2)


@pytest.mark.parametrize("a, b, q, r", [(7, 2, 3, 1), (-7, 2, -3, -1), (7, -2, -3, 1), (-7, -2, 3, -1)])
def test_integer_division_truncates_and_mod_takes_the_sign_of_the_dividend(a, b, q, r):
    assert int_div(sp.Integer(a), sp.Integer(b)) == q
    assert fortran_mod(sp.Integer(a), sp.Integer(b)) == r


def test_parameters_fold_and_integer_division_truncates_in_expressions(aag_of):
    aag = aag_of("""
        PROGRAM P
        INTEGER N, M, I
        PARAMETER (N = 7, M = N/2)
        DO 10 I = 1, M*3 - MOD(-N, 4)
        10 CONTINUE
        END
    """)
    (loop,) = body(aag)
    # M = 7/2 = 3 (truncated); MOD(-7, 4) = -3; stop = 3*3 - (-3) = 12
    assert loop.num_iters == 12


def test_mpif_constants_are_values(aag_of):
    aag = aag_of("""
        PROGRAM P
        INCLUDE 'mpif.h'
        DO 10 I = 1, MPI_STATUS_SIZE
        10 CONTINUE
        END
    """)
    (loop,) = body(aag)
    assert loop.num_iters == 5


def test_symbols_are_integer_for_integer_variables(aag_of):
    aag = aag_of("""
        PROGRAM P
        DO 10 I = 1, K/2
        10 CONTINUE
        END
    """)
    (loop,) = body(aag)
    k = sp.Symbol("K", integer=True)
    assert loop.num_iters == sp.Max(0, sp.floor(k / 2))


def test_to_sympy_of_relational_and_logical(aag_of):
    aag = aag_of("""
        PROGRAM P
        IF (I .LT. 3 .AND. .NOT. (J .EQ. 0)) X = 1
        END
    """)
    (cond_aau,) = body(aag)
    u = next(iter(aag.units.values()))
    got = to_sympy(cond_aau.branches[0].cond, u.symbols)
    i, j = sp.Symbol("I", integer=True), sp.Symbol("J", integer=True)
    assert got == sp.And(i < 3, sp.Not(sp.Eq(j, 0)))


def _evaluated_trip_count(span: sp.Expr, step: int) -> sp.Expr:
    """What SymPy's own evaluation makes of the count (the path without the shortcut)."""
    return sp.Max(0, sp.floor(span / step))


@pytest.mark.parametrize("step", [2, 3, 16, 64])
def test_cyclic_shortcut_is_sympys_own_result(step):
    """trip_count(k, N - 1, step) for every first index k of a cyclic distribution over
    ``step`` processes (and a few beyond): the floor the shortcut builds unevaluated is the
    expression SymPy's evaluation gives, Max(0, .) dropped, e.g. step 16, k = 1: span N + 14,
    floor(N/16 + 7/8)."""
    n = sp.Symbol("N", integer=True, positive=True)
    for k in range(1, step + 3):
        got = trip_count(sp.Integer(k), n - 1, sp.Integer(step))
        assert got == _evaluated_trip_count(n - 1 - k + step, step), (k, step)
    assert trip_count(sp.Integer(1), n - 1, sp.Integer(16)) == sp.floor(n / 16 + sp.Rational(7, 8))


@given(c=st.integers(-40, 400), step=st.integers(2, 100))
@settings(max_examples=60, deadline=None)
def test_cyclic_shortcut_matches_sympy_or_is_not_taken(c, step):
    """Any span N + c: the shortcut's floor where it applies (c >= -1, step not dividing c),
    SymPy's evaluation elsewhere; both the same expression as SymPy's."""
    n = sp.Symbol("N", integer=True, positive=True)
    assert trip_count(sp.Integer(0), n + c - step, sp.Integer(step)) == \
        _evaluated_trip_count(n + c, step)


def test_cyclic_shortcut_needs_a_positive_integer_symbol():
    """N only an integer (it may be 0 or negative): Max(0, .) must stay, SymPy decides."""
    n = sp.Symbol("N", integer=True)
    got = trip_count(sp.Integer(1), n - 1, sp.Integer(16))
    assert got == _evaluated_trip_count(n + 14, 16) and isinstance(got, sp.Max)
