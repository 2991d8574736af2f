"""A loop whose processes' clocks advance by different amounts each iteration is folded.

programs/mpi_trapezoid/trap_mpi.f: every rank integrates its share and MPI_REDUCEs it onto
rank 0. The reduce is eager, so the leaves never wait: each runs ahead of the root at its own
pace (its share of the points), and no common shift of all clocks ever appears. The steady
state is a shift Δ_p per process; the fold must give what interpreting every iteration gives,
and the time at NITER = 10⁶ must be the line through the times at NITER = 10 and 11.
"""

from __future__ import annotations

import pytest
import sympy as sp

from interp.engine.steady import _held_for
from interp.engine.timeval import Lin
from interp.system import load_machine

from .helpers import PROGRAMS, REL, SAMPLES, formula_at, run

TRAP_MPI = SAMPLES / "mpi_trapezoid" / "trap_mpi.f"
P, N = 4, 1000


@pytest.fixture(scope="module")
def cluster():
    return load_machine("cluster")


def _folded(pred) -> list[str]:
    return [n for n in pred.notes if n.startswith("steady state reached")
            and "different amounts" in n]


def _unfolded(cluster, niter: int) -> float:
    return run(TRAP_MPI, P, {"N": N, "NITER": niter}, cluster, extend=False,
               symbolic=False).seconds


@pytest.mark.parametrize("niter", [10, 200])
def test_fold_equals_every_iteration_interpreted(cluster, niter):
    folded = run(TRAP_MPI, P, {"N": N, "NITER": niter}, cluster)
    exact = run(TRAP_MPI, P, {"N": N, "NITER": niter}, cluster, exact=True)
    assert _folded(folded) and _folded(exact)
    unfolded = _unfolded(cluster, niter)
    assert folded.seconds == pytest.approx(unfolded, rel=REL)
    assert exact.seconds == pytest.approx(unfolded, rel=REL)


def test_a_million_iterations_is_the_line_in_niter(cluster):
    big = 10**6
    pred = run(TRAP_MPI, P, {"N": N, "NITER": big}, cluster)
    # 4 iterations interpreted before the period is seen, the rest in closed form: with NITER
    # kept a symbol, "NITER - 4 more"
    assert any("NITER - 4 more" in n for n in _folded(pred))
    # once steady, each iteration adds the root's Δ: T(NITER) = T(10) + (NITER - 10)·(T(11) - T(10))
    t10, t11 = _unfolded(cluster, 10), _unfolded(cluster, 11)
    line = t10 + (big - 10) * (t11 - t10)
    assert pred.seconds == pytest.approx(line, rel=REL)
    assert formula_at(pred.total, N=N, NITER=big) == pytest.approx(line, rel=REL)
    assert formula_at(pred.total, N=N, NITER=10) == pytest.approx(t10, rel=REL)


def test_a_drift_that_would_change_who_waits_is_folded_only_up_to_the_change(cluster):
    """drift_flip.f: the root of a reduce starts 20 000 additions late and then adds 100 an
    iteration against the leaf's 600, so it gains 500 additions an iteration and, before its
    80 iterations end, waits for the leaf. A fold of all the drifting iterations would keep
    the root from ever waiting; a fold may only reach the iteration before the first whose
    wait is decided otherwise, which is interpreted, and the fold after it comes once the
    waits repeat. Every process's finish and parts must be those of the run interpreting
    every iteration."""
    f = PROGRAMS / "drift_flip.f"
    folded = run(f, 2, {}, cluster)
    unfolded = run(f, 2, {}, cluster, extend=False, symbolic=False)
    partial = [n for n in _folded(folded) if "a wait would be decided otherwise" in n]
    assert partial, folded.notes
    assert not _folded(unfolded)
    for p, q in zip(folded.processes, unfolded.processes):
        assert float(p.finish) == pytest.approx(float(q.finish), rel=REL)
        for part in ("computation", "transmission", "waiting"):
            assert float(p.cats[part]) == pytest.approx(float(q.cats[part]), rel=REL, abs=1e-15)


@pytest.mark.parametrize("margin, rate, sign, m, held", [
    # 10 − 3j ≥ 0 up to j = 3 (10 − 9 = 1), not at 4 (−2)
    (10.0, -3.0, 1, 100, 3),
    (10.0, -3.0, 1, 2, 2),  # no further than the iterations left
    (-10.0, 3.0, -1, 100, 3),  # −10 + 9 = −1 < 0, −10 + 12 = 2 is not
    (10.0, 3.0, 1, 100, 100),  # moving away from 0: all of them
])
def test_a_drift_holds_up_to_the_first_iteration_that_flips_a_wait(margin, rate, sign, m, held):
    assert _held_for(margin, rate, sign, m) == held


def test_a_symbolic_margin_holds_while_its_sign_is_decided_for_every_input():
    """10 + N/1000 − 3j ≥ 0 for every N > 0 while 10 − 3j ≥ 0 (j ≤ 3); −10 − N + 3j < 0
    for every N > 0 while −10 + 3j < 0... and at j = 4 it is 2 − N, undecided: 3."""
    n = sp.Symbol("N", positive=True, integer=True)
    assert _held_for(Lin.of(10 + n / 1000), -3.0, 1, 100) == 3
    assert _held_for(Lin.of(-10 - n), Lin.of(3.0), -1, 100) == 3
