"""IterD and CondtD against the paper's equations (core paper §3.4.2).

    δ_IterD = t_FixedOverhd + NumIters × [t_PerIterOverhd + δ_VirtualOper]

    Ω_CondtD = [C1 C2]           × [Ω_Seq1 + 2 t_Ovhd1 + t_Ovhd2]
             + [¬(C1 C2) C3]     × [Ω_Seq2 + 3 t_Ovhd1 + t_Ovhd2]
             + [¬(C1 C2) ¬C3]    × [Ω_Seq3 + 4 t_Ovhd1 + t_Ovhd2]

(Algorithm 3; the paper writes the weights of the second and third bodies as products
(1−C1)(1−C2)…, which leave C1 = 1, C2 = 0 without a branch: Fortran takes the ELSE IF /
ELSE there, and so do these tests.) t_Ovhd1 is Table 1's Condt Ovhd per condition tested
(C1 .AND. C2 counts two, ELSE one), t_Ovhd2 the Branch Taken Ovhd.
"""

from __future__ import annotations

import itertools

import pytest
import sympy as sp

from .helpers import (
    ADD, COND, FETCH, NOSTEP_FIXED, NOSTEP_ITER, PROGRAMS, REL, STEP_FIXED, STEP_ITER, STORE,
    TAKEN, formula_at, program, run,
)

BODY = FETCH + ADD + STORE  # S = S + 1.0D0 (S hits the cache; the literal costs nothing)
INIT = STORE  # S = 0.0D0


def approx(x):
    return pytest.approx(x, rel=REL)


def _symbol(expr, name):
    return next(s for s in expr.free_symbols if s.name == name)


# ---- IterD -------------------------------------------------------------------------------


def test_iterd_symbolic_trip_count():
    """DO 10 I = 1, N: t_fixed = no-step limit overhead + fetching N; NumIters = N."""
    pred = run(program("loopn.f"), 1)
    n = _symbol(pred.total, "N")
    poly = sp.Poly(pred.total, n)
    assert poly.degree() == 1
    t_fixed = NOSTEP_FIXED + FETCH
    t_per_iter = NOSTEP_ITER
    assert float(poly.coeff_monomial(n)) == approx(t_per_iter + BODY)
    assert float(poly.coeff_monomial(1)) == approx(INIT + t_fixed)
    assert float(poly.coeff_monomial(n)) == approx((14 + 8) / 2 * 25e-9 + (1 + 1 + 2) * 25e-9)


@pytest.mark.parametrize("n", [1, 2, 1000, 10**9])
def test_iterd_at_a_given_n_equals_the_formula(n):
    pred = run(program("loopn.f"), 1, {"N": n})
    assert pred.seconds == approx(INIT + (NOSTEP_FIXED + FETCH) + n * (NOSTEP_ITER + BODY))
    reference = run(program("loopn.f"), 1, {"N": n}, symbolic=False) if n <= 1000 else pred
    assert reference.seconds == approx(pred.seconds)


def test_iterd_with_a_step():
    """DO 10 I = 1, N, 3: Table 1's step overheads; NumIters = floor((N - 1 + 3)/3)."""
    pred = run(program("loopstep.f"), 1)
    for n in (1, 2, 3, 4, 5, 6, 7, 100, 101, 102):
        iters = (n - 1 + 3) // 3
        expected = INIT + (STEP_FIXED + FETCH) + iters * (STEP_ITER + BODY)
        assert formula_at(pred.total, N=n) == approx(expected), f"N = {n}"


def test_iterd_literal_step_one_is_no_step():
    with_one = run(program("loopone.f"), 1)
    without = run(program("loopn.f"), 1)
    for n in (1, 17, 4096):
        assert formula_at(with_one.total, N=n) == approx(formula_at(without.total, N=n))


def test_iterd_triangular_sum_over_the_index():
    """DO 20 I = 1, N / DO 10 J = 1, I: the inner loop's δ depends on I, so the outer δ is a
    Σ over I: N·t_per_iter + Σ_{i=1..N} (t_fixed + i·(t_per_iter + body))."""
    pred = run(program("looptri.f"), 1)
    n = _symbol(pred.total, "N")
    poly = sp.Poly(pred.total, n)
    assert poly.degree() == 2
    inner_fixed = NOSTEP_FIXED + FETCH  # fetching I for the bound
    assert float(poly.coeff_monomial(n**2)) == approx((NOSTEP_ITER + BODY) / 2)
    assert float(poly.coeff_monomial(n)) == approx(NOSTEP_ITER + inner_fixed
                                                   + (NOSTEP_ITER + BODY) / 2)
    assert float(poly.coeff_monomial(1)) == approx(INIT + NOSTEP_FIXED + FETCH)
    for k in (1, 5, 64):
        expected = INIT + NOSTEP_FIXED + FETCH + sum(
            NOSTEP_ITER + inner_fixed + i * (NOSTEP_ITER + BODY) for i in range(1, k + 1))
        assert formula_at(pred.total, N=k) == approx(expected)


# ---- CondtD: Algorithm 3 -----------------------------------------------------------------

SEQ = {1: 1 * STORE, 2: 2 * STORE, 3: 3 * STORE}
TESTED = {1: 2, 2: 3, 3: 4}  # conditions tested to reach each body: C1 C2 | C3 | ELSE


def _branch(c1: int, c2: int, c3: int) -> int:
    if c1 and c2:
        return 1
    return 2 if c3 else 3


@pytest.mark.parametrize("k1, k2, k3", list(itertools.product((0, 1), repeat=3)))
def test_condtd_overheads_exactly_as_the_paper(tmp_path, k1, k2, k3):
    """Constant conditions (PARAMETERs cost nothing to evaluate): each branch costs exactly
    Ω_Seq + n·t_Ovhd1 + t_Ovhd2 with n = 2, 3, 4."""
    source = (PROGRAMS / "condtk.f").read_text().replace(
        "PARAMETER (K1 = 1, K2 = 1, K3 = 1)", f"PARAMETER (K1 = {k1}, K2 = {k2}, K3 = {k3})")
    path = tmp_path / f"condtk_{k1}{k2}{k3}.f"
    path.write_text(source)
    pred = run(str(path), 1)
    b = _branch(k1, k2, k3)
    expected = {1: SEQ[1] + 2 * COND + TAKEN,
                2: SEQ[2] + 3 * COND + TAKEN,
                3: SEQ[3] + 4 * COND + TAKEN}[b]
    assert expected == approx(SEQ[b] + TESTED[b] * COND + TAKEN)
    assert pred.seconds == approx(expected)


def test_condtd_symbolic_is_the_weighted_sum():
    """I1, I2, I3 not given: the formula is the paper's weighted sum (a Piecewise). Here each
    atomic condition also fetches its operand (one variable each; the comparison itself is
    the condition overhead)."""
    pred = run(program("condtd.f"), 1)
    assert {s.name for s in pred.total.free_symbols} == {"I1", "I2", "I3"}
    fetches = {1: 2, 2: 3, 3: 3}  # I1, I2 | + I3 | + nothing (ELSE has no operand)
    for c1, c2, c3 in itertools.product((0, 1), repeat=3):
        b = _branch(c1, c2, c3)
        expected = SEQ[b] + TESTED[b] * COND + TAKEN + fetches[b] * FETCH
        values = {"I1": 1 if c1 else 2, "I2": 1 if c2 else 7, "I3": 1 if c3 else 3}
        assert formula_at(pred.total, **values) == approx(expected), (c1, c2, c3)
        given = run(program("condtd.f"), 1, values, symbolic=False)
        assert given.seconds == approx(expected), (c1, c2, c3)
